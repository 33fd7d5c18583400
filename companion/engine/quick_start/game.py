"""The one door for change: `apply(state, action)` -> the new state and its events.

A rule refusal is data (`Refused` with the reason in plain words), never an
exception.  In bookkeeping mode the table is the truth: the action is recorded
as entered and the rule's objection becomes a warning.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

from . import actions as A
from .. import common as C
from . import declared_turns as H3
from . import secret_moves as SM
from . import unit_initiative as UI
from ..cards import GunSlot
from .combat import TABLE_NEEDS, firing_solution, keel_modifier, resolve_breach, shot_pool
from .deployment import deployment_problem
from ..footprint import Placement
from .house_rules import set_house_rules
from ..kernel import Applied, Refusal, RefusalKind, Refused, Work, dispatch
from .location_choice import choose_location, declared_location, location_roll_words, settle_location, waiting_words
from ..hexes import PositionError, facing_name, parse_facing
from .movement import half_hex_loss, placement_problem, reset_for_turn, stacking_problem, step_problem, take_step
from ..roller import NeedDice
from .state import GameState, InitiativeRoll, ShipState, Shot, ShotResult, SlotStatus
from .turn import INITIATIVE_DICE, game_end, harden_damage, initiative_winner, to_move


#: Kinds still taken when the game is over: the ship cards can be corrected, the rule switch flipped.
AFTER_OVER = frozenset({"mark_slot", "set_bookkeeping", "set_keel"})

#: The rule modules' own refusals (raised deep in the hex map and the dice).
RULE_ERRORS = (PositionError, NeedDice)

def apply(state: GameState, action: Any) -> Applied[GameState] | Refused:
    """Apply one action; the new state and events, or a refusal with the reason (kernel.dispatch)."""
    return dispatch(HANDLERS, state, action, parse=parse_action, after_over=AFTER_OVER,
                    rule_errors=RULE_ERRORS)


# --- initiative ---------------------------------------------------------------


def _roll_initiative(work: Work[GameState], action: A.RollInitiative) -> None:
    UI.side_initiative(work)  # house rule H1 rolls per ship
    work.rule(None if work.state.phase == "initiative" else f"initiative is rolled at the start of a turn, not in {work.state.phase}", RefusalKind.PHASE)
    decided = C.roll_off(work, action.faces, INITIATIVE_DICE, initiative_winner, _initiative_words,
                         "initiative_tie", "initiative_rolls")
    if decided is not None:
        winner, rolls = decided
        work.event("initiative", f"{_initiative_words(rolls)}. {winner} wins the initiative.", winner=winner,
                   rolls=C.dumped(rolls))
        work.update(initiative=winner, initiative_rolls=rolls, phase="movement")
        _after_movement_change(work)


def _initiative_words(rolls: list[InitiativeRoll]) -> str:
    return "Initiative: " + ", ".join(f"{r.side} {' + '.join(str(d.face) for d in r.dice)} = {r.total}" for r in rolls)


def _set_initiative(work: Work[GameState], action: A.SetInitiative) -> None:
    UI.side_initiative(work)
    C.check_side(work, action.side)
    work.update(initiative=action.side, phase="movement" if work.state.phase == "initiative" else work.state.phase)
    work.event("initiative", f"{action.side} has the initiative (set by hand).", winner=action.side)
    _after_movement_change(work)


# --- movement -------------------------------------------------------------------


def _movement_rule(work: Work[GameState], ship: ShipState) -> None:
    work.phase("movement", doing="ships move")
    if work.state.phase == "movement":
        UI.movement_rule(work, ship)  # by type, or house rules H1, H2: the move order and the mover stack


def _step(work: Work[GameState], action: A.Step) -> None:
    ship = work.ship(action.ship)
    _movement_rule(work, ship)
    moved = take_step(ship, action.step, work.state.board)
    if not all(work.state.board.contains(c) for c in moved.hexes):
        raise Refusal(f"{ship.card.name} would leave the board")
    work.rule(step_problem(ship, action.step, work.state.board))
    moved = H3.declared_step(work, ship, moved, action.step)
    work.state = work.state.with_ship(moved)
    what = "moves forward" if action.step == "forward" else f"turns to {action.step}"
    work.event(
        "step",
        f"{ship.card.name} {what} to {moved.describe_position(work.state.board)} ({moved.mp_left} MP left).",
        ship=ship.id, step=action.step, bow=work.state.board.label(moved.bow), facing=moved.facing,
    )


def _place(work: Work[GameState], action: A.Place) -> None:
    ship = work.ship(action.ship)
    if work.state.phase == "movement" and work.state.house_rules.unit_initiative:
        UI.movement_rule(work, ship)  # H1: only the ship moving now is placed (house-rules.md 4.4)
    board = work.state.board
    bow = board.parse(action.bow)
    facing = parse_facing(action.facing)
    placement = Placement(bow, facing, ship.card.type, ship.one_hex)
    problem = placement_problem(work.state, ship, placement)
    if problem and "off the board" in problem:
        raise Refusal(problem)
    work.rule(problem)
    if work.state.phase == "setup":
        work.rule(deployment_problem(work.state, ship, placement))
    moved = _placed_moved(work.state, ship, placement, action.moved)
    placed = ship.at(placement, moved=moved)
    work.state = work.state.with_ship(placed)
    work.event(
        "place",
        f"{ship.card.name} placed at {board.label(bow)} facing {facing_name(facing)}"
        + (" (entered a new hex this turn)." if moved else "."),
        ship=ship.id, bow=board.label(bow), facing=facing, moved=moved,
    )


def _placed_moved(state: GameState, ship: ShipState, placement: Placement, said: bool | None) -> bool:
    """Did a placed ship enter a new hex this turn (its location dice: go or stop)?

    As the players say when they say; else, in the movement phase, only if its
    pivot hex changed: a Type 2 or 3 turned about its centre hex has not moved
    into a new hex, as the same turn made step by step has not (seed 001
    "Location Dice": stop dice "if the target ship did not move forward into a
    new hex this turn").
    """
    if said is not None:
        return said
    if state.phase != "movement":
        return ship.moved
    return ship.moved or placement.pivot != ship.placement.pivot


def _end_move(work: Work[GameState], action: A.EndMove) -> None:
    ship = work.ship(action.ship)
    _movement_rule(work, ship)
    work.rule(stacking_problem(work.state, ship))
    _finish_move(work, ship)
    _after_movement_change(work)


def _finish_move(work: Work[GameState], ship: ShipState) -> None:
    ship = ship.model_copy(update={"move_done": True})
    work.event("end_move", f"{ship.card.name} ends its move at {ship.describe_position(work.state.board)}.", ship=ship.id)
    work.state = work.state.with_ship(half_hex_loss(work, ship))


def _end_movement(work: Work[GameState], action: A.EndMovement) -> None:
    work.rule(None if work.state.phase == "movement" else f"it is the {work.state.phase} phase, not movement", RefusalKind.PHASE)
    if work.state.house_rules.unit_initiative:
        UI.discard_records(work)
    waiting = [ship for ship in work.state.active_ships if not ship.move_done]
    for ship in waiting:  # each stays where it stands: it may not share a hex (seed 001 "Movement")
        work.rule(stacking_problem(work.state, ship))
    for ship in waiting:
        _finish_move(work, work.state.ship(ship.id))
    _after_movement_change(work)


def _after_movement_change(work: Work[GameState]) -> None:
    if work.state.house_rules.unit_initiative:
        return UI.settle(work)
    C.movement_over(work, to_move(work.state) is None, "Movement is over: open fire. All fire is simultaneous.")


# --- combat -----------------------------------------------------------------------


def _declare_shot(work: Work[GameState], action: A.DeclareShot) -> None:
    state = work.state
    attacker, target = work.ship(action.attacker), work.ship(action.target)
    for ship in (attacker, target):
        if ship.removed:
            raise Refusal(f"{ship.card.name} has left play ({ship.destruction or 'removed'})")
    work.rule(None if state.phase == "combat" else f"ships fire in the combat phase (now: {state.phase})", RefusalKind.PHASE)
    card_location = attacker.card.locations.get(action.location)
    if card_location is None or not 1 <= action.slot <= 6:
        raise Refusal(f"{attacker.card.name} has no slot {action.location} {action.slot}")
    gun = card_location.slot(action.slot)
    if gun.kind != "gun":
        raise Refusal(f"slot {action.slot} of the {action.location} of {attacker.card.name} is not a gun")
    if not attacker.works(action.location, action.slot):
        work.rule(f"the {gun.name} in the {action.location} was destroyed in an earlier turn")
    if attacker.side == target.side:
        work.rule(f"{target.card.name} is on {attacker.side}'s own side")
    if any(s.attacker == attacker.id and s.location == action.location and s.slot == action.slot for s in state.shots):
        work.rule(f"the {gun.name} in the {action.location} has already fired this turn (one breach roll per gun)")
    solution = firing_solution(attacker, action.location, action.slot, target, state.table_rules)
    choices = [s.location for s in solution.strikes]
    if not choices:  # out of arc, or out of range
        work.rule(f"{solution.target} is outside the firing arc of the {solution.location} {gun.name}"
                  if not solution.in_arc else
                  f"{solution.target} is {solution.range} hexes away, beyond the {gun.name}'s range of {gun.long.range}")
    where = declared_location(work, target, action.target_location, choices)
    band = solution.band if solution.band != "out" else "long"
    shot = Shot(
        id=max((s.id for s in state.shots), default=0) + 1,
        attacker=attacker.id, location=action.location, slot=action.slot,
        target=target.id, target_location=where, may_strike=[] if where else choices, band=band,
    )
    aim = f"the {where} of {target.card.name}" if where else f"{target.card.name}: {waiting_words(state, shot)}"
    work.update(shots=[*state.shots, shot])
    work.event(
        "declare_shot",
        f"{attacker.card.name} aims its {gun.name} ({action.location}) at {aim}.",
        shot=shot.id,
    )


def _cancel_shot(work: Work[GameState], action: A.CancelShot) -> None:
    C.cancel(work, "shots", action.shot, "shot", "resolved")


def _resolve_shot(work: Work[GameState], action: A.ResolveShot) -> None:
    shot: Shot = C.declared(work, "shots", action.shot, "shot", "resolved")
    shot, location_die = settle_location(work, shot, action.table)  # table rule two_locations
    state = work.state
    attacker, target = state.ship(shot.attacker), state.ship(shot.target)
    location = shot.target_location
    assert location is not None, "settle_location gives the shot its location"
    pool = shot_pool(attacker, shot.location, shot.slot, shot.band, target, location, state.table_rules)
    modifier = attacker.tesla_modifier
    if action.table is not None and len(action.table.pool) != len(pool):
        raise Refusal(f"the breach roll is {pool.expanded}: enter {len(pool)} faces, in that order")
    result = C.rolled(work, action.table, TABLE_NEEDS,
                      lambda dice: resolve_breach(pool, modifier, target, location, dice))
    gun = attacker.card.locations[shot.location].gun(shot.slot)
    text = location_roll_words(location_die, location) + _result_text(result, target, location)
    result = result.model_copy(update={"text": text, "location_roll": location_die})
    done = shot.model_copy(update={"result": result})
    work.update(shots=[done if s.id == shot.id else s for s in work.state.shots])
    work.event("shot", f"{attacker.card.name} {gun.name}: {result.text}", shot=shot.id, result=result.model_dump(mode="json"))
    _apply_result(work, target, location, result)


def _apply_result(work: Work[GameState], target: ShipState, location: str, result: ShotResult) -> None:
    if result.outcome == "slot_destroyed":
        assert result.slot is not None, "resolve_breach names the slot it destroyed"
        hit = target.with_status(location, result.slot, SlotStatus.DESTROYED_THIS_TURN)
        work.state = work.state.with_ship(hit)
        work.event("slot_destroyed", f"{target.card.name}: {location} slot {result.slot} destroyed (circled).",
                   ship=target.id, location=location, slot=result.slot)
    elif result.outcome == "keel_break":
        work.state = work.state.with_ship(target.model_copy(update={"keel_broken": True}))
        work.event("keel_break", f"{target.card.name}'s keel breaks: the ship is destroyed.", ship=target.id)


def _result_text(result: ShotResult, target: ShipState, location: str) -> str:
    dice = " + ".join(f"{d.colour.label} {d.face}" for d in result.pool)
    mod = f" {result.modifier:+d}" if result.modifier else ""
    rolls = result.slot_rolls
    head = f"{dice}{mod} = {result.total}; slot die {rolls[0]}"
    if len(rolls) > 1:
        head += ", re-rolled " + ", ".join(map(str, rolls[1:]))
    name = ""
    if result.slot:  # the struck slot as the card names it: a gun by its name
        slot = target.card.locations[location].slot(result.slot)
        name = (slot.name if isinstance(slot, GunSlot) else "") or slot.label or slot.kind.replace("_", " ")
    if result.outcome == "miss":
        return f"{head}: a miss slot, the shot misses."
    head += f": {_needed(result, target, location)}"
    if result.outcome == "slot_destroyed":
        return f"{head}, {target.card.name} {location} slot {result.slot} ({name}) destroyed."
    if result.keel_dice:
        keel = sum(d.face for d in result.keel_dice)
        keel_mod = keel_modifier(target, location)
        verdict = "the keel breaks, ship destroyed" if result.outcome == "keel_break" else "the keel holds"
        faces = " + ".join(str(d.face) for d in result.keel_dice)
        return (f"{head}, critical! Keel roll 2DRed {faces} = {keel}; {keel} + {keel_mod} = {keel + keel_mod} "
                f"against SI {target.card.structural_integrity}: {verdict}.")
    return f"{head}, no effect on {target.card.name}'s {location} ({name})."


def _needed(result: ShotResult, target: ShipState, location: str) -> str:
    """What the breach roll needed, so the players can check it against the card: the struck
    slot's breach number plus the location's armour (seed 001 "Breach Roll"), or, once a slot
    already destroyed sends the slot die round again, the re-rolled slot's breach number alone
    (the reading `combat.resolve_breach` plays): "12 against 15 (breach 13, armour +2): no breach"."""
    slots = target.card.locations[location].slots
    if len(result.slot_rolls) == 1:
        breach, armour = slots[result.slot_rolls[0] - 1].breach, target.armour(location)
        parts = f"breach {breach}, armour {armour:+d}" if armour else f"breach {breach}"
    else:
        breach, armour = slots[result.slot_rolls[-1] - 1].breach, 0
        parts = f"breach {breach} of the re-rolled slot"
    assert breach is not None, "a miss slot's roll returned before (_result_text)"
    need = breach + armour
    return f"{result.total} against {need} ({parts}): {'breach' if result.total >= need else 'no breach'}"


# --- marks by hand ------------------------------------------------------------------


def _mark_slot(work: Work[GameState], action: A.MarkSlot) -> None:
    ship = work.ship(action.ship)
    if action.location not in ship.card.locations:
        raise Refusal(f"{ship.card.name} has no location '{action.location}'")
    slot = ship.card.locations[action.location].slot(action.slot)
    if slot.kind == "miss" and action.status != "live":
        raise Refusal("a miss slot cannot be destroyed")
    status = SlotStatus(action.status)
    marked = ship.with_status(action.location, action.slot, status)
    if slot.kind == "engine" and work.state.phase in ("movement", "combat"):
        marked = marked.model_copy(update={"turn_mp": _turn_mp_after_mark(ship, marked, slot.mp)})
    work.state = work.state.with_ship(marked)
    words = {"live": "cleared", "destroyed_this_turn": "circled (destroyed this turn)", "destroyed": "struck through (destroyed)"}
    work.event("mark_slot", f"{ship.card.name}: {action.location} slot {action.slot} {words[action.status]} by hand.",
               ship=ship.id, location=action.location, slot=action.slot, status=action.status)


def _turn_mp_after_mark(before: ShipState, after: ShipState, engine_mp: int) -> int:
    """This turn's MP once an engine was marked by hand during the turn's movement or combat.

    Damage takes effect at the end of the turn however it was entered (seed
    001 "Engine Slot": "starting in the following turn"): an engine lost now
    keeps this turn's MP.  An engine given back (a hashed slot cleared or only
    circled: the table says it was never lost) adds its MP at once.
    """
    gained = after.engine_mp - before.engine_mp
    return before.movement_points + max(0, gained)


def _set_keel(work: Work[GameState], action: A.SetKeel) -> None:
    ship = work.ship(action.ship)
    work.state = work.state.with_ship(ship.model_copy(update={"keel_broken": action.broken}))
    work.event("set_keel", f"{ship.card.name}: keel {'broken' if action.broken else 'whole'} (by hand).", ship=ship.id)


# --- turn ends ------------------------------------------------------------------------


def _start_game(work: Work[GameState], action: A.StartGame) -> None:
    if work.state.phase != "setup":
        raise Refusal("the game has already started", RefusalKind.PHASE)
    work.update(phase="initiative")
    work.event("phase", f"Turn {work.state.turn}: roll initiative.")


def _end_turn(work: Work[GameState], action: A.EndTurn) -> None:
    state = work.state
    work.rule(None if state.phase == "combat" else f"the turn ends after combat (now: {state.phase})", RefusalKind.PHASE)
    pending = [s.id for s in state.shots if s.result is None]
    if pending:
        work.rule(f"shot{'s' if len(pending) > 1 else ''} {', '.join(map(str, pending))} declared but not resolved: resolve or cancel")
    H3.lapse_declarations(work)
    ships = []
    for ship in state.ships:
        ship = reset_for_turn(harden_damage(ship))
        if not ship.removed and ship.destruction:
            work.event("ship_destroyed", f"{ship.card.name} is destroyed: {ship.destruction}.", ship=ship.id)
            ship = ship.model_copy(update={"removed": True})
        ships.append(ship)
    work.update(ships=ships, shots=[], initiative=None, initiative_rolls=[])
    if state.house_rules.unit_initiative:
        UI.end_turn(work)
    work.event("end_turn", f"End of turn {state.turn}: circled slots are struck through.")
    C.next_turn(work, state.turn, game_end(work.state))


#: The rules of Quick-Start: action kind -> handler(work, action).
HANDLERS: dict[str, Callable[[Work[GameState], Any], None]] = {
    "roll_initiative": _roll_initiative,
    "set_initiative": _set_initiative,
    "step": _step,
    "place": _place,
    "end_move": _end_move,
    "end_movement": _end_movement,
    "declare_shot": _declare_shot,
    "cancel_shot": _cancel_shot,
    "resolve_shot": _resolve_shot,
    "choose_location": choose_location,
    "mark_slot": _mark_slot,
    "set_keel": _set_keel,
    "start_game": _start_game,
    "end_turn": _end_turn,
    "concede": C.concede,
    "set_bookkeeping": C.set_bookkeeping,
    "declare_turn": partial(H3.declare_turn, movement_rule=_movement_rule),
    "cancel_turn": partial(H3.cancel_turn, movement_rule=_movement_rule),
    "set_house_rules": set_house_rules,
    "roll_unit_initiative": UI.roll_unit_initiative,
    "set_move_order": UI.set_move_order,
    "record_move": SM.record_move,
    "seize_initiative": UI.seize_initiative,
    "move_along": C.move_along({"step": _step, "declare_turn": partial(H3.declare_turn, movement_rule=_movement_rule),
                                "cancel_turn": partial(H3.cancel_turn, movement_rule=_movement_rule)}, RULE_ERRORS,
                                ship_name=lambda ship: str(ship.card.name)),
}

parse_action = C.action_parser(A.ActionEnvelope, HANDLERS, "not an action")
