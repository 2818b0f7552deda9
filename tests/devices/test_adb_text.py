"""Typed text is untrusted: whatever the agent types arrives exactly, and nothing in it runs."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cerebellum_gym.devices.adb import AdbDevice
from cerebellum_gym.errors import UnsupportedOperationError
from cerebellum_gym.sim.adbd import AdbdServer
from cerebellum_gym.sim.phone import Phone

CONTACTS = "com.google.android.contacts"
PAYLOADS = [
    "; touch /tmp/x",
    "$(touch /tmp/x)",
    "`touch /tmp/x`",
    "a && settings put global wifi_on 0",
    "x | rm -rf /sdcard",
    "> /sdcard/owned",
    "'\"'\"' ; touch /tmp/x ; '",
    "\\'; touch /tmp/x; echo '",
    "line1\nsettings put global wifi_on 0",
    "%s literal %s",
    "-n --help",
    "*",
    "~ #comment",
    "${HOME}$PATH",
    "tab\there",
    "Zürich 東京 🙂",
    "\x00nul",
]


def focus_a_field(device: AdbDevice, phone: Phone) -> None:
    device.start_app(CONTACTS)
    create = device.ui_tree().find(content_desc="Create contact")
    assert create is not None
    device.tap(*create.center)
    field = device.ui_tree().find(resource_id=f"{CONTACTS}:id/first")
    assert field is not None
    device.tap(*field.center)
    assert phone.focused_text() == ""


def observable(phone: Phone) -> dict[str, Any]:
    """Everything a payload could change, except the focused field's text and the clock."""
    state = copy.deepcopy(phone.state)
    return {
        "settings": state.settings,
        "content": state.content,
        "files": {k: v for k, v in state.files.items() if not k.startswith("/data/local/tmp/")},
        "dirs": getattr(state, "dirs", None),
        "foreground": state.foreground,
        "focus": state.focus,
        "app_data": state.app_data,
    }


@pytest.fixture(scope="module")
def typing_target(served_module: Any) -> Any:
    focus_a_field(served_module.device, served_module.phone)
    return served_module


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=40))
@example(text=PAYLOADS[0])
@example(text="".join(PAYLOADS))
def test_arbitrary_text_arrives_exactly_and_runs_nothing(typing_target: Any, text: str) -> None:
    device, phone, server = typing_target.device, typing_target.phone, typing_target.server
    with server.lock:
        phone.clear_focused_text()
        before = observable(phone)
    device.type_text(text)
    with server.lock:
        assert phone.focused_text() == text
        after = observable(phone)
    assert after == before, "typing changed device state beyond the field"


@pytest.mark.parametrize("payload", PAYLOADS)
def test_each_payload_is_inert(typing_target: Any, payload: str) -> None:
    device, phone, server = typing_target.device, typing_target.phone, typing_target.server
    with server.lock:
        phone.clear_focused_text()
        before = observable(phone)
    device.type_text(payload)
    assert phone.focused_text() == payload
    assert observable(phone) == before
    with pytest.raises(FileNotFoundError):
        phone.read_file("/tmp/x")


def test_non_ascii_without_the_adb_keyboard_is_a_clear_error(adb_server: Any) -> None:
    server = AdbdServer(Phone(), adb_keyboard=False).start()
    try:
        device = AdbDevice(server.serial_for_adb, adb_port=adb_server.port, timeout=5)
        focus_a_field(device, server.phone)
        device.type_text("plain ascii, 100%s fine")
        assert server.phone.focused_text() == "plain ascii, 100%s fine"
        with pytest.raises(UnsupportedOperationError, match="ADB keyboard"):
            device.type_text("Zürich")
        assert server.phone.focused_text() == "plain ascii, 100%s fine"  # nothing half-typed
        ascii_only = AdbDevice(server.serial_for_adb, adb_port=adb_server.port, timeout=5, text_input="input")
        with pytest.raises(UnsupportedOperationError, match="printable ASCII"):
            ascii_only.type_text("line\nbreak")
    finally:
        adb_server.run("disconnect", server.serial_for_adb)
        server.stop()


def test_forced_adb_keyboard_route_types_ascii_too(typing_target: Any, adb_server: Any) -> None:
    device = AdbDevice(typing_target.serial, adb_port=adb_server.port, timeout=5, text_input="adbkeyboard")
    with typing_target.server.lock:
        typing_target.phone.clear_focused_text()
    device.type_text("it's $(id)")
    assert typing_target.phone.focused_text() == "it's $(id)"


def test_the_served_shell_would_run_an_unquoted_payload(typing_target: Any) -> None:
    # The property above has teeth: the simulator's shell really executes substitutions and
    # separators, so a client that forgot to quote would leave this file behind.
    out = typing_target.device.shell("input text x; touch /tmp/x; echo $(echo ran)", check=False)
    assert out.text == "ran\n"
    assert typing_target.phone.read_file("/tmp/x") == b""
    with typing_target.server.lock:
        typing_target.phone.remove_path("/tmp/x")


# --- long text: typed in bounded requests, whatever it holds ------------------------------------

LONG_TEXTS = {
    "ascii": "a" * 100_000,
    "quotes": "'" * 70_000,  # 5 bytes each once quoted
    "percent-s": "%s" * 20_000 + " 100% sure",
    "cjk": "東" * 100_000,  # 3 UTF-8 bytes each
    "emoji": "🙂" * 50_000,  # 4 UTF-8 bytes each
    "mixed": "x'y %s\"$(id)`z` ; &&\n" * 4_000,
}


def as_dumped(text: str) -> str:
    """``text`` as a uiautomator dump shows it: XML 1.0 cannot carry control characters, and a
    device's dump replaces them with U+FFFD."""
    return re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]", "\ufffd", text)


def typed_back(device: AdbDevice) -> str:
    """The focused field's text as the device's UI tree shows it."""
    focused = [n for n in device.ui_tree().iter() if n.focused]
    assert len(focused) == 1
    return focused[0].text


@pytest.mark.parametrize("name", list(LONG_TEXTS))
def test_long_text_of_any_content_arrives_exactly(typing_target: Any, name: str) -> None:
    """Before: past 65,535 bytes of request the adb server dropped the connection and the agent's
    own text became a DeviceLostError (an infra skip)."""
    text = LONG_TEXTS[name]
    device, phone, server = typing_target.device, typing_target.phone, typing_target.server
    with server.lock:
        phone.clear_focused_text()
        before = observable(phone)
    device.type_text(text)
    assert typed_back(device) == text
    assert observable(phone) == before


def test_a_request_over_the_adb_servers_limit_is_refused_before_it_is_sent(typing_target: Any) -> None:
    from cerebellum_gym.errors import CerebellumError, InfraError

    with pytest.raises(CerebellumError, match="65535-byte limit") as caught:
        typing_target.device.shell("echo " + "a" * 70_000)
    assert not isinstance(caught.value, InfraError)
    assert typing_target.device.shell(["echo", "still online"]).text == "still online\n"


def test_a_lone_surrogate_is_the_agents_error_not_the_devices(typing_target: Any) -> None:
    from cerebellum_gym.errors import InvalidActionError

    with pytest.raises(InvalidActionError, match="surrogate"):
        typing_target.device.type_text("ok \ud800")


long_texts = st.tuples(st.text(max_size=24), st.integers(min_value=1, max_value=3_000)).map(lambda t: t[0] * t[1])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(text=st.one_of(st.text(min_size=1, max_size=200), long_texts.filter(bool)))
@example(text="it's " * 15_000)
def test_any_text_typed_over_adb_reads_back_from_the_ui_tree_and_runs_nothing(typing_target: Any, text: str) -> None:
    device, phone, server = typing_target.device, typing_target.phone, typing_target.server
    with server.lock:
        phone.clear_focused_text()
        before = observable(phone)
    device.type_text(text)
    assert typed_back(device) == as_dumped(text)
    with server.lock:
        assert phone.focused_text() == text  # exactly, control characters included
    assert observable(phone) == before, "typing changed device state beyond the field"
