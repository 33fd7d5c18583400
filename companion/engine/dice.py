"""Leviathans dice: the five coloured d12s, the d6 slot die, pools and exact odds.

Seed 001, "Dice" (p. 7): the d12s are colour-coded and each colour carries its
own numbers; pools are written `DBlue`, `2DRed`, `DRed & DBlue`.  The face
tables are in rules-notes section 1.  Distributions are exact fractions.
House rule H1 (seed 002:2 "Each unit rolls 1d10", house-rules.md 3) adds a
plain d10, faces 1 to 10; a table d10 showing 0 means 10 (R-H0.2).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate

MAX_POOL_DICE = 20


class Colour(str, Enum):
    """A kind of die. The five d12 colours, and the plain d6 slot die."""

    GREEN = "Green"
    BLUE = "Blue"
    YELLOW = "Yellow"
    RED = "Red"
    BLACK = "Black"
    D6 = "D6"
    D10 = "D10"

    @property
    def label(self) -> str:
        """The rulebook's name for one such die: `DBlue`, `D6`, `D10`."""
        return self.value if self in PLAIN_DICE else "D" + self.value


FACES: dict[Colour, tuple[int, ...]] = {
    Colour.GREEN: (1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4),
    Colour.BLUE: (1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6),
    Colour.YELLOW: (1, 2, 2, 3, 4, 4, 5, 5, 6, 7, 7, 8),
    Colour.RED: (1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10),
    Colour.BLACK: tuple(range(1, 13)),
    Colour.D6: tuple(range(1, 7)),
    Colour.D10: tuple(range(1, 11)),
}

#: The plain numbered dice, written by their number of sides (`D6`, `D10`), not by a colour.
PLAIN_DICE = (Colour.D6, Colour.D10)

#: War Fleet dial-up order (rules-notes 1).
DIAL_UP_ORDER = (Colour.GREEN, Colour.BLUE, Colour.YELLOW, Colour.RED, Colour.BLACK)

_BY_NAME = {c.value.lower(): c for c in Colour if c not in PLAIN_DICE} | {c.value[1:]: c for c in PLAIN_DICE}


class PoolError(ValueError):
    """A dice pool that cannot be read, with the part that is wrong."""


def table_face(colour: Colour, face: int) -> int:
    """A face as the players typed it: a d10 showing 0 is the 10 (house-rules.md 3, R-H0.2)."""
    return 10 if Colour(colour) is Colour.D10 and face == 0 else face


def top(colour: Colour) -> int:
    """The highest face of a die."""
    return max(FACES[colour])


def mean(colour: Colour) -> Fraction:
    """The exact mean face of a die."""
    faces = FACES[colour]
    return Fraction(sum(faces), len(faces))


#: Each kind of die's place in `Colour`, for `Pool.sorted_key`.
_ORDER = {colour: n for n, colour in enumerate(Colour)}


class Pool(tuple[Colour, ...]):
    """An ordered collection of dice, e.g. `DBlue & DGreen & DBlack`.

    Equal pools compare equal only when written in the same order; use
    `sorted_key` for order-free caching.
    """

    def __new__(cls, dice: Iterable[Colour | str] = ()) -> Pool:
        return super().__new__(cls, tuple(d if type(d) is Colour else Colour(d) for d in dice))

    # tuple's `+` promises any tuple; a Pool plus dice is a Pool (mypy cannot say "narrower").
    def __add__(self, other: tuple[Colour, ...]) -> Pool:  # type: ignore[override]
        if type(other) is Pool:  # its dice are Colours already: nothing to check (issue 30)
            return tuple.__new__(Pool, tuple.__add__(self, other))
        return Pool(tuple(self) + tuple(other))

    @property
    def sorted_key(self) -> tuple[Colour, ...]:
        return tuple(sorted(self, key=_ORDER.__getitem__))

    @property
    def notation(self) -> str:
        """Compact rulebook notation: `2DRed & DBlue` (order of first appearance)."""
        counts = Counter(self)  # in the order each die first appears
        return " & ".join((f"{n}{d.label}" if n > 1 else d.label) for d, n in counts.items()) or "none"

    @property
    def expanded(self) -> str:
        """Every die by itself: `DRed & DRed & DBlue`."""
        return " & ".join(d.label for d in self) or "none"

    def __repr__(self) -> str:
        return f"Pool({self.notation!r})"


_TERM = re.compile(r"^(\d*)\s*d\s*(\w+)$", re.IGNORECASE)
_SEPARATOR = re.compile(r"[&+]")


def parse_pool(text: str) -> Pool:
    """Read rulebook pool notation, case-insensitively.

    `DBlue`, `2DRed`, `DRed & DBlue`, `dyellow & dgreen`, `D6`, `3D6`.
    Terms may be joined by `&` or `+`.  Raises `PoolError` naming the bad
    term and where it starts.  The count of every term is checked against
    the 20-dice limit before any die is made (issue 11: `999999999DRed`).
    """
    if not isinstance(text, str) or not text.strip():
        raise PoolError("empty dice pool: write dice like 'DBlue' or '2DRed & DBlue'")
    return _parsed(text)


@lru_cache(maxsize=1024)
def _parsed(text: str) -> Pool:
    """`parse_pool` of a non-empty text, cached (a card's pools are read again for every shot)."""
    dice: list[Colour] = []
    for start, raw in _terms(text):
        term = raw.strip()
        where = _where(term, start + len(raw) - len(raw.lstrip()), text)
        match = _TERM.match(term)
        if not match:
            raise PoolError(f"{where} is not a die: write e.g. 'DBlue' or '2DRed'")
        digits, name = match.group(1), match.group(2).lower()
        if name not in _BY_NAME:
            raise PoolError(f"unknown die colour '{_shown(match.group(2))}' in {where}: "
                            "use Green, Blue, Yellow, Red, Black, D6 or D10")
        colour = _BY_NAME[name]
        count = int(digits) if digits and len(digits) <= 3 else (1 if not digits else MAX_POOL_DICE + 1)
        if count < 1:
            raise PoolError(f"{where} asks for no dice")
        if len(dice) + count > MAX_POOL_DICE:
            raise PoolError(f"{where} makes more than {MAX_POOL_DICE} dice: a pool holds at most {MAX_POOL_DICE}")
        dice.extend([colour] * count)
    return Pool(dice)


def _where(term: str, start: int, text: str) -> str:
    """`'2DRad'`, or `'2DRad' (character 8 of 'DBlue & 2DRad')` when the pool has other terms."""
    if term == text.strip():
        return f"'{_shown(term)}'"
    return f"'{_shown(term)}' (character {start + 1} of '{_shown(text)}')"


def _terms(text: str) -> Iterator[tuple[int, str]]:
    """(index of the first character, text) of each term between `&` and `+` separators."""
    start = 0
    for separator in _SEPARATOR.finditer(text):
        yield start, text[start:separator.start()]
        start = separator.end()
    yield start, text[start:]


def _shown(text: str, most: int = 40) -> str:
    """Text for a message: on one line (control characters shown as escapes), cut to `most` characters."""
    flat = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return flat if len(flat) <= most else flat[:most - 3] + "..."


@dataclass(frozen=True, slots=True)
class PoolCounts:
    """A pool's exact distribution in integers: `ways[i]` rolls of the `outcomes` equally likely
    ones total `lowest + i`, and `at_least[i]` of them total `lowest + i` or more.

    Immutable and cached per pool (`counts`): Fractions are made only where a figure leaves the
    engine (`distribution`, `chance_at_least`)."""

    lowest: int
    ways: tuple[int, ...]
    outcomes: int
    at_least: tuple[int, ...]

    def ways_at_least(self, target: int) -> int:
        """How many of the `outcomes` rolls total `target` or more."""
        index = target - self.lowest
        if index <= 0:
            return self.outcomes
        return self.at_least[index] if index < len(self.at_least) else 0


#: Per die: (lowest face, ways to roll each face from the lowest up, number of faces).
_FACE_WAYS: dict[Colour, tuple[int, tuple[int, ...], int]] = {
    colour: (min(faces), tuple(faces.count(v) for v in range(min(faces), max(faces) + 1)), len(faces))
    for colour, faces in FACES.items()
}


#: The widest digit `counts` needs, in bytes: 20 dice of 12 faces make 12**20 rolls (72 bits).
_WIDEST = 12


def _packed(ways: tuple[int, ...], width: int) -> int:
    return int.from_bytes(b"".join(w.to_bytes(width, "little") for w in ways), "little")


#: Per die and digit width in bytes: its face counts packed as the digits of one integer.
_PACKED: dict[Colour, tuple[int, ...]] = {
    colour: tuple(_packed(ways, width) for width in range(1, _WIDEST + 1)) for colour, (_, ways, _) in _FACE_WAYS.items()
}


@lru_cache(maxsize=4096)
def counts(dice: tuple[Colour, ...]) -> PoolCounts:
    """The integer distribution of a pool's total (a Pool, or its dice in any order), cached.

    The convolution of the dice's face counts is one product of integers: each die's counts
    packed as the digits of a number in base 2**(8 * width), wide enough that no sum of
    products carries into the next digit (no count exceeds `outcomes`); a product of such
    numbers has the convolution as its digits.
    """
    how_many = Counter(dice)
    outcomes, lowest, length = 1, 0, 1
    for colour, n in how_many.items():
        low, ways, sides = _FACE_WAYS[colour]
        outcomes *= sides ** n
        lowest += low * n
        length += (len(ways) - 1) * n
    width = outcomes.bit_length() // 8 + 1
    product = 1
    for colour, n in how_many.items():
        packed = _PACKED[colour][width - 1] if width <= _WIDEST else _packed(_FACE_WAYS[colour][1], width)
        product *= packed if n == 1 else packed ** n
    digits = product.to_bytes(width * length, "little")
    ways_of = tuple([int.from_bytes(digits[i:i + width], "little") for i in range(0, width * length, width)])
    at_least = tuple(accumulate(reversed(ways_of)))[::-1]
    return PoolCounts(lowest, ways_of, outcomes, at_least)


def distribution(pool: Pool) -> dict[int, Fraction]:
    """Exact probability of each total of a pool, totals ascending (a total no roll makes left out)."""
    found = counts(tuple(pool))
    return {found.lowest + i: Fraction(n, found.outcomes) for i, n in enumerate(found.ways) if n}


def chance_at_least(pool: Iterable[Colour], target: int) -> Fraction:
    """Exact chance that the pool's total (a Pool, or its dice) is at least `target`."""
    found = counts(tuple(pool))
    return Fraction(found.ways_at_least(target), found.outcomes)
