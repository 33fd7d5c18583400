"""Time the movement planner: one ship's reach on the 40-ship board (issue 17).

The board is bench_solutions.py's: 20 against 20 random printed cards on the
Quick-Start board, none overlapping, every ship with all its MP (Type 1 ships
of 12 MP reach about 500 end positions).  Each ship's reach is timed `REPEATS`
times; printed: the median over every ship of its median time, and the
slowest ship's median (CPU time, so that other jobs on the machine count
less).  Also the War Fleet 20-against-20 battle as it opens.
Aim: under 20 ms for one ship.  Run: `python benchmarks/bench_reach.py` (`--quick`: five ships of
each table, timed once: seconds, for the suite's smoke test).
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
from companion.engine.quick_start.reach import reach  # noqa: E402
from companion.engine.war_fleet.reach import reach as wf_reach  # noqa: E402
from companion.files import load_catalogue  # noqa: E402

REPEATS = 7


def per_ship(state, planner, ships: int | None = None, repeats: int = REPEATS) -> list[tuple[float, str, int]]:
    """(median ms, ship id, end positions) for every ship (or the first `ships`)."""
    timed = []
    for ship in state.ships[:ships]:
        runs = []
        for _ in range(repeats):
            start = time.process_time()
            found = planner(state, ship.id)
            runs.append(time.process_time() - start)
        timed.append((statistics.median(runs) * 1000, ship.id, len(found.positions)))
    return timed


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    print(f"{'table':<34} {'positions (max)':>15} {'median ship':>12} {'slowest ship':>13}")
    for name, state, planner in (
        ("Quick-Start, 40 ships (20 v 20)", forty_ship_board(load_catalogue()), reach),
        ("War Fleet 20 v 20, as it opens", opening(), wf_reach),
    ):
        timed = per_ship(state, planner, 5, 1) if quick else per_ship(state, planner)
        median = statistics.median(t for t, _, _ in timed)
        slowest = max(timed)
        print(f"{name:<34} {max(n for _, _, n in timed):>15} {median:>9.1f} ms {slowest[0]:>10.1f} ms"
              f"  ({slowest[1]}, {slowest[2]} positions)")


if __name__ == "__main__":
    main()
