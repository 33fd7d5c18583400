"""The movement planner's guns for Quick-Start (issue 17): the fire panel on the moved game.

The shared planner (app/planner_model.py) asks the table for these rows
(`Planner(..., guns=guns_from)`), so it never asks which ruleset a game is.
"""

from __future__ import annotations

from typing import Any

from ....engine.quick_start.reach import Reached, state_after
from ....engine.quick_start.state import GameState
from ...panels import fire_panel
from ...planner_model import GunShots, TargetShot
from ...viewmodels import location_name


def guns_from(state: GameState, ship_id: str, reached: Reached) -> tuple[GunShots, ...]:
    """For each gun, the enemies it would have in arc and range from the end position, with the
    exact odds of the fire panel read on the game with the ship placed there; guns with no such
    enemy are left out."""
    after = state_after(state, ship_id, reached.path)
    guns = []
    for gun in fire_panel(after, ship_id):
        targets = tuple(sorted((_target(t) for t in gun.targets if t.strikes), key=lambda t: (-t.best, t.name)))
        if targets:
            guns.append(GunShots(f"{location_name(gun.location)} {gun.slot}: {gun.name} ({gun.bands})", targets))
    return tuple(guns)


def _target(target: Any) -> TargetShot:
    lines = [f"{s.name}: damage {s.damage_text}, keel {s.keel_text}, ship destroyed {s.ship_destroyed_text}"
             for s in target.strikes]
    exact = [f"{s.name}: damage {s.damage}, keel {s.keel}, ship destroyed {s.ship_destroyed}" for s in target.strikes]
    best = max(s.damage for s in target.strikes)
    return TargetShot(target.target, target.name, target.summary, "; ".join(lines), "; ".join(exact), best)
