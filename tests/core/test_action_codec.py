"""The action codec: both forms, round trips, and a precise error for every malformed input."""

from __future__ import annotations

import string

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from cerebellum_gym.core.actions import (
    CODES,
    Action,
    batch_actions,
    coerce_action,
    format_action,
    from_structured,
    parse_action,
)
from cerebellum_gym.errors import InvalidActionError

labels = st.text(alphabet=string.ascii_uppercase, min_size=2, max_size=2)
any_text = st.text(min_size=1)


@st.composite
def valid_actions(draw: st.DrawFn) -> Action:
    code = draw(st.sampled_from(CODES))
    if code in "TP":
        return Action(code, label=draw(labels))
    if code == "K":
        return Action("K", text=draw(any_text))
    if code == "F":
        return Action("F", text=draw(st.one_of(st.none(), any_text.filter(lambda t: not t.isspace()))))
    return Action(code)


@given(valid_actions())
def test_every_valid_action_round_trips_through_its_string(action: Action) -> None:
    assert parse_action(format_action(action)) == action


@given(valid_actions(), st.lists(labels, min_size=1, max_size=8, unique=True))
def test_every_valid_action_round_trips_through_the_structured_form(action: Action, screen_labels: list[str]) -> None:
    if action.label is not None and action.label not in screen_labels:
        screen_labels = [*screen_labels, action.label]
    assert from_structured(action.to_structured(screen_labels), screen_labels) == action


@given(st.text())
def test_any_string_parses_or_raises_the_codec_error_with_a_message(text: str) -> None:
    try:
        action = parse_action(text)
    except InvalidActionError as err:
        assert err.reason
        assert str(err).startswith("invalid action")
    else:
        assert action.code in CODES


@given(st.text(min_size=1))
def test_malformed_strings_raise(text: str) -> None:
    """Strings outside the grammar: unknown first character, or arguments where none belong."""
    assume(text[0] not in CODES)
    with pytest.raises(InvalidActionError):
        parse_action(text)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty action"),
        ("   ", "empty action"),
        ("t UE", "did you mean 'T'"),
        ("X", "unknown code 'X'"),
        ("T", "needs a space and a label"),
        ("T ue", "not two uppercase letters"),
        ("T UEX", "not two uppercase letters"),
        ("TUE", "needs a space and a label"),
        ("K", "needs a space and then the text"),
        ("K ", "needs a space and then the text"),
        ("Khello", "needs a space and then the text"),
        ("B now", "takes no argument"),
        ("Fyes", "optional answer after a space"),
    ],
)
def test_error_messages_say_what_is_wrong(text: str, fragment: str) -> None:
    with pytest.raises(InvalidActionError) as info:
        parse_action(text)
    assert fragment in info.value.reason


def test_type_text_keeps_everything_after_the_first_space_verbatim() -> None:
    assert parse_action("K  two leading\nand a newline ").text == " two leading\nand a newline "
    assert parse_action("K 日本語 ; rm -rf / $(x)").text == "日本語 ; rm -rf / $(x)"


def test_trailing_newline_is_tolerated_for_codes_without_text() -> None:
    assert parse_action("D\n") == Action("D")
    assert parse_action("T UE\n") == Action("T", label="UE")


def test_done_with_and_without_answer() -> None:
    assert parse_action("F") == Action("F")
    assert parse_action("F +1 555 0100").text == "+1 555 0100"


@pytest.mark.parametrize(
    ("structured", "fragment"),
    [
        ({"code": 99}, "outside 0..11"),
        ({"code": 0, "label": 3}, "label slot 3 is empty"),
        ({"label": 0}, "needs an integer 'code'"),
        ({"code": 2, "text": ""}, "needs non-empty text"),
    ],
)
def test_structured_errors(structured: dict[str, object], fragment: str) -> None:
    with pytest.raises(InvalidActionError) as info:
        from_structured(structured, ["AB", "CD"])
    assert fragment in info.value.reason


def test_constructor_validates() -> None:
    with pytest.raises(InvalidActionError, match="takes no label"):
        Action("B", label="UE")
    with pytest.raises(InvalidActionError, match="needs a label"):
        Action("T")
    with pytest.raises(InvalidActionError, match="takes no text"):
        Action("W", text="x")


def test_coerce_accepts_the_three_forms_and_rejects_others() -> None:
    assert coerce_action("W", ()) == Action("W")
    assert coerce_action(Action("H"), ()) == Action("H")
    assert coerce_action({"code": 0, "label": 1}, ("AB", "CD")) == Action("T", label="CD")
    with pytest.raises(InvalidActionError, match="got int"):
        coerce_action(3, ())  # type: ignore[arg-type]


def test_batch_actions_rejects_labels_not_on_that_screen() -> None:
    with pytest.raises(InvalidActionError, match="not on the current screen"):
        batch_actions(["T ZZ"], [("AB",)])
    with pytest.raises(ValueError, match="2 actions for 1 envs"):
        batch_actions(["W", "W"], [()])
