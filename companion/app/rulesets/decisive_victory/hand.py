"""By hand in a Decisive Victory game (issue 16: "the table is the truth"): the initiative the
table decided, the rudder and a ship taken off (behind "Correct by hand"), the rule checks off
or on and a side conceding (the Log tab's "The table" section), the ships a star shell lit, and
the table's dice for a collision (with a collision rating typed where a record has none) and a
radar roll.  Draws `dv_hand_model` choices; the rules answer in their own words."""

from __future__ import annotations

import flet as ft

from . import hand_model as H
from ..body import box
from .controls import entry
from ...views.frame import on
from ...views.widgets import TOUCH, muted, tag


class HandControls:
    def __init__(self, body):
        self.body = body
        self.ratings: dict[str, ft.TextField] = {}
        self.ship_dice, self.other_dice = entry("1st ship's dice", 150), entry("2nd ship's dice", 150)
        self.radar = entry("Radar 1st 2nd")
        self.lit: set[str] = set()

    def _buttons(self, choices) -> ft.Control:
        return ft.Row([tag(c.ident, ft.OutlinedButton(content=c.label, height=TOUCH, on_click=on(self._do, c)))
                       for c in choices], wrap=True, spacing=6, run_spacing=6)

    async def _do(self, c: H.Step) -> None:
        await self.body.step(c)

    # --- by hand on the selected ship ------------------------------------------------------------

    def corrections(self, state, ship) -> list[ft.Control]:
        out: list[ft.Control] = [muted(f"Rudder: {H.RUDDER[ship.rudder].lower()}.", 12),
                                 self._buttons(H.rudder_choices(state, ship.id))]
        removal = H.removal_choices(state, ship.id)
        if removal:
            out += [muted("Off the table:", 12), self._buttons(removal)]
        return out

    def initiative(self, state) -> list[ft.Control]:
        choices = H.initiative_choices(state)
        return [muted("Or the table decided it:", 12), self._buttons(choices)] if choices else []

    # --- the table: rule checks and conceding ------------------------------------------------------

    def table_section(self, state) -> list[ft.Control]:
        if self.body.read_only:
            return []
        check = H.bookkeeping_choice(state)
        words = "Rule checks are off: the rules warn and record, nothing is refused." if state.settings.bookkeeping else \
            "Rule checks are on: the rules refuse what they forbid, in words."
        out: list[ft.Control] = [ft.Text("The table", size=14, weight=ft.FontWeight.BOLD),
                                 tag("dv-bookkeeping", muted(words, 12))]
        if getattr(self.body.app.device, "host", True):  # the switch is the host's alone (roles.HOST_ONLY)
            out.append(self._buttons([check]))
        concede = H.concede_choices(state, self.body.my_side)
        if concede:
            out.append(self._buttons(concede))
        return [box("dv-table", *out, spacing=6)]

    # --- collisions and radar with the table's dice ------------------------------------------------

    def collision(self, state, ship_id: str, other_id: str) -> list[ft.Control]:
        """The collision's table dice (each ship's CR in d6, 4+ a damage point) and a CR where none is recorded."""
        missing = H.missing_ratings(state, ship_id, other_id)
        fields = [tag(f"dv-cr-{s.id}", self.ratings.setdefault(s.id, entry(f"{s.label} CR", 150))) for s in missing]
        note = [muted(", ".join(s.label for s in missing) + " ha" + ("ve" if len(missing) > 1 else "s")
                      + " no collision rating on record: type it for the collision.", 12)] if missing else []
        ship, other = state.ship(ship_id), state.ship(other_id)
        self.ship_dice.label, self.other_dice.label = f"{ship.label}'s dice", f"{other.label}'s dice"
        return [*note, muted("A collision with the table's dice: each ship's CR in d6 at the other (4+ a point).", 11),
                ft.Row([*fields, tag("dv-collision-ship", self.ship_dice), tag("dv-collision-other", self.other_dice),
                        tag("dv-collision-table", ft.OutlinedButton(content="Collide with table dice", height=TOUCH,
                                                                    on_click=on(self._collide, ship_id, other_id)))],
                       wrap=True, spacing=6, run_spacing=6)]

    async def _collide(self, ship_id: str, other_id: str) -> None:
        base = {"kind": "close_action", "ship": ship_id, "other": other_id, "paid_by": None}
        ratings = {k: f.value or "" for k, f in self.ratings.items() if k in (ship_id, other_id)}
        action = H.collision_action(base, self.ship_dice.value or "", self.other_dice.value or "", ratings)
        await self.body.send_or_say(action, self.ship_dice, self.other_dice)

    def radar_row(self, action: dict) -> ft.Control:
        return ft.Row([tag("dv-radar-faces", self.radar),
                       tag("dv-radar-table", ft.OutlinedButton(content="Radar roll with table dice", height=TOUCH,
                                                               on_click=on(self._radar, action)))], wrap=True, spacing=6)

    async def _radar(self, action: dict) -> None:
        await self.body.send_or_say(H.radar_action(action, self.radar.value or ""), self.radar)

    # --- a star shell's light ------------------------------------------------------------------

    def illuminate(self, state) -> list[ft.Control]:
        ships = H.lit_candidates(state)
        if not ships or self.body.read_only:
            return []
        self.lit &= {s.id for s in ships}
        return [muted("A star shell burst: which ships are within 1\" of it?", 12),
                ft.Row([tag(f"dv-lit-{s.id}" + ("-picked" if s.id in self.lit else ""), ft.Chip(
                    label=ft.Text(s.label, size=12), selected=s.id in self.lit, height=TOUCH,
                    on_click=on(self._toggle_lit, s.id))) for s in ships], wrap=True, spacing=6, run_spacing=6),
                tag("dv-illuminate", ft.OutlinedButton(content="Lit by the star shell", height=TOUCH,
                                                       on_click=on(self._illuminate)))]

    async def _toggle_lit(self, ship_id: str) -> None:
        self.lit ^= {ship_id}
        await self.body.frame.refresh(force=True)

    async def _illuminate(self) -> None:
        action = H.illuminate_action(sorted(self.lit))
        if not isinstance(action, str):
            self.lit = set()
        await self.body.send_or_say(action)
