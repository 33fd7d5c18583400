"""Time listing every War Fleet attack option, with exact odds, on the 20-against-20 board.

The shipped scenario `fleets/war-fleet-20v20.json` is timed as it opens (the
battle lines four hexes apart, out of range) and closed to battle: both French
lines moved four and five hexes west, into the British lines, with one ship in
five carrying a destroyed location (some of them the stern, so attacks on them
dial up).  Every option is an attack a ship can declare (each location with an
attack against each enemy in arc and range, and every bracket of bracket-fire
guns), with its exact odds at every location it can strike; "with reasons"
also lists every other (location, enemy) pair with why it cannot attack.
"cold" empties every cache first; "warm" is the steady state during play.
Aim: under 100 ms.  Run: `python benchmarks/bench_warfleet.py` (`--quick`: two warm runs each, for
the suite's smoke test).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.engine import arcs, dice  # noqa: E402
from companion.engine.hexes import Hex  # noqa: E402
from companion.engine.war_fleet import arcs as wf_arcs, dialup, odds as wf_odds, state as wf_state  # noqa: E402
from companion.engine.war_fleet.combat import all_attack_options  # noqa: E402
from companion.engine.war_fleet.scenario import build_warfleet_state  # noqa: E402
from companion.engine.war_fleet.state import WarFleetState  # noqa: E402
from companion.files import load_catalogue, load_file, shipped_fleets_dir  # noqa: E402

SCENARIO = shipped_fleets_dir() / "war-fleet-20v20.json"


def opening() -> WarFleetState:
    return build_warfleet_state(load_file(SCENARIO), load_catalogue()).model_copy(update={"phase": "combat"})


def closed_to_battle(state: WarFleetState) -> WarFleetState:
    """The French battle line four hexes west, its destroyers five; every fifth ship damaged."""
    ships = []
    for n, ship in enumerate(state.ships):
        if ship.side == "French":
            ship = ship.at(Hex.at(ship.column - (4 if ship.column == 14 else 5), ship.row))
        if n % 5 == 0:
            ship = ship.with_location("stern" if n % 10 == 0 else "bow", "destroyed")
        ships.append(ship)
    return state.model_copy(update={"ships": ships})


def clear_caches() -> None:
    for cached in (arcs._in_wedge_from_corner_0, dice.counts, wf_arcs._meets_cone,
                   wf_arcs.offset_in_degrees, wf_arcs._struck, wf_odds._odds, dialup.canonical,
                   dialup._dialled, wf_state._hex_at):
        cached.cache_clear()


def measure(state: WarFleetState, repeats: int, impossible: bool = False) -> tuple[float, float, int, int]:
    clear_caches()
    start = time.perf_counter()
    options = all_attack_options(state, impossible=impossible)
    cold = time.perf_counter() - start
    warm = []
    for _ in range(repeats):
        start = time.perf_counter()
        all_attack_options(state, impossible=impossible)
        warm.append(time.perf_counter() - start)
    possible = [o for o in options if o.possible]
    return cold, statistics.median(warm), len(possible), sum(len(o.strikes) for o in possible)


def main() -> None:
    repeats = 2 if "--quick" in sys.argv[1:] else 20
    start = opening()
    battle = closed_to_battle(start)
    print(f"{'20 against 20':<34} {'options':>7} {'strikes':>7} {'cold':>10} {'warm (median)':>14}")
    for name, state, impossible in (
        ("as the scenario opens", start, False),
        ("closed to battle", battle, False),
        ("closed to battle, with reasons", battle, True),
    ):
        cold, warm, count, strikes = measure(state, repeats, impossible)
        print(f"{name:<34} {count:>7} {strikes:>7} {cold * 1000:>8.1f} ms {warm * 1000:>11.1f} ms")


if __name__ == "__main__":
    main()
