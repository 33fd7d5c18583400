"""What the Replay view shows of a stored game (issue 17, "Beyond paper": replay), without flet.

`replay_of(store, game_id)` replays a game's log through its own ruleset once, keeping the
position after every log entry (undos and redos included: each is a step, as the table saw
it), and is cached while the log does not grow.  Each `Step` carries the turn and phase it
leaves the game in, the words of what happened, the dice rolled (`Roll`, from the entry's
events) and what changed on the ships; `turns` marks the first step of each turn for "jump
to turn".  `fork(store, game_id, entry)` starts a new stored game whose start is the position
after `entry` log entries ("What if from turn 3 of <game>"), with an empty log and fresh dice.

A position is shown as the shared screen would show it (`ruleset.view_for(state, None)`), so
a replay reveals nothing a TV by the table did not.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Iterable

from ..engine.kernel import Event, Refused
from ..engine.roller import Roller
from ..engine.ruleset import Ruleset
from ..engine.registry import find_ruleset
from ..store.game import LogEntry, UndoFold
from .screenmodel import dice_in
from .viewmodels import log_lines

CACHED = 4  # replays kept: a TV and a phone or two looking at the same few games


@dataclass(frozen=True)
class Roll:
    """One roll of a step: its words and every die (colour, face), in the order rolled."""

    text: str
    dice: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Step:
    """The game after `number` log entries (0: its start) and what entry `number` did."""

    number: int
    kind: str  # "start", "action", "undo" or "redo"
    turn: int
    phase: str
    title: str  # the entry in words: its first event (a roll's: the words before its dice), or the action's kind
    lines: tuple[str, ...]  # every event's words
    rolls: tuple[Roll, ...]
    changes: tuple[str, ...]  # what changed on the ships, in words


@dataclass(frozen=True)
class TurnMark:
    turn: int
    step: int  # the first step of the turn: the position at its start


class Replay:
    """A stored game's positions after each log entry, with its steps and turn marks."""

    def __init__(self, game_id: str, name: str, ruleset: Ruleset, initial: Any, entries: list[LogEntry]):
        self.game_id, self.name, self.ruleset, self.initial = game_id, name, ruleset, initial
        self.entries = list(entries)
        self.positions: list[Any] = list(positions(ruleset, initial, self.entries))
        self.steps: tuple[Step, ...] = tuple(self._step(n) for n in range(len(self.positions)))
        self.turns: tuple[TurnMark, ...] = turn_marks(self.steps)
        self._in_effect = UndoFold(self.entries).lengths  # actions in effect after each step

    def log_number(self, number: int) -> int:
        """The "log N" the table showed at step `number`: the actions in effect (undo steps it back),
        which a step of the replay (every log entry, undos and redos too) is not (issue 35)."""
        return self._in_effect[self._check(number)]

    def position_words(self, number: int) -> str:
        """"step 12 of 50 · log 10": the replay's step, and the log number the table showed then."""
        return f"step {number} of {self.last} · log {self.log_number(number)}"

    @property
    def last(self) -> int:
        return len(self.positions) - 1

    def state(self, number: int) -> Any:
        """The whole position after `number` log entries (the store's, with the dice seed)."""
        return self.positions[self._check(number)]

    def shown(self, number: int) -> Any:
        """The position as the shared screen shows it (nothing hidden revealed)."""
        return self.ruleset.view_for(self.state(number), None)

    def turn_start(self, turn: int) -> int:
        """The step at the start of `turn`; ValueError naming the turns the game had."""
        for mark in self.turns:
            if mark.turn == turn:
                return mark.step
        raise ValueError(f"the game has no turn {turn}: its turns are {', '.join(str(m.turn) for m in self.turns)}")

    def next_turn(self, number: int) -> int:
        """The start of the turn after the one at step `number` (the last step when there is none)."""
        return next((m.step for m in self.turns if m.step > number), self.last)

    def previous_turn(self, number: int) -> int:
        """The start of the turn at step `number`, or of the turn before when it is already there."""
        return max((m.step for m in self.turns if m.step < number), default=0)

    def _check(self, number: int) -> int:
        if not 0 <= number <= self.last:
            raise ValueError(f"the game has {self.last} log entries: choose a step between 0 and {self.last}")
        return number

    def _step(self, number: int) -> Step:
        state = self.positions[number]
        if number == 0:
            return Step(0, "start", state.turn, state.phase, "The start of the game", (), (), ())
        entry = self.entries[number - 1]
        events = [Event.model_validate(e) for e in entry.events]
        rolls = rolls_of(events)
        title = events[0].text if events else (entry.action or {}).get("kind", entry.kind).replace("_", " ")
        if rolls and rolls[0].text == title:  # a roll's words show under its dice: its head alone here
            title = title.partition(": ")[0]
        return Step(number, entry.kind, state.turn, state.phase, title, tuple(e.text for e in events),
                    rolls, changes(self.positions[number - 1], state, self.ruleset))


def positions(ruleset: Ruleset, initial: Any, entries: Iterable[LogEntry]) -> Iterable[Any]:
    """The position at the start and after each log entry: each action applied once through the
    ruleset, an undo going back to the position before the action it takes back, a redo applying
    that action again (the store's own undo rule, `UndoFold`).  ValueError if the log does not replay."""
    fold = UndoFold()
    done = [initial]  # done[k]: the position after k actions in effect
    yield initial
    for number, entry in enumerate(entries, 1):
        before = len(fold.done)
        fold.step(entry)
        after = len(fold.done)
        del done[before + 1:]
        if after > before:  # an action, or a redo of one
            outcome = ruleset.apply(done[before], fold.done[-1])
            if isinstance(outcome, Refused):
                raise ValueError(f"log entry {number} does not replay: {outcome.reason}")
            done.append(outcome.state)
        yield done[after]


def rolls_of(events: list[Event]) -> tuple[Roll, ...]:
    """The dice of a step's events: a breach roll's pool, slot and keel dice, an initiative roll,
    or (War Fleet, Decisive Victory) any dice the event's data holds."""
    rolls = []
    for event, line in zip(events, log_lines(events)):
        dice = line.dice or tuple(dice_in(event.data))
        if dice:
            rolls.append(Roll(event.text, tuple(dice)))
    return tuple(rolls)


def changes(before: Any, after: Any, ruleset: Ruleset) -> tuple[str, ...]:
    """What changed between two positions, in words: the turn or phase, and each ship that moved,
    took damage, or was lost; each ship named and read by its ruleset (`Ruleset.ship_name`, as the
    report names them, and `Ruleset.ship_marks`), never guessed from a field."""
    words = []
    if (before.turn, before.phase) != (after.turn, after.phase):
        words.append(f"Now turn {after.turn}, {str(after.phase).replace('_', ' ')}.")
    old = {s.id: s for s in before.ships}
    for ship in after.ships:
        if ship.id not in old:
            continue
        name, was, now = ruleset.ship_name(ship), ruleset.ship_marks(old[ship.id]), ruleset.ship_marks(ship)
        if was.where != now.where:
            words.append(f"{name} moved.")
        if now.damage > was.damage:
            words.append(f"{name} took damage ({now.damage - was.damage} more marked).")
        elif now.damage < was.damage:
            words.append(f"{name}: damage cleared.")
        if now.gone and not was.gone:
            words.append(f"{name} is lost.")
        elif now.casualty and not was.casualty:
            words.append(f"{name} is a casualty.")
    return tuple(words)


def turn_marks(steps: Iterable[Step]) -> tuple[TurnMark, ...]:
    """The step at the start of each turn (turn 1: the game's start).  A turn entered more than once
    (its end undone, then done again) is marked where it was last entered: the turn as played on."""
    marks: dict[int, int] = {}
    previous: Step | None = None
    for step in steps:
        if previous is None or step.turn > previous.turn:
            marks[step.turn] = step.number
        previous = step
    return tuple(TurnMark(turn, marks[turn]) for turn in sorted(marks))


# --- the cache and the fork ------------------------------------------------------------------------

_CACHE: OrderedDict[tuple[int, str, int], Replay] = OrderedDict()
_LOCK = threading.Lock()


def replay_of(store: Any, game_id: str) -> Replay:
    """The replay of a stored game, built once per length of its log (and store); a game another
    companion process added (an import) is looked for once more after the store refreshes."""
    try:
        stored = store.stored(game_id)
    except KeyError:
        store.refresh()
        stored = store.stored(game_id)
    key = (id(store), game_id, len(stored.entries))
    with _LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    record = stored.record
    replay = Replay(record.id, record.name, find_ruleset(record.ruleset), record.initial, stored.entries)
    with _LOCK:
        _CACHE[key] = replay
        while len(_CACHE) > CACHED:
            _CACHE.popitem(last=False)
    return replay


def fork_name(replay: Replay, number: int) -> str:
    """'What if from turn 3 of <game>' (with the log entry when it is not the turn's start)."""
    turn = replay.steps[number].turn
    at = "" if any(m.step == number for m in replay.turns) else f", log entry {number}"
    return f"What if from turn {turn}{at} of {replay.name}"


def fork(store: Any, game_id: str, entry: int, name: str | None = None) -> Any:
    """A new stored game starting from the position after `entry` log entries of `game_id`: the
    same rules (a house-rules variant too), an empty log, and a fresh secret dice seed (the old
    game's dice would be known once its seed is revealed).  ValueError when the position is over."""
    replay = replay_of(store, game_id)
    state = replay.state(entry)
    if state.phase == "over":
        raise ValueError("the game is over at this step: go back to a step before its end to play on from there")
    return store.new_game(state, name or fork_name(replay, entry), roller=Roller(seed=secrets.token_hex(32)),
                          ruleset=replay.ruleset)
