"""How long the shared screen takes to place its labels (issue 35): War Fleet's twenty against
twenty as the 1920 x 1080 TV draws it (40 tokens, 39.75 px hexes), with `label_layout.lay_out`:

- first: no previous layout (the TV opens): names tried at 30 and 24 px, then the marks;
- again: the same position with the previous layout (a refresh where nothing moved);
- a move: HML Leviathan two hexes on, with the previous layout (every other label kept).

CPU time (the machine is shared), the median of several runs.  The TV lays its labels out on every
change of the game, so this is what a change costs its session.

Run: `python benchmarks/bench_tv_labels.py [--quick]`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from companion.app import label_layout as L  # noqa: E402
from test_label_layout import BOUNDS, twenty_against_twenty  # noqa: E402


def median_ms(call, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few runs (a smoke test)")
    repeats = 3 if parser.parse_args().quick else 25
    items, moved = twenty_against_twenty(), twenty_against_twenty(moved="hml-leviathan")
    first = L.lay_out(items, (30, 24), 26, BOUNDS)
    rows = [("first", lambda: L.lay_out(items, (30, 24), 26, BOUNDS)),
            ("again", lambda: L.lay_out(items, (30, 24), 26, BOUNDS, first)),
            ("a move", lambda: L.lay_out(moved, (30, 24), 26, BOUNDS, first))]
    print(f"War Fleet 20v20 on a 1920x1080 TV: {len(items)} labels, marks: {first.marks}")
    for name, call in rows:
        print(f"  {name:8} {median_ms(call, repeats):7.1f} ms")


if __name__ == "__main__":
    main()
