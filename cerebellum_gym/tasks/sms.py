"""Simple SMS Messenger tasks, judged on the SMS provider as AndroidWorld does."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.devices.base import Device
from cerebellum_gym.tasks.base import Oracle, Task
from cerebellum_gym.tasks.common import MESSAGES, fuzzy_match
from cerebellum_gym.tasks.contacts import CONTACTS_URI, digits, random_name, random_number
from cerebellum_gym.tasks.oracle import ScriptedOracle, find, label_for
from cerebellum_gym.tasks.registry import register_task

SMS_PACKAGE = "com.simplemobiletools.smsmessenger"
SMS_URI = "content://sms"
ADDRESSES = (
    "1600 Amphitheatre Pkwy, Mountain View, CA 94043",
    "350 Fifth Avenue, New York, NY 10118",
    "221 Baker Street, Portland, OR 97201",
    "742 Evergreen Terrace, Springfield, IL 62704",
    "1 Infinite Loop, Cupertino, CA 95014",
    "4059 Mt Lee Dr, Hollywood, CA 90068",
    "11 Wall Street, New York, NY 10005",
    "600 Montgomery St, San Francisco, CA 94111",
)
#: AndroidWorld requires the message to have been sent within the last five minutes.
RECENT_MS = 5 * 60 * 1000


def now_ms(device: Device) -> int:
    return int(device.now().timestamp() * 1000)


def add_sms(device: Device, address: str, body: str, kind: str, minutes_ago: int) -> None:
    device.content_insert(
        SMS_URI, {"address": address, "body": body, "date": str(now_ms(device) - minutes_ago * 60_000), "type": kind, "read": "1"}
    )


def seed_inbox(device: Device, rng: np.random.Generator, count: int, avoid: set[str]) -> None:
    """Received messages from random numbers, an hour to a few days old."""
    for _ in range(count):
        number = random_number(rng)
        if digits(number) in avoid:
            continue
        add_sms(device, number, str(rng.choice(MESSAGES)), "1", int(rng.integers(60, 4000)))


class SmsOracle(ScriptedOracle):
    """Open the right conversation (by its title), type a message, send, done."""

    def __init__(self, thread_title: str, message: str | None, search: str | None = None, pick: str | None = None) -> None:
        super().__init__()
        self.thread_title, self.message = thread_title, message
        self.search = search  # what to type in "new conversation" when the thread is not listed
        self.pick = pick  # the suggestion to tap after typing
        self.sent = False

    @staticmethod
    def title(screen: LabelledScreen) -> str:
        bar = screen.root.find(resource_id=f"{SMS_PACKAGE}:id/toolbar")
        texts = [n.text for n in bar.iter() if n.text] if bar is not None else []
        return texts[0] if texts else ""

    def compose(self, screen: LabelledScreen) -> str:
        if self.sent:
            return "F"
        hit = find(screen, lambda n: n.resource_id.endswith(":id/thread_type_message"))
        assert self.message is not None
        if hit is not None and hit[1].text != self.message:
            return self.type_into(screen, hit[1], hit[0], self.message)
        self.sent = True
        return self.tap(label_for(screen, desc="Send") or "")

    def act(self, screen: LabelledScreen) -> str:
        step = self.open_app(screen, SMS_PACKAGE, "Simple SMS Messenger")
        if step is not None:
            return step
        title = self.title(screen)
        if title == self.thread_title:
            return self.compose(screen)
        if title == "New conversation":
            hit = find(screen, lambda n: n.resource_id.endswith(":id/query"))
            if hit is not None and hit[1].text != self.search:
                return self.type_into(screen, hit[1], hit[0], self.search or "")
            pick = find(screen, lambda n: n.text == self.pick and n.resource_id == "android:id/title")
            return self.tap(pick[0]) if pick else "B"
        if title != "Simple SMS Messenger":
            return "B"
        if self.search is None:
            label = label_for(screen, text=self.thread_title)
            return self.tap(label) if label else self.scroll_search(screen)
        return self.tap(label_for(screen, desc="Start a conversation") or "")


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
    name = "SimpleSmsSend"
    mirrors = "SimpleSmsSend"
    template = "Send a text message using Simple SMS Messenger to {number} with message: {message}"

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {"number": random_number(rng), "message": str(rng.choice(MESSAGES)), "noise_seed": int(rng.integers(2**31))}

    def initialize(self, device: Device) -> None:
        device.content_delete(SMS_URI)
        seed_inbox(device, np.random.default_rng(self.params["noise_seed"]), 3, {digits(self.params["number"])})

    def oracle(self) -> Oracle:
        number = self.params["number"]
        return SmsOracle(number, self.params["message"], search=number, pick=f"Send to {number}")


@register_task
class SimpleSmsReply(SimpleSmsSend):
    name = "SimpleSmsReply"
    mirrors = "SimpleSmsReply"
    template = "Reply to {number} with message: {message} in Simple SMS Messenger"

    def initialize(self, device: Device) -> None:
        super().initialize(device)
        add_sms(device, self.params["number"], "Hey, are you around?", "1", 30)

    def oracle(self) -> Oracle:
        return SmsOracle(self.params["number"], self.params["message"])


@register_task
class SimpleSmsReplyMostRecent(_SmsTask):
    name = "SimpleSmsReplyMostRecent"
    mirrors = "SimpleSmsReplyMostRecent"
    template = "Reply to the most recent text message using Simple SMS Messenger with message: {message}"
    judge = (
        "A sent message to the sender of the newest received text, fuzzy-matching the message, within the last 5 minutes; SMS app in front."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {"message": str(rng.choice(MESSAGES)), "number": random_number(rng), "noise_seed": int(rng.integers(2**31))}

    def initialize(self, device: Device) -> None:
        device.content_delete(SMS_URI)
        seed_inbox(device, np.random.default_rng(self.params["noise_seed"]), 4, {digits(self.params["number"])})
        add_sms(device, self.params["number"], "Did you get my last message?", "1", 5)

    def text_candidates(self) -> list[str]:
        return [self.params["message"]]

    def oracle(self) -> Oracle:
        return SmsOracle(self.params["number"], self.params["message"])


class ResendOracle(SmsOracle):
    def act(self, screen: LabelledScreen) -> str:
        if self.sent:
            return "F"
        resend = label_for(screen, text="Resend")
        if resend is not None:
            self.sent = True
            return self.tap(resend)
        if self.title(screen) == self.thread_title:
            hit = find(screen, lambda n: n.text == self.message and n.long_clickable)
            return f"P {hit[0]}" if hit else self.scroll_search(screen)
        return super().act(screen)


@register_task
class SimpleSmsResend(_SmsTask):
    name = "SimpleSmsResend"
    mirrors = "SimpleSmsResend"
    template = "Resend the message I just sent to {name} in Simple SMS Messenger"
    judge = (
        "Exactly one new sent message exists, to that contact's number with the earlier body (fuzzy); "
        "the foreground app is not checked, as in AndroidWorld."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        first, last = random_name(rng)
        return {
            "name": f"{first} {last}",
            "number": random_number(rng),
            "message": str(rng.choice(MESSAGES)),
            "noise_seed": int(rng.integers(2**31)),
        }

    def initialize(self, device: Device) -> None:
        device.content_delete(SMS_URI)
        device.content_delete(CONTACTS_URI)
        device.content_insert(CONTACTS_URI, {"display_name": self.params["name"], "number": self.params["number"]})
        seed_inbox(device, np.random.default_rng(self.params["noise_seed"]), 3, {digits(self.params["number"])})
        add_sms(device, self.params["number"], "What time works for you?", "1", 20)
        add_sms(device, self.params["number"], self.params["message"], "2", 2)
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
    name = "SimpleSmsSendReceivedAddress"
    mirrors = "SimpleSmsSendReceivedAddress"
    complexity: ClassVar[float] = 1.8
    template = "Text the address of the event to {name1} that {name2} just sent me in Simple SMS Messenger"
    judge = (
        "A sent message to name1's number whose body fuzzy-matches the address name2 texted, within the last 5 minutes; SMS app in front."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        name1 = " ".join(random_name(rng))
        name2 = " ".join(random_name(rng))
        while name2 == name1:  # AndroidWorld's exclusion is broken; ours is not
            name2 = " ".join(random_name(rng))
        return {
            "name1": name1,
            "name2": name2,
            "number": random_number(rng),
            "number2": random_number(rng),
            "message": str(rng.choice(ADDRESSES)),
            "noise_seed": int(rng.integers(2**31)),
        }

    def initialize(self, device: Device) -> None:
        p = self.params
        device.content_delete(SMS_URI)
        device.content_delete(CONTACTS_URI)
        device.content_insert(CONTACTS_URI, {"display_name": p["name1"], "number": p["number"]})
        device.content_insert(CONTACTS_URI, {"display_name": p["name2"], "number": p["number2"]})
        seed_inbox(device, np.random.default_rng(p["noise_seed"]), 3, {digits(p["number"]), digits(p["number2"])})
        add_sms(device, p["number2"], "The party is on Saturday at 7, here's the address:", "1", 4)
        add_sms(device, p["number2"], p["message"], "1", 3)

    def text_candidates(self) -> list[str]:
        return [self.params["name1"], self.params["message"]]

    def oracle(self) -> Oracle:
        p = self.params
        return SmsOracle(p["name1"], p["message"], search=p["name1"], pick=p["name1"])
