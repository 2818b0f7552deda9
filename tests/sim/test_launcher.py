"""The Pixel launcher: home screen (date, tray, search bar), the app drawer a swipe up opens, its
search, and the ways back home; through the env's own actions where an agent would act."""

from __future__ import annotations

import gymnasium as gym
import pytest

import cerebellum_gym  # noqa: F401
from cerebellum_gym.core.tree import UINode
from cerebellum_gym.devices.base import KEYCODE_BACK, KEYCODE_ENTER, KEYCODE_HOME
from cerebellum_gym.sim.apps.launcher import matches, open_drawer
from cerebellum_gym.sim.phone import LAUNCHER_PACKAGE, Phone

DRAWER_LIST = f"{LAUNCHER_PACKAGE}:id/apps_list_view"
SEARCH_FIELD = f"{LAUNCHER_PACKAGE}:id/search_container_all_apps"


def _in_drawer(phone: Phone) -> bool:
    return phone.ui_tree().find(resource_id=DRAWER_LIST) is not None


def _swipe(phone: Phone, dy: int) -> None:
    """A vertical swipe over the middle of the screen; positive ``dy`` moves the finger up."""
    phone.swipe(540, 1200 + dy // 2, 540, 1200 - dy // 2)


def _icons(root: UINode) -> list[str]:
    return [n.text for n in root.iter() if n.class_name == "android.widget.TextView" and n.text == n.content_desc and n.text]


def test_home_shows_the_date_the_tray_and_the_search_bar() -> None:
    phone = Phone()
    tree = phone.ui_tree()
    assert phone.foreground_package() == LAUNCHER_PACKAGE and not _in_drawer(phone)
    # AndroidWorld freezes its phone at Sunday 15 October 2023; "At a glance" reads so.
    date = tree.find(text="Sun, Oct 15")
    assert date is not None and date.clickable
    # The tray, then the page's row above it, as uiautomator lists AndroidWorld's home screen.
    assert _icons(tree) == ["Phone", "Messages", "Chrome", "Gmail", "Gmail", "Photos", "YouTube"]
    search = tree.find(content_desc="Search")
    assert search is not None and search.clickable
    assert [c.content_desc for c in search.children] == ["Google app", "Voice search", "Google Lens"]
    assert tree.find(text="Contacts") is None  # other apps sit in the drawer


@pytest.mark.parametrize("label", ["Messages", "Gmail", "Photos", "YouTube"])
def test_an_icon_of_an_app_the_simulator_lacks_is_clickable_and_leaves_home_as_it_is(label: str) -> None:
    phone = Phone()
    before = phone.dump_xml()
    node = phone.ui_tree().find(text=label)
    assert node is not None and node.clickable and node.long_clickable
    phone.tap(*node.center)
    assert phone.foreground_package() == LAUNCHER_PACKAGE and phone.dump_xml() == before


def test_the_tray_icons_of_simulated_apps_start_them() -> None:
    phone = Phone()
    node = phone.ui_tree().find(text="Chrome")
    assert node is not None
    phone.tap(*node.center)
    assert phone.foreground_package() == "com.android.chrome"


def test_a_swipe_up_opens_the_drawer_alphabetical_and_a_tap_starts_the_app() -> None:
    phone = Phone()
    _swipe(phone, 800)
    assert _in_drawer(phone)
    names = _icons(phone.ui_tree())
    assert names == sorted(names, key=str.lower) and "Contacts" in names and "Clipper" not in names
    node = phone.ui_tree().find(text="Contacts")
    assert node is not None
    phone.tap(*node.center)
    assert phone.foreground_package() == "com.google.android.contacts"
    phone.press_key(KEYCODE_HOME)
    assert phone.foreground_package() == LAUNCHER_PACKAGE and not _in_drawer(phone)  # home, not the drawer


@pytest.mark.parametrize("leave", ["back", "home", "pull down"])
def test_the_drawer_closes_back_to_home(leave: str) -> None:
    phone = Phone()
    open_drawer(phone)
    if leave == "back":
        phone.press_key(KEYCODE_BACK)
    elif leave == "home":
        phone.press_key(KEYCODE_HOME)
    else:
        _swipe(phone, -800)
    assert phone.foreground_package() == LAUNCHER_PACKAGE and not _in_drawer(phone)


def test_a_short_swipe_or_a_swipe_down_on_home_opens_nothing() -> None:
    phone = Phone()
    _swipe(phone, 40)
    _swipe(phone, -800)
    assert not _in_drawer(phone)


def test_drawer_search_filters_by_the_start_of_a_word_and_enter_opens_the_first() -> None:
    phone = Phone()
    search = phone.ui_tree().find(content_desc="Search")
    assert search is not None
    phone.tap(*search.center)  # the search bar opens the drawer with its field focused
    assert _in_drawer(phone) and phone.focused_text() == ""
    phone.type_text("cal")
    assert _icons(phone.ui_tree()) == ["Simple Calendar Pro"]  # a word's start, not "Recal…"
    phone.type_text("x")
    tree = phone.ui_tree()
    assert _icons(tree) == [] and tree.find(text='No apps found matching "calx"') is not None
    phone.press_key(KEYCODE_ENTER)  # nothing to open
    assert phone.foreground_package() == LAUNCHER_PACKAGE
    phone.clear_focused_text()
    phone.type_text("SIMPLE")
    assert _icons(phone.ui_tree())[:2] == ["Simple Calendar Pro", "Simple Draw Pro"]
    phone.press_key(KEYCODE_ENTER)
    assert phone.foreground_package() == "com.simplemobiletools.calendar.pro"


@pytest.mark.parametrize(
    ("label", "query", "found"),
    [
        ("Simple SMS Messenger", "sms", True),
        ("Simple SMS Messenger", "mess", True),
        ("Simple SMS Messenger", "essenger", False),
        ("Pro Expense", " pro ", True),
        ("OsmAnd", "and", False),
        ("Retro Music", "", True),
    ],
)
def test_matches_the_start_of_words(label: str, query: str, found: bool) -> None:
    assert matches(label, query) is found


def test_the_env_opens_an_app_through_the_drawer() -> None:
    """An agent's path: ``D`` on the home screen (the workspace takes the swipe), then a tap."""
    env = gym.make("Cerebellum-Sim-v0")
    try:
        obs, _ = env.reset(seed=0, options={"task": "SystemWifiTurnOn"})
        assert '"Settings"' not in obs["tree"]
        obs, *_ = env.step("D")
        line = next(row for row in obs["tree"].splitlines() if '"Settings"' in row)
        obs, *_ = env.step("T " + line.split("[")[1][:2])
        assert env.unwrapped.device.foreground_package() == "com.android.settings"
    finally:
        env.close()
