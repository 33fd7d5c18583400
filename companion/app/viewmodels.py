"""What each screen shows, as plain data: the logic behind the views.

Views read these and render; they hold no rules.  Every function here takes
engine state (or store summaries) and returns small frozen dataclasses, so
the fire panel, the banner, the ship card and the log are tested without a
browser.  No flet imports.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from fractions import Fraction

from ..engine.cards import NO_QUICK_START_RULE
from ..engine.arcs import range_in_wedge, wedge_for
from ..engine.combat import firing_solutions, weapon_hex
from ..engine.dice import Colour, Pool, chance_at_least, distribution, parse_pool
from ..engine.hexes import Hex, facing_name
from ..engine.movement import legal_steps
from ..engine.state import GameState, ShipState, SlotStatus
from ..engine.turn import movement_groups, to_move

LOCATION_NAMES = {
    "bow": "Bow", "port": "Port", "starboard": "Starboard", "stern": "Stern",
    "port_bow": "Port bow", "port_quarter": "Port quarter",
    "starboard_bow": "Starboard bow", "starboard_quarter": "Starboard quarter",
}
PHASE_NAMES = {
    "setup": "Deployment", "initiative": "Initiative", "movement": "Movement",
    "combat": "Fire", "over": "Game over",
}


def location_name(location: str) -> str:
    return LOCATION_NAMES.get(location, location.replace("_", " ").capitalize())


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


# --- banner ------------------------------------------------------------------


@dataclass(frozen=True)
class Banner:
    """The line at the top of the table: the phase and who acts next."""

    phase: str
    title: str
    detail: str
    actions: tuple[str, ...] = ()
    next_ships: tuple[str, ...] = ()


def banner(state: GameState) -> Banner:
    turn = f"Turn {state.turn}"
    phase = state.phase
    if phase == "setup":
        return Banner(phase, "Deployment",
                      "Place every ship within four hexes of its side's map edge, "
                      "as on the table, then start the battle.", ("start_game",))
    if phase == "initiative":
        tie = " Last roll was a tie: roll again." if state.initiative_rolls else ""
        return Banner(phase, f"{turn} · Initiative",
                      f"Each side rolls 2DRed; the higher total wins.{tie}",
                      ("roll_initiative", "enter_initiative", "set_initiative"))
    if phase == "movement":
        group = to_move(state)
        if group is None:
            return Banner(phase, f"{turn} · Movement", "Movement is over.", ("end_movement",))
        side, ship_type = group
        ships = [s for s in state.active_ships
                 if s.side == side and s.card.type == ship_type and not s.move_done]
        names = ", ".join(s.card.name for s in ships)
        order = ", then ".join(f"{sd} T{t}" for sd, t in movement_groups(state))
        return Banner(phase, f"{turn} · Movement: {side} Type {ship_type}",
                      f"{names} to move. Order: {order}. {state.initiative} has the initiative.",
                      ("end_movement",), tuple(s.id for s in ships))
    if phase == "combat":
        declared = len(state.shots)
        open_ = sum(1 for s in state.shots if s.result is None)
        shots = (f"{declared} shot{'s' if declared != 1 else ''} declared"
                 + (f", {open_} to resolve" if open_ else "")) if declared else "no shots declared yet"
        return Banner(phase, f"{turn} · Fire",
                      f"All fire is simultaneous: pick a ship, declare its shots, resolve them, "
                      f"then end the turn ({shots}).", ("end_turn",))
    return Banner(phase, "Game over", state.result or "The game is over.", ())


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
    rows = []
    group = to_move(state) if state.phase == "movement" else None
    for ship in state.ships:
        status = ""
        if ship.removed:
            status = "destroyed"
        elif state.phase == "movement":
            if ship.move_done:
                status = "moved"
            elif group == (ship.side, ship.card.type):
                status = "to move"
            else:
                status = "waiting"
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


def unruled_line(card) -> str:
    """One line naming the card's slots the Quick-Start rules do not define (issue 12)."""
    labels = [slot.label or "Other" for loc in card.locations.values() for slot in loc.slots if slot.kind == "other"]
    return f"{', '.join(dict.fromkeys(labels))}: {NO_QUICK_START_RULE}" if labels else ""


def _slot_view(ship: ShipState, location: str, number: int, slot) -> SlotView:
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


def card_view(state: GameState, ship_id: str) -> CardView:
    ship = state.ship(ship_id)
    locations = []
    for key, loc in ship.card.locations.items():
        slots = tuple(_slot_view(ship, key, n, slot) for n, slot in enumerate(loc.slots, start=1))
        locations.append(LocationView(
            key, location_name(key), tuple(dice_chips(loc.go)), tuple(dice_chips(loc.stop)),
            "go" if ship.moved else "stop", ship.armour(key), slots, ship.location_wrecked(key),
        ))
    card = ship.card
    return CardView(
        ship.id, card.name, card.ship_class, ship.side, card.type,
        ship.describe_position(state.board), ship.movement_points, ship.mp_left,
        card.structural_integrity, half_si(ship), ship.destroyed_count(),
        card.enter_hexes_before_turn, ship.destruction, ship.keel_broken, tuple(locations),
        card.verified, unruled_line(card),
    )


NEXT_MARK = {"live": "destroyed_this_turn", "destroyed_this_turn": "destroyed", "destroyed": "live"}


# --- movement panel ---------------------------------------------------------------


@dataclass(frozen=True)
class MoveOption:
    step: str
    label: str
    reason: str | None  # None: legal


@dataclass(frozen=True)
class MovePanel:
    ship: str
    name: str
    position: str
    mp_left: int
    mp: int
    note: str  # why the ship may not move now, or what it may do
    can_move: bool
    options: tuple[MoveOption, ...]
    can_end: bool


STEP_LABELS = {"forward": "Forward", "port": "Turn to port", "starboard": "Turn to starboard"}


def move_panel(state: GameState, ship_id: str) -> MovePanel:
    """The step buttons with the rule's reason for each refused step.

    Reasons come from the engine (`legal_steps`, and the turn order); in
    bookkeeping mode a refused step is still offered, with its warning.
    """
    from ..engine.turn import may_move_now

    ship = state.ship(ship_id)
    steps = legal_steps(ship, state.board)
    if ship.removed:
        note, can_move = f"{ship.card.name} is out of the game.", False
    elif state.phase != "movement":
        note = f"Ships move in the movement phase (now: {PHASE_NAMES.get(state.phase, state.phase).lower()})."
        can_move = False
    else:
        why = may_move_now(state, ship)
        note, can_move = (why[0].upper() + why[1:] + ".", False) if why else (
            f"Enter {ship.card.enter_hexes_before_turn} hex{'es' if ship.card.enter_hexes_before_turn != 1 else ''} "
            "before each turn; one hexside per hex.", True)
    options = []
    for step, reason in steps.items():
        if not can_move and reason is None:
            reason = note.rstrip(".")
        options.append(MoveOption(step, STEP_LABELS[step], reason))
    if state.settings.bookkeeping:
        options = [MoveOption(o.step, o.label, None) for o in options]
        can_move = not ship.removed
    return MovePanel(ship.id, ship.card.name, ship.describe_position(state.board), ship.mp_left,
                     ship.movement_points, note, can_move, tuple(options),
                     can_move and not ship.move_done)


# --- fire panel ------------------------------------------------------------------------


@dataclass(frozen=True)
class SlotOdds:
    slot: int
    name: str
    chance: Fraction
    text: str


@dataclass(frozen=True)
class StrikeView:
    location: str
    name: str
    pool: tuple[str, ...]
    pool_text: str
    modifier: int
    damage: Fraction
    damage_text: str
    slots: tuple[SlotOdds, ...]
    keel: Fraction
    keel_text: str
    no_effect: Fraction
    ship_destroyed: Fraction  # the shot leaves the ship destroyed (keel, wrecked location, half SI)
    ship_destroyed_text: str  # a percent, or "destroyed already: <why>"


@dataclass(frozen=True)
class TargetView:
    target: str
    name: str
    in_arc: bool
    range: int | None
    band: str
    summary: str  # "range 6, long" or "out of arc"
    strikes: tuple[StrikeView, ...]
    declared: int | None  # shot id if this gun already aims at this target


@dataclass(frozen=True)
class GunView:
    location: str
    slot: int
    name: str
    bands: str  # "4/8 hex"
    fired: bool  # already declared this turn
    targets: tuple[TargetView, ...]


@dataclass(frozen=True)
class ShotView:
    id: int
    attacker: str
    text: str
    pool: tuple[str, ...]
    resolved: bool
    result: str
    outcome: str | None
    dice: tuple[tuple[str, int], ...]  # (colour, face) of every die rolled, pool then slot then keel


def _slot_title(ship: ShipState, location: str, n: int) -> str:
    slot = ship.card.locations[location].slot(n)
    return _slot_view(ship, location, n, slot).title


def _ship_destroyed_text(target: ShipState, chance: Fraction) -> str:
    """The chance a shot destroys the ship, or why it is destroyed already (it stays in
    play, and may be shot at, until the end of the turn: seed 001 "End of Turn")."""
    if target.destruction is not None:
        return f"destroyed already: {target.destruction}"
    return percent(chance)


def fire_panel(state: GameState, ship_id: str) -> tuple[GunView, ...]:
    """Every working gun of the ship with every enemy: arc, range, band, dice, exact odds.

    Read from the engine's `firing_solutions`, the one list of what a ship can
    shoot at.
    """
    ship = state.ship(ship_id)
    if ship.removed:
        return ()
    solutions = firing_solutions(state, ship_id)
    guns: dict[tuple[str, int], list] = {}
    for s in solutions:
        guns.setdefault((s.location, s.slot), []).append(s)
    declared = {(sh.location, sh.slot): sh for sh in state.shots if sh.attacker == ship_id}
    views = []
    for location, slot in ship.working_guns:
        gun = ship.card.locations[location].slot(slot)
        shot = declared.get((location, slot))
        targets = []
        for s in guns.get((location, slot), []):
            target = state.ship(s.target)
            if not s.in_arc:
                summary = "out of arc"
            elif s.band == "out":
                summary = f"range {s.range}: out of range"
            else:
                summary = f"range {s.range}, {s.band}"
            strikes = tuple(
                StrikeView(
                    st.location, location_name(st.location), tuple(dice_chips(st.pool)),
                    st.pool.expanded + (f" {st.modifier:+d}" if st.modifier else ""), st.modifier,
                    st.odds.any_damage, percent(st.odds.any_damage),
                    tuple(SlotOdds(n, _slot_title(target, st.location, n), p, percent(p))
                          for n, p in st.odds.slot_destroyed.items() if p),
                    st.odds.keel_break, percent(st.odds.keel_break), st.odds.no_effect,
                    st.odds.ship_destroyed, _ship_destroyed_text(target, st.odds.ship_destroyed),
                )
                for st in s.strikes
            )
            targets.append(TargetView(s.target, target.card.name, s.in_arc, s.range, s.band, summary,
                                      strikes, shot.id if shot and shot.target == s.target else None))
        targets.sort(key=lambda t: (not t.strikes, t.range if t.range is not None else 999))
        views.append(GunView(location, slot, gun.name, f"{gun.short.range}/{gun.long.range} hex",
                             shot is not None, tuple(targets)))
    views.sort(key=lambda g: not any(t.strikes for t in g.targets))
    return tuple(views)


def shot_views(state: GameState, ship_id: str | None = None) -> tuple[ShotView, ...]:
    """Declared shots (of one ship, or all), with their dice once resolved."""
    from ..engine.combat import shot_pool

    views = []
    for shot in state.shots:
        if ship_id and shot.attacker != ship_id:
            continue
        attacker, target = state.ship(shot.attacker), state.ship(shot.target)
        gun = attacker.card.locations[shot.location].slot(shot.slot)
        pool = shot_pool(attacker, shot.location, shot.slot, shot.band, target, shot.target_location)
        text = (f"{attacker.card.name} {gun.name} ({location_name(shot.location).lower()}) at "
                f"{target.card.name} {location_name(shot.target_location).lower()}, {shot.band} range")
        result = shot.result
        dice: list[tuple[str, int]] = []
        if result:
            dice = [(d.colour.value, d.face) for d in result.pool]
            dice += [("D6", f) for f in result.slot_rolls]
            dice += [(d.colour.value, d.face) for d in result.keel_dice]
        views.append(ShotView(shot.id, shot.attacker, text, tuple(dice_chips(pool)), result is not None,
                              result.text if result else "", result.outcome if result else None,
                              tuple(dice)))
    return tuple(views)


@dataclass(frozen=True)
class FaceField:
    """One die the players rolled, to be typed in: which pool it belongs to."""

    purpose: str  # pool, slot, keel
    colour: str
    label: str


def table_dice_fields(state: GameState, shot_id: int) -> tuple[FaceField, ...]:
    """The faces to enter for a shot: its pool in order, then the slot die."""
    from ..engine.combat import shot_pool

    shot = next(s for s in state.shots if s.id == shot_id)
    attacker, target = state.ship(shot.attacker), state.ship(shot.target)
    pool = shot_pool(attacker, shot.location, shot.slot, shot.band, target, shot.target_location)
    fields = [FaceField("pool", Colour(c).value, Colour(c).label) for c in pool]
    fields.append(FaceField("slot", "D6", "Slot die"))
    return tuple(fields)


def parse_faces(texts: list[str]) -> tuple[list[int] | None, str | None]:
    """Typed faces -> integers, or a plain message about the first bad one."""
    faces = []
    for i, text in enumerate(texts, start=1):
        text = (text or "").strip()
        if not text:
            return None, f"die {i} is empty: type the face it shows"
        if not text.isdigit():
            return None, f"die {i}: '{text}' is not a number"
        faces.append(int(text))
    return faces, None


# --- arcs on the map ------------------------------------------------------------------------


@dataclass(frozen=True)
class ArcShade:
    location: str
    band: str  # short, long, arc (beyond every gun)
    cells: tuple[Hex, ...]


def arc_shades(state: GameState, ship_id: str) -> tuple[ArcShade, ...]:
    """Hexes in each location's firing arc, split by the location's best gun bands."""
    ship = state.ship(ship_id)
    board = state.board
    shades = []
    for location in ship.card.locations:
        origin = weapon_hex(ship, location)
        wedge = wedge_for(location, ship.facing)
        guns = [ship.card.locations[location].slot(n) for loc, n in ship.working_guns if loc == location]
        short = max((g.short.range for g in guns), default=0)
        long = max((g.long.range for g in guns), default=0)
        bands: dict[str, list[Hex]] = {"short": [], "long": []}
        if not guns:
            continue
        for cell in board.cells():
            r = range_in_wedge(origin, cell, wedge)
            if r is None:
                continue
            if r <= short:
                bands["short"].append(cell)
            elif r <= long:
                bands["long"].append(cell)
        for band, cells in bands.items():
            if cells:
                shades.append(ArcShade(location, band, tuple(cells)))
    return tuple(shades)


# --- deployment on the map ------------------------------------------------------------------


def deployment_hexes(state: GameState, ship_id: str) -> tuple[Hex, ...]:
    """Bow hexes where the ship may deploy, facing some way: the engine's own checks
    (`placement_problem`, `deployment_problem`), shaded on the map in the set-up phase."""
    from ..engine.deployment import deployment_problem
    from ..engine.footprint import Placement
    from ..engine.movement import placement_problem

    if state.phase != "setup" or not state.has_ship(ship_id):
        return ()
    ship = state.ship(ship_id)
    cells = []
    for cell in state.board.cells():
        for facing in range(6):
            placement = Placement(cell, facing, ship.card.type)
            if deployment_problem(state, ship, placement) is None and placement_problem(state, ship, placement) is None:
                cells.append(cell)
                break
    return tuple(cells)


# --- log --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LogLine:
    index: int
    kind: str
    text: str
    dice: tuple[tuple[str, int], ...] = ()


def log_lines(events) -> tuple[LogLine, ...]:
    """Every event in order, with the dice of rolls."""
    lines = []
    for i, event in enumerate(events, start=1):
        data = event.data if hasattr(event, "data") else event.get("data", {})
        kind = event.kind if hasattr(event, "kind") else event.get("kind", "")
        text = event.text if hasattr(event, "text") else event.get("text", "")
        dice: list[tuple[str, int]] = []
        if kind == "shot" and "result" in data:
            result = data["result"]
            dice = [(d["colour"], d["face"]) for d in result.get("pool", [])]
            dice += [("D6", f) for f in result.get("slot_rolls", [])]
            dice += [(d["colour"], d["face"]) for d in result.get("keel_dice", [])]
        elif kind.startswith("initiative") and "rolls" in data:
            for roll in data["rolls"]:
                dice += [(d["colour"], d["face"]) for d in roll.get("dice", [])]
        lines.append(LogLine(i, kind, text, tuple(dice)))
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


def chance_text(pool: Pool | str, target: int) -> str:
    if isinstance(pool, str):
        pool = parse_pool(pool)
    return percent(chance_at_least(pool, target))


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


def game_rows(summaries, now: float | None = None) -> tuple[GameRow, ...]:
    rows = []
    for s in summaries:
        detail = s.result or f"Turn {s.turn} · {PHASE_NAMES.get(s.phase, s.phase)}"
        rows.append(GameRow(s.id, s.name, detail, " vs ".join(s.sides), ago(s.updated, now)))
    return tuple(rows)


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
    """Markdown marks off: `code`, **bold**, [label](link) -> label; spaces tidied."""
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)
    text = text.replace("**", "").replace("`", "")
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
