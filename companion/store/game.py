"""A live game: its starting state, its log of actions, undo and redo.

The game *is* its log.  Every action a player takes, and every undo and redo,
is appended to the log; the state is the fold of `engine.apply` over the
actions that are in effect.  A `LogSink` persists each entry before `act`
returns (see tinydb_store.py); the in-memory sink keeps nothing.

Loading is snapshot plus replay: a saved state after some entry is a
starting point for the fold, as long as no later undo went back behind it.
Undo replays from the nearest in-memory checkpoint (one every
`CHECKPOINT_EVERY` actions), so its cost does not grow with the game.

Thread safety: one `Game` object per game per process, every change behind
its lock, so several browser sessions act on it in order.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Protocol

from ..engine.kernel import Applied, Event, Refused, RefusalKind
from ..engine.ruleset import AnyRuleset
from ..engine.registry import ruleset_of_state
from ..messages import without_paths

log = logging.getLogger(__name__)

#: A game's state: a GameState, a WarFleetState, ... (the state type of the game's ruleset).
GameState = Any

CHECKPOINT_EVERY = 50


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


def undo_stacks(entries: Iterable[LogEntry]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(actions in effect, actions undone and not yet redone, latest last)."""
    fold = UndoFold(entries)
    return fold.done, fold.undone


def counts_after(kind: str, done: int, undone: int) -> tuple[int, int]:
    """The one rule of undo and redo, on counts: (actions in effect, actions undone) after a log
    entry.  An action drops what was undone (no redo past a new branch); an undo with nothing done,
    or a redo with nothing undone, changes nothing."""
    if kind == "action":
        return done + 1, 0
    if kind == "undo" and done:
        return done - 1, undone + 1
    if kind == "redo" and undone:
        return done + 1, undone - 1
    return done, undone


def undone_words(action: dict[str, Any], events: list[dict[str, Any]]) -> str:
    """What an undo's log line says: the first words the action logged ("Undone: HML Raven moves
    forward to 0306 facing N."), never its code ("Undone: move along.": issue 35)."""
    said = next((str(e.get("text")) for e in events if e.get("text")), "")
    return f"Undone: {said}" if said else f"Undone: the last {str(action.get('kind', 'action')).replace('_', ' ')}."


class UndoFold:
    """The log's undos and redos folded (by `counts_after`): the actions in effect, with the events
    they made (from the action or its redo), and the actions undone and not yet redone."""

    def __init__(self, entries: Iterable[LogEntry] = ()) -> None:
        self.done: list[dict[str, Any]] = []
        self.done_events: list[list[dict[str, Any]]] = []
        self.undone: list[dict[str, Any]] = []
        self.lengths = [0]  # how many actions were in effect after each prefix of the log (one more than entries)
        for entry in entries:
            self.step(entry)

    def step(self, entry: LogEntry) -> None:
        done, _ = counts_after(entry.kind, len(self.done), len(self.undone))
        if entry.kind == "action":
            self.done.append(entry.action or {})
            self.done_events.append(entry.events)
            self.undone.clear()
        elif done < len(self.done):  # an undo
            self.undone.append(self.done.pop())
            self.done_events.pop()
        elif done > len(self.done):  # a redo
            self.done.append(self.undone.pop())
            self.done_events.append(entry.events)
        self.lengths.append(len(self.done))


def replay(initial: GameState, actions: list[dict[str, Any]], ruleset: AnyRuleset | None = None) -> GameState:
    """Fold the ruleset's `apply` over logged actions. A logged action was applied once, so it applies again."""
    ruleset = ruleset or ruleset_of_state(initial)
    state = initial
    for action in actions:
        outcome = ruleset.apply(state, action)
        if isinstance(outcome, Refused):
            raise ValueError(f"the log does not replay: {outcome.reason}")
        state = outcome.state
    return state


def state_after(initial: GameState, entries: list[LogEntry], count: int | None = None,
                ruleset: AnyRuleset | None = None) -> GameState:
    """The state the players saw after the first `count` log entries (all by default)."""
    chosen = entries if count is None else entries[:count]
    return replay(initial, effective_actions(chosen), ruleset)


class Game:
    """One game: thread-safe `act`, `undo`, `redo`; listeners hear every change.

    `snapshots` maps a number of log entries to the state after them (saved
    by a store); the newest one still valid is the start of the replay.
    """

    def __init__(self, game_id: str, name: str, initial: GameState,
                 entries: list[LogEntry] | None = None, sink: LogSink | None = None,
                 state: GameState | None = None, snapshots: dict[int, GameState] | None = None,
                 created: float | None = None, ruleset: AnyRuleset | None = None):
        self.id = game_id
        self.ruleset = ruleset or ruleset_of_state(initial)
        self.name = name
        self.initial = initial
        self.created = created if created is not None else time.time()
        self.entries: list[LogEntry] = list(entries or [])
        self._sink = sink or _NoSink()
        self.lock = threading.RLock()  # held across several steps that must see one state (a pocket battle)
        self._fold = UndoFold(self.entries)  # the actions in effect (with their events) and those undone
        self._checkpoints: dict[int, GameState] = {0: initial}
        if state is None:
            state = self._restore(snapshots or {})
        self.state = state
        self._listeners: list[Callable[["Game", LogEntry], None]] = []
        self.save_problem: str | None = None  # why the last change could not be saved (no path in it)
        self.reworded = 0  # log entries an import put in this version's words (export.replayed)
        self.save_path: str | None = None  # the file it could not be saved to, for the host's terminal

    def _restore(self, snapshots: dict[int, GameState]) -> GameState:
        """Newest valid snapshot plus replay of the actions in effect after it."""
        lengths = self._fold.lengths
        lowest_after = lengths[:]
        for i in range(len(lengths) - 2, -1, -1):
            lowest_after[i] = min(lengths[i], lowest_after[i + 1])
        start, state = 0, self.initial
        for index in sorted(snapshots, reverse=True):
            # valid if no later undo went back behind the actions in effect at the snapshot
            if index < len(lengths) and lowest_after[index] >= lengths[index]:
                start, state = lengths[index], snapshots[index]
                self._checkpoints[start] = state
                break
        for position in range(start, len(self._fold.done)):
            state = replay(state, self._fold.done[position:position + 1], self.ruleset)
            self._keep_checkpoint(position + 1, state)
        return state

    # --- reading -----------------------------------------------------------

    @property
    def can_undo(self) -> bool:
        return bool(self._fold.done)

    @property
    def can_redo(self) -> bool:
        return bool(self._fold.undone)

    @property
    def actions_in_effect(self) -> int:
        return len(self._fold.done)

    @property
    def commitment(self) -> str:
        """SHA-256 of the dice seed: shown from the start, so players can check the dice later."""
        commitment: str = self.initial.roller.commitment
        return commitment

    @property
    def revealed_seed(self) -> str | None:
        """The dice seed, once the game has ended (None before: it stays secret)."""
        over = any(e.get("kind") == "game_over" for entry in self.entries for e in entry.events)
        return self.initial.roller.seed if over else None

    def history(self) -> list[Event]:
        """Events of the actions in effect, in order (what the log screen shows)."""
        with self.lock:
            groups = list(self._fold.done_events)
        return [Event.model_validate(event) for group in groups for event in group]

    def action_numbers(self) -> list[int]:
        """Beside each event of `history()`, the number of the action in effect that made it (1 for
        the first): the "log N" every screen shows is the last of them (issue 35: the Log numbered
        its events, 66, where the bar said log 44)."""
        with self.lock:
            groups = list(self._fold.done_events)
        return [n for n, group in enumerate(groups, start=1) for _ in group]

    # --- changing ------------------------------------------------------------

    def act(self, action: Any) -> Applied[Any] | Refused:
        """Apply an action; it is logged (and saved by the sink) before this returns."""
        with self.lock:
            try:
                data = self.ruleset.dump_action(self.ruleset.parse_action(action))
            except ValueError as exc:
                return Refused(str(exc), RefusalKind.MALFORMED)
            outcome = self.ruleset.apply(self.state, data)
            if isinstance(outcome, Refused):
                return outcome
            events = [e.model_dump(mode="json") for e in outcome.events]
            for stale in [k for k in self._checkpoints if k > len(self._fold.done)]:
                del self._checkpoints[stale]  # a new branch: states past here are gone (only a cache)
            if not self._record("action", data, events, outcome.state):
                return Refused(f"not done, because it could not be saved: {self.save_problem}", RefusalKind.ILLEGAL)
            return outcome

    def undo(self) -> bool:
        with self.lock:
            if not self._fold.done:
                return False
            text = undone_words(self._fold.done[-1], self._fold.done_events[-1])
            count = len(self._fold.done) - 1
            base = max(k for k in self._checkpoints if k <= count)  # the nearest checkpoint, then replay
            state = replay(self._checkpoints[base], self._fold.done[base:count], self.ruleset)
            return self._record("undo", None, [{"kind": "undo", "text": text, "data": {}}], state)

    def redo(self) -> bool:
        with self.lock:
            if not self._fold.undone:
                return False
            outcome = self.ruleset.apply(self.state, self._fold.undone[-1])
            if isinstance(outcome, Refused):
                return False
            return self._record("redo", None, [e.model_dump(mode="json") for e in outcome.events], outcome.state)

    def listen(self, callback: Callable[["Game", LogEntry], None]) -> Callable[[], None]:
        """Call `callback(game, entry)` after every change; returns an unsubscribe."""
        with self.lock:
            self._listeners.append(callback)

        def stop() -> None:
            with self.lock:
                if callback in self._listeners:
                    self._listeners.remove(callback)

        return stop

    def _keep_checkpoint(self, count: int, state: GameState) -> None:
        if count % CHECKPOINT_EVERY == 0:
            self._checkpoints[count] = state

    def _record(self, kind: str, action: dict[str, Any] | None, events: list[dict[str, Any]],
                state: GameState) -> bool:
        """Save an entry, then fold it into the game and show it; False (and `save_problem` says
        why) if it could not be saved."""
        entry = LogEntry(len(self.entries), kind, action, events, time.time())
        try:
            self._sink.append(entry, state)  # durable before anyone sees it
        except (OSError, ValueError) as exc:  # a full disk, a folder gone, another process writing
            # the words every device may read name no path of the host's disk; the host's terminal
            # (the log) gets the whole reason, path and all (issue 36)
            self.save_problem = without_paths(str(exc) if isinstance(exc, ValueError)
                                              else f"{exc.strerror or exc.__class__.__name__} (the data folder)")
            self.save_path = getattr(exc, "filename", None)
            log.error("game %s: log entry %d could not be saved: %s", self.id, entry.index, exc)
            return False
        self.save_problem = None
        self.entries.append(entry)
        self._fold.step(entry)
        self._keep_checkpoint(len(self._fold.done), state)
        self.state = state
        for listener in list(self._listeners):
            try:
                listener(self, entry)
            except Exception:  # a closed browser session must not break the game: logged, the rest told
                log.error("a listener of game %s failed (%r) after log entry %d", self.id, listener, entry.index,
                          exc_info=True)
        return True


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
    created: float = 0.0
    commitment: str = ""
    ruleset: str = "quick-start"


def summary_of(game: Game) -> GameSummary:
    state = game.state
    updated = game.entries[-1].at if game.entries else game.created
    return GameSummary(game.id, game.name, state.turn, state.phase, list(state.sides),
                       updated, game.actions_in_effect, state.result, game.created, game.commitment,
                       game.ruleset.id)
