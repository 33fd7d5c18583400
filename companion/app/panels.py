"""The selected ship's panels, as plain data: its moves and its guns.

The step buttons with the rule's reason for each refused step; every
working gun with every target, its dice and exact odds; the declared shots
and the faces to type in for dice rolled at the table.  Read from the
engine (`legal_steps`, `firing_solutions`); no flet imports.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..engine.quick_start.combat import firing_solutions
from ..engine.quick_start.location_choice import shot_pool_now, waiting_words
from ..engine.dice import Colour
from ..engine.quick_start import unit_initiative as H1
from ..engine.quick_start.declared_turns import turn_problem
from ..engine.quick_start.movement import legal_steps
from ..engine.quick_start.state import GameState, ShipState
from .viewmodels import PHASE_NAMES, dice_chips, location_name, percent, shot_dice, slot_view


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
    ship = state.ship(ship_id)
    steps = {step: reason or turn_problem(state, ship, step) for step, reason in legal_steps(ship, state.board).items()}
    if ship.removed:
        note, can_move = f"{ship.card.name} is out of the game.", False
    elif state.phase != "movement":
        note = f"Ships move in the movement phase (now: {PHASE_NAMES.get(state.phase, state.phase).lower()})."
        can_move = False
    else:
        why = H1.move_order_problem(state, ship)
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
    choices: tuple[tuple[str, str], ...] = ()  # (location, name) the target's side picks from (table rule)


#: Where a "ship destroyed" chance stops being a footnote: from 1 in 20 it is worth a player's notice,
#: from 1 in 4 it is the shot's main news (issue 28: a solid red badge on a 0.1% risk overstated it).
NOTABLE, GRAVE = Fraction(1, 20), Fraction(1, 4)


def destroyed_weight(chance: Fraction) -> str:
    """How loudly a shot's chance of destroying the ship is shown: "grave" (a solid badge), "notable"
    (a tinted badge) or "slight" (plain small text)."""
    if chance >= GRAVE:
        return "grave"
    return "notable" if chance >= NOTABLE else "slight"


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
        gun = ship.card.locations[location].gun(slot)
        shot = declared.get((location, slot))
        targets = []
        for s in guns.get((location, slot), []):
            target = state.ship(s.target)
            summary = ("out of arc" if not s.in_arc else f"range {s.range}: out of range" if s.band == "out"
                       else f"range {s.range}, {s.band}")
            strikes = tuple(
                StrikeView(
                    st.location, location_name(st.location), tuple(dice_chips(st.pool)),
                    st.pool.expanded + (f" {st.modifier:+d}" if st.modifier else ""), st.modifier,
                    st.odds.any_damage, percent(st.odds.any_damage),
                    tuple(SlotOdds(n, slot_view(target, st.location, n, target.card.locations[st.location].slot(n))
                                   .title, p, percent(p))
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
    views = []
    for shot in state.shots:
        if ship_id and shot.attacker != ship_id:
            continue
        attacker, target = state.ship(shot.attacker), state.ship(shot.target)
        gun = attacker.card.locations[shot.location].gun(shot.slot)
        pool = shot_pool_now(state, shot)
        aim = location_name(shot.target_location).lower() if shot.target_location else f"({waiting_words(state, shot)})"
        text = (f"{attacker.card.name} {gun.name} ({location_name(shot.location).lower()}) at "
                f"{target.card.name} {aim}, {shot.band} range")
        result = shot.result
        dice = shot_dice(result.model_dump(mode="json")) if result else []
        choosing = shot.target_location is None and state.table_rules.two_locations == "target"
        views.append(ShotView(shot.id, shot.attacker, text, tuple(dice_chips(pool)), result is not None,
                              result.text if result else "", result.outcome if result else None,
                              tuple(dice), tuple((loc, location_name(loc).lower()) for loc in shot.may_strike)
                              if choosing else ()))
    return tuple(views)


@dataclass(frozen=True)
class FaceField:
    """One die the players rolled, to be typed in: which pool it belongs to."""

    purpose: str  # pool, slot, keel, location (table rule two_locations "roll")
    colour: str
    label: str


def table_dice_fields(state: GameState, shot_id: int) -> tuple[FaceField, ...]:
    """The faces to enter for a shot: its pool in order, then the slot die."""
    shot = next(s for s in state.shots if s.id == shot_id)
    pool = shot_pool_now(state, shot)
    rolled = shot.target_location is None and state.table_rules.two_locations == "roll"
    fields = [FaceField("location", "D6", "Location die")] if rolled else []
    fields += [FaceField("pool", Colour(c).value, Colour(c).label) for c in pool]
    fields.append(FaceField("slot", "D6", "Slot die"))
    return tuple(fields)
