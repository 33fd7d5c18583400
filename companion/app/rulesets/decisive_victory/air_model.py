"""What the app shows of a Decisive Victory aircraft phase, computed from the state (no Flet).

Spec decisive-victory.md §12 (aircraft) and §16 (actions): each flight's stage, counter, base
and target; the phase's next table step (engine/decisive_victory/air_options.next_step); and each flight's
legal options now (air_options.flight_options, the one list the engine keeps), each with the
action to send, the side that sends it and, for attacks, the exact odds of air_odds.py shown
before any die is rolled.  Launches need the range (a measured distance or a band, `003:176`),
AA fire its points (`003:214`); table dice go in as the action's `table` (AirFaces).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ....engine.decisive_victory import air_odds as O
from ....engine.decisive_victory import air_rules as R
from ....engine.decisive_victory.air_options import FlightOption, flight_options, next_step
from ....engine.decisive_victory.inches import inches_text, parse_inches
from ....engine.decisive_victory.odds import Armour
from ....engine.decisive_victory.state import DVState, Flight
from .rolls import faces, typed_pairs
from .model import percent

TYPES = {"fighter": "Fighters", "dive_bomber": "Dive bombers", "torpedo_bomber": "Torpedo bombers",
         "float_plane": "Float planes", "patrol_bomber": "Patrol bombers"}
STAGES = {"landed": "Landed", "attacking": "Attacking", "on_target": "On Target", "returning": "Returning",
          "cap": "CAP", "destroyed": "Destroyed", "out": "Out of the game"}
BANDS = (("close", "Close (0-6')"), ("medium", "Medium (6-12')"), ("long", "Long (12'+)"))
NEXT = {"resolve_attacking": "Resolve the attacking stage", "resolve_returning": "Resolve the returning stage",
        "end_aircraft": "End aircraft"}
NEXT_WORDS = {
    "resolve_attacking": "First the attacking stage: every attacking flight's counter goes down; at 0 it is On Target.",
    "resolve_returning": "On Target: arrivals placed (initiative side first), flights moved, CAP intercepts, "
                         "air to air, AA fire and strikes. Then resolve the returning stage.",
    "end_aircraft": "Returned flights land; landed flights launch (to attack, with the range, or as CAP). "
                    "Then end the aircraft phase.",
}


# --- the flights ------------------------------------------------------------------------------


@dataclass(frozen=True)
class FlightRow:
    id: str
    name: str
    side: str
    kind: str  # "Dive bombers · quality 2 · slow"
    stage: str  # "Attacking"
    counter: str  # "2 turns to its target", "" when none
    base: str
    target: str
    on_table: bool


def _place(state: DVState, place_id: str | None) -> str:
    if not place_id:
        return ""
    place = R.place_of(state, place_id)
    return R.place_label(place) if place is not None else place_id


def flight_row(state: DVState, flight: Flight) -> FlightRow:
    rec = flight.record
    kind = f"{TYPES[rec.type]} · quality {rec.quality}" + (" · slow" if rec.slow else "") + (" · radar" if rec.radar else "")
    counter = ""
    if flight.stage == "attacking":
        counter = f"{flight.counter} turn{'s' * (flight.counter != 1)} to its target"
    elif flight.stage == "returning":
        counter = f"{flight.counter} turn{'s' * (flight.counter != 1)} to its base" if flight.counter else "back: may land"
    elif flight.stage == "on_target":
        counter = "on the table" if flight.on_table else ("high altitude" if rec.type == "patrol_bomber" else "to be placed")
    target = flight.target if flight.stage == "cap" and flight.target else _place(state, flight.target)
    if flight.stage == "cap" and flight.target and any(f.id == flight.target for f in state.flights):
        target = R.flight_label(state.flight(flight.target))
    return FlightRow(flight.id, R.flight_label(flight), flight.side, kind, STAGES[flight.stage], counter,
                     _place(state, flight.base), target, flight.on_table)


def flight_rows(state: DVState) -> tuple[FlightRow, ...]:
    return tuple(flight_row(state, f) for f in state.flights)


@dataclass(frozen=True)
class NextStep:
    ident: str
    label: str
    words: str
    action: dict[str, Any]


def phase_step(state: DVState) -> NextStep | None:
    """The aircraft phase's next table step (air_options.next_step), or None outside the phase."""
    if state.phase != "aircraft":
        return None
    kind = next_step(state)
    return NextStep(f"dv-air-{kind.replace('_', '-')}", NEXT[kind], NEXT_WORDS[kind], {"kind": kind})


# --- a flight's options -----------------------------------------------------------------------


@dataclass(frozen=True)
class AirChoice:
    """One option of a flight: the action, who sends it, what it still needs typed, its odds in words."""

    ident: str
    label: str
    action: dict[str, Any]
    side: str  # the side whose device sends it
    needs: str = ""  # "", "launch" (target and range), "points" (AA), "inches" (a move), "distance" (a strike)
    dice: tuple[str, ...] = ()  # the table dice it takes: attack, answer, save, damage
    odds: tuple[str, ...] = ()


def choices(state: DVState, flight_id: str) -> tuple[AirChoice, ...]:
    """Every option `flight_options` lists for the flight now, in its order, ready for the screen."""
    flight = state.flight(flight_id)
    return tuple(_choice(state, flight, i, option) for i, option in enumerate(flight_options(state, flight)))


def _choice(state: DVState, flight: Flight, i: int, option: FlightOption) -> AirChoice:
    action = dict(option.action)
    kind = action["kind"]
    ident = f"dv-air-{flight.id}-{kind.replace('_', '-')}"
    if kind == "launch_flight":
        ident += "-cap" if action.get("cap") else ""
        return AirChoice(ident, option.text, action, flight.side, needs="" if action.get("cap") else "launch")
    if kind == "land_flight":
        return AirChoice(f"{ident}-{action['base']}", option.text, action, flight.side)
    if kind == "move_flight":
        return AirChoice(ident, option.text, action, flight.side, needs="inches")
    if kind == "intercept":
        return AirChoice(f"dv-air-{action['cap_flight']}-intercept-{action['flight']}", option.text, action, flight.side)
    if kind == "air_attack":
        target = state.flight(action["target"])
        return AirChoice(f"{ident}-{target.id}", option.text, action, flight.side, dice=("attack", "answer"),
                         odds=air_attack_lines(state, [flight], target))
    if kind == "aa_fire":
        ship = state.ship(action["ship"])
        return AirChoice(f"dv-air-{flight.id}-aa-{ship.id}", option.text, action, ship.side, needs="points",
                         dice=("attack",), odds=aa_lines(state, action["ship"], flight.id, action["points"]))
    if kind == "air_strike":
        dice = ("attack",) if flight.record.type == "fighter" else ("attack", "save", "damage")
        return AirChoice(f"{ident}-{action['target']}", option.text, action, flight.side, needs="distance",
                         dice=dice, odds=strike_lines(state, flight.id, action["target"]))
    return AirChoice(f"{ident}-{i}", option.text, action, flight.side)


# --- odds in words ----------------------------------------------------------------------------


def _armour(state: DVState, ship_id: str) -> Armour:
    armor = state.ship(ship_id).record.armor
    return Armour(deck=armor.deck, belt=armor.belt, underwater=armor.underwater)


def strike_lines(state: DVState, flight_id: str, ship_id: str) -> tuple[str, ...]:
    """The whole hit chain of a strike before rolling (§12.7.2, §15.4): hit at +5 (a patrol bomber
    only on a N7), the armour save failing, at least one damage point, the damage expected."""
    flight, ship = state.flight(flight_id), state.ship(ship_id)
    kind = flight.record.type
    if kind == "fighter":
        return (f"Strafing hit {percent(O.strafing_chance(state.success_table))} at +5: 1 minor damage, no save",)
    chain = O.strike_odds(kind, _armour(state, ship_id), state.success_table, state.grid_of(ship))
    hurt = 1 - chain.damage_points.get(0, 0)
    words = "only a N7" if kind == "patrol_bomber" else "at +5"
    return (f"Hit {percent(chain.hit)} {words}", f"Save fails {percent(chain.save_fail)}",
            f"A damage point or more {percent(hurt)}",
            f"Damage points expected {float(chain.expected_damage_points):.2f} ({chain.expected_damage_points})",
            f"Minor expected {float(chain.expected_minor_damage):.2f}")


def aa_lines(state: DVState, ship_id: str, flight_id: str, points: int) -> tuple[str, ...]:
    """AA fire of `points` at the flight (§12.7.1): quality = points against the flight's (`003:214`)."""
    flight = state.flight(flight_id)
    if points < 1:
        return ()
    odds = O.flight_attack_odds(points, flight.record.quality, state.success_table)
    m = O.flight_attack_modifier(points, flight.record.quality)
    lines = [f"{points} AA point{'s' * (points != 1)} at {m:+d}: destroyed {percent(odds.destroyed)}"]
    if odds.driven_off:
        lines.append(f"Driven off {percent(odds.driven_off)}")
    lines.append(f"Its strike goes in {percent(odds.stays)}")
    if state.has_ship(ship_id) and flight.record.type in O.STRIKES:
        after = O.damage_chance_after_aa(points, flight.record.quality, flight.record.type, _armour(state, ship_id),
                                         state.success_table, state.grid_of(state.ship(ship_id)))
        lines.append(f"Then a damage point or more on {state.ship(ship_id).label} {percent(after)}")
    return tuple(lines)


def air_attack_lines(state: DVState, attackers: list[Flight], target: Flight) -> tuple[str, ...]:
    """Air to air (§12.6): the fighters' attack and the target's one answer (`003:209-210`)."""
    quality = sum(a.record.quality for a in attackers)
    ours = O.flight_attack_odds(quality, target.record.quality, state.success_table)
    theirs = O.flight_attack_odds(target.record.quality, attackers[0].record.quality, state.success_table)
    lines = [f"Attack at {O.flight_attack_modifier(quality, target.record.quality):+d}: destroyed {percent(ours.destroyed)}"]
    if ours.driven_off:
        lines.append(f"Driven off {percent(ours.driven_off)}")
    lines.append(f"Its answer destroys {R.flight_label(attackers[0])} {percent(theirs.destroyed)}")
    return tuple(lines)


# --- what is typed ----------------------------------------------------------------------------


def launch_targets(state: DVState, flight_id: str) -> list[tuple[str, str]]:
    """(id, name) of what a launched flight may be sent at: the enemy's ships in play and bases."""
    side = state.flight(flight_id).side
    return [(s.id, s.label) for s in state.ships if s.in_play and s.side != side] + \
        [(b.id, b.name or b.id) for b in state.bases if b.side != side]


def launch_action(choice: AirChoice, target: str | None, distance_text: str = "", band: str | None = None) -> dict[str, Any] | str:
    """The launch with its target and range: the distance measured (inches) or a band; or what is missing."""
    action = dict(choice.action)
    if action.get("cap"):
        return action
    if not target:
        return "Pick the flight's target first."
    action["target"] = target
    if distance_text.strip():
        try:
            action["distance"] = str(parse_inches(distance_text.strip(), what="distance"))
        except ValueError as exc:
            return str(exc)
    elif band in dict(BANDS):
        action["band"] = band
    else:
        return "Give the range to the target: the distance measured, or a band (close, medium, long)."
    return action


def band_of(state: DVState, distance_text: str) -> str:
    """The band a typed distance falls in ([R-54]: feet unless the scenario says inches), or ""."""
    try:
        distance = parse_inches(distance_text.strip(), what="distance")
    except ValueError:
        return ""
    band = O.range_band(distance, state.conditions.air_range_unit)
    return f"{inches_text(distance)}\" is {band} range"


def with_points(choice: AirChoice, points_text: str) -> dict[str, Any] | str:
    text = points_text.strip()
    if not text:
        return dict(choice.action)
    if not text.isdigit() or int(text) < 1:
        return f"AA points are a whole number from 1, not {text!r}"
    return {**choice.action, "points": int(text)}


def with_inches(choice: AirChoice, text: str, key: str) -> dict[str, Any] | str:
    """A move's inches or a strike's distance, when typed (none: as the table saw it)."""
    if not text.strip():
        return dict(choice.action)
    try:
        return {**choice.action, key: str(parse_inches(text.strip(), what=key))}
    except ValueError as exc:
        return str(exc)


def air_table(attack: str = "", answer: str = "", save: str = "", damage: str = "") -> dict[str, list[int]]:
    """An aircraft roll's `table` (AirFaces, §16): attack and answer and save [1st, 2nd], damage dice."""
    table = typed_pairs(attack=attack, answer=answer, save=save)
    if damage.strip():
        table["damage"] = faces(damage)
    return table
