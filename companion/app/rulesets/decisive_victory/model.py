"""What the app shows of a Decisive Victory game, computed from the state (no Flet).

The views (app/rulesets/decisive_victory/body.py, app/rulesets/decisive_victory/screen.py) draw these rows and send the actions
they carry.  Actions are plain data in the spec's words (decisive-victory.md
§16: kinds and fields exactly), so the server checks and applies them like any
other; the odds come from engine/decisive_victory/odds.py and modifiers.py, exact fractions
shown as percentages with the fraction beside them.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Callable

from ....engine.decisive_victory import odds
from ....engine.decisive_victory.activation import active_ship, current_batch, to_act
from ....engine.decisive_victory.batches import best_score
from ....engine.decisive_victory.command import COST, NAME
from ....engine.decisive_victory.game import apply
from ....engine.kernel import Refused
from ....engine.decisive_victory.inches import inches_text, parse_inches
from ....engine.decisive_victory import attack_facts as F
from ....engine.decisive_victory.maintenance import maintenance_left, next_due
from ....engine.decisive_victory.movement import movement_limits
from ....engine.decisive_victory.scenario import build_dv_state, load_dv_scenario
from ....engine.decisive_victory.state import AttackFacts, DVAttack, DVShip, DVState
from ....engine.roller import Roller

from ..steps import Banner, Choice, Step, log_lines  # noqa: F401 (M.log_lines)
from .hand_model import tables_words
from .rolls import (LastRoll, attack_rolls, attack_table, dice_of, faces, groups,  # noqa: F401 (the views' one door)
                       initiative_faces, last_roll, maintenance_table)
from ....files import read_json
from .group import build_group_game
from ....engine.words import counted

RULESET = "decisive-victory"
SAMPLE_FILE = "decisive-victory/sample.json"
CARRIER_FILE = "decisive-victory/carrier-strike.json"
PHASES = {"setup": "Set-up", "command": "Command", "initiative": "Initiative", "aircraft": "Aircraft",
          "movement": "Movement", "attacks": "Attacks", "maintenance": "Maintenance", "over": "Game over"}
#: The turn's steps in order (§4): the banner's chips.
STEPS = ("command", "initiative", "aircraft", "movement", "attacks", "maintenance")
#: The abilities declared in the command phase (§5.3): id -> (name, cost).  Close Action is paid in movement.
ABILITIES = {a: (NAME[a], COST[a]) for a in ("make_smoke", "evasive", "scuttle", "concentrate_fire", "damage_control")}
SPEED_WORDS = {"full": "Full speed", "half": "Half speed", "stop": "Complete stop"}


#: The shipped scenarios a new game offers: (file under fleets/, words on its button).
SCENARIOS = ((SAMPLE_FILE, "Cruisers and destroyers"), (CARRIER_FILE, "Carrier strike (aircraft)"))


def sample_game(fleets_dir, seed: str | None = None, store: Any = None, scenario: str = SAMPLE_FILE) -> DVState:
    """A shipped scenario (fleets/decisive-victory/sample.json or carrier-strike.json), ready to start,
    with its dice seed; with a store, played with the group's own hit grid and Table 1 when it saved
    them (decisive_victory/group.build_group_game, spec §18)."""
    if scenario not in dict(SCENARIOS):
        raise ValueError(f"no shipped Decisive Victory scenario {scenario!r}")
    loaded = load_dv_scenario(read_json(fleets_dir / scenario))
    roller = Roller.from_seed(seed or secrets.token_hex(16))
    if store is None:
        return build_dv_state(loaded, roller=roller)

    return build_group_game(store, loaded, roller=roller)


def percent(p: Fraction | int) -> str:
    """An exact chance as the table reads it: "44.4% (4/9)"."""
    shown = f"{float(p) * 100:.1f}".rstrip("0").rstrip(".")
    return f"{shown}% ({p})" if p.denominator != 1 else f"{shown}%"


# --- a ship and its grid ----------------------------------------------------------------------


@dataclass(frozen=True)
class SystemLine:
    name: str
    status: str  # working, damaged, disabled
    marked: int
    boxes: int


@dataclass(frozen=True)
class Cell:
    box: tuple[int, int]
    system: str
    marked: bool
    unverified: bool


@dataclass(frozen=True)
class GridLine:
    label: str  # "1 (deck)", "2-3 (belt)"
    cells: tuple[Cell, ...]
    reconstructed: bool  # a cell of this row is the spec's placeholder


@dataclass(frozen=True)
class ShipRow:
    id: str
    name: str
    side: str
    head: str  # class, speed, commander
    speed: str  # the speed mode and the move made
    damage: str  # "Damage 2 (CDT 5) · minor 1"
    cp: int
    abilities: tuple[str, ...]
    systems: tuple[SystemLine, ...]
    notes: tuple[str, ...]  # rudder, salvoes, smoke, close action, lost
    removed: str | None
    grid: tuple[GridLine, ...]
    tables: str = ""  # whose hit grid and Table 1: the group's own or reconstructed


def grid_lines(state: DVState, ship: DVShip) -> tuple[GridLine, ...]:
    """The ship's hit grid as 4 rows of 6 boxes (§10.1), marked boxes and reconstructed cells shown."""
    grid = state.grid_of(ship)
    lines = []
    for g, row in enumerate(grid.rows, start=1):
        dice = f"{row.dice[0]}-{row.dice[-1]}" if len(row.dice) > 1 else str(row.dice[0])
        cells = tuple(Cell((g, c), row.cells[c - 1], (g, c) in ship.boxes, c in row.unverified) for c in range(1, 7))
        lines.append(GridLine(f"{dice} ({row.armor})", cells, bool(row.unverified)))
    return tuple(lines)


def ship_row(state: DVState, ship: DVShip) -> ShipRow:
    rec = ship.record
    systems = tuple(SystemLine(s.system, s.status, s.marked, s.boxes) for s in state.systems(ship) if s.boxes)
    notes = []
    if ship.rudder != "free":
        notes.append(f"Rudder locked {ship.rudder}")
    for system, left in ship.salvoes_left.items():
        notes.append(f"{_weapon_name(ship, system)}: {left} salvo{'es' if left != 1 else ''} left")
    if ship.making_smoke:
        notes.append("Making smoke")
    if ship.close_action_with:
        notes.append("In close action with " + ", ".join(_label(state, s) for s in sorted(ship.close_action_with)))
    if ship.illuminated:
        notes.append("Illuminated")
    if ship.systems_fired:
        notes.append("Fired: " + ", ".join(_weapon_name(ship, s) for s in sorted(ship.systems_fired)))
    moved = f" · moved {inches_text(ship.inches_moved)}\", {ship.turns_made} turn{'s' if ship.turns_made != 1 else ''}" \
        if ship.move_done or ship.inches_moved else ""
    return ShipRow(
        ship.id, ship.label, ship.side,
        f"{rec.ship_class.capitalize()} · speed {rec.speed}\" · turning class {rec.turning_class} · "
        f"{ship.commander.replace('_', ' ').capitalize()}{' · flagship' if ship.flagship else ''}",
        SPEED_WORDS[ship.speed_mode] + moved,
        f"Damage {ship.damage_points} (CDT {rec.critical_damage_threshold}) · minor {ship.minor_damage}",
        ship.cp, tuple(NAME.get(a, a.replace('_', ' ')) for a in ship.abilities), systems,
        tuple(notes), ship.removed, grid_lines(state, ship), tables_words(state, ship))


def systems_words(row: ShipRow) -> str:
    """The ship's hurt systems in words ("Guns damaged, Com disabled"), or that all work (the TV's line)."""
    hurt = [f"{s.name} {s.status}" for s in row.systems if s.status != "working"]
    return ", ".join(hurt) if hurt else "all systems working"


def ship_rows(state: DVState) -> tuple[ShipRow, ...]:
    return tuple(ship_row(state, s) for s in state.ships)


def _label(state: DVState, ship_id: str) -> str:
    return state.ship(ship_id).label if state.has_ship(ship_id) else ship_id


def _weapon_name(ship: DVShip, system: str) -> str:
    try:
        return ship.record.weapon(system).name or system
    except KeyError:
        return system


# --- the banner -------------------------------------------------------------------------------


def banner(state: DVState) -> Banner:
    """Turn and phase, who acts, and the phase's own buttons (§4, §16)."""
    title = f"Turn {state.turn} · {PHASES.get(state.phase, state.phase)}"
    phase = state.phase
    if phase == "over":
        return Banner("Game over", state.result or "", (), phase)
    if phase == "setup":
        return Banner(title, "The ships are set up as the scenario says.",
                      (Step("dv-start", "Start the game", {"kind": "start_game"}),), phase)
    if phase == "command":
        return Banner(title, "Command points generated; declare abilities, then end the command phase.",
                      (Step("dv-end-command", "End command", {"kind": "end_command"}),), phase)
    if phase == "initiative":
        scores = ", ".join(f"{side} d6+{best_score(state, side)}" for side in state.sides)
        return Banner(title, f"Each side rolls: {scores}; ties roll again.",
                      (Step("dv-roll-initiative", "Roll initiative", {"kind": "roll_initiative"}),), phase)
    whose = f"{state.batch.side}'s batch ({state.batch.left} more)" if state.batch else ""
    lead = f"Initiative: {state.initiative}. " if state.initiative else ""
    if phase == "aircraft":
        return Banner(title, lead + "Flights act before ships move.",
                      (Step("dv-end-aircraft", "End aircraft", {"kind": "end_aircraft"}),), phase)
    if phase == "movement":
        return Banner(title, lead + (whose + " moves. " if whose else "") + "The initiative loser moves first.",
                      (end_movement_step(state),), phase)
    if phase == "attacks":
        return Banner(title, lead + (whose + " attacks. " if whose else "") + "The initiative winner attacks first.",
                      (Step("dv-end-activation", "End activation", {"kind": "end_activation"}),
                       Step("dv-end-attacks", "End attacks", {"kind": "end_attacks"})), phase)
    return Banner(title, "Maintenance: " + (maintenance_left(state) or "Nothing left to roll: the turn may end."),
                  (Step("dv-end-turn", "End turn", {"kind": "end_turn"}),), phase)


def end_movement_step(state: DVState) -> Step:
    """End movement, with what it means for the ships not moved: those at half speed or stopped stay
    where they are; a full-speed ship short of its least move (§7.2, [R-15]) must still move, so the
    dialog names it with its minimum and offers what the rules allow: the least move ahead, or half
    speed or stop (issue 28: it said they "stay where they are", then the rules refused)."""
    unmoved = [s for s in state.ships if s.in_play and not s.move_done]
    short = [(s, movement_limits(state, s)) for s in unmoved]
    short = [(s, lim) for s, lim in short if lim.mode == "full" and lim.spent < lim.minimum]
    owing = {ship.id for ship, _ in short}
    ending = [s.label for s in unmoved if s.id not in owing and s.inches_moved]
    staying = [s.label for s in unmoved if s.id not in owing and not s.inches_moved]
    lines = [f"{ship.label} is at full speed ({inches_text(Fraction(lim.speed))}\"): it must still move at least "
             f"{inches_text(lim.minimum - lim.spent)}\" more"
             + (", or go to half speed or stop." if lim.spent == 0 else ".") for ship, lim in short]
    if ending:
        lines.append(f"{', '.join(ending)} end{'s' if len(ending) == 1 else ''} "
                     f"{'its move' if len(ending) == 1 else 'their moves'} where {'it is' if len(ending) == 1 else 'they are'}.")
    if staying:
        lines.append(f"{', '.join(staying)} ha{'ve' if len(staying) > 1 else 's'} not moved: "
                     f"{'they stay' if len(staying) > 1 else 'it stays'} where {'they are' if len(staying) > 1 else 'it is'}.")
    options = tuple(option for ship, lim in short for option in (
        Step(f"dv-least-move-{ship.id}", f"Move {ship.label} {inches_text(lim.minimum - lim.spent)}\" ahead and end its move",
             {"kind": "move", "ship": ship.id, "inches": inches_text(lim.minimum - lim.spent), "end": True}),
        Step(f"dv-half-speed-{ship.id}", f"{ship.label} to half speed",
             {"kind": "set_speed", "ship": ship.id, "mode": "half"}))
        if apply(state, option.action).ok)  # only what the rules take now (speed: before moving, §7.2)
    return Step("dv-end-movement", "End movement", {"kind": "end_movement"}, " ".join(lines), options, not short)


# --- command phase ----------------------------------------------------------------------------


def ability_choices(state: DVState, ship_id: str) -> tuple[Choice, ...]:
    """The abilities a ship may declare (§5.3), paid from its own CP or its flagship's (003:154)."""
    ship = state.ship(ship_id)
    flagship = state.flagship_of(ship.side)
    out = []
    for ability, (name, cost) in ABILITIES.items():
        problem = f"{name} is already declared this turn" if ability in ship.abilities else None
        action = {"kind": "use_ability", "ship": ship.id, "ability": ability}
        if ability == "damage_control":
            continue  # needs a system and a mode: see damage_control_choices
        out.append(Choice(f"dv-ability-{ability}", f"{name} ({cost} CP)", action, problem))
        if flagship is not None and flagship.id != ship.id:
            out.append(Choice(f"dv-ability-{ability}-flagship", f"{name}, paid by {flagship.label}",
                              {**action, "payer": flagship.id}, problem))
    return tuple(out)


def damage_control_choices(state: DVState, ship_id: str) -> tuple[Choice, ...]:
    """Damage Control (§5.3): one damaged system ignored, or one disabled system treated as damaged."""
    ship = state.ship(ship_id)
    out = []
    for s in state.systems(ship):
        mode = {"damaged": "ignore_damaged", "disabled": "disabled_as_damaged"}.get(s.status)
        if mode and s.system not in ship.damage_control:
            words = "ignore its damage" if mode == "ignore_damaged" else "treat as damaged"
            out.append(Choice(f"dv-damage-control-{s.system}", f"Damage Control: {s.system}, {words} (1 CP)",
                              {"kind": "use_ability", "ship": ship.id, "ability": "damage_control",
                               "system": s.system, "mode": mode}))
    return tuple(out)


# --- movement ---------------------------------------------------------------------------------


def movement_words(state: DVState, ship_id: str) -> str:
    """What the ship may do this move (§7.5, the engine's movement_limits): the allowance of its mode,
    the minimum at full speed, the cost and angle of a turn.  A reminder; the engine checks the move."""
    ship = state.ship(ship_id)
    lim = movement_limits(state, ship)
    if lim.speed == 0:
        return "Engines destroyed: the ship cannot move."
    band = {"full": f"{lim.minimum}\" to {lim.allowance}\"", "half": f"0\" to {lim.allowance}\"",
            "stop": "0\""}[lim.mode]
    rudder = {"ahead": " Rudder locked ahead: no turns.",
              "port": " Rudder locked to port: turn 45° to port whenever possible.",
              "starboard": " Rudder locked to starboard: turn 45° to starboard whenever possible."}.get(lim.rudder, "")
    carried = " May turn before moving (carried turn)." if lim.carried else ""
    spent = f" Spent {inches_text(lim.spent)}\", {inches_text(lim.left)}\" left." if lim.spent else ""
    return (f"{SPEED_WORDS[lim.mode]}: {band} (each turn costs {lim.turn_cost}\"). "
            f"One turn per 2\" moved, up to {lim.angle}° each.{spent}{carried}{rudder}")


def speed_choices(state: DVState, ship_id: str) -> tuple[Choice, ...]:
    ship = state.ship(ship_id)
    return tuple(Choice(f"dv-speed-{mode}", SPEED_WORDS[mode], {"kind": "set_speed", "ship": ship.id, "mode": mode})
                 for mode in ("full", "half", "stop") if mode != ship.speed_mode)


def move_action(ship_id: str, inches: str, turns: str, carried: bool = False) -> dict[str, Any] | str:
    """The move action from the numbers typed (inches exact, e.g. "7.5"), or what is wrong with them."""
    try:
        distance = parse_inches(inches.strip() or "0", what="inches moved")
    except ValueError as exc:
        return str(exc)
    text = turns.strip() or "0"
    if not text.isdigit():
        return f"turns must be a whole number, not {text!r}"
    action: dict[str, Any] = {"kind": "move", "ship": ship_id, "inches": str(distance), "turns": int(text)}
    if carried:
        action["use_carried_turn"] = True
    return action


def close_action_choices(state: DVState, ship_id: str, other_id: str) -> tuple[Choice, ...]:
    """The moving ship came within 1" of `other` (§7.6): one of the two pays 1 CP (or its flagship), or they collide."""
    ship, other = state.ship(ship_id), state.ship(other_id)
    base = {"kind": "close_action", "ship": ship.id, "other": other.id}
    payers = [ship, other] + [f for f in (state.flagship_of(ship.side), state.flagship_of(other.side))
                              if f is not None and f.id not in (ship.id, other.id)]
    out = [Choice(f"dv-close-paid-{p.id}", f"{p.label} pays 1 CP", {**base, "paid_by": p.id}) for p in payers]
    return tuple(out) + (Choice("dv-close-collision", "Nobody pays: collision", {**base, "paid_by": None}),)


def aid_choices(state: DVState, ship_id: str, system: str | None, target_id: str | None,
                distance_text: str) -> tuple[Choice, ...]:
    """Before the ship's attacks (§8.5-8.8): the battery's gunnery radar roll on its target, a searchlight
    on the target at night (within 6"), a star shell from a gun battery at night."""
    ship = state.ship(ship_id)
    out: list[Choice] = []
    weapon = ship.record.weapon(system) if system else None
    if weapon is not None and weapon.kind == "gun" and weapon.radar is not None and target_id and system not in ship.radar:
        out.append(Choice("dv-radar-roll", f"Radar roll ({weapon.radar}) on {_label(state, target_id)}",
                          {"kind": "radar_roll", "ship": ship.id, "system": weapon.id, "target": target_id}))
    if state.conditions.night and target_id:
        try:
            distance = parse_inches(distance_text.strip(), what="distance")
            out.append(Choice("dv-searchlight", f"Searchlight on {_label(state, target_id)}",
                              {"kind": "searchlight", "ship": ship.id, "target": target_id, "distance": str(distance)}))
        except ValueError:
            pass
    if state.conditions.night and weapon is not None and weapon.kind == "gun":
        out.append(Choice("dv-star-shell", f"Star shell from {weapon.name or weapon.id}",
                          {"kind": "star_shell", "ship": ship.id, "system": weapon.id}))
    return tuple(out)


# --- attacks ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Preview:
    """A declared (or to be declared) attack with its exact odds before any die is rolled (§15.4)."""

    title: str
    modifiers: tuple[tuple[str, int], ...]
    modifier: int
    hit: Fraction
    lines: tuple[str, ...]  # hit, N7 bonus, save, damage
    action: dict[str, Any] | None
    problem: str | None = None
    refused: str | None = None  # why the rules would refuse to declare it now ("not in the fire arc")

    @property
    def odds_text(self) -> str:
        return " · ".join(self.lines)


def attackers(state: DVState, mine: Callable[[str], bool]) -> list[DVShip]:
    """The ships of the side attacking now (the batch's, §8.1) still to act that this device holds
    (`mine`): the Attacks tab offers these alone (issue 35: it kept the other side's ship picked)."""
    batch = current_batch(state) if state.phase == "attacks" else None
    if batch is None:
        return []
    acting = to_act(state)
    return [s for s in state.ships if s.side == batch.side and s.id in acting and mine(s.id)]


def attacking_side(state: DVState) -> str | None:
    """The side whose batch attacks now, None outside the attacks phase or when no ship is left to act."""
    batch = current_batch(state) if state.phase == "attacks" else None
    return batch.side if batch is not None else None


def attacker_pick(state: DVState, selected: str | None, mine: Callable[[str], bool]) -> str | None:
    """The ship the Attacks tab picks: the batch's ship in the middle of its activation; else the
    selected ship when it may attack now; else the first that may; None when none may."""
    ships = attackers(state, mine)
    batch = current_batch(state) if ships else None
    active = active_ship(state, batch.side) if batch is not None else None
    if active is not None and active in ships:
        return active.id
    if any(s.id == selected for s in ships):
        return selected
    return ships[0].id if ships else None


def targets(state: DVState, ship_id: str) -> list[DVShip]:
    ship = state.ship(ship_id)
    return [s for s in state.ships if s.in_play and s.side != ship.side]


def weapons(state: DVState, ship_id: str) -> list[tuple[str, str]]:
    """(system id, words) of the ship's weapon systems: its guns and torpedoes (§3.2)."""
    ship = state.ship(ship_id)
    out = []
    for w in ship.record.weapons:
        extra = f", {ship.salvoes_left.get(w.id, 0)} salvoes" if w.kind == "torpedo" else ""
        out.append((w.id, f"{w.name or w.id} (FC {w.fire_control}, S{w.strength}, D{w.damage}{extra})"))
    return out


def _odds_preview(state: DVState, attack: DVAttack) -> Preview:
    """The engine's modifiers and exact chain for an attack of `state` (attack_facts, odds §15.4)."""
    ship, target = state.ship(attack.ship), state.ship(attack.target)
    title = f"{ship.label} {_weapon_name(ship, attack.system)} at {target.label}"
    mods = tuple(F.modifiers(state, attack))
    chance = F.odds_attack(state, attack)
    chain = odds.attack_odds(chance, state.success_table, state.grid_of(target))
    lines = [f"Hit {percent(chain.hit)} at {chance.modifier:+d}"]
    if chance.weapon is odds.Weapon.GUN:
        lines.append(f"N7 bonus hit {percent(chain.bonus_hit)}")
    lines += [f"Save fails {percent(chain.save_fail)}",
              f"Damage points expected {float(chain.expected_damage_points):.2f} ({chain.expected_damage_points})",
              f"Minor expected {float(chain.expected_minor_damage):.2f}"]
    return Preview(title, mods, chance.modifier, chain.hit, tuple(lines), None)


def preview(state: DVState, ship_id: str, system: str, target_id: str, distance_text: str,
            in_arc: bool = True, bow_on: bool = False, smoke: bool = False, full_fc: bool = True,
            spotter_text: str = "") -> Preview:
    """The declare_attack action with the exact odds of the whole chain (§15.4) before rolling, as
    the engine will read the attack once declared; a problem in words when the numbers typed are not usable."""
    ship, target = state.ship(ship_id), state.ship(target_id)
    try:
        distance = parse_inches(distance_text.strip(), what="distance")
        spotter = parse_inches(spotter_text.strip(), what="spotter distance") if spotter_text.strip() else None
    except ValueError as exc:
        return Preview(f"{ship.label} {_weapon_name(ship, system)} at {target.label}", (), 0, Fraction(0), (), None,
                       str(exc))
    facts = AttackFacts(in_arc=in_arc, bow_on=bow_on, smoke=smoke, spotter_distance=spotter)
    probe = DVAttack(id=max((a.id for a in state.attacks), default=0) + 1, ship=ship.id, system=system,
                     target=target.id, distance=distance, facts=facts, full_fc=full_fc)
    shown = _odds_preview(state.model_copy(update={"attacks": [*state.attacks, probe]}), probe)
    facts_data: dict[str, Any] = {"in_arc": in_arc, "bow_on": bow_on, "smoke": smoke}
    if spotter is not None:
        facts_data["spotter_distance"] = str(spotter)
    action = {"kind": "declare_attack", "ship": ship.id, "system": system, "target": target.id,
              "distance": str(distance), "facts": facts_data, "full_fc": full_fc}
    outcome = apply(state, action)  # the rules' own answer, shown with the odds (issue 28.4)
    return replace(shown, action=action, refused=outcome.reason if isinstance(outcome, Refused) else None)


def declared_previews(state: DVState) -> tuple[tuple[DVAttack, Preview], ...]:
    """The attacks declared this turn with their odds as the ships stand now (rolled ones too)."""
    return tuple((a, _odds_preview(state, a)) for a in state.attacks
                 if state.has_ship(a.ship) and state.has_ship(a.target))


# --- maintenance ------------------------------------------------------------------------------


@dataclass(frozen=True)
class MaintenanceRow:
    ship: str
    name: str
    lines: tuple[str, ...]
    steps: tuple[Choice, ...]


def maintenance_rows(state: DVState) -> tuple[MaintenanceRow, ...]:
    """Per ship in play, what maintenance asks of it (§11) with the odds, and the one step due now
    (the engine's `next_due`: struct +2, system rolls, catastrophic, abandon, minor), or none."""
    rows = []
    for ship in state.ships:
        if not ship.in_play:
            continue
        cdt = ship.record.critical_damage_threshold
        lines = []
        if state.phase == "maintenance" and ship.damage_points >= cdt:
            lines.append(f"Catastrophic test: {ship.damage_points} dice, sinks on {cdt}+ fours: "
                         f"{percent(odds.catastrophic_chance(ship.damage_points, cdt))}")
        if state.phase == "maintenance" and ship.minor_damage >= 3:
            lines.append(f"Minor damage {ship.minor_damage}: {counted(ship.minor_damage // 3, 'grid roll')}")
        due = next_due(state, ship)
        steps: list[Choice] = []
        if due is not None:
            lines.append(f"Next: {due[1]}")
            steps += _due_steps(state, ship, due[0])
        if state.phase == "maintenance" and due is None and ship.damage_points >= 3:
            steps.append(Choice(f"dv-trade-{ship.id}", "Trade 3 damage points for a grid roll",
                                {"kind": "trade_damage", "ship": ship.id, "blocks": 1}))
        if lines:
            rows.append(MaintenanceRow(ship.id, ship.label, tuple(lines), tuple(steps)))
    return tuple(rows)


def smoke_choices(state: DVState) -> tuple[Choice, ...]:
    """Each smoke template's drift roll still to make this maintenance phase (§5.3, `003:158`)."""
    if state.phase != "maintenance":
        return ()
    return tuple(Choice(f"dv-drift-{s.id}", f"Drift smoke of {_label(state, s.ship)} (5-6 removes it)",
                        {"kind": "drift_smoke", "smoke": s.id}) for s in state.smoke if s.drifted_turn != state.turn)


def _due_steps(state: DVState, ship: DVShip, step: str) -> list[Choice]:
    if step != "abandon":
        return [Choice(f"dv-maintenance-{ship.id}-{step}", f"Roll: {step.replace('_', ' ')}",
                       {"kind": "maintenance_roll", "ship": ship.id, "step": step})]
    out = [Choice(f"dv-pay-abandon-{ship.id}", "Pay 2 CP", {"kind": "pay_abandon", "ship": ship.id})]
    flagship = state.flagship_of(ship.side)
    if flagship is not None and flagship.id != ship.id:
        out.append(Choice(f"dv-pay-abandon-{ship.id}-flagship", f"{flagship.label} pays 2 CP",
                          {"kind": "pay_abandon", "ship": ship.id, "payer": flagship.id}))
    return out + [Choice(f"dv-abandon-{ship.id}", "Abandon ship", {"kind": "abandon", "ship": ship.id})]
