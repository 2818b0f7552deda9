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


_node_texts = st.text(alphabet=st.sampled_from(list('ab %s%%"\\\n…é')), max_size=12)


@st.composite
def _trees(draw: st.DrawFn, depth: int = 0) -> UINode:
    kinds = ["android.widget.Button", "android.widget.FrameLayout", "android.widget.TextView", "android.widget.EditText"]
    kind = draw(st.sampled_from(kinds))
    children = draw(st.lists(_trees(depth + 1), max_size=3)) if depth < 3 else []
    return UINode(kind, text=draw(_node_texts), content_desc=draw(_node_texts), clickable=draw(st.booleans()), children=children)


@given(_trees(), st.integers(1, 400), st.integers(0, 70), st.randoms(use_true_random=False))
def test_labelled_text_prepared_once_equals_the_plain_compact_text(root: UINode, max_chars: int, max_labels: int, rnd: object) -> None:
    """The per-screen template (labels filled in each step) gives exactly the text compact_tree
    makes, whatever the labels drawn, the cut, and '%' or quotes in the texts."""
    screen = label_screen(root, np.random.default_rng(rnd.randrange(2**32)), max_labels)  # type: ignore[attr-defined]
    want = compact_tree(root, {id(n): lab for lab, n in zip(screen.labels, screen.nodes, strict=True)}, max_chars)
    assert screen.text(max_chars) == want
    again = label_screen(root, np.random.default_rng(rnd.randrange(2**32)), max_labels)  # type: ignore[attr-defined]
    assert again.text(max_chars) == compact_tree(root, {id(n): lab for lab, n in zip(again.labels, again.nodes, strict=True)}, max_chars)


def test_labelled_text_follows_labels_given_in_any_order(wifi_tree: UINode) -> None:
    from cerebellum_gym.core.tree import compact_template

    nodes = [n for n in wifi_tree.iter() if n.is_actionable]
    shuffled = [nodes[2], nodes[0], nodes[3]]
    fmt, order = compact_template(wifi_tree, shuffled)
    assert order == (1, 0, 2)  # document order of the lines, as slots of ``shuffled``
    labels = ("AA", "BB", "CC")
    assert fmt % tuple(labels[i] for i in order) == compact_tree(wifi_tree, {id(n): lab for lab, n in zip(labels, shuffled, strict=True)})


def test_subtree_text_is_cached_on_the_node(wifi_tree: UINode) -> None:
    row = wifi_tree.find(text='AndroidWifi & "Guest"')
    assert row is not None
    assert compact_subtree(row, 20) is compact_subtree(row, 20)
    assert compact_subtree(row, 20) == compact_tree(row, {}, 20) and compact_subtree(row) == compact_tree(row, {}, 300)


def test_labels_are_the_generators_plain_draws() -> None:
    """Labels are ``rng.choice(676, n, replace=False)`` of the pool, and the generator is left
    exactly where that call leaves it (the sample size is passed in a cheaper form)."""
    from cerebellum_gym.core.som import LABEL_POOL

    for n in (1, 2, 7, 30, 64):
        root = UINode(children=[UINode("android.widget.Button", clickable=True) for _ in range(n)])
        for seed in range(20):
            ours, plain = np.random.default_rng(seed), np.random.default_rng(seed)
            ours.integers(3), plain.integers(3)  # a buffered half-word in the bit generator, as mid-episode
            screen = label_screen(root, ours)
            assert screen.labels == tuple(LABEL_POOL[i] for i in plain.choice(len(LABEL_POOL), size=n, replace=False))
            assert ours.integers(2**62) == plain.integers(2**62) and ours.integers(9) == plain.integers(9)


@given(st.text(alphabet=st.sampled_from(list('ab\\"\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029 ')), max_size=30))
def test_every_element_is_one_line_whatever_its_text(text: str) -> None:
    """Any character ``str.splitlines`` breaks at (a U+2028 in a file name, a CR, a form feed) is
    escaped, so a reader splitting the tree into lines (the Qwen prompt's cut) sees one line per
    element, and distinct texts stay distinct lines."""
    root = UINode("android.widget.FrameLayout", (0, 0, 1080, 2400))
    root.children = [
        UINode(f"android.widget.Text{text}View", (0, 0, 500, 100), text=text or "x", clickable=True),
        UINode("android.widget.Button", (0, 100, 500, 200), content_desc=text + "!", clickable=True),
    ]
    screen = label_screen(root, np.random.default_rng(0))
    compact = compact_tree(root, {id(n): lab for lab, n in zip(screen.labels, screen.nodes, strict=True)})
    assert len(compact.splitlines()) == len(compact.split("\n"))
    assert sum(1 for line in compact.splitlines() if "Button" in line) == 1
    other = UINode("android.widget.TextView", (0, 0, 1, 1), text=(text or "x") + "\u2028")
    assert other.line() != root.children[0].line() or text == ""


def test_a_quoted_text_is_the_same_whatever_follows_the_shown_part() -> None:
    """``quote_text`` escapes only what it shows: for texts full of escapes, quotes and line
    breaks, the result equals the whole text escaped and then shortened, and a 30 MB text costs
    what its first characters cost (issue 36)."""
    import random

    from cerebellum_gym.core.tree import one_line, quote_text

    def reference(text: str, limit: int) -> str:
        escaped = one_line(text).replace('"', '\\"')
        return f'"{escaped[: limit - 1] + "…" if len(escaped) > limit else escaped}"'

    rng = random.Random(7)
    alphabet = 'ab"\\\n\r\u2028\x0b…é '
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 30)))
        limit = rng.randrange(1, 25)
        assert quote_text(text, limit) == reference(text, limit), (text, limit)
    huge = "line\n" * 6_000_000
    assert quote_text(huge) == reference(huge[:200], 80)
