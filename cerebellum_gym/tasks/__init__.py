"""Tasks judged through the Device interface, and their registry.

Importing this package registers every bundled task.
"""

from __future__ import annotations

from cerebellum_gym.tasks import (
    calendar,
    clipboard,
    clock,
    contacts,
    draw,
    expense,
    files,
    gallery,
    joplin,
    markor,
    media,
    opentracks,
    osmand,
    recipe,
    retro,
    sms,
    system,
    tasks_org,
    vlc,
)
from cerebellum_gym.tasks.base import Oracle, Task
from cerebellum_gym.tasks.registry import (
    TASKS,
    apps,
    families,
    get_task_class,
    iter_tasks,
    make_task,
    register_task,
    resolve_app,
    resolve_family,
    task_names,
)

__all__ = [
    "TASKS",
    "Oracle",
    "Task",
    "apps",
    "calendar",
    "clipboard",
    "clock",
    "contacts",
    "draw",
    "expense",
    "families",
    "files",
    "gallery",
    "get_task_class",
    "iter_tasks",
    "joplin",
    "make_task",
    "markor",
    "media",
    "opentracks",
    "osmand",
    "recipe",
    "register_task",
    "resolve_app",
    "resolve_family",
    "retro",
    "sms",
    "system",
    "task_names",
    "tasks_org",
    "vlc",
]
