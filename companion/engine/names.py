"""Names people type or load (ships, sides, games, devices), cleaned one way (issue 25 part 8).

A name loses its control characters and its invisible format characters (bidi overrides and
isolates, zero-width joiners: Unicode categories Cc and Cf, which can make a name read backwards
or hide text), its spaces run together, and it has a length limit, so a 500-character ship name
no longer runs across the whole map.  `skeleton` is the name as it looks, for telling apart
names that only look alike ("This computer" with a Cyrillic о).  Pure: no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Callable

from pydantic import AfterValidator, BeforeValidator

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
    """The name as it looks: compatibility forms folded, lookalike letters read as Latin, case and
    everything but letters and digits dropped ("Тhis cоmputer" and "this computer" are one)."""
    folded = unicodedata.normalize("NFKD", cleaned(name)).translate(_LOOKALIKE).casefold()
    return "".join(ch for ch in folded.translate(_LOOKALIKE) if ch.isalnum())


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
