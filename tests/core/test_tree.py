"""Accessibility trees: parsing real-format uiautomator dumps, writing them, compacting them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cerebellum_gym.core.som import label_screen
from cerebellum_gym.core.tree import UINode, compact_subtree, compact_tree, parse_bounds, parse_uiautomator_xml, to_uiautomator_xml
from cerebellum_gym.errors import DeviceProtocolError
from cerebellum_gym.sim import Phone

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def wifi_tree() -> UINode:
    return parse_uiautomator_xml((FIXTURES / "settings_wifi.xml").read_bytes())


def test_parses_attributes_bounds_and_nesting(wifi_tree: UINode) -> None:
    frame = wifi_tree.children[0]
    assert frame.class_name == "android.widget.FrameLayout"
    assert frame.bounds == (0, 0, 1080, 2400)
    switch = wifi_tree.find(class_name="android.widget.Switch")
    assert switch is not None
    assert switch.checkable and switch.checked and not switch.clickable
    up = wifi_tree.find(content_desc="Navigate up")
    assert up is not None and up.clickable and up.center == (73, 209)
    row = wifi_tree.find(text='AndroidWifi & "Guest"')  # entities decoded
    assert row is not None
    assert wifi_tree.find(resource_id="com.android.settings:id/search").focused  # type: ignore[union-attr]


def test_compact_text_labels_actionable_elements_only(wifi_tree: UINode) -> None:
    screen = label_screen(wifi_tree, np.random.default_rng(7))
    # up button, two rows, the switch, the search field; the disabled button gets none
    assert len(screen.labels) == 5
    text = screen.text()
    lines = text.splitlines()
    up_label = screen.label_of(wifi_tree.find(content_desc="Navigate up"))  # type: ignore[arg-type]
    assert f'[{up_label}] ImageButton desc="Navigate up"' in lines
    row_line = next(line for line in lines if "Connected" in line)
    # A clickable row without text of its own reads its children's texts.
    assert '"AndroidWifi & \\"Guest\\"" "Connected"' in row_line
    assert any("Switch on" in line for line in lines)
    assert any("EditText" in line and "focused" in line for line in lines)
    assert any(line.strip() == 'Button "Disabled thing" disabled' for line in lines)
    assert screen.focused is wifi_tree.find(resource_id="com.android.settings:id/search")


def test_compact_text_respects_max_chars(wifi_tree: UINode) -> None:
    text = compact_tree(wifi_tree, {}, max_chars=60)
    assert len(text) <= 60 + 2
    assert text.endswith("…")


def test_xml_round_trip_preserves_every_attribute(wifi_tree: UINode) -> None:
    again = parse_uiautomator_xml(to_uiautomator_xml(wifi_tree))
    for a, b in zip(wifi_tree.iter(), again.iter(), strict=True):
        for attr in (
            "text",
            "resource_id",
            "class_name",
            "package",
            "content_desc",
            "checked",
            "clickable",
            "focused",
            "scrollable",
            "bounds",
            "enabled",
        ):
            assert getattr(a, attr) == getattr(b, attr), attr


@given(st.text())
def test_any_text_survives_the_xml_dump(text: str) -> None:
    node = UINode("android.widget.EditText", (0, 0, 10, 10), text=text)
    again = parse_uiautomator_xml(to_uiautomator_xml(node)).children[0]
    # XML 1.0 cannot carry control characters or lone surrogates; they become U+FFFD.
    expected = "".join(
        "\ufffd" if (ord(c) < 32 and c not in "\t\n\r") or 0xD800 <= ord(c) <= 0xDFFF or c in "\ufffe\uffff" else c for c in text
    )
    assert again.text == expected.replace("\r", "\n") or again.text == expected


def test_simulator_dump_is_well_formed_and_matches_its_tree() -> None:
    phone = Phone()
    phone.start_app("com.android.settings")
    xml = phone.dump_xml()
    assert xml.startswith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">")
    parsed = parse_uiautomator_xml(xml)
    assert [n.text for n in parsed.iter()][1:] == [n.text for n in phone.ui_tree().iter()]
    # Device pixels of the 1080x2400 logical screen.
    for node in parsed.iter():
        left, top, right, bottom = node.bounds
        assert 0 <= left <= right <= 1080 and 0 <= top <= bottom <= 2400


def test_subtree_describes_the_acted_element(wifi_tree: UINode) -> None:
    row = wifi_tree.find(text="Connected")
    parent = next(n for n in wifi_tree.iter() if row in n.children)
    assert compact_subtree(parent) == 'LinearLayout "AndroidWifi & \\"Guest\\"" "Connected"'


@pytest.mark.parametrize("bad", [b"", b"not xml", b"<hierarchy><node", b"<foo/>"])
def test_bad_dumps_raise_protocol_errors(bad: bytes) -> None:
    with pytest.raises(DeviceProtocolError):
        parse_uiautomator_xml(bad)


def test_bounds_parsing() -> None:
    assert parse_bounds("[0,283][1080,472]") == (0, 283, 1080, 472)
    with pytest.raises(DeviceProtocolError):
        parse_bounds("0,0,1,1")
