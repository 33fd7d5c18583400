"""Fleet building for New game, without flet: two sides, each a list of named ships.

Issue 12: browse the cards by faction and class, search by name, field any
number of copies of a card, each ship with its own name ("HML Raven", "HML
Raven 2", or one the player types), each side's points total, a side saved and
loaded as a fleet file (`leviathans-fleet/1`, docs/formats.md), and the game it
starts with, deployed by `setup.build_setup` (the engine's placement and
deployment checks) exactly as the New game screen always did.

Fleet points are a 2025 stat the Quick-Start rules do not use; a card without
them (the Hertfordshire prints none) is counted as unknown and said so, never
as zero.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ..engine.board import Board
from ..engine.cards import Card, FormatError, load_fleet
from ..engine.names import SHIP_LIMIT, SIDE_LIMIT, cleaned, name_problem
from ..engine.quick_start.state import GameState
from ..store.library import is_players_card
from .palettes import faction_of
from .setup import Pick, SetupError, build_setup, unique_id

#: At most this many cards are listed at once: a phone stays quick with 150 cards (filter first).
SHOWN = 24


def faction_name(card: Card) -> str:
    """The faction a card is listed under: its printed name ("British" on the Lieutenant's Manual's
    cards is the British Empire of the printed cards), "No faction" where it names none."""
    return faction_of(card.faction) or card.faction or "No faction"


def card_order(card: Card) -> tuple:
    """The player's own cards first; then by faction, the biggest ships first, then the name."""
    return (not is_players_card(card), faction_name(card), -card.type, card.name, card.id)


def factions(cards: Iterable[Card]) -> list[str]:
    """Each faction once, by its printed name (issue 28: "British" and "British Empire" were listed apart)."""
    return sorted({faction_name(card) for card in cards})


def classes(cards: Iterable[Card], faction: str | None = None) -> list[str]:
    """The classes of a faction's cards (every faction's if None)."""
    return sorted({card.ship_class for card in cards
                   if card.ship_class and (not faction or faction_name(card) == faction)})


@dataclass(frozen=True)
class Found:
    """The cards a filter shows (at most `SHOWN`) and how many matched in all."""

    cards: tuple[Card, ...]
    total: int

    @property
    def more(self) -> int:
        return self.total - len(self.cards)


def find(cards: Iterable[Card], faction: str | None = None, ship_class: str | None = None, text: str = "",
         limit: int = SHOWN) -> Found:
    """The cards of a faction and class whose name (or class) holds `text`, in `card_order`."""
    words = (text or "").casefold().split()
    matched = [
        card for card in cards
        if (not faction or faction_name(card) == faction)
        and (not ship_class or card.ship_class == ship_class)
        and all(w in f"{card.name} {card.ship_class}".casefold() for w in words)
    ]
    matched.sort(key=card_order)
    return Found(tuple(matched[:limit]), len(matched))


@dataclass(frozen=True)
class Ship:
    """One ship of a side: the card it flies under and its own name."""

    card: Card
    name: str


@dataclass(frozen=True)
class Points:
    """A side's fleet points: the known total and the ships whose card gives none."""

    total: int
    unknown: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        said = f"{self.total} points"
        if self.unknown:
            n = len(self.unknown)
            said += f" + {n} ship{'s' if n != 1 else ''} of unknown points ({', '.join(self.unknown)})"
        return said


@dataclass
class Side:
    name: str
    ships: list[Ship] = field(default_factory=list)

    def points(self) -> Points:
        known = [s.card.points for s in self.ships if s.card.points is not None]
        return Points(sum(known), tuple(s.name for s in self.ships if s.card.points is None))


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


class FleetBuilder:
    """Two sides of named ships; every change returns a plain problem or None."""

    def __init__(self, first: str = "British", second: str = "French"):
        self.sides = [Side(first), Side(second)]

    # --- names ----------------------------------------------------------------------

    def names(self) -> set[str]:
        """Every ship's name in the game (compared without case or extra spaces)."""
        return {_key(ship.name) for side in self.sides for ship in side.ships}

    def add(self, side: int, card: Card, name: str | None = None) -> Ship:
        """Field one more ship of `card` on a side, named `name` or, if that is empty or taken, after
        its card: the first of `card`, `card 2`, `card 3`... no ship of either side has."""
        wanted, taken, n = cleaned(name or ""), self.names(), 2
        if not wanted or _key(wanted) in taken or name_problem(wanted, "", SHIP_LIMIT):
            wanted = card.name
            while _key(wanted) in taken:
                wanted, n = f"{card.name} {n}", n + 1
        ship = Ship(card, wanted)
        self.sides[side].ships.append(ship)
        return ship

    def remove(self, side: int, index: int) -> None:
        del self.sides[side].ships[index]

    def rename(self, side: int, index: int, name: str) -> str | None:
        """Give a ship a name of the player's, cleaned as a loaded file's is (`names.cleaned`); why
        not, if another ship has it, it is empty or longer than a loaded file's may be (issue 35)."""
        wanted = cleaned(name or "")
        ship = self.sides[side].ships[index]
        if not wanted:
            return f"{ship.name}: a ship needs a name."
        too_long = name_problem(wanted, "a ship's name", SHIP_LIMIT)
        if too_long:
            return f"{ship.name} keeps its name: {too_long}."
        if _key(wanted) != _key(ship.name) and _key(wanted) in self.names():
            return f"Another ship is already called {wanted}: each ship needs its own name."
        self.sides[side].ships[index] = Ship(ship.card, wanted)
        return None

    def set_side_name(self, side: int, name: str) -> str | None:
        """Name a side, cleaned as a loaded file's side is; why not, if the name is too long."""
        wanted = cleaned(name or "")
        too_long = name_problem(wanted, "a side's name", SIDE_LIMIT)
        if too_long:
            return f"{self.sides[side].name or 'The side'} keeps its name: {too_long}."
        self.sides[side].name = wanted
        return None

    # --- starting ------------------------------------------------------------------------

    def problem(self) -> str | None:
        """Why the game cannot start yet, or None."""
        for index, side in enumerate(self.sides):
            if not side.name:
                return f"The {'first' if index == 0 else 'second'} side needs a name."
            if not side.ships:
                return f"{side.name} has no ships yet: add at least one."
        if _key(self.sides[0].name) == _key(self.sides[1].name):
            return "The two sides need different names."
        return None

    def picks(self) -> list[Pick]:
        return [Pick(ship.card.id, side.name, name=ship.name, card=ship.card)
                for side in self.sides for ship in side.ships]

    def setup(self, board: Board | None = None, seed: str | None = None) -> GameState:
        """The game in its set-up phase, every ship deployed on its side's edge (setup.build_setup);
        SetupError in plain words if it cannot be."""
        problem = self.problem()
        if problem:
            raise SetupError(problem)
        return build_setup(self.picks(), {}, board, seed)

    # --- fleet files -----------------------------------------------------------------------

    def fleet_file(self, side: int) -> dict[str, Any]:
        """A side as a `leviathans-fleet/1` document: each ship its card, named as the ship, ids unique."""
        chosen = self.sides[side]
        ids: set[str] = set()
        ships = []
        for ship in chosen.ships:
            data = ship.card.dump()
            data["name"] = ship.name
            data["id"] = unique_id(ship.card.id, ids)
            ships.append(data)
        faction = next((s.card.faction for s in chosen.ships if s.card.faction), "")
        return {"format": "leviathans-fleet/1", "name": chosen.name, "faction": faction, "ships": ships}

    def load_fleet_file(self, side: int, data: Any, source: str = "") -> str:
        """Replace a side with a fleet file's ships (the side takes the fleet's name); a FormatError
        names the file and the field.  Returns what was loaded, in words."""
        try:
            fleet = load_fleet(data)
        except FormatError as exc:
            raise (exc.in_file(source) if source and not exc.source else exc) from None
        if not fleet.ships:
            raise FormatError("the fleet has no ships", source=source)
        other = self.sides[1 - side]
        self.sides[side] = Side(fleet.name.strip() or self.sides[side].name)
        if _key(self.sides[side].name) == _key(other.name):
            self.sides[side].name = f"{self.sides[side].name} (2)"
        for card in fleet.ships:
            self.add(side, card, card.name)
        return f"Loaded {len(fleet.ships)} ship{'s' if len(fleet.ships) != 1 else ''} as {self.sides[side].name}."


def card_line(card: Card) -> str:
    """One line under a card's name in the picker."""
    parts = [card.ship_class, f"Type {card.type}", f"SI {card.structural_integrity}", f"{card.starting_mp} MP",
             f"{card.points} points" if card.points is not None else "points unknown"]
    edition = "Quick-Start edition · " if card.sources and (card.sources.model_extra or {}).get("edition") else ""
    mine = "Your card · " if is_players_card(card) else ""
    return mine + edition + " · ".join(p for p in parts if p)
