"""Decisive Victory's replay (views/replay.py): no map (an open table), the ships' cards as they were."""

from __future__ import annotations

from typing import Any

from . import model as M
from .ship import ship_card


class DecisiveVictoryReplay:
    has_map = False
    ring = False
    note = "Decisive Victory is played on an open table: no map, the ships' cards as they were."

    def cells_of(self, ship: Any) -> list[Any]:
        return []  # an open table: no hexes

    def cells(self, state: Any) -> list[Any]:
        return []

    async def draw(self, view: Any, state: Any) -> None:
        banner = M.banner(state)
        view.where.value, view.whose.value = banner.title, banner.detail
        rows = M.ship_rows(state)
        view.lost.controls = view.lost_lines([(r.name, r.side, r.removed) for r in rows if r.removed])
        view.ships.controls = [ship_card(r, 30) for r in rows]
