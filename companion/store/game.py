"""A live game: its starting state, its log of actions, undo and redo.

The game *is* its log.  Every action a player takes, and every undo and redo,
is appended to the log; the state is the fold of `engine.apply` over the
actions that are in effect.  A `LogSink` persists each entry before `act`
returns (see tinydb_store.py); the in-memory sink keeps nothing.

Thread safety: one `Game` object per game per process, every change behind
its lock, so several browser sessions act on it in order.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from ..engine.actions import ActionEnvelope
from ..engine.game import Applied, Event, Refused, apply
from ..engine.state import GameState


@dataclass(frozen=True)
class LogEntry:
    """One line of a game's log: an action, or `undo`/`redo`, and what it did."""

    index: int
    kind: str  # "action", "undo" or "redo"
    action: dict[str, Any] | None
    events: list[dict[str, Any]]
    at: float

    def to_doc(self) -> dict[str, Any]:
        return {"index": self.index, "kind": self.kind, "action": self.action,
                "events": self.events, "at": self.at}

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> "LogEntry":
        return cls(doc["index"], doc["kind"], doc.get("action"), doc.get("events", []), doc.get("at", 0.0))


class LogSink(Protocol):
    """Where a game's log entries go, durably, before `act` returns."""

    def append(self, entry: LogEntry, state: GameState) -> None: ...


class _NoSink:
    def append(self, entry: LogEntry, state: GameState) -> None:
        pass


def effective_actions(entries: list[LogEntry]) -> list[dict[str, Any]]:
    """The actions in effect after the undos and redos of the log."""
    return undo_stacks(entries)[0]


def undo_stacks(entries: list[LogEntry]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(actions in effect, actions undone and not yet redone, latest last)."""
    done: list[dict[str, Any]] = []
    undone: list[dict[str, Any]] = []
    for entry in entries:
        if entry.kind == "action":
            done.append(entry.action)
            undone.clear()
        elif entry.kind == "undo" and done:
            undone.append(done.pop())
        elif entry.kind == "redo" and undone:
            done.append(undone.pop())
    return done, undone


def replay(initial: GameState, actions: list[dict[str, Any]]) -> GameState:
    """Fold `apply` over logged actions. A logged action was applied once, so it applies again."""
    state = initial
    for action in actions:
        outcome = apply(state, action)
        if isinstance(outcome, Refused):
            raise ValueError(f"the log does not replay: {outcome.reason}")
        state = outcome.state
    return state


class Game:
    """One game: thread-safe `act`, `undo`, `redo`; listeners hear every change."""

    def __init__(self, game_id: str, name: str, initial: GameState,
                 entries: list[LogEntry] | None = None, sink: LogSink | None = None,
                 state: GameState | None = None):
        self.id = game_id
        self.name = name
        self.initial = initial
        self.entries: list[LogEntry] = list(entries or [])
        self._sink = sink or _NoSink()
        self._lock = threading.RLock()
        self._done, self._undone = undo_stacks(self.entries)
        self.state = state if state is not None else replay(initial, self._done)
        self._listeners: list[Callable[["Game", LogEntry], None]] = []

    # --- reading -----------------------------------------------------------

    @property
    def can_undo(self) -> bool:
        return bool(self._done)

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)

    @property
    def actions_in_effect(self) -> int:
        return len(self._done)

    def history(self) -> list[Event]:
        """Events of the actions in effect, in order (what the log screen shows)."""
        events: list[Event] = []
        state = self.initial
        for action in self._done:
            outcome = apply(state, action)
            if isinstance(outcome, Applied):
                events.extend(outcome.events)
                state = outcome.state
        return events

    # --- changing ------------------------------------------------------------

    def act(self, action) -> Applied | Refused:
        """Apply an action; it is logged (and saved by the sink) before this returns."""
        with self._lock:
            data = _action_dict(action)
            outcome = apply(self.state, data)
            if isinstance(outcome, Refused):
                return outcome
            events = [e.model_dump(mode="json") for e in outcome.events]
            self._record("action", data, events, outcome.state)
            self._done.append(data)
            self._undone.clear()
            return outcome

    def undo(self) -> bool:
        with self._lock:
            if not self._done:
                return False
            undone = self._done.pop()
            state = replay(self.initial, self._done)
            self._record("undo", None, [{"kind": "undo", "text": f"Undone: {undone['kind'].replace('_', ' ')}.", "data": {}}], state)
            self._undone.append(undone)
            return True

    def redo(self) -> bool:
        with self._lock:
            if not self._undone:
                return False
            action = self._undone[-1]
            outcome = apply(self.state, action)
            if isinstance(outcome, Refused):
                return False
            self._record("redo", None, [e.model_dump(mode="json") for e in outcome.events], outcome.state)
            self._done.append(self._undone.pop())
            return True

    def listen(self, callback: Callable[["Game", LogEntry], None]) -> Callable[[], None]:
        """Call `callback(game, entry)` after every change; returns an unsubscribe."""
        with self._lock:
            self._listeners.append(callback)

        def stop() -> None:
            with self._lock:
                if callback in self._listeners:
                    self._listeners.remove(callback)

        return stop

    def _record(self, kind: str, action, events, state: GameState) -> None:
        entry = LogEntry(len(self.entries), kind, action, events, time.time())
        self._sink.append(entry, state)  # durable before anyone sees it
        self.entries.append(entry)
        self.state = state
        for listener in list(self._listeners):
            try:
                listener(self, entry)
            except Exception:  # a closed browser session must not break the game
                pass


def _action_dict(action) -> dict[str, Any]:
    if isinstance(action, dict):
        return ActionEnvelope(action=action).action.model_dump(mode="json")
    return action.model_dump(mode="json")


@dataclass
class GameSummary:
    id: str
    name: str
    turn: int
    phase: str
    sides: list[str]
    updated: float
    actions: int
    result: str | None = None


def summary_of(game: Game) -> GameSummary:
    state = game.state
    updated = game.entries[-1].at if game.entries else 0.0
    return GameSummary(game.id, game.name, state.turn, state.phase, list(state.sides),
                       updated, game.actions_in_effect, state.result)


@dataclass
class MemoryStore:
    """Games kept in memory only: for tests and for trying things out."""

    _games: dict[str, Game] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def new_game(self, initial: GameState, name: str = "") -> Game:
        with self._lock:
            game_id = f"game-{len(self._games) + 1}"
            game = Game(game_id, name or game_id, initial)
            self._games[game_id] = game
            return game

    def games(self) -> list[GameSummary]:
        return sorted((summary_of(g) for g in self._games.values()), key=lambda s: -s.updated)

    def game(self, game_id: str) -> Game:
        if game_id not in self._games:
            raise KeyError(f"no game '{game_id}'")
        return self._games[game_id]

    def delete(self, game_id: str) -> None:
        self._games.pop(game_id, None)
