"""What a ship may do in its activation before it fires (spec §8.5, §8.7, §8.8): gunnery radar,
searchlights, star shells and the ships they light.

A searchlight is noted in the ship's `systems_fired` as "searchlight" (one target a turn,
`003:85`); a star shell uses its battery's attack for the turn (`003:87`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..cards import StrictModel
from ..common import _Action
from ..dice import Colour
from ..kernel import Handler, Refusal, Work
from ..roller import DiceSource
from .activation import begin
from .attack_facts import radar_roll_modifier
from .attack_roll import with_dice
from .command import effective_status
from .damage import die, pair, pair_json
from .inches import Inches
from .records import Weapon
from .state import DVShip, DVState, StarShell
from .table1 import clamp

SEARCHLIGHT = "searchlight"
SEARCHLIGHT_RANGE = 6  # "They have a range of 6 inches" (003:85)
DIRECTIONS = ("north", "north-east by east", "south-east by east", "south", "south-west by west",
              "north-west by west")  # 1d6 × 60°, 1 = table north, clockwise


class Searchlight(_Action):
    """Light one enemy ship within 6" (§8.7): it and the lighting ship lose the night modifier."""

    kind: Literal["searchlight"] = "searchlight"
    ship: str
    target: str
    distance: Inches


class ShellFaces(StrictModel):
    scatter: list[int] = Field(default=[], max_length=3)
    direction: list[int] = Field(default=[], max_length=1)


class StarShellAction(_Action):
    """Fire a star shell from a gun battery instead of its attack (§8.8): 3d6" scatter and a direction."""

    kind: Literal["star_shell"] = "star_shell"
    ship: str
    system: str
    table: ShellFaces | None = None


class Illuminate(_Action):
    """The ships the players found within 1" of the last star shell's marker (§8.8)."""

    kind: Literal["illuminate"] = "illuminate"
    ships: list[str]


class RadarFaces(StrictModel):
    radar: list[int] = Field(default=[], max_length=2)


class RadarRoll(_Action):
    """A battery's gunnery radar roll on its first target (§8.5)."""

    kind: Literal["radar_roll"] = "radar_roll"
    ship: str
    system: str
    target: str
    table: RadarFaces | None = None
    distance: Inches | None = None


# --- searchlight (§8.7) ------------------------------------------------------------------------


def searchlight_free(state: DVState, ship: DVShip) -> bool:
    return state.conditions.night and SEARCHLIGHT not in ship.systems_fired


def _searchlight(work: Work[DVState], action: Searchlight) -> None:
    ship: DVShip = work.ship(action.ship)
    target: DVShip = work.ship(action.target)
    begin(work, ship, "a searchlight is used")
    if not work.state.conditions.night:
        work.rule("searchlights only cancel the night modifier: it is daylight (003:85)")
    if SEARCHLIGHT in ship.systems_fired:
        work.rule(f"{ship.label} has already used its searchlight this turn (a single enemy ship, 003:85)")
    if target.side == ship.side or not target.in_play:
        work.rule(f"{target.label} is not an enemy ship in play")
    if action.distance > SEARCHLIGHT_RANGE:
        work.rule(f"{target.label} is {action.distance}\" away: searchlights reach 6\" (003:85)")
    ship = ship.model_copy(update={"systems_fired": ship.systems_fired | {SEARCHLIGHT}, "illuminated": True})
    work.state = work.state.with_ship(ship).with_ship(target.model_copy(update={"illuminated": True}))
    work.event("searchlight", f"{ship.label} lights {target.label}: attacks on either have no night modifier "
               "from now on this phase [R-30].", ship=ship.id, target=target.id)


# --- star shells (§8.8) ------------------------------------------------------------------------


def star_shell_problem(state: DVState, ship: DVShip, weapon: Weapon) -> str | None:
    if not state.conditions.night:
        return "star shells are fired in night time engagements (003:87)"
    if weapon.kind != "gun":
        return "star shells are fired from gun batteries (003:87)"
    if effective_status(state, ship, "Guns") == "disabled":
        return f"{ship.label}'s gun system is disabled"
    if weapon.id in ship.systems_fired:
        return f"the {weapon.name or weapon.id} has already fired this turn"
    return None


def _star_shell(work: Work[DVState], action: StarShellAction) -> None:
    ship: DVShip = work.ship(action.ship)
    weapon = weapon_named(ship, action.system)
    begin(work, ship, "a star shell is fired")
    work.rule(star_shell_problem(work.state, ship, weapon))
    faces = None
    if action.table is not None:
        faces = ({**{f"scatter{i}": action.table.scatter[i - 1:i] for i in (1, 2, 3)},
                  "direction": list(action.table.direction)},
                 {**{f"scatter{i}": f"the star shell's scatter die {i} of 3" for i in (1, 2, 3)},
                  "direction": "the star shell's direction die"})

    def roll(dice: DiceSource) -> StarShell:
        scatter = [dice.take(Colour.D6, f"scatter{i}") for i in (1, 2, 3)]
        return StarShell(ship=ship.id, system=weapon.id, scatter=scatter, direction=dice.take(Colour.D6, "direction"))

    shell = with_dice(work, faces, roll)
    work.state = work.state.with_ship(ship.model_copy(update={"systems_fired": ship.systems_fired | {weapon.id}}))
    work.update(star_shells=[*work.state.star_shells, shell])
    inches = sum(d.face for d in shell.scatter)
    heading = DIRECTIONS[shell.direction.face - 1] if shell.direction else ""
    work.event("star_shell", f"{ship.label}'s {weapon.name or weapon.id} fires a star shell: it scatters {inches}\" "
               f"towards {heading} ({(shell.direction.face - 1) * 60 if shell.direction else 0}° from table north). "
               "Enter the ships within 1\" of it.", ship=ship.id, system=weapon.id, inches=inches,
               dice=[die(d) for d in shell.scatter], direction=die(shell.direction) if shell.direction else None)


def _illuminate(work: Work[DVState], action: Illuminate) -> None:
    work.phase("attacks", doing="ships are lit by a star shell")
    if not work.state.star_shells:
        raise Refusal("no star shell has been fired this turn")
    ships: list[DVShip] = [work.ship(s) for s in action.ships]
    shell = work.state.star_shells[-1]
    shells = [*work.state.star_shells[:-1], shell.model_copy(update={"lit": sorted({*shell.lit, *action.ships})})]
    work.update(star_shells=shells)
    for lit in ships:
        work.state = work.state.with_ship(lit.model_copy(update={"illuminated": True}))
    names = ", ".join(s.label for s in ships) or "no ship"
    work.event("illuminate", f"Lit by the star shell: {names}.", ships=[s.id for s in ships])


# --- gunnery radar (§8.5) ---------------------------------------------------------------------


def radar_problem(state: DVState, ship: DVShip, weapon: Weapon) -> str | None:
    name = weapon.name or weapon.id
    if weapon.kind != "gun" or weapon.radar is None:
        return f"the {name} has no gunnery radar (003:81; not for torpedoes, 003:93)"
    if weapon.id in ship.radar:
        return f"the {name} has already rolled for radar this turn [R-28]"
    if any(a.ship == ship.id and a.system == weapon.id and a.rolled for a in state.attacks):
        return f"the {name} has already fired: radar is rolled before the battery fires (003:81)"
    if effective_status(state, ship, "Guns") == "disabled":
        return f"{ship.label}'s gun system is disabled"
    return None


def _radar(work: Work[DVState], action: RadarRoll) -> None:
    ship: DVShip = work.ship(action.ship)
    target: DVShip = work.ship(action.target)
    weapon = weapon_named(ship, action.system)
    begin(work, ship, "a radar roll is made")
    work.rule(radar_problem(work.state, ship, weapon))
    aimed = next((a for a in work.state.attacks if a.ship == ship.id and a.system == weapon.id), None)
    if aimed is not None and aimed.target != target.id:
        work.rule(f"the {weapon.name or weapon.id} rolls for radar on the first target it fires at, "
                  f"{work.state.ship(aimed.target).label} [R-28]")
    distance = action.distance if action.distance is not None else next(
        (a.distance for a in work.state.attacks if a.ship == ship.id and a.target == target.id), 0)
    m = radar_roll_modifier(work.state, ship, weapon.id, target, distance)
    faces = None if action.table is None else \
        ({"radar.first": action.table.radar[0:1], "radar.second": action.table.radar[1:2]},
         {"radar.first": "the radar roll's 1st die", "radar.second": "the radar roll's 2nd die"})
    first, second = with_dice(work, faces, lambda dice: pair(dice, "radar"))
    works = work.state.success_table.succeeds(first.face, second.face, m)
    ship = work.state.ship(ship.id)
    work.state = work.state.with_ship(ship.model_copy(update={"radar": {**ship.radar, weapon.id: works}}))
    work.event("radar_roll", f"{ship.label}'s {weapon.name or weapon.id} radar roll on {target.label}: "
               f"{first.face}, {second.face} at {m:+d}: "
               + ("success: no negative to-hit modifiers this turn." if works else "failure."),
               ship=ship.id, system=weapon.id, target=target.id, dice=pair_json(first, second), modifier=m,
               clamped=clamp(m), success=works)


def weapon_named(ship: DVShip, system: str) -> Weapon:
    """The ship's weapon system by id, or a refusal in words."""
    try:
        return ship.record.weapon(system)
    except KeyError:
        raise Refusal(f"{ship.label} has no weapon system '{system}'") from None


ACTIONS: tuple[type[_Action], ...] = (Searchlight, StarShellAction, Illuminate, RadarRoll)
HANDLERS: dict[str, Handler] = {"searchlight": _searchlight, "star_shell": _star_shell, "illuminate": _illuminate,
                                "radar_roll": _radar}
