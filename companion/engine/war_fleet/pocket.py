"""Pockets between scales: a War Fleet group fought out at Quick-Start scale, and back.

Seed 004 (introduction): War Fleet is "scaleable with regular Leviathans ...
move large formations and once certain pockets of ships were in a decent
engagement range, players can then switch over to regular Leviathans to play
out the game in detail."  And "Conversion": "figuring out the damage from the
aftermath is a simple matter of what slots were prioritized in the conversion
process."

`pocket_battle` builds a Quick-Start `GameState` from the ships of one pocket,
with their full source cards; `pocket_outcome` reads a Quick-Start state (at
any moment, usually when its battle is over) back into War Fleet terms:
which ships are casualties and which locations are destroyed.  Both are pure.

Readings (docs/rule-readings.md, War Fleet):

- Positions: a War Fleet hex is six Quick-Start hexes wide (seed 004
  "Scale"), so each ship's War Fleet hex offset is multiplied by six; facings
  are kept.  Ships that would overlap (several ships share a War Fleet hex)
  go to the nearest free spot, nearest first, in the order listed.  The board
  is the Quick-Start default (33 x 19) or larger, so that every ship stands at
  least `MARGIN` full hexes from the table edge.
- Damage in: a War Fleet location that is already destroyed enters the pocket
  battle with the slots its conversion was taken from struck through (the
  slots of its highest breach number and its best guns).
- Damage out: a ship the Quick-Start rules count as destroyed is a casualty;
  a location comes back destroyed when every slot its Resilience could come
  from is destroyed, or every gun its attack could come from is
  (`convert.location_lost`).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..board import MAX_SIDE, Board
from ..cards import Card
from ..footprint import Placement
from ..hexes import Hex
from ..roller import Roller
from ..quick_start.state import GameState, ShipState, SlotStatus
from .convert import SCALE, location_lost, prioritised_slots
from .state import ShipOutcome, WarFleetState, WarShip

#: Full hexes kept between every ship and the half-hex ring of the pocket's board.
MARGIN = 4
DEFAULT_BOARD = Board()


class PocketError(ValueError):
    """A pocket that cannot be fought at Quick-Start scale, and why."""


def pocket_ships(state: WarFleetState, ship_ids: list[str]) -> list[WarShip]:
    """The War Fleet ships of a pocket, checked: on the map, in play, with a card."""
    if not ship_ids:
        raise PocketError("name the ships of the pocket")
    if len(set(ship_ids)) != len(ship_ids):
        raise PocketError("a ship is named twice")
    ships = []
    for ship_id in ship_ids:
        if not state.has_ship(ship_id):
            raise PocketError(f"there is no ship '{ship_id}' in this game")
        ship = state.ship(ship_id)
        if ship.removed or not ship.placed:
            raise PocketError(f"{ship.name} is not on the map")
        _source(ship)  # refuses a ship without a Quick-Start card
        ships.append(ship)
    return ships


def _source(ship: WarShip) -> Card:
    """The ship's Quick-Start card: a pocket battle is fought with the cards."""
    if ship.source is None:
        raise PocketError(f"{ship.name} has no Quick-Start card to fight a pocket battle with")
    return ship.source


def _card_for(ship: WarShip) -> Card:
    """The ship's source card, named after the ship (two Ravens stay two ships)."""
    card = _source(ship)
    if ship.ship_name and ship.ship_name != card.name:
        card = card.model_copy(update={"name": ship.ship_name})
    return card


def _damage_in(ship: WarShip) -> dict[str, dict[int, SlotStatus]]:
    damage: dict[str, dict[int, SlotStatus]] = {}
    source = _source(ship)
    for location in ship.destroyed:
        if location not in source.locations:
            continue
        for slots in prioritised_slots(source.locations[location]).values():
            for n in slots:
                damage.setdefault(location, {})[n] = SlotStatus.DESTROYED
    return damage


def _spots(wanted: Hex) -> Iterator[Hex]:
    """Candidate bow hexes, nearest `wanted` first (the hex itself, then ring by ring)."""
    yield wanted
    radius = 1
    while True:
        cell = wanted + Hex(-radius, radius)  # start of the ring, south-west corner
        for side in range(6):
            for _ in range(radius):
                yield cell
                cell = cell.neighbour(side)
        radius += 1


def _placements(ships: list[WarShip]) -> list[Placement]:
    """Quick-Start placements, six hexes per War Fleet hex, none overlapping."""
    origin = min(ship.hex for ship in ships)
    taken: set[Hex] = set()
    placements = []
    for ship in ships:
        offset = ship.hex - origin
        wanted = Hex(SCALE * offset.q, SCALE * offset.r)
        for bow in _spots(wanted):
            placement = Placement(bow, ship.facing, _source(ship).type)
            if not taken.intersection(placement.hexes):
                break
        taken.update(placement.hexes)
        placements.append(placement)
    return placements


def _fit(placements: list[Placement]) -> tuple[Board, list[Placement]]:
    """Shift the placements onto a board big enough to hold them with `MARGIN` around."""
    # an axial shift keeps the geometry exactly: first the columns, then the rows
    low_col = min(c.column for p in placements for c in p.hexes)
    moved = [p.transformed(shift=Hex(MARGIN + 2 - low_col, 0)) for p in placements]
    low_row = min(c.row for p in moved for c in p.hexes)
    moved = [p.transformed(shift=Hex(0, MARGIN + 2 - low_row)) for p in moved]
    cells = [c for p in moved for c in p.hexes]
    columns = max(DEFAULT_BOARD.columns, max(c.column for c in cells) + MARGIN + 1)
    rows = max(DEFAULT_BOARD.rows, max(c.row for c in cells) + MARGIN + 1)
    if max(columns, rows) > MAX_SIDE:
        raise PocketError(f"these ships stand too far apart for one Quick-Start table: it would need "
                          f"{columns} x {rows} hexes, at most {MAX_SIDE} x {MAX_SIDE}")
    return Board(columns=columns, rows=rows), moved


def pocket_battle(state: WarFleetState, ship_ids: list[str], roller: Roller | None = None) -> GameState:
    """A Quick-Start game of the pocket's ships, with their full cards, ready for initiative.

    Ship ids and sides are kept, so `pocket_outcome` can bring the result back.
    """
    ships = pocket_ships(state, ship_ids)
    if len({ship.side for ship in ships}) < 2:
        raise PocketError("a pocket battle needs ships of at least two sides")
    board, placements = _fit(_placements(ships))
    qs_ships = [
        ShipState(
            id=ship.id, side=ship.side, card=_card_for(ship), column=p.bow.column, row=p.bow.row,
            facing=p.facing, damage=_damage_in(ship),
        )
        for ship, p in zip(ships, placements)
    ]
    sides = [side for side in state.sides if any(s.side == side for s in ships)]
    return GameState(board=board, phase="initiative", ships=qs_ships, sides=sides,
                     roller=roller or Roller(seed="00"))


def destroyed_slots(ship: ShipState, location: str) -> set[int]:
    """Slots of a Quick-Start location destroyed (circled or struck through)."""
    return set(ship.damage.get(location, {}))


def pocket_outcome(battle: GameState) -> dict[str, ShipOutcome]:
    """What the Quick-Start battle did to each ship, in War Fleet terms."""
    outcome = {}
    for ship in battle.ships:
        lost = [
            name for name, location in ship.card.locations.items()
            if location_lost(location, destroyed_slots(ship, name))
        ]
        outcome[ship.id] = ShipOutcome(
            casualty=ship.removed or ship.destruction is not None,
            destroyed_locations=lost,
        )
    return outcome
