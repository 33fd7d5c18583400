"""Leviathans: War Fleet (seeds 004 and 000), the fleet-scale ruleset, on the same engine.

One hex per ship, one die per location.  Plain data and pure functions like
the Quick-Start engine: `convert_card` (convert.py) turns a Quick-Start card
into War Fleet stats, `apply(state, action)` (game.py, also here) is the one
door for change of a War Fleet game, `attack_options` (combat.py) lists every
attack with exact odds, and pocket.py moves a group of ships to a Quick-Start
battle and back.
"""

from .game import apply as apply
