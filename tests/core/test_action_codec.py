"""The action codec: both forms, round trips, and a precise error for every malformed input."""

from __future__ import annotations

import string

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from cerebellum_gym.core.actions import (
    CODES,
    MAX_TEXT_CHARS,
    Action,
    batch_actions,
    check_text,
    coerce_action,
    format_action,
    from_structured,
    parse_action,
)
from cerebellum_gym.errors import InvalidActionError

labels = st.text(alphabet=string.ascii_uppercase, min_size=2, max_size=2)
any_text = st.text(min_size=1, max_size=200)  # the text rule caps K and F text at MAX_TEXT_CHARS


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
        ({"code": 0, "label": 3, "text": ""}, "label slot 3 is empty"),
        ({"label": 0}, "needs an integer 'code'"),
        ({"code": 2, "label": 0, "text": ""}, "needs non-empty text"),
        ({"code": 0}, "lacks 'label' and 'text'"),
        ({"code": 0, "label": 1}, "lacks 'text'"),
        ({"code": 2, "text": "hi"}, "lacks 'label'"),
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
    assert coerce_action({"code": 0, "label": 1, "text": ""}, ("AB", "CD")) == Action("T", label="CD")
    with pytest.raises(InvalidActionError, match="got int"):
        coerce_action(3, ())  # type: ignore[arg-type]


def test_batch_actions_rejects_labels_not_on_that_screen() -> None:
    with pytest.raises(InvalidActionError, match="not on the current screen"):
        batch_actions(["T ZZ"], [("AB",)])
    with pytest.raises(ValueError, match="2 actions for 1 envs"):
        batch_actions(["W", "W"], [()])


# --- strict structured form and the text rule ---------------------------------------------------


anything = st.one_of(
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=5),
    st.binary(max_size=3),
    st.none(),
    st.sampled_from([np.int64(1), np.int32(0), np.bool_(False), np.float64(2.0)]),
)


@given(st.dictionaries(st.sampled_from(["code", "label", "text", "lable", "x"]), anything, max_size=4))
def test_any_structured_mapping_decodes_strictly_or_is_invalid(action: dict[str, object]) -> None:
    labels = ["AB", "CD"]
    try:
        decoded = from_structured(action, labels)
    except InvalidActionError as err:
        assert err.reason
        return
    # Whatever decoded had exactly the keys of the form, integer code and label, and str text.
    assert set(action) <= {"code", "label", "text"}
    for key in ("code", "label"):
        value = action.get(key, 0)
        assert isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)
    assert isinstance(action.get("text", ""), str)
    assert decoded.code == CODES[int(action["code"])]  # type: ignore[call-overload]


@pytest.mark.parametrize(
    ("structured", "fragment"),
    [
        ({"code": True}, "'code' must be an integer, got bool"),
        ({"code": np.bool_(True)}, "'code' must be an integer, got bool"),
        ({"code": 1.0}, "'code' must be an integer, got float 1.0"),
        ({"code": float("inf")}, "got float inf"),
        ({"code": "2"}, "got str '2'"),
        ({"code": 0, "label": "0"}, "'label' must be an integer, got str"),
        ({"code": 2, "text": None}, "'text' must be a str, got NoneType"),
        ({"code": 2, "text": b"hi"}, "'text' must be a str, got bytes"),
        ({"code": 10, "text": 0}, "'text' must be a str, got int 0"),
        ({"code": 9, "mask": 1}, "unknown key(s) 'mask'"),
        ({"code": 2, "label": 0, "text": "x" * (MAX_TEXT_CHARS + 1)}, f"at most {MAX_TEXT_CHARS}"),
        ({"code": 2, "label": 0, "text": "a\ud83d"}, "lone surrogate"),
    ],
)
def test_structured_form_is_strict(structured: dict[str, object], fragment: str) -> None:
    with pytest.raises(InvalidActionError) as info:
        from_structured(structured, ["AB", "CD"])
    assert fragment in info.value.reason


def test_the_text_rule_is_one_rule_for_both_forms() -> None:
    ok = "é" * MAX_TEXT_CHARS
    assert parse_action(f"K {ok}").text == ok and parse_action(f"F {ok}").text == ok
    for text in ("x" * (MAX_TEXT_CHARS + 1), "\udc00", "ok\ud800ok"):
        for form in (f"K {text}", f"F {text}"):
            with pytest.raises(InvalidActionError):
                parse_action(form)
        with pytest.raises(InvalidActionError):
            Action("K", text=text)
        with pytest.raises(InvalidActionError):
            check_text(text)
    # Non-BMP characters are whole characters (surrogate pairs only exist in UTF-16).
    assert parse_action("K 🎉𝄞").text == "🎉𝄞"


def test_invalid_action_errors_pickle_and_survive_a_re_raise() -> None:
    import pickle

    err = InvalidActionError({"code": 1.5}, "'code' must be an integer")
    again = pickle.loads(pickle.dumps(err))
    assert (again.action, again.reason, str(again)) == (err.action, err.reason, str(err))
    # gymnasium's async vector env re-raises a worker's error as type(err)(err).
    rebuilt = type(err)(err)
    assert (rebuilt.action, rebuilt.reason) == (err.action, err.reason)
    huge = InvalidActionError("K " + "x" * 10**6, "too long")
    assert len(str(huge)) < 400


def test_parsed_actions_are_reused_and_bad_ones_still_raise_every_time() -> None:
    from cerebellum_gym.core.actions import _PARSED, parse_action

    first = parse_action("T QZ")
    assert parse_action("T QZ") is first and _PARSED["T QZ"] is first  # immutable: shared safely
    for _ in range(2):
        with pytest.raises(InvalidActionError):
            parse_action("T qz")
    assert "T qz" not in _PARSED
    long_text = "K " + "x" * 500
    assert parse_action(long_text).text == "x" * 500 and long_text not in _PARSED
