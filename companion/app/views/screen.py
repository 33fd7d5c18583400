"""The shared screen: the battle for a TV by the table, read-only.

The map zoomed to the ships in play (large names, each declared shot a line
from the gun to the struck location with its odds), whose turn it is in large
type, the last roll with its dice, and the ships lost.  It changes nothing: the device's role
is the shared screen, and `sharing.may` refuses every action from it on the
server whatever is tapped.  It has the same refresh interface as the table
view (`refresh`, `relayout`, `follow_session`, `message`), so the app refreshes it on every change by any device.
"""

from __future__ import annotations

import asyncio
import math

import flet as ft
import flet.canvas as cv

from ..geometry import HexLayout
from ..screenmodel import ScreenModel, screen_model
from ..session import Session
from ..tasks import run_soon
from ..palettes import ink_on
from ..theme import CIRCLED, side_colour
from .frame import on
from .hexmap import HexMap
from .join import keep_awake, role_screen
from .widgets import die_face, icon_button, muted, tag, update_shown

SIDE_WIDTH = 460
NARROW = 760

#: Type sizes of the shared screen, read from three metres (issue 28: names and odds at least 24 px
#: on screen, whose turn and the phase at least 32 px, the last roll's dice at least 48 px; measured
#: in tests/browser/test_tv_sizes.py from the page's geometry).
TV_NAME, TV_ODDS, TV_HEADLINE, TV_WHOSE, TV_TEXT, TV_DIE = 30, 28, 46, 34, 26, 60


LARGEST = 64.0  # px: the TV's hex size (centre to corner) at most, however close the ships stand
AROUND = 3.0  # hex sizes of board kept in view round the ships in play


def fitted_size(board, width: float, height: float) -> float:
    """The hex size (centre to corner) at which the whole board fits in width x height."""
    unit = HexLayout(board, 1.0, margin=0)
    size = min((width - 12) / unit.width, (height - 12) / unit.height)
    return max(6.0, math.floor(size * 4) / 4)


def ships_view(board, cells, width: float, height: float) -> tuple[float, float, float]:
    """The hex size at which these hexes (the ships in play, AROUND them kept in view) fill
    width x height, never smaller than the whole board's fit nor larger than LARGEST, and the
    top-left corner of the part of the board's drawing shown there (centred on the ships)."""
    whole = fitted_size(board, width, height)
    if not cells:
        return whole, 0.0, 0.0
    unit = HexLayout(board, 1.0, margin=0)
    xs, ys = zip(*(unit.centre(c) for c in cells))
    box_w, box_h = max(xs) - min(xs) + 2 * AROUND, max(ys) - min(ys) + 2 * AROUND
    size = max(whole, min(LARGEST, math.floor(min(width / box_w, height / box_h) * 4) / 4))
    layout = HexLayout(board, size)
    middle_x = layout.margin + size * (min(xs) + max(xs)) / 2
    middle_y = layout.margin + size * (min(ys) + max(ys)) / 2
    left = min(max(0.0, middle_x - width / 2), max(0.0, layout.width - width))
    top = min(max(0.0, middle_y - height / 2), max(0.0, layout.height - height))
    return size, left, top


def in_play(state) -> tuple:
    """The hexes of the ships still in play: what the TV keeps in view."""
    return tuple(cell for ship in state.ships if not ship.removed for cell in ship.hexes)


def shot_line(layout, line, colour: str) -> tuple[list, tuple[float, float]]:
    """A declared shot drawn from the gun's hex to the struck location's (a line and a ring on the
    target), and the line's middle, where its odds go."""
    (x1, y1), (x2, y2) = layout.centre(line.start), layout.centre(line.end)
    stroke = ft.PaintingStyle.STROKE
    return [cv.Line(x1, y1, x2, y2, paint=ft.Paint(color=colour, stroke_width=6, style=stroke)),
            cv.Circle(x2, y2, layout.size * 0.3, paint=ft.Paint(color=colour, stroke_width=5, style=stroke))], \
        ((x1 + x2) / 2, (y1 + y2) / 2)


def draw_shots_on_canvas(hexmap: HexMap, shots, colour_of) -> None:
    """Declared shots and their odds on a map's canvas (the replay's map): `shot_line` each, its odds
    on the line in the map's name size."""
    shapes = []
    for line in shots:
        colour = colour_of(line.side)
        lines, (x, y) = shot_line(hexmap.layout, line, colour)
        shapes += [*lines, cv.Text(x, y, line.odds, alignment=ft.Alignment.CENTER,
                                   style=ft.TextStyle(size=hexmap.name_size, weight=ft.FontWeight.BOLD,
                                                      color=ink_on(colour), bgcolor=colour))]
    hexmap.marks.shapes = shapes


Box = tuple[float, float, float, float]  # left, top, width, height


def label_box(text: str, x: float, y: float, size: float) -> Box:
    """Where a label of `text` in type of `size` px, centred on (x, y), stands (a bold face's width
    estimated at 0.56 of the size a letter)."""
    width, height = len(text) * size * 0.56 + 24, size * 1.45
    return x - width / 2, y - height / 2, width, height


def unhidden(boxes: list[Box]) -> list[int]:
    """The labels that stay, in the order given (the first matter most): each one that overlaps none
    kept before it.  On a crowded TV (War Fleet's twenty against twenty, two hexes apart) names read
    over names cannot be read at all; the tokens stay and the kept names are whole."""
    kept: list[int] = []
    for n, (x, y, w, h) in enumerate(boxes):
        if all(x + w <= kx or kx + kw <= x or y + h <= ky or ky + kh <= y
               for kx, ky, kw, kh in (boxes[k] for k in kept)):
            kept.append(n)
    return kept


def name_label(ident: str, text: str, box: Box, size: float, colour: str) -> ft.Control:
    """A name (or a shot's odds) over the TV's map in `box`, in type large enough to read across the
    room, white on its side's colour; its semantics box is the text's own."""
    left, top, width, height = box
    return ft.Container(
        content=tag(ident, ft.Text(text, size=size, weight=ft.FontWeight.BOLD, color=ink_on(colour),
                                   no_wrap=True)),
        left=left, top=top, width=width, height=height, alignment=ft.Alignment.CENTER,
        bgcolor=ft.Colors.with_opacity(0.85, colour), border_radius=8)


def titled_card(ident: str, title: str, *controls: ft.Control, padding: int = 16) -> ft.Control:
    """A card of the shared screen (or the replay): its title in small capitals over its controls."""
    return tag(ident, ft.Container(
        content=ft.Column([ft.Text(title.upper(), size=13, weight=ft.FontWeight.BOLD,
                                   color=ft.Colors.ON_SURFACE_VARIANT), *controls], spacing=8, tight=True),
        padding=padding, border_radius=14, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW))


class TVScreen:
    """What every shared screen has: the game it shows, the headline and whose turn in large type,
    the last roll, the log count with the table's check code, and the Change button.  Each
    ruleset's screen lays out and draws the rest (`_layout`, `refresh`)."""

    def __init__(self, app, game):
        self.app, self.game = app, game
        self.state = None
        self._lock = asyncio.Lock()
        self.headline = ft.Text("", size=TV_HEADLINE, weight=ft.FontWeight.BOLD)
        self.whose = ft.Text("", size=TV_WHOSE, weight=ft.FontWeight.W_600)
        self.roll_title = ft.Text("", size=TV_TEXT, weight=ft.FontWeight.W_600)
        self.roll_dice = ft.Row(spacing=8, wrap=True, run_spacing=8)
        self.roll_text = ft.Text("", size=TV_TEXT)
        self.count = ft.Text("", size=12, color=ft.Colors.ON_SURFACE_VARIANT)
        self.control = ft.Container(expand=True, bgcolor=ft.Colors.SURFACE)

    async def refresh(self, force: bool = False) -> None:
        raise NotImplementedError

    async def follow_session(self) -> None:
        await self.refresh(force=True)

    def message(self, text: str | None, info: bool = False) -> None:
        """The shared screen shows no messages of its own: it does not act."""

    def tell(self, text: str) -> None:
        """Nor the notes told to every device (its log shows what happened)."""

    def _count(self) -> None:
        """The log's length and the table's check code, as the devices show them."""
        code = self.app.sharing.table(self.game).check_code()
        self.count.value = f"log {self.game.actions_in_effect} · {code}"

    async def _change(self, e) -> None:
        self.app._leave_game()
        self.app._set_screen(role_screen(self.app, self.game))


class ScreenView(TVScreen):
    """Quick-Start's shared screen; a ruleset's own TV of the same layout overrides `in_play`, `model`,
    `draw_ships` and `marks` (War Fleet's: app/rulesets/war_fleet/screen.py)."""

    def in_play(self, state) -> tuple:
        return in_play(state)

    def build_model(self, shown, history, actions: int) -> ScreenModel:
        return screen_model(shown, history, actions)

    def new_map(self, state, size: float) -> HexMap:
        hexmap = HexMap(state, self.app.theme_name, self._no_tap, size=size)
        hexmap.canvas_names = False  # drawn larger over the map (`marks`)
        return hexmap

    @property
    def drawn(self) -> HexMap:
        """The map, once laid out (every drawing on it comes after)."""
        assert self.map is not None
        return self.map

    def draw_ships(self, state) -> None:
        self.drawn.show_ships(state, None)

    def marks(self, state) -> list[tuple[str, str, tuple[float, float], str]]:
        """(identifier, words, centre, side) of each ship's name over the map."""
        layout, out = self.drawn.layout, []
        for ship in state.ships:
            xs, ys = zip(*(layout.centre(c) for c in ship.hexes))
            name = ship.card.name.replace("HML ", "") + (f" \u00d7{ship.destroyed_count()}" if ship.destroyed_count() else "")
            out.append((f"screen-name-{ship.id}", name + (" (sunk)" if ship.removed else ""),
                        (sum(xs) / len(xs), sum(ys) / len(ys)), ship.side))
        return out

    def __init__(self, app, game):
        super().__init__(app, game)
        self.model: ScreenModel | None = None
        self._wide: bool | None = None
        self.map: HexMap | None = None
        self.map_box = ft.Container(alignment=ft.Alignment.CENTER, expand=True)
        self.whose_dot = ft.Container(width=24, height=24, border_radius=12, visible=False)
        self.sides = ft.Row(spacing=16, wrap=True)
        self.overlay = ft.Stack([])  # the names and the shots' odds over the map, large
        self.lost = ft.Column(spacing=6, tight=True)
        self.shots = ft.Column(spacing=8, tight=True)
        self._layout()
        run_soon(app.page, keep_awake, app, True)  # a TV by the table should not go dark

    # --- layout ----------------------------------------------------------------------------

    @property
    def wide(self) -> bool:
        return (self.app.page.width or 1280) >= NARROW

    def _layout(self) -> None:
        page = self.app.page
        width, height = page.width or 1280, page.height or 800
        self._wide = wide = self.wide
        if wide:
            map_w, map_h = width - SIDE_WIDTH - 24, height - 150
        else:
            map_w = width - 16
            map_h = min(height * 0.5, map_w * 0.75)
        state = self.game.state
        self._in_play = self.in_play(state)
        size, left, top = ships_view(state.board, self._in_play, map_w, map_h)
        self.map = self.new_map(state, size)
        self.map.name_size = TV_NAME
        self._shown = (left, top, map_w, map_h, size)
        self.map.labels.visible = False  # hex numbers are for the players' screens, not read from the room
        self.overlay.width, self.overlay.height = self.map.layout.width, self.map.layout.height
        self.map.stack.controls.append(self.overlay)
        self.map.stack.left, self.map.stack.top = -left, -top
        self.map_box.content = ft.Container(
            content=ft.Stack([self.map.stack], width=min(map_w, self.map.layout.width),
                             height=min(map_h, self.map.layout.height)),
            border_radius=10, clip_behavior=ft.ClipBehavior.ANTI_ALIAS)
        self.map_box.bgcolor = self.map.colours["sky"]
        self.map_box.height = None if wide else map_h
        self.headline.size, self.whose.size = (TV_HEADLINE, TV_WHOSE) if wide else (26, 20)
        self.roll_title.size, self.roll_text.size = (TV_TEXT, TV_TEXT) if wide else (20, 18)  # read from 3 m on a TV
        bar = ft.Container(content=ft.Row([
            ft.Icon(ft.Icons.TV, color=ft.Colors.ON_SURFACE_VARIANT, size=20),
            ft.Text(self.game.name, size=14, weight=ft.FontWeight.W_600, expand=True, max_lines=1,
                    overflow=ft.TextOverflow.ELLIPSIS),
            tag("sync", self.count),
            icon_button(ft.Icons.HOME_OUTLINED, "Home", on(self.app.navigate, Session()), "home"),
            icon_button(ft.Icons.REPLAY, "Replay, turn by turn", on(self.app.navigate, Session("replay", self.game.id)),
                        "screen-replay"),
            tag("change-role", ft.TextButton(content="Change", icon=ft.Icons.SWAP_HORIZ, on_click=self._change)),
        ], spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            padding=ft.Padding.only(left=14, right=6), height=42, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH)
        heading = ft.Container(content=ft.Column([
            tag("screen-headline", self.headline),
            ft.Row([self.whose_dot, tag("screen-whose", self.whose)], spacing=10,
                   vertical_alignment=ft.CrossAxisAlignment.CENTER, wrap=True),
        ], spacing=2, tight=True), padding=ft.Padding.only(left=18, right=18, top=10, bottom=6))
        roll = titled_card("screen-last-roll", "Last roll", self.roll_title, self.roll_dice, self.roll_text)
        lost = titled_card("screen-lost", "Ships lost", self.lost)
        fleets = titled_card("screen-sides", "Fleets", self.sides)
        self.shots_card = shots = titled_card("screen-shots", "Shots to roll", self.shots)
        shots.visible = bool(self.model and self.model.shots)
        body: ft.Control
        if wide:
            side = ft.Container(content=ft.Column([shots, roll, lost, fleets], spacing=12, scroll=ft.ScrollMode.AUTO,
                                                  horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
                                width=SIDE_WIDTH, padding=ft.Padding.only(right=12, bottom=12))
            body = ft.Row([ft.Container(content=self.map_box, expand=True, padding=ft.Padding.only(left=12, bottom=12)),
                           side], spacing=12, expand=True, vertical_alignment=ft.CrossAxisAlignment.STRETCH)
        else:
            body = ft.Column([ft.Container(content=self.map_box, padding=ft.Padding.symmetric(horizontal=8)),
                              ft.Container(content=ft.Column([shots, roll, lost, fleets], spacing=10,
                                                             horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
                                           padding=ft.Padding.symmetric(horizontal=8))],
                             spacing=10, scroll=ft.ScrollMode.AUTO, expand=True)
        self.control.content = ft.Column([bar, heading, body], spacing=0, expand=True)
        if self.model is not None:
            self.draw_ships(self.model_state)
            self._draw_shots(self.model)

    def _off_view(self, state) -> bool:
        """Whether a ship in play has come (or gone) where the map's view was not fitted to it."""
        left, top, width, height, size = self._shown
        return any(not (left + size <= x <= left + width - size and top + size <= y <= top + height - size)
                   for x, y in map(self.drawn.layout.centre, self.in_play(state)))

    def _draw_shots(self, m: ScreenModel) -> None:
        """Each declared shot as a line from the gun's hex to the struck location's, its odds large on
        the line's middle; each ship's name large over its ship, where it hides no other label (the
        shots' odds first, then the names: `unhidden`)."""
        sides, theme = self.model_state.sides, self.app.theme_name
        shapes, wanted = [], []
        for n, line in enumerate(m.shots, start=1):
            colour = side_colour(sides, line.side, theme)
            lines, (x, y) = shot_line(self.drawn.layout, line, colour)
            shapes += lines
            wanted.append((f"screen-odds-{n}", line.odds, label_box(line.odds, x, y, TV_ODDS), TV_ODDS, colour))
        for ident, words, (x, y), side in self.marks(self.model_state):
            wanted.append((ident, words, label_box(words, x, y, TV_NAME), TV_NAME, side_colour(sides, side, theme)))
        self.drawn.marks.shapes = shapes
        self.overlay.controls = [name_label(*wanted[n]) for n in unhidden([w[2] for w in wanted])]

    async def _no_tap(self, cell) -> None:
        return None

    async def relayout(self) -> None:
        self._layout()
        await self.refresh(force=True)

    # --- refresh -------------------------------------------------------------------------------

    async def refresh(self, force: bool = False) -> None:
        async with self._lock:
            state = self.game.state
            if state is self.state and not force:
                return
            shown = self.game.ruleset.view_for(state, None)  # the shared screen holds no side
            model = await asyncio.to_thread(self.build_model, shown, self.game.history(), self.game.actions_in_effect)
            self.state, self.model, self.model_state = state, model, shown
            self.render(model, shown)

    def render(self, m: ScreenModel, state) -> None:
        if self.in_play(state) != self._in_play and self._off_view(state):
            self._layout()  # zoomed to where the ships now are
        self.headline.value = m.headline
        self.whose.value = m.whose
        self.whose_dot.visible = m.whose_side is not None
        if m.whose_side:
            self.whose_dot.bgcolor = side_colour(state.sides, m.whose_side, self.app.theme_name)
        self._count()
        roll = m.last_roll
        big = TV_DIE if self._wide else 40
        if roll is None:
            self.roll_title.value = "No dice rolled yet"
            self.roll_dice.controls = []
            self.roll_text.value = ""
        else:
            self.roll_title.value = roll.title
            self.roll_dice.controls = [tag(f"screen-die-{n}", die_face(colour, face, big))
                                       for n, (colour, face) in enumerate(roll.dice, start=1)]
            self.roll_text.value = roll.text
        self.lost.controls = [
            ft.Row([ft.Icon(ft.Icons.DANGEROUS, color=CIRCLED, size=22),
                    ft.Column([ft.Text(f"{ship.name} ({ship.side})", size=TV_TEXT if self._wide else 17,
                                       weight=ft.FontWeight.W_600),
                               muted(ship.why, 20 if self._wide else 13)], spacing=0, tight=True, expand=True)], spacing=8)
            for ship in m.lost
        ] or [muted("None yet.", 15)]
        self.sides.controls = [
            ft.Row([ft.Container(width=14, height=14, border_radius=7, bgcolor=side_colour(state.sides, line.side, self.app.theme_name)),
                    ft.Text(f"{line.side}: {line.afloat} of {line.ships} afloat", size=TV_TEXT if self._wide else 16,
                            weight=ft.FontWeight.BOLD if line.acting else None)], spacing=6, tight=True)
            for line in m.sides
        ]
        self.shots.controls = [
            ft.Column([ft.Text(line.what, size=TV_TEXT if self._wide else 16, weight=ft.FontWeight.W_600,
                               color=side_colour(state.sides, line.side, self.app.theme_name)),
                       tag(f"screen-shot-odds-{n}", ft.Text(line.odds, size=TV_ODDS if self._wide else 17))],
                      spacing=0, tight=True)
            for n, line in enumerate(m.shots, start=1)]
        self.shots_card.visible = bool(m.shots)
        self.draw_ships(state)
        self._draw_shots(m)
        update_shown(self.control)  # not on the page yet: the first page update sends it
