"""Changing a game's house rules (seed 002, shared/spec/house-rules.md 2.1), and H4's one-hex flag.

The house rules are chosen when a game is created and are part of its start;
reading R-H0.1: they change later only through `set_house_rules`, accepted in
the set-up or initiative phase, never under a ship's feet in mid-movement.
H4 "one-hex ships" (house-rules.md 7) lives on each ship (`ShipState.one_hex`,
carried by its `Placement`), so combat, movement and deployment read it there:
`with_house_rules` keeps every ship's flag in step with the rules.
"""

from __future__ import annotations

from . import actions as A
from ..kernel import RefusalKind, Work
from .state import GameState, position_problem
from .table_rules import HouseRules

#: The phases in which the house rules may change (R-H0.1).
CHANGEABLE_IN = ("setup", "initiative")


def with_house_rules(state: GameState, rules: HouseRules) -> GameState:
    """The state playing `rules`, every ship one-hex exactly when H4 is on.

    Reading R-H4.4: a ship's bow hex and facing stay where they are; only the
    hexes behind the bow come or go.
    """
    settings = state.settings.model_copy(update={"house_rules": rules})
    ships = [s if s.one_hex == rules.one_hex_ships else s.model_copy(update={"one_hex": rules.one_hex_ships})
             for s in state.ships]
    return state.model_copy(update={"settings": settings, "ships": ships})


def set_house_rules(work: Work[GameState], action: A.SetHouseRules) -> None:
    """R-H0.1: set-up or initiative only; a ship that would stand off the board or on another
    (H4 switched off behind a bow) is a rule objection, as a placement would be."""
    phase = work.state.phase
    work.rule(None if phase in CHANGEABLE_IN else
              f"house rules change only in set-up or before initiative is rolled (now: {phase})", RefusalKind.PHASE)
    state = with_house_rules(work.state, action.house_rules)
    work.rule(position_problem(state))
    work.state = state
    names = action.house_rules.names
    work.event("house_rules", f"House rules now in use: {', '.join(names)}." if names
               else "No house rules in use: the Quick-Start rules as printed.",
               house_rules=names)
