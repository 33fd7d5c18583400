"""A whole game as one JSON file (`leviathans-game/1`), and any moment of it as a scenario.

    {"format": "leviathans-game/1", "id": "...", "name": "...", "created": 1717000000.0,
     "exported": 1717003600.0, "commitment": "<sha-256 of the dice seed>",
     "initial": {<the starting GameState, dice roller included>},
     "log": [{"index": 0, "kind": "action", "action": {...}, "events": [...], "at": ...},
             {"index": 1, "kind": "undo", "action": null, "events": [...], "at": ...}, ...]}

The export holds the dice seed (inside `initial.roller`) so that the game can
go on after an import: keep the file of an unfinished game from the players.
Importing checks the format version, the log's order, the seed against its
commitment, the starting position as `companion new` would (`engine.game_start`: ship count and
ids, two sides that differ to the eye, names cleaned and within their limits, a turn of 1 or
more), and replays the log through the rules: every entry must make the events the file holds,
else the import is refused naming the first entry that differs (issue 36: a file's events
are never taken on trust, so an edited "British wins the game" or an extra game over, which
would reveal the seed, cannot come in); and everything the store will read
again later (issue 11): no value nested deeper than 32 levels (a real export
has about 10; a very deep one could not be read back), every number finite
and of a game's size, every time a date the companion can show.
"""

from __future__ import annotations

import time
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from ..engine.cards import FormatError, format_error
from ..engine.game_start import start_problem
from ..engine.names import GAME_LIMIT, cleaned
from ..engine.quick_start.state import MAX_SHIPS
from ..engine.kernel import Refused
from ..engine.roller import Roller
from ..engine.registry import find_ruleset
from ..files import check_nesting_and_numbers
from ..messages import one_line
from .game import Game, LogEntry, state_after
from .repository import LATEST_TIME, GameRecord, StoredGame

GAME_FORMAT = "leviathans-game/1"
GAME_FAMILY = "leviathans-game/"
#: The longest log an import replays (docs/formats.md "Limits"): a War Fleet battle of forty ships
#: logs a few thousand entries; a longer file is refused before it is read further.
MAX_LOG_ENTRIES = 20_000
#: The most entries of any other list of a starting position (flights, bases, shots, pockets):
#: five times the most ships.
MAX_ITEMS = 5 * MAX_SHIPS


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
    check_sizes(data, source)  # counted before anything is read further: a huge file is answered at once
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
    problem = start_problem(initial, ruleset)  # the checks of `companion new` (issue 36)
    if problem:
        raise FormatError(problem[1], f"initial.{problem[0]}", source)
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
    name = cleaned(document.name)
    if len(name) > GAME_LIMIT:
        raise FormatError(f"a game's name is at most {GAME_LIMIT} characters ({len(name):,} given)", "name", source)
    record = GameRecord(document.id, name or "Imported game", document.created or time.time(),
                        commitment, initial, ruleset.id)
    game = replayed(record, document.log, source)
    return record, game.entries, game


def check_sizes(data: Any, source: str = "") -> None:
    """A log of more than MAX_LOG_ENTRIES entries, a start of more than MAX_SHIPS ships (or another
    list of more than MAX_ITEMS): refused before the file is read any further (a 150,000-entry log
    gets its answer at once)."""
    if not isinstance(data, dict):
        return  # not an exported game at all: read_game_document says so
    log, initial = data.get("log"), data.get("initial")
    if isinstance(log, list) and len(log) > MAX_LOG_ENTRIES:
        raise FormatError(f"{len(log):,} log entries are more than a game holds (at most {MAX_LOG_ENTRIES:,})",
                          "log", source)
    ships = initial.get("ships") if isinstance(initial, dict) else None
    if isinstance(ships, list) and len(ships) > MAX_SHIPS:
        raise FormatError(f"a table holds at most {MAX_SHIPS} ships; this one has {len(ships):,}",
                          "initial.ships", source)
    for key, value in initial.items() if isinstance(initial, dict) else ():  # flights, bases, shots...
        if isinstance(value, list) and len(value) > MAX_ITEMS:
            raise FormatError(f"{len(value):,} entries are more than a game's position holds (at most {MAX_ITEMS:,})",
                              f"initial.{key}", source)


def replayed(record: GameRecord, log: list[ExportedEntry], source: str = "") -> Game:
    """The game the log makes when its actions, undos and redos are played again through the
    rules; FormatError naming the first entry that does not replay, or whose events say something
    else happened than the rules make (kind or data).  The events kept are always the rules' own:
    where only their words differ (an older version's wording, or an edited text) the rules' words
    are kept and `Game.reworded` counts the entries (the import's line says so); the file's times
    are kept."""
    ruleset = find_ruleset(record.ruleset)
    game = Game(record.id, record.name, record.initial, created=record.created, ruleset=ruleset)
    for entry in log:
        where = f"log.{entry.index}"
        if entry.kind == "action":
            outcome = game.act(entry.action)
            if isinstance(outcome, Refused):
                raise FormatError(f"log entry {entry.index} ({_kind(entry.action)}) does not replay: "
                                  f"{one_line(outcome.reason)}", where, source)
        elif not (game.undo() if entry.kind == "undo" else game.redo()):
            raise FormatError(f"log entry {entry.index} ({entry.kind}) has nothing to {entry.kind}", where, source)
        made = game.entries[-1]
        if made.events != entry.events:
            if substance(made.events) != substance(entry.events):
                raise FormatError(f"log entry {entry.index} ({_kind(made.action) if made.action else entry.kind}): "
                                  f"{_difference(entry.events, made.events)}", where, source)
            game.reworded += 1  # the same happenings in other words: an older version's, or edited
        game.entries[-1] = LogEntry(made.index, made.kind, made.action, made.events, entry.at)
    return game


def substance(events: list[dict[str, Any]]) -> list[tuple[Any, Any]]:
    """What events say happened, without their words: each one's kind and data.  Two versions of
    the companion word an event differently (issue 35 reworded some); what happened is the same."""
    return [(e.get("kind"), e.get("data", {})) if isinstance(e, dict) else (None, e) for e in events]


def _kind(action: Any) -> str:
    kind = action.get("kind") if isinstance(action, dict) else None
    return one_line(str(kind))[:40] if kind else "an action"


def _difference(logged: list[dict[str, Any]], made: list[dict[str, Any]]) -> str:
    """The first event the file holds that the rules do not make, in a few words."""
    for position, (one, other) in enumerate(zip(logged, made)):
        if one != other:
            text = one.get("text") if isinstance(one, dict) else None
            return (f"its event {position + 1} is not the rules' (the file says {_short(text)!r}, "
                    f"the rules {_short(other.get('text'))!r})")
    return (f"the file holds {len(logged)} event{'s' if len(logged) != 1 else ''}, "
            f"the rules make {len(made)}")


def _short(text: Any) -> str:
    words = one_line(str(text or ""))
    return words if len(words) <= 60 else words[:57] + "..."


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
