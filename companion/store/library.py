"""The player's own ship cards, kept in the data folder beside the saved games.

    <data folder>/cards/library.json    one TinyDB document per card (atomic writes, atomic.py)

Shipped cards (the files under `fleets/`) are never edited in place: editing
one makes the player's copy (`player_copy`) with an id of its own and a
`sources.based_on` note naming the card it was copied from.  A player's card
id always starts with `my-` and a shipped card id never does, so the two can
never clash and a newer shipped fleet can neither replace nor wipe a player's
card: the library is a separate file that only the player's actions write.

`catalogue_of(library)` is what the app plays with: the shipped fleets plus
the player's cards (a `dict` by id from `Catalogue.cards()`).  Shipped fleet
files are re-read only when they change on disk.

A damaged or unknown-version library file is set aside (renamed with a
timestamp, never overwritten) and named in `problems`, as the game store does;
a stored card that no longer validates is kept in the file untouched, left out
of the library and named in `problems`.
"""

from __future__ import annotations

import json
import re
import threading
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Generic, Iterable, TypeVar

from tinydb import Query, TinyDB
from tinydb.storages import MemoryStorage

from ..engine.cards import FLEET_FORMAT, Card, Fleet, FormatError, load_card, load_fleet
from ..files import kind_of, load_file, read_json, shipped_fleets_dir
from .atomic import (AtomicJSONStorage, SaveFileError, StoreError, remove_temporary_files, set_aside_bad_file,
                     write_lock)

Kept = TypeVar("Kept")
PLAYER_PREFIX = "my-"
LIBRARY_FOLDER = "cards"
LIBRARY_FILE = "library.json"
LIBRARY_KIND = "cards"
LOCK_FILE = ".library.lock"


class LibraryError(StoreError):
    """A card the library will not keep (a shipped id, an unknown card), in plain words."""


def is_player_id(card_id: str) -> bool:
    """A player's card id (`my-...`); shipped cards never use one."""
    return card_id.startswith(PLAYER_PREFIX)


def is_players_card(card: Card) -> bool:
    return is_player_id(card.id)


def slug(text: str) -> str:
    """`HML Raven` -> `hml-raven`: lower-case letters and digits joined by dashes."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "card"


def new_player_id(base: str, taken: Iterable[str]) -> str:
    """`my-<slug of base>`, with `-2`, `-3`... when that id is taken."""
    stem = slug(base)
    stem = stem[len(PLAYER_PREFIX):] if stem.startswith(PLAYER_PREFIX) else stem
    stem = PLAYER_PREFIX + stem[:56].rstrip("-")
    taken = set(taken)
    candidate, n = stem, 2
    while candidate in taken:
        candidate, n = f"{stem}-{n}", n + 1
    return candidate


def based_on(card: Card) -> str | None:
    """The id of the card this one was copied from, if it says."""
    if card.sources is None:
        return None
    value = (card.sources.model_extra or {}).get("based_on")
    return value if isinstance(value, str) and value else None


def player_copy(card: Card, taken: Iterable[str], name: str | None = None) -> Card:
    """A player's copy of `card`: a new `my-` id and a `based_on` note (not saved).

    The copy keeps every value, its `verified` mark and its notes: a copy of a
    card with estimated values stays unverified until the player checks it.
    Copying a player's card notes the card it was itself based on, if any, so
    the note always names a shipped card when there is one.
    """
    data = card.dump()
    origin = based_on(card) if is_players_card(card) and based_on(card) else card.id
    data["id"] = new_player_id(card.id, taken)
    if name is not None:
        data["name"] = name
    sources = dict(data.get("sources") or {"verified": card.verified, "notes": ""})
    sources["based_on"] = origin
    data["sources"] = sources
    return load_card(data)


def export_document(cards: list[Card], name: str = "My cards") -> dict[str, Any]:
    """One card as a card file, several as a fleet file (formats.md)."""
    if len(cards) == 1:
        return cards[0].dump()
    factions = {c.faction for c in cards}
    return {"format": FLEET_FORMAT, "name": name, "faction": factions.pop() if len(factions) == 1 else "",
            "ships": [c.dump() for c in cards]}


def export_file_name(cards: list[Card]) -> str:
    return f"{cards[0].id}.json" if len(cards) == 1 else "my-cards.json"


@dataclass(frozen=True)
class LibraryEntry:
    card: Card
    saved: float  # seconds since the epoch

    @property
    def based_on(self) -> str | None:
        return based_on(self.card)


@dataclass(frozen=True)
class ImportResult:
    added: tuple[Card, ...]
    unchanged: tuple[Card, ...]  # already in the library, identical

    @property
    def message(self) -> str:
        parts = []
        if self.added:
            names = ", ".join(f"{c.name} ({c.id})" for c in self.added)
            parts.append(f"Imported {len(self.added)} card{'s' if len(self.added) != 1 else ''}: {names}.")
        if self.unchanged:
            names = ", ".join(c.name for c in self.unchanged)
            parts.append(f"Already in your cards, unchanged: {names}.")
        return " ".join(parts) or "The file holds no cards."


class CardLibrary:
    """The player's cards: on disk under `folder`, or in memory when `folder` is None.

    Reading re-reads the file only when it changed (another process may have
    written it); every write replaces the file whole.
    """

    def __init__(self, folder: str | Path | None = None):
        self.problems: list[str] = []
        self._lock = threading.RLock()
        self._cache: tuple[Any, list[LibraryEntry]] | None = None
        self._validated: dict[str, Card] = {}  # stored card JSON -> its validated card
        self._memory_version = 0
        if folder is None:
            self.path = None
            self._db = TinyDB(storage=MemoryStorage)
        else:
            directory = Path(folder) / LIBRARY_FOLDER
            try:
                directory.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"{directory}: cannot keep your cards here ({exc.strerror})") from None
            remove_temporary_files(directory)
            self.path = directory / LIBRARY_FILE
            self._db = TinyDB(self.path, storage=AtomicJSONStorage, kind=LIBRARY_KIND)
        self._table = self._db.table("cards")

    # --- reading ---------------------------------------------------------------

    def entries(self) -> list[LibraryEntry]:
        """Every card that validates, by name."""
        with self._lock:
            signature = self._signature()
            if self._cache is None or self._cache[0] != signature:
                self._cache = (signature, self._read())
            return list(self._cache[1])

    def cards(self) -> dict[str, Card]:
        return {entry.card.id: entry.card for entry in self.entries()}

    def get(self, card_id: str) -> Card | None:
        return self.cards().get(card_id)

    def ids(self) -> set[str]:
        """Every id in the file, including cards that no longer validate (never reused)."""
        with self._lock:
            return {card_id for card_id in (doc.get("id") for doc in self._documents()) if isinstance(card_id, str)}

    # --- writing -----------------------------------------------------------------

    def save(self, card: Card) -> Card:
        """Keep a player's card (replacing the one of the same id)."""
        if not is_players_card(card):
            raise LibraryError(
                f"'{card.id}' is not a player's card id: shipped cards are never edited in place; "
                "save a player's copy (its id starts with 'my-')")
        with self._lock:
            doc = {"id": card.id, "card": card.dump(), "saved": time.time()}
            self._write(lambda table: table.upsert(doc, Query().id == card.id))
        return card

    def delete(self, card_id: str) -> bool:
        with self._lock:
            if card_id not in self.ids():
                return False
            self._write(lambda table: table.remove(Query().id == card_id))
            return True

    def new_id(self, base: str, also_taken: Iterable[str] = ()) -> str:
        return new_player_id(base, self.ids() | set(also_taken))

    def copy(self, card: Card, name: str | None = None) -> Card:
        """A player's copy of any card with an id not yet in the library (not saved)."""
        return player_copy(card, self.ids(), name)

    def import_data(self, data: Any, source: str = "") -> ImportResult:
        """Add the cards of a card or fleet document; all or nothing.

        A card keeps its id when it is a player's id not yet in the library;
        otherwise it gets a new `my-` id and notes the id it had (`based_on`).
        A card identical to one already kept is left as it is.
        """
        try:
            kind = kind_of(data)
            if kind == "scenario":
                raise FormatError("is a scenario, not a card or a fleet: load it from 'Load a scenario'")
            cards = [load_card(data)] if kind == "card" else list(load_fleet(data).ships)
        except FormatError as exc:
            raise exc.in_file(source) from None
        with self._lock:
            kept = self.cards()
            taken = self.ids()
            added, unchanged = [], []
            for card in cards:
                if card.id in kept and kept[card.id].dump() == card.dump():
                    unchanged.append(card)
                    continue
                if not is_players_card(card):
                    card = player_copy(card, taken)
                elif card.id in taken:  # a player's card of an id already kept: a new id, no note
                    card = card.model_copy(update={"id": new_player_id(card.id, taken)})
                taken.add(card.id)
                added.append(card)
            if added:
                now = time.time()
                docs = [{"id": c.id, "card": c.dump(), "saved": now} for c in added]
                self._write(lambda table: table.insert_multiple(docs))
        return ImportResult(tuple(added), tuple(unchanged))

    # --- helpers ---------------------------------------------------------------------

    def _signature(self) -> int | tuple[int, int, int] | None:
        if self.path is None:
            return self._memory_version
        try:
            stat = self.path.stat()
        except FileNotFoundError:
            return None
        return (stat.st_mtime_ns, stat.st_size, stat.st_ino)

    def _documents(self) -> list[dict[str, Any]]:
        try:
            return list(self._table.all())
        except SaveFileError as exc:
            self._set_aside(exc)
            return []

    def _read(self) -> list[LibraryEntry]:
        entries = []
        validated: dict[str, Card] = {}
        for doc in self._documents():
            where = f"{self.path or 'your cards'}: card {doc.get('id', '?')!r}"
            key = json.dumps(doc.get("card"), sort_keys=True)
            try:  # a card unchanged since the last read is not validated again
                card = self._validated.get(key) or load_card(doc.get("card"))
            except FormatError as exc:
                self._problem(f"{where}: {exc.message}; it is kept in the file but left out")
                continue
            validated[key] = card
            if card.id != doc.get("id") or not is_players_card(card):
                self._problem(f"{where}: its id does not match the card it holds ({card.id}); it is left out")
                continue
            entries.append(LibraryEntry(card, float(doc.get("saved") or 0)))
        self._validated = validated
        return sorted(entries, key=lambda e: (e.card.name.casefold(), e.card.id))

    def _write(self, change: Callable[[Any], Any]) -> None:
        """Read the file afresh and change it, under the data folder's lock for the library: another
        companion process on the same folder writes in turn and nothing it saved is lost (issue 11)."""
        if self.path is None:
            change(self._table)
            self._memory_version += 1
            self._cache = None
            return
        with write_lock(self.path.with_name(LOCK_FILE), "your cards"):
            # a table of its own: TinyDB keeps the next document id in the table, stale after another write
            table = TinyDB(self.path, storage=AtomicJSONStorage, kind=LIBRARY_KIND).table("cards")
            try:
                table.all()  # a damaged file is set aside before it could be overwritten
            except SaveFileError as exc:
                self._set_aside(exc)
                table.clear_cache()
            try:
                change(table)
            except OSError as exc:  # a full disk: the file is as it was (atomic write)
                raise LibraryError(f"{self.path}: your cards could not be saved ({exc.strerror or exc}); "
                                   "nothing was changed") from None
        self._table.clear_cache()
        self._cache = None

    def _set_aside(self, exc: SaveFileError) -> None:
        self._problem(f"{exc.path}: {exc.problem}. {set_aside_bad_file(exc)}; your cards start afresh")
        self._table.clear_cache()

    def _problem(self, message: str) -> None:
        if message not in self.problems:
            self.problems.append(message)


# --- one library per data folder, and the store's library ------------------------------

class BesideTheGames(Generic[Kept]):
    """What is kept beside a store's games, one per data folder in this process (`make(folder)`) or
    per memory store (`make(None)`): the player's cards here, the group's Decisive Victory files."""

    def __init__(self, make: Callable[[Path | None], Kept]) -> None:
        self.make, self.lock = make, threading.Lock()
        self.by_folder: dict[Path, Kept] = {}
        self.by_store: weakref.WeakKeyDictionary[Any, Kept] = weakref.WeakKeyDictionary()

    def __call__(self, store: object) -> Kept:
        """The one beside `store`'s games: its data folder's, or its own in memory for a memory store."""
        folder = getattr(store, "folder", None)
        with self.lock:
            if folder is not None:
                path = Path(folder).expanduser().resolve()
                if path not in self.by_folder:
                    self.by_folder[path] = self.make(path)
                return self.by_folder[path]
            if store not in self.by_store:
                self.by_store[store] = self.make(None)
            return self.by_store[store]


#: The library beside a store's games: `library_for(store)`.
library_for = BesideTheGames(CardLibrary)


# --- the shipped fleets and the catalogue ---------------------------------------------------

@dataclass(frozen=True)
class Shipped:
    fleets: tuple[Fleet, ...]
    problems: tuple[str, ...]


_SHIPPED: dict[Path, tuple[Any, Shipped]] = {}


def load_shipped(folder: str | Path | None = None) -> Shipped:
    """The fleets under `fleets/` (or `folder`); re-read only when a file there changes.

    A broken file is named in `problems` and the others still load.  A single
    card file counts as a fleet of one, named after the card; scenario files
    kept beside the fleets are passed over.
    """
    folder = Path(folder) if folder is not None else shipped_fleets_dir()
    paths = sorted(folder.glob("*.json"))
    signature = tuple((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in paths)
    cached = _SHIPPED.get(folder)
    if cached and cached[0] == signature:
        return cached[1]
    fleets: list[Fleet] = []
    problems: list[str] = []
    for path in paths:
        try:
            if _other_format(read_json(path)):
                continue  # another kind of file kept beside the fleets (a scenario: fleets/war-fleet-*.json)
            loaded = load_file(path)
        except FormatError as exc:
            problems.append(exc.message)
            continue
        if isinstance(loaded, Card):
            loaded = Fleet(name=loaded.name, faction=loaded.faction, ships=[loaded])
        if not isinstance(loaded, Fleet):
            continue  # a scenario `_other_format` did not name (every scenario format has "scenario/")
        fleets.append(loaded)
    shipped = Shipped(tuple(fleets), tuple(problems))
    _SHIPPED[folder] = (signature, shipped)
    return shipped


def _other_format(data: Any) -> bool:
    """A file of this project's other formats (`leviathans-...-scenario/N`): not a fleet, not a mistake."""
    tag = data.get("format") if isinstance(data, dict) else None
    return isinstance(tag, str) and tag.startswith("leviathans-") and "scenario/" in tag


@dataclass(frozen=True)
class Catalogue:
    """Every card the app can play: the shipped fleets and the player's own cards."""

    fleets: tuple[Fleet, ...]
    mine: tuple[LibraryEntry, ...]
    problems: tuple[str, ...] = field(default=())

    def cards(self) -> dict[str, Card]:
        """By id: the shipped cards, then the player's.  Ids never clash (`my-` ids are
        the player's); if a shipped file ever used one, the player's card is kept."""
        cards = {card.id: card for fleet in self.fleets for card in fleet.ships}
        cards.update({entry.card.id: entry.card for entry in self.mine})
        return cards


def catalogue_of(library: CardLibrary, folder: str | Path | None = None) -> Catalogue:
    shipped = load_shipped(folder)
    problems = list(shipped.problems)
    mine_ids = {entry.card.id for entry in library.entries()}
    for fleet in shipped.fleets:
        for card in fleet.ships:
            if is_players_card(card):
                note = "the player's card of that id is used" if card.id in mine_ids else "ids starting 'my-' are for the player's own cards"
                problems.append(f"{fleet.name}: shipped card id '{card.id}' starts with 'my-': {note}")
    return Catalogue(shipped.fleets, tuple(library.entries()), tuple(problems + library.problems))


def catalogue_loader(store: object, folder: str | Path | None = None) -> Callable[[], dict[str, Card]]:
    """What the app calls for its cards: the shipped fleets plus the store's player library."""
    return lambda: catalogue_of(library_for(store), folder).cards()

