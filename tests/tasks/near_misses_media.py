"""Near misses of the clipboard, gallery and drawing tasks (merged into
``test_sim_near_misses.NEAR_MISSES``, which runs them at three seeds)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.tasks.base import Task

Case = Callable[[Phone, Task], "str | None"]
MARKOR = "/sdcard/Documents/Markor"
SMS = "content://sms"
SMS_PKG = "com.simplemobiletools.smsmessenger"


def _sms(phone: Phone, number: str, body: str) -> None:
    phone.content_insert(SMS, {"address": number, "body": body, "date": str(int(phone.state.clock * 1000)), "type": "2", "read": "1"})
    phone.start_app(SMS_PKG)


def _note(phone: Phone, name: str, text: str) -> None:
    phone.write_file(f"{MARKOR}/{name}", text.encode())


def _other_number(number: str) -> str:
    return number[:-2] + ("00" if not number.endswith("00") else "11")


def _draw_page(phone: Phone, task: Task, colors: int, submit: bool) -> None:
    """The Color Challenge page open with ``colors`` of its three colours drawn (each its own
    stroke), submitted or not."""
    from cerebellum_gym.appdata.browser_pages import androidworld_draw_colors, hex_rgb

    chrome = phone.app("com.android.chrome")
    chrome.data.update(welcomed=True, sync_asked=True)
    wanted = androidworld_draw_colors(task.params["browser_task_seed"])
    strokes = [(hex_rgb(c), (390, 390, 390 - 300 * (i == 0), 390 + 300 * (i == 1))) for i, c in enumerate(wanted[:colors])]
    chrome.reset_to("page", url="file:///sdcard/Download/task.html", strokes=strokes, result="")
    phone.start_app("com.android.chrome")
    if submit:
        submit_button = phone.ui_tree().find(text="Submit")
        assert submit_button is not None
        phone.tap(*submit_button.center)


def _copy(phone: Phone, name: str, folder: str) -> None:
    phone.write_file(f"/sdcard/{folder}/{name}", phone.read_file(f"/sdcard/DCIM/{name}"))


NEAR_MISSES: dict[str, list[tuple[str, Any]]] = {
    "MarkorTranscribeReceipt": [
        ("the header only", lambda p, t: _note(p, "receipt.md", "Date, Item, Amount")),
        ("the right text in another note", lambda p, t: _note(p, "receipt.txt", t.params["text"])),
    ],
    "BrowserDraw": [
        ("two of three colours, submitted", lambda p, t: _draw_page(p, t, 2, True)),
        ("three colours, not submitted", lambda p, t: _draw_page(p, t, 3, False)),
    ],
    "SimpleDrawProCreateDrawing": [
        ("saved in Download", lambda p, t: p.write_file(f"/sdcard/Download/{t.params['file_name']}", b"drawing")),
        ("extension doubled", lambda p, t: p.write_file(f"/sdcard/Pictures/{t.params['file_name']}.png", b"drawing")),
    ],
    "SaveCopyOfReceiptTaskEval": [
        ("copied to Documents", lambda p, t: _copy(p, t.params["file_name"], "Documents")),
        ("copied under another name", lambda p, t: p.write_file("/sdcard/Download/copy.jpg", b"\xff\xd8")),
    ],
    "SystemCopyToClipboard": [
        ("nothing copied", lambda p, t: None),
        ("other text copied", lambda p, t: p.set_clipboard("Completely different words")),
    ],
    "SimpleSmsSendClipboardContent": [
        ("the clip to another number", lambda p, t: _sms(p, _other_number(t.params["number"]), t.params["message"])),
        ("other text to the number", lambda p, t: _sms(p, t.params["number"], "Completely unrelated words here.")),
    ],
    "MarkorCreateNoteFromClipboard": [
        ("named note, other text", lambda p, t: _note(p, t.params["file_name"], "zzzzzzzzzzzzzzzzzz")),
        ("the clip in another note", lambda p, t: _note(p, "other_" + t.params["file_name"], t.params["file_content"])),
    ],
    "MarkorCreateNoteAndSms": [
        ("the note only", lambda p, t: _note(p, t.params["file_name"], t.params["text"])),
        ("the text only", lambda p, t: _sms(p, t.params["number"], t.params["text"])),
    ],
}
