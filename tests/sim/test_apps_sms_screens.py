"""Simple SMS Messenger's screens as 5.19.3 shows them: the search bar over the conversation
rows, the new-conversation screen, the thread's compose bar and the selection mode."""

from __future__ import annotations

from cerebellum_gym.core.tree import UINode
from cerebellum_gym.sim import telephony
from cerebellum_gym.sim.phone import Phone

SMS = "com.simplemobiletools.smsmessenger"
ID = f"{SMS}:id/"


def find(phone: Phone, rid: str, text: str | None = None) -> UINode:
    for n in phone.ui_tree().iter():
        if n.resource_id == ID + rid and (text is None or n.text == text):
            return n
    raise AssertionError(f"no {rid} {text!r} on screen")


def tap(phone: Phone, rid: str, text: str | None = None, *, long: bool = False) -> None:
    x, y = find(phone, rid, text).center
    (phone.long_press if long else phone.tap)(x, y)


def _phone() -> Phone:
    phone = Phone()
    phone.content_insert("content://com.android.contacts/data/phones", {"display_name": "Ada Lovelace", "number": "+15550001111"})
    now = int(phone.now().timestamp() * 1000)
    phone.content_insert(
        "content://sms", {"address": "+15550001111", "body": "See you at noon", "date": str(now - 60_000), "type": "2", "read": "1"}
    )
    phone.content_insert(
        "content://sms", {"address": "+15550001111", "body": "What did you say?", "date": str(now), "type": "1", "read": "1"}
    )
    phone.start_app(SMS)
    return phone


def test_the_list_shows_the_search_bar_and_conversation_rows() -> None:
    phone = _phone()
    assert find(phone, "top_toolbar_search").text == "Search"
    assert find(phone, "conversation_address").text == "Ada Lovelace"
    assert find(phone, "conversation_body_short").text == "What did you say?"
    descs = [n.content_desc for n in phone.ui_tree().iter() if n.content_desc]
    assert descs[:3] == ["Settings", "About", "More options"]
    assert find(phone, "conversations_fab").content_desc == ""


def test_new_conversation_offers_contacts_and_a_confirm_for_numbers() -> None:
    phone = _phone()
    tap(phone, "conversations_fab")
    assert find(phone, "new_conversation_address").text == "Add Contact or Number…"
    assert find(phone, "suggested_contact_name").text == "Ada Lovelace"  # a saved contact that texted
    assert find(phone, "item_contact_number").text == "+15550001111"
    phone.type_text("555")
    tap(phone, "new_conversation_confirm")
    assert find(phone, "thread_type_message").text == "Type a message…"


def test_long_press_selects_and_copy_then_paste_resends() -> None:
    phone = _phone()
    tap(phone, "conversation_frame")
    assert find(phone, "thread_send_message").text == "SMS" and find(phone, "thread_send_message").content_desc == "OK"
    tap(phone, "thread_message_body", "See you at noon", long=True)
    assert [n.content_desc for n in phone.ui_tree().iter() if n.resource_id.startswith(ID + "cab_")] == [
        "Copy to clipboard",
        "Share",
        "Delete",
    ]
    tap(phone, "cab_copy_to_clipboard")
    assert telephony.clipboard(phone) == "See you at noon"
    assert find(phone, "thread_toolbar") is not None  # the selection mode closed
    tap(phone, "thread_type_message", long=True)
    paste = [n for n in phone.ui_tree().iter() if n.text == "Paste"]
    phone.tap(*paste[0].center)
    tap(phone, "thread_send_message")
    sent = [r["body"] for r in phone.content_query("content://sms") if r["type"] == "2"]
    assert sent == ["See you at noon", "See you at noon"]


def test_selection_delete_asks_first() -> None:
    phone = _phone()
    tap(phone, "conversation_frame")
    tap(phone, "thread_message_body", "What did you say?", long=True)
    tap(phone, "cab_delete")
    yes = [n for n in phone.ui_tree().iter() if n.text == "Yes"]
    phone.tap(*yes[0].center)
    assert [r["body"] for r in phone.content_query("content://sms")] == ["See you at noon"]


def test_search_lists_matching_messages_as_search_results() -> None:
    phone = _phone()
    tap(phone, "top_toolbar_search")
    phone.type_text("noon")
    assert find(phone, "search_result_snippet").text == "See you at noon"
    assert not [n for n in phone.ui_tree().iter() if n.resource_id == ID + "conversations_fab"]
    tap(phone, "search_result_holder")
    assert find(phone, "thread_toolbar") is not None


def test_the_last_sent_message_shows_its_check_and_headers_follow_five_minutes() -> None:
    phone = _phone()
    tap(phone, "conversation_frame")
    assert not [n for n in phone.ui_tree().iter() if n.resource_id == ID + "thread_success"]  # the last one was received
    phone.tap(*find(phone, "thread_type_message").center)
    phone.type_text("At noon")
    tap(phone, "thread_send_message")
    ids = [n.resource_id[len(ID) :] for n in phone.ui_tree().iter() if n.resource_id.startswith(ID + "thread_")]
    assert ids.count("thread_date_time") == 1  # three messages within five minutes of the first
    assert "thread_success" in ids and ids.index("thread_success") > ids.index("thread_message_body")
