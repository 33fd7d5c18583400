"""The Aircraft tab of a Decisive Victory game (spec §12, §16): the flights with their stage,
counter, base and target; the phase's next step; the selected flight's options from the engine
(launch with target and range, place, move, intercept, air to air, AA fire with its points, the
strike with its whole hit chain's odds shown before rolling, land), each sent with the app's dice
or the table's.  Draws `dv_air_model` rows; the rules answer every action in their own words."""

from __future__ import annotations

import flet as ft

from . import air_model as A
from .controls import entry, heading
from ...theme import side_colour
from ...views.frame import on
from ...views.widgets import TOUCH, muted, tag

DICE_LABELS = {"attack": "Attack 1st 2nd", "answer": "Answer 1st 2nd", "save": "Save 1st 2nd", "damage": "Damage dice"}


def flight_card(state, row: A.FlightRow, selected: bool = False, size: int = 13, on_click=None) -> ft.Control:
    """One flight: its name in its side's colour, type and quality, stage and counter, base and target."""
    where = " · ".join(x for x in (row.stage, row.counter) if x)
    lines: list[ft.Control] = [
        tag(f"dv-flight-{row.id}-name", ft.Text(row.name, weight=ft.FontWeight.BOLD, size=size + 2,
                                                 color=side_colour(state.sides, row.side))),
        muted(f"{row.side} · {row.kind}", size - 1),
        tag(f"dv-flight-{row.id}-stage", ft.Text(where, size=size, weight=ft.FontWeight.W_600)),
        muted(f"Base: {row.base}" + (f" · target: {row.target}" if row.target else ""), size - 1)]
    return tag(f"dv-flight-{row.id}" + ("-picked" if selected else ""), ft.Container(
        ft.Column(lines, spacing=1, tight=True), padding=8, border_radius=8, on_click=on_click,
        bgcolor=ft.Colors.SECONDARY_CONTAINER if selected else ft.Colors.SURFACE_CONTAINER_HIGH))


class AirPanel:
    def __init__(self, body):
        self.body = body
        self.flight: str | None = None
        self.fields: dict[str, dict[str, ft.TextField]] = {}  # per choice: points, inches, distance, dice
        self.target: str | None = None
        self.band: str | None = None

    def _fields(self, ident: str) -> dict[str, ft.TextField]:
        if ident not in self.fields:
            made = {k: entry(v, 150) for k, v in DICE_LABELS.items()}
            made.update(points=entry("AA points", 110), inches=entry("Inches moved", 120),
                        distance=entry("Distance (in)", 130))
            self.fields[ident] = made
        return self.fields[ident]

    # --- drawing ------------------------------------------------------------------------------

    def controls(self, state) -> list[ft.Control]:
        out: list[ft.Control] = [heading("Aircraft", 15)]
        step = A.phase_step(state)
        if step is None:
            out.append(muted("Flights act in the aircraft phase, after initiative and before the ships move."))
        else:
            out.append(tag("dv-air-next", muted(step.words, 12)))
            if not self.body.read_only:
                out.append(tag(step.ident, ft.FilledButton(content=step.label, height=TOUCH,
                                                           on_click=on(self.body.send, step.action))))
        rows = A.flight_rows(state)
        if not rows:
            out.append(muted("No flights in this game."))
            return out
        if self.flight and not any(r.id == self.flight for r in rows):
            self.flight = None
        out.append(tag("dv-flights", ft.Column([flight_card(state, r, r.id == self.flight, on_click=on(self._pick, r.id))
                                                 for r in rows], spacing=6, tight=True)))
        if self.flight:
            out += self._options(state, self.flight)
        else:
            out.append(muted("Tap a flight: what it may do now, with the odds before rolling.", 12))
        return out

    def _options(self, state, flight_id: str) -> list[ft.Control]:
        choices = A.choices(state, flight_id)
        name = state.flight(flight_id).record.name or flight_id
        if not choices:
            return [tag("dv-air-options", muted(f"{name}: nothing to do at this step.", 12))]
        return [heading(f"{name}: what it may do", 14),
                tag("dv-air-options", ft.Column([self._choice(state, c) for c in choices], spacing=8, tight=True))]

    def _choice(self, state, c: A.AirChoice) -> ft.Control:
        mine = not self.body.read_only and (self.body.my_side in (None, c.side))
        rows: list[ft.Control] = [ft.Text(c.label, weight=ft.FontWeight.W_600, size=13)]
        fields = self._fields(c.ident)
        if c.needs == "points":
            fields["points"].value = fields["points"].value or str(c.action["points"])
            try:
                points = int(fields["points"].value)
            except ValueError:
                points = c.action["points"]
            lines = A.aa_lines(state, c.action["ship"], c.action["flight"], points)
        else:
            lines = c.odds
        odds = ft.Column([ft.Text(t, size=13) for t in lines], spacing=0, tight=True)
        rows.append(tag(f"{c.ident}-odds", odds))
        if not mine:
            rows.append(muted(f"{c.side}'s to do.", 11))
            return tag(c.ident + "-box", ft.Container(ft.Column(rows, spacing=4, tight=True), padding=8, border_radius=8,
                                                      bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH))
        if c.needs == "launch":
            rows += self._launch_form(state, c)
        typed = {"points": [fields["points"]], "inches": [fields["inches"]], "distance": [fields["distance"]]}.get(c.needs, [])
        for f in typed:  # the odds follow the points typed, in place: the field keeps the focus
            f.on_change = (lambda e, c=c, odds=odds: self._points_typed(c, odds)) if c.needs == "points" else None
        go = [tag(c.ident, ft.FilledButton(content=_verb(c), height=TOUCH, on_click=on(self._send, c, False)))]
        if c.dice:
            go.append(tag(f"{c.ident}-table", ft.OutlinedButton(content="With table dice", height=TOUCH,
                                                                on_click=on(self._send, c, True))))
        rows.append(ft.Row([*(tag(f"{c.ident}-{c.needs}", f) for f in typed), *go], wrap=True, spacing=6, run_spacing=6))
        if c.dice:
            rows += [muted("Table dice: the 1st die then the 2nd; the strike's damage dice in a row.", 11),
                     ft.Row([tag(f"{c.ident}-{d}", fields[d]) for d in c.dice], wrap=True, spacing=6, run_spacing=6)]
        return tag(c.ident + "-box", ft.Container(ft.Column(rows, spacing=4, tight=True), padding=8, border_radius=8,
                                                  bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH))

    def _launch_form(self, state, c: A.AirChoice) -> list[ft.Control]:
        fields = self._fields(c.ident)
        band_text = muted(self._band(state, fields["distance"].value), 12)
        fields["distance"].on_change = lambda e: self._distance_typed(fields["distance"].value, band_text)
        return [muted("Target:", 12),
                ft.Row([tag(f"dv-air-target-{t}" + ("-picked" if t == self.target else ""), ft.Chip(
                    label=ft.Text(words, size=12), selected=t == self.target, height=TOUCH,
                    on_click=on(self._set, target=t))) for t, words in A.launch_targets(state, c.action["flight"])],
                       wrap=True, spacing=6, run_spacing=6),
                muted("Range: the distance measured from its carrier or base, or a band:", 12),
                ft.Row([tag(f"{c.ident}-distance", fields["distance"]), *[
                    tag(f"dv-air-band-{b}" + ("-picked" if b == self.band else ""), ft.Chip(
                        label=ft.Text(words, size=12), selected=b == self.band, height=TOUCH,
                        on_click=on(self._set, band=b))) for b, words in A.BANDS]], wrap=True, spacing=6, run_spacing=6),
                tag(f"{c.ident}-band", band_text)]

    @staticmethod
    def _band(state, distance: str | None) -> str:
        return A.band_of(state, distance or "") if (distance or "").strip() else ""

    # --- handlers ------------------------------------------------------------------------------

    def _points_typed(self, c: A.AirChoice, odds: ft.Column) -> None:
        """The AA odds for the points now typed, redrawn in place (a rebuilt form would lose the focus)."""
        try:
            points = int(self._fields(c.ident)["points"].value or "")
        except ValueError:
            return
        lines = A.aa_lines(self.body.state, c.action["ship"], c.action["flight"], points)
        odds.controls = [ft.Text(t, size=13) for t in lines]
        odds.update()

    def _distance_typed(self, distance: str | None, band_text: ft.Text) -> None:
        band_text.value = self._band(self.body.state, distance)
        band_text.update()


    async def _pick(self, flight_id: str) -> None:
        """Show a flight's options (a second tap keeps them: a double tap must not hide them)."""
        if flight_id != self.flight:
            self.flight, self.target, self.band = flight_id, None, None
        await self.body.frame.refresh(force=True)

    async def _set(self, target: str | None = None, band: str | None = None) -> None:
        """Pick the launch's target (kept on a second tap), or pick or drop a range band."""
        if target is not None:
            self.target = target
        if band is not None:
            self.band = None if band == self.band else band
        await self.body.frame.refresh(force=True)

    async def _send(self, c: A.AirChoice, table_dice: bool) -> None:
        fields = self._fields(c.ident)
        action: dict | str
        if c.needs == "launch":
            action = A.launch_action(c, self.target, fields["distance"].value or "", self.band)
        elif c.needs == "points":
            action = A.with_points(c, fields["points"].value or "")
        elif c.needs in ("inches", "distance"):  # a move's inches, a strike's distance
            action = A.with_inches(c, fields[c.needs].value or "", c.needs)
        else:
            action = dict(c.action)
        if isinstance(action, str):
            await self.body.say(action)
            return
        if table_dice:
            try:
                table = A.air_table(*(fields[d].value or "" if d in c.dice else "" for d in DICE_LABELS))
            except ValueError as exc:
                await self.body.say(str(exc))
                return
            action["table"] = table
        await self.body.send(action)
        for f in fields.values():
            f.value = ""


def _verb(c: A.AirChoice) -> str:
    return {"launch_flight": "Launch", "land_flight": "Land", "place_flight": "Place", "move_flight": "Move",
            "intercept": "Intercept", "air_attack": "Attack", "aa_fire": "Fire AA", "air_strike": "Strike"}.get(
        c.action["kind"], "Do it")
