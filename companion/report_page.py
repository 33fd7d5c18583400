"""The after-action report as one self-contained HTML page (issue 17): `companion report GAME`.

The numbers come from `engine.report` (exact fractions, shown rounded; the exact value is in
each figure's tooltip); the charts are inline SVG drawn from them, the CSS is inline, nothing
is fetched.  The page reflows from a desktop's two columns to a phone's one (390 px wide).

`game_report(ruleset_id, initial, entries, turn)` reads a stored game (its start and its log,
undos and redos folded) into a `Report`; the app's report view uses it too.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Iterable, Sequence

from .app.palettes import side_colours
from .engine.report import Report, SideReport, after_action_report
from .engine.registry import RULESETS, find_ruleset
from .printing import escaped as _e
from .store.game import effective_actions


def game_report(ruleset_id: str, initial: Any, entries: Iterable[Any], turn: int | None = None) -> Report:
    """The report of a stored game: its log's actions in effect, replayed from its start."""
    return after_action_report(find_ruleset(ruleset_id), initial, effective_actions(list(entries)), turn)


def report_colours(report: Report) -> dict[str, str]:
    """Each side's colour as the map and the cards draw it (its faction's: British red, French blue;
    issue 28 found the report drawing them blue and orange), in the light palette of the page."""
    return side_colours([s.side for s in report.sides])


def colour_of(report: Report, side: str) -> str:
    return report_colours(report)[side]


def pct(value: Fraction | None) -> str:
    """A percentile in words: `62.5%`, or `-` when there is none."""
    return "-" if value is None else f"{float(value) * 100:.1f}%"


def num(value: Fraction) -> str:
    return f"{float(value):.2f}"


# --- charts -------------------------------------------------------------------------------

W, H, PAD = 440, 240, 40


def luck_chart(report: Report) -> str:
    """The luck line: each side's mean percentile so far after each turn (a line), that turn's
    own mean (dots) and every roll (faint ticks); 50% is even luck."""
    turns = report.turns if report.only_turn is None else [report.only_turn]
    span = max(len(turns) - 1, 1)

    def x(turn: int) -> float:
        return PAD + (turns.index(turn) if len(turns) > 1 else span / 2) * (W - 2 * PAD) / span

    def y(p: Fraction) -> float:
        return H - PAD + (2 * PAD - H) * float(p)

    parts = [_axes(), f'<line x1="{PAD}" x2="{W - PAD}" y1="{y(Fraction(1, 2)):.1f}" y2="{y(Fraction(1, 2)):.1f}" '
             'class="even"/>']
    for p in (0, 25, 50, 75, 100):
        parts.append(f'<text x="{PAD - 6}" y="{y(Fraction(p, 100)) + 4:.1f}" class="tick" text-anchor="end">{p}%</text>')
    for turn in turns:
        parts.append(f'<text x="{x(turn):.1f}" y="{H - PAD + 16}" class="tick" text-anchor="middle">{turn}</text>')
    for side in report.sides:
        colour = colour_of(report, side.side)
        for roll in side.rolls:
            parts.append(f'<circle cx="{x(roll.turn):.1f}" cy="{y(roll.percentile):.1f}" r="2" fill="{colour}" '
                         f'opacity="0.25"><title>{_e(side.side)}, turn {roll.turn}: {_e(roll.what)} {_e(roll.pool)} '
                         f'= {roll.total}, {pct(roll.percentile)}</title></circle>')
        points = [(x(p.turn), y(p.running)) for p in side.luck if p.running is not None]
        if points:
            parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2.5" points="'
                         + " ".join(f"{a:.1f},{b:.1f}" for a, b in points) + '"/>')
        for t in side.luck:
            if t.mean is not None:
                parts.append(f'<circle cx="{x(t.turn):.1f}" cy="{y(t.mean):.1f}" r="4" fill="{colour}">'
                             f'<title>{_e(side.side)}, turn {t.turn}: {t.rolls} rolls, mean {pct(t.mean)} '
                             f'({t.mean}); so far {pct(t.running)}</title></circle>')
    parts.append(f'<text x="{W / 2}" y="{H - 6}" class="tick" text-anchor="middle">turn</text>')
    return _svg("Luck line: mean percentile of the rolls", parts)


def damage_chart(report: Report) -> str:
    """The ruleset's two measures of damage (Quick-Start: slots destroyed and keels broken) against
    their expectation, per side (bars: dealt solid, expected outlined)."""
    words = report.words
    rows = [(side, words.dealt, side.slots_destroyed, side.slots_expected) for side in report.sides] + \
           [(side, words.second, side.keel_breaks, side.keel_expected) for side in report.sides]
    top = max([max(float(d), float(e)) for _, _, d, e in rows] + [1.0])
    bar = (H - 2 * PAD) / max(len(rows), 1)
    parts = []
    for i, (side, what, dealt, expected) in enumerate(rows):
        colour, top_y = colour_of(report, side.side), PAD / 2 + i * bar
        label = f"{side.side} {what}"
        length = (W - 240) / top
        parts += [
            f'<text x="4" y="{top_y + bar * 0.6:.1f}" class="tick">{_e(label)}</text>',
            f'<rect x="170" y="{top_y + 2:.1f}" width="{float(dealt) * length:.1f}" height="{bar * 0.4:.1f}" '
            f'fill="{colour}"><title>{_e(label)}: {dealt}</title></rect>',
            f'<rect x="170" y="{top_y + bar * 0.45:.1f}" width="{float(expected) * length:.1f}" height="{bar * 0.4:.1f}" '
            f'fill="none" stroke="{colour}" stroke-dasharray="4 2"><title>expected {num(expected)} ({expected})</title></rect>',
            f'<text x="{174 + max(float(dealt), float(expected)) * length:.1f}" y="{top_y + bar * 0.6:.1f}" '
            f'class="tick">{dealt} / {num(expected)}</text>',
        ]
    return _svg("Damage dealt (solid) against damage expected (dashed)", parts)


def guns_chart(report: Report) -> str:
    """Shots per gun, each side's guns in the order they first fired (bars; slots taken in words)."""
    words = report.words
    guns = [(side, gun) for side in report.sides for gun in side.guns]
    height = max(PAD + 18 * len(guns), 80)
    most = max([g.shots for _, g in guns] + [1])
    parts = []
    for i, (side, gun) in enumerate(guns):
        top_y, colour = 10 + i * 18, colour_of(report, side.side)
        where = gun.location.replace("starboard", "stbd").replace("_", " ")
        label = f"{gun.ship} {where} {gun.slot} {gun.gun}" if gun.slot else f"{gun.ship} {gun.gun}"
        width = (W - 290) * gun.shots / most
        parts += [f'<text x="4" y="{top_y + 12}" class="tick">{_e(label[:32])}</text>',
                  f'<rect x="200" y="{top_y + 2}" width="{width:.1f}" height="12" fill="{colour}">'
                  f'<title>{_e(label)}: {gun.shots} shots, {gun.slots_destroyed} {_e(words.dealt_short)}, '
                  f'{gun.keel_breaks} {_e(words.second_short)}</title></rect>',
                  f'<text x="{204 + width:.1f}" y="{top_y + 12}" class="tick">{gun.shots}'
                  f'{f" ({gun.slots_destroyed} hit)" if gun.slots_destroyed else ""}</text>']
    if not guns:
        parts.append(f'<text x="{W / 2}" y="40" class="tick" text-anchor="middle">no shots resolved</text>')
    return _svg("Shots per gun", parts, height)


def lost_chart(report: Report) -> str:
    """Ships lost by turn: each side's running total (a step line), the names in the tooltips."""
    turns = [p.turn for p in report.sides[0].lost] if report.sides else []
    most = max([p.total for s in report.sides for p in s.lost] + [1])
    step = (W - 2 * PAD) / max(len(turns), 1)
    parts = [_axes()]
    for k in range(most + 1):
        parts.append(f'<text x="{PAD - 6}" y="{H - PAD - k * (H - 2 * PAD) / most + 4:.1f}" class="tick" '
                     f'text-anchor="end">{k}</text>')
    for i, turn in enumerate(turns):
        parts.append(f'<text x="{PAD + (i + 0.5) * step:.1f}" y="{H - PAD + 16}" class="tick" '
                     f'text-anchor="middle">{turn}</text>')
    for n, side in enumerate(report.sides):
        colour, points = colour_of(report, side.side), []
        for i, p in enumerate(side.lost):
            level = H - PAD - p.total * (H - 2 * PAD) / most - n * 2
            points += [(PAD + i * step, level), (PAD + (i + 1) * step, level)]
            if p.ships:
                parts.append(f'<circle cx="{PAD + (i + 0.5) * step:.1f}" cy="{level:.1f}" r="5" fill="{colour}">'
                             f'<title>{_e(side.side)}, turn {p.turn}: {_e(", ".join(p.ships))} lost</title></circle>')
        if points:
            parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2.5" points="'
                         + " ".join(f"{a:.1f},{b:.1f}" for a, b in points) + '"/>')
    return _svg("Ships lost (running total by turn)", parts)


def _axes() -> str:
    return (f'<line x1="{PAD}" y1="{PAD / 2}" x2="{PAD}" y2="{H - PAD}" class="axis"/>'
            f'<line x1="{PAD}" y1="{H - PAD}" x2="{W - PAD}" y2="{H - PAD}" class="axis"/>')


def _svg(title: str, parts: Sequence[str], height: float = H) -> str:
    return (f'<figure><figcaption>{_e(title)}</figcaption><svg viewBox="0 0 {W} {height:.0f}" role="img" '
            f'aria-label="{_e(title)}" xmlns="http://www.w3.org/2000/svg">{"".join(parts)}</svg></figure>')


# --- the page ------------------------------------------------------------------------------


CSS = """
*{box-sizing:border-box} body{margin:0;font:15px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
color:#1d232b;background:#f6f3ec} main{max-width:1200px;margin:0 auto;padding:12px}
h1{font-size:1.4em;margin:.2em 0} h2{font-size:1.1em;margin:.2em 0} .sub{color:#555;margin:0 0 .8em}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,460px),1fr));gap:12px}
.card{background:#fff;border-radius:8px;padding:10px;box-shadow:0 1px 3px #0002;overflow-x:auto}
figure{margin:0} figcaption{font-weight:600;margin-bottom:4px} svg{width:100%;height:auto;display:block}
.axis{stroke:#888} .even{stroke:#999;stroke-dasharray:5 4} .tick{font-size:12px;fill:#333}
.sides{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,260px),1fr));gap:12px}
.swatch{display:inline-block;width:.9em;height:.9em;border-radius:2px;vertical-align:-1px;margin-right:4px}
table{border-collapse:collapse;width:100%;font-size:13px} td,th{padding:2px 6px;text-align:left;border-bottom:1px solid #eee}
td.n{text-align:right;font-variant-numeric:tabular-nums} details{margin-top:8px}
"""


def side_summary(report: Report, side: SideReport) -> str:
    lost = side.lost[-1].total if side.lost else 0
    words = report.words
    return (f'<div class="card"><h2><span class="swatch" style="background:{colour_of(report, side.side)}"></span>'
            f'{_e(side.side)}</h2><table>'
            f'<tr><td>rolls</td><td class="n">{len(side.rolls)}</td></tr>'
            f'<tr><td>mean percentile (50% is even luck)</td><td class="n" title="{side.mean_percentile}">'
            f'{pct(side.mean_percentile)}</td></tr>'
            f'<tr><td>{_e(words.shots)}</td><td class="n">{len(side.shots)}</td></tr>'
            f'<tr><td>{_e(words.dealt)} / expected</td><td class="n" title="{side.slots_expected}">'
            f'{side.slots_destroyed} / {num(side.slots_expected)}</td></tr>'
            f'<tr><td>{_e(words.second)} / expected</td><td class="n" title="{side.keel_expected}">'
            f'{side.keel_breaks} / {num(side.keel_expected)}</td></tr>'
            f'<tr><td>ships lost</td><td class="n">{lost}</td></tr></table></div>')


def rolls_table(report: Report) -> str:
    rows = sorted((r for s in report.sides for r in s.rolls), key=lambda r: r.turn)
    body = "".join(f'<tr><td class="n">{r.turn}</td><td>{_e(r.side)}</td><td>{_e(r.what)}</td><td>{_e(r.pool)}</td>'
                   f'<td class="n">{r.total}</td><td class="n" title="{r.percentile}">{pct(r.percentile)}</td></tr>'
                   for r in rows)
    return (f'<details class="card"><summary>Every roll ({len(rows)})</summary><table><tr><th>turn</th><th>side</th>'
            f'<th>roll</th><th>pool</th><th>total</th><th>percentile</th></tr>{body}</table></details>')


def render(report: Report, title: str) -> str:
    """The whole page."""
    when = f"turn {report.only_turn}" if report.only_turn is not None else (
        f"turns {report.turns[0]} to {report.turns[-1]}" if report.turns else "no turn played yet")
    note = report.words.luck_note
    rules = RULESETS[report.ruleset].name if report.ruleset in RULESETS else report.ruleset  # an unknown one: its id
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{_e(title)}: after-action report</title><style>{CSS}</style></head>
<body><main><h1>{_e(title)}</h1><p class="sub">After-action report, {_e(rules)}, {when}. {_e(note)}</p>
<div class="sides">{"".join(side_summary(report, s) for s in report.sides)}</div>
<div class="grid" style="margin-top:12px">
<div class="card">{luck_chart(report)}</div><div class="card">{damage_chart(report)}</div>
<div class="card">{guns_chart(report)}</div><div class="card">{lost_chart(report)}</div></div>
{rolls_table(report)}</main></body></html>
"""
