"""The admiral (issue 38): the app flies one side, as orders a player carries out on the miniatures.

`search.orders(ruleset, state, side, level, seed)` gives the side's orders for
what it may do now, each an action as `act` takes it with its reason in
numbers; `duel.play` and `duel.tournament` play whole games headless.  A
ruleset the admiral can play carries its `AdmiralKit` (kit.py) on its
`Ruleset` value: Quick-Start with its house rules (quick_start.py) and War
Fleet (war_fleet.py).  Decisive Victory has no map in the app and no admiral.
"""

from .kit import AdmiralKit, Shot
from .search import LEVELS, Level, Order, find_level, orders

__all__ = ["AdmiralKit", "LEVELS", "Level", "Order", "Shot", "find_level", "orders"]
