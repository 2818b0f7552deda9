"""Shell arithmetic, ``$((...))``, as Android's mksh evaluates it: 32-bit signed integers that
wrap, C operators and precedence, variables read as numbers (unset or empty is 0).

A small precedence-climbing parser; it never calls ``eval`` and its work is linear in the
expression's length (nesting is bounded, so it cannot exhaust the stack).

Example:
    >>> evaluate("1 + 2 * (3 - 1)", {}.get)
    5
    >>> evaluate("x << 2 | 1", {"x": "3"}.get)
    13
    >>> evaluate("2147483647 + 1", {}.get)
    -2147483648
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final


class ArithError(Exception):
    """The expression does not evaluate (mksh prints these and the command fails)."""


_TOKEN_RE: Final = re.compile(
    r"\s*(?:(?P<num>0[xX][0-9A-Fa-f]+|\d+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<op><<|>>|<=|>=|==|!=|&&|\|\||[-+*/%()<>&|^!~?:]))"
)
#: Binary operators by precedence (C's, lowest first).
_BINARY: Final[list[tuple[str, ...]]] = [
    ("||",),
    ("&&",),
    ("|",),
    ("^",),
    ("&",),
    ("==", "!="),
    ("<", "<=", ">", ">="),
    ("<<", ">>"),
    ("+", "-"),
    ("*", "/", "%"),
]
_MAX_DEPTH: Final = 32
_MAX_LENGTH: Final = 4096


def _wrap(value: int) -> int:
    """``value`` as a 32-bit signed integer (mksh's arithmetic type)."""
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


def _number(text: str) -> int:
    text = text.strip()
    if not text:
        return 0
    try:
        if text.lower().startswith(("0x", "-0x")):
            return _wrap(int(text, 16))
        return _wrap(int(text, 10))
    except ValueError:
        raise ArithError(f"{text}: bad number") from None


def evaluate(expression: str, variable: Callable[[str], str | None]) -> int:
    """The value of ``expression``; ``variable(name)`` gives a variable's text (None if unset).

    Raises:
        ArithError: a syntax error, a bad number, or a division by zero.
    """
    if len(expression) > _MAX_LENGTH:
        raise ArithError("expression too long")
    tokens: list[str] = []
    pos = 0
    stripped = expression.rstrip()
    while pos < len(stripped):
        match = _TOKEN_RE.match(stripped, pos)
        if match is None or match.end() == pos:
            raise ArithError(f"{expression.strip()}: unexpected '{stripped[pos:].lstrip()[:1]}'")
        tokens.append(match.group(match.lastgroup or "op"))
        if match.lastgroup == "name":
            tokens[-1] = "$" + tokens[-1]  # mark names apart from operators
        pos = match.end()
    parser = _Parser(tokens, variable, expression.strip())
    value = parser.ternary(0)
    if parser.i != len(tokens):
        raise ArithError(f"{expression.strip()}: unexpected '{tokens[parser.i].lstrip('$')}'")
    return value


class _Parser:
    def __init__(self, tokens: list[str], variable: Callable[[str], str | None], text: str) -> None:
        self.tokens = tokens
        self.i = 0
        self.variable = variable
        self.text = text

    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise ArithError(f"{self.text}: unexpected end of expression")
        self.i += 1
        return token

    def ternary(self, depth: int) -> int:
        if depth > _MAX_DEPTH:
            raise ArithError("expression nested too deeply")
        condition = self.binary(0, depth)
        if self.peek() != "?":
            return condition
        self.take()
        yes = self.ternary(depth + 1)
        if self.take() != ":":
            raise ArithError(f"{self.text}: missing ':'")
        no = self.ternary(depth + 1)
        return yes if condition else no

    def binary(self, level: int, depth: int) -> int:
        if level == len(_BINARY):
            return self.unary(depth)
        left = self.binary(level + 1, depth)
        while self.peek() in _BINARY[level]:
            op = self.take()
            right = self.binary(level + 1, depth)
            left = _apply(op, left, right)
        return left

    def unary(self, depth: int) -> int:
        if depth > _MAX_DEPTH:
            raise ArithError("expression nested too deeply")
        token = self.take()
        if token in ("-", "+", "!", "~"):
            value = self.unary(depth + 1)
            return {"-": _wrap(-value), "+": value, "!": int(value == 0), "~": _wrap(~value)}[token]
        if token == "(":
            value = self.ternary(depth + 1)
            if self.take() != ")":
                raise ArithError(f"{self.text}: missing ')'")
            return value
        if token.startswith("$"):
            return _number(self.variable(token[1:]) or "")
        if token[0].isdigit():
            return _number(token)
        raise ArithError(f"{self.text}: unexpected '{token}'")


def _apply(op: str, a: int, b: int) -> int:
    if op in ("/", "%"):
        if b == 0:
            raise ArithError("division by zero")
        quotient = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)  # C truncates toward zero
        return _wrap(quotient) if op == "/" else _wrap(a - quotient * b)
    if op in ("<<", ">>"):
        b &= 31
        return _wrap(a << b) if op == "<<" else a >> b
    results = {
        "+": lambda: a + b,
        "-": lambda: a - b,
        "*": lambda: a * b,
        "<": lambda: int(a < b),
        "<=": lambda: int(a <= b),
        ">": lambda: int(a > b),
        ">=": lambda: int(a >= b),
        "==": lambda: int(a == b),
        "!=": lambda: int(a != b),
        "&": lambda: a & b,
        "^": lambda: a ^ b,
        "|": lambda: a | b,
        "&&": lambda: int(bool(a) and bool(b)),
        "||": lambda: int(bool(a) or bool(b)),
    }
    return _wrap(results[op]())
