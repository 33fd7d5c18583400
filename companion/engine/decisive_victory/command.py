"""Decisive Victory: the command phase (spec §5): command points, abilities, end of the phase.

On entry to the phase every ship in play gets its commander's score in
command points (`003:28`), one less with a damaged command system, none with
a disabled one [R-8] (`003:110`).  An ability is declared now and paid from
the ship's own points or its side's flagship's (`003:154`, [R-10]).
"""

from __future__ import annotations

from typing import Final, Literal

from ..common import _Action
from ..kernel import Handler, Refusal, Work
from .grid import SYSTEMS, SystemStatus
from .state import DVShip, DVState, Smoke

Ability = Literal["make_smoke", "evasive", "scuttle", "close_action", "concentrate_fire", "damage_control"]
ControlMode = Literal["ignore_damaged", "disabled_as_damaged"]

#: Each ability's cost in command points (§5.3, `003:158-163`).
COST: Final[dict[str, int]] = {"make_smoke": 1, "evasive": 1, "scuttle": 2, "close_action": 1,
                               "concentrate_fire": 2, "damage_control": 1}
NAME: Final[dict[str, str]] = {"make_smoke": "Make Smoke", "evasive": "Evasive Maneuvers", "scuttle": "Scuttle",
                               "close_action": "Close Action", "concentrate_fire": "Concentrate Fire",
                               "damage_control": "Damage Control"}


def effective_status(state: DVState, ship: DVShip, system: str) -> SystemStatus:
    """A system's status as its effects apply this turn: the Damage Control ability ignores a damaged
    system or treats a disabled one as damaged (§5.3, `003:163`)."""
    status = state.status(ship, system)
    control = ship.damage_control.get(system)
    if control == "ignore_damaged" and status == "damaged":
        return "working"
    if control == "disabled_as_damaged" and status == "disabled":
        return "damaged"
    return status


def generated_points(state: DVState, ship: DVShip) -> int:
    """Command points a ship generates this turn: its commander's score, −1 with a damaged command
    system (not below 0) [R-8], 0 with a disabled one (`003:28`, `003:110`)."""
    status = state.status(ship, "Com")
    if status == "disabled":
        return 0
    return max(0, ship.command_score - (1 if status == "damaged" else 0))


def begin_command(work: Work[DVState]) -> None:
    """Enter the command phase: every ship in play gets its command points (§5.1)."""
    ships = [s.model_copy(update={"cp": generated_points(work.state, s)}) if s.in_play else s
             for s in work.state.ships]
    work.update(phase="command", ships=ships)
    work.event("phase", f"Turn {work.state.turn}: command phase.", phase="command")
    for ship in ships:
        if ship.in_play:
            work.event("command_points", f"{ship.label} has {ship.cp} command point{'s' * (ship.cp != 1)}.",
                       ship=ship.id, cp=ship.cp)


def payer_problem(state: DVState, ship: DVShip, payer: DVShip, cost: int, what: str) -> str | None:
    """Why `payer` may not pay `cost` points for `ship`'s `what`, in words; None when it may (`003:154`, `003:110`)."""
    if payer.id != ship.id:
        if payer.side != ship.side or not payer.flagship:
            return f"{payer.label} may not pay for {ship.label}: only the ship itself or its side's flagship may"
        if state.status(ship, "Com") == "disabled":
            return (f"{ship.label}'s command system is disabled: its flagship cannot pay for it "
                    f"({ship.label} has {ship.cp} CP, {what} costs {cost})")
    if not payer.in_play:
        return f"{payer.label} is no longer in play"
    if payer.cp < cost:
        return f"{payer.label} has {payer.cp} CP: {what} costs {cost}"
    return None


def pay(work: Work[DVState], ship: DVShip, payer_id: str | None, cost: int, what: str) -> DVShip:
    """Take `cost` points from the payer (the ship itself when None); the payer after paying."""
    payer: DVShip = work.ship(payer_id) if payer_id else ship
    work.rule(payer_problem(work.state, ship, payer, cost, what))
    paid = payer.model_copy(update={"cp": max(0, payer.cp - cost)})
    work.state = work.state.with_ship(paid)
    return paid


class UseAbility(_Action):
    """Declare an ability and pay for it (§5.2-5.3)."""

    kind: Literal["use_ability"] = "use_ability"
    ship: str
    ability: Ability
    payer: str | None = None
    system: str | None = None
    mode: ControlMode | None = None


class EndCommand(_Action):
    kind: Literal["end_command"] = "end_command"


def _use_ability(work: Work[DVState], action: UseAbility) -> None:
    work.phase("command", doing="abilities are declared")
    ship: DVShip = work.ship(action.ship)
    if not ship.in_play:
        raise Refusal(f"{ship.label} is no longer in play")
    name, cost = NAME[action.ability], COST[action.ability]
    if action.ability == "close_action":
        raise Refusal("Close Action is paid during movement, when a ship comes within 1\" of another (003:161)")
    if action.ability != "damage_control" and action.ability in ship.abilities:
        work.rule(f"{ship.label} has already declared {name} this turn")
    control = _control(work, ship, action) if action.ability == "damage_control" else None
    pay(work, ship, action.payer, cost, name)
    ship = work.state.ship(ship.id)
    ship = ship.model_copy(update={"abilities": [*ship.abilities, action.ability]})
    ship = _effect(work, ship, action, control)
    work.state = work.state.with_ship(ship)
    payer = f" (paid by {work.state.ship(action.payer).label})" if action.payer and action.payer != ship.id else ""
    work.event("ability", f"{ship.label}: {name}{payer}.", ship=ship.id, ability=action.ability,
               payer=action.payer or ship.id, cost=cost, system=action.system, mode=control)


def _control(work: Work[DVState], ship: DVShip, action: UseAbility) -> ControlMode:
    """The Damage Control ability's system and mode: one use a system a turn (`003:163`)."""
    if action.system not in SYSTEMS:
        raise Refusal(f"Damage Control names one system: {', '.join(SYSTEMS)}")
    system = action.system
    if system in ship.damage_control:
        work.rule(f"Damage Control is already used on {ship.label}'s {system} this turn: two points cannot "
                  "ignore a disabled system")
    status = work.state.status(ship, system)
    mode = action.mode or ("disabled_as_damaged" if status == "disabled" else "ignore_damaged")
    if mode == "ignore_damaged" and status == "disabled":
        work.rule(f"{ship.label}'s {system} is disabled: Damage Control can only treat it as damaged")
    if status == "working":
        work.rule(f"{ship.label}'s {system} is working: Damage Control has nothing to do")
    return mode


def _effect(work: Work[DVState], ship: DVShip, action: UseAbility, control: ControlMode | None) -> DVShip:
    if action.ability == "make_smoke":
        smoke = Smoke(id=f"smoke-{work.state.turn}-{ship.id}", ship=ship.id, turn=work.state.turn)
        work.update(smoke=[*work.state.smoke, smoke])
        return ship.model_copy(update={"making_smoke": True})
    if action.ability == "scuttle":
        cdt = ship.record.critical_damage_threshold
        points = ship.damage_points + cdt
        work.event("damage", f"{ship.label} is scuttled: {cdt} damage points ({points} in all).",
                   ship=ship.id, points=cdt, total=points)
        return ship.model_copy(update={"damage_points": points})
    if action.ability == "damage_control" and action.system and control:
        return ship.model_copy(update={"damage_control": {**ship.damage_control, action.system: control}})
    return ship


def _end_command(work: Work[DVState], action: EndCommand) -> None:
    work.phase("command", doing="the command phase ends")
    work.update(phase="initiative")
    work.event("phase", f"Turn {work.state.turn}: roll initiative.", phase="initiative")


ACTIONS: tuple[type[_Action], ...] = (UseAbility, EndCommand)
HANDLERS: dict[str, Handler] = {"use_ability": _use_ability, "end_command": _end_command}
