"""The host's side of sharing: the join address, its QR code and the PIN; the devices waiting to be
let in, the role changes waiting for approval, forgetting a device; handing sides over."""

from __future__ import annotations

import flet as ft

from ...web.browser import IN_BROWSER, NO_SHARED_TABLE
from ..devices import NAME_LIMIT
from ..qr import qr_png
from ..roles import Role, role_label
from .pages import follow_drawn
from .widgets import heading, muted, notice, tag


def one_device_dialog(app) -> ft.AlertDialog:
    """Devices in the static web build (issue 37): this device is the only one; how to go on with others."""
    return ft.AlertDialog(title=ft.Text("Devices: this one only"),
                          content=tag("devices-browser", muted(NO_SHARED_TABLE, 14)),
                          actions=[ft.TextButton(content="Close", on_click=lambda _: app.page.pop_dialog())])


def home_section(app) -> list[ft.Control]:
    """For the host's home screen: how phones and tablets join (nothing for other devices)."""
    sharing = getattr(app, "sharing", None)
    device = getattr(app, "device", None)
    if sharing is None or device is None or not device.host:
        return []
    if IN_BROWSER:  # the static web build (issue 29): no server, so no shared table
        return [tag("join-browser", muted(NO_SHARED_TABLE, 13))]
    if not sharing.address:
        return [tag("join-offline", ft.Container(
            content=ft.Row([
                ft.Icon(ft.Icons.WIFI_OFF, size=28, color=ft.Colors.ON_SURFACE_VARIANT),
                ft.Column([
                    ft.Text("Only this computer can open the app now", weight=ft.FontWeight.W_600),
                    muted("To play on phones and tablets too, start it with  companion app --host 0.0.0.0  "
                          "and each device joins with a PIN shown here.", 13),
                ], spacing=2, tight=True, expand=True),
            ], spacing=12),
            padding=14, border_radius=12, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
        ))]
    pin_text = ft.Text("", size=34, weight=ft.FontWeight.BOLD, style=ft.TextStyle(letter_spacing=4))
    pin_box = tag("join-pin", pin_text)
    joined = muted("", 12)
    asking = ft.Column(spacing=0, tight=True)

    def fill() -> None:
        pin = sharing.pin
        pin_text.value, pin_box.label = f"{pin[:3]} {pin[3:]}", f"PIN {pin}"
        guests = [d for d in sharing.devices() if not d.host and d.sessions > 0 and d.may_enter]
        joined.value = (f"{len(guests)} device{'s' if len(guests) != 1 else ''} joined: "
                        + ", ".join(d.name for d in guests[:6])) if guests else "No other device has joined yet."
        asking.controls = _asking(app)

    async def renew(e) -> None:
        not_possible(app, sharing.renew_pin(app.device))  # the card follows the change

    qr = tag("join-qr", ft.Container(
        content=ft.Image(src=qr_png(sharing.address, scale=6, border=2), width=156, height=156,
                         filter_quality=ft.FilterQuality.NONE),
        bgcolor="#ffffff", padding=6, border_radius=10,
    ), label=f"QR code of {sharing.address}")
    words = ft.Column([
        ft.Row([ft.Icon(ft.Icons.CAST_CONNECTED, color=ft.Colors.PRIMARY), heading("Play on many screens", 17)], spacing=8),
        muted("Phones and tablets on this network: scan the code or open", 13),
        tag("join-address", ft.Text(sharing.address, size=17, weight=ft.FontWeight.W_600,
                                    color=ft.Colors.PRIMARY), label=sharing.address),
        muted("then type the PIN:", 13),
        ft.Row([pin_box, tag("new-pin", ft.TextButton(
            content="New PIN", icon=ft.Icons.REFRESH, on_click=renew,
            tooltip="Draw a new PIN: every other device gives it again"))],
            wrap=True, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        joined,
    ], spacing=4, tight=True, expand=True)
    card = ft.Column([tag("join-card", ft.Container(
        content=ft.ResponsiveRow([
            ft.Container(content=qr, col={"xs": 12, "sm": 4}, alignment=ft.Alignment.CENTER),
            ft.Container(content=words, col={"xs": 12, "sm": 8}),
        ], vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=14, run_spacing=10),
        padding=16, border_radius=16, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
    )), asking], spacing=10, tight=True)
    follow_drawn(app, card, fill)
    return [card]


def _asking(app) -> list[ft.Control]:
    """For the host: the devices waiting to be let in (one tap each) and the role changes waiting
    for approval; nothing when none is waiting."""
    sharing = app.sharing
    lines: list[ft.Control] = []

    def act(call, *args):
        async def handler(e) -> None:
            not_possible(app, call(app.device, *args))
        return handler  # the list follows the change

    def answer(device, token: str, game_id: str, approve: bool) -> str | None:
        game = sharing.game(game_id)
        return sharing.answer(device, token, game, approve) if game is not None else "That game is no longer open."

    def line(icon, ident: str, text: str, *buttons: ft.Control, weight=None) -> ft.Control:
        words = ft.Text(text, weight=weight, expand=True, color=ft.Colors.ON_TERTIARY_CONTAINER)
        return ft.Row([ft.Icon(icon, color=ft.Colors.ON_TERTIARY_CONTAINER), tag(ident, words, label=text), *buttons],
                      spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER)

    waiting = sharing.waiting()
    for device in waiting[:8]:
        lines.append(line(ft.Icons.PAN_TOOL, f"waiting-{device.ident}", f"{device.name} ({device.address}) asks to join",
                          tag(f"let-in-{device.ident}", ft.FilledButton(content="Let in", icon=ft.Icons.LOGIN,
                                                                       on_click=act(sharing.let_in, device.token))),
                          tag(f"turn-away-{device.ident}", ft.TextButton(
                              content="Turn away", on_click=act(sharing.turn_away, device.token))),
                          weight=ft.FontWeight.W_600))
    if len(waiting) > 8:
        lines.append(muted(f"and {len(waiting) - 8} more asking: let in only the devices at your table.", 12))
    for device, game_id, role in sharing.requests():
        game = sharing.game(game_id)
        where = f" in {game.name}" if game is not None else ""
        text = f"{device.name} asks for {role_label(role)}{where} (holds {role_label(sharing.role(device, game_id))})"
        lines.append(line(
            ft.Icons.SWAP_HORIZ, f"asks-{device.ident}", text,
            tag(f"approve-{device.ident}", ft.FilledButton(content="Approve", on_click=act(answer, device.token, game_id, True))),
            tag(f"refuse-{device.ident}", ft.TextButton(content="Refuse", on_click=act(answer, device.token, game_id, False),
                                                        style=ft.ButtonStyle(color=ft.Colors.ON_TERTIARY_CONTAINER)))))
    if not lines:
        return []
    return [tag("asking", ft.Container(content=ft.Column(lines, spacing=8, tight=True), padding=14, border_radius=12,
                                       bgcolor=ft.Colors.TERTIARY_CONTAINER))]


def not_possible(app, problem: str | None) -> None:
    """Say why a tap changed nothing (nothing when `problem` is None)."""
    if problem:
        notice(app.page, "Not possible", problem)


def rename_dialog(app, token: str, name: str, done=None) -> ft.AlertDialog:
    """Name a device (issue 18): the host any device, a device itself; the server decides
    (`Sharing.rename`) and says why not in plain words.  `done()` follows a new name."""
    own = token == app.device.token
    field = ft.TextField(label=f"Name (up to {NAME_LIMIT} characters)", value=name, max_length=NAME_LIMIT,
                         autofocus=True)
    note = ft.Text("", color=ft.Colors.ERROR, size=13)

    async def save(e) -> None:
        problem = app.sharing.rename(app.device, token, field.value or "")
        if problem:
            note.value = problem
            note.update()
            return
        app.page.pop_dialog()
        if done is not None:
            done()

    field.on_submit = save
    return ft.AlertDialog(
        title=ft.Text("Name this device" if own else f"Rename {name}"),
        content=ft.Container(content=ft.Column([
            muted("The name shows on the bar at the top of its screen and in the host's list of devices.", 13),
            tag("rename-field", field), note], spacing=10, tight=True), width=380),
        actions=[ft.TextButton(content="Cancel", on_click=lambda e: app.page.pop_dialog()),
                 tag("rename-save", ft.FilledButton(content="Save", on_click=save))],
    )


def _device_icon(ident: str):
    return (ft.Icons.SMARTPHONE if ident.startswith("Phone") else ft.Icons.TABLET if ident.startswith("Tablet")
            else ft.Icons.COMPUTER)


def devices_dialog(app, game) -> ft.AlertDialog:
    """The host's list of the devices at this game: each one's name, what it holds (a side, the
    shared screen, the whole table, or watching), a role to hand it, Rename and Forget."""
    state = game.state
    roles = [Role.table(), *[Role.holding(s) for s in state.sides], Role.screen()]
    rows = ft.Column(spacing=10, tight=True, scroll=ft.ScrollMode.AUTO)
    note = ft.Text("", color=ft.Colors.ERROR, size=13)

    def refresh() -> None:
        fill()
        app.page.update()

    def fill() -> None:
        rows.controls = []
        for seat in app.sharing.seats(game.id):
            def changed(e, token=seat.token):
                key = e.control.value
                role = None if key == "none" else Role.from_key(key)
                note.value = app.sharing.hand_over(app.device, token, game, role) or ""
                refresh()

            def forget(e, token=seat.token):
                note.value = app.sharing.forget(app.device, token) or ""
                refresh()

            def rename(e, token=seat.token, name=seat.name):
                app.page.show_dialog(rename_dialog(app, token, name, refresh))

            options = [ft.DropdownOption(key=r.key, text=role_label(r)) for r in roles]
            options.append(ft.DropdownOption(key="none", text="No role (asks again)"))
            status = f"{seat.holds} · " + ("online" if seat.online else "away") + (" · host" if seat.host else "")
            if seat.asks is not None:
                status += f" · asks for {role_label(seat.asks)}"
            rows.controls.append(tag(f"seat-{seat.ident}", ft.Column([
                ft.Row([
                    ft.Icon(_device_icon(seat.ident), color=ft.Colors.PRIMARY if seat.online else ft.Colors.OUTLINE),
                    ft.Column([ft.Text(seat.name, weight=ft.FontWeight.W_600),
                               tag(f"holds-{seat.ident}", muted(status, 12), label=status)],
                              spacing=0, tight=True, expand=True),
                ], spacing=10),
                ft.Row([
                    ft.Dropdown(options=options, value=seat.role.key if seat.role else "none", width=190,
                                dense=True, on_select=changed, tooltip="Hand this device a role"),
                    tag(f"rename-{seat.ident}", ft.TextButton(content="Rename", icon=ft.Icons.EDIT, on_click=rename)),
                    *([] if seat.host else [tag(f"forget-{seat.ident}", ft.TextButton(
                        content="Forget", icon=ft.Icons.PERSON_REMOVE, on_click=forget,
                        tooltip="Forget this device: it gives the PIN again"))]),
                ], spacing=4, wrap=True),
            ], spacing=4, tight=True), label=f"{seat.name}: {seat.holds}"))
        if not rows.controls:
            rows.controls.append(muted("No other device has opened this game yet."))

    follow_drawn(app, rows, fill, app.sharing.table(game))  # a device joined, left, renamed itself or changed role
    return ft.AlertDialog(
        title=ft.Text("Devices at this game"),
        content=ft.Container(content=ft.Column([
            muted("Hand a side over: give it to another device, or make a device the shared screen. "
                  "Rename a device so everyone knows whose it is. Forget a device to end its token: "
                  "it gives the PIN again.", 13),
            rows, note], spacing=10, tight=True), width=460),
        actions=[ft.TextButton(content="Done", on_click=lambda e: app.page.pop_dialog())],
    )
