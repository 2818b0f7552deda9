"""Audio Recorder and Camera tasks, judged on the files those apps write to shared storage."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.devices.base import Device
from cerebellum_gym.tasks import awdata
from cerebellum_gym.tasks.base import Oracle, Task
from cerebellum_gym.tasks.oracle import ScriptedOracle, find, label_for
from cerebellum_gym.tasks.registry import register_task

RECORDER_PACKAGE = "com.dimowner.audiorecorder"
RECORDS_DIR = "/sdcard/Android/data/com.dimowner.audiorecorder/files/Music/records"
CAMERA_PACKAGE = "com.android.camera2"
PHOTOS_DIR = "/sdcard/Pictures"
VIDEOS_DIR = "/sdcard/Movies"


def _listing(device: Device, folder: str) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for name in device.list_dir(folder):
        try:
            out[name] = device.read_file(f"{folder}/{name}")
        except FileNotFoundError:  # a directory
            continue
    return out


class RecordOracle(ScriptedOracle):
    def __init__(self, name: str | None) -> None:
        super().__init__()
        self.name = name
        self.saved = False

    def act(self, screen: LabelledScreen) -> str:
        step = self.open_app(screen, RECORDER_PACKAGE, "Audio Recorder")
        if step is not None:
            return step
        # The first start in a task is still the app's first run: welcome, then set-up.
        for text in ("Get started", "Apply"):
            label = label_for(screen, text=text)
            if label is not None:
                return self.tap(label)
        save = label_for(screen, text="Save")
        if save is not None and self.name is None:
            # The record is saved as Record-N when it stops; the name dialog may just go.
            self.saved = True
            self._moved()
            return "B"
        if save is not None:
            hit = find(screen, lambda n: n.resource_id.endswith(":id/input_name"))
            if self.name is not None and hit is not None and hit[1].text != self.name:
                if hit[1].focused and hit[1].text and label_for(screen, text="Cut") is None:
                    self._moved()
                    return f"P {hit[0]}"  # a long press selects the name the app filled in
                return self.type_into(screen, hit[1], hit[0], self.name)
            self.saved = True
            return self.tap(save)
        if self.saved:
            return "F"
        stop = label_for(screen, rid=f"{RECORDER_PACKAGE}:id/btn_record_stop")
        if stop is not None:
            return self.tap(stop)
        record = label_for(screen, rid=f"{RECORDER_PACKAGE}:id/btn_record")
        return self.tap(record) if record else "B"


class _RecorderTask(Task):
    app: ClassVar[str] = "Audio Recorder"
    family: ClassVar[str] = "audio"

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {"existing": int(rng.integers(0, 3))}

    def initialize(self, device: Device) -> None:
        device.remove_path(RECORDS_DIR)
        for i in range(self.params["existing"]):
            device.write_file(f"{RECORDS_DIR}/Voice note {i + 1}.m4a", b"\x00\x00\x00\x18ftypM4A " + b"\x21" * 2048)
        self.baseline(device)

    def baseline(self, device: Device) -> None:
        self._before = _listing(device, RECORDS_DIR)


@register_task
class AudioRecorderRecordAudio(_RecorderTask):
    mirrors = "AudioRecorderRecordAudio"
    complexity: ClassVar[float] = 1.2
    template = "Record an audio clip using Audio Recorder app and save it."
    judge = "Compared with the records folder at setup, exactly one recording is new or changed, and it is not empty."

    def progress(self, device: Device, answer: str | None = None) -> float:
        after = _listing(device, RECORDS_DIR)
        changed = [n for n, data in after.items() if self._before.get(n) != data]
        return 1.0 if len(changed) == 1 and after[changed[0]] else 0.0

    def oracle(self) -> Oracle:
        return RecordOracle(None)


@register_task
class AudioRecorderRecordAudioWithFileName(_RecorderTask):
    mirrors = "AudioRecorderRecordAudioWithFileName"
    complexity: ClassVar[float] = 2.0
    template = 'Record an audio clip and save it with name "{file_name}" using Audio Recorder app.'
    judge = (
        'A file named "<file_name>.m4a" exists in the records folder (the app appends ".m4a" to the name typed, as AndroidWorld relies on).'
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        # AndroidWorld: a recording word with ".m4a", then modified (a date, a code or a tag).
        return {"existing": 0, "file_name": awdata.modified_file_name(rng, awdata.pick(rng, awdata.RECORDING_NAMES) + ".m4a")}

    def progress(self, device: Device, answer: str | None = None) -> float:
        return 1.0 if f"{self.params['file_name']}.m4a" in device.list_dir(RECORDS_DIR) else 0.0

    def oracle(self) -> Oracle:
        return RecordOracle(self.params["file_name"])


class CameraOracle(ScriptedOracle):
    """Camera2: the mode list (its accessibility button ``MODE LIST``) picks the mode; the
    shutter takes a photo, or starts and stops a video (its timer shows while it records)."""

    def __init__(self, video: bool) -> None:
        super().__init__()
        self.video = video
        self.state = "start"

    def act(self, screen: LabelledScreen) -> str:
        step = self.open_app(screen, CAMERA_PACKAGE, "Camera")
        if step is not None:
            return step
        dismiss = label_for(screen, text="No thanks")
        if dismiss is not None:
            return self.tap(dismiss)
        if self.state == "done":
            return "F"
        wanted = "Video" if self.video else "Camera"
        if self.state == "start":
            choice = find(screen, lambda n: n.resource_id == f"{CAMERA_PACKAGE}:id/selector_text" and n.text == wanted)
            if choice is None:
                return self.tap(label_for(screen, text="MODE LIST") or "")
            self.state = "mode"
            return self.tap(choice[0])
        shutter = label_for(screen, desc="Shutter") or ""
        recording = screen.root.find(resource_id=f"{CAMERA_PACKAGE}:id/recording_time") is not None
        if not self.video or recording:
            self.state = "done"
        return self.tap(shutter)


class _CameraTask(Task):
    app: ClassVar[str] = "Camera"
    family: ClassVar[str] = "camera"
    complexity: ClassVar[float] = 1.0
    folder: ClassVar[str] = PHOTOS_DIR
    video: ClassVar[bool] = False

    def initialize(self, device: Device) -> None:
        for folder in (PHOTOS_DIR, VIDEOS_DIR):  # AndroidWorld clears both folders first
            device.remove_path(folder)
        self.baseline(device)

    def baseline(self, device: Device) -> None:
        self._before = set(device.list_dir(self.folder))

    def progress(self, device: Device, answer: str | None = None) -> float:
        new = set(device.list_dir(self.folder)) - self._before
        return 1.0 if len(new) == 1 else 0.0

    def oracle(self) -> Oracle:
        return CameraOracle(self.video)


@register_task
class CameraTakePhoto(_CameraTask):
    mirrors = "CameraTakePhoto"
    template = "Take one photo."
    judge = "Compared with setup, exactly one new file name appears in /sdcard/Pictures."


@register_task
class CameraTakeVideo(_CameraTask):
    mirrors = "CameraTakeVideo"
    template = "Take one video."
    judge = "Compared with setup, exactly one new file name appears in /sdcard/Movies."
    folder = VIDEOS_DIR
    video = True
