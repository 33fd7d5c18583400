"""Decisive Victory aircraft: what every aircraft handler shares (spec §12): table faces of the
aircraft rolls, finding and replacing a flight, the stage checks, and a flight destroyed or sent
to the returning stage.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from pydantic import Field

from ..cards import StrictModel
from ..kernel import Refusal, Work
from ..common import ordered_pair, rolled_faces
from ..roller import DiceSource
from . import air_odds as O
from . import air_rules as R
from .state import DVShip, DVState, Flight
from ..words import counted

T = TypeVar("T")

class AirFaces(StrictModel):
    """Dice rolled at the table for an aircraft roll: `attack` [1st, 2nd]; the target flight's
    `answer` [1st, 2nd] (air to air); a strike's armour `save` [1st, 2nd] and `damage` dice."""

    attack: list[int] = Field(default=[], max_length=2)
    answer: list[int] = Field(default=[], max_length=2)
    save: list[int] = Field(default=[], max_length=2)
    damage: list[int] = Field(default=[], max_length=4)


_WORDS = {"attack": "the attack roll", "answer": "the target flight's attack roll", "save": "the armour save"}


def with_dice(work: Work[DVState], table: AirFaces | None, resolve: Callable[[DiceSource], T]) -> T:
    """`resolve(dice)` with the faces entered at the table or the game's roller (which moves on);
    a missing face names the die still needed; a face entered and not used is refused."""
    if table is None:
        return rolled_faces(work, None, resolve)
    faces: dict[str, list[int]] = {"damage": list(table.damage)}
    needs = {"damage": "the strike's damage dice"}
    for name, words in _WORDS.items():
        ordered_pair(faces, needs, name, getattr(table, name), words)
    return rolled_faces(work, (faces, needs), resolve, unused_refused=True)


# --- helpers ----------------------------------------------------------------------------


def flight_of(work: Work[DVState], flight_id: str) -> Flight:
    try:
        return work.state.flight(flight_id)
    except KeyError:
        raise Refusal(f"there is no flight '{flight_id}' in this game") from None


def put(work: Work[DVState], flight: Flight) -> None:
    work.update(flights=[flight if f.id == flight.id else f for f in work.state.flights])


def step(work: Work[DVState], *steps: R.AirStep, doing: str) -> None:
    work.rule(R.step_problem(work.state, *steps, doing=doing))


def label(flight: Flight) -> str:
    return R.flight_label(flight)


def to_returning(work: Work[DVState], flight: Flight, why: str) -> None:
    """Into the returning stage with its launch counter [R-57] (`003:187, 003:191`); a flight from a
    carrier unable to land in combat with no other deck or base to land on is out (`003:193`)."""
    home = R.place_of(work.state, flight.base)
    flight = flight.model_copy(update={"stage": "returning", "counter": flight.launch_counter, "on_table": False,
                                       "entered_stage_turn": work.state.turn, "target": None})
    cannot = (isinstance(home, DVShip) and home.record.flight_deck is not None
              and not home.record.flight_deck.lands_in_combat)
    if cannot and not R.landing_places(work.state, flight):
        put(work, flight.model_copy(update={"stage": "out", "counter": 0}))
        work.event("flight_out", f"{label(flight)} {why}; it has no carrier or base to land on: out of the game.",
                   flight=flight.id, stage="out")
        return
    put(work, flight)
    work.event("flight_returning", f"{label(flight)} {why}: returning stage, {counted(flight.counter, 'turn')} to its base.",
               flight=flight.id, stage="returning", counter=flight.counter)


def destroyed(work: Work[DVState], flight: Flight, why: str) -> None:
    put(work, flight.model_copy(update={"stage": "destroyed", "on_table": False, "counter": 0}))
    work.event("flight_destroyed", f"{label(flight)} is destroyed ({why}).", flight=flight.id, stage="destroyed")


def on_target_flight(work: Work[DVState], flight_id: str, doing: str) -> Flight:
    flight = flight_of(work, flight_id)
    if flight.stage != "on_target":
        work.rule(f"{label(flight)} is not On Target (stage: {flight.stage}): {doing}")
    return flight


def befall(work: Work[DVState], flight_id: str, result: O.FlightAttackResult, why: str) -> None:
    flight = work.state.flight(flight_id)
    if result == "destroyed":
        destroyed(work, flight, why)
    elif result == "driven_off":
        to_returning(work, flight, f"is driven off ({why})")

