"""No developer's words on a player's screen (issue 35): what they look like, and the rule readings
and card notes told in a player's words.  No flet here.

Developer's words: file paths and module names (`engine/war_fleet/ruleset.py`, `rules-notes.md`),
seed numbers and line references of the rule texts ("seed 003", "003:178"), issue numbers, the
repository and its commits, commands with their switches (`companion report ... --out`), action
and result codes ("move_along", "driven_off") and the code's shorthand for plurals ("turn(s)").
"""

from __future__ import annotations

import re

#: What a player should never read, each with what it is (the tests scan the screens' texts with it).
DEVELOPER_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a file path", re.compile(r"\b[\w-]+(?:/[\w.-]+)*\.(?:py|md)\b|\b(?:shared|tests|engine|companion)/[\w/.-]+")),
    ("a seed number", re.compile(r"\bseeds? 00\d", re.I)),
    ("a rule-text line", re.compile(r"\b00\d:\d+")),
    ("an issue number", re.compile(r"\bissue \d+", re.I)),
    ("the repository", re.compile(r"github\.com|\bcommit [0-9a-f]{7,}", re.I)),
    ("a command's switch", re.compile(r"\s--[a-z][\w-]*")),
    ("a code", re.compile(r"\b(?:move_along|driven_off|end_movement|[a-z]+_[a-z]+_[a-z_]+)\b")),
    ("the code's words", re.compile(r"integer geometry|floating-point|\bmove along\b", re.I)),
    ("a plural in brackets", re.compile(r"\w\(s\)")),
)


def developer_words(text: str) -> list[str]:
    """What in `text` is a developer's, as "what: the words" (empty: a player's text)."""
    return [f"{what}: {m.group(0).strip()}" for what, pattern in DEVELOPER_WORDS for m in pattern.finditer(text)]


_LINE = r"\b00\d:\d+(?:-\d+)?"


def spoken(text: str) -> str:
    """A refusal or a log line as a player hears it: the rule texts' line references and seed
    numbers the engine cites for its authors left out ("searchlights reach 6" (003:85)" -> without
    the brackets; "(a single enemy ship, 003:85)" -> "(a single enemy ship)")."""
    if "00" not in text:
        return text
    text = re.sub(rf"\s*\((?:\s*(?:{_LINE}|seeds? 00\d(?: and 00\d)?)\s*[,;]?)+\)", "", text)
    text = re.sub(rf"(?:[,;]\s*)?{_LINE}(?:\s*[,;])?\s*(?=[^()]*\))", "", text)  # inside other words' brackets
    text = re.sub(r"\s*\(seeds? 00\d[^)]*\)", "", text)
    return re.sub(r"\(\s*\)", "", text)


def _spec_name(match: re.Match[str]) -> str:
    """`shared/spec/house-rules.md` or house-rules.md -> "the house rules notes"."""
    stem = match.group(1).rsplit("/", 1)[-1]
    return f"the {stem.replace('-', ' ')} notes"


def reading_words(text: str) -> str:
    """A rule reading (docs/rule-readings.md, one paragraph) in a player's words: the file paths, code
    names, seed and issue numbers and rule-text line references the page keeps for its authors left out."""
    text = re.sub(r"\s*\((?:\s*`[^`]*`[,;\s]*|\s*issue \d+[.,;\s]*)+\)", "", text)  # (`a.py`, `b.py`), (issue 12)
    text = re.sub(r"\s*\(issue \d+[^)]*\)", "", text)
    text = re.sub(r"`(?:tests|engine)/[^`]*`", "a test" if "tests/" in text else "the rules' code", text)
    text = re.sub(r"`?((?:shared/spec/)?[\w-]+)\.md`?", _spec_name, text)
    text = re.sub(r",?\s*`?\b00\d:\d+(?:-\d+)?`?", "", text)  # 003:150
    text = re.sub(r"\s*\(seeds? 00\d[^)]*\)", "", text)  # (seed 001), (seeds 004 and 000)
    text = re.sub(r"\bseeds? 00\d(?: and 00\d)?,\s*", "", text)  # "(seed 001, the Quick-Start manual)"
    text = re.sub(r"\bSeeds? 00\d\b", "The rule text", text)
    text = re.sub(r"\bseeds? 00\d\b", "the rule text", text)
    text = text.replace(" (integer geometry), never with floating-point angles", " by counting, never by measuring angles")
    text = re.sub(r"\(\s*[,;.]?\s*\)", "", text)
    text = re.sub(r"\(\s*[,;]\s*", "(", text)
    return re.sub(r"((?:^|[.!?]\s+)\W*)(the (?:[\w ]+ notes|rule text|rules' code))",
                  lambda m: m.group(1) + m.group(2)[0].upper() + m.group(2)[1:], text)


def notes_words(notes: str) -> str:
    """A shipped card's notes as the editor shows a player's copy of them: where the values come from,
    without the repository's address and commit or the rule texts' seed numbers."""
    notes = re.sub(r",?\s*github\.com/[\w./-]+(?:\s*\(commit [0-9a-f]+\))?", "", notes)
    notes = re.sub(r"\s*\(seeds? 00\d[^)]*\)", "", notes)
    return re.sub(r"\s+([.,;])", r"\1", notes)
