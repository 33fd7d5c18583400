"""The fire panel: every gun with its targets, range, band, dice, exact odds; declared shots.
Kept on screen and changed in place (a roll sends its shot's dice and result line, not the panel).

A shot resolves by the app's dice ("Roll") or by the players' own ("Table
dice": each die's faces as buttons, one tap a die).
"""

from __future__ import annotations

from typing import Awaitable, Callable

import flet as ft

from ....engine.dice import FACES, Colour
from ...theme import DICE
from ...panels import FaceField, GunView, ShotView, StrikeView, destroyed_weight
from ...views.frame import on
from ...views.widgets import TOUCH, chips, die_face, heading, icon_button, inner, muted, pill, put, show_chips, tag

Declare = Callable[[str, int, str, str], Awaitable[None]]

#: A "ship destroyed" badge's ink and fill by its weight (panels.destroyed_weight).
_DESTROYED_LOOK = {
    "grave": (ft.Colors.ON_ERROR, ft.Colors.ERROR),
    "notable": (ft.Colors.ON_ERROR_CONTAINER, ft.Colors.ERROR_CONTAINER),
    "slight": (ft.Colors.ON_SURFACE_VARIANT, ft.Colors.SURFACE_CONTAINER_HIGH),
}

def _strike_row(gun: GunView, target_id: str, strike: StrikeView, declare: Declare | None) -> ft.Control:
    where = f"{gun.location}-{gun.slot}-{target_id}-{strike.location}"
    slot_bits: list[ft.Control] = [pill(ft.Text(f"{o.slot} {o.name} {o.text}", size=11), ft.Colors.SURFACE_CONTAINER_HIGH,
                      f"exactly {o.chance}") for o in strike.slots]
    if strike.keel:
        slot_bits.append(pill(ft.Text(f"keel {strike.keel_text}", size=11, color=ft.Colors.ON_ERROR_CONTAINER),
                              ft.Colors.ERROR_CONTAINER, f"exactly {strike.keel}"))
    if strike.ship_destroyed:
        weight = destroyed_weight(strike.ship_destroyed)  # the badge as loud as the risk
        ink, fill = _DESTROYED_LOOK[weight]
        slot_bits.append(tag(f"ship-destroyed-{where}", pill(
            ft.Text(f"ship destroyed {strike.ship_destroyed_text}", size=11, color=ink,
                    weight=ft.FontWeight.BOLD if weight != "slight" else None), fill,
            f"exactly {strike.ship_destroyed}: the keel breaks, or the slot destroyed leaves every "
            "slot of the location destroyed or the destroyed slots at half the SI")))
    button = [] if declare is None else [tag(f"declare-{where}", ft.FilledTonalButton(
        content="Declare", icon=ft.Icons.GPS_FIXED, height=TOUCH,
        on_click=on(declare, gun.location, gun.slot, target_id, strike.location)))]
    return ft.Container(
        content=ft.Column([
            ft.Row([ft.Text(f"at the {strike.name.lower()}", weight=ft.FontWeight.W_600), chips(strike.pool, 16),
                    muted(strike.pool_text, 11)], wrap=True, spacing=6),
            ft.Row([ft.Text(f"Breach {strike.damage_text}", weight=ft.FontWeight.BOLD, size=15,
                            tooltip=f"exactly {1 - strike.no_effect}"),
                    *slot_bits], wrap=True, spacing=4, run_spacing=4),
            *button,
        ], spacing=6, tight=True),
        padding=8, border_radius=8, bgcolor=ft.Colors.SURFACE,
    )


def gun_control(gun: GunView, declare: Declare | None) -> ft.Control:
    lines: list[ft.Control] = [ft.Row([
        ft.Icon(ft.Icons.ADJUST, size=18),
        ft.Text(f"{gun.name}", weight=ft.FontWeight.BOLD),
        muted(f"{gun.location} slot {gun.slot} · {gun.bands}", 12),
        ft.Container(expand=True),
        ft.Text("declared", color=ft.Colors.PRIMARY, size=12) if gun.fired else ft.Container(),
    ], spacing=6)]
    for target in gun.targets:
        if not target.strikes:
            lines.append(muted(f"{target.name}: {target.summary}", 12))
            continue
        lines.append(ft.Text(f"{target.name} · {target.summary}", size=13))
        for strike in target.strikes:
            lines.append(_strike_row(gun, target.target, strike, None if gun.fired else declare))
    return ft.Container(content=ft.Column(lines, spacing=6, tight=True), padding=10, border_radius=10,
                        bgcolor=ft.Colors.SURFACE_CONTAINER_LOW)


class TableDiceEntry:
    """The faces the players rolled, one tap each: every die's faces as buttons (a DGreen 1 to 4,
    ... a DBlack 1 to 12), the pool in order, then the slot die; a die not yet picked is named
    beside its row, every one at once, when Resolve is tapped."""

    def __init__(self, shot: ShotView, fields: tuple[FaceField, ...], submit, cancel, buttons: bool = True):
        """buttons=False: rows alone, on a volley's sheet (`VolleySheet`) with one Resolve for all."""
        self.shot, self.fields, self.submit, self.cancel = shot, list(fields), submit, cancel
        self.buttons = buttons
        self.faces: list[int | None] = [None] * len(self.fields)
        self.problems: dict[int, str] = {}
        self.column = ft.Column(spacing=10, tight=True)
        self._build()

    def add(self, purpose: str, colour: str, label: str, count: int = 1) -> None:
        """More dice to pick (a slot die re-rolled, the keel dice), the faces picked kept."""
        self.fields += [FaceField(purpose, colour, label)] * count
        self.faces += [None] * count
        self._build()

    def _build(self) -> None:
        intro = ("Tap each die's face as rolled: the pool in order, then the slot die." if self.buttons
                 else self.shot.text)
        self.column.controls = [
            *([] if self.buttons else [heading(f"Shot {self.shot.id}", 14)]),  # on a volley's sheet
            muted(intro + (" The location die first: it decides which location's dice the pool holds."
                           if any(f.purpose == "location" for f in self.fields) else ""), 12),
            *(self._row(i) for i in range(len(self.fields))),
            *([ft.Row([tag(f"resolve-{self.shot.id}", ft.FilledButton(content="Resolve", icon=ft.Icons.CHECK,
                                                                      on_click=self._submitted, height=TOUCH)),
                       ft.TextButton(content="Close", on_click=self.cancel, height=TOUCH)])] if self.buttons else []),
        ]

    def missing(self) -> bool:
        """Name every die not yet picked beside its row (shown with the next update); whether any is."""
        self.problems = {i: "tap the face it shows" for i, face in enumerate(self.faces) if face is None}
        if self.problems:
            self._build()
        return bool(self.problems)

    def table_faces(self) -> dict[str, list[int]]:
        """The faces picked, by purpose: what `ResolveShot.table` takes."""
        return {part: [f for f, spec in zip(self.faces, self.fields) if spec.purpose == part and f is not None]
                for part in ("pool", "slot", "keel", "location")}

    def _row(self, i: int) -> ft.Control:
        field, picked = self.fields[i], self.faces[i]
        fill, ink = DICE.get(field.colour, ("#888888", "#ffffff"))
        slots_before = sum(1 for g in self.fields[:i] if g.purpose == "slot")
        name = {"pool": field.label, "slot": "Slot die" if not slots_before else "Slot die re-rolled",
                "keel": field.label, "location": field.label}[field.purpose]

        def face(n: int) -> ft.Control:
            async def pick(e) -> None:
                self.faces[i] = n
                self.problems.pop(i, None)
                self.column.controls[i + (1 if self.buttons else 2)] = self._row(i)
                self.column.update()
            chosen = n == picked
            return tag(f"face-{self.shot.id}-{i}-{n}", ft.Container(
                content=ft.Text(str(n), size=16, weight=ft.FontWeight.BOLD, color=ink if chosen else None),
                width=TOUCH, height=TOUCH, border_radius=8, alignment=ft.Alignment.CENTER, on_click=pick,
                bgcolor=fill if chosen else ft.Colors.SURFACE_CONTAINER_HIGH,
                # a picked face is ringed in the ink of the page, so a cream slot die's shows too (issue 28)
                border=ft.Border.all(4, ft.Colors.ON_SURFACE) if chosen else ft.Border.all(2, fill)),
                label=f"{name}: {n}{' (picked)' if chosen else ''}")
        problem = self.problems.get(i)
        heading_row: list[ft.Control] = [heading(name, 13)]
        if problem:
            heading_row.append(tag(f"face-problem-{self.shot.id}-{i}", ft.Text(problem, size=12, color=ft.Colors.ERROR)))
        return ft.Column([ft.Row(heading_row, spacing=8, wrap=True),
                          ft.Row([face(n) for n in sorted(set(FACES[Colour(field.colour)]))],
                                 wrap=True, spacing=4, run_spacing=4)], spacing=4, tight=True)

    async def _submitted(self, e) -> None:
        if self.missing():
            self.column.update()
            return
        await self.submit(self)


class VolleySheet:
    """One sheet of every declared shot's dice (issue 28.7): each shot's rows together, in the order
    declared, and one Resolve for all.  Resolve names every die still to pick first; then the shots
    are resolved in order, each leaving the sheet once done; a shot that needs more dice (a slot
    die re-rolled, the keel dice) stops there with its new rows to pick."""

    def __init__(self, entries: list[TableDiceEntry], submit, close):
        self.entries, self.submit = entries, submit
        self.resolve = tag("resolve-all", ft.FilledButton(content="", icon=ft.Icons.CHECK, height=TOUCH,
                                                          on_click=self._submitted))
        self.buttons = ft.Row([self.resolve, tag("close-all", ft.TextButton(content="Close", on_click=close,
                                                                            height=TOUCH))], wrap=True)
        self.intro = muted("Tap each die's face as rolled, shot by shot: the pool in order, then the slot die.", 12)
        self.column = ft.Column(spacing=12, tight=True)
        self.control = tag("volley-sheet", ft.Container(content=self.column, padding=10, border_radius=10,
                                                        bgcolor=ft.Colors.SECONDARY_CONTAINER))

    def keep(self, shot_ids: set[int]) -> None:
        """Drop the entries of shots no longer to roll (resolved, cancelled, undone)."""
        self.entries = [e for e in self.entries if e.shot.id in shot_ids]

    def show(self) -> ft.Control:
        n = len(self.entries)
        inner(self.resolve, ft.FilledButton).content = f"Resolve all {n}" if n > 1 else "Resolve"
        put(self.column, [self.intro, *(e.column for e in self.entries), self.buttons])
        return self.control

    async def _submitted(self, e) -> None:
        missing = [entry for entry in self.entries if entry.missing()]
        if missing:
            self.column.update()
            return
        await self.submit(self)


class ShotCard:
    """One declared shot, kept on screen and changed in place: a roll turns its pool and
    buttons into the dice rolled and the result line."""

    def __init__(self, shot_id: int, roll, enter, cancel, choose):
        self.shot_id, self.choose = shot_id, choose
        self.choices = ft.Row([], wrap=True, spacing=6)
        self.text = ft.Text("", size=13, expand=True)
        self.header = ft.Row([ft.Text(f"Shot {shot_id}", weight=ft.FontWeight.BOLD), self.text],
                             vertical_alignment=ft.CrossAxisAlignment.START)
        self.faces = ft.Row(spacing=4, wrap=True, tight=True)
        self._dice: tuple | None = None
        self.result = ft.Text("", weight=ft.FontWeight.W_600)
        self.result_line = tag(f"result-{shot_id}", self.result)
        self.pool = chips((), 16)
        self.pool_line = ft.Row([self.pool, muted("+ slot die", 11)], spacing=6)
        self.buttons = ft.Row([
            tag(f"roll-{shot_id}", ft.FilledButton(content="Roll", icon=ft.Icons.CASINO, on_click=on(roll, shot_id),
                                                   height=TOUCH)),
            tag(f"enter-{shot_id}", ft.OutlinedButton(content="Table dice", icon=ft.Icons.TOUCH_APP,
                                                      on_click=on(enter, shot_id), height=TOUCH)),
            icon_button(ft.Icons.DELETE_OUTLINE, "Cancel this shot", on(cancel, shot_id), f"cancel-{shot_id}"),
        ], wrap=True)
        self.lines = ft.Column(spacing=6, tight=True)
        self.control = ft.Container(content=self.lines, padding=10, border_radius=10,
                                    key=ft.ScrollKey(f"shot-{shot_id}"))  # type: ignore[call-arg]  # Flet's decorator hides its field; a phone is brought to its result

    def show(self, shot: ShotView, entry: TableDiceEntry | None, on_sheet: bool = False) -> ft.Control:
        """on_sheet: its dice are on the volley's sheet above, so the card shows its pool alone."""
        self.text.value = shot.text
        lines: list[ft.Control] = [self.header]
        if shot.resolved:
            if shot.dice != self._dice:
                self._dice = shot.dice
                self.faces.controls = [die_face(c, f, 32) for c, f in shot.dice]
            self.result.value = shot.result
            self.result.color = ft.Colors.ERROR if shot.outcome in ("slot_destroyed", "keel_break") else ft.Colors.ON_SURFACE
            lines += [self.faces, self.result_line]
        elif shot.choices:  # the target's side picks the location struck (table rule): nothing to roll yet
            put(self.choices, [tag(f"choose-{self.shot_id}-{loc}", ft.OutlinedButton(
                content=f"Strike the {name}", on_click=on(self.choose, self.shot_id, loc), height=TOUCH))
                for loc, name in shot.choices])
            lines.append(self.choices)
        else:
            show_chips(self.pool, shot.pool, 16)
            lines += [self.pool_line] if on_sheet else [self.pool_line, self.buttons]
            if entry is not None and not on_sheet:
                lines.append(entry.column)
        self.control.bgcolor = ft.Colors.SURFACE_CONTAINER_LOW if shot.resolved else ft.Colors.SECONDARY_CONTAINER
        put(self.lines, lines)
        return self.control


class FirePanel:
    """The fire panel kept on screen and changed in place, as the ship card: a roll changes
    its shot's lines; a gun row is made again only when what it shows changed."""

    def __init__(self, declare: Declare, roll, enter, cancel, choose, roll_all=None, enter_all=None):
        self.declare, self.roll, self.enter, self.cancel, self.choose = declare, roll, enter, cancel, choose
        # a side's volley (issue 28.7): every declared shot this device may roll, in one tap
        self.roll_all = tag("roll-all", ft.FilledButton(content="", icon=ft.Icons.CASINO, height=TOUCH,
                                                        on_click=on(roll_all) if roll_all else None))
        self.enter_all = tag("enter-all", ft.OutlinedButton(content="", icon=ft.Icons.TOUCH_APP, height=TOUCH,
                                                            on_click=on(enter_all) if enter_all else None))
        self.volley = ft.Row([self.roll_all, self.enter_all], wrap=True, spacing=8, run_spacing=6)
        self.column = ft.Column(spacing=10, tight=True)
        self.control = tag("fire", self.column)
        self.shots_heading = heading("Declared shots")
        self.no_ship = muted("Select a ship on the map or in the ship list to see its guns and targets.")
        self.guns_heading = heading("")
        self.not_yet = muted("Shots are declared in the fire phase; the odds below are for the table as it stands.")
        self.no_guns = muted("No working guns.")
        self.theirs = tag("their-guns", muted(""))
        self._shots: dict[int, ShotCard] = {}
        self._guns: dict[tuple, ft.Control] = {}

    def show(self, ship_name: str | None, phase: str, guns: tuple[GunView, ...], shots: tuple[ShotView, ...],
             entries: dict[int, TableDiceEntry], held_by: str | None = None, to_roll: int = 0,
             sheet: VolleySheet | None = None) -> ft.Control:
        """held_by names the side holding this device when the ship is the other side's:
        its guns and odds are shown, with nothing to declare a shot by.  to_roll: the declared
        shots this device may roll together (volley.shots_to_roll): two or more offer "Roll all"
        and "Table dice for all"; `sheet`: that one sheet of their dice, while open."""
        parts: list[ft.Control] = []
        if shots:
            parts.append(self.shots_heading)
            if sheet is not None:
                parts.append(sheet.show())
            elif to_roll > 1:
                inner(self.roll_all, ft.FilledButton).content = f"Roll all {to_roll} declared"
                inner(self.enter_all, ft.OutlinedButton).content = f"Table dice for all {to_roll}"
                parts.append(self.volley)
            on_sheet = {e.shot.id for e in sheet.entries} if sheet is not None else set()
            cards = {}
            for shot in shots:
                card = cards[shot.id] = self._shots.get(shot.id) or ShotCard(shot.id, self.roll, self.enter, self.cancel, self.choose)
                parts.append(card.show(shot, entries.get(shot.id), shot.id in on_sheet))
            self._shots = cards
        if ship_name is None:
            parts.append(self.no_ship)
        else:
            self.guns_heading.value = f"{ship_name}: guns"
            parts.append(self.guns_heading)
            declaring = phase == "combat" and held_by is None
            if held_by is not None:
                inner(self.theirs, ft.Text).value = f"Shown read-only: this device holds {held_by}."
                parts.append(self.theirs)
            elif phase != "combat":
                parts.append(self.not_yet)
            if not guns:
                parts.append(self.no_guns)
            rows = {}
            for gun in guns:
                key = (gun, declaring)
                rows[key] = self._guns.get(key) or gun_control(gun, self.declare if declaring else None)
                parts.append(rows[key])
            self._guns = rows
        put(self.column, parts)
        return self.control


#: The Fire tab's sections a player can bring to its top (issue 28.2), with the words on their buttons.
SECTIONS = (("guns", "Guns", ft.Icons.ADJUST), ("best", "Best shots", ft.Icons.STAR_OUTLINE),
            ("plan", "Fire plan", ft.Icons.CHECKLIST))


class FireSections:
    """The row at the top of the Fire tab: "Guns", "Best shots", "Fire plan".  A tap brings
    that section to the top of the tab, right under this row (the others follow it), so the shot
    advisor and the plan are one tap away however many guns the ship has: nothing is scrolled to
    (a scroll on a control the browser is not showing times out: issue 25)."""

    def __init__(self, choose):
        self.choose = choose
        self.first = "guns"
        self.chips = {key: tag(f"fire-first-{key}", ft.Chip(
            label=ft.Text(words), leading=ft.Icon(icon, size=18), show_checkmark=False, height=TOUCH,
            on_click=on(self._chose, key))) for key, words, icon in SECTIONS}
        self.control = tag("fire-sections", ft.Row(list(self.chips.values()), wrap=True, spacing=6, run_spacing=6))

    def show(self) -> ft.Control:
        for key, chip in self.chips.items():
            chip.content.selected = key == self.first
        return self.control

    async def _chose(self, key: str) -> None:
        self.first = key
        await self.choose(key)
