"""`companion print FILE... [--out OUT.html|OUT.pdf]`: printable ship cards (docs/printing.md)."""

from __future__ import annotations

import sys
from pathlib import Path

from .. import printing
from ..engine.cards import Card, Fleet
from ..files import load_file
from .common import Arguments, CommandError, SubParsers, command

OUTPUT_SUFFIXES = (".html", ".htm", ".pdf")


@command
def print_cards(sub: SubParsers) -> None:
    p = sub.add_parser(
        "print",
        help="printable ship cards of card or fleet files (HTML, or PDF through chromium)",
        description="Write one print-ready page per ship card: black-and-white friendly, "
                    "one card per page, with boxes to mark damage. A .pdf output needs chromium.",
    )
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="card or fleet files; or Decisive Victory ship and fleet files (and a hit grid file)")
    p.add_argument("--out", metavar="OUT",
                   help="OUT.html or OUT.pdf (default: the first FILE's name with .html, in the "
                        "current folder; '-' writes the HTML to standard output)")
    p.set_defaults(run=run_print)


def run_print(args: Arguments) -> int:
    from ..app.rulesets.decisive_victory.files import is_dv_data
    from ..files import read_json

    if any(is_dv_data(read_json(path)) for path in args.files):
        return _print_dv(args)
    loaded: list[Card | Fleet] = []
    for path in args.files:
        item = load_file(path)
        if not isinstance(item, (Card, Fleet)):
            raise CommandError(f"{path}: is a scenario; print the card or fleet files its ships come from")
        loaded.append(item)
    cards = printing.cards_of(loaded)
    title = loaded[0].name if len(loaded) == 1 else "Ship cards"

    if args.out == "-":
        sys.stdout.write(printing.render(loaded, title))
        return 0
    if args.out is not None and not args.out.strip():
        raise CommandError("--out names no file (it is empty): give OUT.html or OUT.pdf, or leave --out out")
    out = Path(args.out) if args.out else Path(Path(args.files[0]).stem + ".html")
    if out.suffix.lower() not in OUTPUT_SUFFIXES:
        raise CommandError(f"--out {out}: the output must end in .html or .pdf")
    try:
        written = printing.write(loaded, out, title)
    except OSError as exc:
        raise CommandError(f"cannot write {out}: {exc.strerror or exc}") from None
    unverified = sum(1 for c in cards if c.sources is not None and not c.sources.verified)
    note = f"; {unverified} unverified, check against the printed cards" if unverified else ""
    print(f"wrote {written} ({len(cards)} card{'s' if len(cards) != 1 else ''}{note})")
    return 0


def _print_dv(args: Arguments) -> int:
    """Decisive Victory ship records (spec decisive-victory.md 17.1): ship and fleet files, and a hit
    grid file for the ships without their own grid (default: the reconstructed grid, marked)."""
    from ..app.rulesets.decisive_victory import printing as dv_printing
    from ..app.rulesets.decisive_victory.files import is_dv_data, load_dv_file, ship_records
    from ..engine.decisive_victory.grid import RECONSTRUCTED, HitGrid
    from ..engine.decisive_victory.records import ShipFleet, ShipRecord
    from ..files import read_json

    ships: list[ShipRecord] = []
    grid = RECONSTRUCTED
    names = []
    for path in args.files:
        if not is_dv_data(read_json(path)):
            raise CommandError(f"{path}: is not a Decisive Victory file; print Leviathans cards separately")
        item = load_dv_file(path)
        if isinstance(item, HitGrid):
            grid = item
        elif isinstance(item, (ShipRecord, ShipFleet)):
            ships.extend(ship_records([item]))
            names.append(item.name)
        else:
            raise CommandError(f"{path}: is a {item.format.split('/')[0]} file; print the ship or fleet files "
                               "(a hit grid file is used for the ships' grid)")
    if not ships:
        raise CommandError("no ship or fleet file among the files: nothing to print")
    title = names[0] if len(names) == 1 and names[0] else "Ship records"
    if args.out == "-":
        sys.stdout.write(dv_printing.render_records(ships, title, grid))
        return 0
    if args.out is not None and not args.out.strip():
        raise CommandError("--out names no file (it is empty): give OUT.html or OUT.pdf, or leave --out out")
    out = Path(args.out) if args.out else Path(Path(args.files[0]).stem + ".html")
    if out.suffix.lower() not in OUTPUT_SUFFIXES:
        raise CommandError(f"--out {out}: the output must end in .html or .pdf")
    try:
        written = dv_printing.write_records(ships, out, title, grid)
    except OSError as exc:
        raise CommandError(f"cannot write {out}: {exc.strerror or exc}") from None
    unverified = sum(1 for s in ships if not s.verified)
    note = f"; {unverified} sample or unverified, check against your records" if unverified else ""
    print(f"wrote {written} ({len(ships)} ship record{'s' if len(ships) != 1 else ''}{note})")
    return 0
