"""How Broccoli splits a recipe's text fields into what its page shows: the simulator draws the
page from it and the recipe tasks' judges read it (facts from Broccoli 1.2.6's
``IngredientBuilder`` and ``DirectionBuilder``).

Example:
    >>> split_ingredients("2 carrots\\n- salt"), split_directions("1. Boil.\\nServe.")
    ([('2', ' carrots'), ('', 'salt')], ['Boil.', 'Serve.'])
"""

from __future__ import annotations

import re
from typing import Final

_FRACTIONS: Final = "¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞"
_QUANTITY: Final = re.compile(rf"^\s*([{_FRACTIONS}]|\d+([,/.-])*\d*)(\s*-\s*([{_FRACTIONS}]|\d+([,/.-])*\d*))?(?!$)")


def split_ingredients(text: str) -> list[tuple[str, str]]:
    """(quantity, text) per ingredient line, as IngredientBuilder splits them: a leading dash
    dropped, a leading quantity ("2", "1/2", "2-3", "½") apart, the rest trimmed."""
    out = []
    for raw in text.split("\n"):
        line = re.sub(r"^\s*[-–](?!$)", "", raw, count=1).strip()
        if line:
            match = _QUANTITY.search(line)
            quantity = match.group() if match else ""
            out.append((quantity, line.replace(quantity, "", 1) if quantity else line))
    return out


def split_directions(text: str) -> list[str]:
    """The steps as DirectionBuilder makes them: one per line, a leading "1." dropped, trimmed."""
    out = []
    for raw in text.split("\n"):
        line = re.sub(r"^\s*(\d+\.)(?!$)", "", raw, count=1).strip()
        if line:
            out.append(line)
    return out


__all__ = ["split_directions", "split_ingredients"]
