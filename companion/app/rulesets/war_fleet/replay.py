"""War Fleet's replay (views/replay.py): its ship tokens on the map, its banner, and each side's
ships in one line each (where, and what is lost)."""

from __future__ import annotations

from typing import Any

import flet as ft

from ...views.widgets import tag
from . import model as M
from .tokens import draw_tokens


class WarFleetReplay:
    has_map = True
    ring = False  # one hex a ship: no ring
    note = ""

    def cells_of(self, ship: Any) -> list[Any]:
        return [ship.hex] if ship.placed else []  # one hex a ship

    def cells(self, state: Any) -> list[Any]:
        return [cell for ship in state.ships if not ship.removed for cell in self.cells_of(ship)]

    async def draw(self, view: Any, state: Any) -> None:
        draw_tokens(view.drawn, view.app.theme_name, state, view.selected)
        banner = M.banner(state)
        view.where.value, view.whose.value = banner.title, banner.detail
        view.lost.controls = view.lost_lines([(s.name, s.side, "lost" if s.lost else "casualty" if s.casualty else "removed")
                                              for s in state.ships if s.lost or s.casualty or s.removed])
        view.ships.controls = self._ships(view, state)

    @staticmethod
    def _ships(view: Any, state: Any) -> list[ft.Control]:
        """Each side's ships in one line each: where, and what is lost (the War Fleet cards' state)."""
        out: list[ft.Control] = []
        for side in state.sides:
            out.append(ft.Text(side, size=16, weight=ft.FontWeight.BOLD, color=view.colour(state.sides, side)))
            for ship in (s for s in state.ships if s.side == side):
                hurt = ", ".join(loc.replace("_", " ") for loc in ship.destroyed)
                words = f"{ship.name}: {ship.describe_position(state.board)}" + (f" · lost {hurt}" if hurt else "") \
                    + (" · casualty" if ship.casualty else "")
                out.append(tag(f"replay-wf-{ship.id}", ft.Text(words, size=13)))
        return out
