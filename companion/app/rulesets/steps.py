"""The plain rows a ruleset's view model hands its body (no flet): the banner with its steps, a
choice the selected ship may take now (with why not, when it may not), and the log's lines."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from ..player_words import spoken


@dataclass(frozen=True)
class Step:
    """A button of the banner (or of the table's by-hand controls) and the action it sends."""

    ident: str
    label: str
    action: Any
    confirm: str = ""  # asked before acting, when the step ends what the players may not mean to
    options: tuple["Step", ...] = ()  # what the rules allow instead, offered beside the confirmation
    allowed: bool = True  # False: the rules refuse the step now (the confirmation says why)


@dataclass(frozen=True)
class Banner:
    title: str
    detail: str
    steps: tuple[Step, ...]
    phase: str = ""  # the phase the banner's chips mark (Decisive Victory's turn steps)


@dataclass(frozen=True)
class Choice:
    ident: str
    label: str
    action: Any
    problem: str | None = None


def log_lines(history: Iterable[Any]) -> tuple[str, ...]:
    """The log as the players read it: each event's words, oldest first, warnings left out."""
    return tuple(spoken(e.text) for e in history if e.kind != "warning") or ("Nothing yet.",)


def numbered_log_lines(history: Iterable[Any], numbers: Iterable[int]) -> tuple[str, ...]:
    """`log_lines`, each action's first line led by its number ("44 · Japanese concedes."): the
    numbers of `Game.action_numbers`, so the last is the "log N" of the bar (issue 35)."""
    lines, last = [], None
    for number, event in zip(numbers, history):
        if event.kind == "warning":
            continue
        lines.append(f"{number} · {spoken(event.text)}" if number != last else spoken(event.text))
        last = number
    return tuple(lines) or ("Nothing yet.",)
