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

import threading
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..engine.ruleset import find_ruleset
from .atomic import StoreError
from .game import GameState, LogEntry, counts_after


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
        if not 0 <= created <= 253402300799.0:  # a date any clock can show (before the year 10000)
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


class Sink(Protocol):
    def append(self, entry: LogEntry, state: GameState) -> None: ...


class Repository(Protocol):
    problems: list[str]

    def new_id(self) -> str: ...
    def game_ids(self) -> list[str]: ...
    def record(self, game_id: str) -> GameRecord: ...
    def summary(self, game_id: str) -> StoredSummary | None: ...
    def create(self, record: GameRecord, entries: list[LogEntry] = (),
               snapshot: tuple[int, GameState] | None = None) -> None: ...
    def load(self, game_id: str) -> StoredGame: ...
    def sink(self, game_id: str, entries: list[LogEntry]) -> Sink: ...
    def delete(self, game_id: str) -> None: ...


class CountingSink:
    """Base of the sinks: follows how many actions are in effect (the log's undo rule, `counts_after`),
    for the summaries."""

    def __init__(self, entries: list[LogEntry]):
        self.done = self.undone = 0
        for entry in entries:
            self.count(entry)

    def count(self, entry: LogEntry) -> None:
        self.done, self.undone = counts_after(entry.kind, self.done, self.undone)


class _MemorySink(CountingSink):
    def __init__(self, repository: "MemoryRepository", game_id: str, entries: list[LogEntry]):
        super().__init__(entries)
        self.repository, self.game_id = repository, game_id

    def append(self, entry: LogEntry, state: GameState) -> None:
        self.count(entry)
        with self.repository.lock:
            self.repository.logs[self.game_id].append(entry)
            self.repository.summaries[self.game_id] = StoredSummary.of(state, self.done, entry.at)


class MemoryRepository:
    """Games kept in memory only."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.records: dict[str, GameRecord] = {}
        self.logs: dict[str, list[LogEntry]] = {}
        self.summaries: dict[str, StoredSummary] = {}
        self.lock = threading.Lock()
        self._counter = 0

    def new_id(self) -> str:
        with self.lock:
            while True:
                self._counter += 1
                game_id = f"game-{self._counter}"
                if game_id not in self.records:
                    return game_id

    def game_ids(self) -> list[str]:
        with self.lock:
            return list(self.records)

    def record(self, game_id: str) -> GameRecord:
        with self.lock:
            if game_id not in self.records:
                raise StoreError(f"no game '{game_id}'")
            return self.records[game_id]

    def summary(self, game_id: str) -> StoredSummary | None:
        return self.summaries.get(game_id)

    def create(self, record: GameRecord, entries: list[LogEntry] = (),
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

    def sink(self, game_id: str, entries: list[LogEntry]) -> Sink:
        return _MemorySink(self, game_id, entries)

    def delete(self, game_id: str) -> None:
        with self.lock:
            for table in (self.records, self.logs, self.summaries):
                table.pop(game_id, None)
