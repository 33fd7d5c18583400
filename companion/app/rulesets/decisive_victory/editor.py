"""The Decisive Victory editor screen: the group's ship records, hit grid and Table 1, every field
editable, problems in plain words as you type (spec decisive-victory.md §3, §10.1, §2.2, §17).

The state is a `DVEditor` (dv_editor_model.py, no flet); this view draws it and passes each change
on.  Typing updates the problems and the field's own message without redrawing the form; changes
of shape (a weapon added, a ship chosen, a tab) redraw it.  Saving writes the group's own files
(app/rulesets/decisive_victory/group.py): a new Decisive Victory game plays the group's grid and Table 1.
"""

from __future__ import annotations

import weakref
from functools import partial
from typing import Any, Callable

import flet as ft

from .files import shipped_records
from .group import group_files
from .editor_model import (ARCS, ARMORS, CLASSES, FLIGHT_TYPES, KINDS, MODIFIERS, SYSTEM_CHOICES, DVEditor,
                               Draft, Path)
from ...session import Session
from ...views.pages import centred, host_only, may_edit_cards
from ...views.widgets import heading, inner, muted, tag
from ....messages import without_paths

_EDITORS: "weakref.WeakKeyDictionary[Any, DVEditor]" = weakref.WeakKeyDictionary()
TABS = {"ships": "Ships", "grid": "Hit grid", "table": "Table 1"}


def build(app) -> ft.Control:
    refused = host_only(app, "Decisive Victory records", may_edit_cards(app))  # the host's, as the card library
    if refused:
        return refused
    editor = _EDITORS.get(app)
    if editor is None:  # a reload of /dv-editor: the group's files as saved
        editor = _EDITORS[app] = DVEditor(group_files(app.store), shipped_records())
    return DVEditorView(app, editor).control


class DVEditorView:
    def __init__(self, app, editor: DVEditor):
        self.app, self.editor = app, editor
        self.tab = "ships"
        self.fields: dict[Path, ft.Control] = {}
        self.summaries: list[tuple[ft.Text, Callable[[], str]]] = []  # lines read again after every change
        self.message = ft.Text("", color=ft.Colors.PRIMARY, weight=ft.FontWeight.W_600)
        self.problems = ft.Column(spacing=4, tight=True)
        self.problems_box = tag("dv-problems", ft.Container(content=self.problems, padding=12, border_radius=12))
        self.save_button = tag("dv-save", ft.FilledButton(content="Save", icon=ft.Icons.SAVE, on_click=self._save,
                                                          height=48))
        self.tabs = ft.Row(wrap=True, spacing=8)
        self.form = ft.Column(spacing=14, tight=True)
        back = tag("dv-back", ft.IconButton(ft.Icons.ARROW_BACK, on_click=self._back, tooltip="Back to the fleets"))
        body = ft.Column([
            ft.Row([back, ft.Column([heading("Decisive Victory records", 22), muted(
                "Your group's ship records, hit-location grid and Table 1. Saved here, the grid and Table 1 "
                "replace the reconstructed ones in every new Decisive Victory game.")],
                spacing=0, tight=True, expand=True)], vertical_alignment=ft.CrossAxisAlignment.START),
            self.tabs, tag("dv-message", self.message), self.problems_box, self.form,
            ft.Row([self.save_button], wrap=True), ft.Container(height=24),
        ], spacing=12, scroll=ft.ScrollMode.AUTO, expand=True)
        self.control = centred(app, body, 1040, 12)
        self._redraw()

    @property
    def draft(self) -> Draft:
        e = self.editor
        return {"ships": e.ship, "grid": e.grid, "table": e.table}[self.tab]

    # --- drawing ----------------------------------------------------------------------

    def _redraw(self) -> None:
        self.fields.clear()
        self.summaries.clear()
        self.tabs.controls = [
            tag(f"dv-tab-{key}", ft.Chip(label=ft.Text(words), selected=key == self.tab, show_checkmark=False,
                                         on_select=lambda ev, k=key: self._choose_tab(k)), label=words)
            for key, words in TABS.items()]
        self.form.controls = {"ships": self._ship_form, "grid": self._grid_form, "table": self._table_form}[self.tab]()
        inner(self.save_button, ft.FilledButton).content = {"ships": "Save ship", "grid": "Save the grid",
                                            "table": "Save Table 1"}[self.tab]
        self._show_problems()

    def _choose_tab(self, key: str) -> None:
        self.tab = key
        self.message.value = ""
        self._redraw()
        self.app.page.update()

    def _ship_form(self) -> list[ft.Control]:
        e, s = self.editor, self.editor.ship
        choice = self._dropdown(("choose",), "Ship", [(r.id, r.name) for r in e.ships] or [("", "(none saved)")],
                                s.saved_id or "", lambda v: e.choose(v), width=260, redraw=True, ident="dv-ship-choice",
                                check=False)
        samples = self._dropdown(("sample",), "New from a sample", [(r.id, r.name) for r in e.samples], None,
                                 lambda v: e.copy_sample(v), width=260, redraw=True, ident="dv-copy-sample", check=False)
        actions = ft.Row([
            choice,
            self._button("dv-new-ship", "New ship", ft.Icons.ADD, e.new_ship, ft.OutlinedButton),
            samples,
            self._button("dv-delete-ship", "Delete", ft.Icons.DELETE_OUTLINE, e.delete_ship, disabled=s.saved_id is None),
        ], wrap=True, spacing=8, run_spacing=8)
        record = self._panel("dv-record", "The ship", [
            ft.ResponsiveRow([ft.Container(self._text((key,), label), col={"xs": 12, "md": 4}) for key, label in (
                ("name", "Ship name"), ("id", "Record id (scenarios name the ship by it)"), ("nation", "Nation"))],
                spacing=10, run_spacing=10),
            ft.Row([self._dropdown(("class",), "Class", list(CLASSES.items()), s.get(("class",)),
                                   lambda v: s.set(("class",), v), width=200),
                    *[self._number((key,), label) for key, label in (
                        ("speed", "Speed (in)"), ("turning_class", "Turning class"),
                        ("critical_damage_threshold", "CDT"), ("collision_rating", "CR (empty: asked)"),
                        ("aa", "AA score"), ("spotter_planes", "Spotter planes"))]],
                   wrap=True, spacing=10, run_spacing=10),
            ft.Row([self._number(("armor", a), f"{a.capitalize()} armour") for a in ARMORS], wrap=True, spacing=10),
            self._verified(s, "Every value checked against our own records"),
            self._text(("sources", "notes"), "Notes (where the values come from)", width=600, setter=s.set_notes),
        ])
        weapons = [self._weapon(i) for i in range(len(s.data.get("weapons", [])))]
        add = ft.Row([self._button("dv-add-gun", "Add a gun battery", ft.Icons.ADD, lambda: s.add_weapon("gun")),
                      self._button("dv-add-torpedo", "Add torpedo tubes", ft.Icons.ADD, lambda: s.add_weapon("torpedo"))],
                     wrap=True)
        summary = self._summary("dv-ship-summary", lambda: ship_line(s.data))
        return [actions, summary, record, self._panel("dv-weapons", "Weapon systems", [*weapons, add]), self._air()]

    def _weapon(self, i: int) -> ft.Control:
        s = self.editor.ship
        path: Path = ("weapons", i)
        weapon = s.get(path)
        torpedo = weapon.get("kind") == "torpedo"
        numbers = [("fire_control", "FC"), ("strength", "S"), ("damage", "D"), ("mounts", "Mounts"),
                   ("max_range", "Max range (in)")]
        numbers += [("salvoes", "Salvoes")] if torpedo else [("radar", "Radar (empty: none)"), ("dual_purpose_aa", "DP AA")]
        arcs = ft.Row([tag(f"dv-w{i + 1}-arc-{arc}", ft.Chip(
            label=ft.Text(arc), selected=arc in weapon.get("arcs", []), visual_density=ft.VisualDensity.COMPACT,
            on_select=lambda ev, a=arc: self._changed(lambda: s.set_arc(i, a, bool(ev.control.selected)))))
            for arc in ARCS], wrap=True, spacing=4)
        remove = tag(f"dv-w{i + 1}-remove", ft.IconButton(ft.Icons.DELETE_OUTLINE, tooltip="Remove this system",
                                                          on_click=lambda ev: self._changed(lambda: s.remove_weapon(i), True)))
        return tag(f"dv-weapon-{i + 1}", ft.Container(content=ft.Column([
            ft.Row([self._text(path + ("name",), "Name"), self._text(path + ("id",), "Id"),
                    self._dropdown(path + ("kind",), "Kind", list(KINDS.items()), weapon.get("kind"),
                                   lambda v: s.set_weapon_kind(i, v), width=180, redraw=True), remove],
                   wrap=True, spacing=8),
            ft.Row([self._number(path + (key,), label) for key, label in numbers], wrap=True, spacing=8),
            arcs, self._note(path),
        ], spacing=8, tight=True), padding=10, border_radius=10, border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT)),
            label=f"Weapon {i + 1}")

    def _air(self) -> ft.Control:
        s = self.editor.ship
        deck = s.get(("flight_deck",))
        controls: list[ft.Control] = [tag("dv-flight-deck", ft.Checkbox(
            label="A flight deck (a carrier)", value=deck is not None,
            on_change=lambda ev: self._changed(lambda: s.set_flight_deck(bool(ev.control.value)), True)))]
        if deck is not None:
            controls.append(ft.Row([
                self._number(("flight_deck", "launch_per_turn"), "Launches a turn"),
                ft.Checkbox(label="Lands aircraft in combat", value=bool(deck.get("lands_in_combat")),
                            on_change=lambda ev: self._changed(
                                lambda: s.set(("flight_deck", "lands_in_combat"), bool(ev.control.value))))],
                wrap=True))
        for i, flight in enumerate(s.data.get("flights", [])):
            path: Path = ("flights", i)
            controls.append(ft.Row([
                self._text(path + ("name",), "Flight name"),
                self._dropdown(path + ("type",), "Type", list(FLIGHT_TYPES.items()), flight.get("type"),
                               partial(s.set, path + ("type",)), width=190),
                self._number(path + ("quality",), "Quality"),
                *[ft.Checkbox(label=word, value=bool(flight.get(key)),
                              on_change=lambda ev, k=key, p=path: self._changed(lambda: s.set(p + (k,), bool(ev.control.value))))
                  for key, word in (("slow", "Slow"), ("radar", "Radar"), ("naval", "Naval"))],
                ft.IconButton(ft.Icons.DELETE_OUTLINE, tooltip="Remove this flight",
                              on_click=lambda ev, n=i: self._changed(lambda: s.remove_flight(n), True)),
            ], wrap=True, spacing=8))
        controls.append(self._button("dv-add-flight", "Add an embarked flight", ft.Icons.ADD, s.add_flight))
        return self._panel("dv-air", "Aircraft", controls)

    def _grid_form(self) -> list[ft.Control]:
        e, g = self.editor, self.editor.grid
        rows: list[ft.Control] = []

        def row_words(row: int) -> str:
            return row_line(g.data["rows"], row)

        header = ft.Row([ft.Container(muted("1st die", 12), width=80), ft.Container(muted("Armour", 12), width=150),
                         *[ft.Container(muted(f"2nd die {c}", 12), width=112) for c in range(1, 7)]], spacing=6)
        for r, row in enumerate(g.data["rows"]):
            unverified = set(row.get("unverified", []))
            cells = [self._dropdown(("rows", r, "cells", c - 1), f"{c}" + (" †" if c in unverified else ""),
                                    [(x, x) for x in SYSTEM_CHOICES], row["cells"][c - 1],
                                    partial(g.set_cell, r, c), width=112, redraw=True,
                                    ident=f"dv-grid-r{r + 1}-c{c}")
                     for c in range(1, 7)]
            dice = self._text(("rows", r, "dice_text"), "1st die", width=80, setter=partial(g.set_dice, r),
                              ident=f"dv-grid-r{r + 1}-dice", check_path=("rows", r, "dice"))
            armor = self._dropdown(("rows", r, "armor"), "Armour", [(a, a) for a in ARMORS], row["armor"],
                                   partial(g.set_armor, r), width=150, ident=f"dv-grid-r{r + 1}-armor")
            remove = ft.IconButton(ft.Icons.DELETE_OUTLINE, tooltip="Remove this row",
                                   on_click=lambda ev, rr=r: self._changed(lambda: g.remove_row(rr), True))
            rows.append(tag(f"dv-grid-row-{r + 1}", ft.Row([dice, armor, *cells, remove], spacing=6, wrap=True),
                            label=f"Row {r + 1}"))
            rows.append(self._summary(f"dv-grid-r{r + 1}-summary", partial(row_words, r)))
        own = "Your group's grid." if e.own_grid else ("The reconstructed grid (spec R-40): cells marked † were lost "
                                                         "from the seed text; set them from your printed grid.")
        grid_panel = self._panel("dv-grid", "Hit-location grid", [
            muted(own), self._text(("name",), "Name"), header, *rows, self._note(("rows",)),
            self._button("dv-grid-add-row", "Add a row", ft.Icons.ADD, g.add_row),
            ft.Row([self._number(("thresholds", c), f"{CLASSES[c]}: boxes to damage") for c in CLASSES], wrap=True,
                   spacing=10),
            self._verified(g, "Every cell read from our printed rules"),
            self._text(("sources", "notes"), "Notes", width=600, setter=g.set_notes),
            self._button("dv-grid-reset", "Use the reconstructed grid", ft.Icons.RESTORE, e.reset_grid),
        ])
        return [grid_panel]

    def _table_form(self) -> list[ft.Control]:
        e, t = self.editor, self.editor.table
        bands = []
        for m in MODIFIERS:
            band = t.data["bands"][m]
            mark = " †" if band.get("unverified") else ""
            bands.append(self._text(("bands", m, "text"), f"+{m}{mark}", width=120,
                                    setter=partial(t.set_band, m), ident=f"dv-band-{m}",
                                    check_path=("bands", m, "totals")))
        own = "Your group's Table 1." if e.own_table else ("The reconstructed Table 1 (spec R-5): bands marked † are "
                                                           "a reading, not printed; set them from your printed table.")
        return [self._panel("dv-table", "Table 1: 2d6 success modifiers", [
            muted(own), muted("The totals that succeed at each modifier (2 and 12 always fail, a natural 7 always "
                              "succeeds): 7, 6-8, or N7 only."),
            ft.Row(bands, wrap=True, spacing=8, run_spacing=8), self._note(("bands",)),
            self._verified(t, "Every band read from our printed rules"),
            self._button("dv-table-reset", "Use the reconstructed Table 1", ft.Icons.RESTORE, e.reset_table),
        ])]

    # --- inputs ------------------------------------------------------------------------------

    def _text(self, path: Path, label: str, width: float | None = 240, setter: Callable[[str], None] | None = None,
              ident: str | None = None, check_path: Path | None = None) -> ft.Control:
        draft = self.draft
        field = ft.TextField(label=label, value=str(draft.get(path, "") or ""), dense=True, width=width,
                             on_change=lambda ev: self._changed(
                                 (lambda: setter(ev.control.value)) if setter else
                                 (lambda: draft.set(path, ev.control.value))))
        self.fields[check_path or path] = field
        return tag(ident or "dv-" + _ident(path), field, label=label)

    def _number(self, path: Path, label: str) -> ft.Control:
        draft = self.draft
        value = draft.get(path)
        field = ft.TextField(label=label, value="" if value is None else str(value), dense=True, width=150,
                             keyboard_type=ft.KeyboardType.NUMBER,
                             on_change=lambda ev: self._changed(lambda: draft.set_number(path, ev.control.value)))
        self.fields[path] = field
        return tag("dv-" + _ident(path), field, label=label)

    def _dropdown(self, path: Path, label: str, options: list[tuple[str, str]], value: Any,
                  setter: Callable[[str], None], width: float = 180, redraw: bool = False,
                  ident: str | None = None, check: bool = True) -> ft.Control:
        field = ft.Dropdown(label=label, value=value, width=width, dense=True, menu_height=360, text_size=14,
                            options=[ft.DropdownOption(key=k, text=t) for k, t in options],
                            on_select=lambda ev: self._changed(lambda: setter(ev.control.value), redraw))
        if check:
            self.fields[path] = field
        return tag(ident or "dv-" + _ident(path), field, label=label)

    def _button(self, ident: str, words: str, icon: Any, change: Callable[[], Any], kind: Any = ft.TextButton,
                **more: Any) -> ft.Control:
        """A button that changes the form's shape (a weapon added, a ship chosen): the form is drawn again."""
        return tag(ident, kind(content=words, icon=icon, on_click=lambda ev: self._changed(change, True), **more))

    def _verified(self, draft: Draft, words: str) -> ft.Control:
        return tag(f"dv-verified-{self.tab}", ft.Checkbox(
            label=words, value=draft.verified,
            on_change=lambda ev: self._changed(lambda: draft.set_verified(bool(ev.control.value)))))

    def _summary(self, ident: str, words: Callable[[], str]) -> ft.Control:
        """A line of plain words that follows the draft (what a screen reader reads of the form)."""
        text = ft.Text(words(), size=12, italic=True)
        self.summaries.append((text, words))
        return tag(ident, text)

    def _note(self, path: Path) -> ft.Text:
        note = ft.Text("", color=ft.Colors.ERROR, size=12, visible=False, data=path)
        self.fields[("note",) + tuple(path)] = note
        return note

    def _panel(self, ident: str, title: str, controls: list[ft.Control]) -> ft.Control:
        return tag(ident, ft.Container(content=ft.Column([heading(title, 17), *controls], spacing=10, tight=True),
                                       padding=12, border_radius=14, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW))

    # --- changes ----------------------------------------------------------------------------------

    def _changed(self, change: Callable[[], Any], redraw: bool = False) -> None:
        try:
            change()
        except (ValueError, OSError) as exc:  # a file that could not be written: said, nothing lost
            self._say(without_paths(str(exc)), error=True)  # a device is told no path of the host's disk
        else:
            self.message.value = ""
        if redraw:
            self._redraw()
        else:
            self._show_problems()
        self.app.page.update()

    def _show_problems(self) -> None:
        draft = self.draft
        problems = draft.problems()
        first: dict[Path, str] = {}
        for problem in problems:
            first.setdefault(problem.path, problem.text)
        for path, field in self.fields.items():
            if path[:1] == ("note",):
                texts = [p.text for p in problems if p.path == path[1:]]
                assert isinstance(field, ft.Text)  # a `_note`
                field.value, field.visible = "\n".join(texts), bool(texts)
                continue
            text = first.get(path)
            attribute = "error_text" if isinstance(field, ft.Dropdown) else "error"
            if getattr(field, attribute) != text:
                setattr(field, attribute, text)
        for line, words in self.summaries:
            line.value = words()
        if problems:
            count = len(problems)
            self.problems.controls = [
                ft.Text(f"{count} problem{'s' if count != 1 else ''} to fix before saving",
                        weight=ft.FontWeight.W_600, color=ft.Colors.ON_ERROR_CONTAINER),
                *[ft.Text(f"• {p.text}", color=ft.Colors.ON_ERROR_CONTAINER) for p in problems[:8]]]
            inner(self.problems_box, ft.Container).bgcolor = ft.Colors.ERROR_CONTAINER
        else:
            what = {"ships": "The ship record", "grid": "The grid", "table": "Table 1"}[self.tab]
            self.problems.controls = [ft.Text(f"{what} is complete: " + ("ready to save." if draft.dirty else "saved."),
                                              color=ft.Colors.ON_SECONDARY_CONTAINER)]
            inner(self.problems_box, ft.Container).bgcolor = ft.Colors.SECONDARY_CONTAINER
        inner(self.save_button, ft.FilledButton).disabled = bool(problems)

    def _say(self, text: str, error: bool = False) -> None:
        self.message.value = text
        self.message.color = ft.Colors.ERROR if error else ft.Colors.PRIMARY

    async def _save(self, ev) -> None:
        e = self.editor
        try:
            if self.tab == "ships":
                record = e.save_ship()
                words = f"Saved {record.name} to the group's ships (id {record.id})."
            elif self.tab == "grid":
                e.save_grid()
                words = "Saved the group's hit grid: new Decisive Victory games play it."
            else:
                e.save_table()
                words = "Saved the group's Table 1: new Decisive Victory games play it."
        except (ValueError, OSError) as exc:
            self._say(f"Not saved: {without_paths(str(exc))}", error=True)
            self._show_problems()
            self.app.page.update()
            return
        self._redraw()
        self._say(words)
        self.app.page.update()

    async def _back(self, ev) -> None:
        _EDITORS.pop(self.app, None)
        await self.app.navigate(Session("fleets"))


def ship_line(data: dict[str, Any]) -> str:
    """A ship record in one line: 'HMS Sample (sample): cruiser, speed 15", turning class 2, ...'."""
    armor = data.get("armor") or {}
    weapons = data.get("weapons") or []
    return (f"{data.get('name')} ({data.get('id')}): {data.get('class')}, speed {data.get('speed')}\", turning class "
            f"{data.get('turning_class')}, armour deck {armor.get('deck')} belt {armor.get('belt')} underwater "
            f"{armor.get('underwater')}, CDT {data.get('critical_damage_threshold')}, {len(weapons)} weapon system"
            f"{'s' if len(weapons) != 1 else ''}")


def row_line(rows: list[dict[str, Any]], index: int) -> str:
    """A grid row in one line: 'Row 2-3, belt: AA, Guns, Torp, Flight, Guns, AA (reconstructed: 4, 5, 6)'."""
    if index >= len(rows):
        return ""
    row = rows[index]
    unverified = row.get("unverified") or []
    mark = f" (reconstructed: {', '.join(map(str, unverified))})" if unverified else ""
    return f"Row {row.get('dice_text')}, {row.get('armor')}: {', '.join(row.get('cells', []))}{mark}"


def _ident(path: Path) -> str:
    """("weapons", 1, "fire_control") -> 'weapons-2-fire-control' (items numbered from 1)."""
    return "-".join(str(p + 1) if isinstance(p, int) else str(p) for p in path).replace("_", "-")
