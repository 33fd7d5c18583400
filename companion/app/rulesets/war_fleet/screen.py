"""War Fleet's shared screen (a TV by the table): Quick-Start's TV layout (views/screen.py) with War
Fleet's map, tokens and model (app/rulesets/war_fleet/screen_model.py): the turn and phase large, whose move it is,
each declared attack drawn from attacker to target with its exact odds, the last roll's dice, the
ships lost and each side afloat.  Read only, as every shared screen: the server refuses its actions."""

from __future__ import annotations

from ....engine.hexes import Hex
from . import screen_model as W
from ...views.hexmap import HexMap
from ...views.screen import ScreenView
from .tokens import draw_tokens


class WarFleetScreenView(ScreenView):
    def in_play(self, state) -> tuple:
        return tuple(s.hex for s in state.active_ships if s.placed)

    def build_model(self, shown, history, actions: int):
        return W.screen_model(shown, history, actions)

    def new_map(self, state, size: float) -> HexMap:
        return HexMap(state, self.app.theme_name, self._no_tap, size=size, ring=False)

    def draw_ships(self, state) -> None:
        draw_tokens(self.drawn, self.app.theme_name, state, None, names=False)

    def marks(self, state) -> list[tuple[str, str, tuple[float, float], str]]:
        """Each ship's name under its token (ships sharing a hex stacked down the hex)."""
        layout, out = self.drawn.layout, []
        seen: dict[Hex, int] = {}
        for ident, name, cell in W.ship_marks(state):
            x, y = layout.centre(cell)
            below = seen[cell] = seen.get(cell, -1) + 1
            out.append((f"screen-name-{ident}", name, (x, y + layout.size * (0.75 + 0.7 * below)), state.ship(ident).side))
        return out
