"""War Fleet ships and positions for tests, written like the rule text's examples.

`attack(...)`, `loc(...)` and `stats(...)` build War Fleet stats stating only
what a test's rule needs; `warship(...)` puts a ship on a hex; `table(...)`
builds a War Fleet game from ships.
"""

from __future__ import annotations

from companion.engine.board import Board
from companion.engine.hexes import parse_facing
from companion.engine.roller import Roller
from companion.engine.war_fleet.state import WarFleetState, WarShip
from companion.engine.war_fleet.stats import WarFleetStats

BOARD = Board(columns=30, rows=20)


def attack(short=(0, "DYellow"), long=(1, "DBlue"), traits=(), name="gun", saturation=0) -> dict:
    return {"name": name, "short": {"range": short[0], "dice": short[1]},
            "long": {"range": long[0], "dice": long[1]}, "traits": list(traits), "saturation": saturation}


def loc(resilience=8, destroyed=5, modifier=3, gun=None) -> dict:
    return {"resilience": resilience, "destroyed_resilience": destroyed, "si_modifier": modifier, "attack": gun}


def stats(name="Ship", ship_class=2, si=10, mp=6, **locations) -> WarFleetStats:
    """Four locations; those not given have no attack, Resilience 8, destroyed 5, modifier 3."""
    names = ("bow", "port", "starboard", "stern")
    if any("_" in n for n in locations):
        names = ("bow", "port_bow", "port_quarter", "starboard_bow", "starboard_quarter", "stern")
    locs = {n: locations.get(n) or loc() for n in names}
    return WarFleetStats.model_validate({"name": name, "class": ship_class, "si": si, "mp": mp, "locations": locs})


def warship(ship_id, side, the_stats=None, hex_="1010", facing="N", destroyed=(), **changes) -> WarShip:
    cell = BOARD.parse(hex_) if hex_ else None
    ship = WarShip(id=ship_id, side=side, stats=the_stats or stats(ship_id), facing=parse_facing(facing), **changes)
    if cell is not None:
        ship = ship.at(cell)
    for location in destroyed:
        ship = ship.with_location(location, "destroyed")
    return ship


def table(*ships: WarShip, phase="combat", seed="war fleet", board=BOARD, **changes) -> WarFleetState:
    sides = list(dict.fromkeys(s.side for s in ships))
    return WarFleetState(board=board, ships=list(ships), sides=sides, phase=phase,
                         roller=Roller.from_seed(seed), **changes)
