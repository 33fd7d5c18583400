"""Dice players can verify: re-derive every logged roll from the seed and the log.

A game's roller commits to its seed when the game is created (the SHA-256 of
the seed is shown from the start) and derives each die from the seed and a
counter (HMAC-SHA256, rejection sampling: engine/roller.py).  Every result is
in the log's events.  `verify_game` replays the whole log (undos and redos
included) from the starting state, rolls each die again and compares it with
the face that was logged; it also checks the seed against the commitment, and that every
entry's events are the ones the rules make (issue 36: an edited event, or a "game over"
the rules did not reach, is named; events that say the same in other words, as an older version
worded them, are counted apart and do not fail it).  The seed itself is shown only once the rules have ended
the game (a game_over event the replay makes, never one the log merely holds).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.kernel import Refused
from ..engine.registry import find_ruleset
from .export import substance
from .game import LogEntry, UndoFold
from .repository import StoredGame

DiceList = list[tuple[str, int]]


def dice_in(events: list[dict[str, Any]]) -> DiceList:
    """Every die in a list of events, in order: (colour, face); slot dice are ("D6", face)."""
    found: DiceList = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if "colour" in value and "face" in value:
                found.append((str(value["colour"]), int(value["face"])))
                return
            for key, item in value.items():
                if key == "slot_rolls" and isinstance(item, list):
                    found.extend(("D6", int(face)) for face in item)
                else:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for event in events:
        walk(event.get("data", {}))
    return found


def _table_dice(action: dict[str, Any]) -> bool:
    """Faces the players rolled at the table and typed in (not from the roller): a shot's or an attack's
    `table`, a roll-off's `faces` (initiative, placement), in either ruleset."""
    return action.get("table") is not None or action.get("faces") is not None


@dataclass
class Verification:
    name: str
    entries: int
    commitment: str
    commitment_ok: bool
    over: bool
    seed: str
    roller_dice: int = 0
    table_dice: int = 0
    mismatches: list[str] = field(default_factory=list)
    reworded: int = 0  # entries whose events say what the rules' say, in other words (an older version's)

    @property
    def ok(self) -> bool:
        return self.commitment_ok and not self.mismatches

    def lines(self) -> list[str]:
        lines = [
            f"{self.name}: {self.entries} log entries, {self.roller_dice} dice from the seeded roller, "
            f"{self.table_dice} entered from the table (not checked).",
            f"commitment (SHA-256 of the seed), shown from the start: {self.commitment}",
        ]
        if self.over:
            lines.append(f"seed (revealed: the game is over): {self.seed}")
        else:
            lines.append("seed: kept secret until the game is over (checked here without showing it)")
        lines.append("the seed matches the commitment" if self.commitment_ok
                     else "the seed does NOT match the commitment")
        lines.extend(self.mismatches)
        if self.reworded:
            lines.append(f"the events of {self.reworded} log entr{'y is' if self.reworded == 1 else 'ies are'} worded "
                         "otherwise than this version words them (an older version's words): what happened is the same")
        if self.ok:
            lines.append(f"all {self.roller_dice} rolls match: each die re-derived from the seed and its counter "
                         "gives the logged face")
        elif self.mismatches:
            lines.append(f"{len(self.mismatches)} log entr{'y does' if len(self.mismatches) == 1 else 'ies do'} not match")
        return lines


def verify_game(stored: StoredGame) -> Verification:
    record = stored.record
    roller = record.initial.roller
    result = Verification(record.name, len(stored.entries), record.commitment,
                          roller.commitment == record.commitment, False, roller.seed)
    ruleset = find_ruleset(record.ruleset)
    fold = UndoFold()  # the one rule of undo and redo
    states = [record.initial]  # states[k]: the state after k actions in effect
    for entry in stored.entries:
        before = len(fold.done)
        fold.step(entry)
        if len(fold.done) <= before:  # an undo (back to the state before the action), or nothing to redo
            _compare_undo(entry, fold, result)
            continue
        action = fold.done[-1]  # the entry's action, or the one a redo does again
        del states[before + 1:]
        outcome = ruleset.apply(states[before], action)
        if isinstance(outcome, Refused):
            result.mismatches.append(f"log entry {entry.index} ({action.get('kind')}) does not replay: {outcome.reason}")
            break
        made = [e.model_dump(mode="json") for e in outcome.events]
        result.over = result.over or any(e.get("kind") == "game_over" for e in made)
        derived = dice_in(made)
        logged = dice_in(entry.events)
        if _table_dice(action):
            result.table_dice += len(logged)
        else:
            result.roller_dice += len(logged)
        if derived != logged:
            result.mismatches.append(
                f"log entry {entry.index} ({action.get('kind')}): logged {_show(logged)}, the seed gives {_show(derived)}")
        elif substance(made) != substance(entry.events):
            result.mismatches.append(f"log entry {entry.index} ({action.get('kind')}): its events are not the ones "
                                     "the rules make (edited after the game)")
        elif made != entry.events:
            result.reworded += 1
        states.append(outcome.state)
    return result


def _compare_undo(entry: LogEntry, fold: UndoFold, result: Verification) -> None:
    """An undo's event, as the game writes it ("Undone: move."); an entry that changed nothing holds none."""
    if entry.kind != "undo" or not fold.undone:
        return
    made = [{"kind": "undo", "text": f"Undone: {fold.undone[-1]['kind'].replace('_', ' ')}.", "data": {}}]
    if entry.events != made and any(e.get("kind") != "undo" for e in entry.events):
        result.mismatches.append(f"log entry {entry.index} (undo): its events are not the ones the rules make "
                                 "(edited after the game)")


def _show(dice: DiceList) -> str:
    return ", ".join(f"{'D6' if colour == 'D6' else 'D' + colour} {face}" for colour, face in dice) or "no dice"
