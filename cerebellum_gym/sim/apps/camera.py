"""Camera (com.android.camera2): photo and video modes over a viewfinder.

Photos go to ``/sdcard/Pictures`` and videos to ``/sdcard/Movies``, the folders AndroidWorld's
camera judges list on its emulator. The first launch asks whether to remember photo locations,
as the real app does.
"""

from __future__ import annotations

from typing import ClassVar

from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, Dialog, IconButton, Row, Text, Viewfinder, Widget

PHOTOS_DIR = "/sdcard/Pictures"
VIDEOS_DIR = "/sdcard/Movies"
DARK = (20, 20, 24)


class CameraApp(App):
    package: ClassVar[str] = "com.android.camera2"
    activity: ClassVar[str] = "com.android.camera.CameraLauncher"
    label: ClassVar[str] = "Camera"
    color: ClassVar[tuple[int, int, int]] = (55, 71, 79)

    def shows_running_clock(self) -> bool:
        # Only a video recording's counter runs; the rest shows no time.
        return bool(self.saved_data().get("recording"))

    def initial_data(self) -> dict[str, object]:
        return {"asked_location": False, "mode": "photo", "recording": False, "started": 0.0}

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

    def screen_main(self, route: Route) -> ScreenSpec:
        d = self.data
        recording = bool(d["recording"])
        elapsed = int(self.phone.state.clock - float(d["started"])) if recording else 0
        dialog = route.get("dialog")
        # Everything the screen shows; its callbacks act on the app's data, not the route.
        return self.reused_spec(
            ("main", d["mode"], recording, elapsed, dialog), lambda: self._main_screen(d["mode"], recording, elapsed, dialog)
        )

    def _main_screen(self, mode: str, recording: bool, elapsed: int, dialog_name: object) -> ScreenSpec:
        video = mode == "video"
        body: list[Widget] = [Viewfinder(recording=recording, desc="Camera preview", height=1600)]
        if recording:
            body.append(Text(f"● {elapsed // 60:02d}:{elapsed % 60:02d}", size=48, center=True, color=(229, 57, 53), background=DARK))
        else:
            body.append(
                Row(
                    [
                        Text(
                            "Camera",
                            size=40,
                            center=True,
                            selected=not video,
                            desc="Switch to Camera Mode",
                            on_tap=lambda: self._mode("photo"),
                            background=DARK,
                            color=(240, 240, 240),
                        ),
                        Text(
                            "Video",
                            size=40,
                            center=True,
                            selected=video,
                            desc="Switch to Video Camera",
                            on_tap=lambda: self._mode("video"),
                            background=DARK,
                            color=(240, 240, 240),
                        ),
                    ],
                    height=120,
                )
            )
        if video:
            shutter_desc = "Stop recording" if recording else "Start recording"
            shutter = IconButton(
                shutter_desc,
                "■" if recording else "●",
                color=(229, 57, 53),
                round_fill=(250, 250, 250),
                on_tap=self._shutter,
                background=DARK,
            )
        else:
            shutter = IconButton("Shutter", "◯", color=(40, 40, 40), round_fill=(250, 250, 250), on_tap=self._shutter, background=DARK)
        controls: list[Widget] = [Text("", background=DARK), shutter, Text("", background=DARK)]
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
