"""Save files that land whole or not at all: a TinyDB storage with atomic writes.

TinyDB's own JSONStorage rewrites its file in place, so a process killed in
the middle of a write can leave half a file.  `AtomicJSONStorage` writes the
whole database to a temporary file in the same folder, flushes it to disk,
renames it over the old file and flushes the folder: after a crash the file
is either the old one or the new one.  Stray temporary files (from a crash
between writing and renaming) are removed by `remove_temporary_files`.

Every save file is wrapped with its format version:
`{"format": "leviathans-save/1", "kind": "log", "tables": {...}}`.  Reading a
damaged file or an unknown version raises `SaveFileError`, which names the
file and says what is wrong in plain words.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import sys
import time
from contextlib import suppress
from pathlib import Path
from typing import Any, BinaryIO

from pydantic import ValidationError
from tinydb.storages import Storage

try:  # POSIX: the lock is fcntl's
    import fcntl
except ImportError:  # Windows (msvcrt's lock) or a platform with neither
    fcntl = None  # type: ignore[assignment]
if sys.platform == "win32":  # msvcrt is Windows-only
    import msvcrt

SAVE_FORMAT = "leviathans-save/1"
SAVE_FAMILY = "leviathans-save/"
TEMPORARY_SUFFIX = ".tmp"


class StoreError(ValueError):
    """A plain-words failure of the game store (a missing game, a busy game, a bad file)."""


class SaveFileError(StoreError):
    """A save file that cannot be used: which file, and what is wrong with it."""

    def __init__(self, path: Path | str, problem: str, file_is_bad: bool = True):
        self.path, self.problem = Path(path), problem
        self.file_is_bad = file_is_bad  # False: the file is fine, something around it is missing
        super().__init__(f"{self.path}: {problem}")


def read_document(raw: bytes, path: Path, save_format: str = SAVE_FORMAT, family: str = SAVE_FAMILY,
                  what: str = "companion save file") -> dict[str, Any]:
    """The JSON object of a save file tagged `save_format`, or SaveFileError saying in plain words
    what is wrong: empty, not text, cut short, no tag, another kind of file, or a newer version."""
    if not raw.strip():
        raise SaveFileError(path, "the file is empty")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise SaveFileError(path, "the file is damaged (it is not text)") from None
    except json.JSONDecodeError as exc:
        raise SaveFileError(
            path, f"the file is damaged or cut short (not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno})"
        ) from None
    except RecursionError:  # a value nested deeper than Python reads (issue 11)
        raise SaveFileError(path, "the file is damaged (nested too deep to be read)") from None
    tag = data.get("format") if isinstance(data, dict) else None
    if not isinstance(tag, str):
        raise SaveFileError(path, f"not a {what} (no \"format\" tag)")
    if tag != save_format:
        if tag.startswith(family):
            raise SaveFileError(
                path, f"saved in format {tag}, which this version of the companion cannot read "
                f"(it reads {save_format}); a newer version probably wrote it"
            )
        raise SaveFileError(path, f"not a {what} (format \"{tag}\")")
    assert isinstance(data, dict)  # a str tag was read from it
    return data


def decode(raw: bytes, path: Path, kind: str) -> dict[str, dict[str, Any]]:
    """The tables of a save file, or SaveFileError saying what is wrong."""
    data = read_document(raw, path)
    if data.get("kind") != kind:
        raise SaveFileError(path, f"holds a \"{data.get('kind')}\" where a \"{kind}\" file belongs")
    tables = data.get("tables")
    if not isinstance(tables, dict) or not all(
        isinstance(t, dict) and all(isinstance(d, dict) for d in t.values()) for t in tables.values()
    ):
        raise SaveFileError(path, "the file is damaged (its tables are not in the expected shape)")
    return tables


def encode(tables: dict[str, dict[str, Any]], kind: str) -> bytes:
    return json.dumps({"format": SAVE_FORMAT, "kind": kind, "tables": tables},
                      ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def write_atomic(path: Path, payload: bytes) -> None:
    """Write a temporary file, flush it, rename it over `path`, flush the folder."""
    path = Path(path)
    folder = path.parent
    temporary = folder / f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}{TEMPORARY_SUFFIX}"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o644)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary)
        raise
    sync_folder(folder)


def sync_folder(folder: Path) -> None:
    """Flush a folder's entries (a rename or a new file) to disk; not possible on Windows."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


STALE_AFTER = 600.0  # seconds: no write takes this long, so its temporary file is abandoned
_WRITER = re.compile(r"\.(\d+)-[0-9a-f]+" + re.escape(TEMPORARY_SUFFIX) + "$")


def remove_temporary_files(folder: Path) -> int:
    """Delete what a crash between writing and renaming left behind; how many.  A temporary file
    another companion process is writing right now is left alone (issue 11: removing it made that
    process's save fail): only one whose writer is gone, or one older than STALE_AFTER, goes."""
    removed = 0
    for stray in Path(folder).glob(f".*{TEMPORARY_SUFFIX}"):
        if not _abandoned(stray):
            continue
        with suppress(OSError):
            stray.unlink()
            removed += 1
    return removed


def _abandoned(stray: Path) -> bool:
    try:
        if time.time() - stray.stat().st_mtime > STALE_AFTER:
            return True
    except OSError:
        return False
    match = _WRITER.search(stray.name)
    if match is None:
        return True  # not one of ours by its name: not a write in progress
    pid = int(match.group(1))
    if pid == os.getpid():
        return False  # another thread of this process may be writing it
    if os.name == "nt":  # no harmless way to ask whether a process lives: wait until it is stale
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # it lives, under another user
    return False


class FileLock:
    """An advisory lock on a lock file, shared by every companion process on the data folder.

    `fcntl.flock` on POSIX, `msvcrt.locking` on Windows; where neither exists
    the lock is a no-op (one companion process per data folder, by convention).
    The lock belongs to the open file, so two `FileLock`s on one path conflict
    even inside one process.  `acquire(wait)` tries for `wait` seconds (0: once).
    """

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self._handle: BinaryIO | None = None

    def acquire(self, wait: float = 0.0) -> bool:
        if self._handle is not None:
            return True
        handle = open(self.path, "a+b")
        deadline = time.monotonic() + wait
        while True:
            if _try_lock(handle):
                self._handle = handle
                return True
            if time.monotonic() >= deadline:
                handle.close()
                return False
            time.sleep(0.005)

    def release(self) -> None:
        if self._handle is not None:
            handle, self._handle = self._handle, None
            handle.close()  # closing the file releases the lock

    def __enter__(self) -> "FileLock":
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _try_lock(handle: BinaryIO) -> bool:
    if fcntl is not None:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except OSError:
            return False
    if sys.platform == "win32":  # msvcrt is Windows-only
        try:
            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
    return True  # neither lock exists here


WRITE_WAIT = 10.0  # seconds a write waits for another process's write to finish


def write_lock(path: Path | str, what: str) -> FileLock:
    """The lock on `path`, held (for a short read-change-write), or StoreError in plain words."""
    lock = FileLock(path)
    try:
        got = lock.acquire(WRITE_WAIT)
    except OSError as exc:
        raise StoreError(f"{path}: cannot lock {what} ({exc.strerror or exc}); nothing was changed") from None
    if not got:
        raise StoreError(f"another companion process has been writing {what} for {WRITE_WAIT:.0f} s; "
                         "nothing was changed: try again")
    return lock


def set_aside(path: Path, into: Path | None = None, prefix: str | None = None) -> Path:
    """Rename a bad file with a timestamp, never touching its contents (or move a game's folder
    `into` another folder, named `prefix` and the time); the new path."""
    path = Path(path)
    folder, prefix = into or path.parent, prefix or f"{path.name}.bad-"
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = folder / f"{prefix}{stamp}"
    n = 1
    while target.exists():
        n += 1
        target = folder / f"{prefix}{stamp}-{n}"
    os.rename(path, target)
    sync_folder(path.parent)
    return target


def set_aside_bad_file(exc: SaveFileError) -> str:
    """Set aside the file `exc` names if the file itself is bad; what became of it, in plain words."""
    if not exc.file_is_bad:
        return "Nothing was changed"
    try:
        return f"The file was kept, untouched, as {set_aside(exc.path).name}"
    except OSError as err:
        return f"The file could not be renamed ({err.strerror}) and is left as it is"


def short_reason(exc: Exception) -> str:
    """One line for why a saved record could not be read (a pydantic error's first problem)."""
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        return f"{where}: {first.get('msg', 'invalid')}" if where else first.get("msg", "invalid")
    if isinstance(exc, KeyError):
        return f"missing {exc.args[0]!r}"
    return str(exc) or exc.__class__.__name__


class AtomicJSONStorage(Storage):
    """A TinyDB storage whose every write replaces the file whole (see module doc).

    `kind` names what the file holds (`game`, `log`, `snapshot`); it is
    checked on reading, with the format version.  A missing file reads as an
    empty database and is created by the first write.
    """

    def __init__(self, path: str | Path, kind: str):
        self.path = Path(path)
        self.kind = kind

    def read(self) -> dict[str, dict[str, Any]] | None:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise SaveFileError(self.path, f"cannot be read ({exc.strerror or exc.__class__.__name__})") from None
        return decode(raw, self.path, self.kind)

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        write_atomic(self.path, encode(data, self.kind))

    def close(self) -> None:
        pass
