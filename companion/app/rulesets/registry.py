"""Every ruleset's screens by id: the app's registry, as `engine/registry.py` is the rules'.

A ruleset outside this package (a plug-in, a test's toy game) registers its
`GameScreens` under the `companion.screens` entry point group, with no file of
ours edited.  There is no default: a game whose ruleset has no screens gets a
plain message, never another ruleset's screens.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from ...engine.registry import plugged_in
from ...engine.ruleset import Ruleset
from . import Builder, GameScreens, StartTile
from .decisive_victory.screens import SCREENS as DECISIVE_VICTORY_SCREENS
from .quick_start.screens import SCREENS as QUICK_START_SCREENS
from .war_fleet.screens import SCREENS as WAR_FLEET_SCREENS

#: the entry point group a plug-in's screens are registered under
ENTRY_POINTS = "companion.screens"


#: every ruleset's screens by its id, built in first, then the plugged in
SCREENS: Mapping[str, GameScreens] = MappingProxyType({screens.ruleset_id: screens for screens in (
    QUICK_START_SCREENS, WAR_FLEET_SCREENS, DECISIVE_VICTORY_SCREENS, *plugged_in(ENTRY_POINTS, GameScreens))})


def find_screens(ruleset_id: str) -> GameScreens:
    """The screens of the ruleset with this id; ValueError naming the known ids."""
    if ruleset_id not in SCREENS:
        raise ValueError(f"no screens for the ruleset {ruleset_id!r}: the app has screens for {', '.join(SCREENS)}")
    return SCREENS[ruleset_id]


def screens_for(ruleset: Ruleset) -> GameScreens:
    """A game's screens: its ruleset's own, else (a house-rule variant) those of the ruleset it varies."""
    if ruleset.id not in SCREENS and ruleset.variant_of is not None:
        return find_screens(ruleset.variant_of)
    return find_screens(ruleset.id)


def route(screen: str) -> Builder | None:
    """The builder of a screen only one ruleset has (`/new`, `/warfleet`, `/dv-editor`), or None."""
    return next((screens.routes[screen] for screens in SCREENS.values() if screen in screens.routes), None)


def start_tiles() -> list[StartTile]:
    """Every ruleset's ways to start a game on Home, in the registry's order."""
    return [tile for screens in SCREENS.values() for tile in screens.start_tiles]
