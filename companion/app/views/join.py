"""Joining a shared table: who this browser is, the PIN screen, the role picker, the role bar.

A device is known by a random token kept in the browser's local storage
(`ft.SharedPreferences`), so a phone that slept, reloaded or lost its session
comes back with its PIN accepted and its role kept.  Every check happens on
the server in `sharing.py`; these screens only ask and explain.
"""

from __future__ import annotations

import logging

import flet as ft

from ..client_calls import ask
from ..roles import SCREEN, SIDE, TABLE, Role, role_label, role_words
from ..server import observed_address
from ..session import Session
from ..tasks import run_soon
from ..palettes import ink_on
from ..theme import side_colour
from .frame import on
from .pages import follow, follow_drawn, stop_following  # noqa: F401  stop_following: main closes a session with it
from ...web.browser import IN_BROWSER
from .share import devices_dialog, not_possible, one_device_dialog, rename_dialog
from .widgets import TOUCH, airship, icon_button, muted, tag

log = logging.getLogger(__name__)

TOKEN_KEY = "leviathans.device"


async def identify(app):
    """The `Device` of this browser session: by its stored token, or a new one (then stored).
    Where it is comes from the server's own view of the connection (`server.observed_address`:
    the socket's peer), read before anything is asked of the browser; never from what the browser
    says of itself (`page.client_ip`, `page.web`), which it can rewrite at will."""
    page = app.page
    address = observed_address(page)
    prefs = ft.SharedPreferences()
    token = await ask("read this device's token", lambda: prefs.get(TOKEN_KEY))  # None: no storage, a new device
    device = app.sharing.connect(token if isinstance(token, str) else None, address, page.client_user_agent)
    if device.token != token:
        await remember_token(device.token, prefs)
    return device


async def keep_awake(app, on: bool) -> None:
    """Ask the browser to keep the screen on during a game (Screen Wake Lock, or a silent video
    where the browser has no wake lock); some browsers allow it only over https or after a tap."""
    lock = getattr(app, "_wakelock", None)
    if lock is None:
        lock = app._wakelock = ft.Wakelock()
    await ask("keep the screen on" if on else "let the screen sleep", lambda: lock.enable() if on else lock.disable(),
              wait=3)


async def remember_token(token: str, prefs: ft.SharedPreferences | None = None) -> None:
    """Keep the device's token in the browser (a new one: its first visit, or after the host forgot
    the device and it came back with the PIN or the host's tap), through `prefs` if the session has one."""
    await ask("keep this device's token", lambda: (prefs or ft.SharedPreferences()).set(TOKEN_KEY, token))


def _page(content: list[ft.Control], width: int = 460) -> ft.Control:
    return ft.SafeArea(ft.Container(
        content=ft.Column([ft.Container(
            content=ft.Column(content, spacing=14, horizontal_alignment=ft.CrossAxisAlignment.STRETCH, tight=True),
            width=width, padding=ft.Padding.symmetric(horizontal=20, vertical=24))],
            horizontal_alignment=ft.CrossAxisAlignment.CENTER, scroll=ft.ScrollMode.AUTO, expand=True),
        expand=True, alignment=ft.Alignment.TOP_CENTER,
    ), expand=True)


def _brand(subtitle: str) -> ft.Control:
    return ft.Row([
        airship(40),
        ft.Column([ft.Text("Leviathans", size=26, weight=ft.FontWeight.BOLD), muted(subtitle)], spacing=0, tight=True),
    ], spacing=10)


# --- the PIN -------------------------------------------------------------------------------------


def pin_screen(app) -> ft.Control:
    """Ask a device on the network for the join PIN; the server checks it (`Sharing.admit`)."""
    field = ft.TextField(
        label="Join PIN (6 digits)", max_length=6, autofocus=True,
        keyboard_type=ft.KeyboardType.NUMBER, text_align=ft.TextAlign.CENTER,
        text_style=ft.TextStyle(size=30, letter_spacing=8, weight=ft.FontWeight.BOLD),
        border_radius=12, content_padding=ft.Padding.symmetric(horizontal=12, vertical=16),
    )
    message = ft.Text("", color=ft.Colors.ON_ERROR_CONTAINER, size=14)
    problem_box = tag("pin-message", ft.Container(content=message, padding=ft.Padding.symmetric(horizontal=12, vertical=8),
                                                  border_radius=8, bgcolor=ft.Colors.ERROR_CONTAINER))
    problem_box.visible = False
    token = app.device.token
    asked = tag("pin-asked", muted("Asked: the host sees this device on their screen and can let it in "
                                   f"with one tap. This device is “{app.device.name}”.", 13))
    asked.visible = app.device.waiting is not None

    async def come_in() -> None:  # straight to the game on the table (its role picker), not to home
        if app.device.token != token:
            await remember_token(app.device.token)
        games = on_table(app) if app.session.screen == "home" else []
        if len(games) == 1:
            await app.navigate(Session("game", games[0].id))
        elif games:
            app._set_screen(tables_screen(app, games))
        else:
            await app.show(app.session)

    async def join(e) -> None:
        problem = app.sharing.admit(app.device, field.value or "")
        if problem:
            log.info("join refused for %s (%s): %s", app.device.name, app.device.address, problem)
            field.value = ""
            message.value = problem
            problem_box.visible = True
            asked.visible = app.device.waiting is not None
            app.page.update()
            return
        await come_in()

    async def ask(e) -> None:
        app.sharing.ask_in(app.device)
        asked.visible = True
        app.page.update()

    async def heard() -> None:  # the host let this device in (or turned it away)
        if app.device.may_enter:
            await come_in()
        elif asked.visible != (app.device.waiting is not None):
            asked.visible = app.device.waiting is not None
            asked.update()

    field.on_submit = join
    page = _page([
        _brand("Table companion"),
        ft.Container(height=6),
        ft.Text("Join the table", size=22, weight=ft.FontWeight.W_600),
        muted("This game is hosted on a computer at your table. Type the PIN shown on its home screen "
              "to see the battle and play your side.", 14),
        tag("pin-field", field),
        problem_box,
        tag("pin-join", ft.FilledButton(content="Join", icon=ft.Icons.LOGIN, on_click=join, height=52)),
        muted("No PIN? Ask whoever started the app: it is on their screen, and changes every time the app starts.", 12),
        tag("pin-ask", ft.OutlinedButton(content="Ask the host to let this device in", icon=ft.Icons.PAN_TOOL,
                                         on_click=ask, height=44)),
        asked,
    ])
    follow(app, page, heard)
    return page


def on_table(app) -> list:
    """The games on the table: shown on a device now (the host's first), or held by this device."""
    ids = [d.game for d in sorted(app.sharing.devices(), key=lambda d: not d.host) if d.game] + list(app.device.roles)
    return [g for g in map(app.sharing.game, dict.fromkeys(ids)) if g is not None]


def tables_screen(app, games: list) -> ft.Control:
    """Several games on the table: which one this device joins (then its role picker)."""
    return _page([_brand("Table companion"), ft.Text("Which game?", size=22, weight=ft.FontWeight.W_600),
                  *[_role_card(f"table-{g.id}", ft.Icons.SAILING, None, g.name,
                               [f"{g.ruleset.name} · Turn {g.state.turn} · {' against '.join(g.state.sides)}"],
                               on(app.navigate, Session("game", g.id))) for g in games]], width=520)


# --- the role --------------------------------------------------------------------------------------


def _role_card(ident: str, icon, colour: str | None, title: str, lines: list[str], handler) -> ft.Control:
    lead = ft.Container(content=ft.Icon(icon, color=ink_on(colour) if colour else ft.Colors.ON_PRIMARY, size=26),
                        width=46, height=46, border_radius=23, bgcolor=colour or ft.Colors.PRIMARY,
                        alignment=ft.Alignment.CENTER)
    return tag(ident, ft.Card(content=ft.Container(
        content=ft.Row([lead, ft.Column([ft.Text(title, size=17, weight=ft.FontWeight.W_600),
                                         *[muted(line, 13) for line in lines if line]],
                                        spacing=2, tight=True, expand=True),
                        ft.Icon(ft.Icons.CHEVRON_RIGHT)], spacing=14),
        padding=14, on_click=handler, ink=True, border_radius=12,
    )))


def role_screen(app, game) -> ft.Control:
    """Pick what this device does in a game: a side, the shared screen (the host: the whole table too);
    name this device."""

    state = game.state
    seats = app.sharing.seats(game.id)
    current = app.sharing.role(app.device, game.id)
    held = app.device.roles.get(game.id)  # a role it picked or was given (the host's default is not one)
    asking = held is not None and not app.device.host  # then a change is the host's to approve
    asked = app.sharing.asked(app.device, game.id)

    def holders(role: Role) -> str:
        names = [s.name for s in seats if s.role == role and s.token != app.device.token]
        return ("Also on: " + ", ".join(names)) if names else ""

    async def pick(role: Role) -> None:
        problem = (app.sharing.ask_role if asking else app.sharing.choose)(app.device, game, role)
        if problem:
            not_possible(app, problem)
            return
        if not asking:  # asking: back to the game as it is; the host's screen shows the question
            await keep_awake(app, True)  # asked during the tap: browsers allow it then
        app.table = None
        await app.show(app.session)

    cards: list[ft.Control] = []
    for role in app.sharing.choices(app.device, state):
        mark = " (now)" if role == current else " (asked)" if role == asked else ""
        if role.kind == TABLE:
            cards.append(_role_card("role-table", ft.Icons.TABLE_RESTAURANT, "#5d6b7a", "Whole table" + mark,
                                    ["Every side on this device: pass it round the table."], on(pick, role)))
        elif role.kind == SIDE:
            ships = [s.card.name if hasattr(s, "card") else s.name for s in state.ships if s.side == role.side]
            cards.append(_role_card(f"role-side-{role.side}", ft.Icons.FLAG, side_colour(state.sides, role.side, app.theme_name),
                                    role.side + mark, [f"Move, fire and roll for {', '.join(ships)}", holders(role)],
                                    on(pick, role)))
        elif role.kind == SCREEN:
            cards.append(_role_card("role-screen", ft.Icons.TV, "#37474f", "Shared screen" + mark,
                                    ["Watch only: the ships in play, the declared shots, whose turn, the last roll, ships lost. "
                                     "For a TV or a tablet everyone can see.", holders(role)], on(pick, role)))

    return _page([
        ft.Row([icon_button(ft.Icons.ARROW_BACK, "Home", on(app.navigate, Session()), "role-home"),
                ft.Column([ft.Text(game.name, size=20, weight=ft.FontWeight.W_600),
                           muted(f"Turn {state.turn} · {' against '.join(state.sides)}")],
                          spacing=0, tight=True, expand=True)]),
        ft.Text("What is this device for?", size=22, weight=ft.FontWeight.W_600),
        tag("role-needs-host", muted(f"This device holds {role_words(held)}. Pick another role to ask the host: the change "
                                     "is made when they approve it on their screen. Pick the one it holds to take "
                                     "the question back.", 14)) if asking else
        muted("A side's moves, shots and rolls come only from devices holding that side. "
              "To change it later, ask the host from the bar at the top.", 14),
        *cards,
        tag("name-me", ft.TextButton(content=f"Name this device (now “{app.device.name}”)", icon=ft.Icons.EDIT, height=48,
                                     on_click=lambda e: app.page.show_dialog(rename_dialog(app, app.device.token,
                                                                                           app.device.name)))),
    ], width=520)


def role_bar(app, game) -> ft.Control:
    """A thin bar over the table: this device's role, a way to change it, and (the host) the devices."""
    role = app.sharing.role(app.device, game.id)
    state = game.state
    colour = side_colour(state.sides, role.side, app.theme_name) if role and role.kind == SIDE else ft.Colors.PRIMARY
    label = role_label(role, "")

    async def change(e) -> None:
        app._leave_game()
        app._set_screen(role_screen(app, game))

    controls: list[ft.Control] = [
        ft.Container(width=10, height=10, border_radius=5, bgcolor=colour),
        my_role(app, label),
        sync_counter(app, game),
    ]
    if app.device.host:
        controls.append(tag("devices", ft.TextButton(
            content="Devices", icon=ft.Icons.DEVICES, height=TOUCH,
            on_click=lambda e: app.page.show_dialog(one_device_dialog(app) if IN_BROWSER else devices_dialog(app, game)))))
    controls.append(tag("change-role", ft.TextButton(content="Change", icon=ft.Icons.SWAP_HORIZ, on_click=change,
                                                     height=TOUCH)))
    # the bar as high as a touch target: its buttons were 38 px on a phone (issue 28)
    bar = ft.Container(content=ft.Row(controls, spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                       padding=ft.Padding.only(left=14, right=6), height=TOUCH,
                       bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH)
    return ft.Column([bar, questions(app, game)], spacing=0, tight=True)


def my_role(app, label: str) -> ft.Control:
    """'British · Anna's phone': this device's role and name, following a rename (issue 18; the device
    names itself from Change's 'Name this device', the host from Devices)."""
    text = ft.Text("", size=13, weight=ft.FontWeight.W_600, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS,
                   expand=True)
    box = tag("my-role", text)

    def show() -> None:
        text.value, box.label = f"{label} · {app.device.name}", f"This device: {label} · {app.device.name}"

    follow_drawn(app, box, show)
    return box


def questions(app, game) -> ft.Control:
    """Under the role bar: the host sees each device asking for another role, with Approve and
    Refuse; a device sees the role it asked for, until the host answers.  It follows every change."""
    table = app.sharing.table(game)
    row = ft.Column(spacing=2, tight=True)
    box = ft.Container(content=row, padding=ft.Padding.symmetric(horizontal=14, vertical=4),
                       bgcolor=ft.Colors.TERTIARY_CONTAINER)

    async def answer(token: str, approve: bool) -> None:
        not_possible(app, app.sharing.answer(app.device, token, game, approve))
        fill()
        box.update()

    async def seen(e) -> None:
        app.sharing.seen_refusal(app.device, game.id)  # every screen of this device follows (seats)

    async def take_back(e) -> None:
        app.sharing.ask_role(app.device, game, app.sharing.role(app.device, game.id))
        fill()
        box.update()

    def line(ident: str, text: str, buttons: list[ft.Control]) -> ft.Control:
        return ft.Row([tag(ident, ft.Text(text, size=13, color=ft.Colors.ON_TERTIARY_CONTAINER, expand=True),
                           label=text), *buttons], spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER)

    def fill() -> None:
        lines: list[ft.Control] = []
        if app.device.host:
            for seat in app.sharing.seats(game.id):
                if seat.asks is not None and seat.token != app.device.token:
                    lines.append(line(f"asks-{seat.ident}",
                                      f"{seat.name} asks for {role_words(seat.asks)} (holds {role_words(seat.role)})", [
                        bar_button(f"approve-{seat.ident}", "Approve", on(answer, seat.token, True), ft.Icons.CHECK),
                        bar_button(f"refuse-{seat.ident}", "Refuse", on(answer, seat.token, False), ft.Icons.CLOSE),
                    ]))
        else:
            asked = app.sharing.asked(app.device, game.id)
            refused = app.sharing.refused(app.device, game.id)
            if asked is not None:
                lines.append(line("role-asked", f"Asked the host for {role_words(asked)}: waiting for their answer", [
                    bar_button("role-take-back", "Take back", take_back)]))
            elif refused is not None:  # told until read (issue 25 part 8: it was left waiting in silence)
                held = app.sharing.role(app.device, game.id)
                lines.append(line("role-refused", f"The host refused your request for {role_words(refused)}: "
                                                  f"this device still holds {role_words(held)}.", [
                    bar_button("role-refused-ok", "OK", seen)]))
        row.controls = lines
        box.visible = bool(lines)

    follow_drawn(app, box, fill, table, game)
    return box


def bar_button(ident: str, text: str, handler, icon=None) -> ft.Control:
    """A button of the role bar's notes (tertiary container): in the notes' own ink, so it reads in
    every theme (issue 35: the high-contrast theme's yellow "OK" on pink could not be read)."""
    return tag(ident, ft.TextButton(content=text, icon=icon, on_click=handler, icon_color=ft.Colors.ON_TERTIARY_CONTAINER,
                                    style=ft.ButtonStyle(color=ft.Colors.ON_TERTIARY_CONTAINER)))


def sync_counter(app, game) -> ft.Control:
    """'log 57 · 3fa2c1': the log's position (the actions in effect: undo steps it back) and a code of
    the position, the same on every screen that is in step; it follows every change by any device."""
    table = app.sharing.table(game)
    text = ft.Text("", size=12, color=ft.Colors.ON_SURFACE_VARIANT,
                   tooltip="Actions in effect in the game's log (undo steps back) and a check code of the "
                           "position: every screen in step with the game shows the same.")
    box = ft.Semantics(identifier="sync", content=text, container=True)

    def show() -> None:
        value = f"log {game.actions_in_effect} · {table.check_code()}"
        text.value, box.label = value, value

    follow_drawn(app, box, show, table, game)
    return box


def framed(app, game, control: ft.Control) -> ft.Control:
    """The table under the role bar (and the screen kept awake while it shows, where allowed)."""
    run_soon(app.page, keep_awake, app, True)
    return ft.Column([role_bar(app, game), control], spacing=0, expand=True,
                     horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
