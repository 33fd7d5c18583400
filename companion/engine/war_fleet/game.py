"""The one door for change of a War Fleet game: `apply(state, action)`.

The same shape as the Quick-Start `apply`: it checks phase, side and legality
and returns `Applied(state, events)`, or `Refused(reason)` as data, never an
exception.  In bookkeeping mode a rule objection becomes a warning and the
action is recorded as entered.

Sequence (seed 004 "Game Sequence"): set-up (placement roll, alternate
placement by class), then each turn initiative, movement, combat, end.
"""

from __future__ import annotations

from typing import Any, Callable

from .. import common as C
from ..dice import Pool, parse_pool
from ..kernel import Applied, Refusal, RefusalKind, Refused, Work, dispatch
from ..hexes import PositionError, facing_name, parse_facing
from ..roller import NeedDice
from . import actions as A
from .arcs import war_fleet_range
from .combat import (
    TABLE_NEEDS, armed_attack, attack_option, attack_pool, declared_locations, loc_name, resolve_attack,
)
from .pocket import PocketError, pocket_ships
from .state import Attack, AttackResult, InitiativeRoll, Pocket, WarFleetState, WarShip
from .turn import (
    game_end, may_move_now, pivot_problem, placement_problem, ranking, reset_for_turn, roll_wins, step_problem,
    to_move,
)


#: Kinds still taken when the game is over: the ship cards can be corrected, the rule switch flipped.
AFTER_OVER = frozenset({"mark_location", "set_casualty", "set_bookkeeping"})

#: The rule modules' own refusals.
RULE_ERRORS = (NeedDice, PositionError, PocketError)


def apply(state: WarFleetState, action: Any) -> Applied[WarFleetState] | Refused:
    """Apply one action; the new state and its events, or a refusal with the reason (kernel.dispatch)."""
    return dispatch(HANDLERS, state, action, parse=parse_action, after_over=AFTER_OVER,
                    rule_errors=RULE_ERRORS)


# --- dice rolled by every side: placement and initiative -------------------------------


def _roll_off(work: Work[WarFleetState], faces: dict[str, list[int]] | None, what: str, words: str, tie: str,
              kept: str) -> tuple[list[str], list[InitiativeRoll]] | None:
    """`common.roll_off` of the game's initiative dice: the sides from the lowest roll to the highest."""
    if len(work.state.sides) < 2:
        raise Refusal(f"{what} needs two sides")
    rules = work.state.settings.table_rules
    return C.roll_off(work, faces, parse_pool(work.state.settings.initiative_dice),
                      lambda rolls: ranking(rolls, rules), lambda rolls: f"{words}: {_text(rolls)}", tie, kept)


def _text(rolls: list[InitiativeRoll]) -> str:
    return ", ".join(f"{r.side} {' + '.join(str(d.face) for d in r.dice)}" for r in rolls)


def _roll_placement(work: Work[WarFleetState], action: A.RollPlacement) -> None:
    work.phase("setup", doing="the placement roll is made")
    decided = _roll_off(work, action.faces, "the placement roll", "Placement roll", "placement_tie", "placement_rolls")
    if decided is not None:
        order, rolls = decided
        work.update(placement_rolls=rolls, placement_first=order[0], placement_order=order)
        wins = roll_wins(work.state.settings.table_rules)
        work.event("placement_roll", f"Placement roll: {_text(rolls)}. {order[-1]} wins{wins}; {order[0]} places first.",
                   first=order[0], rolls=C.dumped(rolls))


def _set_placement_first(work: Work[WarFleetState], action: A.SetPlacementFirst) -> None:
    C.check_side(work, action.side)
    order = [action.side] + [s for s in work.state.sides if s != action.side]
    work.update(placement_first=action.side, placement_order=order)
    work.event("placement_roll", f"{action.side} places first (set by hand).", first=action.side)


def _place(work: Work[WarFleetState], action: A.Place) -> None:
    state = work.state
    ship = work.ship(action.ship)
    if ship.removed:
        raise Refusal(f"{ship.name} has left play")
    cell = state.board.parse(action.hex)
    facing = parse_facing(action.facing)
    if state.phase == "setup":
        work.rule(placement_problem(state, ship))
        shared = [o.name for o in state.active_ships if o.id != ship.id and o.placed and o.hex == cell]
        if shared:
            work.rule(f"in set-up a ship must be alone in its hex ({state.board.label(cell)} holds {shared[0]})")
    elif state.phase == "movement":
        work.rule(may_move_now(state, ship), RefusalKind.TURN)
    else:
        work.rule(f"ships are placed in set-up, or moved in the movement phase (now: {state.phase})")
    work.state = state.with_ship(ship.at(cell, facing))
    work.event("place", f"{ship.name} placed at {state.board.label(cell)} facing {facing_name(facing)}.",
               ship=ship.id, hex=state.board.label(cell), facing=facing)
    if work.state.phase == "setup" and all(s.placed for s in work.state.active_ships):
        work.update(phase="initiative")
        work.event("phase", f"Every ship is placed. Turn {work.state.turn}: roll initiative.")


# --- initiative ---------------------------------------------------------------------


def _roll_initiative(work: Work[WarFleetState], action: A.RollInitiative) -> None:
    work.phase("initiative", doing="initiative is rolled")
    decided = _roll_off(work, action.faces, "initiative", "Initiative", "initiative_tie", "initiative_rolls")
    if decided is not None:
        order, rolls = decided
        wins = roll_wins(work.state.settings.table_rules)
        _won(work, order, rolls, f"Initiative: {_text(rolls)}. {order[-1]} wins the initiative{wins}.",
             {"rolls": C.dumped(rolls)})


def _won(work: Work[WarFleetState], order: list[str], rolls: list[InitiativeRoll], text: str,
         data: dict[str, Any]) -> None:
    work.update(initiative=order[-1], initiative_order=order, initiative_rolls=rolls, phase="movement")
    work.event("initiative", text, winner=order[-1], order=order, **data)
    _after_movement_change(work)


def _set_initiative(work: Work[WarFleetState], action: A.SetInitiative) -> None:
    C.check_side(work, action.side)
    work.phase("initiative", doing="initiative is decided")
    order = [s for s in work.state.sides if s != action.side] + [action.side]
    _won(work, order, [], f"{action.side} has the initiative (set by hand).", {})


# --- movement -------------------------------------------------------------------------


def _mover(work: Work[WarFleetState], ship_id: str) -> WarShip:
    ship: WarShip = work.ship(ship_id)
    if ship.removed:
        raise Refusal(f"{ship.name} has left play")
    if not ship.placed:
        raise Refusal(f"{ship.name} is not on the map")
    work.phase("movement", doing="ships move")
    if work.state.phase == "movement":
        work.rule(may_move_now(work.state, ship), RefusalKind.TURN)
    return ship


def _step(work: Work[WarFleetState], action: A.Step) -> None:
    ship = _mover(work, action.ship)
    work.rule(step_problem(ship))
    board = work.state.board
    spent = ship.mp_spent + 1
    if action.step == "forward":
        ahead = ship.hex.neighbour(ship.facing)
        if not board.contains(ahead):
            lost = ship.model_copy(update={"lost": True, "removed": True, "move_done": True, "mp_spent": spent})
            work.state = work.state.with_ship(lost)
            work.event("ship_lost", f"{ship.name} moves off the map and is lost for the rest of the game.",
                       ship=ship.id)
            _after_movement_change(work)
            return
        moved = ship.at(ahead, mp_spent=spent)
        what = "moves forward"
    else:
        moved = ship.at(ship.hex, ship.facing + (1 if action.step == "starboard" else -1), mp_spent=spent)
        what = f"turns to {action.step}"
    work.state = work.state.with_ship(moved)
    work.event("step", f"{ship.name} {what} to {moved.describe_position(board)} ({moved.mp_left} MP left).",
               ship=ship.id, step=action.step, hex=board.label(moved.hex), facing=moved.facing)


def _pivot(work: Work[WarFleetState], action: A.Pivot) -> None:
    ship = _mover(work, action.ship)
    work.rule(pivot_problem(ship))
    facing = parse_facing(action.facing)
    turned = ship.at(ship.hex, facing, mp_spent=max(ship.mp, ship.mp_spent), pivoted=True)
    work.state = work.state.with_ship(turned)
    work.event("pivot", f"{ship.name} spends all its MP to face {facing_name(facing)}.", ship=ship.id, facing=facing)


def _end_move(work: Work[WarFleetState], action: A.EndMove) -> None:
    ship = _mover(work, action.ship)
    work.state = work.state.with_ship(ship.model_copy(update={"move_done": True}))
    work.event("end_move", f"{ship.name} ends its move at {ship.describe_position(work.state.board)}.", ship=ship.id)
    _after_movement_change(work)


def _end_group(work: Work[WarFleetState], action: A.EndGroup) -> None:
    work.phase("movement", doing="ships move")
    group = to_move(work.state)
    if group is None:
        raise Refusal("movement is over for this turn", RefusalKind.PHASE)
    side, ship_class = group
    for ship in work.state.active_ships:
        if ship.placed and ship.side == side and ship.ship_class == ship_class and ship.pocket is None \
                and not ship.move_done:
            work.state = work.state.with_ship(ship.model_copy(update={"move_done": True}))
    work.event("end_group", f"{side}: class {ship_class} ships end their moves.", side=side, ship_class=ship_class)
    _after_movement_change(work)


def _end_movement(work: Work[WarFleetState], action: A.EndMovement) -> None:
    work.phase("movement", doing="movement ends")
    for ship in work.state.active_ships:
        if ship.placed and not ship.move_done:
            work.state = work.state.with_ship(ship.model_copy(update={"move_done": True}))
    work.event("end_movement", "Every ship that had not moved stays where it is.")
    _after_movement_change(work)


def _after_movement_change(work: Work[WarFleetState]) -> None:
    C.movement_over(work, to_move(work.state) is None, "Movement is over. Declare every attack, then roll.")


# --- combat ------------------------------------------------------------------------------


def _declare_attack(work: Work[WarFleetState], action: A.DeclareAttack) -> None:
    state = work.state
    attacker, target = work.ship(action.attacker), work.ship(action.target)
    for ship in (attacker, target):
        if ship.removed:
            raise Refusal(f"{ship.name} has left play")
    work.phase("combat", doing="attacks are declared")
    if state.firing:
        work.rule("every attack is declared before any roll (seed 000): the rolling has begun")
    option = attack_option(state, attacker, tuple(action.locations), target, declared_locations(state, attacker.id))
    if option.problem:
        geometric = option.range is not None and not option.strikes
        if not (geometric and state.settings.bookkeeping):
            raise Refusal(option.problem)
        work.rule(option.problem)
    choices = [s.location for s in option.strikes]
    where = C.choose_location(work, action.target_location, choices, list(target.locations), target.name,
                              "attack", loc_name)
    attack = Attack(
        id=max((a.id for a in state.attacks), default=0) + 1, attacker=attacker.id,
        locations=list(action.locations), target=target.id, target_location=where,
    )
    work.update(attacks=[*state.attacks, attack])
    guns = " and ".join(loc_name(loc) for loc in action.locations)
    kind = "bracket fire of the " if attack.bracket else "the "
    work.event("declare_attack",
               f"{attacker.name} declares {kind}{guns} {option.name} at the {loc_name(where)} of {target.name}.".replace("  ", " "),
               attack=attack.id)


def _cancel_attack(work: Work[WarFleetState], action: A.CancelAttack) -> None:
    C.cancel(work, "attacks", action.attack, "attack", "rolled")


def declared_pool(state: WarFleetState, attack: Attack) -> tuple[Pool, int, tuple[tuple[str, int], ...]]:
    """(dice of one roll, rolls, dial-ups) of a declared attack, as the target stands now.

    The attacker's guns are those it ended movement with; the target's rear
    dials up as the table rules say (`combat.rear_dials_up`).
    """
    attacker, target = state.ship(attack.attacker), state.ship(attack.target)
    range_ = war_fleet_range(attacker.hex, target.hex)
    bands: dict[str, str] = {}
    for loc in attack.locations:
        band = armed_attack(attacker, loc).band(range_)
        bands[loc] = band if band != "out" else "long"  # bookkeeping: rolled as the table says
    pool, rolls, _, steps = attack_pool(attacker, tuple(attack.locations), bands, target,
                                        state.settings.table_rules)
    return pool, rolls, steps


def _roll_attack(work: Work[WarFleetState], action: A.RollAttack) -> None:
    attack: Attack = C.declared(work, "attacks", action.attack, "attack", "rolled")
    work.phase("combat", doing="attacks are rolled")
    state = work.state
    attacker, target = state.ship(attack.attacker), state.ship(attack.target)
    if target.casualty:
        result = AttackResult(pool="", rolls=[], text=f"{target.name} is already a casualty: nothing to roll.")
        _record(work, attack, result, attacker)
        return
    pool, rolls, steps = declared_pool(state, attack)
    if action.table is not None:
        need = len(pool) * rolls
        if len(action.table.attack) != need:
            how = f"{rolls} rolls of {pool.expanded}" if rolls > 1 else pool.expanded
            raise Refusal(f"the attack is {how}: enter {need} face{'s' if need > 1 else ''}, in that order")
    result, hit = C.rolled(work, action.table, TABLE_NEEDS,
                           lambda dice: resolve_attack(pool, rolls, target, attack.target_location, dice))
    if steps:
        result = result.model_copy(update={
            "text": "Dialled up (" + ", ".join(f"{why} +{n}" for why, n in steps) + "). " + result.text})
    work.state = work.state.with_ship(hit)
    _record(work, attack, result, attacker)
    if result.location_destroyed:
        work.event("location_destroyed", f"{target.name}: {loc_name(attack.target_location)} destroyed.",
                   ship=target.id, location=attack.target_location)
    if result.casualty:
        work.event("casualty", f"{target.name} fails an SI test: a casualty, removed at the end of combat.",
                   ship=target.id)


def _record(work: Work[WarFleetState], attack: Attack, result: AttackResult, attacker: WarShip) -> None:
    done = attack.model_copy(update={"result": result})
    work.update(attacks=[done if a.id == attack.id else a for a in work.state.attacks], firing=True)
    work.event("attack", f"{attacker.name} {' and '.join(map(loc_name, attack.locations))}: {result.text}",
               attack=attack.id, result=result.model_dump(mode="json"))


# --- pockets: battles fought at Quick-Start scale ----------------------------------------


def _open_pocket(work: Work[WarFleetState], action: A.OpenPocket) -> None:
    state = work.state
    work.phase("combat", doing="a pocket battle is opened")
    if state.firing:
        work.rule("open pocket battles before the rolling begins: their ships take no part in the War Fleet combat")
    ships = pocket_ships(state, action.ships)  # each on the map, with its card
    for ship in ships:
        if ship.pocket is not None:
            raise Refusal(f"{ship.name} is already in pocket battle {ship.pocket}")
        if ship.casualty:
            raise Refusal(f"{ship.name} is a casualty")
        involved = [a.id for a in state.attacks if ship.id in (a.attacker, a.target)]
        if involved:
            raise Refusal(f"{ship.name} is in declared attack {involved[0]}: cancel it first")
    if len({s.side for s in ships}) < 2:
        work.rule("a pocket battle needs ships of at least two sides")
    pocket = Pocket(id=max((p.id for p in state.pockets), default=0) + 1, ships=[s.id for s in ships], turn=state.turn,
                    game=action.game)
    for ship in ships:
        work.state = work.state.with_ship(ship.model_copy(update={"pocket": pocket.id}))
    work.update(pockets=[*work.state.pockets, pocket])
    work.event("open_pocket", f"Pocket battle {pocket.id}: {', '.join(s.name for s in ships)} fight it out at "
               "Quick-Start scale.", pocket=pocket.id, ships=pocket.ships)


def _resolve_pocket(work: Work[WarFleetState], action: A.ResolvePocket) -> None:
    try:
        pocket = work.state.pocket(action.pocket)
    except KeyError:
        raise Refusal(f"there is no pocket battle {action.pocket}") from None
    if not pocket.open:
        raise Refusal(f"pocket battle {pocket.id} is already resolved")
    strangers = [s for s in action.ships if s not in pocket.ships]
    if strangers:
        raise Refusal(f"{strangers[0]} did not fight in pocket battle {pocket.id}")
    for ship_id, outcome in action.ships.items():
        ship = work.state.ship(ship_id)
        for location in outcome.destroyed_locations:
            if location not in ship.locations:
                raise Refusal(f"{ship.name} has no location '{location}'")
            if not ship.is_destroyed(location):
                ship = ship.with_location(location, "destroyed_this_combat")
                work.event("location_destroyed", f"{ship.name}: {loc_name(location)} destroyed in pocket battle "
                           f"{pocket.id}.", ship=ship.id, location=location)
        if outcome.casualty and not ship.casualty:
            ship = ship.model_copy(update={"casualty": True})
            work.event("casualty", f"{ship.name} was destroyed in pocket battle {pocket.id}: a casualty.", ship=ship.id)
        work.state = work.state.with_ship(ship)
    closed = pocket.model_copy(update={"open": False, "outcome": dict(action.ships)})
    work.update(pockets=[closed if p.id == pocket.id else p for p in work.state.pockets])
    work.event("resolve_pocket", f"Pocket battle {pocket.id} is over; its result is back in the War Fleet game.",
               pocket=pocket.id)


# --- end of combat, end of turn --------------------------------------------------------


def _end_combat(work: Work[WarFleetState], action: A.EndCombat | A.EndTurn) -> None:
    """Damage takes full effect, casualties leave the map (also when the turn is ended in combat)."""
    work.phase("combat", doing="combat ends")
    state = work.state
    pending = [a.id for a in state.attacks if a.result is None]
    if pending:
        work.rule(f"attack{'s' if len(pending) > 1 else ''} {', '.join(map(str, pending))} declared but not rolled: "
                  "roll or cancel")
    open_pockets = [p.id for p in state.pockets if p.open]
    if open_pockets:
        work.rule(f"pocket battle {open_pockets[0]} is still being fought: bring its result back first")
    ships = []
    for ship in state.ships:
        ship = ship.model_copy(update={"destroyed": {loc: "destroyed" for loc in ship.destroyed}})
        if ship.casualty and not ship.removed:
            ship = ship.model_copy(update={"removed": True})
            work.event("ship_destroyed", f"{ship.name} is a casualty and leaves the map.", ship=ship.id)
        ships.append(ship)
    work.update(ships=ships, phase="end")
    work.event("phase", "Combat is over: damage takes full effect and casualties are removed.")


def _end_turn(work: Work[WarFleetState], action: A.EndTurn) -> None:
    if work.state.phase == "combat":
        _end_combat(work, action)
    work.phase("end", doing="the turn ends")
    state = work.state
    ships = [reset_for_turn(s) for s in state.ships]
    work.update(ships=ships, attacks=[], firing=False, initiative=None, initiative_order=[], initiative_rolls=[])
    work.event("end_turn", f"End of turn {state.turn}.")
    C.next_turn(work, state.turn, game_end(work.state))


# --- by hand -------------------------------------------------------------------------------


def _mark_location(work: Work[WarFleetState], action: A.MarkLocation) -> None:
    ship = work.ship(action.ship)
    if action.location not in ship.locations:
        raise Refusal(f"{ship.name} has no location '{action.location}'")
    status = None if action.status == "live" else action.status
    work.state = work.state.with_ship(ship.with_location(action.location, status))
    words = {"live": "repaired", "destroyed": "destroyed", "destroyed_this_combat": "destroyed this combat"}
    work.event("mark_location", f"{ship.name}: {loc_name(action.location)} marked {words[action.status]} by hand.",
               ship=ship.id, location=action.location, status=action.status)


def _set_stats(work: Work[WarFleetState], action: A.SetStats) -> None:
    ship = work.ship(action.ship)
    if set(action.stats.locations) != set(ship.locations):
        raise Refusal(f"{ship.name} has the locations {', '.join(ship.locations)}")
    work.state = work.state.with_ship(ship.model_copy(update={"stats": action.stats}))
    work.event("set_stats", f"{ship.name}: War Fleet stats edited by hand.", ship=ship.id)


def _set_casualty(work: Work[WarFleetState], action: A.SetCasualty) -> None:
    ship = work.ship(action.ship)
    work.state = work.state.with_ship(ship.model_copy(update={"casualty": action.casualty}))
    work.event("set_casualty", f"{ship.name}: {'a casualty' if action.casualty else 'not a casualty'} (by hand).",
               ship=ship.id)


#: The rules of War Fleet: action kind -> handler(work, action).
HANDLERS: dict[str, Callable[[Work[WarFleetState], Any], None]] = {
    "roll_placement": _roll_placement,
    "set_placement_first": _set_placement_first,
    "place": _place,
    "roll_initiative": _roll_initiative,
    "set_initiative": _set_initiative,
    "step": _step,
    "pivot": _pivot,
    "end_move": _end_move,
    "end_group": _end_group,
    "end_movement": _end_movement,
    "declare_attack": _declare_attack,
    "cancel_attack": _cancel_attack,
    "roll_attack": _roll_attack,
    "open_pocket": _open_pocket,
    "resolve_pocket": _resolve_pocket,
    "end_combat": _end_combat,
    "end_turn": _end_turn,
    "mark_location": _mark_location,
    "set_stats": _set_stats,
    "set_casualty": _set_casualty,
    "concede": C.concede,
    "set_bookkeeping": C.set_bookkeeping,
    "move_along": C.move_along({"step": _step, "pivot": _pivot}, RULE_ERRORS, ship_name=lambda ship: str(ship.name)),
}

parse_action = C.action_parser(A.WarFleetActionEnvelope, HANDLERS, "not a War Fleet action")
