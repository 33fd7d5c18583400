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
median.  Aim: under 50 ms for either tap.

Fire plans (issue 30): `companion plan --side` on the 40-ship board, each side's
every gun at its best option (`advice.best_shots`), timed per target: exact
while the tallies fit `fire_plan.MAX_EXACT_CARDS`, else sampled with its
stated error; and the same targets forced onto the sampled path (`bound=0`),
to time it and show its largest error.  Aim: every target under 0.5 s.

Run: `python benchmarks/bench_planner.py [--quick]` (`--quick`: one run each, for the smoke test).
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
from companion.engine.quick_start.advice import advise, best_shots, side_ships  # noqa: E402
from companion.engine.quick_start.fire_plan import by_target, fire_plan  # noqa: E402
from companion.files import load_catalogue  # noqa: E402

REPEATS = 1 if "--quick" in sys.argv[1:] else 5


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


def fire_plans(state) -> None:
    """Per side: targets, how many exact, the slowest target (exact or sampled), then every target sampled."""
    print(f"\n{'fire plan, 40 ships':<26} {'targets':>7} {'exact':>5} {'slowest target':>15}"
          f" {'all sampled: slowest':>21} {'largest error':>13}")
    for side in state.sides:
        shots = [shot for ship_id in side_ships(state, side) for shot in best_shots(advise(state, ship_id))]
        groups = by_target(shots)
        plans = {t: fire_plan(state, group).targets[0] for t, group in groups.items()}
        best = max((timed(lambda: fire_plan(state, group)), t) for t, group in groups.items())
        sampled = max((timed(lambda: fire_plan(state, group, bound=0)), t) for t, group in groups.items())
        error = max(fire_plan(state, group, bound=0).targets[0].expected_slots.error for group in groups.values())
        print(f"{side + ' side':<26} {len(groups):>7} {sum(p.exact for p in plans.values()):>5}"
              f" {best[0]:>9.1f} ms ({best[1]}) {sampled[0]:>11.1f} ms ({sampled[1]}) {error:>10.3f} slots")


def main() -> None:
    print(f"{'table':<34} {'tap':<16} {'median ship':>12} {'slowest ship':>13}")
    for name, state in (("Quick-Start, 40 ships (20 v 20)", forty_ship_board(load_catalogue())),
                        ("War Fleet 20 v 20, as it opens", opening())):
        for tap, times in zip(("Plan (shades)", "an end hex"), per_ship(state)):
            slowest = max(times)
            print(f"{name:<34} {tap:<16} {statistics.median(t for t, _ in times):>9.1f} ms {slowest[0]:>10.1f} ms"
                  f"  ({slowest[1]})")
    fire_plans(forty_ship_board(load_catalogue()))


if __name__ == "__main__":
    main()
