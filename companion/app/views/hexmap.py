"""The hex map: a static grid layer, an arc layer, a ship layer, with pan, zoom and centre.

Sending a canvas of a thousand shapes is slow and rebuilding it slower, so the
grid (hex outlines, labels, the half-hex ring) is drawn once per board and
never touched again; ships are a few shapes each, changed in place when they
move (and only those shapes are sent, not the ship layer); arcs and deployment
zones are one fill per hex, made the first time the hex is shaded and then only
repainted (a new selection sends the colours that changed, not new paths).
Pinch and pan have known Flutter-web bugs on phones, so zoom and centre
buttons sit over the map.  With `motion` on (the table, not the TV: issue 18), the ship that just
moved gets a ring that fades out in about a second (`show_moved`).
"""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable

import flet as ft
import flet.canvas as cv

from ...engine.hexes import Hex
from ...engine.quick_start.state import GameState, ShipState
from ..client_calls import ask
from ..geometry import HexLayout
from ..motion import Moved
from ..tasks import soon
from ..theme import ARCS, CIRCLED, FLASH, arc_opacity, map_colours, side_colour
from ..viewmodels import ArcShade
from .frame import on
from .widgets import flash_box, flash_off, flash_on

TapHandler = Callable[[Hex], Awaitable[None]]
NOTE_ROOM = 56  # px at the top of the map kept clear for the floating note and the arc legend
SETTLE = 0.25  # s: how long the map's size must stay put before it is fitted
LABEL, LEAST = 0.5, 0.67  # a hex number's size (times the hex's), the least zoom of a fit: 10 px at 30


def hex_path(layout: HexLayout, cells, inset: float = 0.0) -> list:
    outlines = HexOutlines(layout, inset, closed=True)
    return [element for cell in cells for element in outlines.outline(cell)]


class HexOutlines:
    """Each hex's outline as path elements, made once (for hex fills).

    A filled path closes each hex by itself, so no Close element is sent."""

    def __init__(self, layout: HexLayout, inset: float, closed: bool = False):
        self.layout, self.inset, self.closed = layout, inset, closed  # closed: drawn as a line
        self._made: dict[Hex, tuple] = {}

    def outline(self, cell: Hex) -> tuple:
        made = self._made.get(cell)
        if made is None:
            corners = self.layout.corners(cell, self.inset)
            made = self._made[cell] = (cv.Path.MoveTo(*corners[0]), *(cv.Path.LineTo(x, y) for x, y in corners[1:]),
                                       *((cv.Path.Close(),) if self.closed else ()))
        return made


ZONE = "#0097a7"  # where the selected ship may deploy: an outline, never a fill that could pass for an arc
NONE = "#00000000"  # a hex fill not shown: fully transparent


class HexFills:
    """A layer of hex fills changed by colour, not by shape: each hex gets one fill the first
    time it is shaded, kept for good; later shadings only repaint the hexes whose colour
    changes (a few bytes each) instead of sending new paths.

    A fill's outline is a tuple, not a list: it never changes, and Flet compares only list
    fields of a kept shape, so an update walks each fill's colour and not its six corners."""

    def __init__(self, outlines: HexOutlines, width: float, height: float):
        self.outlines = outlines
        self.canvas = cv.Canvas(shapes=[], width=width, height=height)
        self._fills: dict[Hex, cv.Path] = {}

    def show(self, colours: dict[Hex, str]) -> bool:
        """These hexes in these colours, every other hex clear; whether anything changed."""
        changed = False
        for cell, fill in self._fills.items():
            colour = colours.get(cell, NONE)
            if fill.paint.color != colour:
                fill.paint.color = colour  # in place: a new Paint would be configured and sent whole
                changed = True
        for cell, colour in colours.items():
            if cell not in self._fills:
                paint = stroke_paint(colour, 3) if self.outlines.closed else fill_paint(colour)
                fill = self._fills[cell] = cv.Path(self.outlines.outline(cell), paint=paint)  # type: ignore[arg-type]
                self.canvas.shapes.append(fill)
                changed = True
        return changed


def _over(layers: list[tuple[str, float]]) -> str:
    """One colour for fills drawn one over another (#rrggbb at an opacity, source over)."""
    if len(layers) == 1:
        colour, opacity = layers[0]
        return ft.Colors.with_opacity(opacity, colour)
    alpha, rgb = 0.0, [0.0, 0.0, 0.0]  # premultiplied
    for colour, opacity in layers:
        parts = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
        rgb = [c * opacity + r * (1 - opacity) for c, r in zip(parts, rgb)]
        alpha = opacity + alpha * (1 - opacity)
    return ft.Colors.with_opacity(round(alpha, 4), "#" + "".join(f"{round(c / alpha):02x}" for c in rgb))


def arc_colours(shades: tuple[ArcShade, ...], palette: str | bool = "light") -> dict[Hex, str]:
    """Each shaded hex's colour: its arc's colour, stronger at short range (as the palette's sky
    needs: `theme.arc_opacity`); where arcs overlap, the later drawn over the earlier."""
    layers: dict[Hex, list[tuple[str, float]]] = {}
    for shade in shades:
        layer = (ARCS.get(shade.location, "#888888"), arc_opacity(shade.band, palette))
        for cell in shade.cells:
            layers.setdefault(cell, []).append(layer)
    return {cell: _over(parts) for cell, parts in layers.items()}


def _look(shape) -> tuple:
    """What a ship's shape shows: to send only the shapes that changed (a new selection
    changes two outlines, not the hulls, bows and names)."""
    if isinstance(shape, cv.Text):
        return shape.x, shape.y, shape.value, list(shape.spans or ())
    return list(shape.elements), shape.paint


def fill_paint(colour: str, opacity: float = 1.0) -> ft.Paint:
    return ft.Paint(color=ft.Colors.with_opacity(opacity, colour) if opacity < 1 else colour,
                    style=ft.PaintingStyle.FILL)


def stroke_paint(colour: str, width: float) -> ft.Paint:
    return ft.Paint(color=colour, style=ft.PaintingStyle.STROKE, stroke_width=width,
                    stroke_join=ft.StrokeJoin.ROUND)


class ShipShapes:
    """The shapes of one ship, changed in place when it moves."""

    def __init__(self):
        self.hull = cv.Path([], paint=fill_paint("#000000"))
        self.outline = cv.Path([], paint=stroke_paint("#000000", 2))
        self.bow = cv.Path([], paint=fill_paint("#ffffff"))
        self.name = cv.Text(0, 0, "", alignment=ft.Alignment.CENTER)
        self.key: tuple | None = None

    @property
    def shapes(self) -> list:
        return [self.hull, self.outline, self.bow, self.name]


class HexMap:
    def __init__(self, state: GameState, dark: bool, on_tap: TapHandler, size: float = 30.0, ring: bool = True,
                 motion: bool = False):
        self.ring = ring  # shade the half-hex ring (War Fleet has none)
        self.motion = motion  # ring the ship that just moved (not on the TV: nothing on its critical path)
        self.layout = HexLayout(state.board, size)
        self.board = state.board
        self.dark = dark
        self.on_tap = on_tap
        self.colours = map_colours(dark)
        self.name_size = 16.0  # px: a ship's name (the TV's is larger, read across the room)
        self.canvas_names = True  # False: the names are drawn over the map by its screen (the TV's, issue 28)
        w, h = self.layout.width, self.layout.height
        self.grid = cv.Canvas(shapes=self._grid_shapes(), width=w, height=h)
        self.labels = cv.Canvas(shapes=self._label_shapes(), width=w, height=h)  # over the ships: read under them
        self._arc_fills = HexFills(HexOutlines(self.layout, inset=1), w, h)
        self._zone_fills = HexFills(HexOutlines(self.layout, inset=4, closed=True), w, h)  # over the ships
        self.arcs = self._arc_fills.canvas
        self.ships = cv.Canvas(shapes=[], width=w, height=h)
        self.zones = self._zone_fills.canvas
        self.marks = cv.Canvas(shapes=[], width=w, height=h)
        self._ship_shapes: dict[str, ShipShapes] = {}
        self._arc_key = None
        self._mark_key = None
        self.moved_ring = cv.Path([], paint=stroke_paint(FLASH, 8))
        self.moved_box = flash_box(content=cv.Canvas(shapes=[self.moved_ring], width=w, height=h), width=w, height=h)
        self._moved_event: int | None = None
        self.stack = ft.Stack([self.grid, self.arcs, self.ships, self.labels, self.zones, self.marks, self.moved_box],
                              width=w, height=h)
        self.viewer = ft.InteractiveViewer(
            # no semantics node for the taps: with the browser's accessibility tree on, a tap on one
            # is reported at the node's middle, not where the finger was
            content=ft.Semantics(exclude_semantics=True,
                                 content=ft.GestureDetector(content=self.stack, on_tap_down=self._tapped)),
            constrained=False, min_scale=0.25, max_scale=3.0,
            boundary_margin=ft.Margin.all(400), expand=True, on_interaction_start=self._moved_by_hand,
        )
        zoom = ft.Column([
            _map_button(ft.Icons.ADD, "Zoom in", on(self._zoom, 1.4), "zoom-in"),
            _map_button(ft.Icons.REMOVE, "Zoom out", on(self._zoom, 1 / 1.4), "zoom-out"),
            _map_button(ft.Icons.CENTER_FOCUS_STRONG, "Centre on the selected ship (or the fleets)", self._centre, "centre"),
            _map_button(ft.Icons.FIT_SCREEN, "Whole board", self._fit, "whole-board"),
        ], spacing=6, tight=True)
        self.view_size: tuple[float, float] | None = None
        self.focus: Hex | None = None
        self.fleet: tuple[Hex, ...] = ()  # the hexes to fit in view when the map comes on screen
        self._fitted = False
        self._fit_lock = asyncio.Lock()
        # under the floating note (which covers it while it shows)
        self.legend = ft.Container(visible=False, left=8, top=8, padding=ft.Padding.symmetric(horizontal=8, vertical=4),
                                   border_radius=8, bgcolor=ft.Colors.with_opacity(0.88, ft.Colors.SURFACE))
        self.box = ft.Container(
            content=ft.Stack([self.viewer, self.legend, ft.Container(content=zoom, right=8, bottom=8)], expand=True),
            bgcolor=self.colours["sky"], expand=True, clip_behavior=ft.ClipBehavior.HARD_EDGE,
            on_size_change=self._resized, size_change_interval=50,
        )
        self.control = ft.Semantics(identifier="map", content=self.box, container=True, expand=True,
                                    label="Hex map: tap a ship to select it, tap a hex to place it there")

    # --- static grid -------------------------------------------------------------

    def _grid_shapes(self) -> list:
        layout, board, c = self.layout, self.board, self.colours
        cells = list(board.cells())
        ring = [cell for cell in cells if board.in_half_hex_ring(cell)] if self.ring else []
        return [
            cv.Rect(0, 0, layout.width, layout.height, paint=fill_paint(c["sky"])),
            cv.Path(hex_path(layout, ring), paint=fill_paint(c["ring"])),
            cv.Path(hex_path(layout, cells), paint=stroke_paint(c["grid"], 1)),
        ]

    def _label_shapes(self) -> list:
        """Each hex's number at the top of the hex, LABEL times the hex size: 10 px or more on
        screen at the least zoom a fit chooses (LEAST), on a ship's fill as on the sky."""
        layout, c = self.layout, self.colours
        style = ft.TextStyle(size=layout.size * LABEL, color=c["label"], weight=ft.FontWeight.W_500,
                             shadow=ft.BoxShadow(blur_radius=2, color=c["sky"]))
        return [cv.Text(x, y - layout.size * 0.6, self.board.label(cell), style=style, alignment=ft.Alignment.CENTER)
                for cell in self.board.cells() for x, y in (layout.centre(cell),)]

    # --- ships ---------------------------------------------------------------------

    def show_ships(self, state: GameState, selected: str | None) -> list[ft.Control]:
        """Update ship shapes in place; returns what to send: the shapes of the ships that
        changed, or the whole ship layer when a ship came or went."""
        added = False
        redrawn: list[ft.Control] = []
        seen = set()
        for ship in state.ships:
            seen.add(ship.id)
            shapes = self._ship_shapes.get(ship.id)
            if shapes is None:
                shapes = self._ship_shapes[ship.id] = ShipShapes()
                self.ships.shapes.extend(shapes.shapes)
                added = True
            key = (ship.hexes, ship.facing, ship.id == selected, ship.removed, ship.destroyed_count(),
                   ship.move_done, ship.turn_declared, self.dark)
            if key != shapes.key:
                before = [_look(shape) for shape in shapes.shapes]
                self._draw_ship(shapes, ship, state, ship.id == selected)
                shapes.key = key
                redrawn += [shape for shape, was in zip(shapes.shapes, before) if _look(shape) != was]
        for gone in set(self._ship_shapes) - seen:
            for shape in self._ship_shapes.pop(gone).shapes:
                self.ships.shapes.remove(shape)
            added = True
        return [self.ships] if added else redrawn

    def _draw_ship(self, shapes: ShipShapes, ship: ShipState, state: GameState, selected: bool) -> None:
        layout = self.layout
        colour = "#8a8f96" if ship.removed else side_colour(state.sides, ship.side)
        shapes.hull.elements = hex_path(layout, ship.hexes, inset=3)
        shapes.hull.paint = fill_paint(colour, 0.35 if ship.removed else 0.85)
        shapes.outline.elements = hex_path(layout, ship.hexes, inset=3)
        shapes.outline.paint = stroke_paint("#ffd54a" if selected else self.colours["halo"], 4 if selected else 1.5)
        # bow marker: a triangle pointing at the faced hexside
        bx, by = layout.centre(ship.bow)
        tip = layout.facing_point(ship.bow, ship.facing, 0.85)
        left = layout.facing_point(ship.bow, (ship.facing - 1) % 6, 0.35)
        right = layout.facing_point(ship.bow, (ship.facing + 1) % 6, 0.35)
        shapes.bow.elements = [cv.Path.MoveTo(*tip), cv.Path.LineTo(*left), cv.Path.LineTo(bx, by),
                               cv.Path.LineTo(*right), cv.Path.Close()]
        shapes.bow.paint = fill_paint("#ffffff", 0.5 if ship.removed else 0.95)
        # name over the middle hex, with the damage count
        xs, ys = zip(*(layout.centre(c) for c in ship.hexes))
        name = ship.card.name.replace("HML ", "")
        damage, big, small = ship.destroyed_count(), self.name_size, self.name_size * 7 / 8
        shapes.name.x, shapes.name.y = sum(xs) / len(xs), sum(ys) / len(ys)
        shapes.name.value = None
        if not self.canvas_names:
            shapes.name.spans, shapes.name.style = [], None
            return
        shapes.name.spans = [
            ft.TextSpan(name, ft.TextStyle(size=big, weight=ft.FontWeight.BOLD, color="#ffffff",
                                           shadow=ft.BoxShadow(blur_radius=3, color="#000000"))),
        ] + ([ft.TextSpan(" ", ft.TextStyle(size=small)),
              ft.TextSpan(f" \u00d7{damage} ", ft.TextStyle(size=small, weight=ft.FontWeight.BOLD, color="#ffffff",
                                                          bgcolor=CIRCLED))] if damage else []
             ) + ([ft.TextSpan("  sunk", ft.TextStyle(size=small, color="#ffffff", bgcolor="#555a61"))] if ship.removed else []
                  ) + ([ft.TextSpan(" turn", ft.TextStyle(size=small, weight=ft.FontWeight.BOLD, color="#000000",
                                                          bgcolor="#ffd54a"))] if ship.turn_declared else [])  # H3's marker
        shapes.name.style = None

    def show_moved(self, moved: Moved | None, state: GameState) -> list[ft.Control]:
        """Ring the ship that just moved, once per move; fading out in about a second.  Returns what to send."""
        if not self.motion or moved is None or moved.event == self._moved_event:
            return []
        self._moved_event = moved.event
        if not state.has_ship(moved.ship) or state.ship(moved.ship).removed:
            return []
        self.moved_ring.elements = hex_path(self.layout, state.ship(moved.ship).hexes, inset=0)
        if not soon(None, flash_off, self.moved_box):
            return []
        flash_on(self.moved_box)
        return [self.moved_box]

    # --- arcs and marks ----------------------------------------------------------------

    def show_arcs(self, shades: tuple[ArcShade, ...], key) -> list[ft.Control]:
        """Shade the arcs (each hex repainted in place); returns what to send."""
        if key == self._arc_key:
            return []
        self._arc_key = key
        changed: list[ft.Control] = [self.arcs] if self._arc_fills.show(arc_colours(shades, self.dark)) else []
        self.legend.content = _legend(shades)
        self.legend.visible = bool(shades)
        return changed + [self.legend]

    def show_marks(self, cells: list[Hex], zone: tuple[Hex, ...], key) -> list[ft.Control]:
        """Highlight hexes (a chosen hex for 'place at') and, in set-up, where the selected ship may deploy."""
        if key == self._mark_key:
            return []
        self._mark_key = key
        changed: list[ft.Control] = []
        if self._zone_fills.show(dict.fromkeys(zone, ZONE)):
            changed.append(self.zones)
        shapes: list[cv.Shape] = [cv.Path(hex_path(self.layout, cells, inset=2), paint=stroke_paint(CIRCLED, 3))] if cells else []
        if shapes or self.marks.shapes:
            self.marks.shapes = shapes
            changed.append(self.marks)
        return changed

    # --- gestures and buttons --------------------------------------------------------------

    async def _tapped(self, e: ft.TapEvent) -> None:
        pos = e.local_position
        if pos is None:
            return
        cell = self.layout.hex_at(pos.x, pos.y)
        if cell is not None:
            await self.on_tap(cell)

    async def _zoom(self, factor: float) -> None:
        self._fitted = True
        await ask("zoom the map", lambda: self.viewer.zoom(factor), on=self.viewer, wait=None)

    async def _fit(self, e) -> None:
        self._fitted = True
        await self.fit(tuple(self.board.cells()), least=0)

    async def _centre(self, e) -> None:
        self._fitted = True
        await (self.fit((self.focus,), most=1.0) if self.focus is not None else self.fit(self.fleet))

    def remounted(self) -> None:
        """The map was put (back) on screen: Flutter starts it unzoomed, so fit it again."""
        self._fitted = False

    async def _moved_by_hand(self, e) -> None:
        self._fitted = True  # the player's zoom and pan stay

    async def _resized(self, e) -> None:
        """Fit the fleets in view when the map first shows, and again when the view changes
        size (a banner grows, a strip appears) until the player pans or zooms.
        The fit runs as its own task, so the size event's handler returns at once."""
        size = self.view_size = (e.width, e.height)
        if self._fitted or not (e.width > 0 and e.height > 0):
            return
        soon(self.box.page, self._fit_when_settled, size)

    async def _fit_when_settled(self, size) -> None:
        await asyncio.sleep(SETTLE)  # a screen being built resizes the map a few times: fit once it settles
        if self.view_size == size and not self._fitted:
            await self.fit(self.fleet)

    async def fit(self, cells: tuple[Hex, ...], most: float = 1.25, least: float = LEAST) -> None:
        """Zoom and pan so these hexes fill the view (the whole board when none), between `least`
        times (names still readable) and `most` times, clear of the note and the legend at the top."""
        if self.view_size is None:
            return
        cells = cells or tuple(self.board.cells())
        layout = self.layout
        xs = [layout.centre(c)[0] for c in cells]
        ys = [layout.centre(c)[1] for c in cells]
        pad = layout.size * 2.2
        left, right, top, bottom = min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad
        vw, vh = self.view_size
        room = vh - NOTE_ROOM
        scale = max(least, self.viewer.min_scale, min(most, vw / (right - left), room / (bottom - top)))
        cx, cy = (left + right) / 2, (top + bottom) / 2
        async def zoom_and_pan() -> None:
            await self.viewer.reset()
            if scale != 1:
                await self.viewer.zoom(scale)
            # after a zoom by s about the origin, a pan by d shows content point p at s * (p + d);
            # the middle is moved clear of the note and the legend at the top
            await self.viewer.pan(vw / 2 / scale - cx, (vh + NOTE_ROOM) / 2 / scale - cy)

        async with self._fit_lock:  # two fits at once would zoom twice
            # the map gone from the page meanwhile (a tap on Whole board as the screen changed, a browser
            # closed while the map was laid out: found by the monkey) is logged, never a traceback
            await ask("fit the map's view", zoom_and_pan, on=self.viewer, wait=None)


def _legend(shades: tuple[ArcShade, ...]) -> ft.Control:
    """Which colour is which arc; the darker shade is short range."""
    seen = list(dict.fromkeys(shade.location for shade in shades))
    items = [ft.Row([ft.Container(width=10, height=10, border_radius=3, bgcolor=ARCS.get(loc, "#888888")),
                     ft.Text(loc.replace("_", " ").capitalize(), size=11)], spacing=3, tight=True) for loc in seen]
    return ft.Row([*items, ft.Text("· darker: short range", size=10, color=ft.Colors.ON_SURFACE_VARIANT)],
                  spacing=8, tight=True, wrap=True, run_spacing=2)


def _map_button(icon, tooltip: str, handler, ident: str) -> ft.Control:
    style = ft.ButtonStyle(bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH, shape=ft.CircleBorder(),
                           padding=12, shadow_color=ft.Colors.SHADOW, elevation=2)
    return ft.Semantics(identifier=ident, container=True, content=ft.IconButton(
        icon, on_click=handler, tooltip=tooltip, style=style, width=48, height=48))
