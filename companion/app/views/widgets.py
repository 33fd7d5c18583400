"""Small shared pieces: dice chips, headings, tagged controls for tests and screen readers."""

from __future__ import annotations

import asyncio
from typing import Literal, Protocol, Sequence, TypeVar, overload

import flet as ft

from ..theme import DICE, DISPLAY_FONT

DIE_LABEL = {"Green": "DGreen", "Blue": "DBlue", "Yellow": "DYellow", "Red": "DRed",
             "Black": "DBlack", "D6": "D6"}


def mounted(control: ft.Control) -> bool:
    """Whether a control is on the page now (updating one that is not raises)."""
    try:
        return control.page is not None
    except RuntimeError:
        return False


def update_shown(control: ft.Control) -> None:
    """Send a control's changes now if it is on the page (else they go with the page's next update)."""
    if mounted(control):
        control.update()


@ft.control
class Kept(ft.Semantics):
    """A tagged piece kept on screen and changed in place.

    Flet compares every control under the one updated, changed or not.  A kept
    piece is isolated (the update around it does not look inside it) unless it is
    `stale`: changed since it was last sent.  The view marks what it changed and
    calls `sent` after the update, so a screen is compared only where it changed."""

    def init(self) -> None:
        self.stale = True  # new: goes with the update that adds it

    def is_isolated(self) -> bool:
        return not self.stale


def sent(*pieces: Kept) -> None:
    """These pieces' changes went out with the update around them."""
    for piece in pieces:
        piece.stale = False


@overload
def tag(identifier: str | None, control: ft.Control, label: str | None = None, *, kept: Literal[True]) -> Kept: ...
@overload
def tag(identifier: str | None, control: ft.Control, label: str | None = None, kept: bool = False) -> ft.Semantics: ...
def tag(identifier: str | None, control: ft.Control, label: str | None = None, kept: bool = False) -> ft.Semantics:
    """Give a control a stable identifier (shows as flt-semantics-identifier in the browser);
    `inner` gives back the control."""
    return (Kept if kept else ft.Semantics)(identifier=identifier, content=control, container=True, label=label,
                                            expand=control.expand, col=control.col)


C = TypeVar("C", bound=ft.Control)


def inner(tagged: ft.Control, kind: type[C]) -> C:
    """The control inside a `tag` (or a Container, a button), which the caller knows to be a `kind`."""
    content = getattr(tagged, "content", None)
    assert isinstance(content, kind), f"{tagged!r} holds {content!r}, not a {kind.__name__}"
    return content


class Holder(Protocol):
    """A Row, Column, ListView, ...: a control with children."""

    controls: list[ft.Control]


def put(holder: Holder, controls: Sequence[ft.Control]) -> None:
    """Give a Row or Column these children, unless it has them already: controls kept on
    screen and changed in place are not sent again, only what changed in them."""
    old = holder.controls
    if len(old) != len(controls) or any(a is not b for a, b in zip(old, controls)):
        holder.controls = list(controls)


TOUCH = 48  # px: the smallest touch target on a phone


def icon_button(icon, tooltip: str, handler, ident: str | None = None, **kwargs) -> ft.Control:
    """An icon button with a full 48 px touch target; its tooltip (its name to a screen reader too)
    waits for a resting pointer and goes as the pointer leaves, so a button tapped again and again (the
    replay's Forward one step) is not left under its own tooltip (issue 28)."""
    tip = ft.Tooltip(message=tooltip, wait_duration=700, exit_duration=0)
    button = ft.IconButton(icon, tooltip=tip, on_click=handler, width=TOUCH, height=TOUCH, **kwargs)
    return tag(ident, button) if ident else button


def button(ident: str, text: str, handler, filled: bool = False, icon=None, disabled: bool = False,
           tooltip: str | None = None) -> ft.Control:
    """A text button with a full touch target: filled for the step the screen expects, else outlined."""
    kind = ft.FilledButton if filled else ft.OutlinedButton
    return tag(ident, kind(content=text, icon=icon, on_click=handler, height=TOUCH, disabled=disabled, tooltip=tooltip))


def tab_button(ident: str, icon, label: str, selected: bool, handler) -> ft.Control:
    """One tab of the panel switcher beside the map (tablet, desktop)."""
    colour = ft.Colors.ON_SECONDARY_CONTAINER if selected else ft.Colors.ON_SURFACE_VARIANT
    return tag(ident, ft.Container(
        content=ft.Row([ft.Icon(icon, size=18, color=colour),
                        ft.Text(label, color=colour, weight=ft.FontWeight.W_600 if selected else None)],
                       alignment=ft.MainAxisAlignment.CENTER, spacing=6, tight=True),
        height=TOUCH, expand=True, border_radius=10, on_click=handler, ink=True,
        bgcolor=ft.Colors.SECONDARY_CONTAINER if selected else None,
    ), label=label)


def nav_button(ident: str, icon, selected_icon, label: str, selected: bool, handler) -> ft.Control:
    """One destination of the phone's bottom navigation."""
    colour = ft.Colors.ON_SECONDARY_CONTAINER if selected else ft.Colors.ON_SURFACE_VARIANT
    return tag(ident, ft.Container(
        content=ft.Column([
            ft.Container(content=ft.Icon(selected_icon if selected else icon, size=22, color=colour),
                         width=60, height=30, border_radius=15, alignment=ft.Alignment.CENTER,
                         bgcolor=ft.Colors.SECONDARY_CONTAINER if selected else None),
            ft.Text(label, size=12, color=ft.Colors.ON_SURFACE if selected else ft.Colors.ON_SURFACE_VARIANT,
                    weight=ft.FontWeight.W_600 if selected else None),
        ], spacing=2, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        height=64, expand=True, alignment=ft.Alignment.CENTER, on_click=handler, ink=True,
    ), label=label)


def die_chip(colour: str, size: int = 22, disc: ft.Container | None = None) -> ft.Container:
    """A die of a pool, not rolled: a coloured disc (`disc` painted so in place when given)."""
    disc = ft.Container() if disc is None else disc
    disc.width = disc.height = size
    disc.bgcolor = DICE.get(colour, ("#888888", "#ffffff"))[0]
    disc.border_radius = size / 2
    disc.border = ft.Border.all(1, "#00000040" if colour != "Black" else "#ffffff55")
    disc.tooltip = DIE_LABEL.get(colour, colour)
    return disc


def die_face(colour: str, face: int, size: int = 30) -> ft.Control:
    """A rolled die: a coloured square showing its face."""
    fill, ink = DICE.get(colour, ("#888888", "#ffffff"))
    return ft.Container(
        width=size, height=size, bgcolor=fill, border_radius=6,
        border=ft.Border.all(1, "#00000055" if colour != "Black" else "#ffffff66"),
        alignment=ft.Alignment.CENTER,
        content=ft.Text(str(face), color=ink, weight=ft.FontWeight.BOLD, size=size * 0.5),
        tooltip=f"{DIE_LABEL.get(colour, colour)} {face}",
    )


ROLL_MS = 400  # the dice's tumble as they land (issue 18): short, and the result is readable all along


def tumble() -> ft.Container:
    """A place for rolled dice that tumbles a new roll in (`tumbling`, then `settle`): half a turn and
    a growth to full size in ROLL_MS.  Nothing waits on it: the faces, and the total beside them, are
    on screen from the first frame, and a tap goes through while it turns."""
    return ft.Container(rotate=ft.Rotate(0, alignment=ft.Alignment.CENTER), scale=1,
                        animate_rotation=ft.Animation(ROLL_MS, ft.AnimationCurve.EASE_OUT_BACK),
                        animate_scale=ft.Animation(ROLL_MS, ft.AnimationCurve.EASE_OUT))


def tumbling(box: ft.Container) -> None:
    """Tip the dice over and shrink them, at once (no animation back: `settle` animates them in)."""
    box.animate_rotation = box.animate_scale = None
    box.rotate = ft.Rotate(-3.1416, alignment=ft.Alignment.CENTER)
    box.scale = 0.5


async def settle(box: ft.Container) -> None:
    """Animate tipped dice upright to full size (after the update that showed them)."""
    await asyncio.sleep(0.05)
    box.animate_rotation = ft.Animation(ROLL_MS, ft.AnimationCurve.EASE_OUT_BACK)
    box.animate_scale = ft.Animation(ROLL_MS, ft.AnimationCurve.EASE_OUT)
    box.rotate = ft.Rotate(0, alignment=ft.Alignment.CENTER)
    box.scale = 1
    update_shown(box)


FLASH_MS = 1000  # the highlight on the slot just hit and the ship that just moved (issue 18): about a second
FLASH_HOLD = 0.3  # s: the highlight at full strength before it fades


def flash_box(**kwargs) -> ft.Container:
    """A highlight, hidden until `flash_on`.  Its opacity is always animated (a control that starts
    animating only later shows its end at once: Flutter builds the animated widget anew)."""
    return ft.Container(opacity=0, animate_opacity=ft.Animation(FLASH_MS, ft.AnimationCurve.EASE_IN), **kwargs)


def flash_on(box: ft.Container) -> None:
    """Show a highlight made by `flash_box` (in a millisecond: `flash_off` fades it out after it is sent)."""
    box.animate_opacity = ft.Animation(1, ft.AnimationCurve.LINEAR)
    box.opacity = 1


async def flash_off(box: ft.Container) -> None:
    """Fade a highlight shown by `flash_on` out over FLASH_MS (after the update that showed it)."""
    await asyncio.sleep(FLASH_HOLD)
    box.animate_opacity = ft.Animation(FLASH_MS, ft.AnimationCurve.EASE_IN)
    box.opacity = 0
    update_shown(box)


def chips(colours, size: int = 20) -> ft.Row:
    return ft.Row([die_chip(c, size) for c in colours], spacing=3, tight=True)


def show_chips(row: ft.Row, colours, size: int = 20) -> ft.Row:
    """Make a `chips` row show these dice, its discs repainted in place (only changes are sent)."""
    old = row.controls
    put(row, [die_chip(colour, size, _disc(old, i)) for i, colour in enumerate(colours)])
    return row


def _disc(old: list[ft.Control], index: int) -> ft.Container | None:
    """The disc of a `chips` row at `index` (every one is a die_chip's Container), if there is one."""
    disc = old[index] if index < len(old) else None
    return disc if isinstance(disc, ft.Container) else None


def faces(dice, size: int = 30) -> ft.Row:
    return ft.Row([die_face(c, f, size) for c, f in dice], spacing=4, wrap=True, tight=True)


def airship(size: int = 40) -> ft.Control:
    """The app's own airship (assets/icons/icon-192.png, drawn from assets/icon.svg), served offline."""
    return tag("app-icon", ft.Image(src="icons/icon-192.png", width=size, height=size, fit=ft.BoxFit.CONTAIN),
               label="Leviathans airship")


def heading(text: str, size: int = 16) -> ft.Text:
    return ft.Text(text, size=size, weight=ft.FontWeight.W_600, font_family=DISPLAY_FONT)


def pill(text: ft.Text, bgcolor, tooltip: str | None = None) -> ft.Container:
    """A short text on a small rounded patch of colour (a die's name, a slot's odds)."""
    return ft.Container(content=text, padding=ft.Padding.symmetric(horizontal=6, vertical=2), border_radius=6,
                        bgcolor=bgcolor, tooltip=tooltip)


def muted(text: str, size: int = 13) -> ft.Text:
    return ft.Text(text, size=size, color=ft.Colors.ON_SURFACE_VARIANT)


def section(*controls: ft.Control, padding: int = 12) -> ft.Container:
    return ft.Container(
        content=ft.Column(list(controls), spacing=8, tight=True),
        padding=padding, border_radius=12,
        bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
    )


def notice(page, title: str, text: str) -> ft.AlertDialog:
    """A dialog that only says something, shown with its OK button: every dialog has a button
    (issue 35: a "Not possible" on a phone had none, and a tap beside it was the only way out)."""
    dialog = ft.AlertDialog(title=ft.Text(title), content=ft.Text(text),
                            actions=[tag("notice-ok", ft.TextButton(content="OK", on_click=lambda _: page.pop_dialog()))])
    page.show_dialog(dialog)
    return dialog
