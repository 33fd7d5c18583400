"""Measured inches and degrees as exact rationals (spec decisive-victory.md §1.2, [R-1]).

The players measure at the table and type what they read: `17.5`, `35/2` or
`17`.  The text is kept exact (`fractions.Fraction`), never a float: a file's
JSON number `17.5` is read as the decimal it wrote.  Written back, a whole
number stays a number, a decimal stays a decimal text (`"17.5"`), anything
else is a fraction text (`"1/3"`), so load -> dump -> load keeps the value.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Annotated, Any, Final

from pydantic import PlainSerializer, PlainValidator, WithJsonSchema

from ..cards import _shown

#: The longest measurement text read, and the largest value: far beyond any table.
MAX_TEXT: Final = 32
MAX_INCHES: Final = 10_000


def parse_inches(value: object, limit: int = MAX_INCHES, what: str = "inches") -> Fraction:
    """`value` (a whole number, a decimal, or text like `17.5` or `35/2`) as an exact Fraction,
    from 0 up to `limit`; ValueError in plain words otherwise."""
    number = _exact(value, what)
    if number < 0:
        raise ValueError(f"{_shown(value)} is below 0: {what} are measured from 0")
    if number > limit:
        raise ValueError(f"{_shown(value)} is more than {limit} {what}")
    return number


def _exact(value: object, what: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Fraction)):
        raise ValueError(f"{_shown(value)} is not a number of {what}: write it like 17, 17.5 or 35/2")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value} is not a number of {what}")
        return Fraction(repr(value))  # the decimal the file wrote, not the float's binary value
    if isinstance(value, int):
        return Fraction(value)
    text = value.strip()
    if len(text) > MAX_TEXT or "e" in text.lower() or "_" in text:
        raise ValueError(f"{_shown(value)} is not a number of {what}: write it like 17, 17.5 or 35/2")
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{_shown(value)} is not a number of {what}: write it like 17, 17.5 or 35/2") from None


def inches_text(value: Fraction) -> int | str:
    """How a file writes a measurement: 10, "17.5" or "1/3" (read back exactly by `parse_inches`)."""
    if value.denominator == 1:
        return value.numerator
    rest = value.denominator
    for prime in (2, 5):
        while rest % prime == 0:
            rest //= prime
    if rest != 1:
        return str(value)
    places = 0
    while (value * 10**places).denominator != 1:
        places += 1
    scaled = abs(value.numerator * 10**places // value.denominator)
    whole, part = divmod(scaled, 10**places)
    return f"{'-' if value < 0 else ''}{whole}.{part:0{places}d}"


def _degrees(value: object) -> Fraction:
    number = _exact(value, "degrees")
    if not 0 <= number < 360:
        raise ValueError(f"{_shown(value)} is not a heading: use 0 up to (not including) 360 degrees")
    return number


_NUMBER_OR_TEXT: dict[str, Any] = {"anyOf": [{"type": "number", "minimum": 0},
                                             {"type": "string", "pattern": r"^\s*\d+(\.\d+)?(/\d+)?\s*$"}]}

#: Inches measured at the table (a distance, a coordinate, a speed): exact, 0 or more.
Inches = Annotated[Fraction, PlainValidator(parse_inches), PlainSerializer(inches_text),
                   WithJsonSchema(_NUMBER_OR_TEXT)]
#: A heading in degrees clockwise from table north (the far edge), 0 up to 360 (§1.2).
Degrees = Annotated[Fraction, PlainValidator(_degrees), PlainSerializer(inches_text),
                    WithJsonSchema(_NUMBER_OR_TEXT)]
