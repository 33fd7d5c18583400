"""The Attacks tab of a Decisive Victory game: declare an attack with the measured distance and
the facts seen at the table (in arc, bow-on, smoke, full or split fire control), its exact odds
shown BEFORE any die is rolled (engine/decisive_victory/odds.py through `dv_model.preview`), then roll it with
the app's dice or with the table's (the ordered 1st and 2nd die, the N7 bonus pair, each hit's
save and damage dice).  Draws `dv_model` rows; the rules answer every action in their words."""

from __future__ import annotations

import flet as ft

from ....messages import sentence
from . import model as M
from ..body import box
from .controls import entry, heading
from ...views.frame import on
from ...views.widgets import TOUCH, die_face, mounted, muted, tag


class TableDice:
    """The table's faces for one declared attack (roll_attack's `table`, spec §16)."""

    def __init__(self):
        self.attack, self.bonus = entry("Attack 1st 2nd", 120), entry("N7 bonus 1st 2nd", 120)
        self.saves, self.damage, self.minor = entry("Saves (/ per hit)", 150), entry("Damage (/ per hit)", 150), \
            entry("Minor (damage 0)", 130)

    def fields(self, ident: str) -> list[ft.Control]:
        return [tag(f"{ident}-{name}", getattr(self, name)) for name in ("attack", "bonus", "saves", "damage", "minor")]

    def table(self) -> dict:
        return M.attack_table(*(getattr(self, n).value or "" for n in ("attack", "bonus", "saves", "damage", "minor")))


class AttackPanel:
    def __init__(self, body):
        self.body = body
        self.system: str | None = None
        self.target: str | None = None
        self.distance = entry("Distance (in)", 150)
        self.spotter = entry("Spotter (in)", 150)
        self.in_arc = ft.Switch(label="In arc", value=True, on_change=self._changed)
        self.bow_on = ft.Switch(label="Bow or stern on", value=False, on_change=self._changed)
        self.smoke = ft.Switch(label="Through smoke", value=False, on_change=self._changed)
        self.full_fc = ft.Switch(label="Full fire control", value=True, on_change=self._changed)
        self.distance.on_change = self.spotter.on_change = self._changed
        self.odds = ft.Column(spacing=2, tight=True)
        self.dice: dict[int, TableDice] = {}

    def ship_changed(self) -> None:
        self.system = self.target = None
        self.in_arc.value = True

    # --- drawing ------------------------------------------------------------------------------

    def controls(self, state) -> list[ft.Control]:
        out: list[ft.Control] = []
        declared = M.declared_previews(state)
        if declared:
            out.append(heading("Declared attacks", 15))
        for attack, preview in declared:
            out.append(self._declared(attack, preview))
        if state.phase != "attacks":
            out.append(muted("Attacks are declared in the attack phase, the initiative winner's batch first."))
            return out
        mine = M.attackers(state, self.body.mine)
        picked = M.attacker_pick(state, self.body.selected, self.body.mine)
        if picked is not None and picked != self.body.selected:  # a ship of the side attacking now (issue 35)
            self.body.selected = picked
            self.ship_changed()
        if mine:
            out += [heading("Attack with", 14), ft.Row([tag(f"dv-attacker-{s.id}" + ("-picked" if s.id == picked else ""), ft.Chip(
                label=ft.Text(s.label), selected=s.id == picked, on_click=on(self.body.select, s.id),
                height=TOUCH)) for s in mine], wrap=True, spacing=6, run_spacing=6)]
        if picked is None:
            batch = M.attacking_side(state)
            out.append(muted(f"{batch} attacks now: your ships attack in your own batch." if batch
                             else "No ship is left to attack this turn."))
            return out
        ship_id = picked
        out += self._form(state, ship_id)
        return out

    def _declared(self, attack, preview: M.Preview) -> ft.Control:
        ident = f"dv-attack-{attack.id}"
        rows: list[ft.Control] = [ft.Text(preview.title, weight=ft.FontWeight.BOLD),
                                  muted(f"{attack.distance}\" · " + ", ".join(f"{w} {v:+d}" for w, v in preview.modifiers), 12),
                                  tag(f"{ident}-odds", ft.Text(preview.odds_text, size=13))]
        if attack.rolled:  # its dice stay on its card, each roll's faces and words (issue 28)
            for n, roll in enumerate(M.attack_rolls(self.body.game.history(), attack.id), start=1):
                rows.append(tag(f"{ident}-rolled-{n}", ft.Column([
                    ft.Row([die_face("D6", face, 30) for _, face in roll.dice], spacing=4, wrap=True),
                    ft.Text(roll.text, size=12)], spacing=2, tight=True)))
        elif self.body.mine(attack.ship):
            dice = self.dice.setdefault(attack.id, TableDice())
            roll_action = {"kind": "roll_attack", "attack": attack.id}
            rows += [ft.Row([tag(f"{ident}-roll", ft.FilledButton(content="Roll", icon=ft.Icons.CASINO, height=TOUCH,
                                                                  on_click=on(self.body.send, roll_action)))], spacing=6),
                     muted("Or the table's dice: 1st die then 2nd; saves and damage one group per hit, "
                           "\"/\" between hits.", 11),
                     ft.Row(dice.fields(ident), wrap=True, spacing=6, run_spacing=6),
                     tag(f"{ident}-table", ft.OutlinedButton(content="Roll with table dice", height=TOUCH,
                                                             on_click=on(self._table_roll, attack.id)))]
        return box(ident, *rows)

    def _form(self, state, ship_id: str) -> list[ft.Control]:
        ship = state.ship(ship_id)
        weapons = M.weapons(state, ship_id)
        targets = M.targets(state, ship_id)
        out: list[ft.Control] = [heading(f"{ship.label}: declare an attack", 15),
                                 ft.Row([tag(f"dv-weapon-{w}" + ("-picked" if w == self.system else ""), ft.Chip(label=ft.Text(words, size=12), selected=w == self.system,
                                                                       on_click=on(self._pick, system=w), height=TOUCH))
                                         for w, words in weapons], wrap=True, spacing=6, run_spacing=6),
                                 ft.Row([tag(f"dv-target-{t.id}" + ("-picked" if t.id == self.target else ""), ft.Chip(label=ft.Text(t.label), selected=t.id == self.target,
                                                                          on_click=on(self._pick, target=t.id), height=TOUCH))
                                         for t in targets], wrap=True, spacing=6, run_spacing=6),
                                 ft.Row([tag("dv-distance", self.distance), tag("dv-spotter", self.spotter)], wrap=True, spacing=8),
                                 ft.Row([tag("dv-in-arc", self.in_arc), tag("dv-bow-on", self.bow_on),
                                         tag("dv-smoke", self.smoke), tag("dv-full-fc", self.full_fc)], wrap=True, spacing=8),
                                 tag("dv-preview", self.odds)]
        self._preview(state)
        aids = M.aid_choices(state, ship_id, self.system, self.target, self.distance.value or "")
        if aids:
            out.append(ft.Row([tag(c.ident, ft.OutlinedButton(content=c.label, height=TOUCH, on_click=on(self.body.send, c.action)))
                               for c in aids], wrap=True, spacing=6, run_spacing=6))
            out += [self.body.hand.radar_row(c.action) for c in aids if c.action["kind"] == "radar_roll"]
        out += self.body.hand.illuminate(state)
        out.append(tag("dv-declare", ft.FilledButton(content="Declare", icon=ft.Icons.GPS_FIXED, height=TOUCH,
                                                     on_click=on(self._declare))))
        return out

    def _preview(self, state) -> M.Preview | None:
        """The exact odds of the attack as typed, shown before it is declared or rolled."""
        ship_id = self.body.selected
        if not (ship_id and self.system and self.target and (self.distance.value or "").strip()):
            self.odds.controls = [muted("Pick a weapon and a target and type the measured distance: "
                                        "the exact odds show here before any die is rolled.", 12)]
            return None
        p = M.preview(state, ship_id, self.system, self.target, self.distance.value or "", bool(self.in_arc.value),
                      bool(self.bow_on.value), bool(self.smoke.value), bool(self.full_fc.value), self.spotter.value or "")
        if p.problem:
            self.odds.controls = [ft.Text(p.problem, color=ft.Colors.ERROR, size=13)]
            return p
        refused = [tag("dv-preview-refused", ft.Text(sentence(p.refused), color=ft.Colors.ERROR, size=13))] if p.refused else []
        self.odds.controls = [*refused,
                              muted(", ".join(f"{w} {v:+d}" for w, v in p.modifiers) + f" = {p.modifier:+d}", 12),
                              *[ft.Text(line, size=14, weight=ft.FontWeight.W_600 if i == 0 else None)
                                for i, line in enumerate(p.lines)]]
        return p

    # --- handlers ------------------------------------------------------------------------------

    async def _changed(self, e) -> None:
        self._preview(self.body.state)
        if mounted(self.odds):
            self.odds.update()

    async def _pick(self, **chosen) -> None:
        for name, value in chosen.items():
            setattr(self, name, value)
        self.in_arc.value = True  # a new weapon or target: in arc until the player says not (they measured)
        await self.body.frame.refresh(force=True)

    async def _declare(self) -> None:
        p = self._preview(self.body.state)
        if p is None or p.action is None:
            await self.body.say(p.problem if p else "Pick a weapon and a target and type the distance first.")
            return
        await self.body.send(p.action)

    async def _table_roll(self, attack_id: int) -> None:
        try:
            table = self.dice[attack_id].table()
        except (KeyError, ValueError) as exc:
            await self.body.say(str(exc))
            return
        await self.body.send({"kind": "roll_attack", "attack": attack_id, "table": table})
