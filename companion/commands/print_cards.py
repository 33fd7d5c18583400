"""`companion print FILE... [--out OUT.html|OUT.pdf]`: printable ship cards (docs/printing.md)."""

from __future__ import annotations

import sys
from pathlib import Path

from .. import printing
from ..app.rulesets.decisive_victory.files import is_dv_data
from ..engine.cards import Card, Fleet
from ..files import load_file, read_json
from .common import Arguments, CommandError, SubParsers, command, sub_command
from .dv_files import dv_records_page

OUTPUT_SUFFIXES = (".html", ".htm", ".pdf")


@command
def print_cards(sub: SubParsers) -> None:
    p = sub_command(
        sub, "print", run_print,
        help="printable ship cards of card or fleet files (HTML, or PDF through chromium)",
        description="Write one print-ready page per ship card: black-and-white friendly, "
                    "one card per page, with boxes to mark damage. A .pdf output needs chromium.",
    )
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="card or fleet files; or Decisive Victory ship and fleet files (and a hit grid file)")
    p.add_argument("--out", metavar="OUT",
                   help="OUT.html or OUT.pdf (default: the first FILE's name with .html, in the "
                        "current folder; '-' writes the HTML to standard output)")


def run_print(args: Arguments) -> int:
    is_dv = any(is_dv_data(read_json(path)) for path in args.files)
    page, held = dv_records_page(args.files) if is_dv else _cards_page(args.files)
    if args.out == "-":
        sys.stdout.write(page)
        return 0
    if args.out is not None and not args.out.strip():
        raise CommandError("--out names no file (it is empty): give OUT.html or OUT.pdf, or leave --out out")
    out = Path(args.out) if args.out else Path(Path(args.files[0]).stem + ".html")
    if out.suffix.lower() not in OUTPUT_SUFFIXES:
        raise CommandError(f"--out {out}: the output must end in .html or .pdf")
    try:
        written = printing.write_page(page, out)
    except OSError as exc:
        raise CommandError(f"cannot write {out}: {exc.strerror or exc}") from None
    print(f"wrote {written} ({held})")
    return 0


def _cards_page(files: list[str]) -> tuple[str, str]:
    """The printable page of the card and fleet files' cards, and what it holds in words."""
    loaded: list[Card | Fleet] = []
    for path in files:
        item = load_file(path)
        if not isinstance(item, (Card, Fleet)):
            raise CommandError(f"{path}: is a scenario; print the card or fleet files its ships come from")
        loaded.append(item)
    cards = printing.cards_of(loaded)
    title = loaded[0].name if len(loaded) == 1 else "Ship cards"
    unverified = sum(1 for c in cards if c.sources is not None and not c.sources.verified)
    note = f"; {unverified} unverified, check against the printed cards" if unverified else ""
    return printing.render(loaded, title), f"{len(cards)} card{'s' if len(cards) != 1 else ''}{note}"
