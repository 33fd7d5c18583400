"""Each game system's screens, one folder a ruleset, beside its rules in `engine/<id>/`.

`quick_start/`, `war_fleet/` and `decisive_victory/` hold a ruleset's view
models and views; each folder's `screens.py` holds its `GameScreens` value:
what the shared app asks of a ruleset instead of "which ruleset are you?"
(its game body, its shared-screen view, its phase words, its icon and start
tiles on Home, its replay drawer, its own routes).  `registry.py` finds them
by id, as `engine/registry.py` finds the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Mapping, Protocol

#: (app) -> the control of a screen (a route's builder)
Builder = Callable[[Any], Any]


@dataclass(frozen=True)
class StartTile:
    """A way to start or open this ruleset's games on Home (the host's device only)."""

    ident: str  # the tile's identifier in the semantics tree
    icon: Any  # an ft.Icons member
    title: str
    subtitle: str
    start: Callable[[Any], Awaitable[None]]  # (app) -> starts a game or opens a screen
    featured: bool = False  # drawn as Home's banner (the Quick-Start battle)


class ReplayDrawer(Protocol):
    """Draws one position of a replay (views/replay.py) in this ruleset's way."""

    has_map: bool  # False: played on an open table, the ship cards alone
    ring: bool  # the map's ring of hexes around a ship (Quick-Start's footprints)
    note: str  # a line above the step's cards (why there is no map)

    async def draw(self, view: Any, state: Any) -> None:
        """Fill the view's map, headline, ships lost and ship cards for `state`."""

    def cells_of(self, ship: Any) -> list[Any]:
        """The hexes a ship stands in (none off the map)."""

    def cells(self, state: Any) -> list[Any]:
        """The hexes a position's ships in play stand in (the map zooms to them)."""


@dataclass(frozen=True)
class GameScreens:
    """One ruleset's screens: what the shell, Home, the game frame and the replay draw for its games."""

    ruleset_id: str
    body: type[Any]  # the game frame's body class (views/frame.py; the shell reads SHARED_SCREEN of it)
    screen_view: Callable[[Any, Any], Any]  # (app, game) -> the shared screen's view (a TV across the table)
    phases: Mapping[str, str]  # each phase in the players' words
    icon: Any  # a saved game's icon on Home (an ft.Icons member)
    resume_tag: str  # the identifier prefix of a saved game's tile on Home
    replay: ReplayDrawer
    start_tiles: tuple[StartTile, ...] = ()
    routes: Mapping[str, Builder] = field(default_factory=dict)  # screens only this ruleset has (`/new`, ...)
