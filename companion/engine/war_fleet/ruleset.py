"""`WAR_FLEET`: Leviathans: War Fleet (seed 004) as a `Ruleset` value.

Who each action belongs to: a ship's placement, moves, attacks and card
marks belong to the ship's side; an attack's roll or cancellation to its
attacker's side; a concession to the side conceding.  The turn's steps every
player takes together belong to the table: the placement and initiative
rolls (and entering who won them), ending a group's move, movement, combat
and the turn, pocket battles (they take ships of both sides), and the
rule-check switch (docs/rule-readings.md, War Fleet).
"""

from __future__ import annotations

from typing import Any, Iterator

from pydantic import TypeAdapter

from ..admiral.war_fleet import KIT as ADMIRAL
from ..report_damage import SLOTS_AND_KEELS
from ..ruleset import Ruleset, Unmoved, attacker_side, conceding_side, ship_side, turn_candidates
from . import actions as A, reach as planner, report
from .combat import attack_options
from .game import AFTER_OVER, HANDLERS, RULE_ERRORS, parse_action
from .scenario import (
    WARFLEET_SCENARIO_FORMAT, build_warfleet_state, dump_warfleet_scenario, load_warfleet_scenario, scenario_of,
    summary,
)
from .state import RULESET, WarFleetState, WarShip
from .turn import movers, to_move

TABLE_ACTIONS = frozenset({
    "roll_placement", "set_placement_first", "roll_initiative", "set_initiative", "end_group",
    "end_movement", "open_pocket", "resolve_pocket", "end_combat", "end_turn", "set_bookkeeping",
})


SIDE_OF = {
    **{kind: ship_side("ship") for kind in
       ("place", "step", "pivot", "end_move", "mark_location", "set_stats", "set_casualty", "move_along")},
    "declare_attack": ship_side("attacker"),
    "cancel_attack": attacker_side("attacks", "attack"),
    "roll_attack": attacker_side("attacks", "attack"),
    "concede": conceding_side,
}

#: What a side's actions do, in words (shared play's refusals).
ACTION_WORDS = {
    "step": "move", "place": "move", "end_move": "move", "pivot": "move", "declare_attack": "fire its guns",
    "roll_attack": "roll its attacks", "cancel_attack": "cancel its attacks", "mark_location": "mark its ship card",
    "set_stats": "change its stats", "set_casualty": "mark its ship card",
}

PHASES = {
    "setup": "set-up: roll for placement, then place the ships by class",
    "initiative": "roll initiative",
    "movement": "movement: ships move by class, initiative loser first",
    "combat": "combat: declare and roll attacks",
    "end": "end of the turn",
    "over": "the game is over",
}


def _attacks(state: WarFleetState, ship: WarShip) -> Iterator[dict[str, Any]]:
    """Every single-location attack a ship could declare now, at each location it strikes."""
    for option in attack_options(state, ship.id, brackets=False):
        for strike in option.strikes:
            yield {"kind": "declare_attack", "attacker": ship.id, "locations": list(option.locations),
                   "target": option.target, "target_location": strike.location}


#: The actions worth offering now: the turn's steps, each ship's moves and attacks, each attack's roll.
candidates = turn_candidates({"setup": "roll_placement", "initiative": "roll_initiative", "movement": "end_group",
                              "combat": "end_combat", "end": "end_turn"}, _attacks, "attacks", "roll_attack",
                             "attack")


def ends_moves(state: WarFleetState, action: Any) -> dict[str, Unmoved]:
    """The ships of each side whose moves a table action would end unmade (they stay where they
    are): every ship still to move for `end_movement`, the moving group's for `end_group` (seed 004
    "Movement").  Shared play lets a side's device end only its own side's moves."""
    kind = action.get("kind")
    if kind not in ("end_movement", "end_group") or state.phase != "movement":
        return {}
    group = to_move(state)
    ships = [s for s in movers(state) if not s.move_done
             and (kind == "end_movement" or (s.side, s.ship_class) == group)]
    return {side: Unmoved(tuple(s.name for s in ships if s.side == side))
            for side in state.sides if any(s.side == side for s in ships)}


WAR_FLEET: Ruleset[WarFleetState, A.WarFleetAction] = Ruleset(
    id=RULESET,
    name="War Fleet",
    state_type=WarFleetState,
    actions=TypeAdapter(A.WarFleetAction),
    parse=parse_action,
    handlers=HANDLERS,
    after_over=AFTER_OVER,
    table_actions=TABLE_ACTIONS,
    side_of=SIDE_OF,
    phases=PHASES,
    scenario_format=WARFLEET_SCENARIO_FORMAT,
    load_scenario=load_warfleet_scenario,
    build_state=build_warfleet_state,
    describe=summary,
    candidates=candidates,
    rule_errors=RULE_ERRORS,
    save_scenario=lambda state, name: dump_warfleet_scenario(scenario_of(state, name=name)),
    readings="docs/rule-readings.md",
    rated_rolls=report.rated_rolls,
    expected_damage=report.expected_damage,
    ships_lost=report.ships_lost,
    report_words=SLOTS_AND_KEELS,
    ship_name=lambda ship: str(ship.name),
    ship_marks=report.ship_marks,
    action_words=ACTION_WORDS,
    reach=planner.reach,
    trail=planner.trail,
    admiral=ADMIRAL,
    ends_moves=ends_moves,
)
