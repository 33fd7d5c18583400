"""Decisive Victory aircraft: who may do what, as plain answers (spec §12, §3.5, §10.3).

Each `*_problem` returns the reason in words, or None when the rules allow it; the
handlers (aircraft.py) and the legal options (air_options.py) read the same answers.
"""

from __future__ import annotations

from typing import Literal

from .command import effective_status
from .records import FlightDeck
from .state import Base, DVShip, DVState, Flight

#: The aircraft phase's stages, in the seed's order (`003:170`, [R-53]).
AirStep = Literal["attacking", "on_target", "returning", "landed"]
ON_TABLE = ("on_target", "cap")


def air_step(state: DVState) -> AirStep:
    """Where the aircraft phase stands: attacking stage not yet resolved, then On Target until the
    returning stage is resolved, then returning flights land and the landed stage launches."""
    if state.attacking_resolved != state.turn:
        return "attacking"
    return "on_target" if state.returning_resolved != state.turn else "landed"


def step_problem(state: DVState, *steps: AirStep, doing: str) -> str | None:
    """`doing` belongs to `steps` of the aircraft phase (`003:170`: "resolve every stage one at a time")."""
    if state.phase != "aircraft":
        return f"{doing} in the aircraft phase (now: {state.phase})"
    now = air_step(state)
    if now in steps:
        return None
    order: list[AirStep] = ["attacking", "on_target", "landed"]
    if order.index(now) < min(order.index(s) for s in steps):
        if now == "attacking":
            return f"{doing}: resolve the attacking stage first (resolve_attacking)"
        return f"{doing}: that comes after the returning stage is resolved (resolve_returning)"
    if "attacking" in steps:
        return f"{doing}: the attacking stage is already resolved this turn"
    return f"{doing}: the On Target stage is over this turn (the returning stage is resolved)"


def half_at_least_one(points: int) -> int:
    return max(1, -(-points // 2))


def aa_points(state: DVState, ship: DVShip, dual_purpose: frozenset[str] = frozenset()) -> int:
    """A ship's AA points this turn with its dual purpose batteries (`003:214-215`): damaged AA
    max(1, ⌈aa/2⌉) + Σ max(1, ⌈dp/2⌉) [R-48]; disabled: none (`003:112`)."""
    status = effective_status(state, ship, "AA")
    if status == "disabled":
        return 0
    batteries = [w.dual_purpose_aa for w in ship.record.weapons if w.id in (dual_purpose | ship.dp_used_for_aa)]
    if status == "damaged":
        return (half_at_least_one(ship.record.aa) if ship.record.aa else 0) + sum(half_at_least_one(p) for p in batteries)
    return ship.record.aa + sum(batteries)


def aa_left(state: DVState, unit: DVShip | Base, dual_purpose: frozenset[str] = frozenset()) -> int:
    """AA points still to spend this turn by a ship or a land base."""
    if isinstance(unit, Base):
        return max(0, unit.aa - unit.aa_spent)
    return max(0, aa_points(state, unit, dual_purpose) - unit.aa_spent)


def dual_purpose_problem(state: DVState, ship: DVShip, system: str) -> str | None:
    """A dual purpose battery fires at flights only if it has not fired at a surface target (`003:215`)."""
    weapon = next((w for w in ship.record.weapons if w.id == system), None)
    if weapon is None:
        return f"{ship.label} has no weapon system '{system}'"
    if weapon.kind != "gun" or not weapon.dual_purpose_aa:
        return f"{ship.label}'s {weapon.name or weapon.id} is not a dual purpose battery"
    if system in ship.systems_fired:
        return f"{ship.label}'s {weapon.name or weapon.id} has already fired at a surface target this turn"
    return None


def place_of(state: DVState, place_id: str) -> DVShip | Base | None:
    """The carrier (a ship in play) or land base of that id."""
    if state.has_ship(place_id):
        return state.ship(place_id)
    return next((b for b in state.bases if b.id == place_id), None)


def place_label(place: DVShip | Base) -> str:
    return place.label if isinstance(place, DVShip) else (place.name or place.id)


def deck_problem(state: DVState, ship: DVShip, doing: str) -> str | None:
    """A carrier launches and lands only with a flight deck that is not disabled (`003:114`), and at
    night only if it is British (`003:171`)."""
    if not ship.in_play:
        return f"{ship.label} is out of play"
    if ship.record.flight_deck is None:
        return f"{ship.label} has no flight deck"
    if effective_status(state, ship, "Flight") == "disabled":
        return f"{ship.label}'s flight deck is disabled: no {doing}"
    if state.conditions.night and ship.record.nation.lower() != "british":
        return f"aircraft cannot be {'launched' if doing == 'launches' else 'recovered'} from carriers at night unless the carrier is British"
    return None


def landing_problem(state: DVState, flight: Flight, place_id: str) -> str | None:
    """Where a flight may land (`003:193, 003:200`): a base of its side, or a carrier of its side
    (naval aircraft only) able to recover aircraft in combat."""
    place = place_of(state, place_id)
    if place is None:
        return f"there is no carrier or base '{place_id}'"
    if place.side != flight.side:
        return f"{place_label(place)} is not {flight.side}'s"
    if isinstance(place, Base):
        return None
    if not flight.record.naval:
        return "ground based flights can only land on ground bases"
    problem = deck_problem(state, place, "landings")
    if problem:
        return problem
    deck: FlightDeck | None = place.record.flight_deck
    if deck is not None and not deck.lands_in_combat:
        return f"{place.label} cannot land aircraft in combat conditions"
    return None


def landing_places(state: DVState, flight: Flight) -> list[str]:
    places = [s.id for s in state.ships if s.in_play] + [b.id for b in state.bases]
    return [p for p in places if landing_problem(state, flight, p) is None]


def flies_problem(state: DVState, flight: Flight) -> str | None:
    """"Aircraft can only be used at night or in bad weather if they are equipped with radar" (`003:171`)."""
    conditions = state.conditions
    if (conditions.night or conditions.bad_weather) and not flight.record.radar:
        return f"{flight_label(flight)} has no radar: it cannot fly at night or in bad weather"
    return None


def launches_this_turn(state: DVState, place_id: str) -> int:
    """Flights the carrier or base has launched this turn (to the attacking stage or CAP)."""
    return sum(1 for f in state.flights
               if f.base == place_id and f.stage in ("attacking", "cap") and f.entered_stage_turn == state.turn)


def launch_allowance(place: DVShip | Base) -> int:
    """"Carriers and bases can launch 1 flight a turn" (`003:198`): a carrier's deck may say more."""
    if isinstance(place, DVShip) and place.record.flight_deck is not None:
        return place.record.flight_deck.launch_per_turn
    return 1


def launch_problem(state: DVState, flight: Flight, cap: bool) -> str | None:
    """May this flight launch now (`003:171, 003:198-200`)?  Not the CP of an extra launch."""
    if flight.stage != "landed":
        return f"{flight_label(flight)} is not landed (stage: {flight.stage})"
    if flight.entered_stage_turn == state.turn:
        return f"{flight_label(flight)} has just landed from the returning stage: it cannot launch this turn"
    if cap and flight.record.type != "fighter":
        return "only fighter flights may fly CAP"
    place = place_of(state, flight.base)
    if place is None:
        return f"{flight_label(flight)}'s base '{flight.base}' is not in the game"
    if isinstance(place, DVShip):
        problem = deck_problem(state, place, "launches")
        if problem:
            return problem
        if any(f.base == place.id and f.stage == "landed" and f.entered_stage_turn == state.turn for f in state.flights):
            return f"{place.label} has landed aircraft this turn: it cannot launch new flights"
    return flies_problem(state, flight)


def flight_label(flight: Flight) -> str:
    return flight.record.name or flight.id


def enemy(a: str, b: str) -> bool:
    return a != b
