"""War Fleet's shared screen (a TV by the table): Quick-Start's TV layout (views/screen.py) with War
Fleet's map, tokens and model (app/rulesets/war_fleet/screen_model.py): the turn and phase large, whose move it is,
each declared attack drawn from attacker to target with its exact odds, the last roll's dice, the
ships lost and each side afloat.  Read only, as every shared screen: the server refuses its actions."""

from __future__ import annotations

from ...label_layout import Item
from . import model as M
from . import screen_model as W
from ...views.hexmap import HexMap
from ...views.screen import ScreenView
from .tokens import BOW, draw_tokens


class WarFleetScreenView(ScreenView):
    def in_play(self, state) -> tuple:
        return tuple(s.hex for s in state.active_ships if s.placed)

    def build_model(self, shown, history, actions: int):
        return W.screen_model(shown, history, actions)

    def new_map(self, state, size: float) -> HexMap:
        return HexMap(state, self.app.theme_name, self._no_tap, size=size, ring=False)

    def draw_ships(self, state) -> None:
        draw_tokens(self.drawn, self.app.theme_name, state, None, names=False)

    def label_items(self, state) -> list[Item]:
        """Each ship on the map: its token (bow included) and its name ("sinking" with it); ships
        sharing a hex each have their own token in the hex's ring (`model.token_spot`)."""
        layout, out = self.drawn.layout, []
        for ship in M.map_ships(state, None):
            cx, cy, radius = M.token_spot(layout, ship)
            reach = radius * BOW
            out.append(Item(ship.id, ship.label + (" (sinking)" if ship.casualty else ""),
                            ((cx - reach, cy - reach, 2 * reach, 2 * reach),), (cx, cy), ship.label,
                            state.sides[ship.side] if ship.side < len(state.sides) else ""))
        return out
