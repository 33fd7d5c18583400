"""Decisive Victory: the aircraft phase, its actions and their handlers (spec §12, §16).

The stages are resolved one at a time, attacking first (`003:170`, [R-53]):
`resolve_attacking` (counters down, arrivals On Target), then the On Target
stage (`place_flight`, `move_flight`, `intercept`, `air_attack`, `aa_fire`,
`air_strike`, [R-55]), `resolve_returning` (counters down, `land_flight` at 0),
the landed stage (`launch_flight`), and `end_aircraft` (movement).  Rules as
answers live in air_rules.py, odds in air_odds.py, the strike's hit in air_hit.py.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..common import Flag, _Action
from ..kernel import Handler, Refusal, Work
from . import air_odds as O
from . import air_rules as R
from .command import effective_status
from .air_options import FlightOption as FlightOption, flight_options as flight_options
from .inches import Inches
from .state import Base, DVShip, DVState
from . import on_target
from .air_work import flight_of, label, put, step
from .movement import begin_movement
from ..words import counted

# --- the attacking stage (§12.2) ------------------------------------------------------------


class ResolveAttacking(_Action):
    """Decrement every attacking flight's counter; those at 0 are On Target (`003:178`)."""

    kind: Literal["resolve_attacking"] = "resolve_attacking"


def _resolve_attacking(work: Work[DVState], action: ResolveAttacking) -> None:
    step(work, "attacking", doing="the attacking stage is resolved")
    turn = work.state.turn
    for flight in work.state.flights:
        if flight.stage != "attacking" or flight.entered_stage_turn >= turn:
            continue
        counter = max(0, flight.counter - 1)
        if counter:
            put(work, flight.model_copy(update={"counter": counter}))
            work.event("flight_counter", f"{label(flight)}: {counted(counter, 'turn')} left to its target.",
                       flight=flight.id, stage="attacking", counter=counter)
            continue
        put(work, flight.model_copy(update={"stage": "on_target", "counter": 0, "entered_stage_turn": turn,
                                             "on_table": False}))
        aside = flight.record.type == "patrol_bomber"
        work.event("flight_on_target", f"{label(flight)} is On Target"
                   + (": a patrol bomber, set aside at high altitude." if aside else ": to be placed on the table."),
                   flight=flight.id, stage="on_target", placed=False)
    work.update(attacking_resolved=turn)
    work.event("air_stage", f"Turn {turn}: attacking stage resolved; On Target stage.", step="on_target")


# --- returning and landed stages (§12.4-12.5) ------------------------------------------------


class ResolveReturning(_Action):
    """Decrement the returning flights' counters, not those that came back this turn (`003:191-192`)."""

    kind: Literal["resolve_returning"] = "resolve_returning"


def _resolve_returning(work: Work[DVState], action: ResolveReturning) -> None:
    step(work, "on_target", doing="the returning stage is resolved")
    turn = work.state.turn
    for flight in work.state.flights:
        if flight.stage != "returning":
            continue
        counter = flight.counter if flight.entered_stage_turn >= turn else max(0, flight.counter - 1)
        put(work, flight.model_copy(update={"counter": counter}))
        places = R.landing_places(work.state, flight)
        work.event("flight_counter", f"{label(flight)}: " + (f"{counted(counter, 'turn')} left to its base." if counter else
                   f"back: it may land on {', '.join(places) or 'no base or carrier now'}."),
                   flight=flight.id, stage="returning", counter=counter, may_land=places if not counter else [])
    work.update(returning_resolved=turn)
    work.event("air_stage", f"Turn {turn}: returning stage resolved; flights land and launch.", step="landed")


class LandFlight(_Action):
    """Land a returned flight (counter 0), or a CAP flight, on a base or carrier (`003:192, 003:200`)."""

    kind: Literal["land_flight"] = "land_flight"
    flight: str
    base: str


def _land_flight(work: Work[DVState], action: LandFlight) -> None:
    step(work, "landed", doing="flights land")
    flight = flight_of(work, action.flight)
    if not (flight.stage == "returning" and flight.counter == 0) and flight.stage != "cap":
        work.rule(f"{label(flight)} is not back at a base (stage {flight.stage}, counter {flight.counter})")
    work.rule(R.landing_problem(work.state, flight, action.base))
    put(work, flight.model_copy(update={"stage": "landed", "base": action.base, "counter": 0, "on_table": False,
                                         "entered_stage_turn": work.state.turn, "target": None}))
    place = R.place_of(work.state, action.base)
    work.event("flight_landed", f"{label(flight)} lands on {R.place_label(place) if place else action.base}.",
               flight=flight.id, base=action.base, stage="landed")


class LaunchFlight(_Action):
    """Launch a landed flight to the attacking stage, or a fighter as CAP (`003:198`); past the
    deck's launches this turn, 1 CP each."""

    kind: Literal["launch_flight"] = "launch_flight"
    flight: str
    base: str | None = Field(default=None, description="Where it launches from: where it is landed")
    cap: Flag = False
    payer: str | None = Field(default=None, description="The ship paying 1 CP for an extra launch")
    target: str | None = None
    distance: Inches | None = Field(default=None, description="From the base or carrier to the target")
    band: O.RangeBand | None = Field(default=None, description="Or the range band, when not measured")


def _launch_flight(work: Work[DVState], action: LaunchFlight) -> None:
    step(work, "landed", doing="flights launch")
    flight = flight_of(work, action.flight)
    state = work.state
    if action.base is not None and action.base != flight.base:
        work.rule(f"{label(flight)} is at {flight.base}: it launches from there")
    work.rule(R.launch_problem(state, flight, action.cap))
    place = R.place_of(state, flight.base)
    if place is not None and R.launches_this_turn(state, flight.base) >= R.launch_allowance(place):
        _pay_extra_launch(work, place, action.payer)
    if action.cap:
        put(work, flight.model_copy(update={"stage": "cap", "on_table": True, "counter": 0, "launch_counter": 0,
                                             "entered_stage_turn": state.turn, "target": None}))
        work.event("flight_launched", f"{label(flight)} flies CAP beside {flight.base}.", flight=flight.id,
                   stage="cap", cap=True)
        return
    band = action.band or (O.range_band(action.distance, state.conditions.air_range_unit)
                           if action.distance is not None else None)
    if band is None:
        raise Refusal("a launch to the attacking stage needs the range to the target: distance or band (003:176)")
    counter = O.attacking_turns(band, flight.record.slow)
    put(work, flight.model_copy(update={"stage": "attacking", "counter": counter, "launch_counter": counter,
                                         "entered_stage_turn": state.turn, "target": action.target, "on_table": False}))
    work.event("flight_launched", f"{label(flight)} launches at {action.target or 'its target'} ({band} range"
               f"{', slow' if flight.record.slow else ''}): {counted(counter, 'turn')} in the attacking stage.",
               flight=flight.id, stage="attacking", band=band, counter=counter, target=action.target)


def _pay_extra_launch(work: Work[DVState], place: DVShip | Base, payer_id: str | None) -> None:
    """1 CP for each flight past the deck's launches this turn (`003:198`): the carrier itself or its
    side's flagship pays; for a land base, the flagship (or a ship of the side named as payer)."""
    state = work.state
    flagship = state.flagship_of(place.side)
    default = place.id if isinstance(place, DVShip) else (flagship.id if flagship else None)
    payer_id = payer_id or default
    if payer_id is None or not state.has_ship(payer_id):
        work.rule(f"{R.place_label(place)} has launched its flights this turn: an extra launch costs 1 CP; name a payer")
        return
    payer = state.ship(payer_id)
    if payer.side != place.side or not payer.in_play:
        work.rule(f"{payer.label} cannot pay for {R.place_label(place)}'s launch")
    if isinstance(place, DVShip) and payer.id != place.id:
        if not payer.flagship:
            work.rule(f"only {place.label} or its flagship can pay for its extra launch")
        elif effective_status(state, place, "Com") == "disabled":
            work.rule(f"{place.label}'s command system is disabled: its flagship cannot pay for it")
    if payer.cp < 1:
        work.rule(f"{payer.label} has {payer.cp} CP: an extra launch costs 1")
    payer = payer.model_copy(update={"cp": max(0, payer.cp - 1)})
    work.state = work.state.with_ship(payer)
    work.event("command_points", f"{payer.label} pays 1 CP for an extra launch ({payer.cp} left).", ship=payer.id,
               cp=payer.cp, spent=1, why="extra launch")


class EndAircraft(_Action):
    kind: Literal["end_aircraft"] = "end_aircraft"


def _end_aircraft(work: Work[DVState], action: EndAircraft) -> None:
    step(work, "landed", doing="the aircraft phase ends")
    begin_movement(work)


ACTIONS: tuple[type[_Action], ...] = (ResolveAttacking, *on_target.ACTIONS, ResolveReturning, LandFlight,
                                      LaunchFlight, EndAircraft)
HANDLERS: dict[str, Handler] = {
    "resolve_attacking": _resolve_attacking, **on_target.HANDLERS,
    "resolve_returning": _resolve_returning, "land_flight": _land_flight, "launch_flight": _launch_flight,
    "end_aircraft": _end_aircraft,
}