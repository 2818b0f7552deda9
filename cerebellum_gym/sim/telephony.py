"""The simulated phone's radio and system services: incoming texts and calls (what the emulator's
console injects), the call log, notifications and the clipboard.

All of it lives in :class:`~cerebellum_gym.sim.phone.PhoneState` as plain data (snapshots and
restores carry it): texts and calls in the content providers (``content://sms``,
``content://call_log/calls``), the rest under the system packages' entries of ``app_data``
(``android`` for the clipboard and the call in progress, ``com.android.systemui`` for
notifications), where ``pm clear`` of an app leaves it alone.

Example:
    >>> from cerebellum_gym.sim.phone import Phone
    >>> phone = Phone()
    >>> receive_sms(phone, "+15551234", "Hello, World!")
    >>> [(r["address"], r["body"], r["type"]) for r in phone.content_query("content://sms/inbox")]
    [('+15551234', 'Hello, World!', '1')]
    >>> [n["title"] for n in notifications(phone)]
    ['+15551234']
    >>> incoming_call(phone, "5550100")
    >>> call_state(phone)
    1
    >>> end_call(phone)
    True
    >>> call_state(phone), [r["type"] for r in phone.content_query(CALLS_URI)]
    (0, ['3'])
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from cerebellum_gym.devices.base import Row
from cerebellum_gym.sim.databases import DATA_ROOT, AppDatabase, Table, declare
from cerebellum_gym.sim.providers import CONTACTS_URI, SMS_URI

if TYPE_CHECKING:
    from cerebellum_gym.sim.phone import Phone

#: The call log (``CallLog.Calls``): ``number``, ``date`` (ms), ``duration`` (s), ``type``.
CALLS_URI: Final = "content://call_log/calls"
#: ``CallLog.Calls`` types.
INCOMING, OUTGOING, MISSED = "1", "2", "3"
#: ``TelephonyManager`` call states, as ``dumpsys telephony.registry`` prints ``mCallState``.
CALL_STATE_IDLE, CALL_STATE_RINGING, CALL_STATE_OFFHOOK = 0, 1, 2
SYSTEM: Final = "android"
SYSTEM_UI: Final = "com.android.systemui"
SMS_PACKAGE: Final = "com.simplemobiletools.smsmessenger"
DIALER_PACKAGE: Final = "com.google.android.dialer"


def _system(phone: Phone) -> dict[str, Any]:
    return phone.state.app_data.setdefault(SYSTEM, {})


def _now_ms(phone: Phone) -> int:
    return int(phone.state.clock * 1000)


def _digits(number: str) -> str:
    return re.sub(r"\D", "", number)


def contact_name(phone: Phone, number: str) -> str | None:
    """The contact whose number has the same digits, as the apps show a sender."""
    want = _digits(number)
    for row in phone.content_query(CONTACTS_URI):
        if want and _digits(row.get("number", "")) == want:
            return row.get("display_name") or None
    return None


# --- texts -----------------------------------------------------------------------------------


#: Device seconds one text takes to arrive (the simulator's clock moves only when something
#: happens; texts sent one after another then arrive in order, with distinct dates).
SMS_DELIVERY_S: Final = 1.0


def receive_sms(phone: Phone, address: str, body: str) -> None:
    """A text arrives, :data:`SMS_DELIVERY_S` after it was sent: a received, unread row in the
    SMS provider, dated then, and the messaging app's notification (as the default SMS app posts
    one on a device)."""
    phone.wait(SMS_DELIVERY_S)
    now = str(_now_ms(phone))
    phone.content_insert(SMS_URI, {"address": address, "body": body, "date": now, "date_sent": now, "type": "1", "read": "0", "seen": "0"})
    # One notification per conversation: a newer text from the same sender replaces it.
    post_notification(phone, SMS_PACKAGE, contact_name(phone, address) or address, body, key=sms_notification_key(address))


def sms_notification_key(address: str) -> str:
    """The key of the text notification of the conversation with ``address``."""
    return "sms:" + (_digits(address) or address)


# --- calls -----------------------------------------------------------------------------------


def call_state(phone: Phone) -> int:
    """``TelephonyManager.getCallState()``: idle, ringing or off-hook."""
    call = _system(phone).get("call")
    return CALL_STATE_IDLE if call is None else int(call["state"])


def current_call(phone: Phone) -> dict[str, Any] | None:
    """The call in progress (``number``, ``state``, ``since`` ms), or ``None``."""
    call = _system(phone).get("call")
    return dict(call) if call is not None else None


def incoming_call(phone: Phone, number: str) -> None:
    """A call rings in from ``number`` (one call at a time: a second one while another is up
    is rejected busy and logged missed, as a phone without call waiting does)."""
    if _system(phone).get("call") is not None:
        _log_call(phone, number, MISSED, 0)
        return
    _system(phone)["call"] = {"number": number, "state": CALL_STATE_RINGING, "since": _now_ms(phone)}
    post_notification(phone, DIALER_PACKAGE, "Incoming call", contact_name(phone, number) or number, key="call")
    phone.invalidate()


def accept_call(phone: Phone) -> bool:
    """Answer the ringing call; whether one was ringing."""
    call = _system(phone).get("call")
    if call is None or call["state"] != CALL_STATE_RINGING:
        return False
    call.update(state=CALL_STATE_OFFHOOK, answered=_now_ms(phone))
    phone.invalidate()
    return True


def end_call(phone: Phone, number: str | None = None) -> bool:
    """Hang up (the ``ENDCALL`` key, or the caller cancelling): a ringing call is logged missed,
    an answered one incoming with its duration. ``number`` limits it to that caller's call.
    Whether a call ended."""
    system = _system(phone)
    call = system.get("call")
    if call is None or (number is not None and _digits(call["number"]) != _digits(number)):
        return False
    del system["call"]
    dismiss_notification(phone, DIALER_PACKAGE, key="call")
    if call["state"] == CALL_STATE_RINGING:
        _log_call(phone, call["number"], MISSED, 0, when=call["since"])
        post_notification(phone, DIALER_PACKAGE, "Missed call", contact_name(phone, call["number"]) or call["number"])
    else:
        _log_call(phone, call["number"], INCOMING, (_now_ms(phone) - int(call.get("answered", call["since"]))) // 1000, when=call["since"])
    phone.invalidate()
    return True


def _log_call(phone: Phone, number: str, kind: str, duration: int, when: int | None = None) -> None:
    phone.content_insert(
        CALLS_URI,
        {"number": number, "date": str(_now_ms(phone) if when is None else when), "duration": str(duration), "type": kind, "new": "1"},
    )


# --- notifications ---------------------------------------------------------------------------


def notifications(phone: Phone) -> list[dict[str, Any]]:
    """Posted notifications, oldest first: ``package``, ``title``, ``text``, ``when`` (ms), ``key``."""
    return [dict(n) for n in phone.state.app_data.get(SYSTEM_UI, {}).get("notifications", [])]


def post_notification(phone: Phone, package: str, title: str, text: str, key: str = "") -> None:
    posted = phone.state.app_data.setdefault(SYSTEM_UI, {}).setdefault("notifications", [])
    if key:  # a keyed notification replaces the app's earlier one with that key
        posted[:] = [n for n in posted if not (n["package"] == package and n["key"] == key)]
    posted.append({"package": package, "title": title, "text": text, "when": _now_ms(phone), "key": key})


def dismiss_notification(phone: Phone, package: str, key: str | None = None) -> None:
    """Remove ``package``'s notifications (only the one with ``key`` when given)."""
    posted = phone.state.app_data.get(SYSTEM_UI, {}).get("notifications")
    if posted:
        posted[:] = [n for n in posted if not (n["package"] == package and (key is None or n["key"] == key))]


# --- clipboard -------------------------------------------------------------------------------


def clipboard(phone: Phone) -> str | None:
    """The primary clip's text, or ``None`` when nothing was copied."""
    value = _system(phone).get("clipboard")
    return None if value is None else str(value)


def set_clipboard(phone: Phone, text: str) -> None:
    """Copy ``text`` (exactly as given) to the primary clip (what Clipper shows and every text
    field's Paste inserts)."""
    _system(phone)["clipboard"] = str(text)
    phone.invalidate()


# --- the provider's database: mmssms.db -----------------------------------------------------------
#: The provider table the text messages live in.
SMS: Final = "sms"


def _thread_key(address: str) -> str:
    """The address a thread is keyed by: its digits (the address itself when it has none)."""
    return "".join(c for c in address if c.isdigit()) or address


def _thread_ids(rows: list[Row]) -> dict[str, int]:
    """Each address's thread, numbered in the order of the messages' dates."""
    ids: dict[str, int] = {}
    for row in sorted(rows, key=lambda r: (int(r.get("date", 0) or 0), int(r.get("_id", 0) or 0))):
        ids.setdefault(_thread_key(row.get("address", "")), len(ids) + 1)
    return ids


def _threads(content: Mapping[str, list[Row]]) -> dict[str, list[dict[str, Any]]]:
    """The ``threads`` and ``canonical_addresses`` tables the provider keeps for the messages."""
    rows = content[SMS]
    ids = _thread_ids(rows)
    threads = []
    for address, tid in ids.items():
        mine = [r for r in rows if _thread_key(r.get("address", "")) == address]
        last = max(mine, key=lambda r: int(r.get("date", 0) or 0))
        threads.append(
            {
                "_id": tid,
                "date": int(last.get("date", 0) or 0),
                "message_count": len(mine),
                "recipient_ids": str(tid),
                "snippet": last.get("body", ""),
                "snippet_cs": 0,
                "read": int(all(r.get("read", "1") == "1" for r in mine)),
                "archived": 0,
                "type": 0,
                "error": 0,
                "has_attachment": 0,
            }
        )
    return {"threads": threads, "canonical_addresses": [{"_id": i, "address": a} for a, i in ids.items()]}


def _sms_to_db(rows: list[Row]) -> list[dict[str, Any]]:
    ids = _thread_ids(rows)
    return [
        {
            "thread_id": ids.get(_thread_key(row.get("address", ""))),
            "date_sent": row.get("date_sent", row.get("date", 0)),
            "seen": row.get("seen", row.get("read", 0)),
        }
        for row in rows
    ]


SMS_DB: Final = declare(
    AppDatabase(
        path=f"{DATA_ROOT}/com.android.providers.telephony/databases/mmssms.db",
        schema=(
            "CREATE TABLE android_metadata (locale TEXT);\n"
            "INSERT INTO android_metadata VALUES ('en_US');\n"
            "CREATE TABLE sms (_id INTEGER PRIMARY KEY,thread_id INTEGER,address TEXT,person INTEGER,date INTEGER,"
            "date_sent INTEGER DEFAULT 0,protocol INTEGER,read INTEGER DEFAULT 0,status INTEGER DEFAULT -1,type INTEGER,"
            "reply_path_present INTEGER,subject TEXT,body TEXT,service_center TEXT,locked INTEGER DEFAULT 0,"
            "sub_id INTEGER DEFAULT -1, error_code INTEGER DEFAULT -1,creator TEXT,seen INTEGER DEFAULT 0);\n"
            "CREATE TABLE threads (_id INTEGER PRIMARY KEY AUTOINCREMENT,date INTEGER DEFAULT 0,"
            "message_count INTEGER DEFAULT 0,recipient_ids TEXT,snippet TEXT,snippet_cs INTEGER DEFAULT 0,"
            "read INTEGER DEFAULT 1,archived INTEGER DEFAULT 0,type INTEGER DEFAULT 0,error INTEGER DEFAULT 0,"
            "has_attachment INTEGER DEFAULT 0);\n"
            "CREATE TABLE canonical_addresses (_id INTEGER PRIMARY KEY AUTOINCREMENT,address TEXT);\n"
        ),
        # The thread follows from the address when the image is built.
        tables=(Table("sms", SMS, to_db=_sms_to_db, not_kept=frozenset({"thread_id"})),),
        derived=_threads,
        launched_by_app=False,
    )
)


__all__ = [
    "CALLS_URI",
    "accept_call",
    "call_state",
    "clipboard",
    "current_call",
    "dismiss_notification",
    "end_call",
    "incoming_call",
    "notifications",
    "post_notification",
    "receive_sms",
    "set_clipboard",
    "sms_notification_key",
]
