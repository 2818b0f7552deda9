"""Audio Recorder (com.dimowner.audiorecorder, versionCode 926): record, stop, name the record.

Recordings are files under the app's records folder on shared storage, where AndroidWorld's
judge lists them. The screens are the app's own (Dimowner/AudioRecorder at the commit that set
versionCode 926): AndroidWorld's set-up grants the microphone and starts the app once, which
shows the welcome screen and leaves it, so the first start in a task is still a first run:
the welcome page ("Get started"), then the set-up page ("Apply"), then the main screen. There
``btn_record`` starts a recording, ``btn_record_stop`` stops it (the record is saved as
``Record-N.m4a`` then) and, as the app asks after every recording until "Don't ask again", a
"New name" dialog holds the name to rename it to. Duration comes from the phone's clock.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import ClassVar

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import edit_field, field_key
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.material.components import Checkbox
from cerebellum_gym.sim.render import font
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, Dialog, IconButton, Row, Text, Widget

RECORDS_DIR = "/sdcard/Android/data/com.dimowner.audiorecorder/files/Music/records"
#: Theme Blue Gray, the app's default colour theme, and its light text.
BLUE_GRAY = (84, 110, 122)
DARK_BLUE_GRAY = (55, 71, 79)
WHITE = (255, 255, 255)
LIGHT_TEXT = (207, 216, 220)
RED = (229, 57, 53)
RID = "com.dimowner.audiorecorder:id/"


def fake_m4a(seconds: int) -> bytes:
    """A stand-in for an AAC file: a header and a payload that grows with the duration."""
    return b"\x00\x00\x00\x18ftypM4A \x00\x00\x02\x00" + b"\x21" * (1024 * max(1, seconds))


class _Image(IconButton):
    """An ``ImageButton`` of the app (most have no content description)."""

    background = BLUE_GRAY


class _Label(Text):
    background = BLUE_GRAY


class _Spinner(Widget):
    """A ``Spinner`` of the set-up page: its chosen item is a ``txtItem`` text inside it."""

    class_name = "android.widget.Spinner"
    background = BLUE_GRAY
    opaque = False

    def __init__(self, item: str, rid: str) -> None:
        super().__init__(rid=rid, height=147, on_tap=lambda: None)
        self.item = _Label(item, size=44, color=WHITE, rid=RID + "txtItem", height=147)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.item.text)

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        return [(self.item, bounds)]


class _Chips(Widget):
    """A setting's chips, drawn as their names in a row."""

    class_name = "android.view.View"
    background = BLUE_GRAY

    def __init__(self, names: str, rid: str) -> None:
        super().__init__(rid=rid, height=120)
        self.names = names

    def render_key(self) -> Hashable:
        return (self.names,)

    def paint(self, draw, width, height, scale):  # type: ignore[no-untyped-def]
        draw.text((round(42 * scale), height // 2), self.names, font=font(round(38 * scale)), fill=LIGHT_TEXT, anchor="lm")


class _SeekBar(Widget):
    class_name = "android.widget.SeekBar"
    default_height = 84
    background = BLUE_GRAY

    def paint(self, draw, width, height, scale):  # type: ignore[no-untyped-def]
        y = height // 2
        draw.line((42, y, width - 42, y), fill=LIGHT_TEXT, width=max(1, round(5 * scale)))


class _Waveform(Widget):
    """The waveform view (``WaveformViewNew``, ``RecordingWaveformView`` while recording)."""

    class_name = "android.view.View"
    background = BLUE_GRAY

    def __init__(self, rid: str, recording: bool, height: int, *, image: bool = False) -> None:
        super().__init__(rid=rid, height=height)
        self.recording = recording
        if image:  # the welcome page's waveform picture
            self.class_name = "android.widget.ImageView"  # type: ignore[misc]

    def render_key(self) -> tuple[bool]:
        return (self.recording,)

    def paint(self, draw, width, height, scale):  # type: ignore[no-untyped-def]
        y = height // 2
        draw.line((0, y, width, y), fill=LIGHT_TEXT, width=max(1, round(3 * scale)))
        if self.recording:
            for i, x in enumerate(range(width // 2, width, max(2, round(12 * scale)))):
                h = round((20 + (i * 37) % 90) * scale)
                draw.line((x, y - h, x, y + h), fill=WHITE, width=max(1, round(4 * scale)))


@register_app
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
        # ``first_run``: the set-up page was never applied (AndroidWorld's set-up only opens the
        # app); ``active``: the record the main screen shows (none until one is made here).
        return {"first_run": True, "recording": False, "started": 0.0, "counter": 1, "ask_rename": True, "active": "", "made": {}}

    def on_launch(self) -> None:
        super().on_launch()
        if self.data["first_run"] and self.route["screen"] == "main":
            self.reset_to("welcome")

    def records(self) -> list[str]:
        return [n for n in self.phone.list_dir(RECORDS_DIR) if not self.phone.is_dir(f"{RECORDS_DIR}/{n}")]

    # --- first run -------------------------------------------------------------------------------

    def _get_started(self) -> None:
        self.reset_to("setup")

    def _apply(self) -> None:
        self.data["first_run"] = False
        self.reset_to("main")

    def screen_welcome(self, route: Route) -> ScreenSpec:
        body: list[Widget] = [
            _Waveform(RID + "item_image_first", True, 700, image=True),
            _Label("Audio Recorder", size=72, center=True, bold=True, color=WHITE, rid=RID + "txt_title", height=200),
            _Label("Welcome to a simple and fast application", size=52, center=True, color=WHITE, rid=RID + "txt_details", height=260),
            _Label("", height=700),
        ]
        bottom: list[Widget] = [Button("Get started", rid=RID + "btn_action", on_tap=self._get_started, background=BLUE_GRAY)]
        return ScreenSpec(title=None, body=body, bottom=bottom, background=BLUE_GRAY)

    def screen_setup(self, route: Route) -> ScreenSpec:
        def setting(rid: str, title: str, chips: str) -> list[Widget]:
            # A SettingView: its title with an info button, then its chips (a ChipsView).
            return [
                Row(
                    [
                        _Label(title, size=42, color=WHITE, rid=RID + "setting_title", height=110),
                        _Image("", "info", color=WHITE, rid=RID + "setting_btn_info", on_tap=lambda: None, height=110),
                    ],
                    height=110,
                ),
                _Chips(chips, rid=RID + "chips_view"),
            ]

        body: list[Widget] = [
            _Label("Setup", size=56, center=True, bold=True, color=WHITE, height=168),
            _Spinner("Theme Blue Gray", RID + "themeColor"),
            _Spinner("Naming: Record-1.m4a", RID + "name_format"),
            *setting("setting_recording_format", "Recording format:", "M4a   Wav   3gp"),
            *setting("setting_frequency", "Sample rate:", "8kHz   16kHz   22kHz   32kHz   44.1kHz   48kHz"),
            *setting("setting_bitrate", "Bitrate:", "48 kbps   96 kbps   128 kbps   192 kbps   256 kbps"),
            *setting("setting_channels", "Channel count:", "Stereo   Mono"),
            _Label("0.94 Mb/min expected size", size=42, color=WHITE, rid=RID + "txt_size_per_min", height=110),
        ]
        bottom: list[Widget] = [
            Button("Reset", filled=False, rid=RID + "btn_reset", on_tap=lambda: None, background=DARK_BLUE_GRAY),
            Button("Apply", filled=False, rid=RID + "btn_apply", on_tap=self._apply, background=DARK_BLUE_GRAY),
        ]
        return ScreenSpec(title=None, body=body, bottom=bottom, background=BLUE_GRAY)

    # --- recording -------------------------------------------------------------------------------

    def _default_name(self) -> tuple[str, int]:
        """The name a new record gets, and its number: ``Record-N`` from the counter on,
        skipping names a record on storage has (the counter goes back with a restored snapshot
        of the app's data; the records on storage stay)."""
        counter = int(self.data["counter"])
        taken = set(self.records())
        while f"Record-{counter}.m4a" in taken:
            counter += 1
        return f"Record-{counter}", counter

    def _record(self) -> None:
        if self.data["recording"]:
            return  # the button pauses a recording in the real app; a pause changes nothing here
        self.data.update(recording=True, started=self.phone.state.clock)

    def _stop(self) -> None:
        seconds = int(self.phone.state.clock - float(self.data["started"]))
        name, counter = self._default_name()
        self.phone.write_file(f"{RECORDS_DIR}/{name}.m4a", fake_m4a(seconds))
        self.data.update(recording=False, counter=counter + 1, active=name)
        # The app's own list of its records (name -> seconds); files it did not make are not in it.
        self.data.setdefault("made", {})[name] = seconds
        if self.data["ask_rename"]:
            self._ask_name(name)

    def _cancel_recording(self) -> None:
        self.data.update(recording=False)

    def _ask_name(self, name: str) -> None:
        self.set_dialog("rename", file=name)
        self.phone.focus(field_key(self, self.route, "file"))  # the dialog opens with the keyboard up

    def _rename(self, route: Route) -> None:
        old = str(self.data["active"])
        new = str(route.get("file", "")).strip()
        self.set_dialog(None)
        self.phone.focus(None)
        if not new or new.lower() == old.lower() or f"{old}.m4a" not in self.records():
            return
        content = self.phone.read_file(f"{RECORDS_DIR}/{old}.m4a")
        self.phone.remove_path(f"{RECORDS_DIR}/{old}.m4a")
        self.phone.write_file(f"{RECORDS_DIR}/{new}.m4a", content)
        self.data["active"] = new
        made = self.data.setdefault("made", {})
        made[new] = made.pop(old, 0)

    def _dismiss(self) -> None:
        self.set_dialog(None)
        self.phone.focus(None)

    def _toggle_ask(self) -> None:
        self.data["ask_rename"] = not self.data["ask_rename"]

    def _rename_active(self) -> None:
        if self.data["active"] and not self.data["recording"]:
            self._ask_name(str(self.data["active"]))

    def screen_main(self, route: Route) -> ScreenSpec:
        d = self.data
        if route.get("dialog") == "rename":  # its name field writes to this route
            return self._main_screen(route)
        recording = bool(d["recording"])
        elapsed = int(self.phone.state.clock - float(d["started"])) if recording else 0
        active = str(d["active"]) if d["active"] and f"{d['active']}.m4a" in self.records() else ""
        # Everything the screen shows; without the dialog its callbacks use no route.
        return self.reused_spec(("main", recording, elapsed, active), lambda: self._main_screen(route))

    def _main_screen(self, route: Route) -> ScreenSpec:
        d = self.data
        recording = bool(d["recording"])
        active = str(d["active"]) if d["active"] and f"{d['active']}.m4a" in self.records() else ""
        elapsed = int(self.phone.state.clock - float(d["started"])) if recording else 0
        body: list[Widget] = []
        if recording:
            body.append(_Label("Audio Recorder", size=52, center=True, bold=True, color=WHITE, height=147))
        else:
            body.append(
                Row(
                    [
                        _Image("", "file_download", color=WHITE, rid=RID + "btn_import", on_tap=lambda: None),
                        _Label("Audio Recorder", size=52, center=True, bold=True, color=WHITE, height=147),
                        _Image("", "more_vert", color=WHITE, rid=RID + "btn_share", on_tap=lambda: None),
                    ],
                    height=147,
                    background=BLUE_GRAY,
                )
            )
        body.append(_Waveform(RID + ("recording_view" if recording else "record"), recording, 1100))
        body.append(
            _Label(
                f"{elapsed // 60:02d}:{elapsed % 60:02d}",
                size=140,
                center=True,
                bold=True,
                color=WHITE,
                rid=RID + "txt_progress",
                height=190,
            )
        )
        if recording:
            body.append(_Label("Recording…", size=58, center=True, color=WHITE, rid=RID + "txt_name", height=120))
        elif active:
            body.append(_Label(active, size=58, center=True, color=WHITE, rid=RID + "txt_name", height=120, on_tap=self._rename_active))
            body.append(
                _Label("M4a, 44.1kHz, 128 kbps, Stereo", size=38, center=True, color=LIGHT_TEXT, rid=RID + "txt_record_info", height=80)
            )
        body.append(_SeekBar(rid=RID + "play_progress"))
        if recording:
            centre: list[Widget] = [
                _Image("Delete", "delete_forever", color=WHITE, rid=RID + "btn_record_delete", on_tap=self._cancel_recording),
                _Image("Recording: %s", "pause", color=RED, round_fill=WHITE, rid=RID + "btn_record", on_tap=self._record),
                _Image("", "stop", color=WHITE, rid=RID + "btn_record_stop", on_tap=self._stop),
            ]
        else:
            centre = [
                _Label("", height=189),
                _Image("Recording: %s", "●", color=RED, round_fill=WHITE, rid=RID + "btn_record", on_tap=self._record),
                _Label("", height=189),
            ]
        controls: list[Widget] = [
            _Image("Settings", "settings", color=WHITE, rid=RID + "btn_settings", on_tap=lambda: None),
            *centre,
            _Image("", "list", color=WHITE, rid=RID + "btn_records_list", on_tap=lambda: self.push("records")),
        ]
        dialog = None
        if route.get("dialog") == "rename":
            field = edit_field(self, route, "file", rid=RID + "input_name")
            dialog = Dialog(
                "",
                [
                    Button("Cancel", filled=False, rid=RID + "dialog_negative_btn", on_tap=self._dismiss),
                    Button("Save", filled=False, rid=RID + "dialog_positive_btn", on_tap=lambda: self._rename(route)),
                ],
                body=[
                    Text("New name", size=50, bold=True, rid=RID + "dialog_title"),
                    field,
                    Checkbox("Don't ask again", not d["ask_rename"], on_toggle=self._toggle_ask, rid=RID + "check_box"),
                ],
            )
        return ScreenSpec(title=None, body=body, bottom=controls, dialog=dialog, background=BLUE_GRAY)

    # --- the records list ---------------------------------------------------------------------

    def screen_records(self, route: Route) -> ScreenSpec:
        """``RecordsActivity``: the toolbar (back, "Records", sort, bookmarks) and the records the
        app made that are still on storage, newest first; "Records is empty" without any."""
        on_disk = set(self.records())
        made = {str(k): int(v) for k, v in dict(self.data.get("made", {})).items() if f"{k}.m4a" in on_disk}
        return self.reused_spec(("records", tuple(made.items())), lambda: self._records_screen(made))

    def _records_screen(self, made: dict[str, int]) -> ScreenSpec:
        bar = Row(
            [
                _Image("", "arrow_back", color=WHITE, rid=RID + "btn_back", on_tap=self.pop),
                _Label("Records", size=52, bold=True, color=WHITE, rid=RID + "txt_title", height=147),
                _Image("", "sort", color=WHITE, rid=RID + "btn_sort", on_tap=lambda: None),
                _Image("", "bookmark_border", color=WHITE, rid=RID + "btn_bookmarks", on_tap=lambda: None),
            ],
            height=147,
        )
        body: list[Widget] = [bar]
        for name, seconds in reversed(list(made.items())):
            body.append(_RecordRow(name, f"{seconds // 60:02d}:{seconds % 60:02d}", "M4a, 44.1kHz, 128 kbps, Stereo"))
        if not made:
            body.append(_Label("Records is empty", size=46, center=True, color=WHITE, rid=RID + "txtEmpty", height=400))
        return ScreenSpec(title=None, body=body, background=BLUE_GRAY, list_id="recycler_view")


class _RecordRow(Widget):
    """``list_item``: a record's row (``container``) with its waveform, name, length, format and
    the bookmark and more buttons."""

    class_name = "android.widget.FrameLayout"
    default_height = 260
    background = BLUE_GRAY

    def __init__(self, name: str, length: str, info: str) -> None:
        super().__init__(rid=RID + "container", on_tap=lambda: None)
        self.name, self.length, self.info = name, length, info

    def render_key(self) -> Hashable:
        return (self.name, self.length, self.info)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.name, self.length, self.info)

    def paint(self, draw, width, height, scale):  # type: ignore[no-untyped-def]
        pad = round(42 * scale)
        mid = height // 2
        for i, x in enumerate(range(pad, width - pad, max(2, round(10 * scale)))):
            h = round((8 + (i * 29) % 40) * scale)
            draw.line((x, mid - h, x, mid + h), fill=(96, 125, 139), width=max(1, round(4 * scale)))
        draw.text((pad, round(40 * scale)), self.name, font=font(round(52 * scale)), fill=WHITE)
        small = font(round(38 * scale))
        draw.text((pad, height - round(70 * scale)), self.length, font=small, fill=LIGHT_TEXT)
        draw.text((width // 2, height - round(70 * scale)), self.info, font=small, fill=LIGHT_TEXT)
        draw.line((0, height - 1, width, height - 1), fill=DARK_BLUE_GRAY, width=max(1, round(2 * scale)))

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        node.children = [
            UINode("android.view.View", (left, top, right, bottom), resource_id=RID + "list_item_waveform", package=package),
            UINode(
                "android.widget.TextView",
                (left + 42, top + 20, right - 300, top + 110),
                text=self.name,
                resource_id=RID + "list_item_name",
                package=package,
            ),
            UINode(
                "android.widget.ImageButton",
                (right - 300, top + 20, right - 170, top + 130),
                resource_id=RID + "list_item_bookmark",
                package=package,
                clickable=True,
                focusable=True,
            ),
            UINode(
                "android.widget.TextView",
                (left + 42, bottom - 90, left + 400, bottom - 20),
                text=self.length,
                resource_id=RID + "list_item_description",
                package=package,
            ),
            UINode(
                "android.widget.TextView",
                (left + 400, bottom - 90, right - 170, bottom - 20),
                text=self.info,
                resource_id=RID + "list_item_info",
                package=package,
            ),
            UINode(
                "android.widget.ImageButton",
                (right - 170, top + 60, right - 20, bottom - 60),
                resource_id=RID + "list_item_more",
                package=package,
                clickable=True,
                focusable=True,
            ),
        ]
        for i, child in enumerate(node.children):
            child.index = i
        return node
