"""Quick-Start's replay (views/replay.py): the shared screen's map with each declared shot drawn,
its headline, the ships lost, and the printed card of the ship picked."""

from __future__ import annotations

import asyncio
from typing import Any

import flet as ft

from ...screenmodel import screen_model
from ...viewmodels import card_view
from ...views.screen import draw_shots_on_canvas
from ...views.shipcard import ShipCard
from ...views.widgets import tag


class QuickStartReplay:
    has_map = True
    ring = True  # a ship's hexes ringed
    note = ""

    def cells_of(self, ship: Any) -> list[Any]:
        return list(ship.hexes)  # every hex of its footprint

    def cells(self, state: Any) -> list[Any]:
        return [cell for ship in state.active_ships for cell in self.cells_of(ship)]

    async def draw(self, view: Any, state: Any) -> None:
        model = await asyncio.to_thread(screen_model, state, (), view.number)
        view.drawn.show_ships(state, view.selected)
        draw_shots_on_canvas(view.drawn, model.shots, lambda side: view.colour(state.sides, side))  # gun to target, odds
        view.where.value, view.whose.value = model.headline, model.whose
        view.lost.controls = view.lost_lines([(lost.name, lost.side, lost.why) for lost in model.lost])
        view.ships.controls = self._ships(view, state)

    @staticmethod
    def _ships(view: Any, state: Any) -> list[ft.Control]:
        if view.selected is None or not state.has_ship(view.selected):
            view.selected = state.ships[0].id if state.ships else None
        chips = view.ship_chips([(s, s.card.name) for s in state.ships])
        card = [tag("replay-card", ShipCard().show(card_view(state, view.selected)))] if view.selected else []
        return [chips, *card]
