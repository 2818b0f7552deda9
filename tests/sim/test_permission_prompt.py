"""Android 13's notification permission prompt where the simulated apps reach it: Tasks.org's
editor asks for POST_NOTIFICATIONS (AndroidWorld's set-up does not grant it), the prompt answers
with the permission controller's ids, and the answer sticks (``pm grant`` records one too)."""

from __future__ import annotations

import numpy as np
import pytest

from cerebellum_gym.core.tree import UINode
from cerebellum_gym.devices.base import KEYCODE_BACK
from cerebellum_gym.sim.apps import permissions
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.shell import Shell
from cerebellum_gym.tasks import make_task

TASKS = "org.tasks"
RID = "com.android.permissioncontroller:id/"


def _editor() -> Phone:
    """A Tasks task's first task opened in the editor, as a user gets there."""
    phone = Phone()
    make_task("TasksDueOnDate", np.random.default_rng(0)).start_episode(phone)
    phone.start_app(TASKS)
    title = phone.ui_tree().find(resource_id=f"{TASKS}:id/title")
    assert title is not None
    phone.tap(*title.center)
    return phone


def _reminders_row(phone: Phone) -> UINode | None:
    return next((n for n in phone.ui_tree().iter() if n.clickable and any(c.text == "Enable reminders" for c in n.children)), None)


def _ask(phone: Phone) -> None:
    row = _reminders_row(phone)
    assert row is not None
    phone.tap(*row.center)


def _tap(phone: Phone, rid: str) -> None:
    node = phone.ui_tree().find(resource_id=RID + rid)
    assert node is not None and node.clickable
    phone.tap(*node.center)


def test_the_editor_asks_for_notifications_and_the_prompt_is_the_systems() -> None:
    phone = _editor()
    row = _reminders_row(phone)
    assert row is not None and [c.text for c in row.children] == ["Enable reminders", "Reminders are disabled in Android Settings"]
    assert phone.ui_tree().find(text="Add reminder") is None
    _ask(phone)
    assert phone.foreground_package() == permissions.PACKAGE
    tree = phone.ui_tree()
    message = tree.find(resource_id=RID + "permission_message")
    assert message is not None and message.text == "Allow Tasks to send you notifications?"
    buttons = [(n.resource_id.split("/")[-1], n.text) for n in tree.iter() if n.clickable]
    assert buttons == [("permission_allow_button", "Allow"), ("permission_deny_button", "Don\u2019t allow")]


def test_allow_returns_to_the_editor_with_reminders_enabled() -> None:
    phone = _editor()
    _ask(phone)
    _tap(phone, "permission_allow_button")
    assert phone.foreground_package() == TASKS
    assert permissions.granted(phone, TASKS, permissions.POST_NOTIFICATIONS)
    assert _reminders_row(phone) is None and phone.ui_tree().find(text="Add reminder") is not None


def test_back_dismisses_without_an_answer_and_two_refusals_stop_the_asking() -> None:
    phone = _editor()
    _ask(phone)
    phone.press_key(KEYCODE_BACK)
    assert phone.foreground_package() == TASKS and permissions.refusals(phone, TASKS, permissions.POST_NOTIFICATIONS) == 0
    _ask(phone)
    _tap(phone, "permission_deny_button")
    assert phone.foreground_package() == TASKS and _reminders_row(phone) is not None
    _ask(phone)  # asked again, now with "don't ask again" behind the same label
    _tap(phone, "permission_deny_and_dont_ask_again_button")
    _ask(phone)  # refused twice: Android answers at once, no prompt
    assert phone.foreground_package() == TASKS and _reminders_row(phone) is not None


@pytest.mark.parametrize(("command", "held"), [("grant", True), ("revoke", False)])
def test_pm_grant_and_revoke_are_what_the_editor_reads(command: str, held: bool) -> None:
    phone = _editor()
    shell = Shell(phone)
    shell.run("pm grant org.tasks android.permission.POST_NOTIFICATIONS")
    shell.run(f"pm {command} org.tasks android.permission.POST_NOTIFICATIONS")
    assert permissions.granted(phone, TASKS, permissions.POST_NOTIFICATIONS) is held
    assert (_reminders_row(phone) is None) is held


def test_showing_the_editor_changes_no_state() -> None:
    """Reading whether Tasks may notify records nothing: only an answer does."""
    phone = _editor()
    assert permissions.PACKAGE not in phone.state.app_data
    _ask(phone)
    phone.press_key(KEYCODE_BACK)
    assert permissions.PACKAGE not in phone.state.app_data or not phone.state.app_data[permissions.PACKAGE].get("permissions")
