"""The repository interface: where games' records and logs are kept.

A repository keeps, per game, a `GameRecord` (written once, at creation: the
name, the starting state with its secret dice seed, the seed's commitment)
and the log entries, appended one at a time and durable when `append`
returns.  It may keep snapshots (the state after some entry) so that loading
does not replay a long game from the start.

`MemoryRepository` keeps everything in memory (tests, trying things out);
`TinyDBRepository` (tinydb_store.py) keeps it on disk.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from contextlib import AbstractContextManager
from typing import Any, Sequence

from ..engine.registry import find_ruleset
from .atomic import StoreError
from .game import GameState, LogEntry, UndoFold, counts_after

LATEST_TIME = 253402300799.0  # 9999-12-31 23:59:59 UTC: seconds since 1970 any clock can show


@dataclass
class GameRecord:
    id: str
    name: str
    created: float
    commitment: str
    initial: GameState
    ruleset: str = "quick-start"  # the rules it is played with: a replay always uses them

    def to_doc(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "created": self.created, "ruleset": self.ruleset,
                "commitment": self.commitment, "initial": self.initial.model_dump(mode="json")}

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> "GameRecord":
        created = float(doc["created"])
        if not 0 <= created <= LATEST_TIME:
            raise ValueError(f"created: {created!r} is not a date")
        ruleset = find_ruleset(doc.get("ruleset", "quick-start"))  # records before rulesets were Quick-Start
        initial = ruleset.state_type.model_validate(doc["initial"])
        problem = ruleset.state_problem(initial)  # Quick-Start: ships on the board, none sharing a hex
        if problem:
            raise ValueError(f"initial: {problem}")
        return cls(doc["id"], doc["name"], created, doc["commitment"], initial, ruleset.id)


@dataclass
class StoredGame:
    """Everything a repository holds about one game."""

    record: GameRecord
    entries: list[LogEntry]
    snapshots: dict[int, GameState] = field(default_factory=dict)


@dataclass
class StoredSummary:
    """What the game list shows, read without loading the whole game."""

    turn: int
    phase: str
    actions: int
    result: str | None
    updated: float

    @classmethod
    def of(cls, state: GameState, actions: int, updated: float) -> "StoredSummary":
        return cls(state.turn, state.phase, actions, state.result, updated)

    def to_doc(self) -> dict[str, Any]:
        return {"turn": self.turn, "phase": self.phase, "actions": self.actions,
                "result": self.result, "updated": self.updated}


#: An id that can name a game's folder on every system: a game of another store keeps one such.
SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class Repository:
    """What every repository keeps in memory: each game's record and list summary, behind `lock`,
    and `problems`, in plain words.  A repository adds `new_id`, `create(record, entries,
    snapshot)`, `load`, `sink` and `delete` (MemoryRepository below, TinyDBRepository)."""

    where = ""  # where the games are, for "no game" (the data folder)

    def __init__(self, lock: AbstractContextManager[Any]) -> None:
        self.problems: list[str] = []
        self.records: dict[str, GameRecord] = {}
        self.summaries: dict[str, StoredSummary] = {}
        self.lock = lock

    def game_ids(self) -> list[str]:
        with self.lock:
            return list(self.records)

    def record(self, game_id: str) -> GameRecord:
        with self.lock:
            if game_id not in self.records:
                raise StoreError(f"no game '{game_id}'{self.where}")
            return self.records[game_id]

    def free_id(self, wanted: str) -> str:
        """`wanted` (an imported game's own id) if it is a SAFE_ID no game has, else a new id."""
        return wanted if SAFE_ID.match(wanted) and wanted not in self.game_ids() else self.new_id()

    # --- what each repository adds ---------------------------------------------------

    def new_id(self) -> str:
        raise NotImplementedError

    def create(self, record: GameRecord, entries: Sequence[LogEntry] = (),
               snapshot: tuple[int, GameState] | None = None) -> None:
        raise NotImplementedError

    def load(self, game_id: str) -> StoredGame:
        raise NotImplementedError

    def sink(self, game_id: str, entries: list[LogEntry]) -> CountingSink:
        raise NotImplementedError

    def delete(self, game_id: str) -> None:
        raise NotImplementedError


class CountingSink:
    """Base of the sinks: saves an entry (`save`, durable when it returns) and then counts it by the
    log's undo rule (`counts_after`) for the game's summary; an entry not saved is not counted."""

    def __init__(self, repository: Repository, game_id: str, entries: list[LogEntry]):
        self.repository, self.game_id = repository, game_id
        fold = UndoFold(entries)
        self.done, self.undone = len(fold.done), len(fold.undone)

    def append(self, entry: LogEntry, state: GameState) -> None:
        done, undone = counts_after(entry.kind, self.done, self.undone)
        summary = StoredSummary.of(state, done, entry.at)
        self.save(entry, state, summary)
        self.done, self.undone = done, undone
        self.repository.summaries[self.game_id] = summary

    def save(self, entry: LogEntry, state: GameState, summary: StoredSummary) -> None:
        raise NotImplementedError


class _MemorySink(CountingSink):
    repository: MemoryRepository

    def save(self, entry: LogEntry, state: GameState, summary: StoredSummary) -> None:
        with self.repository.lock:
            self.repository.logs[self.game_id].append(entry)


class MemoryRepository(Repository):
    """Games kept in memory only."""

    def __init__(self) -> None:
        super().__init__(threading.Lock())
        self.logs: dict[str, list[LogEntry]] = {}
        self._counter = 0

    def new_id(self) -> str:
        with self.lock:
            while True:
                self._counter += 1
                game_id = f"game-{self._counter}"
                if game_id not in self.records:
                    return game_id

    def create(self, record: GameRecord, entries: Sequence[LogEntry] = (),
               snapshot: tuple[int, GameState] | None = None) -> None:
        with self.lock:
            if record.id in self.records:
                raise StoreError(f"there is already a game '{record.id}'")
            self.records[record.id] = record
            self.logs[record.id] = list(entries)

    def load(self, game_id: str) -> StoredGame:
        record = self.record(game_id)
        with self.lock:
            return StoredGame(record, list(self.logs[game_id]))

    def sink(self, game_id: str, entries: list[LogEntry]) -> _MemorySink:
        return _MemorySink(self, game_id, entries)

    def delete(self, game_id: str) -> None:
        with self.lock:
            for table in (self.records, self.logs, self.summaries):
                table.pop(game_id, None)
