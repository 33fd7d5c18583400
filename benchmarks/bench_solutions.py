"""Time every firing solution with exact odds for every ship.

Two tables: the four Quick-Start ships closed to battle (every ship has guns
in arc and range: the Quick-Start opening has none, so it computes no odds),
and a 40-ship board (20 against 20).  "in range" counts the solutions in arc
and range (those with odds).  "cold" empties every cache and table first (the
first look at a new game); "warm" is the steady state while a game is played
(arc tables, range tables and odds filled).  Times are CPU time (the machine
is shared), cold and warm each the median of their repeats.  Aims (issue 30): 40 ships under
20 ms cold and 10 ms warm, the four ships under 5 ms cold.
Run: `python benchmarks/bench_solutions.py [--quick]` (`--quick`: a few repeats, for the smoke test).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.engine import arcs, dice  # noqa: E402
from companion.engine.quick_start import combat  # noqa: E402
from companion.engine.board import Board  # noqa: E402
from companion.engine.quick_start.combat import firing_solutions  # noqa: E402
from companion.engine.footprint import Placement  # noqa: E402
from companion.engine.hexes import Hex  # noqa: E402
from companion.engine.quick_start.state import GameState, ShipState, SlotStatus  # noqa: E402
from companion.files import load_catalogue  # noqa: E402

QUICK_START = [
    ("hertfordshire", "British", "hml-hertfordshire", "0610", 1),
    ("raven", "British", "hml-raven", "0812", 1),
    ("pontbriand", "French", "pontbriand", "2609", 4),
    ("pelletier", "French", "pelletier", "2412", 5),
]
#: The same four ships closed to battle in mid-board: each has guns in arc and range.
CLOSED = [
    ("hertfordshire", "British", "hml-hertfordshire", "1509", 1),
    ("raven", "British", "hml-raven", "1512", 2),
    ("pontbriand", "French", "pontbriand", "1909", 5),
    ("pelletier", "French", "pelletier", "1912", 4),
]


def quick_start_table(catalogue, where=QUICK_START) -> GameState:
    """The four Quick-Start ships: as they deploy (`QUICK_START`), or closed to battle (`CLOSED`)."""
    board = Board()
    ships = []
    for ship_id, side, card_id, bow, facing in where:
        cell = board.parse(bow)
        ships.append(ShipState(id=ship_id, side=side, card=catalogue[card_id],
                               column=cell.column, row=cell.row, facing=facing, moved=True))
    return GameState(board=board, ships=ships, sides=["British", "French"], phase="combat")


def forty_ship_board(catalogue, seed: int = 1) -> GameState:
    """20 against 20 on the Quick-Start board, some damaged, none overlapping."""
    rng = random.Random(seed)
    board = Board()
    cards = list(catalogue.values())
    ships, taken = [], set()
    for side, columns in (("British", range(3, 15)), ("French", range(19, 31))):
        for n in range(20):
            card = rng.choice(cards)
            while True:
                bow = Hex.at(rng.choice(columns), rng.randrange(3, 17))
                facing = rng.randrange(6)
                cells = set(Placement(bow, facing, card.type).hexes)
                if not cells & taken and all(board.contains(c) for c in cells):
                    break
            taken |= cells
            damage = {}
            for loc, spec in card.locations.items():
                for number, slot in enumerate(spec.slots, start=1):
                    if slot.kind != "miss" and rng.random() < 0.15:
                        damage.setdefault(loc, {})[number] = rng.choice(list(SlotStatus)[1:])
            ships.append(ShipState(id=f"{side[0]}{n}", side=side, card=card, column=bow.column,
                                   row=bow.row, facing=facing, moved=rng.random() < 0.5, damage=damage))
    return GameState(board=board, ships=ships, sides=["British", "French"], phase="combat")


def every_solution(state: GameState) -> int:
    return sum(len(firing_solutions(state, s.id)) for s in state.ships)


def in_range(state: GameState) -> int:
    """The solutions in arc and range (those with odds)."""
    return sum(s.band != "out" for ship in state.ships for s in firing_solutions(state, ship.id))


def closed_table(catalogue) -> GameState:
    """The four Quick-Start ships closed to battle (`CLOSED`)."""
    return quick_start_table(catalogue, CLOSED)


def clear_caches() -> None:
    arcs.clear_tables()
    combat.clear_memos()
    for cached in (dice.counts, dice._parsed):
        cached.cache_clear()


#: CPU time where the platform has it (the machine is shared), else the wall clock.
CLOCK = time.process_time


def measure(state: GameState, repeats: int, colds: int = 5) -> tuple[float, float, int]:
    """(cold median, warm median, solutions): cold over `colds` runs each after `clear_caches`
    (one cold run on a shared machine is one sample of its noise), warm over `repeats` runs."""
    cold_runs = []
    for _ in range(colds):
        clear_caches()
        start = CLOCK()
        count = every_solution(state)
        cold_runs.append(CLOCK() - start)
    cold = statistics.median(cold_runs)
    warm = []
    for _ in range(repeats):
        start = CLOCK()
        every_solution(state)
        warm.append(CLOCK() - start)
    return cold, statistics.median(warm), count


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    catalogue = load_catalogue()
    print(f"{'table':<28} {'in range':>8} {'solutions':>9} {'cold':>10} {'warm (median)':>14}")
    for name, state, repeats in (
        ("Quick-Start, 4 ships", closed_table(catalogue), 3 if quick else 50),
        ("40 ships, 20 against 20", forty_ship_board(catalogue), 2 if quick else 20),
    ):
        cold, warm, count = measure(state, repeats, 1 if quick else 9)
        print(f"{name:<28} {in_range(state):>8} {count:>9} {cold * 1000:>8.1f} ms {warm * 1000:>11.1f} ms")


if __name__ == "__main__":
    main()
