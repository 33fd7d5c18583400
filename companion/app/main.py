"""The Flet app: one `App` per browser session, over a store injected at start.

`create_app(store)` returns the `main(page)` coroutine Flet calls for every
new browser session.  Handlers are async; engine and store work runs in a
worker thread (`asyncio.to_thread`) so one session's tap never freezes
another's.  Every change to a game goes through `Game.act`, and the game's
listeners refresh every session showing it.  A game shows in `views.frame.GameFrame` with its
ruleset's body, or on the shared screen (its `GameScreens`, app/rulesets/registry.py).
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import flet as ft

from ..engine.cards import Card
from ..engine.names import game_name
from ..engine.game_start import start_problem
from ..engine.registry import ruleset_of_state
from .roles import RULE_CHECKS_OFF, rule_checks_note
from ..store.game import GameState
from ..store.library import catalogue_loader, library_for
from . import server
from .client_calls import ask
from .rulesets.registry import route, screens_for
from .session import Session, session_from_route
from .sharing import Sharing
from .tasks import run_soon, soon
from .views import dice, editor, fleets, follow, home, info, join
from .views.frame import GameFrame
from .views.join import identify, stop_following
from .views.widgets import notice
from .palettes import DEFAULT, PALETTES
from .theme import FONTS, apply_theme
from ..messages import without_paths

if TYPE_CHECKING:
    from .devices import Device
    from .views.screen import ScreenView

log = logging.getLogger(__name__)

PHONE_WIDTH = 900  # below this: one panel at a time with bottom navigation
THEME_KEY = "leviathans.theme"  # the browser's stored palette name


class App:
    """Everything one browser session sees and does."""

    def __init__(self, page: ft.Page, store, catalogue: Callable[[], dict[str, Card]], seed: str | None, sharing):
        self.page = page
        self.sharing = sharing  # one hub per server: the PIN, the devices, the tables
        self.device: Device | None = None  # this browser, once `start` has identified it
        self.role = None  # its role in the game shown
        self.store = store
        self._catalogue_loader = catalogue
        self._catalogue: dict[str, Card] | None = None
        self.seed = seed
        self.session = Session()
        self.game = None
        self._unlisten: Callable[[], None] | None = None
        self.table: GameFrame | ScreenView | None = None  # the game's view while a game is shown, or the shared screen
        self.body = ft.Container(expand=True)
        self.theme_name = DEFAULT  # this device's palette (palettes.py), kept in the browser: THEME_KEY
        self._stop_offers: Callable[[], None] | None = None
        self.closed = False  # Flet let the session go (`_on_close`): nothing listens for it again
        self.offer_again: Callable[[], object] | None = None  # the host's offer shown again (follow.watch)

    # --- start and routing ------------------------------------------------------

    async def start(self) -> None:
        page = self.page
        page.title = "Leviathans companion"
        apply_theme(page, self.theme_name)
        page.fonts = dict(FONTS)
        page.padding = 0
        page.spacing = 0
        page.on_route_change = self._on_route_change
        page.on_resize = self._on_resize
        page.on_disconnect = self._on_disconnect
        page.on_connect = self._on_connect
        page.on_close = self._on_close
        page.add(self.body)
        self.device = await identify(self)
        server.observed_device(page, self.device.token)  # its sockets share one budget (issue 36)
        await self._remembered_theme()
        await self.show(session_from_route(page.route))
        self._stop_offers = follow.watch(self)  # the host's new games offered here (issue 28)
        if self.closed:  # the browser left while this first screen was built: let the hub go too
            self._stop_offers()

    async def _on_route_change(self, e) -> None:
        wanted = session_from_route(self.page.route)
        if wanted.route != self.session.route:
            await self.show(wanted)

    async def navigate(self, session: Session) -> None:
        """Put a session in the address bar, then show it: the address goes first, so a reload while a
        busy server builds the screen returns to it (issue 28: it lagged the screen by seconds)."""
        before = self.session
        if self.page.route != session.route:
            self.page.route = session.route
            self.session = session  # the route change the browser reports back is this one: not shown twice
            soon(self.page, self._push_route, session.route)
        await self.show(session, before)

    async def _push_route(self, route: str) -> None:
        """The browser's address: a convenience, so a browser slow to answer only leaves it behind."""
        try:
            await self.page.push_route(route)
        except (TimeoutError, RuntimeError) as exc:
            log.warning("the address bar of a device was not moved to %s: %s", route, exc)

    async def show(self, session: Session, before: Session | None = None) -> None:
        before = before or self.session
        same_game = (self.table is not None and session.screen == "game"
                     and before.screen == "game" and session.game_id == before.game_id)
        self.session = session
        if same_game and self.table is not None:
            await self.table.follow_session()
            return
        self._leave_game()
        assert self.device is not None  # `start` identified it before showing anything
        if not self.device.may_enter:  # a device on the network: the join PIN first
            self._set_screen(join.pin_screen(self))
            return
        if session.screen == "warfleet" and session.game_id:  # an old address: every game is /game/<id> now
            await self.navigate(Session("game", session.game_id))
            return
        if session.screen == "game":
            game = await self._open_game(session.game_id)
            if self.closed:  # the browser left while the game was read: nothing to show it on
                return
            if game is None:
                self.session = Session(message=f"There is no saved game '{session.game_id}'.")
                self._set_screen(home.build(self))
                return
            role = self.sharing.role(self.device, game.id)
            if role is None:  # a side or the shared screen first
                self._set_screen(join.role_screen(self, game))
                return
            self.role = role
            try:
                screens = screens_for(game.ruleset)
            except ValueError as problem:  # rules the store plays but this app has no screens for
                self.session = Session(message=f"'{game.name}' cannot be shown here: {problem}.")
                self._set_screen(home.build(self))
                return
            body = screens.body
            if role.read_only and body.SHARED_SCREEN:
                shared = self.table = screens.screen_view(self, game)  # its own TV view
                self._set_screen(shared.control)
                await shared.refresh(force=True)
            else:  # the ruleset's body in the one frame, under the role bar, drawn before its first paint
                table = self.table = GameFrame(self, game, body, read_only=role.read_only)
                await table.refresh(force=True)
                if self.table is table:  # a tap meanwhile opened another screen (a double tap on Home): it stays
                    self._set_screen(join.framed(self, game, table.control))
            return
        builders = {"home": home.build, "dice": dice.build, "fleets": fleets.build, "editor": editor.build,
                    "rules": info.build_rules, "load": info.build_load, "report": on_first_use("report"), "replay": on_first_use("replay")}
        builder = builders.get(session.screen) or route(session.screen)
        if builder is None:  # no screen of that name (an old or mistyped address): Home
            self.session, builder = Session(), home.build
        self._set_screen(builder(self))

    def _set_screen(self, control: ft.Control) -> None:
        self.body.content = control
        self.page.update()

    # --- games ---------------------------------------------------------------------

    async def _open_game(self, game_id: str | None):
        if not game_id:
            return None
        try:
            game = await asyncio.to_thread(self.store.game, game_id)
        except KeyError:
            return None
        if self.closed:  # the session closed while the game was read: no listener for it
            return None
        if self._unlisten:  # another screen opened meanwhile (a side chosen as the game was read): one listener
            self._unlisten()
        self.game = game
        self._unlisten = self.sharing.table(game).subscribe(self._heard)
        self.sharing.showing(self.device, game.id)
        return game

    def _leave_game(self) -> None:
        if self._unlisten:
            self._unlisten()
        self._unlisten = None
        if self.game is not None and self.device is not None:
            self.sharing.showing(self.device, None)
        self.game = None
        self.table = None

    def _heard(self, change) -> None:
        """A change to the shown game (or to who holds which side), from any session (any thread)."""
        table = self.table
        if table is not None:  # away or gone: it refreshes when it reconnects
            note = rule_checks_note(getattr(table, "state", None), table.game.state) if change.kind == "game" else None
            if note:  # every screen says so when the rule checks go off or on (issue 25 part 8)
                table.message(note, info=note != RULE_CHECKS_OFF)  # off: it stays until the next tap
            ended = self.sharing.table(table.game).note_of(change.entry) if change.kind == "game" else None
            if ended:  # the host ended movement for a side still moving (issue 35): it stays until a tap
                table.tell(ended)
            run_soon(self.page, self._seats_changed if change.kind == "seats" else table.refresh)

    async def _seats_changed(self) -> None:
        """The host handed this device another role: show the game as that role now."""
        if self.game is None or self.table is None:
            return
        if self.sharing.role(self.device, self.game.id) != self.role:
            self.table = None
            await self.show(self.session)

    async def create_game(self, state: GameState, name: str) -> str | None:
        """Save a new game and open it; the reason in plain words if it was not started (only the
        host starts games; a full disk or an unusable data folder is said, nothing half-written)."""
        problem = self.sharing.may_start(self.device) if self.device is not None else None
        name, too_long = game_name(name)  # no control or bidi characters (issue 25 part 8)
        problem = problem or (f"{too_long}: shorten it." if too_long else None)
        started = start_problem(state, ruleset_of_state(state))  # new's checks: sides that differ to the eye (issue 36)
        problem = problem or (f"{started[1]}." if started else None)
        if problem is None:
            try:
                game = await asyncio.to_thread(self.store.new_game, state, name)
            except (OSError, ValueError) as exc:  # StoreError is a ValueError
                log.warning("game not saved: %s", exc)  # the host's terminal: the whole reason, paths too
                problem = f"The game could not be saved, so it was not started: {without_paths(str(exc))}"
        if problem is not None:
            log.warning("game not started for %s: %s", getattr(self.device, "name", "?"), problem)
            notice(self.page, "Not started", problem)
            return problem
        if self.device is not None:
            self.sharing.host_started(self.device, game)  # the other devices are offered it (issue 28)
        await self.navigate(Session("game", game.id))
        return None

    def card_library(self):
        """The player's card library, for changing it: only the host's device gets it (issue 11),
        decided here on the server from the device record, whatever the screen showed;
        PermissionError with the reason in plain words for any other."""
        problem = self.sharing.may_edit_cards(self.device) if self.device is not None else None
        if problem is not None:
            log.warning("card library refused to %s", getattr(self.device, "name", "?"))
            raise PermissionError(problem)
        return library_for(self.store)

    async def catalogue(self) -> dict[str, Card]:
        """The cards to play with, read each time: another session may have saved a card of the
        player's (the loader re-reads files only when they changed)."""
        try:
            self._catalogue = await asyncio.to_thread(self._catalogue_loader)
        except ValueError as exc:  # a broken fleet file: say so, keep going
            log.warning("fleets: %s", exc)
            self._catalogue = self._catalogue or {}
        return self._catalogue

    # --- page events -------------------------------------------------------------------

    @property
    def wide(self) -> bool:
        return (self.page.width or 0) >= PHONE_WIDTH

    async def _on_resize(self, e) -> None:
        if self.table is not None:
            await self.table.relayout()

    async def _on_disconnect(self, e) -> None:
        """The browser went away (a phone asleep, the network lost): keep the game, it may come back."""
        if self.device is not None:
            self.sharing.disconnect(self.device)

    async def _on_connect(self, e) -> None:
        """The same browser session is back (Flet web reconnects): show the game as it is now."""
        if self.device is not None:
            self.sharing.reconnect(self.device)
        if self.table is not None:
            await self.table.refresh(force=True)
        if self.offer_again is not None:  # a reload reconnects the session but shows no dialog: the offer again
            self.offer_again()

    async def _on_close(self, e) -> None:
        """The session expired: let the game go, and every listener of its screens (issue 36: a
        listener left on the game's table kept the whole screen of every device that had left)."""
        self.closed = True
        self._leave_game()
        if self._stop_offers is not None:
            self._stop_offers()
        stop_following(self)

    # --- theme (issue 18): light, dark or high contrast, chosen per device ---------------------------

    async def set_theme(self, name: str) -> None:
        """Show every screen of this device in a palette at once (the screen shown is built again in
        it), and keep the choice in this browser, so a reload opens in it."""
        if name not in PALETTES:
            return
        self.theme_name = name
        apply_theme(self.page, name)
        if self.table is not None:
            self._leave_game()
        await self.show(self.session)
        # no storage in this browser: the choice lasts the session
        await ask("keep the theme", lambda: ft.SharedPreferences().set(THEME_KEY, name))

    async def _remembered_theme(self) -> None:
        """The palette this browser chose before; until it chooses, dark where the device is set dark."""
        name = await ask("read the theme", lambda: ft.SharedPreferences().get(THEME_KEY), default=())
        if name == ():  # not read: this session keeps the light palette
            return
        if name is None and self.page.platform_brightness == ft.Brightness.DARK:
            name = "dark"
        if isinstance(name, str) and name in PALETTES and name != self.theme_name:
            self.theme_name = name
            apply_theme(self.page, name)


def create_app(store, catalogue: Callable[[], dict[str, Card]] | None = None, seed: str | None = None,
               sharing=None):
    """The Flet `main` for a store; `seed` fixes the dice of new games (tests); `sharing` is the
    hub every session of this server shares (a fresh one, with a fresh PIN, if not given)."""
    sharing = sharing or Sharing()
    if catalogue is None:  # the shipped fleets and the player's library beside the store's games
        catalogue = catalogue_loader(store)

    async def main(page: ft.Page) -> None:
        app = App(page, store, catalogue, seed, sharing)
        await app.start()

    return main


def serve(store, host: str | None, port: int, open_browser: bool, assets_dir: str | None = None,
          sharing=None) -> None:
    """Serve the web app (no CDN: works with no internet) until interrupted, through our guard in front
    of Flet's web server (`server.py`: the host by the socket's own peer address, the app's own origins
    only, a budget per connection, plain crash messages)."""
    seed = os.environ.get("COMPANION_SEED") or None
    sharing = sharing or Sharing()
    server.run(create_app(store, seed=seed, sharing=sharing), host=host, port=port, open_browser=open_browser,
               join_address=sharing.address, assets_dir=assets_dir or _assets_dir())


def _assets_dir() -> str:
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "assets", here.parent / "assets"):
        if candidate.is_dir():
            return str(candidate)
    return str(here.parent / "assets")


def on_first_use(view: str):
    """A screen builder that imports its view on first use: the report (and flet-charts) and the replay
    are not imported to open the app (issue 37: start-up imports what Home needs)."""
    def build(app) -> ft.Control:
        return importlib.import_module(f"{__package__}.views.{view}").build(app)
    return build
