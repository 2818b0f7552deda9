"""The served simulator's accessibility forest, as AndroidWorld's forwarder app would send it.

Real: the simulator's screens and its shell command ``cerebellum-a11y forest``; android_env's
generated ``AndroidAccessibilityForest`` class parsing the bytes; AndroidWorld's own
``representation_utils`` and its ``ContactsNewContactDraft`` judge; end to end, the embedded
AndroidWorld env (a private adb server, the served phone, AndroidWorld's controller). The one
stand-in: a device that is not the simulator (no real device here), an adb controller whose
``getprop`` names another product.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from cerebellum_gym.core.tree import to_uiautomator_xml
from cerebellum_gym.sim.a11y import forest_bytes
from cerebellum_gym.sim.adbd import AdbdServer
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.shell.android import Shell
from cerebellum_gym.tasks import make_task

pytest.importorskip("android_world", reason="AndroidWorld is not installed (scripts/dev.sh test installs it)")

from android_world.env import interface, representation_utils
from android_world.task_evals.single import contacts as aw_contacts

from cerebellum_gym.devices.androidworld import forest_to_tree
from cerebellum_gym.devices.androidworld.forest import LazyForest, has_forwarder, make_controller, parse_forest

CONTACTS = "com.google.android.contacts"


def draft(device: Phone, /, **values: str) -> None:
    """The new-contact form on screen, filled with ``values`` through the app's own route."""
    device.start_app(CONTACTS)
    app = device.app(CONTACTS)
    app.push("create", **{"first": "", "last": "", "phone": "", "label": "Mobile", **values})
    device.invalidate()


def screens() -> Iterator[tuple[str, Phone]]:
    """Screens of several kinds: home, settings, an empty and a filled form, a dialog open."""
    phone = Phone()
    yield "home", phone
    phone = Phone()
    phone.start_app("com.android.settings")
    yield "settings", phone
    phone = Phone()
    draft(phone)
    yield "empty form", phone
    phone = Phone()
    draft(phone, first="Eva", last="Lee", phone="555-123-4567", label="Work")
    phone.focus("contacts.create.last")
    yield "filled form", phone
    phone = Phone()
    draft(phone, first="Eva")
    phone.app(CONTACTS).set_dialog("label")
    phone.invalidate()
    yield "label menu", phone


@pytest.mark.parametrize("case", [name for name, _ in screens()])
def test_the_forest_holds_the_tree_uiautomator_prints(case: str) -> None:
    phone = dict(screens())[case]
    forest = parse_forest(forest_bytes(phone))
    assert len(forest.windows) == 2  # the app's, and the status bar's
    window = forest.windows[0]
    assert window.is_active and window.window_type == 1  # TYPE_APPLICATION
    tree = forest_to_tree(forest, phone.screen_size)
    assert [to_uiautomator_xml(c) for c in tree.children] == [to_uiautomator_xml(phone.ui_tree())]
    ids = [n.unique_id for n in window.tree.nodes]
    assert len(set(ids)) == len(ids) == sum(1 for _ in phone.ui_tree().iter())


def test_the_status_bar_is_a_system_window_androidworld_lists() -> None:
    """AndroidWorld's element lists end with the status bar: the clock, the mobile signal, the
    battery ("15:34", "Phone signal full.", "Battery 100 percent."); Wi-Fi shows while it is on."""
    phone = Phone()
    forest = parse_forest(forest_bytes(phone))
    bar = forest.windows[1]
    assert bar.window_type == 3 and not bar.is_active  # TYPE_SYSTEM
    assert {n.package_name for n in bar.tree.nodes} == {"com.android.systemui"}
    labels = [e.text or e.content_description for e in representation_utils.forest_to_ui_elements(forest)]
    assert labels[-5:] == ["15:34", "Wifi signal full.", "LTE", "Phone signal full.", "Battery 100 percent."]
    phone.put_setting("global", "wifi_on", "0")
    phone.state.clock += 3600
    labels = [e.text or e.content_description for e in representation_utils.forest_to_ui_elements(parse_forest(forest_bytes(phone)))]
    assert labels[-4:] == ["16:34", "LTE", "Phone signal full.", "Battery 100 percent."]
    assert "Wifi signal full." not in labels


def test_fields_carry_their_hints_and_empty_ones_show_them_as_text() -> None:
    phone = Phone()
    draft(phone, first="Eva")
    nodes = parse_forest(forest_bytes(phone)).windows[0].tree.nodes
    fields = {n.view_id_resource_name.rpartition("/")[2]: n for n in nodes if n.class_name == "android.widget.EditText"}
    assert {k: (f.text, f.hint_text, f.is_editable) for k, f in fields.items()} == {
        "first": ("Eva", "First name", True),
        "last": ("Last name", "Last name", True),
        "company": ("Company", "Company", True),
        "phone": ("Phone", "Phone", True),
        "email": ("Email", "Email", True),
        "date": ("Significant date", "Significant date", True),
    }
    label = next(n for n in nodes if n.class_name == "android.widget.Spinner")
    assert (label.text, label.content_description, label.hint_text, label.is_editable) == ("Mobile", "Mobile Phone", "", False)
    assert all(n.is_visible_to_user for n in nodes)
    root = next(n for n in nodes if n.depth == 0)
    assert list(root.child_ids) and all(n.depth > 0 for n in nodes if n is not root)


def test_the_shell_prints_the_forest_and_refuses_other_arguments() -> None:
    phone = Phone()
    draft(phone)
    shell = Shell(phone)
    assert shell.run("cerebellum-a11y forest").stdout == forest_bytes(phone)
    refused = shell.run("cerebellum-a11y tree")
    assert refused.code == 2 and b"usage" in refused.stderr


def _aw_judge(phone: Phone, params: dict[str, str]) -> float:
    """AndroidWorld's own judge on a state whose forest is the phone's."""
    task = aw_contacts.ContactsNewContactDraft(params)
    task.initialized = True  # its set-up has nothing to do on a device; only the flag is checked

    class Env:
        def get_state(self, wait_to_stabilize: bool = False) -> interface.State:
            forest = parse_forest(forest_bytes(phone))
            return interface.State(np.zeros((1, 1, 3), np.uint8), forest, representation_utils.forest_to_ui_elements(forest))

    return float(task.is_successful(Env()))  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(3))
def test_androidworlds_judge_reads_the_form_from_the_forest(seed: int) -> None:
    task = make_task("ContactsNewContactDraft", np.random.default_rng(seed))
    p = task.params
    filled = {"first": p["first"], "last": p["last"], "phone": p["phone"]}
    phone = Phone()
    draft(phone, **filled, label=p["phone_label"])
    assert _aw_judge(phone, p) == task.progress(phone) == 1.0
    phone = Phone()
    draft(phone, **filled)  # the label left at Mobile
    assert _aw_judge(phone, p) == task.progress(phone) == 0.0
    phone = Phone()
    draft(phone, **{**filled, "last": ""}, label=p["phone_label"])
    assert _aw_judge(phone, p) == task.progress(phone) == 0.0


class OtherDevice:
    """Stands in for a device that is not the simulator (none is reachable here)."""

    def execute_command(self, args: list[str], timeout: float | None = None) -> bytes:
        assert args == ["shell", "getprop", "ro.product.name"]
        return b"sdk_gphone64_x86_64\n"


def test_a_device_without_the_forwarder_gets_androidworlds_own_controller() -> None:
    from android_world.env import android_world_controller

    shim: Any = type("Shim", (), {"adb": OtherDevice()})()
    assert not has_forwarder(shim.adb)
    controller = make_controller(android_world_controller, shim)
    assert type(controller) is android_world_controller.AndroidWorldController


@pytest.fixture(scope="module")
def world() -> Iterator[Any]:
    pytest.importorskip("adbutils")
    from cerebellum_gym.devices.androidworld import embedded as androidworld_embedded

    with androidworld_embedded.EmbeddedAndroidWorld(AdbdServer(Phone(), port=0).start()) as served:
        yield served


def test_androidworld_on_the_served_simulator_gets_the_forest(world: Any) -> None:
    phone = world.server.phone
    draft(phone, first="Grace", last="Clark", phone="123-456-7890", label="Home")
    state = world.env.get_state()
    assert isinstance(state.forest, LazyForest)
    tree = forest_to_tree(state.forest, phone.screen_size)
    assert [to_uiautomator_xml(c) for c in tree.children] == [to_uiautomator_xml(phone.ui_tree())]
    elements = representation_utils.forest_to_ui_elements(state.forest)
    assert {e.hint_text for e in elements} >= {"First name", "Last name", "Phone"}
    assert world.env.controller.get_a11y_forest().windows[0].is_active
