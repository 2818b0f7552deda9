"""Audio Recorder (com.dimowner.audiorecorder): record, stop, name and save clips.

Recordings are files under the app's records folder on shared storage, where AndroidWorld's
judge lists them. The first launch asks for the microphone permission; recording without it
asks again. Duration comes from the phone's virtual clock.
"""

from __future__ import annotations

from typing import ClassVar

from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import edit_field, field_key
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, Dialog, IconButton, ListItem, Text, Widget

RECORDS_DIR = "/sdcard/Android/data/com.dimowner.audiorecorder/files/Music/records"
RED = (229, 57, 53)


def fake_m4a(seconds: int) -> bytes:
    """A stand-in for an AAC file: a header and a payload that grows with the duration."""
    return b"\x00\x00\x00\x18ftypM4A \x00\x00\x02\x00" + b"\x21" * (1024 * max(1, seconds))


class AudioRecorderApp(App):
    package: ClassVar[str] = "com.dimowner.audiorecorder"
    activity: ClassVar[str] = "com.dimowner.audiorecorder.app.main.MainActivity"
    #: AndroidWorld's launch_app("audio recorder") starts the welcome screen's activity.
    activities: ClassVar[tuple[str, ...]] = ("com.dimowner.audiorecorder.app.welcome.WelcomeActivity",)
    label: ClassVar[str] = "Audio Recorder"
    color: ClassVar[tuple[int, int, int]] = RED

    def shows_running_clock(self) -> bool:
        # Only the recording counter runs; the rest shows no time.
        return bool(self.saved_data().get("recording"))

    def initial_data(self) -> dict[str, object]:
        return {"permission": None, "recording": False, "started": 0.0, "counter": 1}

    def on_launch(self) -> None:
        super().on_launch()
        if self.data["permission"] is None and self.route["screen"] == "main":
            self.set_dialog("permission")

    def records(self) -> list[str]:
        return [n for n in self.phone.list_dir(RECORDS_DIR) if not self.phone.is_dir(f"{RECORDS_DIR}/{n}")]

    def _record(self) -> None:
        if not self.data["permission"]:
            self.set_dialog("permission")
            return
        self.data.update(recording=True, started=self.phone.state.clock)

    def _stop(self) -> None:
        seconds = int(self.phone.state.clock - float(self.data["started"]))
        self.data.update(recording=False, pending=seconds)
        self.set_dialog("save", file="")
        self.phone.focus(field_key(self, self.route, "file"))  # the name dialog opens with the keyboard up

    def _default_name(self) -> tuple[str, int]:
        """The name a record saved as it is gets, and its number: ``Record-N`` from the counter
        on, skipping names a record on storage has (the counter goes back with a restored
        snapshot of the app's data; the records on storage stay)."""
        counter = int(self.data["counter"])
        taken = set(self.records())
        while f"Record-{counter}.m4a" in taken:
            counter += 1
        return f"Record-{counter}", counter

    def _save(self, route: Route) -> None:
        default, counter = self._default_name()
        name = str(route.get("file", "")).strip() or default
        self.phone.write_file(f"{RECORDS_DIR}/{name}.m4a", fake_m4a(int(self.data.get("pending", 1))))
        self.data["counter"] = counter + 1
        self.set_dialog(None)
        self.phone.focus(None)

    def _grant(self, granted: bool) -> None:
        self.data["permission"] = granted
        self.set_dialog(None)

    def screen_main(self, route: Route) -> ScreenSpec:
        d = self.data
        dialog = route.get("dialog")
        if dialog == "save":  # its name field writes to this route
            return self._main_screen(route)
        recording = bool(d["recording"])
        elapsed = int(self.phone.state.clock - float(d["started"])) if recording else 0
        records = () if recording else tuple(self.records())
        # Everything the screen shows; without the save dialog its callbacks use no route.
        return self.reused_spec(("main", recording, elapsed, records, dialog), lambda: self._main_screen(route))

    def _main_screen(self, route: Route) -> ScreenSpec:
        d = self.data
        body: list[Widget] = []
        if d["recording"]:
            elapsed = int(self.phone.state.clock - float(d["started"]))
            body.append(
                Text(
                    f"{elapsed // 60:02d}:{elapsed % 60:02d}",
                    size=140,
                    center=True,
                    height=400,
                    rid=f"{self.package}:id/txt_progress",
                    color=RED,
                )
            )
            body.append(Text("Recording…", size=44, center=True))
            controls: list[Widget] = [
                Text(""),
                IconButton("Stop recording", "■", color=(255, 255, 255), round_fill=RED, on_tap=self._stop),
                Text(""),
            ]
        else:
            body.append(Text("00:00", size=140, center=True, height=400, rid=f"{self.package}:id/txt_progress"))
            records = self.records()
            body.append(Text(f"{len(records)} records" if records else "No records yet", size=40, center=True, color=(96, 94, 102)))
            body += [ListItem(n.rsplit(".", 1)[0], "m4a, 44.1kHz") for n in records]
            controls = [Text(""), IconButton("Record", "●", color=(255, 255, 255), round_fill=RED, on_tap=self._record), Text("")]
        dialog = None
        if route.get("dialog") == "permission":
            dialog = Dialog(
                "Allow Audio Recorder to record audio?",
                [
                    Button("While using the app", filled=False, on_tap=lambda: self._grant(True)),
                    Button("Don't allow", filled=False, on_tap=lambda: self._grant(False)),
                ],
            )
        elif route.get("dialog") == "save":
            field = edit_field(self, route, "file", hint=self._default_name()[0], rid=f"{self.package}:id/input_name")
            dialog = Dialog(
                "Save record",
                [
                    Button("Delete", filled=False, on_tap=lambda: self.set_dialog(None)),
                    Button("Save", filled=False, on_tap=lambda: self._save(route)),
                ],
                message="Name the record",
                body=[field],
            )
        return ScreenSpec(title="Audio Recorder", body=body, bottom=controls, dialog=dialog)
