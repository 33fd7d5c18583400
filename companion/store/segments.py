"""One game's folder on disk: its record, its log in segments, its snapshots.

    games/<id>/game.json               the record: name, starting state, dice commitment
    games/<id>/log-00000000.json       entries 0..99     (closed: never written again)
    games/<id>/log-00000100.json       entries 100..199  (closed)
    games/<id>/log-00000200.json       entries 200..     (live: the only file an action rewrites)
    games/<id>/snapshot-00000200.json  the state after entry 199

Each file is a TinyDB database with atomic writes (atomic.py), one document
per log entry.  TinyDB rewrites a whole file on every insert, so the live
segment is kept small: when it holds `segment_size` entries it is closed and
a snapshot of the state is written; the next action opens a new segment.
Saving an action therefore costs the same at entry 100 and at entry 100,000.

A crash can at worst leave a finished segment without its snapshot (the
game then replays a little more when it loads) or a stray temporary file
(removed when the store opens).
"""

from __future__ import annotations

import re
from contextlib import suppress
from pathlib import Path
from typing import Any, Sequence

from pydantic import BaseModel, ValidationError
from tinydb import TinyDB

from .atomic import AtomicJSONStorage, FileLock, SaveFileError, StoreError, short_reason, sync_folder
from .game import GameState, LogEntry
from .repository import GameRecord

GAME_FILE = "game.json"
LOCK_FILE = ".lock"
_LOG = re.compile(r"^log-(\d{8})\.json$")
_SNAPSHOT = re.compile(r"^snapshot-(\d{8})\.json$")
ENTRY_KINDS = ("action", "undo", "redo")


def _open(path: Path, kind: str) -> TinyDB:
    return TinyDB(path, storage=AtomicJSONStorage, kind=kind)


def log_name(start: int) -> str:
    return f"log-{start:08d}.json"


class GameFolder:
    """Reads and appends the files of one game (one object per game per process)."""

    def __init__(self, path: Path, segment_size: int = 100):
        self.path = Path(path)
        self.segment_size = max(1, segment_size)
        self._live: TinyDB | None = None
        self._live_start = 0
        self._live_count = 0
        self._next_index: int | None = None
        self._game_lock = FileLock(self.path / LOCK_FILE)  # against a second process writing the game

    # --- reading ------------------------------------------------------------

    def read_record(self) -> GameRecord:
        path = self.path / GAME_FILE
        if not path.exists():
            raise SaveFileError(path, "is missing: the game's record (its name and starting position) is gone",
                                file_is_bad=False)
        docs = _open(path, "game").table("game").all()
        if len(docs) != 1:
            raise SaveFileError(path, "the file is damaged (it should hold one game record)")
        try:
            return GameRecord.from_doc(dict(docs[0]))  # the record is validated, not just parsed
        except (KeyError, TypeError, ValueError, ValidationError) as exc:
            raise SaveFileError(path, f"the game record is damaged ({short_reason(exc)})") from None

    def segments(self) -> list[tuple[int, Path]]:
        found = [(int(m.group(1)), p) for p in self.path.iterdir() if (m := _LOG.match(p.name))]
        return sorted(found)

    def read_segment(self, start: int, path: Path) -> list[LogEntry]:
        docs = sorted(_open(path, "log").table("entries").all(), key=lambda d: d.get("index", -1))
        entries = []
        for offset, doc in enumerate(docs):
            expected = start + offset
            if doc.get("index") != expected:
                raise SaveFileError(path, f"the file is damaged (log entry {expected} is missing or out of place)")
            if doc.get("kind") not in ENTRY_KINDS or (doc["kind"] == "action" and not isinstance(doc.get("action"), dict)):
                raise SaveFileError(path, f"the file is damaged (log entry {expected} is not an action, undo or redo)")
            entries.append(LogEntry.from_doc(doc))
        return entries

    def read_entries(self) -> list[LogEntry]:
        entries: list[LogEntry] = []
        for start, path in self.segments():
            if start != len(entries):
                raise SaveFileError(
                    path, f"log entries {len(entries)} to {start - 1} are missing (no file holds them)"
                    if start > len(entries) else f"overlaps the log file before it (entry {start})",
                    file_is_bad=False)
            entries.extend(self.read_segment(start, path))
        return entries

    def snapshot_paths(self) -> list[tuple[int, Path]]:
        return sorted((int(m.group(1)), p) for p in self.path.iterdir() if (m := _SNAPSHOT.match(p.name)))

    def read_snapshot(self, index: int, path: Path, state_type: type[BaseModel]) -> Any:
        """The state after log entry `index`, of the game's ruleset's `state_type`."""
        docs = _open(path, "snapshot").table("snapshot").all()
        if len(docs) != 1 or docs[0].get("index") != index:
            raise SaveFileError(path, "the file is damaged (it should hold the state after one log entry)")
        try:
            return state_type.model_validate(docs[0]["state"])
        except (KeyError, ValidationError) as exc:
            raise SaveFileError(path, f"the saved state is damaged ({short_reason(exc)})") from None

    def last_summary(self) -> dict[str, Any] | None:
        """The summary stored with the newest log entry (None for a game without actions)."""
        segments = self.segments()
        if not segments:
            return None
        entries = _open(segments[-1][1], "log").table("entries").all()
        if not entries:
            return None
        newest = max(entries, key=lambda d: d.get("index", -1))
        return newest.get("summary")

    # --- writing ------------------------------------------------------------

    def create(self, record: dict[str, Any], entries: Sequence[dict[str, Any]] = (),
               snapshot: tuple[int, GameState] | None = None) -> None:
        """A new game folder: the log (for an import) first, the record last."""
        self.path.mkdir(parents=True, exist_ok=True)
        sync_folder(self.path.parent)
        for first in range(0, len(entries), self.segment_size):
            chunk = entries[first:first + self.segment_size]
            _open(self.path / log_name(first), "log").table("entries").insert_multiple(chunk)
        if snapshot is not None:
            self.write_snapshot(*snapshot)
        _open(self.path / GAME_FILE, "game").table("game").insert(record)

    def append(self, doc: dict[str, Any], state: GameState) -> None:
        """Save one log entry durably; close the segment (with a snapshot) when it is full."""
        self._claim(doc["index"])
        if self._live is None or self._live_count >= self.segment_size:
            self._live_start, self._live_count = doc["index"], 0
            self._live = _open(self.path / log_name(self._live_start), "log")
        self._live.table("entries").insert(doc)  # from here on the entry is on disk: nothing may fail
        self._live_count += 1
        self._next_index = doc["index"] + 1
        if self._live_count >= self.segment_size:
            self._live = None
            with suppress(OSError):  # a full disk: the snapshot only saves time, the game replays its log instead
                self.write_snapshot(self._next_index, state)

    def write_snapshot(self, index: int, state: GameState) -> None:
        _open(self.path / f"snapshot-{index:08d}.json", "snapshot").table("snapshot").insert(
            {"index": index, "state": state.model_dump(mode="json")})

    def _claim(self, index: int) -> None:
        """Before the first write: lock the game against other processes, find the live segment."""
        if self._next_index is not None:
            if index != self._next_index:
                raise StoreError(f"{self.path.name}: log entry {index} out of turn (expected {self._next_index})")
            return
        if not self._game_lock.acquire():
            raise StoreError(f"game {self.path.name} is being played in another companion process")
        segments = self.segments()
        if segments:
            start, path = segments[-1]
            count = len(self.read_segment(start, path))
            self._live_start, self._live_count = start, count
            self._live = _open(path, "log")
            on_disk = start + count
        else:
            on_disk = 0
        if on_disk != index:
            self._game_lock.release()
            raise StoreError(
                f"game {self.path.name} changed on disk in another companion process "
                f"({on_disk} log entries there, {index} here): open it again")
        self._next_index = index

    def close(self) -> None:
        self._live = None
        self._next_index = None
        self._game_lock.release()
