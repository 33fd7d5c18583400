"""Decisive Victory: the maintenance phase's actions and handlers (spec §11, §16).

"In the maintenance phase the effects of damage done during the turn is applied.
... 1.0 Test for Catastrophic Damage / 2.0 Apply Minor Damage / 3.0 Damage Control
/ 4.0 Abandon Ship" (`003:128-133`).  Per ship, in order: Struct disabled +2
[R-49], the system rolls its boxes called for (system_rolls.py), the catastrophic
test (`003:137`), the minor damage grid rolls (`003:141`), trading damage points
(`003:145-146`), and the abandon-ship payment at the end of any step (`003:150`,
once a phase [R-52]).  Smoke drifts once a maintenance phase (`003:158`).
`maintenance_left(state)` says in words what must still be rolled or decided.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..cards import StrictModel
from ..common import _Action
from ..dice import Colour
from ..kernel import Handler, Refusal, Work
from ..roller import DiceSource
from . import system_rolls
from .attack_roll import with_dice
from .command import effective_status, pay
from .damage import ROLL_WORDS, Events, die, grid_roll
from .state import DVShip, DVState

Step = Literal["struct", "catastrophic", "minor", "flight_deck", "torpedoes", "rudder"]
#: The steps in their order; doing one passes every earlier one (§11).
ORDER = ("struct", "catastrophic", "minor", "trade")
ABANDON_COST = 2  # "spend 2 command points from the ship or the fleet flagship" (003:150)


class MaintenanceFaces(StrictModel):
    """Dice rolled at the table: `dice` the d6s of the step in order, `grid` one [1st, 2nd] pair per
    grid roll in order, `side` the rudder's side die, `drift` the smoke's die."""

    dice: list[int] = Field(default=[], max_length=99)
    grid: list[list[int]] = Field(default=[], max_length=99)
    side: list[int] = Field(default=[], max_length=1)


class MaintenanceRoll(_Action):
    kind: Literal["maintenance_roll"] = "maintenance_roll"
    ship: str
    step: Step
    table: MaintenanceFaces | None = None


class TradeDamage(_Action):
    """Damage control (§11.3): `blocks` of 3 damage points traded, one grid roll each."""

    kind: Literal["trade_damage"] = "trade_damage"
    ship: str
    blocks: int = Field(ge=1, le=99)
    table: MaintenanceFaces | None = None


class PayAbandon(_Action):
    kind: Literal["pay_abandon"] = "pay_abandon"
    ship: str
    payer: str | None = None


class Abandon(_Action):
    kind: Literal["abandon"] = "abandon"
    ship: str


class DriftFaces(StrictModel):
    drift: list[int] = Field(default=[], max_length=1)


class DriftSmoke(_Action):
    kind: Literal["drift_smoke"] = "drift_smoke"
    smoke: str
    table: DriftFaces | None = None


# --- what is due (§11) ------------------------------------------------------------------------


def struct_due(state: DVState, ship: DVShip) -> bool:
    """All the structure boxes marked: +2 damage points each maintenance phase [R-49] (`003:124`)."""
    return effective_status(state, ship, "Struct") == "disabled" and "struct" not in ship.maintenance_done


def catastrophic_due(ship: DVShip) -> bool:
    return ship.damage_points >= ship.record.critical_damage_threshold and "catastrophic" not in ship.maintenance_done


def abandon_due(ship: DVShip) -> bool:
    return ship.damage_points >= 2 * ship.record.critical_damage_threshold and not ship.abandon_paid


def minor_due(ship: DVShip) -> bool:
    return ship.minor_damage > 0 and "minor" not in ship.maintenance_done


def next_due(state: DVState, ship: DVShip) -> tuple[str, str] | None:
    """The first thing the ship's maintenance still needs (step, words), or None."""
    cdt = ship.record.critical_damage_threshold
    if state.phase == "maintenance" and struct_due(state, ship):
        return "struct", "+2 damage points for its disabled structure"
    if ship.system_rolls_due:
        return ship.system_rolls_due[0], ROLL_WORDS[ship.system_rolls_due[0]]
    if state.phase != "maintenance":
        return None
    if catastrophic_due(ship):
        return "catastrophic", f"the catastrophic damage test ({ship.damage_points} damage points, CDT {cdt})"
    if abandon_due(ship):
        return "abandon", f"pay {ABANDON_COST} CP or abandon ship ({ship.damage_points} damage points, 2 × CDT {2 * cdt})"
    if minor_due(ship):
        rolls = ship.minor_damage // 3
        return "minor", f"{rolls} minor damage grid roll{'s' * (rolls != 1)} ({ship.minor_damage} minor damage)"
    return None


def maintenance_left(state: DVState) -> str | None:
    """What must still be rolled or decided before the turn ends, in words; None when nothing."""
    left = [f"{ship.label}: {due[1]}" for ship in state.ships if ship.in_play
            for due in [next_due(state, ship)] if due]
    left += [f"smoke {s.id}: its drift roll" for s in state.smoke
             if state.phase == "maintenance" and s.drifted_turn != state.turn]
    return "; ".join(left) or None


def _step_problem(state: DVState, ship: DVShip, step: str) -> str | None:
    """Why `step` may not be done now: not due, or something before it is still due."""
    due = next_due(state, ship)
    if step in system_rolls.ROLLS:
        return None if step in ship.system_rolls_due else f"{ship.label} has no {step.replace('_', ' ')} roll to make"
    if state.phase != "maintenance":
        return f"{step} is a maintenance step (now: {state.phase})"
    if step != "trade" and ORDER.index(step) < max((ORDER.index(s) for s in ship.maintenance_done), default=-1):
        return f"{ship.label}'s maintenance is past that step"
    if step in ship.maintenance_done:
        return f"{ship.label} has done that step this phase"
    if due is not None and due[0] != step:
        return f"{ship.label} first needs {due[1]}"
    if step == "struct" and not struct_due(state, ship):
        return f"{ship.label}'s structure is not disabled"
    if step == "catastrophic" and not catastrophic_due(ship):
        return f"{ship.label} has {ship.damage_points} damage points, under its CDT {ship.record.critical_damage_threshold}: no test"
    if step == "minor" and not minor_due(ship):
        return f"{ship.label} has no minor damage"
    return None


def _done(ship: DVShip, step: str) -> DVShip:
    if step not in ORDER:
        return ship
    passed = set(ORDER[:ORDER.index(step) + 1])
    return ship.model_copy(update={"maintenance_done": ship.maintenance_done | passed})


# --- the steps ------------------------------------------------------------------------------


def _struct(state: DVState, ship: DVShip, dice: DiceSource) -> tuple[DVState, Events]:
    ship = ship.model_copy(update={"damage_points": ship.damage_points + 2})
    return state.with_ship(ship), [("struct", f"{ship.label}: structure disabled: +2 damage points "
                                    f"({ship.damage_points}).", {"ship": ship.id, "damage_points": 2})]


def _catastrophic(state: DVState, ship: DVShip, dice: DiceSource) -> tuple[DVState, Events]:
    """Roll 1d6 a damage point; sunk if the 4+ reach the CDT (`003:137`, [R-50])."""
    rolled = [dice.take(Colour.D6, f"dice{i}") for i in range(1, ship.damage_points + 1)]
    count, cdt = sum(r.face >= 4 for r in rolled), ship.record.critical_damage_threshold
    sunk = count >= cdt
    if sunk:
        ship = ship.model_copy(update={"removed": "sunk"})
    text = (f"{ship.label}: catastrophic damage test, {len(rolled)} dice {', '.join(str(r.face) for r in rolled)}: "
            f"{count} at 4+ against CDT {cdt}: " + ("it explodes or sinks." if sunk else "it holds."))
    return state.with_ship(ship), [("catastrophic", text, {"ship": ship.id, "dice": [die(r) for r in rolled],
                                                           "count": count, "sunk": sunk})]


def _minor(state: DVState, ship: DVShip, dice: DiceSource) -> tuple[DVState, Events]:
    """One grid roll for every three minor damage; then it is all removed (`003:141`)."""
    rolls, events = ship.minor_damage // 3, []
    ship = ship.model_copy(update={"minor_damage": 0})
    for k in range(1, rolls + 1):
        ship, more = grid_roll(state, ship, dice, f"grid{k}", f"minor damage roll {k} of {rolls}")
        events.extend(more)
    events.append(("minor", f"{ship.label}: {rolls} minor damage roll{'s' * (rolls != 1)}; minor damage cleared.",
                   {"ship": ship.id, "rolls": rolls}))
    return state.with_ship(ship), events


STEPS = {"struct": _struct, "catastrophic": _catastrophic, "minor": _minor}


def _faces(table: MaintenanceFaces | None, needs: dict[str, str], grids: int) -> tuple[dict[str, list[int]], dict[str, str]] | None:
    if table is None:
        return None
    faces: dict[str, list[int]] = {k: table.dice[i - 1:i] for i, k in enumerate(
        [k for k in needs if k.startswith("dice")], start=1)}
    faces["side"] = list(table.side)
    needs.setdefault("side", "the rudder's side die")
    for k in range(1, max(grids, len(table.grid)) + 1):
        pair = table.grid[k - 1] if len(table.grid) >= k else []
        for i, role in enumerate(("first", "second")):
            faces[f"grid{k}.{role}"] = list(pair[i:i + 1])
            needs[f"grid{k}.{role}"] = f"grid roll {k}'s {'1st' if role == 'first' else '2nd'} die"
    extra = len(table.dice) - len([k for k in needs if k.startswith("dice")])
    if extra > 0:
        raise Refusal(f"{extra} more d6 entered than this roll uses")
    return faces, needs


def _roll(work: Work[DVState], action: MaintenanceRoll) -> None:
    ship: DVShip = work.ship(action.ship)
    if not ship.in_play:
        raise Refusal(f"{ship.label} is no longer in play")
    work.rule(_step_problem(work.state, ship, action.step))
    if action.step in system_rolls.ROLLS:
        ship = ship.model_copy(update={"system_rolls_due": [r for r in ship.system_rolls_due if r != action.step]})
        work.state = work.state.with_ship(ship)
        needs = system_rolls.needs(work.state, ship, action.step)
        resolve = system_rolls.ROLLS[action.step]
    else:
        count = ship.damage_points if action.step == "catastrophic" else 0
        needs = {f"dice{i}": f"catastrophic damage die {i} of {count}" for i in range(1, count + 1)}
        resolve = STEPS[action.step]
    faces = _faces(action.table, needs, 99)
    state, events = with_dice(work, faces, lambda dice: resolve(work.state, ship, dice))
    work.update(ships=[_done(s, action.step) if s.id == ship.id else s for s in state.ships], flights=state.flights)
    _tell(work, events)


def _tell(work: Work[DVState], events: Events) -> None:
    for kind, text, data in events:
        work.event(kind, text, **data)
    ship_id = next((d.get("ship") for _, _, d in events if d.get("ship")), None)
    if ship_id is not None:
        due = next_due(work.state, work.state.ship(str(ship_id)))
        if due and work.state.ship(str(ship_id)).in_play:
            work.event("maintenance_due", f"{work.state.ship(str(ship_id)).label} next: {due[1]}.",
                       ship=ship_id, step=due[0])


def _trade(work: Work[DVState], action: TradeDamage) -> None:
    """§11.3: each block of 3 points one grid roll; a box marked removes the 3; the bottom reached
    keeps them, +1, and the trading stops [R-51]; none once every box is marked (`003:145-146`)."""
    ship: DVShip = work.ship(action.ship)
    work.rule(_step_problem(work.state, ship, "trade"))
    if 3 * action.blocks > ship.damage_points:
        work.rule(f"{ship.label} has {ship.damage_points} damage points: {action.blocks} blocks need {3 * action.blocks}")
    grid = work.state.grid_of(ship)

    def trade(dice: DiceSource) -> tuple[DVState, Events]:
        state, now = work.state, ship
        events: Events = []
        for k in range(1, action.blocks + 1):
            if len(now.boxes) >= len(grid.all_boxes):
                events.append(("trade_damage", f"{now.label}: every box is marked: no more trading.", {"ship": now.id}))
                break
            now, more = grid_roll(state, now, dice, f"grid{k}", f"damage control block {k}")
            events.extend(more)
            failed = any(d.get("marked", 0) is None for kind, _, d in more if kind == "box_marked")
            if failed:
                events.append(("trade_damage", f"{now.label}: block {k} found no box: the 3 points stay and "
                               "trading stops.", {"ship": now.id, "block": k, "traded": False}))
                break
            now = now.model_copy(update={"damage_points": max(0, now.damage_points - 3)})
            events.append(("trade_damage", f"{now.label}: block {k} traded: 3 damage points removed "
                           f"({now.damage_points}).", {"ship": now.id, "block": k, "traded": True}))
        return state.with_ship(now), events

    faces = _faces(action.table, {}, action.blocks)
    state, events = with_dice(work, faces, trade)
    work.update(ships=[_done(s, "trade") if s.id == ship.id else s for s in state.ships])
    _tell(work, events)


def _pay_abandon(work: Work[DVState], action: PayAbandon) -> None:
    work.phase("maintenance", doing="the crew is kept aboard")
    ship: DVShip = work.ship(action.ship)
    if not abandon_due(ship):
        work.rule(f"{ship.label} need not pay: {ship.damage_points} damage points, under 2 × CDT "
                  f"{2 * ship.record.critical_damage_threshold}, or already paid this phase")
    pay(work, ship, action.payer, ABANDON_COST, "keeping the crew aboard")
    ship = work.state.ship(ship.id).model_copy(update={"abandon_paid": True})
    work.state = work.state.with_ship(ship)
    work.event("pay_abandon", f"{ship.label}'s crew stays aboard ({ABANDON_COST} CP paid"
               f"{' by ' + work.state.ship(action.payer).label if action.payer and action.payer != ship.id else ''}).",
               ship=ship.id, payer=action.payer or ship.id)


def _abandon(work: Work[DVState], action: Abandon) -> None:
    work.phase("maintenance", doing="a ship is abandoned")
    ship: DVShip = work.ship(action.ship)
    if not ship.in_play:
        raise Refusal(f"{ship.label} is no longer in play")
    if not abandon_due(ship):
        work.rule(f"{ship.label} has {ship.damage_points} damage points, under 2 × CDT: its crew need not abandon")
    ship = ship.model_copy(update={"removed": "abandoned"})
    work.state = work.state.with_ship(ship)
    work.event("abandon", f"{ship.label}'s crew abandons ship: it is removed from the game.", ship=ship.id)


def _drift(work: Work[DVState], action: DriftSmoke) -> None:
    """Each maintenance phase 1d6: 5-6 the template is removed, else it drifts that many inches downwind (`003:158`)."""
    work.phase("maintenance", doing="smoke drifts")
    smoke = next((s for s in work.state.smoke if s.id == action.smoke), None)
    if smoke is None:
        raise Refusal(f"there is no smoke template '{action.smoke}'")
    if smoke.drifted_turn == work.state.turn:
        work.rule(f"smoke {smoke.id} has drifted this turn")
    faces = None if action.table is None else ({"drift": list(action.table.drift)}, {"drift": "the smoke's drift die"})
    roll = with_dice(work, faces, lambda dice: dice.take(Colour.D6, "drift"))
    if roll.face >= 5:
        work.update(smoke=[s for s in work.state.smoke if s.id != smoke.id])
        work.event("drift_smoke", f"Smoke {smoke.id}: {roll.face}: removed.", smoke=smoke.id, dice=[die(roll)],
                   removed=True)
        return
    moved = smoke.model_copy(update={"drifted": smoke.drifted + roll.face, "drifted_turn": work.state.turn})
    work.update(smoke=[moved if s.id == smoke.id else s for s in work.state.smoke])
    work.event("drift_smoke", f"Smoke {smoke.id}: {roll.face}: move it {roll.face}\" with the wind.", smoke=smoke.id,
               dice=[die(roll)], removed=False, inches=roll.face)


ACTIONS: tuple[type[_Action], ...] = (MaintenanceRoll, TradeDamage, PayAbandon, Abandon, DriftSmoke)
HANDLERS: dict[str, Handler] = {"maintenance_roll": _roll, "trade_damage": _trade, "pay_abandon": _pay_abandon,
                                "abandon": _abandon, "drift_smoke": _drift}
