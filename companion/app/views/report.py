"""The Report view (`/report/<game id>`, issue 17): a game's after-action report drawn with the
Flet chart package (flet-charts): each side's luck line, damage dealt against expected, shots
per gun and ships lost by turn, the whole game or one turn.  The figures come from
`app.report_model` (no flet there); `companion report GAME` writes the same as a web page."""

from __future__ import annotations

import asyncio

import flet as ft
import flet_charts as fch

from ..report_model import Bar, ReportScreen, Series, report_screen
from ..session import Session
from ..tasks import soon
from .frame import on
from .pages import titled
from .widgets import heading, icon_button, muted, section, tag

WHOLE = "all"
CHART_HEIGHT = 230


def build(app) -> ft.Control:
    game_id = app.session.game_id or ""
    holder = ft.Column(spacing=12, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
    picker = ft.Dropdown(label="Turns", value=WHOLE, width=200, dense=True, menu_height=360,
                         options=[ft.DropdownOption(key=WHOLE, text="Whole game")])

    async def fill(turn: int | None = None) -> None:
        model = await asyncio.to_thread(report_screen, app.store, game_id, turn)
        if len(picker.options) == 1 and model.turns and turn is None:
            picker.options += [ft.DropdownOption(key=str(t), text=f"Turn {t}") for t in model.turns]
        holder.controls = report_controls(model)
        app.page.update()

    async def picked(e) -> None:
        assert picker.value is not None  # a picked option has its key
        await fill(None if picker.value == WHOLE else int(picker.value))

    picker.on_select = picked
    soon(app.page, fill)
    back = icon_button(ft.Icons.ARROW_BACK, "Back to the game", on(app.navigate, Session("game", game_id, tab="log")),
                       "report-back")
    return titled(app, "After-action report", tag("report-turn", picker), holder, back=back, widest=1100)


def report_controls(model: ReportScreen) -> list[ft.Control]:
    if model.problem:
        return [tag("report-problem", ft.Text(f"No report: {model.problem}", color=ft.Colors.ERROR))]
    cards = [_side_card(s.side, s.colour, s.rows) for s in model.sides]
    charts = [
        _chart("Luck line: mean percentile of the rolls so far (line) and in each turn (dots); 50% is even luck",
               luck_chart(model), "report-luck"),
        _chart("Damage dealt (solid) against expected (pale)", damage_chart(model.damage), "report-damage"),
        _chart("Shots per gun", guns_chart(model.guns), "report-guns",
               muted("  ".join(f"{i}: {b.label} ({b.value:g})" for i, b in enumerate(model.guns, 1)), 11)),
        _chart("Ships lost, running total by turn", lost_chart(model), "report-lost"),
    ]
    return [
        tag("report-when", muted(f"{model.name}: {model.when}. " + (model.luck_note or "Each roll's percentile is its "
              "place in its own pool's exact distribution (P(lower total) + half P(this total)); breach and keel rolls "
              "count for the firing side, initiative rolls for the rolling side."), 13)),
        ft.ResponsiveRow([ft.Container(c, col={"xs": 12, "md": 6}) for c in cards], spacing=12, run_spacing=12),
        ft.ResponsiveRow([ft.Container(c, col={"xs": 12, "md": 6}) for c in charts], spacing=12, run_spacing=12),
    ]


def _side_card(side: str, colour: str, rows: tuple[tuple[str, str], ...]) -> ft.Control:
    return tag(f"report-side-{side}", section(
        ft.Row([ft.Container(width=14, height=14, bgcolor=colour, border_radius=3), heading(side, 17)]),
        *[ft.Row([ft.Text(label, size=13, expand=True), ft.Text(value, size=13, weight=ft.FontWeight.BOLD)])
          for label, value in rows]))


def _chart(title: str, chart: ft.Control, ident: str, *below: ft.Control) -> ft.Control:
    return tag(ident, section(ft.Text(title, size=14, weight=ft.FontWeight.BOLD),
                              ft.Container(chart, height=CHART_HEIGHT), *below))


def _axis(labels: dict[float, str] | None = None, size: float = 36, title: str | None = None,
          every: float = 1) -> fch.ChartAxis:
    """An axis with a label at each of `labels` (`every`: their spacing, so that none is skipped)."""
    return fch.ChartAxis(
        label_size=size, label_spacing=every, title=ft.Text(title, size=12) if title else None, title_size=18 if title else 0,
        labels=[fch.ChartAxisLabel(value=v, label=ft.Text(t, size=11)) for v, t in (labels or {}).items()] or None)


def _grid() -> fch.ChartGridLines:
    return fch.ChartGridLines(color=ft.Colors.with_opacity(0.15, ft.Colors.ON_SURFACE), width=1)


def _line(series: Series, *, dots: bool, width: float = 3, step: bool = False) -> fch.LineChartData:
    return fch.LineChartData(
        points=[fch.LineChartDataPoint(p.x, p.y, tooltip=p.tip) for p in series.points],
        color=series.colour if not dots else ft.Colors.TRANSPARENT, stroke_width=0 if dots else width,
        point=fch.ChartCirclePoint(radius=4, color=series.colour, stroke_width=0) if dots else False,
        step_direction=0.0 if step else None)


def luck_chart(model: ReportScreen) -> ft.Control:
    turns = [model.turn] if model.turn is not None else list(model.turns) or [1]
    return fch.LineChart(
        data_series=[_line(s, dots=False) for s in model.luck] + [_line(s, dots=True) for s in model.luck_turns],
        min_y=0, max_y=100, min_x=turns[0] - 0.5, max_x=turns[-1] + 0.5,
        left_axis=_axis({0: "0%", 25: "25%", 50: "50%", 75: "75%", 100: "100%"}, 40, every=25),
        bottom_axis=_axis({t: str(t) for t in turns}, 28, "turn"),
        horizontal_grid_lines=fch.ChartGridLines(interval=25, color=ft.Colors.with_opacity(0.2, ft.Colors.ON_SURFACE),
                                                 width=1),
        interactive=True, expand=True)


def damage_chart(bars: tuple[Bar, ...]) -> ft.Control:
    top = max([b.value for b in bars] + [b.expected or 0 for b in bars] + [1])
    every = max(1, int(top) // 4)
    groups = [fch.BarChartGroup(x=i, rods=[
        fch.BarChartRod(to_y=b.value, width=16, color=b.colour, tooltip=b.tip, border_radius=2),
        fch.BarChartRod(to_y=b.expected or 0, width=16, color=ft.Colors.with_opacity(0.35, b.colour),
                        tooltip=b.tip, border_radius=2),
    ]) for i, b in enumerate(bars)]
    return fch.BarChart(groups=groups, min_y=0, max_y=top * 1.15, interactive=True, expand=True,
                        left_axis=_axis({v: str(v) for v in range(0, int(top * 1.15) + 1, every)}, every=every),
                        bottom_axis=_axis({i: b.label.replace(" ", "\n", 1) for i, b in enumerate(bars)}, 36),
                        horizontal_grid_lines=_grid())


def guns_chart(bars: tuple[Bar, ...]) -> ft.Control:
    if not bars:
        return muted("No shot resolved.")
    top = max(b.value for b in bars)
    groups = [fch.BarChartGroup(x=i, rods=[fch.BarChartRod(to_y=b.value, width=10, color=b.colour, tooltip=b.tip,
                                                          border_radius=2)]) for i, b in enumerate(bars)]
    return fch.BarChart(groups=groups, min_y=0, max_y=top + 1, interactive=True, expand=True,
                        left_axis=_axis({v: str(v) for v in range(0, int(top) + 2)}, 28),
                        bottom_axis=_axis({i: str(i + 1) for i in range(len(bars))}, 24, "gun (tap a bar for its name)"),
                        horizontal_grid_lines=_grid())


def lost_chart(model: ReportScreen) -> ft.Control:
    turns = [model.turn] if model.turn is not None else list(model.turns) or [1]
    most = max([p.y for s in model.lost for p in s.points] + [1])
    return fch.LineChart(
        data_series=[_line(s, dots=False, step=True) for s in model.lost],
        min_y=0, max_y=most + 0.5, min_x=turns[0] - 0.5, max_x=turns[-1] + 0.5, interactive=True, expand=True,
        left_axis=_axis({v: str(v) for v in range(0, int(most) + 1)}, 28),
        bottom_axis=_axis({t: str(t) for t in turns}, 28, "turn"), horizontal_grid_lines=_grid())
