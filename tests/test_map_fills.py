"""The map's arc and zone layers: one fill per hex, repainted in place, colours as the old overlapping paths."""

import flet as ft

from companion.app.views.hexmap import NONE, HexFills, HexOutlines, _over, arc_colours
from companion.app.geometry import HexLayout
from companion.app.viewmodels import ArcShade
from companion.engine.board import Board
from companion.engine.hexes import Hex


def test_one_arc_keeps_its_colour_and_opacity():
    assert _over([("#f2a93b", 0.30)]) == ft.Colors.with_opacity(0.30, "#f2a93b")


def test_overlapping_arcs_blend_as_one_drawn_over_the_other():
    # red at 0.5 over blue at 0.5: alpha 0.75, colour (255*0.5, 0, 255*0.25) / 0.75
    assert _over([("#0000ff", 0.5), ("#ff0000", 0.5)]) == ft.Colors.with_opacity(0.75, "#aa0055")


def test_fills_are_made_once_and_repainted():
    board = Board(columns=10, rows=12)
    fills = HexFills(HexOutlines(HexLayout(board, 30), inset=1), 100, 100)
    a, b = Hex(3, 3), Hex(4, 4)
    assert fills.show({a: "#ff0000"})
    first = list(fills.canvas.shapes)
    assert fills.show({b: "#00ff00"})
    assert fills.canvas.shapes[:1] == first and len(fills.canvas.shapes) == 2
    assert [s.paint.color for s in fills.canvas.shapes] == [NONE, "#00ff00"]
    assert not fills.show({b: "#00ff00"})


def test_arc_colours_darker_at_short_range():
    cell = Hex(2, 2)
    short = arc_colours((ArcShade(location="bow", band="short", cells=(cell,)),))
    long = arc_colours((ArcShade(location="bow", band="long", cells=(cell,)),))
    assert short[cell].endswith(",0.45") and long[cell].endswith(",0.3")
    dark = arc_colours((ArcShade(location="bow", band="long", cells=(cell,)),), "dark")
    assert dark[cell].endswith(",0.35")  # stronger over the dark sky (issue 28.6)
