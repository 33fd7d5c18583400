"""A seeded 10-turn Quick-Start game played through the ruleset's own options (issue 17's report).

`QUICK_START_SCENARIO`: the Quick-Start scenario's four shipped cards (HML Hertfordshire and
HML Raven against Pontbriand and Pelletier) on a 33 x 19 board. `play_turns(store_game, rng,
turns)` drives any game (anything with `state` and `act`, or the engine alone with
`options_log`) by picking, with a seeded `random.Random`, among the actions
`QUICK_START.options` says are possible: in movement each ship takes two to five steps
(forward mostly, never into the half-hexes at the edge) and ends its move; in combat each
ship declares at most three shots a turn, every declared shot is resolved, then the turn ends.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from companion.engine.quick_start.movement import take_step
from companion.engine.quick_start.ruleset import QUICK_START

QUICK_START_SCENARIO = {
    "format": "leviathans-scenario/1", "ruleset": "quick-start", "name": "Report: ten turns",
    "board": {"columns": 33, "rows": 19}, "turn": 1,
    "ships": [
        {"id": "hertfordshire", "side": "British", "card": "hml-hertfordshire", "bow": "1210", "facing": "N"},
        {"id": "raven", "side": "British", "card": "hml-raven", "bow": "1514", "facing": "N"},
        {"id": "pontbriand", "side": "French", "card": "pontbriand", "bow": "2108", "facing": "S"},
        {"id": "pelletier", "side": "French", "card": "pelletier", "bow": "1804", "facing": "S"},
    ],
}


#: Guns a ship fires at most in a turn (so that both fleets last the ten turns).
SHOTS_A_TURN = 3


def write_scenario(folder: Path) -> str:
    path = folder / "ten-turns.json"
    path.write_text(json.dumps(QUICK_START_SCENARIO))
    return str(path)


def choose(state: Any, rng: random.Random) -> dict[str, Any] | None:
    """The next action of the scripted player, among the possible options (None: the game is over)."""
    if state.phase == "over":
        return None
    possible = [o.action for o in QUICK_START.options(state) if o.possible]
    kinds: dict[str, list[dict[str, Any]]] = {}
    for action in possible:
        kinds.setdefault(action["kind"], []).append(action)
    if state.phase == "movement":
        return _move(state, kinds, rng)
    if state.phase == "combat":
        return _fire(state, kinds, rng)
    return possible[0]


def _move(state: Any, kinds: dict[str, list[dict[str, Any]]], rng: random.Random) -> dict[str, Any]:
    steps = [a for a in kinds.get("step", []) if not _off_edge(state, a)]
    ends = kinds.get("end_move", [])
    if steps:
        ship = state.ship(steps[0]["ship"])
        if ship.mp_spent < rng.randint(2, 5) or not ends:
            return rng.choices(steps, [5 if a["step"] == "forward" else 1 for a in steps])[0]
    fallback = ends or kinds.get("end_movement") or kinds.get("step") or [a for group in kinds.values() for a in group]
    return rng.choice(fallback)


def _off_edge(state: Any, action: dict[str, Any]) -> bool:
    ship = state.ship(action["ship"])
    moved = take_step(ship, action["step"], state.board)
    return any(state.board.in_half_hex_ring(c) or not state.board.contains(c) for c in moved.hexes)


def _fire(state: Any, kinds: dict[str, list[dict[str, Any]]], rng: random.Random) -> dict[str, Any]:
    if kinds.get("resolve_shot"):
        return kinds["resolve_shot"][0]
    fired = [s.attacker for s in state.shots]
    shots = [a for a in kinds.get("declare_shot", []) if fired.count(a["attacker"]) < SHOTS_A_TURN and a["target_location"]]
    if shots:
        return rng.choice(shots)
    return kinds["end_turn"][0]


def options_log(initial: Any, seed: int, turns: int = 10) -> list[dict[str, Any]]:
    """The actions of a seeded game from `initial` until `turns` turns have ended (or the game is over)."""
    rng, state, log = random.Random(seed), initial, []
    while state.turn <= turns and (action := choose(state, rng)) is not None:
        outcome = QUICK_START.apply(state, action)
        assert outcome.ok, (action, outcome.reason)
        state = outcome.state
        log.append(action)
    return log


def play_turns(game: Any, seed: int, turns: int = 10) -> int:
    """Act on a live game until `turns` turns have ended; returns how many actions."""
    rng, done = random.Random(seed), 0
    while game.state.turn <= turns and (action := choose(game.state, rng)) is not None:
        outcome = game.act(action)
        assert outcome.ok, (action, outcome.reason)
        done += 1
    return done
