"""Time the movement planner in the app (issue 17): app/planner_model.py for one ship.

The boards are bench_reach.py's: 20 against 20 random printed cards on the
Quick-Start board (bench_solutions.py), and the War Fleet 20-against-20
battle as it opens.  For every ship, timed `REPEATS` times (CPU time, so that
other jobs on the machine count less):

- "Plan": the map's shades, `plan_map` (the ship's reach, its cheapest MP per
  bow hex, the cost bands) -- what a tap on Plan computes;
- "tap an end hex": `plan_view` of the reachable hex farthest from the ship,
  its reach already known as the app keeps it: the facings there, the path,
  each gun's targets from there with the exact odds (the fire panel on
  `state_after`; War Fleet attack options), and `apply` of the `move_along`
  action for "Move there" -- what a tap on the map computes.

Printed: the median over every ship of its median time, and the slowest ship's
median.  Aim: under 50 ms for either tap.  Run: `python benchmarks/bench_planner.py`.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_solutions import forty_ship_board  # noqa: E402
from bench_warfleet import opening  # noqa: E402
from companion.app.planner_model import plan_map, plan_reach, plan_view  # noqa: E402
from companion.files import load_catalogue  # noqa: E402

REPEATS = 5


def timed(call) -> float:
    runs = []
    for _ in range(REPEATS):
        start = time.process_time()
        call()
        runs.append(time.process_time() - start)
    return statistics.median(runs) * 1000


def farthest(state, ship_id, found):
    here = state.ship(ship_id)
    start = here.bow if hasattr(here, "bow") else here.hex
    return max(found.costs(), key=lambda cell: (start.distance(cell), cell.q, cell.r))


def per_ship(state) -> tuple[list[tuple[float, str]], list[tuple[float, str]]]:
    shades, taps = [], []
    for ship in state.active_ships:
        if not getattr(ship, "placed", True):
            continue
        shades.append((timed(lambda: plan_map(state, ship.id)), ship.id))
        found = plan_reach(state, ship.id)
        cell = farthest(state, ship.id, found)
        taps.append((timed(lambda: plan_view(state, ship.id, cell, None, found)), ship.id))
    return shades, taps


def main() -> None:
    print(f"{'table':<34} {'tap':<16} {'median ship':>12} {'slowest ship':>13}")
    for name, state in (("Quick-Start, 40 ships (20 v 20)", forty_ship_board(load_catalogue())),
                        ("War Fleet 20 v 20, as it opens", opening())):
        for tap, times in zip(("Plan (shades)", "an end hex"), per_ship(state)):
            slowest = max(times)
            print(f"{name:<34} {tap:<16} {statistics.median(t for t, _ in times):>9.1f} ms {slowest[0]:>10.1f} ms"
                  f"  ({slowest[1]})")


if __name__ == "__main__":
    main()
