"""Camera (com.android.camera2): photo and video modes over a viewfinder.

Photos go to ``/sdcard/Pictures`` and videos to ``/sdcard/Movies``, the folders AndroidWorld's
camera judges list on its emulator. The first launch asks whether to remember photo locations,
as the real app does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, Dialog, IconButton, Row, Text, Viewfinder, Widget

PHOTOS_DIR = "/sdcard/Pictures"
VIDEOS_DIR = "/sdcard/Movies"
DARK = (20, 20, 24)


@register_app
class CameraApp(App):
    package: ClassVar[str] = "com.android.camera2"
    activity: ClassVar[str] = "com.android.camera.CameraLauncher"
    label: ClassVar[str] = "Camera"
    color: ClassVar[tuple[int, int, int]] = (55, 71, 79)

    def shows_running_clock(self) -> bool:
        # Only a video recording's counter runs; the rest shows no time.
        return bool(self.saved_data().get("recording"))

    def initial_data(self) -> dict[str, object]:
        # AndroidWorld's set-up starts the camera once and taps NEXT on its first-run prompt.
        return {"asked_location": True, "mode": "photo", "recording": False, "started": 0.0}

    def first_run_data(self) -> dict[str, object]:
        return {"asked_location": False}

    def on_launch(self) -> None:
        super().on_launch()
        if not self.data["asked_location"]:
            self.set_dialog("location")

    def _answer_location(self) -> None:
        self.data["asked_location"] = True
        self.set_dialog(None)

    def _unique(self, folder: str, stem: str, ext: str) -> str:
        existing = set(self.phone.list_dir(folder))
        name, n = f"{stem}{ext}", 1
        while name in existing:
            name, n = f"{stem}_{n}{ext}", n + 1
        return f"{folder}/{name}"

    def _shutter(self) -> None:
        stamp = self.phone.now().strftime("%Y%m%d_%H%M%S")
        if self.data["mode"] == "photo":
            self.phone.write_file(self._unique(PHOTOS_DIR, f"IMG_{stamp}", ".jpg"), b"\xff\xd8\xff\xe0JFIF" + stamp.encode())
        elif not self.data["recording"]:
            self.data.update(recording=True, started=self.phone.state.clock)
        else:
            seconds = int(self.phone.state.clock - float(self.data["started"]))
            self.phone.write_file(
                self._unique(VIDEOS_DIR, f"VID_{stamp}", ".mp4"), b"\x00\x00\x00\x18ftypmp42" + b"\x00" * (512 * max(1, seconds))
            )
            self.data["recording"] = False

    def _mode(self, mode: str) -> None:
        if not self.data["recording"]:
            self.data["mode"] = mode
        self.route["modes"] = False

    def _toggle_modes(self) -> None:
        if not self.data["recording"]:
            self.route["modes"] = not self.route.get("modes")

    def back(self) -> bool:
        if self.route.get("modes"):
            self.route["modes"] = False
            return True
        return super().back()

    def screen_main(self, route: Route) -> ScreenSpec:
        d = self.data
        recording = bool(d["recording"])
        elapsed = int(self.phone.state.clock - float(d["started"])) if recording else 0
        dialog = route.get("dialog")
        modes = bool(route.get("modes"))
        # Everything the screen shows; its callbacks act on the app's data and the shown route.
        return self.reused_spec(
            ("main", d["mode"], recording, elapsed, dialog, modes), lambda: self._main_screen(d["mode"], recording, elapsed, dialog, modes)
        )

    def _main_screen(self, mode: str, recording: bool, elapsed: int, dialog_name: object, modes: bool) -> ScreenSpec:
        # Camera2's preview fills the screen; its accessibility buttons (Mode list, Filmstrip,
        # zoom) are invisible views only a screen reader and a tree show.
        rid = f"{self.package}:id/"
        body: list[Widget] = [Viewfinder(recording=recording, height=1560)]
        body.append(
            Row(
                [
                    _Unseen("MODE LIST", "Toggle mode list", rid + "accessibility_mode_toggle_button", self._toggle_modes),
                    _Unseen("FILMSTRIP", "Toggle filmstrip", rid + "accessibility_filmstrip_toggle_button", lambda: None),
                    _Unseen("Z-", "Zoom out", rid + "accessibility_zoom_minus_button", lambda: None),
                    _Unseen("Z+", "Zoom in", rid + "accessibility_zoom_plus_button", lambda: None),
                ],
                height=120,
            )
        )
        if recording:
            body.append(
                Text(
                    f"{elapsed // 60:02d}:{elapsed % 60:02d}",
                    size=48,
                    center=True,
                    color=(229, 57, 53),
                    rid=rid + "recording_time",
                    background=DARK,
                )
            )
        elif modes:
            for name, key in (("Camera", "photo"), ("Video", "video")):
                body.append(
                    Text(
                        name,
                        size=44,
                        selected=mode == key,
                        rid=rid + "selector_text",
                        on_tap=lambda key=key: self._mode(key),
                        background=(33, 33, 33),
                        color=(240, 240, 240),
                    )
                )
        video = mode == "video"
        shutter = _CameraImage(
            "Shutter",
            "■" if recording else "●" if video else "◯",
            color=(229, 57, 53) if video else (40, 40, 40),
            round_fill=(250, 250, 250),
            on_tap=self._shutter,
            rid=rid + "shutter_button",
            background=DARK,
        )
        options = _CameraImage("Options", "more_horiz", color=(240, 240, 240), on_tap=lambda: None, background=DARK)
        controls: list[Widget] = [options, shutter, Text("", background=DARK)]
        dialog = None
        if dialog_name == "location":
            dialog = Dialog(
                "Remember photo locations?",
                [
                    Button("No thanks", filled=False, on_tap=self._answer_location),
                    Button("Next", filled=False, on_tap=self._answer_location),
                ],
                message="Tag your photos and videos with the locations where they are taken.",
            )
        return ScreenSpec(title=None, body=body, bottom=controls, dialog=dialog, background=DARK)


class _Unseen(Button):
    """One of Camera2's accessibility buttons: in the tree, clickable, drawn as nothing."""

    opaque = False

    def __init__(self, text: str, desc: str, rid: str, on_tap: Callable[[], None]) -> None:
        super().__init__(text, filled=False, desc=desc, rid=rid, on_tap=on_tap)


class _CameraImage(IconButton):
    """Camera2's shutter and options: ``ImageView`` s with a description."""

    class_name = "android.widget.ImageView"
