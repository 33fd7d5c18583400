"""Names people type or load (ships, sides, games, devices), cleaned one way (issue 25 part 8).

A name loses its control characters and its invisible format characters (bidi overrides and
isolates, zero-width joiners: Unicode categories Cc and Cf, which can make a name read backwards
or hide text), its spaces run together, and it has a length limit, so a 500-character ship name
no longer runs across the whole map.  `skeleton` is the name as it looks, for telling apart
names that only look alike ("This computer" with a Cyrillic о, an Armenian օ, a Cherokee Ꭲ): Unicode
TR39's skeleton over its confusables data (`confusables_data`, issue 36 part 4); `alike_problem`
refuses names of one game that look the same or show nothing.  Pure: no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Callable

from pydantic import AfterValidator, BeforeValidator

from .confusables_data import MAPPING

#: The longest names: a side ("British"), a ship ("HML Hertfordshire"), a game ("Saturday evening").
SIDE_LIMIT = 40
SHIP_LIMIT = 60
GAME_LIMIT = 80

#: What is left of an ANSI escape once its ESC is gone ("[31m", "[1;31m", "[2J").
ANSI_REST = re.compile(r"\[\d+(?:;\d+)*[A-Za-z]")

#: Letters of other scripts that look like Latin ones (Cyrillic, Greek), and digits and marks that
#: look like letters, as they read on a screen: enough to tell a name that only looks alike.
_LOOKALIKE = str.maketrans({
    "А": "a", "В": "b", "Е": "e", "К": "k", "М": "m", "Н": "h", "О": "o", "Р": "p", "С": "c", "Т": "t",
    "Х": "x", "У": "y", "І": "i", "Ј": "j", "Ѕ": "s", "а": "a", "е": "e", "о": "o", "р": "p", "с": "c",
    "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ɡ": "g",
    "Α": "a", "Β": "b", "Ε": "e", "Ζ": "z", "Η": "h", "Ι": "i", "Κ": "k", "Μ": "m", "Ν": "n", "Ο": "o",
    "Ρ": "p", "Τ": "t", "Υ": "y", "Χ": "x", "ο": "o", "ι": "i", "κ": "k", "ν": "v", "ρ": "p", "υ": "u",
    "0": "o", "1": "l", "|": "l", "ı": "i",
})


def cleaned(text: str) -> str:
    """`text` without control or format characters (bidi, zero-width), its spaces run together."""
    kept = "".join(" " if ch.isspace() else ch for ch in text
                   if ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cf"))
    return " ".join(kept.split())


def name_problem(name: str, what: str, limit: int) -> str | None:
    """Why a cleaned name may not be used ("a ship's name is at most 60 characters (500 given)"), or None."""
    if len(name) > limit:
        return f"{what} is at most {limit} characters ({len(name)} given)"
    return None


def skeleton(name: str) -> str:
    """The name as it looks (Unicode TR39's skeleton of its case-folded form, `confusables_data`):
    blanks, marks and everything but letters and digits dropped ("Тhis cоmputer" and "this
    computer" are one).  `looks_alike` compares two names by every form they may take."""
    return _tr39(_bare(name).casefold()).casefold()


#: Letters that show as nothing (Hangul fillers, the Braille blank, Mongolian and Khmer vowel
#: marks of no width): dropped with the spaces and marks when a name is compared or checked.
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e\u034f")


def _bare(name: str) -> str:
    """The name decomposed (NFKD) without blanks (spaces, control, format and filler characters)
    and without combining marks: what is left to see of it."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", name)
                   if ch not in BLANKS and not ch.isspace()
                   and unicodedata.category(ch)[0] not in "MC")


_PROTOTYPES: dict[str, str] = {}


def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype (UTS #39 confusables.txt), read once."""
    if not _PROTOTYPES:
        for entry in MAPPING.split(","):
            source, _, target = entry.partition(":")
            _PROTOTYPES[chr(int(source, 16))] = "".join(chr(int(code, 16)) for code in target.split())
    return _PROTOTYPES


def _tr39(text: str) -> str:
    """TR39's skeleton of `text` (each character by its prototype, decomposed before and after),
    kept to its letters and digits, with the lookalikes the table reads as Latin letters."""
    table = _prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    mapped = unicodedata.normalize("NFD", mapped).translate(_LOOKALIKE)
    return "".join(ch for ch in mapped if ch.isalnum() and unicodedata.category(ch)[0] != "M")


def name_forms(name: str) -> frozenset[str]:
    """The forms a name may take to the eye: its skeleton case-folded before and after TR39's
    mapping ("BRITISH" and "British" share one, and so do "Вritish" and "British")."""
    bare = _bare(name)
    return frozenset({_tr39(bare.casefold()), _tr39(_tr39(bare).casefold())}) - {""}


def looks_alike(one: str, other: str) -> bool:
    """Do two names look the same (any case, any lookalike letters, blanks and marks ignored)?"""
    return bool(name_forms(one) & name_forms(other))


def blank_problem(name: str, what: str) -> str | None:
    """Why a name shows nothing ("a side's name shows nothing: ..."), or None."""
    if _bare(name):
        return None
    return (f"{what} shows nothing (only blanks or accents): give it letters or digits")


def alike_problem(names: list[str], what: str) -> str | None:
    """Why names of one game cannot be told apart, naming the first two ("the sides British and
    BRITISH look the same"), or a blank one; None when every name is seen and distinct."""
    seen: dict[str, str] = {}
    for name in names:
        blank = blank_problem(name, f"{what} '{name}'")
        if blank:
            return blank
        for form in name_forms(name):
            other = seen.get(form)
            if other is not None and other != name:
                return f"{what}s '{other}' and '{name}' look the same: give them names that differ to the eye"
        for form in name_forms(name):
            seen.setdefault(form, name)
    return None


def _cleaning(value: object) -> object:
    return cleaned(value) if isinstance(value, str) else value


def _limited(what: str, limit: int) -> Callable[[str], str]:
    def check(name: str) -> str:
        problem = name_problem(name, what, limit)
        if problem:
            raise ValueError(problem)
        return name
    return check


#: A side's, a ship's and a game's name as a loaded file gives it: cleaned, then limited.
SideName = Annotated[str, BeforeValidator(_cleaning), AfterValidator(_limited("a side's name", SIDE_LIMIT))]
ShipName = Annotated[str, BeforeValidator(_cleaning), AfterValidator(_limited("a ship's name", SHIP_LIMIT))]
GameName = Annotated[str, BeforeValidator(_cleaning), AfterValidator(_limited("a game's name", GAME_LIMIT))]


def game_name(text: str | None) -> tuple[str, str | None]:
    """A game's name as typed (New game, `companion new --name`): cleaned, and why not (too long)."""
    name = cleaned(text or "")
    return name, name_problem(name, "A game's name", GAME_LIMIT)
