"""Counts in words, as a player says them: "1 turn", "2 turns" (issue 35: "2 turn(s)"). Pure."""

from __future__ import annotations


def counted(n: int, word: str, plural: str | None = None) -> str:
    """`n` and `word`, the plural when n is not 1 ("1 damage point", "0 damage points")."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def result_words(result: str) -> str:
    """A result's code as words ("driven_off" -> "driven off")."""
    return result.replace("_", " ")
