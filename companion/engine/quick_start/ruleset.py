"""`QUICK_START`: the Quick-Start rules (seed 001) as a `Ruleset` value.

Who each action belongs to lives here (it was in the app's sharing module):
a ship's moves, shots and card marks belong to the ship's side; a shot's
resolution to its attacker's side; a concession to the side conceding; the
turn's steps every player takes together (initiative, starting the game,
ending movement or the turn, the rule-check switch) belong to the table.
"""

from __future__ import annotations

from typing import Any, Iterator

from pydantic import TypeAdapter

from . import actions as A
from . import declared_turns
from . import reach as planner
from . import report as quick_start_report
from . import secret_moves
from . import unit_initiative
from .combat import firing_solutions
from .game import AFTER_OVER, HANDLERS, RULE_ERRORS, parse_action
from ..admiral.quick_start import KIT as ADMIRAL
from ..report_damage import SLOTS_AND_KEELS
from ..ruleset import Ruleset, Unmoved, attacker_side, conceding_side, ship_side, turn_candidates
from .scenario import SCENARIO_FORMAT, build_state, dump_scenario, load_scenario, scenario_of
from .state import GameState, ShipState, position_problem

#: Actions that belong to no one side: the turn's steps every player takes together.
TABLE_ACTIONS = frozenset({
    "roll_initiative", "set_initiative", "start_game", "end_movement", "end_turn", "set_bookkeeping",
    "roll_unit_initiative", "set_move_order", "set_house_rules",
})

SIDE_OF = {
    **{kind: ship_side("ship") for kind in ("step", "place", "end_move", "mark_slot", "set_keel", "record_move",
                                            "seize_initiative", "declare_turn", "cancel_turn", "move_along")},
    "declare_shot": ship_side("attacker"),
    "resolve_shot": attacker_side("shots", "shot"),
    "cancel_shot": attacker_side("shots", "shot"),
    "choose_location": attacker_side("shots", "shot", "target"),  # two_locations "target": its side picks
    "concede": conceding_side,
}

#: What a side's actions do, in words (shared play's refusals).
ACTION_WORDS = {
    "step": "move", "place": "move", "end_move": "move", "declare_shot": "fire its guns",
    "resolve_shot": "roll its shots", "cancel_shot": "cancel its shots", "mark_slot": "mark its ship card",
    "set_keel": "mark its ship card",
}

PHASES = {
    "setup": "set-up: place the ships, then start the game",
    "initiative": "roll initiative",
    "movement": "movement: ships move in order (by type, initiative loser first; by d10 under unit initiative)",
    "combat": "combat: declare and resolve shots",
    "over": "the game is over",
}


def _shots(state: GameState, ship: ShipState) -> Iterator[dict[str, Any]]:
    """Every shot a ship could declare now: each firing solution at each location it strikes (or once,
    without a location, when the target's side or a d6 picks it: table rule two_locations), and the
    locations it may pick for a shot at it still to be placed."""
    for solution in firing_solutions(state, ship.id):
        named = [s.location for s in solution.strikes] if solution.decided_by == "attacker" else [None]
        for where in named if solution.strikes else []:
            yield {"kind": "declare_shot", "attacker": ship.id, "location": solution.location,
                   "slot": solution.slot, "target": solution.target, "target_location": where}
    for shot in state.shots:  # table rule two_locations "target": the target's side picks
        if shot.target == ship.id and shot.result is None and shot.target_location is None:
            yield from ({"kind": "choose_location", "shot": shot.id, "location": loc} for loc in shot.may_strike)


#: The actions worth offering now: the turn's steps, each ship's steps and shots, each shot's roll.
_turn_candidates = turn_candidates({"setup": "start_game", "initiative": "roll_initiative", "movement": "end_movement",
                                    "combat": "end_turn"}, _shots, "shots", "resolve_shot", "shot")


def candidates(state: GameState, side: str | None) -> Iterator[dict[str, Any]]:
    """The turn's candidates, and those of the house rules in use."""
    if state.house_rules.unit_initiative:  # H1, H2: the roll per ship, seizures, sealed records
        yield from unit_initiative.candidates(state, side, _turn_candidates)
        yield from secret_moves.record_candidates(state, side)
    else:
        yield from _turn_candidates(state, side)
    yield from declared_turns.candidates(state, side)


def ends_moves(state: GameState, action: Any) -> dict[str, Unmoved]:
    """The ships of each side whose moves `end_movement` would end unmade: every ship still to move
    stays where it stands (seed 001 "Movement"), and under house rule H1 the sealed records not yet
    revealed are discarded (house-rules.md 4.4).  Shared play lets a side's device end only its own."""
    if action.get("kind") != "end_movement" or state.phase != "movement":
        return {}
    ended = {}
    for side in state.sides:
        ships = [s for s in state.active_ships if s.side == side and (not s.move_done or s.id in state.sealed_moves)]
        if ships:
            ended[side] = Unmoved(tuple(s.card.name for s in ships),
                                  tuple(s.card.name for s in ships if s.id in state.sealed_moves))
    return ended


QUICK_START: Ruleset[GameState, A.Action] = Ruleset(
    id="quick-start",
    name="Quick-Start",
    state_type=GameState,
    actions=TypeAdapter(A.Action),
    parse=parse_action,
    handlers=HANDLERS,
    after_over=AFTER_OVER,
    table_actions=TABLE_ACTIONS,
    side_of=SIDE_OF,
    phases=PHASES,
    scenario_format=SCENARIO_FORMAT,
    load_scenario=load_scenario,
    build_state=build_state,
    describe=lambda state: f"scenario, {len(state.ships)} ships on {state.board.columns} x {state.board.rows}",
    candidates=candidates,
    rule_errors=RULE_ERRORS,
    state_problem=position_problem,
    save_scenario=lambda state, name: dump_scenario(scenario_of(state, name=name)),
    readings="docs/rule-readings.md",
    view=secret_moves.view,
    rated_rolls=quick_start_report.rated_rolls,
    expected_damage=quick_start_report.expected_damage,
    ships_lost=quick_start_report.ships_lost,
    ship_name=quick_start_report.ship_name,
    ship_marks=quick_start_report.ship_marks,
    report_words=SLOTS_AND_KEELS,
    action_words=ACTION_WORDS,
    reach=planner.reach,
    trail=planner.trail,
    admiral=ADMIRAL,
    ends_moves=ends_moves,
)
