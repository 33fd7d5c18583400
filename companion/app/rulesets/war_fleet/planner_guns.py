"""The movement planner's guns for War Fleet (issue 17): the attack options on the moved game.

The shared planner (app/planner_model.py) asks the body for these rows
(`Planner(..., guns=guns_from)`), so it never asks which ruleset a game is.
"""

from __future__ import annotations

from ....engine.quick_start.reach import Reached
from ....engine.war_fleet.combat import attack_options
from ....engine.war_fleet.state import WarFleetState
from ...planner_model import GunShots, TargetShot
from ...viewmodels import location_name, percent


def guns_from(state: WarFleetState, ship_id: str, reached: Reached) -> tuple[GunShots, ...]:
    """For each location's guns, the enemies they would have in arc and range from the end
    position, with the exact odds (single-location attacks); guns with no such enemy are left out."""
    ship = state.ship(ship_id)
    moved = ship.at(reached.position.bow, reached.position.facing, mp_spent=ship.mp_spent + reached.mp_cost)
    after = state.with_ship(moved).model_copy(update={"attacks": []})
    by_gun: dict[str, list[TargetShot]] = {}
    names: dict[str, str] = {}
    for option in attack_options(after, ship_id, brackets=False):
        if not option.strikes:
            continue
        location = option.locations[0]
        names[location] = f"{location_name(location)}: {option.name}"
        target = after.ship(option.target)
        lines = [f"{location_name(s.location)} destroyed {percent(s.odds.location_destroyed)}, "
                 f"casualty {percent(s.odds.casualty)}" for s in option.strikes]
        exact = [f"{location_name(s.location)}: {s.odds.location_destroyed} / {s.odds.casualty}" for s in option.strikes]
        bands = "/".join(sorted(set(option.bands.values())))
        by_gun.setdefault(location, []).append(TargetShot(
            option.target, target.name, f"range {option.range}, {bands}", "; ".join(lines), "; ".join(exact),
            max(s.odds.casualty for s in option.strikes)))
    return tuple(GunShots(names[loc], tuple(sorted(shots, key=lambda t: (-t.best, t.name))))
                 for loc, shots in by_gun.items())
