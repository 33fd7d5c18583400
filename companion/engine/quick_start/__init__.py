"""Quick-Start (seed 001), the core game, with the group's house rules (seed 002).

Its rules, one module a concept: `state`, `scenario`, `movement`, `combat`,
`table_play` (the struck location), `turn`, `game` (`apply`, the one door for
change), `ruleset` (the `QUICK_START` value); the house rules are variants of
it (`house_rules`, `declared_turns`, `secret_moves`, `unit_initiative`,
`location_choice`); `reach`, `advice` and `fire_plan` help players plan.
War Fleet (seed 004) builds on these modules.
"""

from .game import apply as apply
