"""Clipboard tasks: copying text to the clipboard, pasting it into an SMS or a note, and sharing
a note to an SMS, judged as AndroidWorld judges them.

The clipboard is read and set through the device (:meth:`~cerebellum_gym.devices.base.Device.get_clipboard`,
``set_clipboard``), which over ADB are Clipper's broadcasts, as AndroidWorld's own judges and
set-ups use them. On screen the agent has what a phone offers: a long press on a text field
selects its text and floats the Cut / Copy / Paste toolbar over it (Paste alone on an empty
field), and Markor's editor shares a note through the share sheet to Simple SMS Messenger.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

import numpy as np

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.core.tree import UINode
from cerebellum_gym.devices.base import Device
from cerebellum_gym.tasks import awdata
from cerebellum_gym.tasks.base import JudgeMode, Oracle, Task
from cerebellum_gym.tasks.common import file_text, find_under, fraction, fuzzy_match
from cerebellum_gym.tasks.markor import EDITOR_ID, ROOT, CreateNoteOracle, reset_markor
from cerebellum_gym.tasks.oracle import ScriptedOracle, find, label_for, paste_step, toolbar_item
from cerebellum_gym.tasks.registry import register_task
from cerebellum_gym.tasks.sms import MESSAGES, SMS_PACKAGE, SMS_URI, SmsOracle, _SmsTask

#: AndroidWorld's ``SystemCopyToClipboard`` pool (``generate_random_params``).
CLIPBOARD_CONTENTS: tuple[str, ...] = (
    "1234 Elm St, Springfield, IL",
    "Acme Corp, Suite 200",
    "john.doe@example.com",
    "Jane's Flower Shop",
    "Call me at 555-1234",
    "Order No: A123456",
    "Reservation under: Jane",
    "Discount code: SAVE20",
    "Membership ID: XYZ789",
    "Invoice #98765",
    "Tracking #: 1Z204E2A",
    "Transaction ID: abc123",
    "9876 Pine Ave, Riverside, CA",
    "Global Tech, Floor 3",
    "jane.smith@example.com",
    "Mike's Grocery Store",
    "Text me at 555-6789",
    "Order No: B654321",
    "Reservation under: Mike",
    "Promo code: DEAL30",
    "Membership ID: ABC123",
    "Invoice #54321",
    "Tracking #: 3H488Y2B",
    "Transaction ID: def456",
    "2554 Oak Street, Boston, MA",
    "Innovate Inc, Room 10",
    "alex.jordan@example.net",
    "Sara's Bakery",
    "Reach out at 555-9101",
    "Order No: C987654",
    "Reservation under: Sara",
    "Coupon code: OFF50",
    "Membership ID: LMN456",
    "Invoice #32198",
    "Tracking #: 5K672F4C",
    "Transaction ID: ghi789",
)
#: What AndroidWorld's set-up and tear-down leave in the clipboard.
RESET = "~~~RESET~~~"


def note_checks(device: Device, name: str, text: str) -> list[bool]:
    """AndroidWorld's ``CreateFile`` check, in two parts: a note ``name`` below Markor's notebook,
    and its text, trimmed, fuzzy-matching ``text``."""
    exists = find_under(device, ROOT, name)
    content = file_text(device, f"{ROOT}/{name}") if exists else None
    return [exists, content is not None and fuzzy_match(content.strip(), text)]


def menu_item(text: str, node: UINode) -> bool:
    """Whether ``node`` is the popup menu entry ``text``."""
    return node.resource_id == "android:id/title" and node.text == text


class CopyOracle(ScriptedOracle):
    """Type the text into a text field (Simple SMS Messenger's new-conversation box), select it
    with a long press and tap Copy."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text
        self.copied = False

    def act(self, screen: LabelledScreen) -> str:
        if self.copied:
            return "F"
        copy = toolbar_item(screen, "Copy")
        if copy is not None:
            self.copied = True
            return self.tap(copy)
        step = self.open_app(screen, SMS_PACKAGE, "Simple SMS Messenger")
        if step is not None:
            return step
        hit = find(screen, lambda n: n.resource_id == f"{SMS_PACKAGE}:id/new_conversation_address")
        if hit is None:
            start = find(screen, lambda n: n.resource_id == f"{SMS_PACKAGE}:id/conversations_fab")
            return self.tap(start[0]) if start else "B"
        label, node = hit
        if node.text != self.text:
            return self.type_into(screen, node, label, self.text)
        return f"P {label}"


@register_task
class SystemCopyToClipboard(Task):
    mirrors = "SystemCopyToClipboard"
    app: ClassVar[str] = "Clipper"
    family: ClassVar[str] = "system"
    complexity: ClassVar[float] = 1.0
    template = "Copy the following text to the clipboard: {clipboard_content}"
    judge = "The clipboard's text (read through Clipper) fuzzy-matches the requested text (0.9 ratio), as AndroidWorld reads it."
    # Over ADB the clipboard is read with Clipper in front (and back after), as AndroidWorld does.
    judge_mode: ClassVar[JudgeMode] = "on_end"
    judge_side_effect_free: ClassVar[bool] = False

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {"clipboard_content": awdata.pick(rng, CLIPBOARD_CONTENTS)}

    def initialize(self, device: Device) -> None:
        device.set_clipboard(RESET)

    def progress(self, device: Device, answer: str | None = None) -> float:
        return 1.0 if fuzzy_match(self.params["clipboard_content"], device.get_clipboard() or "") else 0.0

    def oracle(self) -> Oracle:
        return CopyOracle(self.params["clipboard_content"])


class SmsPasteOracle(SmsOracle):
    """:class:`SmsOracle`, with the message pasted from the clipboard instead of typed."""

    def compose(self, screen: LabelledScreen) -> str:
        if self.sent:
            return "F"
        hit = find(screen, lambda n: n.resource_id.endswith(":id/thread_type_message"))
        if hit is not None and hit[1].text != self.message:
            return paste_step(self, screen, hit[0])
        return self.send_step(screen)


@register_task
class SimpleSmsSendClipboardContent(_SmsTask):
    mirrors = "SimpleSmsSendClipboardContent"
    template = "Send a message to {number} with the clipboard content in Simple SMS Messenger"
    judge = (
        "The SMS provider has a sent message to the number (digits compared) whose body fuzzy-matches the clipboard's text, "
        "dated within the last 5 minutes, and Simple SMS Messenger is in the foreground."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {"number": awdata.random_phone_number(rng), "message": awdata.pick(rng, MESSAGES)}

    def initialize(self, device: Device) -> None:
        device.content_delete(SMS_URI)  # AndroidWorld clears the SMS tables, then sets the clip
        device.set_clipboard(self.params["message"])

    def text_candidates(self) -> list[str]:
        return [self.params["number"]]  # the message is on the clipboard, not in the goal

    def oracle(self) -> Oracle:
        number = self.params["number"]
        return SmsPasteOracle(number, self.params["message"], search=number)


class NotePasteOracle(CreateNoteOracle):
    """:class:`CreateNoteOracle`, with the note's text pasted from the clipboard."""

    def set_text(self, screen: LabelledScreen, node: UINode, label: str, want: str, hint: str) -> str | None:
        if node.resource_id != EDITOR_ID:
            return super().set_text(screen, node, label, want, hint)
        return None if node.text == want else paste_step(self, screen, label)


@register_task
class MarkorCreateNoteFromClipboard(Task):
    mirrors = "MarkorCreateNoteFromClipboard"
    app: ClassVar[str] = "Markor"
    family: ClassVar[str] = "markor"
    complexity: ClassVar[float] = 1.4
    template = "Create a note in Markor named {file_name}. Perform a paste operation in the note and save the note."
    judge = (
        "A note <file_name> exists in Markor's notebook (0.5) and its text, trimmed, fuzzy-matches the clipboard's text "
        "(0.5); AndroidWorld scores it 0/1."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {"file_name": awdata.random_note_name(rng), "file_content": awdata.random_string(rng, 10)}

    def initialize(self, device: Device) -> None:
        reset_markor(device)
        device.set_clipboard(self.params["file_content"])

    def progress(self, device: Device, answer: str | None = None) -> float:
        return fraction(note_checks(device, self.params["file_name"], self.params["file_content"]))

    def text_candidates(self) -> list[str]:
        return [self.params["file_name"]]

    def oracle(self) -> Oracle:
        return NotePasteOracle(self.params["file_name"], self.params["file_content"])


class NoteAndSmsOracle(CreateNoteOracle):
    """Write the note, then Share it to Simple SMS Messenger and send it to the number."""

    def __init__(self, name: str, text: str, number: str) -> None:
        super().__init__(name, text)
        self.sms = SmsOracle(number, text, search=number)
        self.shared = False

    def act(self, screen: LabelledScreen) -> str:
        if self.shared:
            return self.sms.act(screen)
        target = label_for(screen, text="Simple SMS Messenger")
        if target is not None and self.dialog(screen) == "Share with":
            self.shared = True
            return self.tap(target)
        # Markor's editor shares from its overflow: More options, Share, Plain Text.
        if self.saved:
            for item in ("Plain Text", "Share"):
                hit = find(screen, functools.partial(menu_item, item))
                if hit is not None:
                    return self.tap(hit[0])
        step = super().act(screen)
        if step != "F":
            return step
        return self.tap(label_for(screen, desc="More options") or "")


@register_task
class MarkorCreateNoteAndSms(_SmsTask):
    mirrors = "MarkorCreateNoteAndSms"
    app: ClassVar[str] = "Markor"
    family: ClassVar[str] = "markor"
    complexity: ClassVar[float] = 1.8
    template = (
        "Create a new note in Markor named {file_name} with the following text: {text}. Share the entire content of the note "
        "with the phone number {number} via SMS using Simple SMS Messenger"
    )
    judge = (
        "Half for the note <file_name> in Markor's notebook with the text (fuzzy), half for a sent SMS to the number with the "
        "text (fuzzy, last 5 minutes, SMS app in front), as AndroidWorld averages the two."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {
            "file_name": awdata.random_note_name(rng),
            "text": awdata.pick(rng, awdata.SENTENCES),
            "number": awdata.random_phone_number(rng),
        }

    def target(self) -> tuple[str, str]:
        return self.params["number"], self.params["text"]

    def initialize(self, device: Device) -> None:
        reset_markor(device)
        device.content_delete(SMS_URI)

    def progress(self, device: Device, answer: str | None = None) -> float:
        note = all(note_checks(device, self.params["file_name"], self.params["text"]))
        return (float(note) + super().progress(device, answer)) / 2.0

    def text_candidates(self) -> list[str]:
        return [self.params["file_name"], self.params["text"], self.params["number"]]

    def oracle(self) -> Oracle:
        return NoteAndSmsOracle(self.params["file_name"], self.params["text"], self.params["number"])
