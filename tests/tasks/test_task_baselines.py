"""``Task.baseline`` and ``Task.from_androidworld``: the project's judge on a state set up by
someone else (AndroidWorld's own initialize_task, in benchmarks/androidworld/conformance.py)."""

from __future__ import annotations

import numpy as np
import pytest

from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.tasks import make_task
from cerebellum_gym.tasks.catalog import BUILTIN

RECORDS = "/sdcard/Android/data/com.dimowner.audiorecorder/files/Music/records"


@pytest.mark.parametrize(
    "name", ["CameraTakePhoto", "AudioRecorderRecordAudio", "FilesDeleteFile", "MarkorDeleteNote", "MarkorDeleteAllNotes"]
)
def test_baseline_alone_judges_as_initialize_does(name: str) -> None:
    """A second instance that only takes the baseline of the state the first set up judges
    that state, and a changed one, as the first does."""
    phone = Phone()
    task = make_task(name, np.random.default_rng(2))
    task.initialize(phone)
    other = BUILTIN.get(name)(dict(task.params))
    other.baseline(phone)
    assert other.progress(phone) == task.progress(phone) < 1.0
    folder = {"CameraTakePhoto": "/sdcard/Pictures", "AudioRecorderRecordAudio": RECORDS}.get(name)
    if folder is not None:  # one new file: both succeed
        phone.write_file(f"{folder}/new.bin", b"\x00" * 64)
        assert other.progress(phone) == task.progress(phone) == 1.0


def test_contacts_params_from_androidworld() -> None:
    cls = BUILTIN.get("ContactsAddContact")
    params = cls.from_androidworld({"name": "Ada Okafor Smith", "number": "+15550100134"})
    assert (params["first"], params["last"], params["name"]) == ("Ada", "Okafor Smith", "Ada Okafor Smith")
    assert BUILTIN.get("SystemWifiTurnOn").from_androidworld({"x": 1}) == {"x": 1}


def test_markor_edit_note_reads_the_original_from_the_note() -> None:
    phone = Phone()
    phone.write_file("/sdcard/Documents/Markor/n.md", b"Original text.\n")
    task = BUILTIN.get("MarkorEditNote")({"file_name": "n.md", "edit_type": "footer", "footer": "More."})
    task.baseline(phone)
    assert task.expected == "Original text.\nMore."  # type: ignore[attr-defined]
    phone.write_file("/sdcard/Documents/Markor/n.md", b"Original text.\nMore.\n")
    assert task.progress(phone) == 1.0
