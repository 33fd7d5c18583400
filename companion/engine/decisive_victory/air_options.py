"""A flight's legal options now (spec §14.2 `flight_options`): the one list the app highlights,
the CLI prints and the tests count, each with the action to send and, for attacks, exact odds.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ConfigDict

from . import air_odds as O
from . import air_rules as R
from .on_target import unplaced, aa_problem, air_attack_problem, intercept_problem, strike_problem
from .odds import Armour
from .state import DVState, Flight


class FlightOption(BaseModel):
    """One thing the flight may do: the action (its `kind` and fields), in words, with its odds."""

    model_config = ConfigDict(frozen=True)

    action: dict[str, Any]
    text: str
    odds: dict[str, str] = {}


def flight_options(state: DVState, flight: Flight) -> list[FlightOption]:
    """Every action the rules allow this flight now, in the aircraft phase's order (§12)."""
    if state.phase != "aircraft":
        return []
    step = R.air_step(state)
    if step == "on_target":
        return _on_target(state, flight) + _aa_at(state, flight) + _cap(state, flight)
    if step == "landed":
        return _landing(state, flight) + _launches(state, flight)
    return []


def _on_target(state: DVState, flight: Flight) -> list[FlightOption]:
    out: list[FlightOption] = []
    if flight.stage != "on_target":
        return out
    name = R.flight_label(flight)
    if flight in unplaced(state):
        out.append(FlightOption(action={"kind": "place_flight", "flight": flight.id}, text=f"Place {name} on the table"))
    elif flight.on_table and flight.moved_turn != state.turn and not unplaced(state):
        limit = O.move_limit(flight.record.slow)
        out.append(FlightOption(action={"kind": "move_flight", "flight": flight.id},
                                text=f"Move {name} up to {limit}\""))
    out += _air_attacks(state, flight)
    for ship in state.ships:
        if strike_problem(state, flight, ship.id) is None:
            out.append(FlightOption(action={"kind": "air_strike", "flight": flight.id, "target": ship.id},
                                    text=f"{name} strikes {ship.label}", odds=_strike_odds(state, flight, ship.id)))
    return out


def _air_attacks(state: DVState, flight: Flight) -> list[FlightOption]:
    out: list[FlightOption] = []
    for other in state.flights:
        if flight.record.type == "fighter" and air_attack_problem(state, [flight], other) is None:
            odds = O.flight_attack_odds(flight.record.quality, other.record.quality, state.success_table)
            out.append(FlightOption(action={"kind": "air_attack", "attackers": [flight.id], "target": other.id},
                                    text=f"{R.flight_label(flight)} attacks {R.flight_label(other)}", odds=odds.as_json()))
    return out


def _cap(state: DVState, flight: Flight) -> list[FlightOption]:
    if flight.stage != "cap":
        return []
    out = [FlightOption(action={"kind": "intercept", "cap_flight": flight.id, "flight": other.id},
                        text=f"{R.flight_label(flight)} intercepts {R.flight_label(other)}")
           for other in state.flights if intercept_problem(state, flight, other) is None]
    return out + _air_attacks(state, flight)


def _aa_at(state: DVState, flight: Flight) -> list[FlightOption]:
    """AA fire at this flight by the ships it may strike (each one firing in its own defence)."""
    out: list[FlightOption] = []
    for ship in state.ships:
        left = R.aa_left(state, ship)
        if left and aa_problem(state, ship, flight, 1, frozenset(), ship.id, None) is None:
            odds = {str(p): O.flight_attack_odds(p, flight.record.quality, state.success_table).as_json()["destroyed"]
                    for p in range(1, left + 1)}
            out.append(FlightOption(action={"kind": "aa_fire", "ship": ship.id, "flight": flight.id, "points": left},
                                    text=f"{ship.label} fires AA at {R.flight_label(flight)} (up to {left} point{'s' * (left != 1)})",
                                    odds=odds))
    return out


def _landing(state: DVState, flight: Flight) -> list[FlightOption]:
    if not (flight.stage == "returning" and flight.counter == 0) and flight.stage != "cap":
        return []
    return [FlightOption(action={"kind": "land_flight", "flight": flight.id, "base": place},
                         text=f"Land {R.flight_label(flight)} on {place}") for place in R.landing_places(state, flight)]


def _launches(state: DVState, flight: Flight) -> list[FlightOption]:
    out: list[FlightOption] = []
    place = R.place_of(state, flight.base)
    extra = place is not None and R.launches_this_turn(state, flight.base) >= R.launch_allowance(place)
    cost = " (1 CP)" if extra else ""
    for cap in (False, True):
        if R.launch_problem(state, flight, cap) is None:
            action: dict[str, Any] = {"kind": "launch_flight", "flight": flight.id, "cap": cap}
            words = "as CAP" if cap else "to the attacking stage (give the range: distance or band)"
            out.append(FlightOption(action=action, text=f"Launch {R.flight_label(flight)} {words}{cost}"))
    return out


def _strike_odds(state: DVState, flight: Flight, ship_id: str) -> dict[str, str]:
    kind = flight.record.type
    if kind == "fighter":
        return {"hit": str(O.strafing_chance(state.success_table)), "minor_damage": "1"}
    armour = Armour.model_validate(state.ship(ship_id).record.armor, from_attributes=True)
    odds = O.strike_odds(kind, armour, state.success_table, state.grid_of(state.ship(ship_id)))
    hurt: Fraction = 1 - odds.damage_points.get(0, Fraction(0))
    return {"hit": str(odds.hit), "save_fail": str(odds.save_fail), "damage_point": str(hurt),
            "expected_damage_points": str(odds.expected_damage_points)}


def next_step(state: DVState) -> str:
    """The aircraft phase's next table step: resolve_attacking, resolve_returning, or end_aircraft."""
    return {"attacking": "resolve_attacking", "on_target": "resolve_returning"}.get(R.air_step(state), "end_aircraft")
