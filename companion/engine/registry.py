"""Every game system the companion plays, by id: the one list of rulesets.

It sits above the rulesets it names (as python-chess's `VARIANTS` sits after
its variants), so `ruleset.py` imports none of them.  A ruleset outside this
package (a plug-in, or a test's toy game) registers itself through the
`companion.rulesets` entry point group: `name = "module:VALUE"`, with no file
of ours edited.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from types import MappingProxyType
from typing import Any, Mapping, TypeVar

from .decisive_victory.ruleset import DECISIVE_VICTORY
from .quick_start.ruleset import QUICK_START
from .ruleset import AnyRuleset, Ruleset
from .war_fleet.ruleset import WAR_FLEET

#: the entry point group a plug-in's ruleset is registered under
ENTRY_POINTS = "companion.rulesets"


Plugged = TypeVar("Plugged")


def plugged_in(group: str, kind: type[Plugged]) -> list[Plugged]:
    """The values of `kind` other packages register under the entry point `group` (rulesets here,
    screens in app/rulesets/registry.py)."""
    found = [point.load() for point in entry_points(group=group)]
    return [value for value in found if isinstance(value, kind)]


#: every ruleset by id, built in first, then the plugged in
_BUILT_IN: tuple[AnyRuleset, ...] = (QUICK_START, WAR_FLEET, DECISIVE_VICTORY)
RULESETS: Mapping[str, AnyRuleset] = MappingProxyType(
    {ruleset.id: ruleset for ruleset in (*_BUILT_IN, *plugged_in(ENTRY_POINTS, Ruleset))})


def find_ruleset(ruleset_id: str) -> AnyRuleset:
    """The ruleset with this id; ValueError naming the known ids."""
    if ruleset_id not in RULESETS:
        raise ValueError(f"no ruleset {ruleset_id!r}: the known rulesets are {', '.join(RULESETS)}")
    return RULESETS[ruleset_id]


def ruleset_of_state(state: Any) -> AnyRuleset:
    """The ruleset whose state type `state` is (a store's new game names its rules by its state)."""
    for ruleset in RULESETS.values():
        if type(state) is ruleset.state_type:
            return ruleset
    raise ValueError(f"no ruleset plays a {type(state).__name__}")


def ruleset_for_format(tag: Any) -> AnyRuleset | None:
    """The ruleset whose scenario format is `tag` (any version: `leviathans-scenario/2` too), or None."""
    if not isinstance(tag, str) or "/" not in tag:
        return None
    family = tag.split("/", 1)[0]
    return next((r for r in RULESETS.values() if r.scenario_format.split("/", 1)[0] == family), None)
