"""The movement planner on screen (issue 17), for the Quick-Start and War Fleet tables alike.

"Plan" on the move controls shades every hex the selected ship's bow can end in
this turn by the MP it costs (a legend of the cost bands over the map, in place
of the arcs' while planning); a tap on a shaded hex offers its facings, draws
the chosen one's path on the map and lists each gun's enemies in arc and range
from there with the exact odds; "Move there" sends the path as one
`move_along` action (one log entry: one Undo takes it back).  Reads
`planner_model` rows, computed with the body's models off the event loop.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable

import flet as ft
import flet.canvas as cv

from ...engine.hexes import Hex
from ...engine.kernel import Refusal
from ..planner_model import GunsFrom, PlanMap, PlanView, plan_map, plan_reach, plan_view
from .frame import on
from .hexmap import HexFills, HexMap, HexOutlines, fill_paint, hex_path, stroke_paint
from .widgets import TOUCH, heading, inner, muted, put, tag

#: The cost bands' colours, cheapest first: where it stands, then green to red.
BAND_COLOURS = ("#607d8b", "#2e7d32", "#f9a825", "#c62828")
PATH = "#1a237e"


class Planner:
    """What one device plans: on or off, the ship, the tapped hex and the chosen facing, and the
    map layers and panel that show it.  `compute` (worker thread) gives the rows; `render` the map's
    changed controls; `panel` the panel's."""

    def __init__(self, hexmap: HexMap, act: Callable[[Any], Awaitable[Any]], refresh: Callable[[], Awaitable[None]],
                 prefix: str = "", guns: GunsFrom | None = None):
        self.map, self.act, self.refresh, self.prefix = hexmap, act, refresh, prefix
        self.guns = guns  # each gun's targets from the end position: the ruleset's own (planner_guns.py)
        self.on = False
        self.ship: str | None = None
        self.cell: Hex | None = None
        self.choice: str | None = None
        self.costs: dict[Hex, int] = {}
        self._cache: tuple[Any, str, Any] | None = None  # (state, ship, reach)
        layout = hexmap.layout
        self.fills = HexFills(HexOutlines(layout, inset=1), layout.width, layout.height)
        self.path = cv.Canvas(shapes=[], width=layout.width, height=layout.height)
        layers = hexmap.stack.controls  # the shades over the arcs and under the ships, the path over the ships
        layers.insert(layers.index(hexmap.ships), self.fills.canvas)
        layers.insert(layers.index(hexmap.labels) + 1, self.path)
        self.legend = ft.Row([], spacing=8, tight=True, wrap=True, run_spacing=2)
        self._arc_legend: tuple[Any, bool] | None = None
        self._drawn: tuple | None = None
        self.side, self.strip = PlanPanel(self), PlanPanel(self, compact=True)  # a phone's strip has its own

    def ident(self, name: str) -> str:
        return self.prefix + name

    # --- the rows (worker thread) -------------------------------------------------------------

    def compute(self, state: Any, ship_id: str | None) -> tuple[PlanMap | None, PlanView | None]:
        """The map's shades and the tapped hex's plan for this state; planning stops when the ship
        changes or leaves play."""
        if not self.on or ship_id is None or ship_id != self.ship:
            self.on, self.cell, self.choice = False, None, None
            return None, None
        cache = self._cache
        if cache is None or cache[0] is not state or cache[1] != ship_id:
            try:
                found = plan_reach(state, ship_id)
            except Refusal:
                self.on = False
                return None, None
            cache = self._cache = (state, ship_id, found)
        found = cache[2]
        shown = plan_map(state, ship_id, found)
        view = plan_view(state, ship_id, self.cell, self.choice, found, self.guns) if self.cell is not None else None
        return shown, view

    # --- handlers ---------------------------------------------------------------------------------

    async def toggle(self, ship_id: str | None) -> None:
        self.on = not self.on and ship_id is not None
        self.ship, self.cell, self.choice = ship_id, None, None
        await self.refresh()

    async def tapped(self, cell: Hex) -> bool:
        """A tap on the map while planning: a shaded hex is chosen (True); any other tap is the
        table's own (False)."""
        if not self.on or cell not in self.costs:
            return False
        self.cell, self.choice = cell, None
        await self.refresh()
        return True

    async def _choose(self, ident: str) -> None:
        self.choice = ident
        await self.refresh()

    async def _move_there(self, e) -> None:
        view = self._view
        if view is None or not view.action:
            return
        outcome = await self.act(view.action)
        if outcome.ok:
            await self._stop()

    async def _stop(self, e=None) -> None:
        self.on, self.cell, self.choice = False, None, None
        await self.refresh()

    # --- the map ------------------------------------------------------------------------------------

    def render(self, shown: PlanMap | None, view: PlanView | None) -> list[ft.Control]:
        """The shades, the path and the legend on the map: the controls that changed."""
        self.costs = dict(shown.costs) if shown else {}
        self._view = view
        changed: list[ft.Control] = []
        colours = {cell: ft.Colors.with_opacity(0.42, BAND_COLOURS[band % len(BAND_COLOURS)])
                   for cell, band in shown.shades.items()} if shown else {}
        if self.fills.show(colours):
            changed.append(self.fills.canvas)
        key = (view.hex_label, view.chosen, view.trail) if view else None
        if key != self._drawn:
            self._drawn = key
            self.path.shapes = self._path_shapes(view) if view else []
            changed.append(self.path)
        return changed + self._legend(shown)

    def _legend(self, shown: PlanMap | None) -> list[ft.Control]:
        hexmap = self.map
        if shown is not None:
            if hexmap.legend.content is not self.legend:
                self._arc_legend = (hexmap.legend.content, hexmap.legend.visible)
            put(self.legend, [ft.Text("MP to end here:", size=11)] + [
                ft.Row([ft.Container(width=10, height=10, border_radius=3, bgcolor=BAND_COLOURS[b.index % 4]),
                        ft.Text(b.label, size=11)], spacing=3, tight=True) for b in shown.bands])
            hexmap.legend.content, hexmap.legend.visible = self.legend, True
            was, hexmap.arcs.visible = hexmap.arcs.visible, False
            return [hexmap.legend] + ([hexmap.arcs] if was else [])
        if self._arc_legend is not None:
            (hexmap.legend.content, hexmap.legend.visible), self._arc_legend = self._arc_legend, None
            hexmap.arcs.visible = True
            return [hexmap.legend, hexmap.arcs]
        return []

    def _path_shapes(self, view: PlanView) -> list:
        layout = self.map.layout
        points = [layout.centre(cell) for cell, _ in view.trail]
        line = [cv.Path.MoveTo(*points[0]), *(cv.Path.LineTo(*p) for p in points[1:])]
        end, facing = view.trail[-1]
        cx, cy = layout.centre(end)
        tip = layout.facing_point(end, facing, 0.9)
        left = layout.facing_point(end, (facing - 1) % 6, 0.45)
        right = layout.facing_point(end, (facing + 1) % 6, 0.45)
        arrow = [cv.Path.MoveTo(*tip), cv.Path.LineTo(*left), cv.Path.LineTo(cx, cy), cv.Path.LineTo(*right),
                 cv.Path.Close()]
        return [cv.Path(hex_path(layout, [end], inset=2), paint=stroke_paint(PATH, 3)),
                cv.Path(line, paint=stroke_paint("#ffffff", 8)), cv.Path(line, paint=stroke_paint(PATH, 4)),
                cv.Circle(*points[0], 5, fill_paint(PATH)),
                cv.Path(arrow, paint=fill_paint("#ffd54a")), cv.Path(arrow, paint=stroke_paint(PATH, 2))]

    # --- the panel ------------------------------------------------------------------------------------

    def panel(self, shown: PlanMap | None, view: PlanView | None, strip: bool = False) -> ft.Control | None:
        """The plan's panel while planning (None when not): the side panel's, or the phone strip's."""
        return (self.strip if strip else self.side).show(shown, view)

    _view: PlanView | None = None


class PlanPanel:
    """The plan's panel, kept on screen and changed in place: the tapped hex's facings, its path,
    each gun's targets from there, Move there and Stop planning."""

    def __init__(self, planner: Planner, compact: bool = False):
        self.planner, self.compact = planner, compact  # compact: a phone's strip, the map kept in view
        ident = planner.ident
        self.heading = heading("", 14)
        self.hint = muted("", 12)
        self.choices = ft.Row([], wrap=not compact, spacing=6, run_spacing=6,
                              scroll=ft.ScrollMode.AUTO if compact else None)
        self.steps = ft.Text("", size=13)
        self.guns = ft.Column([], spacing=6, tight=True)
        self.problem = ft.Text("", size=12, color=ft.Colors.ERROR)
        self.move_button = tag(ident("plan-move-there"), ft.FilledButton(
            content="Move there", icon=ft.Icons.NEAR_ME, on_click=planner._move_there, height=TOUCH))
        self.stop_button = tag(ident("plan-stop"), ft.TextButton(content="Stop planning", icon=ft.Icons.CLOSE,
                                                                 on_click=planner._stop, height=TOUCH))
        self.lines = ft.Column([], spacing=8, tight=True)
        self.control = tag(ident("plan"), ft.Container(content=self.lines, padding=10, border_radius=10,
                                                       bgcolor=ft.Colors.SURFACE_CONTAINER_LOW))

    def ident(self, name: str) -> str:
        return self.planner.ident(name)

    def show(self, shown: PlanMap | None, view: PlanView | None) -> ft.Control | None:
        if shown is None:
            return None
        lines: list[ft.Control] = [self.heading]
        if view is None:
            self.heading.value = "Plan a move"
            self.hint.value = (f"Every shaded hex is a bow hex the ship can end in this turn ({shown.mp_left} MP "
                               "left), coloured by its cheapest MP: tap one.")
            put(self.lines, lines + [self.hint, self.stop_button])
            return self.control
        self.heading.value = f"End at {view.hex_label} facing {view.chosen.name}: {view.mp_cost} MP"
        put(self.choices, [self._choice(c.ident, c.label, c.ident == view.chosen.ident) for c in view.choices])
        self.steps.value = "Path: " + (", ".join(view.steps) if view.steps else "stay where it stands")
        put(self.guns, self._guns(view))
        self.problem.value = view.problem or ""
        inner(self.move_button, ft.FilledButton).disabled = view.problem is not None
        lines += ([] if self.compact else [muted("Facing there:", 12)]) + [
            self.choices, tag(self.ident("plan-path"), self.steps), tag(self.ident("plan-guns"), self.guns)]
        lines += ([self.problem] if view.problem else []) + [ft.Row([self.move_button, self.stop_button], wrap=True)]
        put(self.lines, lines)
        return self.control

    def _choice(self, ident: str, label: str, selected: bool) -> ft.Control:
        return tag(self.ident(ident), ft.Chip(label=ft.Text(label), selected=selected, show_checkmark=False,
                                              on_click=on(self.planner._choose, ident), height=TOUCH))

    def _guns(self, view: PlanView) -> list[ft.Control]:
        if not view.guns:
            return [muted("From there no gun has an enemy in arc and range.", 12)]
        if self.compact:  # one line: each gun's targets with the chance named first (the whole on the Ships tab)
            shots = "; ".join(f"{gun.gun.split(' (')[0]}: " + ", ".join(f"{t.name} {t.odds.split(', ')[0].split(': ')[-1]}"
                                                                        for t in gun.targets) for gun in view.guns)
            return [ft.Text(f"Shots from there: {shots}", size=12)]
        out: list[ft.Control] = [muted("From there, each gun's enemies in arc and range:", 12)]
        for number, gun in enumerate(view.guns):
            rows: list[ft.Control] = [ft.Text(gun.gun, size=13, weight=ft.FontWeight.W_600)]
            rows += [ft.Text(f"{t.name} ({t.summary}): {t.odds}", size=12, tooltip=t.exact) for t in gun.targets]
            out.append(tag(self.ident(f"plan-gun-{number}"), ft.Column(rows, spacing=2, tight=True)))
        return out
