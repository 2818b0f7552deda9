"""Simple SMS Messenger tasks, judged on the SMS provider as AndroidWorld does."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.devices.base import Device
from cerebellum_gym.tasks import awdata
from cerebellum_gym.tasks.base import Oracle, Task
from cerebellum_gym.tasks.common import fuzzy_match
from cerebellum_gym.tasks.contacts import CONTACTS_URI, digits
from cerebellum_gym.tasks.oracle import ScriptedOracle, find, paste_step
from cerebellum_gym.tasks.registry import register_task

SMS_PACKAGE = "com.simplemobiletools.smsmessenger"
SMS_URI = "content://sms"
#: AndroidWorld's message pool (its ``RANDOM_SENTENCES``) and the addresses it texts.
MESSAGES = awdata.SENTENCES
ADDRESSES = awdata.ADDRESSES
#: The text AndroidWorld's resend task receives after the user's message.
GLITCH = "Sorry, there was a glitch, what was the last message you sent me?"
#: AndroidWorld requires the message to have been sent within the last five minutes.
RECENT_MS = 5 * 60 * 1000


def now_ms(device: Device) -> int:
    return int(device.now().timestamp() * 1000)


def add_sms(device: Device, address: str, body: str, kind: str, minutes_ago: int) -> None:
    device.content_insert(
        SMS_URI, {"address": address, "body": body, "date": str(now_ms(device) - minutes_ago * 60_000), "type": kind, "read": "1"}
    )


def receive(device: Device, texts: list[tuple[str, str]]) -> None:
    """Texts arriving one a minute, the last one now (AndroidWorld sends them to the emulator in turn)."""
    for i, (number, body) in enumerate(texts):
        add_sms(device, number, body, "1", len(texts) - 1 - i)


class SmsOracle(ScriptedOracle):
    """Open the right conversation (by its title), type a message, send, done."""

    def __init__(
        self, thread_title: str, message: str | None, search: str | None = None, pick: str | None = None, pick_number: str | None = None
    ) -> None:
        super().__init__()
        self.thread_title, self.message = thread_title, message
        self.search = search  # what to type in "new conversation" when the thread is not listed
        self.pick = pick  # the suggestion to tap after typing
        # The suggestion's number, where two contacts can share the name: AndroidWorld leaves an
        # earlier task's contacts on the device, and its names come from the same seeded pool.
        self.pick_number = pick_number
        self.sent = False

    @staticmethod
    def title(screen: LabelledScreen) -> str:
        """The screen's title: the thread's toolbar title, "New conversation", or the app's
        name on the conversation list (its search bar)."""
        for node in screen.root.iter():
            if node.resource_id == f"{SMS_PACKAGE}:id/thread_toolbar":
                texts = [n.text for n in node.iter() if n.text]
                return texts[0] if texts else ""
            if node.resource_id == f"{SMS_PACKAGE}:id/new_conversation_toolbar":
                return "New conversation"
            if node.resource_id == f"{SMS_PACKAGE}:id/top_app_bar_layout":
                return "Simple SMS Messenger"
        return ""

    def send_step(self, screen: LabelledScreen) -> str:
        self.sent = True
        hit = find(screen, lambda n: n.resource_id == f"{SMS_PACKAGE}:id/thread_send_message")
        return self.tap(hit[0]) if hit else "B"

    def compose(self, screen: LabelledScreen) -> str:
        if self.sent:
            return "F"
        hit = find(screen, lambda n: n.resource_id.endswith(":id/thread_type_message"))
        assert self.message is not None
        if hit is not None and hit[1].text != self.message:
            return self.type_into(screen, hit[1], hit[0], self.message)
        return self.send_step(screen)

    def new_conversation(self, screen: LabelledScreen) -> str:
        """Type the name or number, then tap the contact (by its number where given) or, for a
        number, the check button that opens its thread."""
        hit = find(screen, lambda n: n.resource_id == f"{SMS_PACKAGE}:id/new_conversation_address")
        if hit is not None and hit[1].text != self.search:
            return self.type_into(screen, hit[1], hit[0], self.search or "")
        if self.pick_number is not None:
            number = digits(self.pick_number)
            pick = find(screen, lambda n: n.resource_id == f"{SMS_PACKAGE}:id/item_contact_number" and digits(n.text or "") == number)
        elif self.pick is not None:
            pick = find(screen, lambda n: n.text == self.pick and n.resource_id == f"{SMS_PACKAGE}:id/item_contact_name")
        else:
            pick = find(screen, lambda n: n.resource_id == f"{SMS_PACKAGE}:id/new_conversation_confirm")
        return self.tap(pick[0]) if pick else "B"

    def act(self, screen: LabelledScreen) -> str:
        step = self.open_app(screen, SMS_PACKAGE, "Simple SMS Messenger")
        if step is not None:
            return step
        title = self.title(screen)
        if title == self.thread_title:
            return self.compose(screen)
        if title == "New conversation":
            return self.new_conversation(screen)
        if title != "Simple SMS Messenger":
            return "B"
        if self.search is None:
            row = find(screen, lambda n: n.resource_id == f"{SMS_PACKAGE}:id/conversation_address" and n.text == self.thread_title)
            return self.tap(row[0]) if row else self.scroll_search(screen)
        fab = find(screen, lambda n: n.resource_id == f"{SMS_PACKAGE}:id/conversations_fab")
        return self.tap(fab[0]) if fab else "B"


class _SmsTask(Task):
    app: ClassVar[str] = "Simple SMS Messenger"
    family: ClassVar[str] = "sms"
    complexity: ClassVar[float] = 1.2
    judge = (
        "The SMS provider has a sent message to the number (digits compared) whose body fuzzy-matches the message, dated within the last "
        "5 minutes, and Simple SMS Messenger is in the foreground."
    )

    def target(self) -> tuple[str, str]:
        """The number and the message body that must have been sent."""
        return self.params["number"], self.params["message"]

    def sent_matches(self, device: Device) -> list[dict[str, str]]:
        number, message = self.target()
        cutoff = now_ms(device) - RECENT_MS
        return [
            r
            for r in device.content_query(SMS_URI, where={"type": "2"})
            if digits(r.get("address", "")) == digits(number)
            and fuzzy_match(r.get("body", ""), message)
            and int(r.get("date", 0)) >= cutoff
        ]

    def progress(self, device: Device, answer: str | None = None) -> float:
        return 1.0 if device.foreground_package() == SMS_PACKAGE and self.sent_matches(device) else 0.0

    def text_candidates(self) -> list[str]:
        number, message = self.target()
        return [number, message]


@register_task
class SimpleSmsSend(_SmsTask):
    mirrors = "SimpleSmsSend"
    template = "Send a text message using Simple SMS Messenger to {number} with message: {message}"

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {"number": awdata.random_phone_number(rng), "message": awdata.pick(rng, MESSAGES), "noise_seed": int(rng.integers(2**31))}

    def initialize(self, device: Device) -> None:
        device.content_delete(SMS_URI)  # AndroidWorld clears the SMS tables and sends nothing here

    def oracle(self) -> Oracle:
        number = self.params["number"]
        return SmsOracle(number, self.params["message"], search=number)


@register_task
class SimpleSmsReply(SimpleSmsSend):
    mirrors = "SimpleSmsReply"
    template = "Reply to {number} with message: {message} in Simple SMS Messenger"

    def initialize(self, device: Device) -> None:
        # AndroidWorld: 1-5 texts from random numbers, the one from {number} slipped in at a random turn.
        super().initialize(device)
        rng = np.random.default_rng(self.params["noise_seed"])
        texts: list[tuple[str, str]] = []
        relevant_sent = False
        for _ in range(int(rng.integers(1, 6))):
            if not relevant_sent and rng.integers(2):
                texts.append((self.params["number"], awdata.pick(rng, MESSAGES)))
                relevant_sent = True
            texts.append((awdata.random_phone_number(rng), awdata.pick(rng, MESSAGES)))
        if not relevant_sent:
            texts.append((self.params["number"], awdata.pick(rng, MESSAGES)))
        receive(device, texts)

    def oracle(self) -> Oracle:
        return SmsOracle(self.params["number"], self.params["message"])


@register_task
class SimpleSmsReplyMostRecent(_SmsTask):
    mirrors = "SimpleSmsReplyMostRecent"
    template = "Reply to the most recent text message using Simple SMS Messenger with message: {message}"
    judge = (
        "A sent message to the sender of the newest received text, fuzzy-matching the message, within the last 5 minutes; SMS app in front."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {"message": awdata.pick(rng, MESSAGES), "number": awdata.random_phone_number(rng), "noise_seed": int(rng.integers(2**31))}

    def initialize(self, device: Device) -> None:
        # AndroidWorld: 0-5 texts from random numbers, then one from {number}; none carries the goal message.
        device.content_delete(SMS_URI)
        rng = np.random.default_rng(self.params["noise_seed"])
        others = [m for m in MESSAGES if m != self.params["message"]]
        texts = [(awdata.random_phone_number(rng), awdata.pick(rng, others)) for _ in range(int(rng.integers(0, 6)))]
        receive(device, [*texts, (self.params["number"], awdata.pick(rng, others))])

    def text_candidates(self) -> list[str]:
        return [self.params["message"]]

    def oracle(self) -> Oracle:
        return SmsOracle(self.params["number"], self.params["message"])


class ResendOracle(SmsOracle):
    """The app has no "resend" for a sent message: select it with a long press, copy it to
    the clipboard from the selection bar, paste it into the compose box and send it."""

    def __init__(self, thread_title: str, message: str) -> None:
        super().__init__(thread_title, message)
        self.copied = False

    def act(self, screen: LabelledScreen) -> str:
        if self.sent:
            return "F"
        copy = find(screen, lambda n: n.resource_id == f"{SMS_PACKAGE}:id/cab_copy_to_clipboard")
        if copy is not None and not self.copied:
            self.copied = True
            return self.tap(copy[0])
        if self.title(screen) == self.thread_title:
            if not self.copied:
                hit = find(screen, lambda n: n.resource_id == f"{SMS_PACKAGE}:id/thread_message_body" and n.text == self.message)
                return f"P {hit[0]}" if hit else self.scroll_search(screen)
            field = find(screen, lambda n: n.resource_id == f"{SMS_PACKAGE}:id/thread_type_message")
            if field is not None and field[1].text != self.message:
                return paste_step(self, screen, field[0])
            return self.send_step(screen)
        return super().act(screen)


@register_task
class SimpleSmsResend(_SmsTask):
    mirrors = "SimpleSmsResend"
    template = "Resend the message I just sent to {name} in Simple SMS Messenger"
    judge = (
        "Exactly one new sent message exists, to that contact's number with the earlier body (fuzzy); "
        "the foreground app is not checked, as in AndroidWorld."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {"name": awdata.random_person_name(rng), "number": awdata.random_phone_number(rng), "message": awdata.pick(rng, MESSAGES)}

    def initialize(self, device: Device) -> None:
        # AndroidWorld: the contact, the message sent to them, then their reply asking for it again.
        device.content_delete(SMS_URI)
        device.content_delete(CONTACTS_URI)
        device.content_insert(CONTACTS_URI, {"display_name": self.params["name"], "number": self.params["number"]})
        add_sms(device, self.params["number"], self.params["message"], "2", 1)
        add_sms(device, self.params["number"], GLITCH, "1", 0)
        self.baseline(device)

    def baseline(self, device: Device) -> None:
        self._before = {r["_id"] for r in device.content_query(SMS_URI)}

    def progress(self, device: Device, answer: str | None = None) -> float:
        new = [r for r in device.content_query(SMS_URI) if r["_id"] not in self._before]
        number, message = self.target()
        ok = (
            len(new) == 1
            and new[0].get("type") == "2"
            and digits(new[0].get("address", "")) == digits(number)
            and fuzzy_match(new[0].get("body", ""), message)
        )
        return 1.0 if ok else 0.0

    def text_candidates(self) -> list[str]:
        return [self.params["message"]]

    def oracle(self) -> Oracle:
        return ResendOracle(self.params["name"], self.params["message"])


@register_task
class SimpleSmsSendReceivedAddress(_SmsTask):
    mirrors = "SimpleSmsSendReceivedAddress"
    complexity: ClassVar[float] = 1.8
    template = "Text the address of the event to {name1} that {name2} just sent me in Simple SMS Messenger"
    judge = (
        "A sent message to name1's number whose body fuzzy-matches the address name2 texted, within the last 5 minutes; SMS app in front."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        name1 = awdata.random_person_name(rng)
        name2 = awdata.random_person_name(rng, excluding=name1)  # AndroidWorld's exclusion is broken; ours is not
        return {
            "name1": name1,
            "name2": name2,
            "number": awdata.random_phone_number(rng),
            "number2": awdata.random_phone_number(rng),
            "message": awdata.pick(rng, ADDRESSES),
        }

    def initialize(self, device: Device) -> None:
        # AndroidWorld: both contacts, then one text from name2 with the address.
        p = self.params
        device.content_delete(SMS_URI)
        device.content_delete(CONTACTS_URI)
        device.content_insert(CONTACTS_URI, {"display_name": p["name1"], "number": p["number"]})
        device.content_insert(CONTACTS_URI, {"display_name": p["name2"], "number": p["number2"]})
        add_sms(device, p["number2"], p["message"], "1", 0)

    def text_candidates(self) -> list[str]:
        return [self.params["name1"], self.params["message"]]

    def oracle(self) -> Oracle:
        p = self.params
        return SmsOracle(p["name1"], p["message"], search=p["name1"], pick=p["name1"], pick_number=p["number"])
