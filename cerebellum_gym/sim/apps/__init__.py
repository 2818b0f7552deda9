"""The apps bundled with the simulator.

Each app is one module here holding its screens, its state and its database declaration, and
registers itself (:func:`~cerebellum_gym.sim.apps.registry.register_app`); adding an app is its
module and one import line below.
"""

from __future__ import annotations

from cerebellum_gym.sim.apps.base import App
from cerebellum_gym.sim.apps.broccoli import BroccoliApp
from cerebellum_gym.sim.apps.browser import ChromeApp
from cerebellum_gym.sim.apps.calendar import SimpleCalendarApp
from cerebellum_gym.sim.apps.camera import CameraApp
from cerebellum_gym.sim.apps.clipper import ClipperApp
from cerebellum_gym.sim.apps.clock import ClockApp
from cerebellum_gym.sim.apps.contacts import ContactsApp
from cerebellum_gym.sim.apps.dialer import DialerApp
from cerebellum_gym.sim.apps.draw import SimpleDrawApp
from cerebellum_gym.sim.apps.expense import ProExpenseApp
from cerebellum_gym.sim.apps.files import FilesApp
from cerebellum_gym.sim.apps.gallery import SimpleGalleryApp
from cerebellum_gym.sim.apps.joplin import JoplinApp
from cerebellum_gym.sim.apps.markor import MarkorApp
from cerebellum_gym.sim.apps.opentracks import OpenTracksApp
from cerebellum_gym.sim.apps.osmand import OsmAndApp
from cerebellum_gym.sim.apps.permissions import PermissionControllerApp
from cerebellum_gym.sim.apps.recorder import AudioRecorderApp
from cerebellum_gym.sim.apps.registry import registered_apps
from cerebellum_gym.sim.apps.retro import RetroMusicApp
from cerebellum_gym.sim.apps.settings import SettingsApp
from cerebellum_gym.sim.apps.sms import SimpleSmsApp
from cerebellum_gym.sim.apps.tasks_org import TasksApp
from cerebellum_gym.sim.apps.vlc import VlcApp

#: Installed on a default :class:`~cerebellum_gym.sim.phone.Phone`, besides the launcher: every app
#: registered (:mod:`cerebellum_gym.sim.apps.registry`), which the imports above have done.
DEFAULT_APPS: tuple[type[App], ...] = registered_apps()

__all__ = [
    "DEFAULT_APPS",
    "App",
    "AudioRecorderApp",
    "BroccoliApp",
    "CameraApp",
    "ChromeApp",
    "ClipperApp",
    "ClockApp",
    "ContactsApp",
    "DialerApp",
    "FilesApp",
    "JoplinApp",
    "MarkorApp",
    "OpenTracksApp",
    "OsmAndApp",
    "PermissionControllerApp",
    "ProExpenseApp",
    "RetroMusicApp",
    "SettingsApp",
    "SimpleCalendarApp",
    "SimpleDrawApp",
    "SimpleGalleryApp",
    "SimpleSmsApp",
    "TasksApp",
    "VlcApp",
]
