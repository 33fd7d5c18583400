"""War Fleet's ships drawn into a map's ship layer: a token per ship, several to a hex in a ring, the
selected one ringed (the table's map, the replay's and the shared screen's)."""

from __future__ import annotations

import math

import flet as ft
import flet.canvas as cv

from . import model as M
from ...theme import SIDES, map_colours, side_colour
from ...views.hexmap import HexMap, fill_paint, stroke_paint


BOW = 1.25  # how far a token's bow reaches, in its radii (the tokens' drawing, the TV's labels)


def _side_colour(state, side: int) -> str:
    """A side's hulls in its faction's colour, as on the Quick-Start map (British red, French blue)."""
    sides = list(state.sides)
    return side_colour(sides, sides[side]) if 0 <= side < len(sides) else SIDES[side % len(SIDES)]


def draw_tokens(hexmap: HexMap, theme_name: str, state, selected: str | None, names: bool = True) -> None:
    """Every ship of a War Fleet position into a map's ship layer (the table's and the replay's): a
    token per ship, several to a hex in a ring, the selected one ringed; its name under it unless
    `names` is False (the shared screen draws them larger itself)."""
    layout, colours = hexmap.layout, map_colours(theme_name)
    shapes: list[cv.Shape] = []
    for ship in M.map_ships(state, selected):
        cx, cy, radius = M.token_spot(layout, ship)
        colour = _side_colour(state, ship.side)
        shapes.append(cv.Circle(cx, cy, radius, fill_paint(colour, 0.45 if (ship.done or ship.pocket) else 0.9)))
        if ship.casualty:
            shapes.append(cv.Circle(cx, cy, radius, stroke_paint("#111111", 3)))
        ring = "#ffd54a" if ship.selected else colours["halo"]
        shapes.append(cv.Circle(cx, cy, radius, stroke_paint(ring, 4 if ship.selected else 1.5)))
        facing = math.radians(-90 + 60 * ship.facing)
        bow = [(cx + radius * r * math.cos(facing + turn), cy + radius * r * math.sin(facing + turn))
               for r, turn in ((BOW, 0.0), (0.55, -2.2), (0.55, 2.2))]  # tip, left, right
        shapes.append(cv.Path([cv.Path.MoveTo(*bow[0]), *(cv.Path.LineTo(*p) for p in bow[1:]), cv.Path.Close()],
                              paint=fill_paint("#ffffff")))
        if names and (ship.crowd == 1 or ship.selected):
            label = ship.label + (f" ({ship.damaged} lost)" if ship.damaged else "") + (" sinking" if ship.casualty else "")
            shapes.append(cv.Text(cx, cy + radius + 7, label, alignment=ft.Alignment.CENTER, style=ft.TextStyle(
                size=10, weight=ft.FontWeight.BOLD, color="#ffffff",
                shadow=ft.BoxShadow(blur_radius=3, color="#000000"))))
    hexmap.ships.shapes = shapes
