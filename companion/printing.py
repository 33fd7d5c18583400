"""Printable ship cards: a card or a fleet as one self-contained HTML page.

The page is laid out like a Quick-Start ship card (seed 001, "Your Ship
Awaits"): name, class, faction and type at the top, Structural Integrity,
Starting MP (bottom left) and Enter Hexes Before Turn (bottom right), and the
locations around the ship: bow above, port left, starboard right, stern below.
Each location shows its go/stop location dice and six slots with slot number,
what the slot holds, breach number and an empty box to mark damage.

It prints in black and white: every die is a chip with the colour's letter
(G, Bl, Y, R, Bk) and its own ring pattern, so greyscale loses nothing.
One card per page (A4 or Letter, landscape), inline CSS, no network.

`html_to_pdf` drives Debian's headless chromium when it is installed;
nothing else is needed.
"""

from __future__ import annotations

import html
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Iterable

from .engine.cards import NO_QUICK_START_RULE, Card, Fleet, Location
from .engine.dice import Colour, parse_pool
from .engine.footprint import HEX_COUNT, LOCATION_HEX


class PrintError(ValueError):
    """A card sheet that cannot be made (no chromium for a PDF, chromium failed, ...)."""


# --- dice chips --------------------------------------------------------------

#: colour -> the letter on its chip (its CSS class is the letter in lower case: `die-bl`)
DIE_LETTER = {Colour.GREEN: "G", Colour.BLUE: "Bl", Colour.YELLOW: "Y", Colour.RED: "R", Colour.BLACK: "Bk",
              Colour.D6: "d6"}


def dice_chips(notation: str) -> str:
    """`DRed & DBlue` as two chips; the notation itself is the title (hover/screen readers)."""
    pool = parse_pool(notation)
    chips = "".join(f'<span class="die die-{DIE_LETTER[c].lower()}">{DIE_LETTER[c]}</span>' for c in pool)
    return f'<span class="dice" title="{_e(pool.notation)}" data-dice="{_e(pool.notation)}">{chips}</span>'


def escaped(text: object) -> str:
    """Text made safe inside HTML (and inside an attribute's quotes)."""
    return html.escape(str(text), quote=True)


_e = escaped


# --- one slot, one location --------------------------------------------------------

def _title(key: str) -> str:
    """A location or slot kind as the printed card names it: `port_bow` -> `Port Bow`."""
    return key.replace("_", " ").title()

#: Slots that change other slots carry an asterisk on the printed card (seed 001).
ASTERISK = {"armor", "engine", "tesla_coil"}


def slot_details(slot) -> str:
    kind = slot.kind
    if kind == "gun":
        traits = "".join(f' <span class="trait">{_e(t)}</span>' for t in slot.traits)
        marks = f"{_e(slot.marks)} " if slot.marks else ""
        return (f'<b class="gun-name">{_e(slot.name)}</b>'
                f' <span class="range">{marks}{slot.short.range}/{slot.long.range} Hex</span>'
                f' <span class="bands">{dice_chips(slot.short.dice)}<span class="sep"></span>'
                f'{dice_chips(slot.long.dice)}</span>{traits}')
    if kind == "crew":
        return dice_chips(slot.dice)
    if kind == "armor":
        return f'<b>+{slot.breach_modifier}</b> <span class="hint">to every breach number here</span>'
    if kind == "engine":
        return f'<b>MP {slot.mp}</b>'
    if kind == "tesla_coil":
        return 'Trim Tanks <span class="hint">lost: &minus;1 to own rolls</span>'
    if kind == "miss":
        return '<span class="hint">the shot misses</span>'
    text = f' <span class="hint">{_e(slot.text)}</span>' if slot.text else ""
    return f"<b>{_e(slot.label)}</b>{text}" if slot.label else text


def slot_row(number: int, slot) -> str:
    kind = slot.kind
    star = '<span class="star" title="affects other slots">&#10033;</span>' if kind in ASTERISK else ""
    breach = "" if slot.breach is None else str(slot.breach)
    mark = "" if kind == "miss" else '<span class="box"></span>'
    return (
        f'<tr class="slot kind-{kind}" data-slot="{number}" data-kind="{kind}" data-breach="{breach}">'
        f'<td class="num">{number}</td>'
        f'<td class="what"><span class="kind">{_title(kind)}{star}</span> {slot_details(slot)}</td>'
        f'<td class="breach">{breach}</td>'
        f'<td class="mark">{mark}</td></tr>'
    )


def location_block(name: str, location: Location) -> str:
    rows = "".join(slot_row(i, slot) for i, slot in enumerate(location.slots, start=1))
    return (
        f'<div class="loc" data-location="{name}" style="grid-area: {name}">'
        f'<div class="loc-head"><span class="loc-name">{_title(name)}</span>'
        f'<span class="ld go" title="Location dice when the target entered a new hex this turn">'
        f'<span class="arrow">GO &#9654;</span>{dice_chips(location.go)}</span>'
        f'<span class="ld stop" title="Location dice when the target did not move">'
        f'<span class="arrow">STOP &#9632;</span>{dice_chips(location.stop)}</span></div>'
        f'<table class="slots"><thead><tr><th>#</th><th>Slot</th><th>Breach</th><th>Hit</th></tr></thead>'
        f'<tbody>{rows}</tbody></table></div>'
    )


# --- the ship outline in the middle --------------------------------------------------------


def ship_outline(card: Card) -> str:
    """The ship's hexes, bow up, numbered as the rulebook does (Hex 1 = bow)."""
    count = HEX_COUNT[card.type]
    side_hexes = sorted({i for loc, i in LOCATION_HEX[card.type].items() if loc not in ("bow", "stern")})
    r, h = 26.0, 26.0 * 3 ** 0.5 / 2  # flat-topped hexes stacked in one column
    width, top = 4 * r, 24.0
    height = top + count * 2 * h + 8
    cx = width / 2
    parts = [f'<svg class="outline" viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
             f'aria-label="Type {card.type}: {count} hexes, bow up">',
             f'<path d="M{cx} 2 L{cx + 9} 16 L{cx - 9} 16 Z" class="bow-arrow"/>']
    for i in range(count):
        cy = top + h + i * 2 * h
        points = " ".join(
            f"{cx + dx:.1f},{cy + dy:.1f}"
            for dx, dy in ((-r, 0), (-r / 2, -h), (r / 2, -h), (r, 0), (r / 2, h), (-r / 2, h))
        )
        cls = "hex side-hex" if i in side_hexes else "hex"
        parts.append(f'<polygon points="{points}" class="{cls}"/>')
        parts.append(f'<text x="{cx}" y="{cy + 5:.1f}" class="hex-num">{i + 1}</text>')
    parts.append("</svg>")
    # Type 4: fore sides from the mid-fore hex, aft sides from the mid-aft hex
    note = (f"fore side guns fire from hex {side_hexes[0] + 1}, aft side guns from hex {side_hexes[1] + 1}"
            if len(side_hexes) == 2 else f"side guns fire from hex {side_hexes[0] + 1}")
    return "".join(parts) + f'<div class="outline-note">Type {card.type} &middot; {note}</div>'


# --- a card, a page ----------------------------------------------------------------------------

def card_section(card: Card) -> str:
    """One ship card as an HTML <section> (one printed page)."""
    unverified = card.sources is not None and not card.sources.verified
    banner = (
        '<div class="banner" role="note"><b>UNVERIFIED:</b> check against your printed card. '
        'Some values are estimates; the notes at the foot of this card say which.</div>'
        if unverified else ""
    )
    engines = [s.mp for loc in card.locations.values() for s in loc.slots if s.kind == "engine"]
    engine_sum = " + ".join(str(mp) for mp in engines) if engines else "no engines"
    if card.card_mp != card.starting_mp:
        engine_sum += f" = {card.starting_mp} in play"
    unruled = [s.label or "Other" for loc in card.locations.values() for s in loc.slots if s.kind == "other"]
    unruled_note = (f'<div class="notes"><b>{_e(", ".join(dict.fromkeys(unruled)))}:</b> '
                    f'{_e(NO_QUICK_START_RULE)}.</div>' if unruled else "")
    layout = "six" if len(card.locations) == 6 else "four"
    locations = "".join(location_block(name, loc) for name, loc in card.locations.items())
    faction = f"{_e(card.faction)} &middot; " if card.faction else ""
    armament = (f'<div class="armament"><span class="label">Armament</span> {_e(card.armament)}</div>'
                if card.armament else "")
    notes = (f'<div class="notes"><b>Sources.</b> {_e(card.sources.notes)}</div>'
             if card.sources is not None and card.sources.notes else "")
    return f"""
<section class="card{' unverified' if unverified else ''}" data-card-id="{_e(card.id)}">
{banner}
<div class="grid grid-{layout}">
  <div class="head" style="grid-area: head">
    <div class="ship-name">{_e(card.name)}</div>
    <div class="ship-class">{_e(card.ship_class)}</div>
    <div class="faction">{faction}Type {card.type} &middot; Quick-Start</div>
  </div>
  <div class="stats" style="grid-area: stats">
    <div class="stat si"><span class="label">Structural Integrity</span><span class="value">{card.structural_integrity}</span></div>
    {armament}
  </div>
  <div class="ship" style="grid-area: ship">{ship_outline(card)}</div>
  {locations}
  <div class="stat mp" style="grid-area: mp"><span class="label">Starting MP</span><span class="value">{card.card_mp}</span><span class="sub">engines {engine_sum}</span></div>
  <div class="stat turn" style="grid-area: turn"><span class="label">Enter hexes before turn</span><span class="value">{card.enter_hexes_before_turn}</span></div>
</div>
<footer>
  <div class="legend">
    <span><b>Dice:</b> {dice_chips("DGreen")} Green {dice_chips("DBlue")} Blue {dice_chips("DYellow")} Yellow {dice_chips("DRed")} Red {dice_chips("DBlack")} Black</span>
    <span><b>GO &#9654;</b> target entered a new hex this turn, <b>STOP &#9632;</b> it did not.
    Gun: short band | long band. <span class="star">&#10033;</span> affects other slots.
    Hit: circle when destroyed, hash at end of turn.</span>
  </div>
  {unruled_note}{notes}
</footer>
</section>"""


CSS = """
@page { size: landscape; margin: 8mm; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; background: #d9d9d9; color: #111;
  font-family: "DejaVu Sans Condensed", "Arial Narrow", "Liberation Sans Narrow", Arial, sans-serif;
  font-size: 10.5px; }
.card { width: 277mm; min-height: 190mm; margin: 6mm auto; padding: 4mm 5mm; background: #fff;
  border: 1.5px solid #000; box-shadow: 0 2px 8px rgba(0,0,0,.35); display: flex; flex-direction: column;
  break-after: page; page-break-after: always; break-inside: avoid; overflow: hidden; }
.card:last-of-type { break-after: auto; page-break-after: auto; }
@media print {
  body { background: #fff; }
  .card { margin: 0; box-shadow: none; width: 100%; min-height: 0; }
}
.banner { border: 2px dashed #000; padding: 1.2mm 3mm; margin-bottom: 2mm; font-size: 11px;
  background: repeating-linear-gradient(135deg, #fff 0 6px, #eee 6px 12px); }
.grid { flex: 1; display: grid; grid-template-columns: 1fr 1fr 1fr; gap: 2mm 3mm; min-height: 0; }
/* Types 1-3: bow above, port left, starboard right, stern below; Type 4 splits the sides. */
.grid-four { grid-template-rows: auto 1fr auto;
  grid-template-areas: "head bow stats" "port ship starboard" "mp stern turn"; }
.grid-six { grid-template-rows: auto 1fr 1fr auto;
  grid-template-areas: "head bow stats" "port_bow ship starboard_bow" "port_quarter ship starboard_quarter" "mp stern turn"; }
.head .ship-name { font-family: "DejaVu Serif", Georgia, serif; font-variant: small-caps; font-weight: bold;
  font-size: 25px; line-height: 1.05; letter-spacing: .5px; }
.head .ship-class { font-size: 13px; font-style: italic; margin-top: 1mm; }
.head .faction { font-size: 11px; margin-top: 1mm; text-transform: uppercase; letter-spacing: 1px; }
.stats { display: flex; flex-direction: column; gap: 2mm; align-items: flex-end; }
.stat { border: 2px solid #000; border-radius: 2mm; padding: 1mm 3mm; display: inline-flex; align-items: center;
  gap: 3mm; background: #fff; align-self: start; }
.stat .label { text-transform: uppercase; font-size: 9px; letter-spacing: .6px; max-width: 28mm; line-height: 1.15; }
.stat .value { font-size: 24px; font-weight: bold; font-family: "DejaVu Serif", Georgia, serif; }
.stat .sub { font-size: 9px; color: #333; }
.stats .si { align-self: flex-end; }
.stat.mp { justify-self: start; align-self: end; }
.stat.turn { justify-self: end; align-self: end; }
.armament { font-size: 11px; text-align: right; }
.label { font-weight: bold; }
.armament .label { text-transform: uppercase; font-size: 9px; letter-spacing: .6px; margin-right: 1.5mm; }
.ship { display: flex; flex-direction: column; align-items: center; justify-content: center; }
.outline { height: 100%; max-height: 44mm; }
.outline .hex { fill: #fff; stroke: #000; stroke-width: 1.6; }
.outline .side-hex { fill: url(#none); fill: #e6e6e6; }
.outline .hex-num { font-size: 15px; font-weight: bold; text-anchor: middle; font-family: "DejaVu Sans", sans-serif; }
.outline .bow-arrow { fill: #000; }
.outline-note { font-size: 9px; color: #333; margin-top: 1mm; }
.loc { border: 1.6px solid #000; border-radius: 1.5mm; padding: 0.8mm 1.2mm 1mm; min-width: 0; align-self: start; }
.loc-head { display: flex; align-items: center; gap: 2.5mm; border-bottom: 1.2px solid #000; padding-bottom: .8mm;
  margin-bottom: .6mm; }
.loc-name { font-weight: bold; text-transform: uppercase; letter-spacing: 1px; font-size: 12px; flex: 1; }
.ld { display: inline-flex; align-items: center; gap: 1mm; font-size: 8.5px; font-weight: bold; }
.ld .arrow { padding: .2mm 1mm; border: 1px solid #000; border-radius: 1mm; }
.ld.stop .arrow { background: #000; color: #fff; }
table.slots { width: 100%; border-collapse: collapse; table-layout: fixed; }
table.slots th { font-size: 8px; text-transform: uppercase; font-weight: normal; color: #333; text-align: left;
  padding: 0 .8mm; }
table.slots th:nth-child(1) { width: 5mm; } table.slots th:nth-child(3) { width: 11mm; text-align: center; }
table.slots th:nth-child(4) { width: 7mm; text-align: center; }
table.slots td { border-top: 1px solid #999; padding: .45mm .8mm; vertical-align: middle; height: 6.4mm;
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
td.num { font-weight: bold; font-size: 11px; text-align: center; }
td.what .kind { font-size: 8px; text-transform: uppercase; letter-spacing: .5px; border: 1px solid #555;
  border-radius: 1mm; padding: 0 .8mm; margin-right: .6mm; color: #222; }
td.what .gun-name { font-size: 11px; }
td.what .range { font-size: 10px; margin: 0 .5mm; }
td.what .hint { font-size: 8.5px; color: #444; font-style: italic; }
td.breach { text-align: center; font-weight: bold; font-size: 14px; font-family: "DejaVu Serif", Georgia, serif; }
td.mark { text-align: center; }
.box { display: inline-block; width: 4.6mm; height: 4.6mm; border: 1.5px solid #000; background: #fff;
  vertical-align: middle; }
tr.kind-miss td { background: repeating-linear-gradient(135deg, #fff 0 4px, #e4e4e4 4px 7px); }
tr.kind-miss td.breach { color: #777; font-weight: normal; font-size: 11px; }
.star { font-size: 8px; margin-left: .4mm; }
.trait { font-size: 8px; border: 1px solid #000; padding: 0 .6mm; text-transform: uppercase; }
.bands { display: inline-flex; align-items: center; vertical-align: middle; }
.bands .sep { display: inline-block; width: 0; height: 4.4mm; border-left: 1.5px solid #000; margin: 0 .8mm; }
.dice { display: inline-flex; gap: .5mm; vertical-align: middle; }
.die { display: inline-flex; align-items: center; justify-content: center; width: 5.2mm; height: 5.2mm;
  border-radius: 50%; font-size: 8.5px; font-weight: bold; line-height: 1; color: #000; background: #fff;
  border: 2px solid #000; }
.die-g  { border-style: solid; border-width: 1.3px; background: #dcefd6; border-color: #1d6b1d; }
.die-bl { border-style: double; border-width: 3.5px; background: #d6e4f5; border-color: #123e8c; }
.die-y  { border-style: dotted; border-width: 2.4px; background: #fff4b8; border-color: #6b5800; }
.die-r  { border-style: dashed; border-width: 2.2px; background: #f6d2d2; border-color: #8c1212; }
.die-bk { background: #000; color: #fff; border: 1.5px solid #000; }
.die-d6 { border-radius: 1mm; }
footer { margin-top: 1.5mm; border-top: 1.2px solid #000; padding-top: 1mm; font-size: 8.5px; line-height: 1.3;
  display: flex; flex-direction: column; gap: .8mm; }
footer .legend { display: flex; gap: 5mm; flex-wrap: wrap; align-items: center; }
footer .legend .die { width: 4.4mm; height: 4.4mm; font-size: 7.5px; }
footer .notes { font-size: 7.5px; color: #222; }
"""


def render(loaded: Card | Fleet | Iterable[Card | Fleet], title: str | None = None) -> str:
    """The printable page of a card, a fleet or several of them: a self-contained HTML page with
    one card per printed page."""
    if title is None:
        title = loaded.name if isinstance(loaded, (Card, Fleet)) else "Ship cards"
    return printed_page(title, CSS, "".join(card_section(card) for card in cards_of(loaded)))


def printed_page(title: str, css: str, sections: str) -> str:
    """A self-contained printable HTML page: its title, its style sheet and its sections."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)}</title>
<style>{css}</style>
</head>
<body>
{sections}
</body>
</html>
"""


def cards_of(loaded: Card | Fleet | Iterable[Card | Fleet]) -> list[Card]:
    """The cards of a card, a fleet, or a list of either."""
    if isinstance(loaded, Card):
        return [loaded]
    if isinstance(loaded, Fleet):
        return list(loaded.ships)
    return [card for item in loaded for card in cards_of(item)]


# --- chromium: PDF ---------------------------------------------------------------------------

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> str | None:
    """A headless-capable chromium on this machine, or None."""
    override = os.environ.get("COMPANION_CHROMIUM")
    if override:
        return override if Path(override).exists() else None
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


def _run_chromium(args: list[str], output: Path, chromium: str | None, timeout: float) -> Path:
    chromium = chromium or find_chromium()
    if not chromium:
        raise PrintError("a PDF needs chromium, which is not installed: write .html instead and print it from a browser")
    output = Path(output).resolve()
    output.parent.mkdir(parents=True, exist_ok=True)
    if output.exists():
        output.unlink()
    with tempfile.TemporaryDirectory(prefix="companion-chromium-") as profile:
        command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                   "--disable-background-networking", "--disable-extensions", "--hide-scrollbars",
                   f"--user-data-dir={profile}", *args]
        try:
            subprocess.run(command, capture_output=True, timeout=timeout, check=False,
                           env={**os.environ, "HOME": profile})
        except subprocess.TimeoutExpired:
            raise PrintError(f"chromium took longer than {timeout:.0f} s and was stopped") from None
        except OSError as exc:
            raise PrintError(f"chromium could not be started ({exc.strerror or exc})") from None
    if not output.exists() or output.stat().st_size == 0:
        raise PrintError(f"chromium did not write {output.name}")
    return output


def html_to_pdf(html_path: str | Path, pdf_path: str | Path, *, chromium: str | None = None,
                timeout: float = 120) -> Path:
    """Print an HTML file to PDF with headless chromium (PrintError if it cannot)."""
    url = Path(html_path).resolve().as_uri()
    return _run_chromium(["--no-pdf-header-footer", f"--print-to-pdf={Path(pdf_path).resolve()}", url],
                         Path(pdf_path), chromium, timeout)


def write_page(page: str, out: str | Path) -> Path:
    """Write a printable page to `out`: HTML, or PDF (through chromium, `html_to_pdf`) when `out` ends in .pdf."""
    out = Path(out)
    if out.suffix.lower() != ".pdf":
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(page, encoding="utf-8")
        return out
    with tempfile.TemporaryDirectory(prefix="companion-print-") as tmp:
        source = Path(tmp) / (out.stem + ".html")
        source.write_text(page, encoding="utf-8")
        return html_to_pdf(source, out)
