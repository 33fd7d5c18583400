"""What the app's Report view shows of a game (issue 17's after-action report), without flet.

`report_screen(store, game_id, turn)` reads the game (its start and its log) and turns
`engine.report.Report` into the numbers the charts draw: each side's luck line in percent,
damage dealt against expected, shots per gun, ships lost by turn, and the summary rows;
exact values are kept as text for the tooltips.  A game that cannot be read gives
`problem` in words, never an exception.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..engine.report import Report
from ..engine.report_damage import LUCK_NOTE
from ..report_page import game_report, num, pct, report_colours


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    tip: str


@dataclass(frozen=True)
class Series:
    side: str
    colour: str
    points: tuple[Point, ...]


@dataclass(frozen=True)
class Bar:
    label: str
    side: str
    colour: str
    value: float
    expected: float | None
    tip: str


@dataclass(frozen=True)
class SideSummary:
    side: str
    colour: str
    rows: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class ReportScreen:
    game_id: str
    name: str
    ruleset: str
    turn: int | None
    turns: tuple[int, ...] = ()
    sides: tuple[SideSummary, ...] = ()
    luck: tuple[Series, ...] = ()
    luck_turns: tuple[Series, ...] = ()
    damage: tuple[Bar, ...] = ()
    guns: tuple[Bar, ...] = ()
    lost: tuple[Series, ...] = ()
    problem: str | None = None
    html_command: str = field(default="")
    luck_note: str = ""  # whose rolls count, in the ruleset's own words ("": the view's Quick-Start words)

    @property
    def when(self) -> str:
        if self.turn is not None:
            return f"turn {self.turn}"
        return f"turns {self.turns[0]} to {self.turns[-1]}" if self.turns else "no turn played yet"


def report_screen(store, game_id: str, turn: int | None = None) -> ReportScreen:
    """The Report view's figures for a stored game (of any ruleset), or its problem in words."""
    try:
        stored = store.stored(store.find(game_id))
    except (KeyError, ValueError) as exc:
        return ReportScreen(game_id, game_id, "", turn, problem=str(exc).strip("'\""))
    record = stored.record
    name = record.name or record.id
    try:
        report = game_report(record.ruleset, record.initial, stored.entries, turn)
    except ValueError as exc:
        return ReportScreen(record.id, name, record.ruleset, turn, problem=str(exc))
    return from_report(record.id, name, report)


def from_report(game_id: str, name: str, report: Report) -> ReportScreen:
    colours = report_colours(report)
    words = report.words
    return ReportScreen(
        game_id=game_id, name=name, ruleset=report.ruleset, turn=report.only_turn, turns=tuple(report.turns),
        sides=tuple(_summary(report, side.side, colours[side.side]) for side in report.sides),
        luck=tuple(Series(s.side, colours[s.side], tuple(
            Point(p.turn, _percent(p.running), f"{s.side}, after turn {p.turn}: {pct(p.running)} (exact {p.running})")
            for p in s.luck if p.running is not None)) for s in report.sides),
        luck_turns=tuple(Series(s.side, colours[s.side], tuple(
            Point(p.turn, _percent(p.mean), f"{s.side}, turn {p.turn}: {p.rolls} rolls, mean {pct(p.mean)}")
            for p in s.luck if p.mean is not None)) for s in report.sides),
        damage=tuple(
            [Bar(f"{s.side} {words.dealt_short}", s.side, colours[s.side], s.slots_destroyed, float(s.slots_expected),
                 f"{s.side}: {s.slots_destroyed} {words.dealt}, {num(s.slots_expected)} expected ({s.slots_expected})")
             for s in report.sides]
            + [Bar(f"{s.side} {words.second_short}", s.side, colours[s.side], s.keel_breaks, float(s.keel_expected),
                   f"{s.side}: {s.keel_breaks} {words.second}, {num(s.keel_expected)} expected ({s.keel_expected})")
               for s in report.sides]),
        guns=tuple(Bar(f"{g.ship} {g.location} {g.slot} {g.gun}" if g.slot else f"{g.ship} {g.gun}", s.side,
                       colours[s.side], g.shots, None,
                       f"{g.ship}, {g.gun} ({g.location}): {g.shots} shots, {g.slots_destroyed} {words.dealt_short}, "
                       f"{g.keel_breaks} {words.second_short}")
                   for s in report.sides for g in s.guns),
        lost=tuple(Series(s.side, colours[s.side], tuple(
            Point(p.turn, p.total, f"{s.side}, turn {p.turn}: " + (", ".join(p.ships) + " lost" if p.ships else "none lost")
                  + f" ({p.total} in all)") for p in s.lost)) for s in report.sides),
        html_command=f"companion report {game_id} --out report.html"
                     + (f" --turn {report.only_turn}" if report.only_turn is not None else ""),
        luck_note="" if words.luck_note == LUCK_NOTE else words.luck_note,
    )


def _percent(value: Fraction | None) -> float:
    return 0.0 if value is None else float(value) * 100


def _summary(report: Report, side: str, colour: str) -> SideSummary:
    s = next(x for x in report.sides if x.side == side)
    words = report.words
    return SideSummary(side, colour, (
        ("rolls", str(len(s.rolls))),
        ("mean percentile (50% is even luck)", pct(s.mean_percentile)),
        (words.shots, str(len(s.shots))),
        (f"{words.dealt} / expected", f"{s.slots_destroyed} / {num(s.slots_expected)}"),
        (f"{words.second} / expected", f"{s.keel_breaks} / {num(s.keel_expected)}"),
        ("ships lost", str(s.lost[-1].total if s.lost else 0)),
    ))
