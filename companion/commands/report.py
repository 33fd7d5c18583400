"""`companion report GAME [--out OUT.html] [--turn N]`: the after-action report of a game (issue 17)
as one self-contained HTML page (companion/report_page.py): each side's luck line, damage dealt
against expected, shots per gun and ships lost by turn, drawn as inline SVG."""

from __future__ import annotations

import sys
from pathlib import Path

from .. import report_page
from ..store.atomic import write_atomic
from .common import Arguments, CommandError, SubParsers, command, game_command
from .games import export_target, open_data


@command
def report(sub: SubParsers) -> None:
    p = game_command(sub, "report", "the after-action report of a game (luck, damage against the odds, "
                     "shots per gun, ships lost) as a self-contained HTML page", run_report)
    p.add_argument("--out", metavar="OUT.html",
                   help="the page to write (default: report-GAME.html in the current folder; '-': standard output)")
    p.add_argument("--turn", type=int, metavar="N", help="the report of turn N alone (default: the whole game)")


def run_report(args: Arguments) -> int:
    store = open_data(args)
    game_id = store.find(args.game)
    stored = store.stored(game_id)
    record = stored.record
    try:
        made = report_page.game_report(record.ruleset, record.initial, stored.entries, args.turn)
    except ValueError as exc:
        raise CommandError(f"{record.name or game_id}: {exc}") from None
    page = report_page.render(made, record.name or game_id)
    if args.out == "-":
        sys.stdout.write(page)
        return 0
    out = args.out if args.out else f"report-{game_id}.html"
    if not out.lower().endswith((".html", ".htm")):
        raise CommandError(f"--out {out}: the report is a web page: give a name ending in .html")
    target = export_target(out)
    try:
        write_atomic(target, page.encode("utf-8"))
    except OSError as exc:
        raise CommandError(f"cannot write {out}: {exc.strerror or exc}") from None
    shots = sum(len(s.shots) for s in made.sides)
    rolls = sum(len(s.rolls) for s in made.sides)
    span = f"turn {args.turn}" if args.turn is not None else f"{len(made.turns)} turns"
    print(f"wrote the report of {record.name or game_id} ({span}, {rolls} rolls, {shots} shots) to {Path(out)}")
    return 0
