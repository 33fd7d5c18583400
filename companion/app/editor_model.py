"""The card editor's state, without flet: a draft card, every field editable, live problems.

The draft is the card as its file holds it (formats.md, "Ship card"): a
plain dict the views read and change through `CardEditor`'s methods.  After
every change `problems()` says, in plain words naming the field, what keeps
the card from being saved ("Port has 5 slots; a location needs exactly 6 (one
for each face of the slot die)"); the checks are the engine's own card model
(`engine.cards.Card`), so the editor accepts exactly the cards the files,
the CLI and the game accept.

Shipped cards are never edited in place: `CardEditor.edit` of a shipped card
edits a player's copy, which gets its own `my-` id when it is first saved
(store/library.py).  Saving goes to the player's library.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Iterable, TypeGuard

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from ..engine.cards import SLOT_KINDS, SLOTS_PER_LOCATION, Card, FormatError, load_card
from ..engine.dice import PoolError, parse_pool, top
from ..engine.footprint import LOCATION_HEX
from ..store.library import CardLibrary, is_players_card, player_copy
from .card_draft import BOUNDS, DEFAULTS, KIND_NAMES, location_template, new_card_data, slot_template
from .player_words import notes_words
from .viewmodels import location_name

Path = tuple  # a place in the draft: ("locations", "port", "slots", 0, "breach")

FIELD_WORDS = {
    "name": "name", "class": "class", "faction": "faction", "armament": "armament line",
    "type": "type", "structural_integrity": "Structural Integrity",
    "enter_hexes_before_turn": "hexes to enter before a turn", "breach": "breach number",
    "breach_modifier": "armour modifier", "mp": "MP", "label": "label", "saturation": "saturation boxes",
    "traits": "traits", "dice": "dice", "range": "range", "go": "go dice (moved)", "stop": "stop dice (stationary)",
}

#: where a location's slots come from when the type changes between 1-3 and 4
_RESHAPE = {"port_bow": "port", "port_quarter": "port", "starboard_bow": "starboard",
            "starboard_quarter": "starboard", "port": "port_bow", "starboard": "starboard_bow"}


#: The strongest gun band and crew dice on the printed cards (shared/reference: DBlack on
#: 8 gun bands, DYellow on 19 crew slots): a breach number above what they roll with a
#: location's dice is never reached, and the editor says so.
STRONGEST_GUN = "DBlack"
STRONGEST_CREW = "DYellow"


def pool_top(notation: Any) -> int | None:
    """The highest total a pool can roll, or None when it is not a pool."""
    try:
        return sum(top(colour) for colour in parse_pool(notation))
    except (PoolError, TypeError):
        return None


@dataclass(frozen=True)
class Problem:
    """One thing that keeps the card or file from being saved: where (a draft path) and what."""

    path: Path
    text: str


class Edited:
    """A file being edited as a plain dict (`data`): a version per change, the version last
    saved, and its problems, checked once per version (`_check`).  The card editor and the
    Decisive Victory drafts are both."""

    data: dict[str, Any]
    version: int
    saved_version: int
    _problems: tuple[int, list[Problem]] | None

    def get(self, path: Path, default: Any = None) -> Any:
        node: Any = self.data
        for key in path:
            try:
                node = node[key]
            except (KeyError, IndexError, TypeError):
                return default
        return node

    def set(self, path: Path, value: Any) -> None:
        """Set a text, dice or yes/no field."""
        parent = self.get(tuple(path[:-1]))
        if parent is None:
            raise KeyError(f"no field {'.'.join(map(str, path))}")
        parent[path[-1]] = value
        self.changed()

    def changed(self) -> None:
        self.version += 1

    @property
    def dirty(self) -> bool:
        return self.version != self.saved_version

    @property
    def verified(self) -> bool:
        return bool((self.data.get("sources") or {}).get("verified", True))

    def problems(self) -> list[Problem]:
        """Everything that keeps the file from being saved, in file order (empty: ready)."""
        if self._problems is None or self._problems[0] != self.version:
            self._problems = (self.version, self._check())
        return list(self._problems[1])

    @property
    def ok(self) -> bool:
        return not self.problems()

    def problems_within(self, path: Path) -> list[Problem]:
        return [p for p in self.problems() if p.path[:len(path)] == tuple(path)]

    def _check(self) -> list[Problem]:
        raise NotImplementedError


class CardEditor(Edited):
    """A draft card being edited, and where it will be saved."""

    def __init__(self, data: dict[str, Any], *, card_id: str | None, title: str, note: str = ""):
        self.data = copy.deepcopy(data)
        self.data.pop("id", None)
        self.card_id = card_id  # None until first saved: the library gives the id then
        self.title = title
        self.note = note
        self.version = 0
        self.saved_version = 0 if card_id else -1
        self._problems: tuple[int, list[Problem]] | None = None
        self._checked = self._values() if self.verified else None  # the values the mark vouches for

    # --- starting points ---------------------------------------------------------

    @classmethod
    def new(cls, ship_type: int = 1) -> "CardEditor":
        return cls(new_card_data(ship_type), card_id=None, title="New card",
                   note="A new card for your library. Save it to use it in a new game.")

    @classmethod
    def edit(cls, card: Card) -> "CardEditor":
        """A player's card is edited in place; any other card through a player's copy."""
        if is_players_card(card):
            return cls(card.dump(), card_id=card.id, title=f"Edit {card.name}",
                       note="Your card. Games already started keep the card as it was.")
        return cls._copy(card, card.name, f"Your copy of {card.name}",
                         f"Shipped cards are never changed: saving makes your own copy of {card.name}, "
                         "and a newer shipped fleet will not replace it.")

    @classmethod
    def duplicate(cls, card: Card) -> "CardEditor":
        return cls._copy(card, f"{card.name} (copy)", f"Copy of {card.name}",
                         f"A new card in your library, starting from {card.name}.")

    @classmethod
    def _copy(cls, card: Card, name: str, title: str, note: str) -> "CardEditor":
        """A copy noting what it is based on; its own id comes when it is first saved.  Its notes say
        where the values come from in a player's words (no repository address or commit: issue 35)."""
        data = player_copy(card, (), name).dump()
        sources = data.get("sources")
        if isinstance(sources, dict) and isinstance(sources.get("notes"), str):
            sources["notes"] = notes_words(sources["notes"])
        return cls(data, card_id=None, title=title, note=note)

    # --- reading -------------------------------------------------------------------------

    @property
    def ship_type(self) -> int:
        value = self.data.get("type")
        return value if isinstance(value, int) and value in LOCATION_HEX else 1

    @property
    def location_names(self) -> list[str]:
        return list(self.data.get("locations", {}))

    def slots(self, location: str) -> list[dict[str, Any]]:
        return self.data["locations"][location]["slots"]

    @property
    def based_on(self) -> str | None:
        return (self.data.get("sources") or {}).get("based_on")

    @property
    def starting_mp(self) -> int:
        return sum(s.get("mp", 0) for loc in self.data["locations"].values() for s in loc["slots"]
                   if s.get("kind") == "engine" and isinstance(s.get("mp"), int))

    # --- changing ----------------------------------------------------------------------------

    def set_number(self, path: Path, text: Any) -> None:
        """A number typed in: kept as a whole number when it is one, else as typed (a problem says so)."""
        raw = str(text).strip() if text is not None else ""
        try:
            value: Any = int(raw)
        except ValueError:
            value = raw
        if path[-1] == "type" and isinstance(value, int) and value in LOCATION_HEX:
            self.set_type(value)
            return
        if path[-1] == "breach" and raw == "" and self.get(path[:-1] + ("kind",)) == "miss":
            self.get(path[:-1]).pop("breach", None)  # a miss slot's number is optional
            self.changed()
            return
        self.set(path, value)
        if path[-1] == "saturation":  # a count above 0 sets the saturation trait; 0 drops both
            self.set_trait(path[1], path[3], "saturation", isinstance(value, int) and value > 0)
            if value == 0:
                self.get(path[:-1]).pop("saturation")

    def step(self, path: Path, delta: int) -> None:
        """The stepper buttons: one up or down, within the field's bounds."""
        low, high = BOUNDS[path[-1]]
        current = self.get(path)
        if not isinstance(current, int):
            current = DEFAULTS.get(path[-1], low)
            delta = 0
        self.set_number(path, max(low, min(high, current + delta)))

    def can_step(self, path: Path, delta: int) -> bool:
        low, high = BOUNDS[path[-1]]
        current = self.get(path)
        return not isinstance(current, int) or low <= current + delta <= high

    def set_type(self, ship_type: int) -> None:
        """A new type brings that type's locations, keeping every location both types have
        (Type 4's fore sides take over the sides of Types 1-3, and back)."""
        if ship_type not in LOCATION_HEX:
            raise ValueError(f"there is no Type {ship_type}: types are 1 to 4")
        old = self.data.get("locations", {})
        new = {}
        for name in LOCATION_HEX[ship_type]:
            source = name if name in old else _RESHAPE.get(name)
            new[name] = copy.deepcopy(old[source]) if source in old else location_template(name)
        self.data["type"] = ship_type
        self.data["locations"] = new
        self.changed()

    def set_kind(self, location: str, index: int, kind: str) -> None:
        if kind not in SLOT_KINDS:
            raise ValueError(f"unknown slot kind {kind!r}")
        slots = self.slots(location)
        if slots[index].get("kind") == kind:
            return
        slots[index] = slot_template(kind, slots[index].get("breach", 12))
        self.changed()

    def add_slot(self, location: str, kind: str = "miss") -> None:
        self.slots(location).append(slot_template(kind, 11))
        self.changed()

    def remove_slot(self, location: str, index: int) -> None:
        del self.slots(location)[index]
        self.changed()

    def move_slot(self, location: str, index: int, delta: int) -> None:
        slots = self.slots(location)
        other = index + delta
        if 0 <= other < len(slots):
            slots[index], slots[other] = slots[other], slots[index]
            self.changed()

    def set_trait(self, location: str, index: int, trait: str, on: bool) -> None:
        slot = self.slots(location)[index]
        traits = [t for t in slot.get("traits", []) if t != trait]
        if on:
            traits.append(trait)
        slot["traits"] = [t for t in ("turret", "bracket", "saturation") if t in traits]
        if not slot["traits"]:
            slot.pop("traits")
        self.changed()

    def set_verified(self, verified: bool) -> None:
        self.data.setdefault("sources", {"notes": ""})["verified"] = bool(verified)
        self._checked = self._values() if verified else None
        self.changed()

    def changed(self) -> None:
        """A new version; "every value checked against the printed card" clears once a value of play
        differs from the values it was given for (issue 35: it stayed ticked over an edited card)."""
        super().changed()
        if self._checked is not None and self._values() != self._checked:
            self.data.setdefault("sources", {"notes": ""})["verified"] = False
            self._checked = None

    def _values(self) -> dict[str, Any]:
        """The card's values of play: all but its name, id and sources (what the check vouches for)."""
        return copy.deepcopy({k: v for k, v in self.data.items() if k not in ("name", "id", "sources")})

    def set_notes(self, notes: str) -> None:
        self.data.setdefault("sources", {"verified": True})["notes"] = notes
        self.changed()

    # --- checking ----------------------------------------------------------------------------

    def warnings(self) -> list[Problem]:
        """Values a card may hold but play never reaches, in plain words (issue 12).

        They never stop a save: a house rule or a card from another edition may mean them.
        """
        found: list[Problem] = []
        mp, enter, printed = self.starting_mp, self.data.get("enter_hexes_before_turn"), self.data.get("starting_mp")
        if _whole(enter) and enter > mp:
            found.append(Problem(("enter_hexes_before_turn",), f"Enter hexes before turn {enter} is more than "
                                                               f"the ship's MP {mp}: it could never turn"))
        if _whole(printed) and printed != mp:
            found.append(Problem(("starting_mp",), f"Starting MP {printed} as printed is not the engines' sum "
                                                   f"{mp}: play uses the engines ({mp})"))
        for location in self.location_names:
            found.extend(self._unreachable(location))
        return found

    def _unreachable(self, location: str) -> list[Problem]:
        """Breach numbers above the strongest printed gun + crew + the location's larger dice."""
        loc = self.data["locations"][location]
        dice = max(((top, loc.get(k)) for k in ("go", "stop") if (top := pool_top(loc.get(k))) is not None),
                   default=None, key=lambda pair: pair[0])
        if dice is None:
            return []
        gun, crew = pool_top(STRONGEST_GUN), pool_top(STRONGEST_CREW)
        assert gun is not None and crew is not None  # both are pools
        most = gun + crew + dice[0]
        why = (f"the strongest printed gun, {STRONGEST_GUN} {gun}, a {STRONGEST_CREW} crew {crew} "
               f"and this location's {dice[1]} {dice[0]}")
        found = []
        for index, slot in enumerate(self.slots(location)):
            breach = slot.get("breach")
            if slot.get("kind") != "miss" and _whole(breach) and breach > most:
                path = ("locations", location, "slots", index, "breach")
                found.append(Problem(path, f"{self.describe(path)} {breach} is more than any shot can roll "
                                           f"here: at most {most} ({why})"))
        return found

    def _draft(self) -> dict[str, Any]:
        data = copy.deepcopy(self.data)
        data["id"] = self.card_id or "my-new-card"
        return data

    def _check(self) -> list[Problem]:
        problems: list[Problem] = []
        if not str(self.data.get("name", "")).strip():
            problems.append(Problem(("name",), "Name is empty: every card needs a ship name"))
        try:
            Card.model_validate(self._draft())
        except ValidationError as exc:
            for error in exc.errors():
                problem = self._plain(error)
                if not any(p.path == problem.path == ("name",) for p in problems):
                    problems.append(problem)
        for location in self.location_names:
            for index, slot in enumerate(self.slots(location)):
                if slot.get("kind") == "gun" and not str(slot.get("name", "")).strip():
                    path = ("locations", location, "slots", index, "name")
                    problems.append(Problem(path, f"{self.describe(path)} is empty: name the gun as the card does"))
        return sorted(problems, key=lambda p: self._order(p.path))

    def _order(self, path: Path) -> tuple:
        top = ["name", "class", "faction", "armament", "type", "structural_integrity",
               "enter_hexes_before_turn", "locations"]
        first = top.index(path[0]) if path and path[0] in top else len(top)
        rest: list[Any] = []
        if len(path) > 1 and path[0] == "locations":
            names = self.location_names
            rest.append(names.index(path[1]) if path[1] in names else len(names))
            rest.extend(x if isinstance(x, int) else 0 for x in path[2:4])
        return (first, *rest)

    def _plain(self, error: ErrorDetails) -> Problem:
        path = _draft_path(tuple(error["loc"]))
        kind = error["type"]
        where = self.describe(path)
        value = self.get(path)
        if path[-1:] == ("slots",) and path[:1] == ("locations",) and kind == "value_error":
            count = len(self.get(path) or [])
            return Problem(path, f"{where} has {count} slot{'s' if count != 1 else ''}; a location needs exactly "
                                 f"{SLOTS_PER_LOCATION} (one for each face of the slot die)")
        return Problem(path, field_words(where, value, error))

    def describe(self, path: Path) -> str:
        """A field in plain words: ("locations", "port", "slots", 2, "short", "range") ->
        'Port slot 3 (3 IN) short range'."""
        path = tuple(path)
        if not path:
            return ""
        if path[0] != "locations":
            words = FIELD_WORDS.get(path[0], str(path[0]).replace("_", " "))
            return words[0].upper() + words[1:]
        if len(path) == 1:
            return "Locations"
        where = location_name(str(path[1]))
        rest = path[2:]
        if not rest or rest == ("slots",):
            return where
        if rest[0] != "slots":
            return f"{where} {FIELD_WORDS.get(rest[0], rest[0])}"
        index = rest[1]
        slot = self.get(("locations", path[1], "slots", index), {}) or {}
        what = slot.get("name") if slot.get("kind") == "gun" and str(slot.get("name", "")).strip() else \
            KIND_NAMES.get(str(slot.get("kind")), "slot").lower()
        where = f"{where} slot {index + 1} ({what})"
        fields = rest[2:]
        if not fields:
            return where
        if fields[0] in ("short", "long"):
            tail = "range" if fields[1:] == ("range",) else "dice"
            return f"{where} {fields[0]} {tail}"
        if fields[0] == "name":
            return f"{where} gun name"
        if fields[0] == "dice":
            return f"{where} crew dice"
        return f"{where} {FIELD_WORDS.get(fields[0], fields[0])}"

    # --- saving -------------------------------------------------------------------------------

    def card(self) -> Card:
        """The card as it would be saved (FormatError with the first problem if it cannot be)."""
        problems = self.problems()
        if problems:
            more = len(problems) - 1
            raise FormatError(problems[0].text + (f" (and {more} more)" if more else ""))
        return load_card(self._clean())

    def save(self, library: CardLibrary, also_taken: Iterable[str] = ()) -> Card:
        """Save to the player's library; the first save of a new card or a copy gives it its own id."""
        self.card()  # refuse with the first problem
        if self.card_id is None:
            self.card_id = library.new_id(str(self.data["name"]), also_taken)
        card = load_card(self._clean())
        library.save(card)
        self.saved_version = self.version
        self.title = f"Edit {card.name}"
        self.note = "Your card. Games already started keep the card as it was."
        return card

    def _clean(self) -> dict[str, Any]:
        data = self._draft()
        for key in ("name", "class", "faction", "armament"):
            if isinstance(data.get(key), str):
                data[key] = data[key].strip()
        for location in data["locations"].values():
            for slot in location["slots"]:
                if isinstance(slot.get("name"), str):
                    slot["name"] = slot["name"].strip()
        return data


def _whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _draft_path(loc: tuple) -> Path:
    """A pydantic error location as a draft path (the slot-kind tag it inserts dropped)."""
    out: list[Any] = []
    for i, item in enumerate(loc):
        if isinstance(item, str) and item in SLOT_KINDS and i > 0 and isinstance(loc[i - 1], int):
            continue
        out.append(item)
    return tuple(out)


#: The pydantic error kinds that mean "not a whole number".
WHOLE_NUMBER_ERRORS = ("int_parsing", "int_type", "int_from_float")


def field_words(where: str, value: Any, error: Any, whole_number_errors: tuple[str, ...] = WHOLE_NUMBER_ERRORS) -> str:
    """A pydantic error on one field of an editor, in plain words naming the field (`where`) and
    what was typed (`value`): 'Structural integrity must be at least 1'."""
    kind, message = error["type"], error["msg"]
    if kind == "missing":
        return f"{where} is missing"
    if kind in whole_number_errors:
        if value in ("", None):
            return f"{where} is empty: give a whole number"
        return f"{where} must be a whole number, not '{value}'"
    if kind == "greater_than_equal":
        return f"{where} must be at least {error['ctx']['ge']}"
    if kind == "less_than_equal":
        return f"{where} must be at most {error['ctx']['le']}"
    if kind == "string_too_short":
        return f"{where} is empty"
    text = message.removeprefix("Value error, ")
    return f"{where}: {text[0].lower() + text[1:]}" if where else text[0].upper() + text[1:]

