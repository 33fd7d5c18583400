"""The benchmark boards time what their titles say (issue 30): shots in arc and range, with odds."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from bench_solutions import closed_table, forty_ship_board, in_range  # noqa: E402

from companion.files import load_catalogue  # noqa: E402


def test_the_four_ship_and_forty_ship_boards_have_shots_in_arc_and_range():
    catalogue = load_catalogue()
    closed, forty = closed_table(catalogue), forty_ship_board(catalogue)
    assert in_range(closed) >= 20 and in_range(forty) >= 150
    assert all(in_range(closed.model_copy(update={"ships": [s for s in closed.ships if s.side == "French"]
                                                   + [ship]})) for ship in closed.ships if ship.side == "British")
