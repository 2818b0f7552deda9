"""Settings' search (SettingsIntelligence's search page, issue 35): the home's card opens it
focused, results come as the user types, "No results", a result opens its page."""

from __future__ import annotations

from cerebellum_gym.sim.apps.settings import SEARCH_PKG, search_results
from cerebellum_gym.sim.phone import Phone
from tests.sim.screenhelpers import node, tap, texts

BACK = 4


def _open_search() -> Phone:
    phone = Phone()
    phone.start_app("com.android.settings")
    tap(phone, text="Search settings")
    return phone


def _ids(phone: Phone) -> set[str]:
    return {n.resource_id for n in phone.ui_tree().iter() if n.resource_id}


def test_the_card_opens_the_search_page_with_its_field_focused_and_empty() -> None:
    phone = _open_search()
    ids = _ids(phone)
    assert f"{SEARCH_PKG}:id/search_toolbar" in ids
    assert "android:id/search_src_text" in ids
    assert phone.focused_text() == ""  # the SearchView has focus, the query is empty
    node(phone, desc="Navigate up")
    assert "android:id/search_close_btn" not in ids  # no Clear query while empty
    assert "No results" not in texts(phone)  # an empty query shows saved queries (none), not "No results"


def test_typing_lists_matching_pages_with_their_breadcrumbs() -> None:
    phone = _open_search()
    phone.type_text("blue")
    shown = texts(phone)
    assert "Bluetooth" in shown
    assert "Connected devices > Connection preferences" in shown
    assert "Display" not in shown
    node(phone, desc="Clear query")


def test_a_query_matching_nothing_says_no_results_and_clear_query_empties_it() -> None:
    phone = _open_search()
    phone.type_text("qqqq")
    assert "No results" in texts(phone)
    tap(phone, desc="Clear query")
    assert phone.focused_text() == ""
    assert "No results" not in texts(phone)


def test_a_result_opens_its_settings_page_and_back_returns_to_the_search() -> None:
    phone = _open_search()
    phone.type_text("dark")
    tap(phone, text="Dark theme")
    assert node(phone, desc="Display").resource_id == "com.android.settings:id/collapsing_toolbar"
    assert "Dark theme" in texts(phone)
    phone.press_key(BACK)
    assert "android:id/search_src_text" in _ids(phone)


def test_a_result_changes_the_setting_where_the_page_does() -> None:
    phone = _open_search()
    phone.type_text("Bluetooth")
    row = next(n for n in phone.ui_tree().iter() if n.text == "Bluetooth" and n.resource_id == "android:id/title")
    phone.tap((row.bounds[0] + row.bounds[2]) // 2, (row.bounds[1] + row.bounds[3]) // 2)
    before = phone.get_setting("global", "bluetooth_on")
    tap(phone, text="Use Bluetooth")
    assert phone.get_setting("global", "bluetooth_on") != before


def test_navigate_up_returns_to_the_settings_home() -> None:
    phone = _open_search()
    tap(phone, desc="Navigate up")
    assert "Search settings" in texts(phone)
    assert "android:id/search_src_text" not in _ids(phone)


def test_matching_is_by_the_start_of_a_word_titles_starting_with_it_first() -> None:
    titles = [row[0] for row in search_results("bri")]
    assert titles[0] == "Brightness level"
    assert "Adaptive brightness" in titles
    assert search_results("   ") == []
    assert search_results("xyz") == []


def test_opened_results_and_submitted_queries_are_saved_and_listed_newest_first() -> None:
    phone = _open_search()
    phone.type_text("dark")
    tap(phone, text="Dark theme")
    phone.press_key(BACK)
    tap(phone, desc="Clear query")
    phone.type_text("wifi")
    phone.press_key(66)  # Enter submits the query: it is saved
    tap(phone, desc="Navigate up")
    tap(phone, text="Search settings")
    rows = [n.text for n in phone.ui_tree().iter() if n.resource_id == "android:id/title"]
    assert rows == ["wifi", "dark"]
    tap(phone, text="dark")  # a saved query fills the field and searches again
    assert "Dark theme" in texts(phone)
