"""Chrome's screens: the first run's terms and usage-statistics checkbox, the new tab page
(home, tab switcher and menu over the search box, no omnibox), and a page under the toolbar
with its URL in ``url_bar`` and its content in a WebView named by the page's title, whose
nodes carry their HTML ids bare, as Chrome's accessibility tree gives them."""

from __future__ import annotations

from test_vlc import node, tap

from cerebellum_gym.appdata.browser_pages import page_html
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.tasks.files import PAGE_TITLES

CHROME = "com.android.chrome"


def rid(name: str) -> str:
    return f"{CHROME}:id/{name}"


def test_first_run_then_the_new_tab_page() -> None:
    phone = Phone()
    phone.start_app(CHROME)
    box = node(phone, class_name="android.widget.CheckBox")
    assert box.checkable and box.checked and box.text.startswith("Help make Chrome better")
    tap(phone, class_name="android.widget.CheckBox")
    assert not node(phone, class_name="android.widget.CheckBox").checked
    tap(phone, text="Accept & continue")
    tap(phone, text="No thanks")
    for name, desc in (("home_button", "Home"), ("tab_switcher_button", "1 open tab, tap to switch tabs"), ("menu_button", "More options")):
        button = node(phone, resource_id=rid(name))
        assert (button.class_name, button.content_desc) == ("android.widget.ImageButton", desc)
    search = node(phone, resource_id=rid("search_box_text"))
    assert (search.class_name, search.text) == ("android.widget.EditText", "Search or type web address")
    assert phone.ui_tree().find(resource_id=rid("url_bar")) is None  # the page's search box stands in for it
    assert node(phone, content_desc="Start voice search").clickable


def test_a_page_under_the_toolbar() -> None:
    phone = Phone()
    phone.write_file("/sdcard/Download/task.html", page_html("draw", 7, PAGE_TITLES["draw"]).encode())
    chrome = phone.app(CHROME)
    chrome.data.update(welcomed=True, sync_asked=True)
    chrome.reset_to("page", url="file:///sdcard/Download/task.html")
    phone.start_app(CHROME)
    url = node(phone, resource_id=rid("url_bar"))
    assert (url.class_name, url.text) == ("android.widget.EditText", "file:///sdcard/Download/task.html")
    web = node(phone, class_name="android.webkit.WebView")
    assert web.text == "Color Challenge"
    ids = {n.resource_id for n in web.iter()}
    assert {"canvas", "clearButton", "submitButton", "colorPalette", "taskColors"} <= ids
    assert not any(i.startswith(CHROME) for i in ids if i)
    tap(phone, resource_id=rid("home_button"))
    assert node(phone, resource_id=rid("search_box_text")).text == "Search or type web address"
