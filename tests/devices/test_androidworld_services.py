"""AndroidWorld's own device helpers, unmodified, on the simulator served as an emulator (the
console beside adbd, attached as ``emulator-NNNN`` to a private adb server): texts and calls
through ``adb emu`` (``text_emulator``, ``call_emulator``, ``end_call_if_active``), the contact
insert intent and its "SAVE" tap (``contacts_utils.add_contact``), the contacts query and
``delete_contacts``, Clipper's clipboard broadcasts, and the SMS validators' reads. Everything
goes through AndroidWorld's ``AdbController`` and the real adb binary."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cerebellum_gym.devices.adb import PrivateAdbServer
from cerebellum_gym.sim.adbd import AdbdServer
from cerebellum_gym.sim.console import TOKEN_FILE
from cerebellum_gym.sim.phone import Phone

pytest.importorskip("android_world")
pytest.importorskip("adbutils")
adb_utils = pytest.importorskip("android_world.env.adb_utils")
contacts_utils = pytest.importorskip("android_world.utils.contacts_utils")
sms_validators = pytest.importorskip("android_world.task_evals.common_validators.sms_validators")


@pytest.fixture(scope="module")
def world() -> Iterator[tuple[AdbdServer, Any]]:
    from cerebellum_gym.devices.androidworld.adb import load_adb_env

    adb = PrivateAdbServer().start()
    server = AdbdServer(Phone(), console=True, console_auth_token=Path(adb.home) / TOKEN_FILE).start()
    try:
        serial = server.announce(adb.port)
        adb_env = {k: v for k, v in adb.env.items() if k.startswith(("ANDROID_ADB", "ADB_")) or k == "HOME"}
        env = load_adb_env(serial, adb_path=adb.adb, adb_env=adb_env, timeout=20.0)
        yield server, env
    finally:
        server.stop()
        adb.stop()


def test_text_emulator_delivers_texts_the_sms_validator_reads_newest_first(world: tuple[AdbdServer, Any]) -> None:
    server, env = world
    server.phone.content_delete("content://sms")  # (clear_sms_and_threads needs sqlite3, tested with the databases)
    adb_utils.text_emulator(env.controller, "+1 (555) 010-0000", "First, with a comma")
    adb_utils.text_emulator(env.controller, "5550101", "Second: it's $HOME; `id` & more")
    task = sms_validators.SimpleSMSSendSms({"number": "5550101", "message": "x"})
    received = [sms_validators.parse_message(row) for row in task._get_received_messages(env.controller)]
    assert [(m["address"], m["body"]) for m in received] == [
        ("5550101", "Second: it's $HOME; `id` & more"),
        ("+15550100000", "First, with a comma"),
    ]


def test_a_missed_call_through_the_console(world: tuple[AdbdServer, Any]) -> None:
    server, env = world
    adb_utils.call_emulator(env.controller, "555-0199")
    assert adb_utils.get_call_state(env.controller) == "RINGING"
    adb_utils.end_call_if_active(env.controller)
    assert adb_utils.get_call_state(env.controller) == "IDLE"
    calls = server.phone.content_query("content://call_log/calls")
    assert [(c["number"], c["type"]) for c in calls][-1] == ("5550199", "3")


def test_add_list_and_delete_contacts(world: tuple[AdbdServer, Any]) -> None:
    server, env = world
    adb_utils.delete_contacts(env.controller)
    contacts_utils.add_contact("Ann Lee", "5551234", env.controller, ui_delay_sec=0.0)
    contacts_utils.add_contact("Bo Chen", "+1-555-999-0000", env.controller, ui_delay_sec=0.0)
    listed = contacts_utils.list_contacts(env.controller)
    assert sorted((c.name, c.number) for c in listed) == [("Ann Lee", "5551234"), ("Bo Chen", "15559990000")]
    adb_utils.delete_contacts(env.controller)
    assert contacts_utils.list_contacts(env.controller) == []


@pytest.mark.parametrize("text", ["plain", 'Meet at 5; bring $HOME\'s `cake` & "tea" | (x) #1 \\ end'])
def test_clipboard_round_trip_through_clipper(world: tuple[AdbdServer, Any], text: str) -> None:
    server, env = world
    adb_utils.set_clipboard_contents(text, env.controller)
    assert adb_utils.get_clipboard_contents(env.controller) == text
    assert server.phone.foreground_package() != "ca.zgrs.clipper"  # both pressed Back after
