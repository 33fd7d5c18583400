"""What each screen shows, as plain data: the logic behind the views.

Views read these and render; they hold no rules.  Every function here takes
engine state (or store summaries) and returns small frozen dataclasses, so
the banner, the ship card, the map's shades and the log are tested without a
browser (the selected ship's move and fire panels: panels.py).  No flet imports.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from fractions import Fraction

from ..engine.cards import NO_QUICK_START_RULE
from ..engine.arcs import range_in_wedge
from ..engine.quick_start.table_play import location_wedge
from ..engine.quick_start.combat import weapon_hex
from ..engine.dice import Colour, Pool, distribution, parse_pool
from ..engine.hexes import Hex
from ..engine.quick_start.state import GameState, ShipState
from .banners import banner
from .motion import Hit
from .player_words import reading_words, spoken
from ..engine.quick_start.deployment import deployment_problem
from ..engine.footprint import Placement
from ..engine.quick_start.movement import placement_problem

PHASE_NAMES = {
    "setup": "Deployment", "initiative": "Initiative", "movement": "Movement",
    "combat": "Fire", "over": "Game over",
}


def location_name(location: str) -> str:
    """'port_bow' -> 'Port bow'."""
    return location.replace("_", " ").capitalize()


def percent(p: Fraction) -> str:
    """A probability for the screen: one decimal, never a rounded 0% or 100% when it is not."""
    value = float(p) * 100
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    if value < 0.1:
        return "<0.1%"
    if value > 99.9:
        return ">99.9%"
    return f"{value:.1f}%"


def dice_chips(pool: Pool | str) -> list[str]:
    """One colour name per die, in pool order: 'Blue', 'Black', 'D6'."""
    if isinstance(pool, str):
        pool = parse_pool(pool)
    return [Colour(c).value for c in pool]


# --- ship list and ship card ---------------------------------------------------------


@dataclass(frozen=True)
class ShipRow:
    id: str
    name: str
    side: str
    type: int
    position: str
    mp: str
    damage: str
    status: str  # "to move", "moved", "destroyed", ""
    destroyed: bool


def ship_rows(state: GameState) -> list[ShipRow]:
    """The ship list; in movement, "to move" marks the ships the banner names (under H1 the unit
    initiative's group or the ship that seized, not the side's type: issue 28.3)."""
    rows = []
    moving = set(banner(state).next_ships) if state.phase == "movement" else set()
    for ship in state.ships:
        if ship.removed:
            status = "destroyed"
        elif state.phase == "movement":
            status = "moved" if ship.move_done else "to move" if ship.id in moving else "waiting"
        else:
            status = ""
        rows.append(ShipRow(
            ship.id, ship.card.name, ship.side, ship.card.type,
            ship.describe_position(state.board), f"{ship.mp_left}/{ship.movement_points} MP",
            f"{ship.destroyed_count()}/{half_si(ship)} destroyed", status, ship.removed,
        ))
    return rows


def half_si(ship: ShipState) -> int:
    """Destroyed slots that destroy the ship: half its SI, rounded up."""
    return -(-ship.card.structural_integrity // 2)


@dataclass(frozen=True)
class SlotView:
    number: int
    kind: str
    title: str  # "3 IN", "Crew", "Armour", "Engine", "Tesla coil", "Miss"
    detail: str  # "4/8 hex", "+1 breach", "3 MP"
    breach: int | None  # with armour
    printed: int | None
    dice: tuple[tuple[str, ...], ...]  # gun: (short chips, long chips); crew: (chips,)
    status: str  # live, destroyed_this_turn, destroyed
    working: bool

    @property
    def breach_text(self) -> str:
        """The breach number as printed, with the location's live armour beside it ("10 +1"), as a
        player reads the printed card and adds the armour slot's bonus (rules-notes: armour slots);
        "—" where the slot cannot be breached (a miss)."""
        if self.breach is None:
            return "—"
        if self.printed is None or self.breach == self.printed:
            return str(self.breach)
        return f"{self.printed} {self.breach - self.printed:+d}"


@dataclass(frozen=True)
class LocationView:
    key: str
    name: str
    go: tuple[str, ...]
    stop: tuple[str, ...]
    rolling: str  # "go" or "stop": the dice a shot at this location adds now
    armour: int
    slots: tuple[SlotView, ...]
    wrecked: bool
    place: str = "top"  # where the printed card puts it: top (bow), left (port), right (starboard), bottom (stern)


#: The location dice, explained once on the card (rules-notes.md §7: a ship "moved" this turn when it
#: entered at least one new hex; that picks the target's go or stop dice).  ▶ and ■ are the printed
#: card's GO and STOP arrows (printing.py).
DICE_LEGEND = "Location dice: ▶ go if this ship entered a new hex this turn, ■ stop if not"

#: The printed card's arrangement, read row by row: bow on top, port left and starboard right (a
#: Type 4 splits each side into bow and quarter), stern at the foot (docs/printing.md).
CARD_ORDER = ("bow", "port_bow", "starboard_bow", "port", "starboard", "port_quarter", "starboard_quarter", "stern")


def card_place(location: str) -> str:
    """Where the printed card puts a location: 'top', 'left', 'right' or 'bottom'."""
    if location in ("bow", "stern"):
        return "top" if location == "bow" else "bottom"
    return "left" if location.startswith("port") else "right"


@dataclass(frozen=True)
class CardView:
    id: str
    name: str
    ship_class: str
    side: str
    type: int
    position: str
    mp: int
    mp_left: int
    si: int
    half_si: int
    destroyed: int
    enter_before_turn: int
    destruction: str | None
    keel_broken: bool
    locations: tuple[LocationView, ...]
    verified: bool
    unruled: str = ""  # "Torpedo, Steering Gear: no Quick-Start rule: apply it at the table"
    card_mp: int = 0  # Starting MP as the card prints it (issue 18: always in view)
    si_note: str = ""  # a second SI the card prints in brackets: "(25)"
    flash: tuple[int, str, int] | None = None  # (log event, location, slot): the slot the latest shot destroyed

    @property
    def mp_text(self) -> str:
        """'6 of 9': this turn's MP (engines lost in an earlier turn gone) of the card's printed MP."""
        return f"{self.mp} of {self.card_mp}"

    @property
    def mp_left_text(self) -> str:
        """'4 left' once some of this turn's MP are spent, else ''."""
        return f"{self.mp_left} left" if self.mp_left != self.mp else ""

    @property
    def si_text(self) -> str:
        """The Structural Integrity as printed: '20', or '24 (25)' where the card prints a second value."""
        return f"{self.si} {self.si_note}".strip()

    @property
    def destroyed_text(self) -> str:
        """'1 of 10': destroyed slots of the half SI that destroys the ship."""
        return f"{self.destroyed} of {self.half_si}"


def slot_view(ship: ShipState, location: str, number: int, slot) -> SlotView:
    status = ship.status(location, number).value
    breach = ship.breach_numbers(location)[number - 1]
    kind = slot.kind
    dice: tuple[tuple[str, ...], ...] = ()
    if kind == "gun":
        title, detail = slot.name, f"{slot.marks} {slot.short.range}/{slot.long.range} hex".strip()
        dice = (tuple(dice_chips(slot.short.dice)), tuple(dice_chips(slot.long.dice)))
    elif kind == "crew":
        title, detail = "Crew", ""
        dice = (tuple(dice_chips(slot.dice)),)
    elif kind == "armor":
        title, detail = "Armour", f"+{slot.breach_modifier} breach"
    elif kind == "engine":
        title, detail = "Engine", f"{slot.mp} MP"
    elif kind == "tesla_coil":
        title, detail = "Tesla coil", "trim tank"
    elif kind == "miss":
        title, detail = "Miss", ""
    else:
        title, detail = (slot.label or "Other"), slot.text
    return SlotView(number, kind, title, detail, breach, getattr(slot, "breach", None), dice,
                    status, ship.works(location, number))


def card_view(state: GameState, ship_id: str, hit: Hit | None = None) -> CardView:
    """A ship's card as the printed card shows it (issue 18, docs/printing.md): its locations in the
    card's arrangement, MP of the printed Starting MP, the SI as printed, the destroyed slots; the
    latest shot's destroyed slot (`motion.motion(...).hit`) to flash, when it is on this ship."""
    ship = state.ship(ship_id)
    locations = []
    for key in sorted(ship.card.locations, key=_card_rank):
        loc = ship.card.locations[key]
        slots = tuple(slot_view(ship, key, n, slot) for n, slot in enumerate(loc.slots, start=1))
        locations.append(LocationView(
            key, location_name(key), tuple(dice_chips(loc.go)), tuple(dice_chips(loc.stop)),
            "go" if ship.moved else "stop", ship.armour(key), slots, ship.location_wrecked(key), card_place(key),
        ))
    card = ship.card
    # the card's slots the Quick-Start rules do not define (issue 12)
    unruled = [slot.label or "Other" for loc in card.locations.values() for slot in loc.slots if slot.kind == "other"]
    return CardView(
        ship.id, card.name, card.ship_class, ship.side, card.type,
        ship.describe_position(state.board), ship.movement_points, ship.mp_left,
        card.structural_integrity, half_si(ship), ship.destroyed_count(),
        card.enter_hexes_before_turn, ship.destruction, ship.keel_broken, tuple(locations),
        card.verified, f"{', '.join(dict.fromkeys(unruled))}: {NO_QUICK_START_RULE}" if unruled else "",
        card.card_mp, card.structural_integrity_note,
        (hit.event, hit.location, hit.slot) if hit is not None and hit.ship == ship.id else None,
    )


def _card_rank(location: str) -> int:
    return CARD_ORDER.index(location) if location in CARD_ORDER else len(CARD_ORDER)


# --- arcs on the map ------------------------------------------------------------------------


@dataclass(frozen=True)
class ArcShade:
    location: str
    band: str  # short, long, arc (beyond every gun)
    cells: tuple[Hex, ...]


def arc_shades(state: GameState, ship_id: str) -> tuple[ArcShade, ...]:
    """Hexes in each location's firing arc, split by the location's best gun bands."""
    ship = state.ship(ship_id)
    shades = []
    for location in ship.card.locations:
        guns = [ship.card.locations[location].gun(n) for loc, n in ship.working_guns if loc == location]
        if not guns:
            continue
        origin, wedge = weapon_hex(ship, location), location_wedge(ship, location, state.table_rules)
        short = max(g.short.range for g in guns)
        long = max(g.long.range for g in guns)
        bands: dict[str, list[Hex]] = {"short": [], "long": []}
        for cell in state.board.cells():
            r = range_in_wedge(origin, cell, wedge)
            if r is not None and (r <= short or r <= long):
                bands["short" if r <= short else "long"].append(cell)
        shades += [ArcShade(location, band, tuple(cells)) for band, cells in bands.items() if cells]
    return tuple(shades)


# --- deployment on the map ------------------------------------------------------------------


def deployment_hexes(state: GameState, ship_id: str) -> tuple[Hex, ...]:
    """Bow hexes where the ship may deploy, facing some way: the engine's own checks
    (`placement_problem`, `deployment_problem`), shaded on the map in the set-up phase."""
    if state.phase != "setup" or not state.has_ship(ship_id):
        return ()
    ship = state.ship(ship_id)
    return tuple(cell for cell in state.board.cells() if None in _deploy_problems(state, ship, cell))


def deployment_refusal(state: GameState, ship_id: str, cell: Hex) -> str | None:
    """Why the ship may not deploy with its bow on this hex, facing any way (the engine's own
    words for its present facing first, as a Place there would be refused), or None: a tapped
    hex is answered at once."""
    problems = list(_deploy_problems(state, state.ship(ship_id), cell))
    return None if None in problems else problems[0]


def _deploy_problems(state: GameState, ship: ShipState, cell: Hex):
    """Why the ship may not deploy with its bow on `cell`, for each facing from its own (None
    where it may); lazy, so `None in` stops at the first facing that fits."""
    for turn in range(6):
        placement = Placement(cell, (ship.facing + turn) % 6, ship.card.type, ship.one_hex)
        yield deployment_problem(state, ship, placement) or placement_problem(state, ship, placement)


# --- log --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LogLine:
    index: int
    kind: str
    text: str
    dice: tuple[tuple[str, int], ...] = ()


def shot_dice(result: dict) -> list[tuple[str, int]]:
    """Every die of a breach roll (a shot's result as saved): the pool, the slot die, any keel dice."""
    dice = [(d["colour"], d["face"]) for d in result.get("pool", [])]
    dice += [("D6", f) for f in result.get("slot_rolls", [])]
    return dice + [(d["colour"], d["face"]) for d in result.get("keel_dice", [])]


def log_lines(events, numbers: list[int] | None = None) -> tuple[LogLine, ...]:
    """Every event in order, with the dice of rolls, numbered by `numbers` (the action that made
    each: `Game.action_numbers`, the "log N" of the bar) or else one by one."""
    lines = []
    for i, event in zip(numbers or range(1, len(events) + 1), events):
        data, kind = event.data, event.kind
        dice: list[tuple[str, int]] = []
        if kind == "shot" and "result" in data:
            dice = shot_dice(data["result"])
        elif kind.startswith("initiative") and "rolls" in data:
            dice = [(d["colour"], d["face"]) for roll in data["rolls"] for d in roll.get("dice", [])]
        lines.append(LogLine(i, kind, spoken(event.text), tuple(dice)))
    return tuple(lines)


# --- dice roller ------------------------------------------------------------------------------


@dataclass(frozen=True)
class DistRow:
    total: int
    exactly: str
    at_least: str
    at_least_value: float


@dataclass(frozen=True)
class DiceView:
    pool: str
    chips: tuple[str, ...]
    rows: tuple[DistRow, ...]
    mean: str
    error: str | None = None


def dice_view(text: str) -> DiceView:
    """A pool's exact distribution; a plain message when the pool cannot be read."""
    try:
        pool = parse_pool(text)
    except ValueError as exc:
        return DiceView(text, (), (), "", str(exc))
    outcomes = distribution(pool)
    rows = []
    remaining = Fraction(1)
    for total, p in outcomes.items():
        rows.append(DistRow(total, percent(p), percent(remaining), float(remaining)))
        remaining -= p
    mean = sum(t * p for t, p in outcomes.items())
    return DiceView(pool.notation, tuple(dice_chips(pool)), tuple(rows), f"{float(mean):.2f}")


# --- home: saved games ----------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRow:
    id: str
    name: str
    detail: str
    sides: str
    last_played: str


def ago(then: float, now: float | None = None) -> str:
    if not then:
        return "not played yet"
    seconds = max(0, (now or time.time()) - then)
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    if seconds < 86400:
        return f"{int(seconds // 3600)} h ago"
    return time.strftime("%d %b %Y", time.localtime(then))


def game_rows(summaries, now: float | None = None, phases: dict[str, str] = PHASE_NAMES) -> tuple[GameRow, ...]:
    """Saved games as the home screen lists them: turn and phase (or the result), sides, when."""
    return tuple(GameRow(s.id, s.name, s.result or f"Turn {s.turn} · {phases.get(s.phase, s.phase)}",
                         " vs ".join(s.sides), ago(s.updated, now)) for s in summaries)


# --- rule readings ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reading:
    text: str  # plain words: no markdown marks
    own: bool  # the app's own reading (marked "(app)"), not one fixed by the rules notes


@dataclass(frozen=True)
class ReadingSection:
    title: str
    level: int  # 1: the page, 2: a part, 3: a part of a part
    intro: tuple[str, ...]
    readings: tuple[Reading, ...]


OWN_MARK = "(app)"


def _plain(text: str) -> str:
    """Markdown marks off: `code`, **bold**, [label](link) -> label; the authors' references off
    (`player_words.reading_words`); spaces tidied."""
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)
    text = reading_words(text).replace("**", "").replace("`", "")  # no file paths nor seed numbers (issue 35)
    return re.sub(r"\s+", " ", text).strip()


def rule_readings(markdown: str) -> tuple[ReadingSection, ...]:
    """docs/rule-readings.md as sections of plain-words readings, for the "Rule readings" screen.

    The page is the one list of readings: the app shows it as written, so the
    screen and the docs cannot drift apart.  A bullet (with its indented
    continuation lines) is one reading; other paragraphs are a section's intro.
    """
    sections: list[ReadingSection] = []
    title, level, intro, readings = "", 1, [], []
    block: list[str] = []
    bullet = False

    def close_block() -> None:
        nonlocal block, bullet
        if block:
            text = " ".join(block)
            if bullet:
                own = OWN_MARK in text.replace("**", "")
                readings.append(Reading(_plain(text.replace(f"**{OWN_MARK}**", "").replace(OWN_MARK, "")), own))
            else:
                intro.append(_plain(text))
        block, bullet = [], False

    def close_section() -> None:
        nonlocal intro, readings
        close_block()
        if title and (intro or readings):
            sections.append(ReadingSection(title, level, tuple(intro), tuple(readings)))
        intro, readings = [], []

    for line in markdown.splitlines():
        heading = re.match(r"^(#{1,6})\s+(.*)$", line)
        if heading:
            close_section()
            title, level = _plain(heading.group(2)), len(heading.group(1))
        elif re.match(r"^\s*[-*]\s+", line):
            close_block()
            block, bullet = [re.sub(r"^\s*[-*]\s+", "", line)], True
        elif not line.strip():
            close_block()
        else:
            block.append(line.strip())
    close_section()
    return tuple(sections)
