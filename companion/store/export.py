"""A whole game as one JSON file (`leviathans-game/1`), and any moment of it as a scenario.

    {"format": "leviathans-game/1", "id": "...", "name": "...", "created": 1717000000.0,
     "exported": 1717003600.0, "commitment": "<sha-256 of the dice seed>",
     "initial": {<the starting GameState, dice roller included>},
     "log": [{"index": 0, "kind": "action", "action": {...}, "events": [...], "at": ...},
             {"index": 1, "kind": "undo", "action": null, "events": [...], "at": ...}, ...]}

The export holds the dice seed (inside `initial.roller`) so that the game can
go on after an import: keep the file of an unfinished game from the players.
Importing checks the format version, the log's order, the seed against its
commitment, and that the log replays; and everything the store will read
again later (issue 11): no value nested deeper than 32 levels (a real export
has about 10; a very deep one could not be read back), every number finite
and of a game's size, every time a date the companion can show.
"""

from __future__ import annotations

import time
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from ..engine.cards import FormatError, format_error
from ..engine.roller import Roller
from ..engine.registry import find_ruleset
from ..files import check_nesting_and_numbers
from ..messages import one_line
from .game import Game, LogEntry, state_after
from .repository import LATEST_TIME, GameRecord, StoredGame

GAME_FORMAT = "leviathans-game/1"
GAME_FAMILY = "leviathans-game/"


class ExportedEntry(BaseModel):  # fields an export does not know are left out (pydantic's default)
    index: int
    kind: Literal["action", "undo", "redo"]
    action: dict[str, Any] | None = None
    events: list[dict[str, Any]] = []
    at: float = 0.0


class GameDocument(BaseModel):
    format: Literal["leviathans-game/1"]
    id: str = ""
    name: str = ""
    created: float = 0.0
    exported: float = 0.0
    commitment: str = ""
    ruleset: str = "quick-start"  # documents from before rulesets are Quick-Start games
    initial: dict[str, Any]
    log: list[ExportedEntry] = []


def game_document(stored: StoredGame) -> dict[str, Any]:
    record = stored.record
    return {
        "format": GAME_FORMAT, "id": record.id, "name": record.name, "created": record.created,
        "exported": time.time(), "commitment": record.commitment, "ruleset": record.ruleset,
        "initial": record.initial.model_dump(mode="json"),
        "log": [entry.to_doc() for entry in stored.entries],
    }


def read_game_document(data: Any, source: str = "") -> tuple[GameRecord, list[LogEntry], Game]:
    """The record, log and replayed game of an exported game; FormatError if anything is off."""
    tag = data.get("format") if isinstance(data, dict) else None
    if not isinstance(tag, str):
        raise FormatError(f"no \"format\" tag: expected {GAME_FORMAT}", "format", source)
    if tag != GAME_FORMAT:
        if tag.startswith(GAME_FAMILY):
            raise FormatError(f"{tag} is newer than this version of the companion reads ({GAME_FORMAT})", "format", source)
        raise FormatError(f"\"{tag}\" is not an exported game ({GAME_FORMAT})", "format", source)
    check_nesting_and_numbers(data, source)  # the same walk as for every file the commands read
    try:
        document = GameDocument.model_validate(data)
    except ValidationError as exc:
        raise format_error(exc).in_file(source) from None
    try:
        ruleset = find_ruleset(document.ruleset)
        initial = ruleset.state_type.model_validate(document.initial)
    except ValueError as exc:  # an unknown ruleset, or a state its ruleset cannot play
        raise (format_error(exc).in_file(source) if isinstance(exc, ValidationError)
               else FormatError(str(exc), "ruleset", source)) from None
    problem = ruleset.state_problem(initial)  # Quick-Start: ships on the board, none sharing a hex
    if problem:
        raise FormatError(problem, "initial.ships", source)
    for where, stamp in [("created", document.created), ("exported", document.exported)] + [
            (f"log.{i}.at", e.at) for i, e in enumerate(document.log)]:
        if not 0 <= stamp <= LATEST_TIME:
            raise FormatError(f"{stamp!r} is not a time the companion can show (seconds since 1970, "
                              "before the year 10000)", where, source)
    for position, entry in enumerate(document.log):
        if entry.index != position:
            raise FormatError(f"entry {position} has index {entry.index}: the log is out of order", f"log.{position}", source)
        if entry.kind == "action" and entry.action is None:
            raise FormatError("an action entry without its action", f"log.{position}", source)
    roller: Roller = initial.roller
    commitment = document.commitment or roller.commitment
    if commitment != roller.commitment:
        raise FormatError("the dice seed does not match its commitment (SHA-256)", "commitment", source)
    entries = [LogEntry(e.index, e.kind, e.action, e.events, e.at) for e in document.log]
    record = GameRecord(document.id, document.name or "Imported game", document.created or time.time(),
                        commitment, initial, ruleset.id)
    try:
        game = Game(record.id, record.name, record.initial, entries, created=record.created, ruleset=ruleset)
    except ValueError as exc:
        raise FormatError(one_line(str(exc)), "log", source) from None
    return record, entries, game


def scenario_at(stored: StoredGame, count: int | None = None) -> dict[str, Any]:
    """The position after the first `count` log entries, as a scenario file (formats.md)."""
    total = len(stored.entries)
    if count is not None and not 0 <= count <= total:
        raise ValueError(f"the game has {total} log entries: choose --to between 0 and {total}")
    ruleset = find_ruleset(stored.record.ruleset)
    state = state_after(stored.record.initial, stored.entries, count, ruleset)
    where = "start" if count == 0 else ("now" if count in (None, total) else f"after {count} of {total} log entries")
    if ruleset.save_scenario is None:
        raise ValueError(f"a {ruleset.name} position cannot be saved as a scenario")
    return ruleset.save_scenario(state, f"{stored.record.name} ({where})")
