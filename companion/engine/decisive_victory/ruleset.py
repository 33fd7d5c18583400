"""Decisive Victory (seed 003) as a `Ruleset` value: what the store, shared play, the app and the CLI
need of it (spec §16, ruleset-design.md).  The handlers come from game.py, so every module it
composes (turn, attacks, maintenance, aircraft, by hand) joins without an edit here.
"""

from __future__ import annotations

from typing import Any, Mapping

from pydantic import TypeAdapter

from ..roller import Roller
from ..ruleset import Ruleset, SideOf, Unmoved, conceding_side, ship_side
from . import game, report
from .candidates import candidates
from .records import ShipRecord
from .scenario import SCENARIO_FORMAT, DVScenario, build_dv_state, dump_dv_scenario, load_dv_scenario, scenario_of, summary
from .state import RULESET, DVState

#: The turn's steps, taken by the table rather than one side.
TABLE_ACTIONS = frozenset({
    "start_game", "end_command", "roll_initiative", "set_initiative", "resolve_attacking", "resolve_returning",
    "end_aircraft", "end_movement", "end_activation", "end_attacks", "drift_smoke", "end_turn", "set_bookkeeping",
})


def _attack_side(data: Mapping[str, Any], state: Any) -> str | None:
    """`roll_attack`: the side of the declared attack's ship."""
    attack = next((a for a in state.attacks if a.id == data.get("attack")), None)
    return ship_side("ship")({"ship": attack.ship}, state) if attack is not None else None


def _flight_side(data: Mapping[str, Any], state: Any) -> str | None:
    """The side of the flight an aircraft action names (`flight`, or the first of `attackers`, or `cap_flight`)."""
    attackers = data.get("attackers")
    named = data.get("flight") or data.get("cap_flight") or (attackers[0] if isinstance(attackers, list) and attackers else None)
    flight = next((f for f in state.flights if f.id == named), None)
    return flight.side if flight is not None else None


def _shell_side(data: Mapping[str, Any], state: Any) -> str | None:
    """`illuminate`: the side of the ship whose star shell lit the ships (the last fired)."""
    shells = state.star_shells
    return ship_side("ship")({"ship": shells[-1].ship}, state) if shells else None


SIDE_OF: dict[str, SideOf] = {
    **{kind: ship_side("ship") for kind in (
        "use_ability", "set_speed", "move", "end_move", "searchlight", "star_shell", "radar_roll",
        "declare_attack", "aa_fire", "maintenance_roll", "trade_damage", "pay_abandon", "abandon",
        "mark_box", "set_damage", "set_minor", "set_rudder", "remove_ship", "close_action")},
    "illuminate": _shell_side,
    "roll_attack": _attack_side,
    **{kind: _flight_side for kind in ("air_attack", "air_strike", "launch_flight", "land_flight", "move_flight",
                                       "place_flight", "intercept")},
    "concede": conceding_side,
}

#: What a side's actions do, in words (shared play's refusals).
ACTION_WORDS = {
    "move": "move", "set_speed": "move", "end_move": "move", "declare_attack": "fire its guns",
    "roll_attack": "roll its attacks", "mark_box": "mark its ship record",
}

PHASES = {
    "setup": "set-up: the ships are placed at the table",
    "command": "command: declare abilities and pay their command points",
    "initiative": "initiative: each side rolls 1d6 + its best command score",
    "aircraft": "aircraft: flights move, fight and strike",
    "movement": "movement: ships move in batches, initiative loser first",
    "attacks": "attacks: ships fire in batches, initiative winner first",
    "maintenance": "maintenance: damage, repairs and the end of the turn",
    "over": "the game is over",
}

def build_state(scenario: DVScenario, catalogue: Mapping[str, Any] | None = None, roller: Roller | None = None) -> DVState:
    """A game at the scenario's position; the catalogue's Decisive Victory records join the scenario's
    (a Leviathans catalogue of cards adds nothing)."""
    records = {k: v for k, v in (catalogue or {}).items() if isinstance(v, ShipRecord)}
    return build_dv_state(scenario, records, roller=roller)


def ends_moves(state: DVState, action: Any) -> dict[str, Unmoved]:
    """The ships of each side whose moves `end_movement` would end unmade: every ship in play still
    to move ends its move where it stands (`_end_movement`, `003:45`).  Shared play lets a side's
    device end only its own side's moves."""
    if action.get("kind") != "end_movement" or state.phase != "movement":
        return {}
    ships = [s for s in state.ships if s.in_play and not s.move_done]
    return {side: Unmoved(tuple(str(s.label) for s in ships if s.side == side))
            for side in state.sides if any(s.side == side for s in ships)}


DECISIVE_VICTORY: Ruleset[DVState, game.DVAction] = Ruleset(
    id=RULESET,
    name="Decisive Victory",
    state_type=DVState,
    actions=TypeAdapter(game.DVAction),
    parse=game.parse_action,
    handlers=game.HANDLERS,
    after_over=game.AFTER_OVER,
    table_actions=TABLE_ACTIONS,
    side_of=SIDE_OF,
    phases=PHASES,
    scenario_format=SCENARIO_FORMAT,
    load_scenario=load_dv_scenario,
    build_state=build_state,
    describe=summary,
    candidates=candidates,
    rule_errors=game.RULE_ERRORS,
    save_scenario=lambda state, name: dump_dv_scenario(scenario_of(state, name=name)),
    readings="docs/rule-readings.md",
    rated_rolls=report.rated_rolls,
    expected_damage=report.expected_damage,
    ships_lost=report.ships_lost,
    ship_name=lambda ship: str(ship.label),
    ship_marks=report.ship_marks,
    report_words=report.WORDS,
    action_words=ACTION_WORDS,
    ends_moves=ends_moves,
)
