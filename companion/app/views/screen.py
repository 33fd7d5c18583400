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
from ..label_layout import Item, Layout, Rect, lay_out
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
#: A name's least size (issue 35): a name is drawn at TV_NAME, else at this, else every ship by a
#: short mark of TV_MARK px on its token, with a legend beside the map (label_layout.lay_out);
#: the section titles and the top bar's words at TV_SMALL.
TV_LEAST_NAME, TV_MARK, TV_SMALL = 24, 26, 20
VOLLEY_DIE = 48  # px: each die of a volley's shots (a lone roll's are TV_DIE)


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


def name_label(ident: str, text: str, box: Rect, size: float, colour: str) -> ft.Control:
    """A name, a mark or a shot's odds over the TV's map in `box` (label_layout's place for it), in
    type large enough to read across the room, white on its side's colour; its semantics box is the
    text's own."""
    left, top, width, height = box
    return ft.Container(
        content=tag(ident, ft.Text(text, size=size, weight=ft.FontWeight.BOLD, color=ink_on(colour),
                                   no_wrap=True)),
        left=left, top=top, width=width, height=height, alignment=ft.Alignment.CENTER,
        bgcolor=ft.Colors.with_opacity(0.85, colour), border_radius=8)


def token_node(ident: str, box: Rect) -> ft.Control:
    """A ship's token as a box with an identifier over the map (drawn on the canvas below): so a
    test reads where each token stands, as it reads the labels."""
    left, top, width, height = box
    return ft.Container(content=ft.Semantics(identifier=ident, container=True,
                                             content=ft.Container(width=width, height=height)),
                        left=left, top=top, width=width, height=height)


def hex_boxes(layout, cells, inset: float = 3.0) -> tuple[Rect, ...]:
    """The rectangles round each of these hexes as the map draws them (a Quick-Start hull)."""
    out = []
    for cell in cells:
        xs, ys = zip(*layout.corners(cell, inset))
        out.append((min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
    return tuple(out)


def legend_card(lines, colour_of) -> ft.Control:
    """The marks' legend beside the map: each class's marks and names, in its side's colour."""
    rows: list[ft.Control] = [tag(f"screen-key-{n}", ft.Row([
        ft.Container(content=ft.Text(line.marks, size=TV_MARK, weight=ft.FontWeight.BOLD, color=ink_on(colour_of(line.side)),
                                     no_wrap=True),
                     bgcolor=colour_of(line.side), border_radius=8, padding=ft.Padding.symmetric(horizontal=8)),
        ft.Text(line.names, size=TV_MARK, weight=ft.FontWeight.W_600, no_wrap=True)], spacing=10, tight=True))
        for n, line in enumerate(lines, start=1)]
    return titled_card("screen-legend", "Ships on the map", ft.Column(rows, spacing=6, tight=True))


def titled_card(ident: str, title: str, *controls: ft.Control, padding: int = 16) -> ft.Control:
    """A card of the shared screen (or the replay): its title in capitals over its controls, read
    from three metres (TV_SMALL: issue 35)."""
    return tag(ident, ft.Container(
        content=ft.Column([tag(f"{ident}-title", ft.Text(title.upper(), size=TV_SMALL, weight=ft.FontWeight.BOLD,
                                                         color=ft.Colors.ON_SURFACE_VARIANT)),
                           *controls], spacing=8, tight=True),
        padding=padding, border_radius=14, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW))


def _ident(key: str) -> str:
    """A label's identifier on the page: a shot's odds, or a ship's name or mark."""
    return f"screen-{key}" if key.startswith("odds-") else f"screen-name-{key}"


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
        self.count = ft.Text("", size=TV_SMALL, color=ft.Colors.ON_SURFACE_VARIANT)  # read from 3 m (issue 35)
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
        self.count.size = TV_SMALL if (self.app.page.width or 1280) >= NARROW else 12
        self.count.value = f"log {self.game.actions_in_effect} · {code}"

    async def _change(self, e) -> None:
        self.app._leave_game()
        self.app._set_screen(role_screen(self.app, self.game))


class ScreenView(TVScreen):
    """Quick-Start's shared screen; a ruleset's own TV of the same layout overrides `in_play`, `model`,
    `draw_ships` and `label_items` (War Fleet's: app/rulesets/war_fleet/screen.py)."""

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

    def label_items(self, state) -> list[Item]:
        """What the TV labels of each ship: its name (the damage and "sunk" with it), its hull's
        hexes as the token, and the plain name its mark is made from when names do not fit."""
        layout, out = self.drawn.layout, []
        for ship in state.ships:
            xs, ys = zip(*(layout.centre(c) for c in ship.hexes))
            plain = ship.card.name.replace("HML ", "")
            name = plain + (f" \u00d7{ship.destroyed_count()}" if ship.destroyed_count() else "")
            out.append(Item(ship.id, name + (" (sunk)" if ship.removed else ""), hex_boxes(layout, ship.hexes),
                            (sum(xs) / len(xs), sum(ys) / len(ys)), plain, ship.side))
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
        self.labels: Layout | None = None  # where the labels stand now (kept: a label stays put)
        self.legend = ft.Container(visible=False)  # the marks' legend, when names do not fit
        self.volley = ft.Column(spacing=14, tight=True)  # the last volley's shots, each with its dice
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
            map_w, map_h = width - SIDE_WIDTH - 24, height - 180  # the bar, the headline, a margin
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
        self.map_box.content = tag("screen-map", ft.Container(
            content=ft.Stack([self.map.stack], width=min(map_w, self.map.layout.width),
                             height=min(map_h, self.map.layout.height)),
            border_radius=10, clip_behavior=ft.ClipBehavior.ANTI_ALIAS))
        self.map_box.bgcolor = self.map.colours["sky"]
        self.map_box.height = None if wide else map_h
        self.headline.size, self.whose.size = (TV_HEADLINE, TV_WHOSE) if wide else (26, 20)
        self.roll_title.size, self.roll_text.size = (TV_TEXT, TV_TEXT) if wide else (20, 18)  # read from 3 m on a TV
        bar = ft.Container(content=ft.Row([
            ft.Icon(ft.Icons.TV, color=ft.Colors.ON_SURFACE_VARIANT, size=28 if wide else 20),
            tag("screen-title", ft.Text(self.game.name, size=TV_SMALL if wide else 14, weight=ft.FontWeight.W_600,
                                        expand=True, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS)),
            tag("sync", self.count),
            icon_button(ft.Icons.HOME_OUTLINED, "Home", on(self.app.navigate, Session()), "home"),
            icon_button(ft.Icons.REPLAY, "Replay, turn by turn", on(self.app.navigate, Session("replay", self.game.id)),
                        "screen-replay"),
            tag("change-role", ft.TextButton(content=ft.Text("Change", size=TV_SMALL if wide else 14),
                                             icon=ft.Icons.SWAP_HORIZ, on_click=self._change)),
        ], spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            padding=ft.Padding.only(left=14, right=6), height=54 if wide else 42, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH)
        heading = ft.Container(content=ft.Column([
            tag("screen-headline", self.headline),
            ft.Row([self.whose_dot, tag("screen-whose", self.whose)], spacing=10,
                   vertical_alignment=ft.CrossAxisAlignment.CENTER, wrap=True),
        ], spacing=2, tight=True), padding=ft.Padding.only(left=18, right=18, top=10, bottom=6))
        roll = titled_card("screen-last-roll", "Last roll", self.roll_title, self.roll_dice, self.roll_text,
                           self.volley)
        lost = titled_card("screen-lost", "Ships lost", self.lost)
        fleets = titled_card("screen-sides", "Fleets", self.sides)
        self.shots_card = shots = titled_card("screen-shots", "Shots to roll", self.shots)
        self.labels = None  # a new zoom: new places
        shots.visible = bool(self.model and self.model.shots)
        body: ft.Control
        if wide:
            side = ft.Container(content=ft.Column([self.legend, shots, roll, lost, fleets], spacing=12, scroll=ft.ScrollMode.AUTO,
                                                  horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
                                width=SIDE_WIDTH, padding=ft.Padding.only(right=12, bottom=12))
            body = ft.Row([ft.Container(content=self.map_box, expand=True, padding=ft.Padding.only(left=12, bottom=12)),
                           side], spacing=12, expand=True, vertical_alignment=ft.CrossAxisAlignment.STRETCH)
        else:
            body = ft.Column([ft.Container(content=self.map_box, padding=ft.Padding.symmetric(horizontal=8)),
                              ft.Container(content=ft.Column([self.legend, shots, roll, lost, fleets], spacing=10,
                                                             horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
                                           padding=ft.Padding.symmetric(horizontal=8))],
                             spacing=10, scroll=ft.ScrollMode.AUTO, expand=True)
        self.control.content = ft.Column([bar, heading, body], spacing=0, expand=True)
        if self.model is not None:
            self.draw_ships(self.model_state)
            self._draw_shots(self.model)

    def _volley_shot(self, n: int, shot) -> ft.Control:
        """One shot of the last volley: whose gun, its dice (smaller than a lone roll's, still read
        from three metres), what it did."""
        size = VOLLEY_DIE if self._wide else 32
        return tag(f"screen-volley-{n}", ft.Column([
            ft.Text(shot.title, size=TV_SMALL if self._wide else 16, weight=ft.FontWeight.W_600),
            ft.Row([tag(f"screen-die-{n}-{k}", die_face(colour, face, size))
                    for k, (colour, face) in enumerate(shot.dice, start=1)], spacing=6, wrap=True, run_spacing=6),
            ft.Text(shot.text, size=TV_SMALL if self._wide else 14)], spacing=4, tight=True))

    def _off_view(self, state) -> bool:
        """Whether a ship in play has come (or gone) where the map's view was not fitted to it."""
        left, top, width, height, size = self._shown
        return any(not (left + size <= x <= left + width - size and top + size <= y <= top + height - size)
                   for x, y in map(self.drawn.layout.centre, self.in_play(state)))

    def _draw_shots(self, m: ScreenModel) -> None:
        """Each declared shot as a line from the gun's hex to the struck location's, its odds large
        beside the line's middle; each ship's name large beside its token; none over another label
        or a token, each kept where it stood while it may stay (label_layout.lay_out), with a leader
        line where a label stands away.  Where the names do not fit, a mark on each token and the
        marks' legend beside the map."""
        sides, theme = self.model_state.sides, self.app.theme_name
        colour_of = {side: side_colour(sides, side, theme) for side in sides}
        shapes, items, colours = [], self.label_items(self.model_state), {}
        tokens = [(item.key, box) for item in items for box in item.body]
        for item in items:
            colours[item.key] = colour_of.get(item.side, "#555a61")
        for n, line in enumerate(m.shots, start=1):
            colour = colour_of.get(line.side, "#555a61")
            lines, middle = shot_line(self.drawn.layout, line, colour)
            shapes += lines
            items.append(Item(f"odds-{n}", line.odds, (), middle, None, line.side))
            colours[f"odds-{n}"] = colour
        left, top, width, height, _ = self._shown
        layout = self.drawn.layout
        bounds = (left + 4, top + 4, min(width, layout.width - left) - 8, min(height, layout.height - top) - 8)
        self.labels = placed = lay_out(items, (TV_NAME, TV_LEAST_NAME), TV_MARK, bounds, self.labels)
        stroke = ft.PaintingStyle.STROKE
        for label in placed.labels:
            if label.leader is not None:
                shapes.append(cv.Line(*label.leader, paint=ft.Paint(color=colours[label.key], stroke_width=4,
                                                                   style=stroke)))
        self.drawn.marks.shapes = shapes
        self.overlay.controls = [token_node(f"screen-token-{key}", box) for key, box in tokens] + [
            name_label(_ident(label.key), label.text, label.box, placed.size, colours[label.key])
            for label in placed.labels]
        self.legend.content = legend_card(placed.legend, lambda side: colour_of.get(side, "#555a61")) \
            if placed.marks else None
        self.legend.visible = placed.marks

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
        self.volley.controls = [self._volley_shot(n, shot) for n, shot in enumerate(m.volley, start=1)] \
            if len(m.volley) > 1 else []
        if len(m.volley) > 1:  # "Roll all": every shot of the volley with its dice, not only the last
            self.roll_title.value = f"Last volley: {len(m.volley)} shots"
            self.roll_dice.controls = []
            self.roll_text.value = ""
        elif roll is None:
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
        ] or [muted("None yet.", TV_SMALL if self._wide else 15)]
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
