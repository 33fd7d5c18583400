"""The rolls a system's new status calls for (spec §10.3, §15.1 rows 14-16, DV-19).

- Flight deck damaged: "roll a d6 for every aircraft flight embarked on the ship.
  On a 4+ the, flight is destroyed and roll again on the hit location table"
  (`003:114`; each loss one unmodified grid roll [R-45]).
- Torpedo system disabled: "roll a d6 for every remaining torpedo salvo. For every
  3+ apply a point of damage to the ship and roll again on the hit location table"
  (`003:122`); the salvoes are then gone.
- Turn disabled: "roll a d6 on a 2+ the ship's rudder is locked ahead ... On a 1,
  the rudder is locked to either port or starboard (determine randomly)"
  (`003:118`; side 1-3 port, 4-6 starboard [R-46]).

Each works on the ship in the state and returns the ship after and the events.
"""

from __future__ import annotations

from ..dice import Colour
from ..roller import DiceSource
from .damage import Events, die, embarked, grid_roll
from .state import DVShip, DVState


def rudder_roll(state: DVState, ship: DVShip, dice: DiceSource) -> tuple[DVState, Events]:
    roll = dice.take(Colour.D6, "dice1")
    if roll.face >= 2:
        rudder, rolled, words = "ahead", [die(roll)], f"{roll.face}: locked ahead for the rest of the game"
    else:
        side = dice.take(Colour.D6, "side")
        rudder = "port" if side.face <= 3 else "starboard"
        rolled = [die(roll), die(side)]
        words = f"1, then {side.face}: locked to {rudder}; a 45 degree turn that way whenever possible"
    ship = ship.model_copy(update={"rudder": rudder})
    return state.with_ship(ship), [("rudder", f"{ship.label}'s rudder roll {words}.",
                                    {"ship": ship.id, "dice": rolled, "rudder": rudder})]


def flight_deck_roll(state: DVState, ship: DVShip, dice: DiceSource) -> tuple[DVState, Events]:
    events: Events = []
    lost = 0
    for i, flight_id in enumerate(embarked(state, ship), start=1):
        roll = dice.take(Colour.D6, f"dice{i}")
        gone = roll.face >= 4
        events.append(("flight_deck", f"{ship.label}'s flight deck: {flight_id} rolls {roll.face}: "
                       + ("destroyed." if gone else "survives."),
                       {"ship": ship.id, "flight": flight_id, "dice": [die(roll)], "destroyed": gone}))
        if gone:
            flights = [f.model_copy(update={"stage": "destroyed"}) if f.id == flight_id else f for f in state.flights]
            state = state.model_copy(update={"flights": flights})
            lost += 1
            ship, more = grid_roll(state, state.ship(ship.id), dice, f"grid{lost}", f"flight {flight_id} lost")
            state = state.with_ship(ship)
            events.extend(more)
    return state, events


def torpedo_roll(state: DVState, ship: DVShip, dice: DiceSource) -> tuple[DVState, Events]:
    events: Events = []
    salvoes = sum(ship.salvoes_left.values())
    ship = ship.model_copy(update={"salvoes_left": {k: 0 for k in ship.salvoes_left}})
    state = state.with_ship(ship)
    hits = 0
    for i in range(1, salvoes + 1):
        roll = dice.take(Colour.D6, f"dice{i}")
        hit = roll.face >= 3
        events.append(("torpedo_system", f"{ship.label}'s torpedo salvo {i} of {salvoes} rolls {roll.face}"
                       + (": +1 damage point and a grid roll." if hit else ": no harm."),
                       {"ship": ship.id, "dice": [die(roll)], "damage_points": int(hit)}))
        if hit:
            hits += 1
            ship = state.ship(ship.id)
            ship = ship.model_copy(update={"damage_points": ship.damage_points + 1})
            ship, more = grid_roll(state, ship, dice, f"grid{hits}", f"torpedo salvo {i} exploded")
            state = state.with_ship(ship)
            events.extend(more)
    return state, events


ROLLS = {"rudder": rudder_roll, "flight_deck": flight_deck_roll, "torpedoes": torpedo_roll}


def needs(state: DVState, ship: DVShip, roll: str) -> dict[str, str]:
    """What each die of a system roll is for, in words (the table faces' `dice`, `side`, `grid`)."""
    words = {"rudder": "the rudder roll's die", "flight_deck": "the flight deck die of flight",
             "torpedoes": "the torpedo system die of salvo"}[roll]
    count = {"rudder": 1, "flight_deck": len(embarked(state, ship)), "torpedoes": sum(ship.salvoes_left.values())}[roll]
    out = {f"dice{i}": words if roll == "rudder" else f"{words} {i}" for i in range(1, max(count, 1) + 1)}
    out["side"] = "the rudder's side die (1-3 port, 4-6 starboard)"
    return out
