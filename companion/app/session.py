"""What one browser session sees: the route, the game, the selected ship, the tab.

One Session per browser session.  It is plain data with stable string ids,
and it round-trips through the page route (`/game/game-1?ship=hml-raven&tab=fire`,
`/warfleet/<id>` for a War Fleet game),
so a reload of the page comes back to the same game, ship and tab.  No flet
imports: the views read it and change it; it never holds controls.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

#: a screen's name in a route: the shell's screens and each ruleset's own (`GameScreens.routes`)
SCREEN_NAME = re.compile(r"[a-z][a-z0-9-]{0,39}")
TABS = ("map", "ship", "fire", "log")


@dataclass(frozen=True)
class Session:
    screen: str = "home"
    game_id: str | None = None
    ship: str | None = None
    tab: str = "map"
    message: str = ""

    @property
    def route(self) -> str:
        if self.screen == "game" and self.game_id:
            query = {k: v for k, v in (("ship", self.ship), ("tab", self.tab)) if v and v != "map"}
            path = f"/game/{quote(self.game_id, safe='')}"
            return path + ("?" + urlencode(query) if query else "")
        if self.screen in ("warfleet", "report", "replay") and self.game_id:
            return f"/{self.screen}/{quote(self.game_id, safe='')}"
        return "/" if self.screen == "home" else f"/{self.screen}"

    def with_ship(self, ship: str | None) -> "Session":
        return replace(self, ship=ship)

    def with_tab(self, tab: str) -> "Session":
        return replace(self, tab=tab if tab in TABS else "map")


def session_from_route(route: str) -> Session:
    """The session a route describes; a screen no one has goes home (the app decides, app/main.py)."""
    parts = urlsplit(route or "/")
    segments = [s for s in parts.path.split("/") if s]
    query = dict(parse_qsl(parts.query))
    if not segments:
        return Session()
    if segments[0] == "game" and len(segments) >= 2:
        tab = query.get("tab", "map")
        return Session("game", segments[1], query.get("ship") or None, tab if tab in TABS else "map")
    if segments[0] in ("warfleet", "report", "replay") and len(segments) >= 2:
        return Session(segments[0], segments[1])
    if len(segments) == 1 and SCREEN_NAME.fullmatch(segments[0]):
        return Session(segments[0])
    return Session()
