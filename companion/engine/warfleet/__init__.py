"""Leviathans: War Fleet (seeds 004 and 000), the fleet-scale ruleset, on the same engine.

One hex per ship, one die per location.  Plain data and pure functions like
the Quick-Start engine: `convert_card` turns a Quick-Start card into War Fleet
stats, `apply(state, action)` is the one door for change of a War Fleet game,
`attack_options` lists every attack with exact odds, and `pocket` moves a
group of ships to a Quick-Start battle and back.
"""

from .combat import AttackOdds, AttackOption, all_attack_options, attack_option, attack_options
from .convert import convert_card
from .game import Applied, Event, Refused, apply
from .scenario import (
    WARFLEET_SCENARIO_FORMAT, WarFleetScenario, build_warfleet_state, load_warfleet_scenario, scenario_of,
)
from .state import WarFleetState, WarShip
from .stats import AttackStat, LocationStats, WarFleetStats, load_stats

__all__ = [
    "Applied", "AttackOdds", "AttackOption", "AttackStat", "Event", "LocationStats", "Refused",
    "WARFLEET_SCENARIO_FORMAT", "WarFleetScenario", "WarFleetState", "WarFleetStats", "WarShip",
    "all_attack_options", "apply", "attack_option", "attack_options", "build_warfleet_state",
    "convert_card", "load_stats", "load_warfleet_scenario", "scenario_of",
]
