"""One shell for a game of any ruleset: the top bar, the banner, the note, the tabs, the layout for
the width, and the work done off the event loop.  A ruleset's body (`table.QuickStartBody`,
`warfleet.WarFleetBody`) supplies only what differs.

A body is built as `Body(frame)` and gives:

- `PREFIX`: put before the frame's identifiers ("" for Quick-Start: `banner`, `note`, `undo`,
  `tab-ship`; "wf-" for War Fleet: `wf-banner`, `wf-note`, `wf-undo`, `wf-tab-ship`);
- `map` (a `HexMap`), `tab` (the tab shown) and `go_tab(key)`, `tabs()` (key, icon, selected
  icon, label; a phone adds the map), `top_actions()` (beside undo and redo);
- `compute(state)`: the models for a state, run in a worker thread; `banner(models)`: title,
  detail, ship chips and action buttons; `render(models)`: draws the map, returns the map's
  controls that changed; `panel(models)`: the tab's controls; `strip(models)`: what a phone's
  map tab shows under the map, or None; `sent()`: after the update.
"""

from __future__ import annotations

import asyncio
from typing import Any

import flet as ft

from ..client_calls import ask
from ..session import Session
from ..player_words import spoken
from ..sharing import Sight
from ..tasks import soon
from .settings import theme_button
from .widgets import TOUCH, icon_button, inner, mounted, muted, nav_button, put, tab_button, tag, update_shown

PANEL_WIDTH = 460
NOTE_SECONDS = 4  # an answer (kept in the log) fades after this; a refusal stays until the next tap
MAP_TAB = ("map", ft.Icons.MAP_OUTLINED, ft.Icons.MAP, "Map")


def on(handler, *args, **kwargs):
    """An event handler that awaits `handler(*args, **kwargs)` (what a tap does, bound to what it is on)."""
    async def handle(e) -> None:
        await handler(*args, **kwargs)
    return handle


class GameFrame:
    """The screen of one game: `App.table` while it shows (App calls refresh, message, relayout
    and follow_session; a new theme builds the screen again: `App.set_theme`)."""

    def __init__(self, app, game, body_class, read_only: bool = False):
        self.app, self.game, self.read_only = app, game, read_only  # read_only: the shared screen
        self.models = None
        self.state = None
        self.sight = Sight()  # where this screen saw the game: a change from elsewhere is refused
        self._note: tuple[str, bool] | None = None
        self._told: tuple[str, bool] | None = None  # the last note every screen was told (`tell`)
        self._note_shown: tuple[str, bool] | None = None
        self._lock = asyncio.Lock()
        self.body = body = body_class(self)
        p = body.PREFIX
        self.banner_title = ft.Text("", size=17, weight=ft.FontWeight.BOLD)
        self.banner_detail = ft.Text("", size=13)
        self.banner_actions = ft.Row(spacing=8, wrap=True, run_spacing=6)
        self.banner_ships = ft.Row(spacing=6, wrap=True)
        self.note = ft.Text("", size=13, weight=ft.FontWeight.W_500, expand=True)
        self.note_close = icon_button(ft.Icons.CLOSE, "Dismiss", self._dismiss_note, p + "note-close", icon_size=18)
        self.note_box = tag(p + "note", ft.Container(
            content=ft.Row([self.note, self.note_close], spacing=4,
                           vertical_alignment=ft.CrossAxisAlignment.CENTER),
            padding=ft.Padding.only(left=14, right=2), border_radius=12,
            shadow=ft.BoxShadow(blur_radius=8, color=ft.Colors.with_opacity(0.25, ft.Colors.SHADOW)),
        ))
        # the last answer (an event, or a refusal's reason) floats over the top of the map and panels,
        # so the banner, and the map under it, keep their size
        self.note_layer = ft.Container(content=self.note_box, top=8, left=8, right=8, visible=False)
        self.more_steps = ft.PopupMenuButton(icon=ft.Icons.MORE_HORIZ, tooltip="More steps", items=[],
                                             width=TOUCH, height=TOUCH)
        self.more = tag(p + "banner-more", self.more_steps)  # a phone's steps after the first (`_steps`)
        self.banner_box = ft.Container(padding=ft.Padding.symmetric(horizontal=14, vertical=8),
                                       bgcolor=ft.Colors.PRIMARY_CONTAINER)
        self.banner = tag(p + "banner", self.banner_box)
        self.undo_button = icon_button(ft.Icons.UNDO, "Undo", on(self.change, "undo"), p + "undo")
        self.redo_button = icon_button(ft.Icons.REDO, "Redo", on(self.change, "redo"), p + "redo")
        actions = body.top_actions()
        # the body's menu offers the theme; without one, the top bar has a theme button
        menu = any(getattr(c, "identifier", None) == p + "menu" for c in actions)
        self.top: ft.Control = ft.Container(
            content=ft.Row([
                icon_button(ft.Icons.HOME_OUTLINED, "Home", on(app.navigate, Session()), p + "home"),
                ft.Text(game.name, size=16, weight=ft.FontWeight.W_600, expand=True, max_lines=1,
                        overflow=ft.TextOverflow.ELLIPSIS),
                tag(p + "ruleset", muted(game.ruleset.name, 12)),
                *([] if read_only else [self.undo_button, self.redo_button]),
                *actions,
                *([] if menu else [theme_button(app, p + "theme")]),
            ], spacing=0, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            padding=ft.Padding.only(left=4, right=4), bgcolor=ft.Colors.SURFACE_CONTAINER,
        )
        # the paint signal for the browser tests: the top bar's semantics node `painted`, labelled
        # "painted <N>", N the renders sent (a label reaches the browser's tree on each change; a
        # changed identifier did not)
        self.painted = 0
        self.top = self.paint_mark = ft.Semantics(identifier="painted", label="painted 0", container=True,
                                                  content=self.top)
        self.panel = ft.Column(spacing=10, scroll=ft.ScrollMode.AUTO, expand=True)
        self.tabs = ft.Row(spacing=4)  # the panel switcher beside the map
        self.nav = ft.Container(content=ft.Row(spacing=0), bgcolor=ft.Colors.SURFACE_CONTAINER,
                                padding=ft.Padding.symmetric(horizontal=4, vertical=2))  # phone: bottom navigation
        self.strip = ft.Container(padding=8, bgcolor=ft.Colors.SURFACE_CONTAINER, visible=False)
        self.cover = ft.Container(content=self.panel, padding=ft.Padding.symmetric(horizontal=10, vertical=8),
                                  bgcolor=ft.Colors.SURFACE, left=0, right=0, top=0, bottom=0)
        self.control = ft.Container(expand=True)
        self._wide: bool | None = None
        self._layout()

    # --- layout -------------------------------------------------------------------

    @property
    def tab(self) -> str:
        """The body's tab, or its first where that tab is not shown (the map, beside the panels)."""
        tab, keys = self.body.tab, [t[0] for t in self.body.tabs()]
        return tab if tab in keys or (tab == "map" and not self.app.wide) else keys[0]

    def _layout(self) -> None:
        """Build the screen for the width: map beside the panels, or one at a time with bottom navigation.

        Built once per width class: switching tabs later changes only the tab
        buttons and the panel, so the map keeps its zoom and pan.
        """
        wide = self._wide = self.app.wide
        map_control = self.body.map.control
        if wide:
            self.banner_actions.alignment = ft.MainAxisAlignment.END
            self.banner_box.content = ft.Row([
                ft.Column([self.banner_title, self.banner_detail], spacing=2, expand=True, tight=True),
                self.banner_ships, self.banner_actions], spacing=12, vertical_alignment=ft.CrossAxisAlignment.CENTER)
            width = self.app.page.width or 1200
            side = ft.Container(
                content=ft.Column([ft.Container(self.tabs, padding=ft.Padding.only(top=8)), self.panel],
                                  spacing=8, expand=True, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
                width=min(PANEL_WIDTH, width * 0.42), padding=ft.Padding.symmetric(horizontal=10),
                bgcolor=ft.Colors.SURFACE,
            )
            body = ft.Row([ft.Stack([map_control, self.note_layer], expand=True), side], spacing=0, expand=True,
                          vertical_alignment=ft.CrossAxisAlignment.STRETCH)
            self.strip.visible = False
            self.control.content = ft.Column([self.top, self.banner, body], spacing=0, expand=True,
                                             horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        else:
            # one line on a phone: the title and the ships' chips swiped sideways when longer (the detail is
            # the title's tooltip); the table's first step whole at the right, the others in its menu
            # (`_steps`: one swiped line clipped them to "Table d..." or a 26 px sliver, issue 28)
            self.banner_box.content = ft.Row([
                ft.Row([self.banner_title, self.banner_ships], spacing=8, scroll=ft.ScrollMode.AUTO, expand=True),
                self.banner_actions], spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER)
            # the panels cover the map rather than replace it, so the map keeps its zoom and pan
            content = ft.Stack([ft.Column([map_control, self.strip], spacing=0, expand=True), self.cover,
                                self.note_layer], expand=True)
            self.control.content = ft.Column([self.top, self.banner, content, self.nav], spacing=0, expand=True,
                                             horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        self.banner_title.size = 17 if wide else 15
        self.banner_ships.wrap = self.banner_actions.wrap = wide
        self.body.map.remounted()
        self._show_tab()

    def _show_tab(self) -> None:
        """Mark the current tab and show its panel (the map on a phone's map tab)."""
        tab, prefix = self.tab, self.body.PREFIX + "tab-"
        if self._wide:
            self.tabs.controls = [tab_button(prefix + key, icon, label, key == tab, on(self.go_tab, key))
                                  for key, _, icon, label in self.body.tabs()]
        else:
            inner(self.nav, ft.Row).controls = [
                nav_button(prefix + key, icon, selected, label, key == tab, on(self.go_tab, key))
                for key, icon, selected, label in (MAP_TAB, *self.body.tabs())]
            self.cover.visible = tab != "map"
            self.strip.visible = tab == "map"  # always there on the map tab, so selecting a ship does not resize the map

    async def relayout(self) -> None:
        if self.app.wide != self._wide:
            self._layout()
            self.control.update()
            await self.refresh(force=True)

    async def follow_session(self) -> None:
        """The session changed (selection, tab) within this game."""
        self._show_tab()
        update_shown(self.control)
        await self.refresh(force=True)

    # --- refresh ----------------------------------------------------------------------

    def tell(self, text: str) -> None:
        """A note every screen of the game shows, until a tap (the host ended another side's moves)."""
        self.message(text)
        self._told = self._note

    def message(self, text: str | None, info: bool = False, keep: bool = False) -> None:
        """The note to show with the next refresh: what happened (info), or why not; None clears it.
        `keep`: what happened stays until the next tap, as a refusal does (a roll's result on a phone,
        where the banner has no room for it: issue 35)."""
        self._note = (spoken(text), info) if text else None  # no rule-text line numbers (issue 35)
        self._keep_note = keep

    async def refresh(self, force: bool = False) -> None:
        """Show the game as it stands (after this device's action, or another device's: live); the
        body's models are computed in a worker thread, so one session's work never stalls another's."""
        async with self._lock:
            state = self.game.state
            if state is self.state and not force and self.models is not None:
                if self._note != self._note_shown:  # the answer to a tap came after its state was shown
                    self._render_note()
                    update_shown(self.note_layer)
                return
            shown = self.app.role.sees(self.game.ruleset, state) if self.app.role else state
            models = await asyncio.to_thread(self.body.compute, shown)
            self.state, self.models = state, models
            self.render(models)

    def render(self, models) -> None:
        """Put the models on screen; only changed controls are sent."""
        body = self.body
        title, detail, ships, actions = body.banner(models)
        self.banner_title.value, self.banner_detail.value = title, detail
        self.banner_title.tooltip = None if self._wide else detail
        put(self.banner_actions, actions if self._wide else self._steps(actions))
        put(self.banner_ships, ships)
        self.banner_ships.visible = bool(ships)
        self._render_note()
        changed: list[ft.Control] = [self.banner, self.note_layer, *body.render(models), self.top, self.panel]
        inner(self.undo_button, ft.IconButton).disabled = not self.game.can_undo
        inner(self.redo_button, ft.IconButton).disabled = not self.game.can_redo
        put(self.panel, body.panel(models))
        if not self._wide:
            self.strip.content = body.strip(models) if self.tab == "map" else None
            self.strip.visible = self.strip.content is not None
            changed.append(self.strip)
        self.painted += 1
        self.paint_mark.label = f"painted {self.painted}"
        for control in changed:  # a control off screen (the map behind a phone tab) goes with its screen
            update_shown(control)
        if mounted(self.control):  # else they go with the screen's first paint
            body.sent()

    def _steps(self, actions: list[ft.Control]) -> list[ft.Control]:
        """A phone's steps in one line: the first as it is, the others as items of one menu beside it,
        each with its button's identifier, words, icon and handler (a body's steps are `tag`ged buttons)."""
        if len(actions) < 2:
            return actions
        items = []
        for step in actions[1:]:
            assert isinstance(step, ft.Semantics)  # a body's steps are `tag`ged buttons
            button: Any = step.content  # a FilledButton, OutlinedButton or TextButton (no common typed base)
            items.append(ft.PopupMenuItem(
                content=tag(step.identifier, ft.Text(button.content if isinstance(button.content, str) else "")),
                icon=button.icon, on_click=button.on_click, height=TOUCH, disabled=bool(button.disabled)))
        self.more_steps.items = items
        return [actions[0], self.more]

    def _render_note(self) -> None:
        """The answer to the last tap (what happened, or the rule's reason), floating over the map."""
        if self._note and self._note is not self._note_shown and self._note[1] and not getattr(self, "_keep_note", False):
            soon(self.app.page, self._fade, self._note)
        self._note_shown = self._note
        if self._note:
            text, info = self._note
            self.note.value = text[0].upper() + text[1:] if text else ""
            self.note.color = ft.Colors.ON_INVERSE_SURFACE if info else ft.Colors.ON_ERROR_CONTAINER
            inner(self.note_box, ft.Container).bgcolor = ft.Colors.INVERSE_SURFACE if info else ft.Colors.ERROR_CONTAINER
            inner(self.note_close, ft.IconButton).icon_color = self.note.color
        self.note_layer.visible = bool(self._note)

    # --- handlers ------------------------------------------------------------------------

    async def go_tab(self, tab: str) -> None:
        self.body.go_tab(tab)
        await self.follow_session()
        # every tab opens at its top (the log: its newest entry and Undo); never the panel a phone's map
        # tab hides (the browser cannot answer for it: issue 25)
        await ask("scroll the panel to its top", lambda: self.panel.scroll_to(offset=0), on=self.panel)

    async def _fade(self, note) -> None:
        await asyncio.sleep(NOTE_SECONDS)
        if self._note is note and self._note_shown is note:  # not answered again meanwhile
            await self._dismiss_note(None)

    async def _dismiss_note(self, e) -> None:
        self._note = self._note_shown = None
        self.note_layer.visible = False
        update_shown(self.note_layer)

    async def act(self, action):
        """Send one action to the game, checked on the server for this device (its role decides:
        sharing.py); the note says what happened or why not.  Applied or Refused."""
        self._told = None
        outcome = await asyncio.to_thread(self.table_act, action)
        if outcome.ok and self._told is not None and self._note is self._told:
            pass  # every screen was told what this change did to another side (`tell`): so is this one
        elif outcome.ok:
            self.message(outcome.events[-1].text if outcome.events else None, info=True)
        else:
            self.message(outcome.reason)
        await self.refresh(force=not outcome.ok)
        return outcome

    def table_act(self, action):
        """`act` as called from a worker thread: Applied or Refused, nothing said.  The position is
        the state this screen last drew, as the server knows it (never the browser's word): a change
        from a screen the game has moved on from is refused ("The game moved on: look again.")."""
        self.sight.shown = self.state
        return self.app.sharing.table(self.game).act(self.app.device, action, self.sight)

    async def change(self, which: str) -> None:
        """Undo or redo ("undo", "redo"), if this device may (you may undo what you may do); else the
        note says why: nothing to undo, another side's action, or it could not be saved; done, it says
        what it took back or made again ("Undone: Pelletier 75mm: ..."), in the log's own words."""
        problem, words = await asyncio.to_thread(self._change, which)
        if problem is not None and problem == self.game.save_problem:  # it could not be saved: nothing changed
            problem = f"Not {which}ne, because it could not be saved: {problem}"
        self.message(problem or f"{which.capitalize()}ne: {words}",
                     info=not problem or problem.startswith("There is nothing"))
        await self.refresh(force=problem is not None)

    def _change(self, which: str) -> tuple[str | None, str]:
        """`change` in a worker thread: (why not, or None; the first line of the log it took back or made again)."""
        before = self.game.history()
        self.sight.shown = self.state
        problem = getattr(self.app.sharing.table(self.game), which)(self.app.device, self.sight)
        after = self.game.history()
        longer, shorter = (before, after) if which == "undo" else (after, before)
        return problem, longer[len(shorter)].text if len(longer) > len(shorter) else "the last action"
