"""The Leviathans rules as a library: plain data, pure functions, no UI, no I/O.

Typical use::

    from companion.engine import parse_pool, distribution, apply, firing_solutions
"""

from .actions import Action
from .board import Board
from .cards import Card, Fleet, FormatError, load_card, load_fleet
from .combat import FiringSolution, Odds, breach_odds, firing_solutions
from .dice import Colour, Pool, PoolError, chance_at_least, distribution, parse_pool
from .game import apply
from .kernel import Applied, Event, Refused
from .hexes import Hex, PositionError, parse_facing, parse_label
from .roller import DieRoll, Roller
from .scenario import Scenario, build_state, load_scenario, scenario_of
from .state import GameState, ShipState, SlotStatus

__all__ = [
    "Action", "Applied", "Board", "Card", "Colour", "DieRoll", "Event", "FiringSolution",
    "Fleet", "FormatError", "GameState", "Hex", "Odds", "Pool", "PoolError", "PositionError",
    "Refused", "Roller", "Scenario", "ShipState", "SlotStatus", "apply", "breach_odds",
    "build_state", "chance_at_least", "distribution", "firing_solutions", "load_card",
    "load_fleet", "load_scenario", "parse_facing", "parse_label", "parse_pool", "scenario_of",
]
