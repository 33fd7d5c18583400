"""War Fleet games on disk: one atomic JSON file per game under `<data>/warfleet/`.

    warfleet/<id>.json    {"format": "leviathans-warfleet-save/1", "id", "name", "created",
                           "updated", "summary", "initial", "done", "undone", "pockets"}

A game is its starting state (which carries the dice roller: seed and
counter) and its log: the actions in effect, each with the events it gave
and when, the actions undone and not yet redone (for redo), and the
Quick-Start game of each pocket battle.  The whole file is written again
after every act, undo and redo, with the store's atomic writer (temporary
file, flush, rename, flush the folder: after a crash the file is the old one
or the new one).  Opening a game replays its actions from the starting
state; the roller lives in the state, so the replay rolls the same dice.

Opening the folder reads every file.  One that is empty, cut short, damaged
or of an unknown format version is renamed aside with a timestamp
(`<id>.json.bad-<stamp>`, never changed, never overwritten) and named in
`problems` in plain words; the other games still open.  A file set aside
earlier is named again at each start until it is put right or removed.

Two companion processes on one data folder (issue 11): every save takes the
folder's lock file (`warfleet/.lock`) and first checks that the file on disk
is the one this process last read or wrote (by its SHA-256); if another
process wrote it since, the save is refused in plain words and nothing is
written, so no process ever overwrites actions another one reported done.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..engine.game import Event
from ..engine.warfleet import actions as A
from ..engine.warfleet.state import WarFleetState
from .atomic import (SaveFileError, StoreError, read_document, remove_temporary_files, set_aside_bad_file,
                     short_reason, write_atomic, write_lock)

FOLDER = "warfleet"
SAVE_FORMAT = "leviathans-warfleet-save/1"
SAVE_FAMILY = "leviathans-warfleet-save/"
LOCK_FILE = ".lock"
_SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


@dataclass
class Done:
    """One action in effect: the action, the events it gave, when."""

    action: Any  # a War Fleet action model
    events: list[Event]
    at: float = 0.0


@dataclass
class WarFleetRecord:
    """Everything a saved War Fleet game holds (the state is the replay of `done`)."""

    id: str
    name: str
    created: float
    updated: float
    initial: WarFleetState
    done: list[Done] = field(default_factory=list)
    undone: list[Any] = field(default_factory=list)  # latest last
    pockets: dict[int, str] = field(default_factory=dict)
    state: WarFleetState | None = None  # the state after `done` (for the summary); replayed on opening


@dataclass(frozen=True)
class WarFleetSummary:
    """A saved War Fleet game as the home screen lists it."""

    id: str
    name: str
    turn: int
    phase: str
    sides: list[str]
    actions: int
    result: str | None
    created: float
    updated: float


class UnknownWarFleetGame(StoreError, KeyError):
    """No War Fleet game by that id, or one that cannot be opened; the message says which and why."""

    def __str__(self) -> str:
        return self.args[0] if self.args else "no such War Fleet game"


# --- the file -------------------------------------------------------------------------------


def encode(record: WarFleetRecord, initial_json: str | None = None) -> bytes:
    """The save file of a record (`initial_json`: the starting state already dumped, to save time)."""
    state = record.state or record.initial
    head = {
        "format": SAVE_FORMAT, "id": record.id, "name": record.name,
        "created": record.created, "updated": record.updated,
        "summary": {"turn": state.turn, "phase": state.phase, "sides": list(state.sides),
                    "actions": len(record.done), "result": state.result},
        "done": [{"action": _action_doc(d.action), "events": [e.model_dump(mode="json") for e in d.events],
                  "at": d.at} for d in record.done],
        "undone": [_action_doc(a) for a in record.undone],
        "pockets": {str(k): v for k, v in record.pockets.items()},
    }
    text = json.dumps(head, ensure_ascii=False, separators=(",", ":"))
    initial = initial_json if initial_json is not None else record.initial.model_dump_json(by_alias=True)
    return (text[:-1] + ',"initial":' + initial + "}").encode("utf-8")


def _action_doc(action) -> dict[str, Any]:
    return action.model_dump(mode="json", by_alias=True)


def decode(raw: bytes, path: Path) -> tuple[WarFleetRecord, WarFleetSummary]:
    """A record and its summary from a save file's bytes, or SaveFileError saying what is wrong."""
    data = _document(raw, path)
    try:
        record = WarFleetRecord(
            id=str(data["id"]), name=str(data["name"]), created=float(data["created"]),
            updated=float(data["updated"]), initial=WarFleetState.model_validate(data["initial"]),
            done=[Done(_action(d["action"]), [Event.model_validate(e) for e in d["events"]], float(d.get("at", 0)))
                  for d in data["done"]],
            undone=[_action(a) for a in data["undone"]],
            pockets={int(k): str(v) for k, v in data["pockets"].items()},
        )
        summary = data["summary"]
        summary = WarFleetSummary(record.id, record.name, int(summary["turn"]), str(summary["phase"]),
                                  [str(s) for s in summary["sides"]], int(summary["actions"]),
                                  summary.get("result"), record.created, record.updated)
    except (KeyError, TypeError, ValueError, AttributeError, ValidationError) as exc:
        raise SaveFileError(path, f"the file is damaged ({short_reason(exc)})") from None
    return record, summary


def _document(raw: bytes, path: Path) -> dict[str, Any]:
    return read_document(raw, path, SAVE_FORMAT, SAVE_FAMILY, "War Fleet save file")


def _action(doc):
    return A.WarFleetActionEnvelope(action=doc).action


# --- the folder -------------------------------------------------------------------------------


class WarFleetSaves:
    """The War Fleet save files of a data folder (see module doc).  Thread-safe."""

    def __init__(self, root: str | Path):
        self.folder = Path(root) / FOLDER
        self.problems: list[str] = []
        self._summaries: dict[str, WarFleetSummary] = {}
        self._initial_json: dict[str, tuple[WarFleetState, str]] = {}
        self._known: dict[str, str] = {}  # id -> SHA-256 of the file as this process last read or wrote it
        self._lock = threading.RLock()
        if self.folder.is_dir():
            self._scan()

    def _scan(self) -> None:
        remove_temporary_files(self.folder)
        for path in sorted(self.folder.iterdir()):
            if ".json.bad-" in path.name:
                self.problems.append(
                    f"{path}: was set aside earlier as damaged; that War Fleet game is left out until the file "
                    f"is put right and renamed back to {path.name.split('.json.bad-')[0]}.json (or removed)")
                continue
            if path.suffix != ".json" or not _SAFE_ID.match(path.stem) or not path.is_file():
                continue
            try:
                _, summary = decode(self._read(path), path)
            except SaveFileError as exc:
                self._set_aside(exc)
                continue
            self._summaries[path.stem] = summary

    def _read(self, path: Path) -> bytes:
        try:
            return path.read_bytes()
        except OSError as exc:
            raise SaveFileError(path, f"cannot be read ({exc.strerror or exc.__class__.__name__})",
                                file_is_bad=False) from None

    def _set_aside(self, exc: SaveFileError) -> str:
        kept = set_aside_bad_file(exc)
        message = f"{exc.path}: {exc.problem}. {kept}; that War Fleet game could not be opened."
        self.problems.append(message)
        return message

    # --- reading ----------------------------------------------------------------------------

    def new_id(self) -> str:
        with self._lock:
            while True:
                game_id = "wf-" + time.strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(2)
                if game_id not in self._summaries and not self.path(game_id).exists():
                    return game_id

    def path(self, game_id: str) -> Path:
        return self.folder / f"{game_id}.json"

    def ids(self) -> list[str]:
        with self._lock:
            return list(self._summaries)

    def summaries(self) -> list[WarFleetSummary]:
        """Every saved War Fleet game, most recently played first."""
        with self._lock:
            return sorted(self._summaries.values(), key=lambda s: -s.updated)

    def load(self, game_id: str) -> WarFleetRecord:
        """A saved game's record (UnknownWarFleetGame if there is none or its file is bad: then set aside)."""
        with self._lock:
            if not _SAFE_ID.match(game_id or "") or game_id not in self._summaries:
                raise UnknownWarFleetGame(f"no War Fleet game '{game_id}'")
            path = self.path(game_id)
            try:
                raw = self._read(path)
                record, _ = decode(raw, path)
            except SaveFileError as exc:
                self._summaries.pop(game_id, None)
                raise UnknownWarFleetGame(self._set_aside(exc)) from None
            record.id = game_id  # the file's name wins (a copied file keeps its old id inside)
            self._known[game_id] = _digest(raw)
            self._initial_json[game_id] = (record.initial, record.initial.model_dump_json(by_alias=True))
            return record

    def unusable(self, game_id: str, reason: str) -> str:
        """A game whose file reads but does not replay: named in `problems`, left out, file untouched."""
        with self._lock:
            self._summaries.pop(game_id, None)
            message = f"{self.path(game_id)}: War Fleet game {game_id} cannot be opened: {reason}. The file is left as it is."
            self.problems.append(message)
            return message

    # --- writing ------------------------------------------------------------------------------

    def save(self, record: WarFleetRecord) -> None:
        """Write the game's file whole (OSError or StoreError if it cannot be written: nothing changed)."""
        if not _SAFE_ID.match(record.id):
            raise StoreError(f"'{record.id}' is not a War Fleet game id")
        with self._lock:
            cached = self._initial_json.get(record.id)
            if cached is None or cached[0] is not record.initial:
                cached = (record.initial, record.initial.model_dump_json(by_alias=True))
            payload = encode(record, cached[1])
            self.folder.mkdir(parents=True, exist_ok=True)
            with write_lock(self.folder / LOCK_FILE, "the War Fleet games"):
                self._check_unchanged(record.id)
                write_atomic(self.path(record.id), payload)
            self._known[record.id] = _digest(payload)
            self._initial_json[record.id] = cached
            state = record.state or record.initial
            self._summaries[record.id] = WarFleetSummary(
                record.id, record.name, state.turn, state.phase, list(state.sides), len(record.done),
                state.result, record.created, record.updated)


    def _check_unchanged(self, game_id: str) -> None:
        """StoreError unless the game's file is as this process last read or wrote it (or, for a
        game new here, absent): another companion process on the folder may have written it."""
        path = self.path(game_id)
        try:
            on_disk = _digest(path.read_bytes())
        except FileNotFoundError:
            on_disk = None
        if on_disk != self._known.get(game_id):
            raise StoreError(
                f"War Fleet game {game_id} was saved by another companion process on this data folder "
                "since it was opened here; nothing was changed (restart the companion to play it on here)")


def _digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


_OPEN: dict[Path, WarFleetSaves] = {}
_OPEN_LOCK = threading.Lock()


def saves_for(store) -> WarFleetSaves | None:
    """The War Fleet saves beside a store's games (one per data folder in this process); None for a
    store without a data folder (a `MemoryStore`: War Fleet games then live in memory only)."""
    folder = getattr(store, "folder", None)
    if folder is None:
        return None
    path = Path(folder).resolve()
    with _OPEN_LOCK:
        if path not in _OPEN:
            _OPEN[path] = WarFleetSaves(path)
        return _OPEN[path]


__all__ = ["Done", "SAVE_FORMAT", "UnknownWarFleetGame", "WarFleetRecord", "WarFleetSaves", "WarFleetSummary",
           "decode", "encode", "saves_for"]
