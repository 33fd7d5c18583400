"""One side's options while a shot or attack waits to be rolled.

`Ruleset.options(state, side)` offers a side the roll of each declared shot
(Quick-Start) or attack (War Fleet) its own ship made.  The candidates named a
helper that was removed when the side rules moved into engine/ruleset.py, so
asking for one side's options in that moment raised NameError (found by
`mypy --strict companion/engine`, tests/test_engine_types.py).
"""

from __future__ import annotations

import random

from companion.engine.quick_start.ruleset import QUICK_START
from companion.engine.ruleset import Ruleset
from companion.engine.war_fleet.ruleset import WAR_FLEET
from random_games import next_action, starting_state
from warfleet_for_tests import attack, loc, stats, table, warship


def _waiting(ruleset: Ruleset, state, rng: random.Random, pick, records: str):
    """The first state of a seeded random game with a declared, unrolled shot or attack."""
    for _ in range(400):
        if any(r.result is None for r in getattr(state, records)):
            return state
        state = ruleset.apply(state, pick(state, rng)).state
    raise AssertionError(f"no {records} waited to be rolled in 400 actions")


def _each_sides_rolls(ruleset: Ruleset, state, records: str, kind: str, key: str) -> None:
    for record in getattr(state, records):
        if record.result is not None:
            continue
        owner = state.ship(record.attacker).side
        for side in {ship.side for ship in state.ships}:
            rolls = {o.action[key] for o in ruleset.options(state, side) if o.action["kind"] == kind}
            assert (record.id in rolls) == (side == owner), (side, owner, rolls)


def test_a_side_is_offered_the_roll_of_its_own_declared_shot_only():
    state = _waiting(QUICK_START, starting_state(3), random.Random(3), next_action, "shots")
    _each_sides_rolls(QUICK_START, state, "shots", "resolve_shot", "shot")


def _war_fleet_pick(state, rng: random.Random):
    return rng.choice([o.action for o in WAR_FLEET.options(state) if o.possible])


def test_a_side_is_offered_the_roll_of_its_own_declared_attack_only():
    gun = loc(gun=attack(short=(2, "DYellow"), long=(5, "DBlue")))
    armed = {"bow": gun, "port": gun, "starboard": gun, "stern": gun}
    ships = [warship("a", "X", stats("a", **armed), hex_="0303", facing="S"),
             warship("c", "Y", stats("c", **armed), hex_="0305", facing="N")]
    start = table(*ships, phase="initiative", seed="options by side")
    state = _waiting(WAR_FLEET, start, random.Random(4), _war_fleet_pick, "attacks")
    _each_sides_rolls(WAR_FLEET, state, "attacks", "roll_attack", "attack")
