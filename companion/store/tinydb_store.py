"""Games on disk, in TinyDB: one folder per game under the data folder.

The data folder is `--data DIR`, else the COMPANION_DATA environment
variable, else the user's data folder (`data_folder()`).

Opening the repository cleans up stray temporary files and reads every
game's record and newest log file.  A file that is damaged, empty, cut short
or of an unknown format version is renamed aside with a timestamp (never
changed, never overwritten); a plain message saying which file and what is
wrong goes to `problems`, and that game is left out.  The rest of a game's
files are read when the game is opened (`load`), with the same care.

TinyDB is not safe for two writers: each game's live log file has one
TinyDB object per process (behind the game's lock), and a lock file keeps a
second process from writing the same game.

A new or imported game is written whole under a hidden `.new-<id>-<n>`
folder (its creator holding `.creating` locked inside) and renamed to its
id, so a game folder is complete or absent: a full disk leaves nothing, and
a creation cut off by a crash is removed at the next start.  Games another
companion process adds while this one runs (an import) are read when the
games are listed or one is looked up (`refresh`).
"""

from __future__ import annotations

import os
import secrets
import shutil
import sys
import threading
import time
from contextlib import suppress
from pathlib import Path
from typing import Any, Sequence

from ..engine.registry import find_ruleset
from .atomic import (FileLock, SaveFileError, StoreError, remove_temporary_files, set_aside, set_aside_bad_file,
                     sync_folder)
from .game import GameState, LogEntry, UndoFold
from .repository import LATEST_TIME, CountingSink, GameRecord, Repository, StoredGame, StoredSummary
from .segments import GAME_FILE, GameFolder

ENVIRONMENT_VARIABLE = "COMPANION_DATA"
APP_FOLDER = "leviathans-companion"
SEGMENT_SIZE = 100
NEW_PREFIX = ".new-"  # a game being created or imported: renamed to its id when whole
CREATING = ".creating"  # the lock file its creator holds inside it


def data_folder(explicit: str | Path | None = None) -> Path:
    """`explicit`, else $COMPANION_DATA, else the user's data folder for this app."""
    if explicit:
        return Path(explicit).expanduser()
    if os.environ.get(ENVIRONMENT_VARIABLE):
        return Path(os.environ[ENVIRONMENT_VARIABLE]).expanduser()
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return base / APP_FOLDER


class _DiskSink(CountingSink):
    def __init__(self, repository: "TinyDBRepository", game_id: str, entries: list[LogEntry]):
        super().__init__(repository, game_id, entries)
        self.folder = repository._folder(game_id)

    def save(self, entry: LogEntry, state: GameState, summary: StoredSummary) -> None:
        self.folder.append({**entry.to_doc(), "summary": summary.to_doc()}, state)


class TinyDBRepository(Repository):
    """The repository of games kept under `root/games/` (see module doc)."""

    def __init__(self, root: str | Path, segment_size: int = SEGMENT_SIZE):
        super().__init__(threading.RLock())
        self.root = Path(root)
        self.games_dir = self.root / "games"
        self.where = f" in {self.games_dir}"
        self.segment_size = segment_size
        self._folders: dict[str, GameFolder] = {}
        self._seen: set[str] = set()  # game folder names read once (listed or named in problems)
        try:
            self.games_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"{self.games_dir}: cannot use this data folder ({exc.strerror})") from None
        self._scan()

    # --- opening ------------------------------------------------------------

    def _scan(self) -> None:
        for path in sorted(self.games_dir.iterdir()):
            if path.name.startswith(NEW_PREFIX) and path.is_dir():
                _remove_abandoned(path)
            if not path.is_dir() or path.name.startswith("."):
                continue
            remove_temporary_files(path)
            if not (path / GAME_FILE).exists() and not any(".bad-" in p.name for p in path.iterdir()):
                self._clear_interrupted(path)
                continue
            self._read_game(path)

    def _read_game(self, path: Path) -> None:
        """A game folder's record and newest summary into the listing, or its problem named."""
        self._seen.add(path.name)
        kept = sorted(p.name for p in path.iterdir() if ".bad-" in p.name)
        if kept:
            self.problems.append(
                f"{path}: {', '.join(kept)} {'was' if len(kept) == 1 else 'were'} set aside earlier as damaged; "
                "the game is left out until the file is put right (or removed with its game)")
            return
        folder = GameFolder(path, self.segment_size)
        try:
            record = folder.read_record()
            summary = folder.last_summary()
        except SaveFileError as exc:
            self._set_aside(exc, path.name)
            return
        record.id = path.name
        self.records[path.name] = record
        self.summaries[path.name] = _summary(summary, record)

    def refresh(self) -> None:
        """Read the games another companion process added since this one started (an import, a
        new game): a game folder appears whole, renamed from NEW_PREFIX, so it is read as at the
        start.  Folders already known here (listed, left out or deleted) are not read again."""
        with self.lock:
            try:
                names = sorted(os.listdir(self.games_dir))
            except OSError:
                return
            for name in names:
                if name in self._seen or name.startswith("."):
                    continue
                path = self.games_dir / name
                if (path / GAME_FILE).is_file():
                    self._read_game(path)

    def _clear_interrupted(self, path: Path) -> None:
        """A game folder without its record: a creation or import that an older version left half
        done (this one builds a game under NEW_PREFIX and renames it whole).  Its files are moved
        to `deleted/` and named once (issue 11: it was named at every start)."""
        files = [p.name for p in path.iterdir() if not p.name.startswith(".")]
        try:
            target = self._trash(path, path.name + "-interrupted")
        except OSError as exc:
            self.problems.append(f"{path}: an import or a new game was interrupted (no {GAME_FILE}); "
                                 f"it could not be moved aside ({exc.strerror}) and is left out.")
            return
        if files:
            self.problems.append(f"{path}: an import or a new game was interrupted before it was saved whole "
                                 f"(no {GAME_FILE}); its files were moved to {target}.")

    def _trash(self, source: Path, name: str) -> Path:
        """Move a game folder to `deleted/` beside `games/` (nothing is destroyed); where it went."""
        trash = self.root / "deleted"
        trash.mkdir(exist_ok=True)
        return set_aside(source, trash, f"{name}-")

    def _set_aside(self, exc: SaveFileError, game_id: str) -> str:
        kept = set_aside_bad_file(exc)
        message = f"{exc.path}: {exc.problem}. {kept}; game {game_id} could not be opened."
        self.problems.append(message)
        return message

    # --- the repository interface ----------------------------------------------

    def new_id(self) -> str:
        while True:
            game_id = time.strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(2)
            if not (self.games_dir / game_id).exists():
                return game_id

    def create(self, record: GameRecord, entries: Sequence[LogEntry] = (),
               snapshot: tuple[int, GameState] | None = None) -> None:
        """Write the game whole under a hidden name, then rename it to its id: a game folder is
        complete or absent.  A failure (a full disk) leaves nothing and says so in one line."""
        with self.lock:
            final = self.games_dir / record.id
            if final.exists():
                raise StoreError(f"there is already a game '{record.id}'")
            docs = [entry.to_doc() for entry in entries]
            updated = entries[-1].at if entries else record.created
            state = snapshot[1] if snapshot else record.initial
            summary = StoredSummary.of(state, len(UndoFold(entries).done), updated)
            if docs:  # the listing of a later start reads the last entry's summary
                docs[-1] = {**docs[-1], "summary": summary.to_doc()}
            building = self.games_dir / f"{NEW_PREFIX}{record.id}-{secrets.token_hex(2)}"
            try:
                self._build(building, final, record.to_doc(), docs, snapshot)
            except OSError as exc:
                shutil.rmtree(building, ignore_errors=True)
                raise StoreError(f"{final}: the game could not be saved ({exc.strerror or exc}); "
                                 "nothing was kept") from None
            self._seen.add(record.id)
            self.records[record.id] = record
            self.summaries[record.id] = summary

    def _build(self, building: Path, final: Path, record: dict[str, Any], docs: list[dict[str, Any]],
               snapshot: tuple[int, GameState] | None) -> None:
        building.mkdir()
        lock = FileLock(building / CREATING)  # a later start removes the folder only if this is let go
        lock.acquire()
        with lock:
            GameFolder(building, self.segment_size).create(record, docs, snapshot)
            if os.name == "nt":  # Windows renames no folder with an open file in it
                lock.release()
            os.rename(building, final)
        with suppress(OSError):
            (final / CREATING).unlink()
        sync_folder(self.games_dir)

    def load(self, game_id: str) -> StoredGame:
        record = self.record(game_id)
        folder = self._folder(game_id)
        try:
            entries = folder.read_entries()
        except SaveFileError as exc:
            with self.lock:
                self.records.pop(game_id, None)
                self._folders.pop(game_id, None)
            raise StoreError(self._set_aside(exc, game_id)) from None
        snapshots: dict[int, GameState] = {}
        for index, path in folder.snapshot_paths():
            if index > len(entries):
                continue
            try:
                snapshots[index] = folder.read_snapshot(index, path, find_ruleset(record.ruleset).state_type)
            except SaveFileError as exc:  # a snapshot only saves time: the game loads without it
                moved = set_aside(exc.path).name
                self.problems.append(f"{exc.path}: {exc.problem}. It was kept as {moved}; the game replays its log instead.")
        return StoredGame(record, entries, snapshots)

    def sink(self, game_id: str, entries: list[LogEntry]) -> _DiskSink:
        return _DiskSink(self, game_id, entries)

    def delete(self, game_id: str) -> None:
        """Move the game's folder to `deleted/` beside `games/` (nothing is destroyed)."""
        with self.lock:
            self.record(game_id)
            folder = self._folders.pop(game_id, None)
            if folder:
                folder.close()
            self._trash(self.games_dir / game_id, game_id)
            self.records.pop(game_id, None)
            self.summaries.pop(game_id, None)

    def close(self) -> None:
        with self.lock:
            for folder in self._folders.values():
                folder.close()
            self._folders.clear()

    def _folder(self, game_id: str) -> GameFolder:
        with self.lock:
            if game_id not in self._folders:
                self._folders[game_id] = GameFolder(self.games_dir / game_id, self.segment_size)
            return self._folders[game_id]


def _remove_abandoned(path: Path) -> None:
    """Remove a game folder whose creation was cut off (its creator let go of its lock: it is gone)."""
    lock = FileLock(path / CREATING)
    try:
        if not lock.acquire():
            return  # another companion process is writing it right now
    except OSError:
        return
    with lock:
        shutil.rmtree(path, ignore_errors=True)


def _summary(doc: Any, record: GameRecord) -> StoredSummary:
    """The listing's summary kept with the newest entry; a value that is not what the store writes
    (an unchecked import of an older version: a date of 1e300) falls back to the record's."""
    initial = record.initial
    try:  # no summary (None), or one that is not an object, has no `get`
        summary = StoredSummary(
            turn=int(doc.get("turn", initial.turn)), phase=str(doc.get("phase", initial.phase)),
            actions=int(doc.get("actions", 0)), result=doc.get("result"),
            updated=float(doc.get("updated", record.created)))
    except (AttributeError, TypeError, ValueError, OverflowError):
        return StoredSummary.of(initial, 0, record.created)
    if not 0 <= summary.updated <= LATEST_TIME:
        summary.updated = record.created
    return summary
