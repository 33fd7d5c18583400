"""Printable Decisive Victory ship records: ships and fleets as one self-contained HTML page
(spec decisive-victory.md §3, §10, §17.1; docs/printing.md).

One record per printed page (A4 or Letter, portrait): the ship's name, class, nation, speed,
turning class, armour by row, CDT, CR, AA and spotter planes; its weapon systems with FC, S and D
(and salvoes with boxes to tick); the flight deck and embarked flights; the hit-location grid
"You should keep a hit location table for every ship in the game" (`003:98`) with each cell's
system name and an empty box to tick, the boxes per system and the class's damage threshold
(`003:107`); a damage-point and a minor-damage track.  A record whose `sources.verified` is false
says "SAMPLE DATA / UNVERIFIED"; every grid cell that is reconstructed, not printed, is marked
(dashed, with a dagger) and named at the foot.  Black and white, inline CSS, nothing fetched.
"""

from __future__ import annotations

from typing import Iterable

from ....engine.decisive_victory.grid import RECONSTRUCTED, SYSTEMS, HitGrid
from ....printing import escaped, printed_page
from ....engine.decisive_victory.inches import inches_text
from ....engine.decisive_victory.records import ShipRecord, Weapon
from .editor_model import CLASSES, dice_text

ARMOR_ROWS = {"deck": "Deck", "belt": "Belt", "underwater": "Underwater"}
SYSTEM_WORDS = {"Com": "command", "AA": "anti-aircraft", "Flight": "flight deck", "Guns": "gun systems",
                "Turn": "rudder", "Speed": "engines", "Torp": "torpedo systems", "Struct": "structure"}
#: The damage-point track: twice the CDT (abandon ship, `003:150`) and a few more, at least 12 boxes.
TRACK_EXTRA = 4


_e = escaped


def _boxes(count: int, cls: str = "box") -> str:
    return "".join(f'<span class="{cls}"></span>' for _ in range(count))


def _weapon_row(weapon: Weapon) -> str:
    salvoes = "" if weapon.salvoes is None else f'{weapon.salvoes} {_boxes(weapon.salvoes)}'
    extras = []
    if weapon.mounts > 1:
        extras.append(f"{weapon.mounts} mounts")
    if weapon.radar is not None:
        extras.append(f"radar +{weapon.radar}")
    if weapon.dual_purpose_aa:
        extras.append(f"DP AA {weapon.dual_purpose_aa}")
    if weapon.max_range is not None:
        extras.append(f"range {inches_text(weapon.max_range)}&Prime;")
    arcs = ", ".join(weapon.arcs) or "&ndash;"
    return (f'<tr class="weapon" data-weapon="{_e(weapon.id)}"><td class="wname"><b>{_e(weapon.name or weapon.id)}</b>'
            f'<span class="hint">{" &middot; ".join(extras)}</span></td>'
            f'<td>{"Torpedo" if weapon.kind == "torpedo" else "Gun"}</td>'
            f'<td class="num">{weapon.fire_control}</td><td class="num">{weapon.strength}</td>'
            f'<td class="num">{weapon.damage}</td><td class="salvoes">{salvoes}</td><td>{arcs}</td>'
            f'<td class="mark">{_boxes(1)}</td></tr>')


def _weapons(ship: ShipRecord) -> str:
    rows = "".join(_weapon_row(w) for w in ship.weapons) or '<tr><td colspan="8">No weapon systems</td></tr>'
    return ('<table class="weapons"><thead><tr><th>Weapon system</th><th>Kind</th><th title="Fire control">FC</th>'
            '<th title="Strength">S</th><th title="Damage dice">D</th><th>Salvoes</th><th>Arcs</th>'
            f'<th title="tick when fired this turn">Fired</th></tr></thead><tbody>{rows}</tbody></table>')


def _grid(ship: ShipRecord, grid: HitGrid) -> str:
    head = "".join(f"<th>{c}</th>" for c in range(1, 7))
    rows = []
    for group, row in enumerate(grid.rows, start=1):
        dice = dice_text(row.dice)
        armor = getattr(ship.armor, row.armor)
        cells = []
        for column, system in enumerate(row.cells, start=1):
            guess = column in row.unverified
            dagger = '<sup class="dagger" title="reconstructed, not printed">&dagger;</sup>' if guess else ""
            cells.append(f'<td class="cell{" unverified" if guess else ""}" data-box="{group},{column}" '
                         f'data-system="{system}"><span class="sys">{system}{dagger}</span>{_boxes(1)}</td>')
        rows.append(f'<tr><th class="rowhead">{dice}<span class="armor">{ARMOR_ROWS[row.armor]} {armor}</span></th>'
                    f'{"".join(cells)}</tr>')
    return ('<table class="grid"><thead><tr><th class="corner">1st die \\ 2nd die</th>'
            f'{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>')


def _systems(ship: ShipRecord, grid: HitGrid) -> str:
    threshold = grid.threshold(ship.ship_class)
    items = []
    for system in SYSTEMS:
        count = len(grid.boxes_of(system))
        if count:
            items.append(f'<span class="system" data-system="{system}"><b>{system}</b> {SYSTEM_WORDS[system]}: '
                         f'{count} box{"es" if count != 1 else ""}</span>')
    return (f'<div class="systems"><span class="threshold">A {CLASSES[ship.ship_class].lower()}\'s system is '
            f'<b>damaged</b> after {threshold} box{"es" if threshold != 1 else ""}, <b>disabled</b> when all '
            f'are marked.</span> {" ".join(items)}</div>')


def _stat(label: str, value: object, cls: str = "") -> str:
    return f'<div class="stat {cls}"><span class="label">{label}</span><span class="value">{value}</span></div>'


def _flights(ship: ShipRecord) -> str:
    parts = []
    if ship.flight_deck is not None:
        deck = ship.flight_deck
        parts.append(f'<b>Flight deck</b>: launches {deck.launch_per_turn} a turn; '
                     f'{"lands in combat" if deck.lands_in_combat else "cannot land aircraft in combat"}')
    for flight in ship.flights:
        marks = [w for w, on in (("slow", flight.slow), ("radar", flight.radar), ("naval", flight.naval)) if on]
        parts.append(f'{_e(flight.name or flight.id)}: {flight.type.replace("_", " ")}, quality {flight.quality}'
                     f'{", " + ", ".join(marks) if marks else ""} {_boxes(1)}')
    return f'<div class="flights">{" &middot; ".join(parts)}</div>' if parts else ""


def record_section(ship: ShipRecord, grid: HitGrid = RECONSTRUCTED) -> str:
    """One ship record as an HTML <section> (one printed page); the ship's own grid wins."""
    grid = ship.hit_grid or grid
    unverified = not ship.verified
    banner = ('<div class="banner" role="note"><b>SAMPLE DATA / UNVERIFIED:</b> these values are illustrative '
              '(the rules print no ship data); check them against your own records.</div>' if unverified else "")
    grid_note = ""
    if grid.unverified_boxes:
        cells = ", ".join(f"row {dice_text(grid.rows[g - 1].dice)} column {c}" for g, c in grid.unverified_boxes)
        grid_note = (f'<div class="notes"><b>&dagger; Reconstructed cells</b> (the seed text lost them, spec R-40): '
                     f'{cells}. Replace them with your printed grid.</div>')
    notes = ""
    if ship.sources is not None and ship.sources.notes:
        notes = f'<div class="notes"><b>Sources.</b> {_e(ship.sources.notes)}</div>'
    armor = ship.armor
    cr = "&ndash;" if ship.collision_rating is None else ship.collision_rating
    track = max(12, 2 * ship.critical_damage_threshold + TRACK_EXTRA)
    nation = f"{_e(ship.nation)} &middot; " if ship.nation else ""
    return f"""
<section class="record{' unverified' if unverified else ''}" data-ship-id="{_e(ship.id)}">
{banner}
<header>
  <div class="title"><div class="ship-name">{_e(ship.name)}</div>
  <div class="ship-class">{nation}{CLASSES[ship.ship_class]} &middot; Decisive Victory</div></div>
  <div class="stats">
    {_stat("Speed", f'{ship.speed}&Prime;', "speed")}{_stat("Turning class", ship.turning_class, "turning")}
    {_stat("CDT", ship.critical_damage_threshold, "cdt")}{_stat("CR", cr, "cr")}{_stat("AA", ship.aa, "aa")}
    {_stat("Spotters", ship.spotter_planes, "spotters")}
  </div>
</header>
<div class="armour"><span class="label">Armour</span>
  <span class="arm" data-armor="deck">Deck <b>{armor.deck}</b></span>
  <span class="arm" data-armor="belt">Belt <b>{armor.belt}</b></span>
  <span class="arm" data-armor="underwater">Underwater <b>{armor.underwater}</b></span></div>
{_weapons(ship)}
{_flights(ship)}
<h2>Hit location table <span class="hint">{_e(grid.name)}: tick a box when its location is marked off; a marked
location spills to the next row down in the same column</span></h2>
{_grid(ship, grid)}
{_systems(ship, grid)}
<div class="tracks">
  <div class="track"><span class="label">Damage points</span>{_boxes(track, "box num")}</div>
  <div class="track"><span class="label">Minor damage</span>{_boxes(12, "box num")}</div>
  <div class="track small"><span class="label">Rudder</span> free / ahead / port / starboard</div>
  <div class="track small"><span class="label">Speed mode</span> full / half / stop</div>
</div>
<footer>{grid_note}{notes}</footer>
</section>"""


CSS = """
@page { size: portrait; margin: 8mm; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; background: #d9d9d9; color: #111; font-size: 11px;
  font-family: "DejaVu Sans Condensed", "Arial Narrow", "Liberation Sans Narrow", Arial, sans-serif; }
.record { width: 194mm; min-height: 270mm; margin: 6mm auto; padding: 5mm 6mm; background: #fff;
  border: 1.5px solid #000; box-shadow: 0 2px 8px rgba(0,0,0,.35); break-after: page; page-break-after: always;
  break-inside: avoid; display: flex; flex-direction: column; gap: 3mm; }
.record:last-of-type { break-after: auto; page-break-after: auto; }
@media print { body { background: #fff; } .record { margin: 0; box-shadow: none; width: 100%; min-height: 0; } }
.banner { border: 2px dashed #000; padding: 1.2mm 3mm; font-size: 11px;
  background: repeating-linear-gradient(135deg, #fff 0 6px, #eee 6px 12px); }
header { display: flex; justify-content: space-between; align-items: flex-start; gap: 4mm;
  border-bottom: 2px solid #000; padding-bottom: 2mm; }
.ship-name { font-family: "DejaVu Serif", Georgia, serif; font-variant: small-caps; font-weight: bold; font-size: 26px; }
.ship-class { font-size: 12px; text-transform: uppercase; letter-spacing: 1px; margin-top: 1mm; }
.stats { display: flex; gap: 1.5mm; flex-wrap: nowrap; justify-content: flex-end; }
.title { min-width: 0; }
.stat { border: 2px solid #000; border-radius: 2mm; padding: 1mm 2.5mm; display: flex; flex-direction: column;
  align-items: center; min-width: 12mm; }
.stat .label, .label { text-transform: uppercase; font-size: 8.5px; letter-spacing: .6px; font-weight: bold; }
.stat .value { font-size: 20px; font-weight: bold; font-family: "DejaVu Serif", Georgia, serif; }
.armour { display: flex; gap: 6mm; align-items: center; font-size: 13px; }
.armour .arm { border: 1.5px solid #000; padding: .5mm 3mm; border-radius: 1mm; }
table { border-collapse: collapse; width: 100%; }
.weapons th, .weapons td { border: 1px solid #000; padding: 1mm 1.5mm; text-align: left; }
.weapons th { font-size: 9px; text-transform: uppercase; background: #eee; }
.weapons td.num { text-align: center; font-size: 15px; font-weight: bold; font-family: "DejaVu Serif", Georgia, serif; width: 11mm; }
.weapons td.mark { text-align: center; width: 12mm; }
.weapons .hint { display: block; }
.hint { font-size: 9px; color: #333; font-style: italic; font-weight: normal; text-transform: none; letter-spacing: 0; }
h2 { font-size: 13px; margin: 1mm 0 0; text-transform: uppercase; letter-spacing: 1px; }
.grid th, .grid td { border: 1.5px solid #000; text-align: center; }
.grid thead th { font-size: 13px; padding: 1mm; background: #eee; }
.grid .corner { font-size: 9px; width: 30mm; }
.grid .rowhead { font-size: 16px; padding: 1mm; background: #eee; }
.grid .rowhead .armor { display: block; font-size: 9px; text-transform: uppercase; font-weight: normal; }
.grid td.cell { height: 16mm; padding: 1mm; }
.grid td.cell .sys { display: block; font-size: 14px; font-weight: bold; margin-bottom: 1mm; }
.grid td.unverified { border-style: dashed; background: repeating-linear-gradient(135deg, #fff 0 5px, #f0f0f0 5px 10px); }
.dagger { font-size: 10px; }
.box { display: inline-block; width: 5mm; height: 5mm; border: 1.5px solid #000; background: #fff; vertical-align: middle;
  margin-right: .8mm; }
.salvoes .box { width: 4mm; height: 4mm; }
.systems { display: flex; flex-wrap: wrap; gap: 1.5mm 4mm; font-size: 10px; }
.systems .threshold { flex-basis: 100%; }
.tracks { display: flex; flex-direction: column; gap: 2mm; }
.track { display: flex; align-items: center; gap: 1mm; flex-wrap: wrap; }
.track .label { width: 28mm; }
.flights { font-size: 11px; }
footer { margin-top: auto; border-top: 1.2px solid #000; padding-top: 1mm; font-size: 9px; display: flex;
  flex-direction: column; gap: 1mm; }
"""


def render_records(ships: Iterable[ShipRecord], title: str = "Ship records", grid: HitGrid = RECONSTRUCTED) -> str:
    """The printable page of Decisive Victory ship records, one record per printed page."""
    return printed_page(title, CSS, "".join(record_section(ship, grid) for ship in ships))
