"""The store: games that survive anything, over a repository (memory or TinyDB).

`store.new_game(initial, name)` starts a game with a fresh secret dice seed
(from `secrets`; only its SHA-256 commitment is shown until the game is
over), `store.games()` lists summaries, `store.game(id)` hands out the one
live `Game` object for that id (the same object every time, so every browser
session acts through it, in order).  `store.problems` lists, in plain words,
every save file that could not be used and where it was kept.
"""

from __future__ import annotations

import secrets
import threading
import time
from pathlib import Path
from typing import Any

from ..engine.roller import Roller
from ..engine.ruleset import AnyRuleset
from ..engine.registry import find_ruleset, ruleset_of_state
from .atomic import StoreError
from .export import game_document, read_game_document
from .game import Game, GameState, GameSummary, LogEntry, summary_of
from .import_warfleet import import_war_fleet_saves
from .repository import GameRecord, MemoryRepository, Repository, StoredGame, StoredSummary
from .tinydb_store import SEGMENT_SIZE, TinyDBRepository, data_folder


class UnknownGame(StoreError, KeyError):
    """No game by that id, or one that cannot be opened (a KeyError too, for callers
    that look games up like a dict); the message says which and why."""

    def __str__(self) -> str:
        return self.args[0] if self.args else "no such game"


PLACEHOLDER_ROLLER = Roller(seed="00")  # the default roller of every state type: never a game's dice


class Store:
    """Games over a repository; one live `Game` per id per store."""

    def __init__(self, repository: Repository) -> None:
        self.repository = repository
        self._games: dict[str, Game] = {}
        self._lock = threading.RLock()

    @property
    def problems(self) -> list[str]:
        """Plain messages about save files that could not be used (empty when all is well)."""
        return list(self.repository.problems)

    # --- games ------------------------------------------------------------------

    def new_game(self, initial: Any, name: str = "", *, roller: Roller | None = None,
                 ruleset: AnyRuleset | None = None) -> Game:
        """A new game from a starting state (of any ruleset: by default the one that plays its
        state type; a house-rules variant is passed as `ruleset`), with its dice roller.

        The roller is `roller` if given, else the starting state's own if it has
        one (a seed chosen by the caller: tests, COMPANION_SEED), else a fresh
        256-bit secret seed from `secrets` (the default `GameState` roller is a
        placeholder and is always replaced).
        """
        ruleset = ruleset or ruleset_of_state(initial)
        if roller is None:
            roller = initial.roller if initial.roller != PLACEHOLDER_ROLLER else Roller(seed=secrets.token_hex(32))
        initial = initial.model_copy(update={"roller": roller})
        with self._lock:
            record = GameRecord(self.repository.new_id(), name or time.strftime("Game of %d %b %Y, %H:%M"), time.time(),
                                roller.commitment, initial, ruleset.id)
            self.repository.create(record)
            return self._open(record, [], {})

    def refresh(self) -> None:
        """Notice games another companion process added to the data folder (an import)."""
        refresh = getattr(self.repository, "refresh", None)
        if refresh:
            refresh()

    def games(self) -> list[GameSummary]:
        """Every game, most recently played first (with any another process added since)."""
        self.refresh()
        with self._lock:
            summaries = []
            for game_id in self.repository.game_ids():
                if game_id in self._games:
                    summaries.append(summary_of(self._games[game_id]))
                    continue
                record = self.repository.record(game_id)
                stored = self.repository.summaries.get(game_id) or StoredSummary.of(record.initial, 0, record.created)
                summaries.append(GameSummary(
                    record.id, record.name, stored.turn, stored.phase, list(record.initial.sides),
                    stored.updated, stored.actions, stored.result, record.created, record.commitment,
                    record.ruleset))
        return sorted(summaries, key=lambda s: -s.updated)

    def game(self, game_id: str) -> Game:
        """The live game (loaded from its snapshot and log the first time)."""
        with self._lock:
            if game_id in self._games:
                return self._games[game_id]
            if game_id not in self.repository.game_ids():
                self.refresh()
            if game_id not in self.repository.game_ids():
                raise UnknownGame(f"no game '{game_id}'")
            try:
                stored = self.repository.load(game_id)
            except StoreError as exc:  # a damaged file: set aside, and said in `problems`
                raise UnknownGame(str(exc)) from None
            try:
                return self._open(stored.record, stored.entries, stored.snapshots)
            except ValueError as exc:
                message = f"game {game_id} ({stored.record.name}) cannot be opened: {exc}"
                self.repository.problems.append(message)
                raise UnknownGame(message) from None

    def stored(self, game_id: str) -> StoredGame:
        """A read-only copy of a game's record and log (for export, replay, verify)."""
        with self._lock:
            if game_id in self._games:
                game = self._games[game_id]
                with game.lock:
                    return StoredGame(self.repository.record(game_id), list(game.entries))
            if game_id not in self.repository.game_ids():
                raise UnknownGame(f"no game '{game_id}'")
            return self.repository.load(game_id)

    def find(self, text: str) -> str:
        """A game id from an id, the start of an id, or a game's name."""
        self.refresh()
        ids = self.repository.game_ids()
        if text in ids:
            return text
        matches = [i for i in ids if i.startswith(text)] or [
            i for i in ids if self.repository.record(i).name.casefold() == text.casefold()]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise StoreError(f"'{text}' could be any of {', '.join(sorted(matches))}: give more of the id")
        known = ", ".join(f"{i} ({self.repository.record(i).name})" for i in sorted(ids)) or "none yet"
        raise UnknownGame(f"no game '{text}' (games: {known})")

    def delete(self, game_id: str) -> None:
        with self._lock:
            self._games.pop(game_id, None)
            self.repository.delete(game_id)

    # --- import and export -----------------------------------------------------------

    def export_game(self, game_id: str) -> dict[str, Any]:
        """The whole game as one `leviathans-game/1` document."""
        return game_document(self.stored(game_id))

    def import_game(self, data: Any, source: str = "") -> Game:
        """A game from a `leviathans-game/1` document (FormatError if it is not one)."""
        record, entries, game = read_game_document(data, source)
        with self._lock:
            record.id = self.repository.free_id(record.id)
            self.repository.create(record, entries, (len(entries), game.state))
            opened = self._open(record, entries, {}, state=game.state)
            opened.reworded = game.reworded  # the import's line says so (export.replayed)
            return opened

    # --- helpers ---------------------------------------------------------------------

    def _open(self, record: GameRecord, entries: list[LogEntry], snapshots: dict[int, GameState],
              state: GameState | None = None) -> Game:
        game = Game(record.id, record.name, record.initial, entries,
                    sink=self.repository.sink(record.id, entries), snapshots=snapshots,
                    created=record.created, state=state, ruleset=find_ruleset(record.ruleset))
        self._games[record.id] = game
        return game

    def close(self) -> None:
        close = getattr(self.repository, "close", None)
        if close:
            close()


class MemoryStore(Store):
    """Games kept in memory only: for tests and for trying things out."""

    def __init__(self) -> None:
        super().__init__(MemoryRepository())


class TinyDBStore(Store):
    """Games kept on disk under a data folder (see tinydb_store.py)."""

    def __init__(self, folder: str | Path | None = None, segment_size: int = SEGMENT_SIZE):
        self.folder = data_folder(folder)
        super().__init__(TinyDBRepository(self.folder, segment_size))
        self.imported = import_war_fleet_saves(self.folder, self.repository)  # the old War Fleet files, once


_OPEN: dict[Path, TinyDBStore] = {}
_OPEN_LOCK = threading.Lock()


def open_store(folder: str | Path | None = None) -> TinyDBStore:
    """The one store of a data folder in this process (TinyDB allows one writer)."""
    path = data_folder(folder).resolve()
    with _OPEN_LOCK:
        if path not in _OPEN:
            _OPEN[path] = TinyDBStore(path)
        return _OPEN[path]
