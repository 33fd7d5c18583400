"""The card editor screen: every field of a ship card, problems in plain words as you type.

The state is a `CardEditor` (editor_model.py, no flet); this view only draws
it and passes each change on.  Kinds, dice and the type are chosen from
lists, numbers have - and + steppers.  Typing updates the problems panel and
the field's own message without redrawing the form (the cursor stays put);
changes of shape (a slot's kind, adding, moving or removing a slot, the
type) redraw it.  Saving goes to the player's library; shipped cards are
saved as the player's copy.
"""

from __future__ import annotations

import weakref
from typing import Any, Callable

import flet as ft

from ..card_compare import compare_with_printed
from ..card_draft import KIND_NAMES, TRAITS, TYPE_NAMES, dice_options
from ..editor_model import CardEditor, Path
from ..session import Session
from ..viewmodels import dice_chips, location_name
from .frame import on
from .pages import centred, host_only, may_edit_cards
from ..theme import DICE
from .widgets import heading, inner, muted, notice, tag

DEFAULT_SHOWN = {"saturation": 0}  # a number a card may leave out, shown as its meaning

_EDITORS: "weakref.WeakKeyDictionary[Any, CardEditor]" = weakref.WeakKeyDictionary()


async def open_editor(app, editor: CardEditor) -> None:
    """Show the editor screen with this draft (kept per browser session)."""
    _EDITORS[app] = editor
    await app.navigate(Session("editor"))


def build(app) -> ft.Control:
    refused = host_only(app, "Card editor", may_edit_cards(app))  # the card library is the host's (issue 11)
    if refused:
        return refused
    editor = _EDITORS.get(app)
    if editor is None:  # a reload of /editor, or a new tab: a new card
        editor = _EDITORS[app] = CardEditor.new()
    return EditorView(app, editor).control


class EditorView:
    def __init__(self, app, editor: CardEditor):
        self.app, self.editor = app, editor
        self.fields: dict[Path, ft.Control] = {}  # every input, by its place in the draft
        # problems shown as text under a slot, a location or the numbers (narrow fields only turn red)
        self.notes: dict[Path, tuple[ft.Text, tuple[Path, ...], bool]] = {}
        self.worded: set[Path] = set()  # fields wide enough to carry their own message
        self.shown_dice: dict[Path, str | None] = {}  # the dice each list shows beside its value
        self.problems = ft.Column(spacing=4, tight=True)
        self.problems_box = tag("editor-problems", ft.Container(content=self.problems, padding=12, border_radius=12))
        # values no play reaches: said in plain words, never in the way of a save (issue 12)
        self.warnings = ft.Column(spacing=4, tight=True)
        self.warnings_box = tag("editor-warnings", ft.Container(
            content=self.warnings, padding=12, border_radius=12, bgcolor=ft.Colors.TERTIARY_CONTAINER))
        self.save_button = tag("editor-save", ft.FilledButton(
            content="Save to my cards", icon=ft.Icons.SAVE, on_click=self._save, height=48))
        self.mp = ft.Text("", size=16, weight=ft.FontWeight.BOLD)
        self.form = ft.Column(spacing=14, tight=True)
        self.tabs = ft.Row(wrap=True, spacing=8, run_spacing=8)
        self.tabs_shown: tuple | None = None
        self.location_holder = ft.Container()
        self.location = editor.location_names[0]
        self.title = heading(editor.title, 22)
        self.note = muted(editor.note)
        self._fill_form()
        self._show_problems()
        back = tag("editor-back", ft.IconButton(ft.Icons.ARROW_BACK, on_click=self._back, tooltip="Back to the fleets"))
        body = ft.Column([
            ft.Row([back, ft.Column([self.title, self.note], spacing=0, tight=True, expand=True)],
                   vertical_alignment=ft.CrossAxisAlignment.START),
            self.problems_box,
            self.warnings_box,
            self.form,
            ft.Row([self.save_button, ft.TextButton(content="Cancel", on_click=self._back)], wrap=True),
            ft.Container(height=24),
        ], spacing=12, scroll=ft.ScrollMode.AUTO, expand=True)
        self.control = centred(app, body, 1040, 12)

    # --- the form ---------------------------------------------------------------------

    def _fill_form(self) -> None:
        for registry in (self.fields, self.notes, self.worded, self.shown_dice):
            registry.clear()
        self.tabs_shown = None
        self.form.controls = [self._card_section(), self.tabs, self.location_holder]
        self._fill_location()

    def _fill_location(self) -> None:
        """Draw the chosen location (one at a time: a phone stays quick with a 36-slot battleship)."""
        names = self.editor.location_names
        if self.location not in names:
            self.location = names[0]
        for registry in (self.fields, self.notes, self.shown_dice):
            for path in [p for p in registry if p[:1] == ("locations",)]:
                del registry[path]
        self.location_holder.content = self._location(self.location)

    def _fill_tabs(self) -> None:
        """One chip per location: its slot count, and a mark while it has a problem."""
        e = self.editor
        shown = tuple((name, len(e.slots(name)), bool(e.problems_within(("locations", name))), name == self.location)
                      for name in e.location_names)
        if shown == self.tabs_shown:
            return
        self.tabs_shown = shown
        self.tabs.controls = [
            tag(f"tab-{name}", ft.Chip(
                label=f"{location_name(name)} · {count}", selected=chosen, show_checkmark=False,
                leading=ft.Icon(ft.Icons.ERROR, color=ft.Colors.ERROR, size=18) if wrong else None,
                on_select=on(self._select, name)),
                label=f"{location_name(name)}: {count} slots" + (", a problem" if wrong else ""))
            for name, count, wrong, chosen in shown
        ]

    async def _select(self, name: str) -> None:
        self.location = name
        self._fill_location()
        self._show_problems()
        self.app.page.update()

    def _card_section(self) -> ft.Control:
        e = self.editor
        self.worded.add(("type",))
        type_choice = self._dropdown(("type",), "Type", [(str(k), v) for k, v in TYPE_NAMES.items()],
                                     str(e.ship_type), lambda v: e.set_type(int(v)), width=230, redraw="all")
        self.verified_box = ft.Checkbox(
            label="Every value checked against the printed card", value=e.verified,
            on_change=lambda ev: self._changed(lambda: e.set_verified(bool(ev.control.value))))
        verified = tag("ed-verified", self.verified_box)
        notes = self._text(("sources", "notes"), "Notes (where the values come from)", multiline=True,
                           setter=e.set_notes)
        origin: list[ft.Control] = [muted(f"Based on the card '{e.based_on}'.")] if e.based_on else []
        origin.append(muted(f"Card id {e.card_id} (scenario files name the card by it)." if e.card_id
                            else "The card gets its id (my-...) from its name when it is first saved."))
        origin.append(tag("editor-compare", ft.TextButton(
            content="Compare with the printed card", icon=ft.Icons.COMPARE_ARROWS, on_click=self._compare)))
        stats = ft.Row([
            self._stepper(("structural_integrity",), "Structural Integrity"),
            self._stepper(("enter_hexes_before_turn",), "Hexes before a turn"),
            ft.Container(content=ft.Column([muted("Starting MP (engines)", 11), self.mp], spacing=0, tight=True),
                         padding=ft.Padding.symmetric(horizontal=12, vertical=6), border_radius=8,
                         bgcolor=ft.Colors.SECONDARY_CONTAINER),
        ], wrap=True, spacing=12, run_spacing=8)
        stats_note = self._note(("structural_integrity",), ("enter_hexes_before_turn",))
        return self._panel("card-details", "The card", [
            ft.ResponsiveRow([ft.Container(self._text((key,), label), col={"xs": 12, "md": 6}) for key, label in (
                ("name", "Ship name"), ("class", "Class"), ("faction", "Faction"), ("armament", "Armament line"))],
                             spacing=10, run_spacing=10),
            ft.Row([type_choice], wrap=True),
            stats,
            stats_note,
            verified,
            ft.ResponsiveRow([ft.Container(notes, col=12)]),
            *origin,
        ])

    def _location(self, name: str) -> ft.Control:
        e = self.editor
        where = ("locations", name)
        dice = ft.Row([self._dice(where + ("go",), "Go dice: the ship moved", 230),
                       self._dice(where + ("stop",), "Stop dice: it did not move", 230)],
                      wrap=True, spacing=10, run_spacing=10)
        note = self._note(where + ("slots",))
        slots = ft.ResponsiveRow(
            [ft.Container(self._slot(name, i), col={"xs": 12, "md": 6, "xl": 4}) for i in range(len(e.slots(name)))],
            spacing=8, run_spacing=8)
        add = tag(f"add-slot-{name}", ft.TextButton(
            content="Add a slot", icon=ft.Icons.ADD,
            on_click=lambda ev: self._changed(lambda: e.add_slot(name), redraw="location")))
        count = len(e.slots(name))
        return self._panel(f"loc-{name}", location_name(name), [dice, note, slots, add],
                           trailing=muted(f"{count} slot{'s' if count != 1 else ''}", 12))

    def _slot(self, location: str, index: int) -> ft.Control:
        e = self.editor
        path = ("locations", location, "slots", index)
        slot = e.get(path)
        kind = slot.get("kind", "miss")
        key = f"{location}-{index + 1}"  # slot numbers from 1, as the slot die
        count = len(e.slots(location))
        kind_choice = self._dropdown(path + ("kind",), "Kind", [(k, v) for k, v in KIND_NAMES.items()], kind,
                                     lambda v: e.set_kind(location, index, v), width=158, redraw="location",
                                     ident=f"kind-{key}")

        def action(icon, tip, ident, change, enabled=True):
            return tag(ident, ft.IconButton(icon, tooltip=tip, icon_size=20, disabled=not enabled,
                                            width=36, height=36, style=ft.ButtonStyle(padding=4),
                                            on_click=lambda ev: self._changed(change, redraw="location")), label=tip)

        number = ft.Container(
            content=ft.Text(str(index + 1), weight=ft.FontWeight.BOLD, color=ft.Colors.ON_PRIMARY),
            width=28, height=28, border_radius=14, alignment=ft.Alignment.CENTER, bgcolor=ft.Colors.PRIMARY,
            tooltip=f"Slot {index + 1}: the slot die shows {index + 1}")
        head = ft.Row([
            number, kind_choice, ft.Container(expand=True),
            action(ft.Icons.ARROW_UPWARD, "Move up", f"up-{key}", lambda: e.move_slot(location, index, -1), index > 0),
            action(ft.Icons.ARROW_DOWNWARD, "Move down", f"down-{key}", lambda: e.move_slot(location, index, +1),
                   index + 1 < count),
            action(ft.Icons.DELETE_OUTLINE, "Remove this slot", f"remove-{key}", lambda: e.remove_slot(location, index)),
        ], spacing=2)
        breach = self._stepper(path + ("breach",), "Breach number" if kind != "miss" else "Breach (printed)")
        rows: list[ft.Control] = []
        if kind == "gun":
            rows.append(ft.Row([self._text(path + ("name",), "Gun name", expand=True), breach], spacing=8))
            for band in ("short", "long"):
                rows.append(ft.Row([self._stepper(path + (band, "range"), f"{band.capitalize()} range"),
                                    self._dice(path + (band, "dice"), f"{band.capitalize()} dice")],
                                   spacing=8))
            rows.append(ft.Row([
                *[tag(f"{trait}-{key}", ft.Chip(
                    label=trait.capitalize(), selected=trait in slot.get("traits", []),
                    tooltip=f"War Fleet trait: {trait}", visual_density=ft.VisualDensity.COMPACT,
                    on_select=lambda ev, t=trait: self._changed(
                        lambda: e.set_trait(location, index, t, bool(ev.control.selected)))))
                  for trait in TRAITS],
                self._stepper(path + ("saturation",), "Saturation (War Fleet)"),
            ], wrap=True, spacing=6, run_spacing=4, vertical_alignment=ft.CrossAxisAlignment.END))
        elif kind == "crew":
            rows.append(ft.Row([self._dice(path + ("dice",), "Crew dice"), breach], spacing=8))
        elif kind == "armor":
            rows.append(ft.Row([self._stepper(path + ("breach_modifier",), "Armour +"), breach], spacing=16))
        elif kind == "engine":
            rows.append(ft.Row([self._stepper(path + ("mp",), "MP"), breach], spacing=16))
        elif kind == "other":
            rows.append(ft.Row([self._text(path + ("label",), "Label", expand=True), breach], spacing=8))
        else:
            rows.append(ft.Row([breach]))
        return tag(f"slot-{key}", ft.Container(
            content=ft.Column([head, *rows, self._note(path, within=True)], spacing=8, tight=True),
            padding=10, border_radius=10, bgcolor=ft.Colors.SURFACE,
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT)), label=f"{location_name(location)} slot {index + 1}")

    # --- inputs ----------------------------------------------------------------------------

    def _text(self, path: Path, label: str, expand: bool = False, multiline: bool = False,
              setter: Callable[[str], None] | None = None) -> ft.Control:
        e = self.editor
        field = ft.TextField(
            label=label, value=str(e.get(path, "") or ""), dense=True,
            multiline=multiline, min_lines=2 if multiline else None, max_lines=6 if multiline else None,
            on_change=lambda ev: self._changed(
                (lambda: setter(ev.control.value)) if setter else (lambda: e.set(path, ev.control.value))))
        self.fields[path] = field
        if path[0] != "locations":  # the card's own fields are wide: their message goes under them
            self.worded.add(path)
        return tag("ed-" + _ident(path), field, label=label) if not expand else \
            ft.Container(tag("ed-" + _ident(path), field, label=label), expand=True)

    def _stepper(self, path: Path, label: str) -> ft.Control:
        e = self.editor
        value = e.get(path, DEFAULT_SHOWN.get(path[-1]))
        field = ft.TextField(
            value="" if value is None else str(value), width=64, dense=True,
            text_align=ft.TextAlign.CENTER, keyboard_type=ft.KeyboardType.NUMBER,
            content_padding=ft.Padding.symmetric(horizontal=4, vertical=10),
            on_change=lambda ev: self._changed(lambda: e.set_number(path, ev.control.value)))
        self.fields[path] = field

        def step(delta):
            def handler(ev):
                self._changed(lambda: e.step(path, delta))
                new = e.get(path)
                field.value = "" if new is None else str(new)
                minus.disabled, plus.disabled = not e.can_step(path, -1), not e.can_step(path, +1)
                self.app.page.update()
            return handler

        ident = _ident(path)
        minus = ft.IconButton(ft.Icons.REMOVE, icon_size=18, tooltip=f"{label} one less", on_click=step(-1),
                              disabled=not e.can_step(path, -1))
        plus = ft.IconButton(ft.Icons.ADD, icon_size=18, tooltip=f"{label} one more", on_click=step(+1),
                             disabled=not e.can_step(path, +1))
        row = ft.Row([tag(f"less-{ident}", minus, label=f"{label} one less"),
                      tag("ed-" + ident, field, label=label),
                      tag(f"more-{ident}", plus, label=f"{label} one more")],
                     spacing=0, tight=True, vertical_alignment=ft.CrossAxisAlignment.START)
        return ft.Column([muted(label, 11), row], spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER)

    def _dice(self, path: Path, label: str, width: float = 160) -> ft.Control:
        current = self.editor.get(path)
        options = [(d, d) for d in dice_options(current)]
        return self._dropdown(path, label, options, current, lambda v: self.editor.set(path, v), width=width,
                              dice=True)

    def _dropdown(self, path: Path, label: str, options: list[tuple[str, str]], value: str | None,
                  setter: Callable[[str], None], width: float = 160, redraw: str | None = None,
                  dice: bool = False, ident: str | None = None) -> ft.Control:
        """A list to choose from."""
        def option(key, text):
            content = ft.Row([_dots(key, 14), ft.Text(text)], spacing=8, tight=True) if dice else None
            return ft.DropdownOption(key=key, text=text, content=content)

        field = ft.Dropdown(
            label=label, value=value, width=width, dense=True, menu_height=360, text_size=14,
            options=[option(k, t) for k, t in options],
            leading_icon=_dots(value, 12) if dice and value else None,
            on_select=lambda ev: self._changed(lambda: setter(ev.control.value), redraw=redraw))
        self.fields[path] = field
        if dice:
            self.shown_dice[path] = value
        return tag(ident or "ed-" + _ident(path), field, label=label)

    def _note(self, path: Path, *more: Path, within: bool = False) -> ft.Text:
        """Problem text for these fields (`within`: and every field inside the first)."""
        note = ft.Text("", color=ft.Colors.ERROR, size=12, visible=False)
        self.notes[path] = (note, (path, *more), within)
        return note

    def _panel(self, ident: str, title: str, controls: list[ft.Control], trailing: ft.Control | None = None):
        head = ft.Row([heading(title, 17), ft.Container(expand=True), *([trailing] if trailing else [])])
        return tag(ident, ft.Container(
            content=ft.Column([head, *controls], spacing=10, tight=True),
            padding=12, border_radius=14, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW))

    # --- changes -------------------------------------------------------------------------------

    def _changed(self, change: Callable[[], None], redraw: str | None = None) -> None:
        """Apply a change; redraw "location" (its shape changed) or "all" (the type changed)."""
        change()
        if getattr(self, "verified_box", None) is not None:
            self.verified_box.value = self.editor.verified  # an edit that differs clears it (issue 35)
        if redraw == "all":
            self._fill_form()
        elif redraw == "location":
            self._fill_location()
        self._show_problems()
        self.app.page.update()

    def _show_problems(self) -> None:
        e = self.editor
        problems = e.problems()
        first: dict[Path, str] = {}
        for problem in problems:
            first.setdefault(problem.path, problem.text)
        for path, field in self.fields.items():  # only what changed, to keep each update small
            text = first.get(path)
            if text is not None and path not in self.worded:
                text = ""  # a red outline; the words go in the note below
            attribute = "error_text" if isinstance(field, ft.Dropdown) else "error"
            if getattr(field, attribute) != text:
                setattr(field, attribute, text)
            if isinstance(field, ft.Dropdown) and path[-1] in ("dice", "go", "stop"):
                value = e.get(path)
                if self.shown_dice.get(path) != value:
                    self.shown_dice[path] = value
                    field.leading_icon = _dots(value, 12) if value else None
        for note, paths, within in self.notes.values():
            if within:
                texts = [p.text for p in problems if p.path[:len(paths[0])] == paths[0]]
            else:
                texts = [first[p] for p in paths if p in first]
            text = "\n".join(texts)
            if note.value != text:
                note.value, note.visible = text, bool(text)
        self.mp.value = str(e.starting_mp)
        self._fill_tabs()
        if problems:
            count = len(problems)
            self.problems.controls = [
                ft.Row([ft.Icon(ft.Icons.ERROR_OUTLINE, color=ft.Colors.ON_ERROR_CONTAINER),
                        ft.Text(f"{count} problem{'s' if count != 1 else ''} to fix before saving",
                                weight=ft.FontWeight.W_600, color=ft.Colors.ON_ERROR_CONTAINER, expand=True)]),
                *[ft.Text(f"• {p.text}", color=ft.Colors.ON_ERROR_CONTAINER) for p in problems[:8]],
                *([ft.Text(f"… and {count - 8} more", color=ft.Colors.ON_ERROR_CONTAINER)] if count > 8 else []),
            ]
            inner(self.problems_box, ft.Container).bgcolor = ft.Colors.ERROR_CONTAINER
        else:
            self.problems.controls = [ft.Row([
                ft.Icon(ft.Icons.CHECK_CIRCLE_OUTLINE, color=ft.Colors.ON_SECONDARY_CONTAINER),
                ft.Text("The card is complete: ready to save." if e.dirty else
                        "The card is complete and saved.", color=ft.Colors.ON_SECONDARY_CONTAINER, expand=True),
            ])]
            inner(self.problems_box, ft.Container).bgcolor = ft.Colors.SECONDARY_CONTAINER
        inner(self.save_button, ft.FilledButton).disabled = bool(problems)
        self._show_warnings()

    def _show_warnings(self) -> None:
        warnings = self.editor.warnings()
        colour = ft.Colors.ON_TERTIARY_CONTAINER
        texts = [f"• {w.text}" for w in warnings]
        shown = [c.value for c in self.warnings.controls[1:] if isinstance(c, ft.Text)]  # (all are)
        if shown != texts or not self.warnings.controls:
            self.warnings.controls = [
                ft.Row([ft.Icon(ft.Icons.WARNING_AMBER, color=colour),
                        ft.Text("Check these values (the card still saves):", weight=ft.FontWeight.W_600,
                                color=colour, expand=True)]),
                *[ft.Text(text, color=colour) for text in texts],
            ]
        self.warnings_box.visible = bool(warnings)

    async def _save(self, ev) -> None:
        e = self.editor
        try:
            library = self.app.card_library()  # refused on the server to any device but the host
            catalogue = await self.app.catalogue()
            card = e.save(library, also_taken=catalogue)
        except (ValueError, PermissionError) as exc:
            self._show_problems()
            notice(self.app.page, "Not saved", str(exc))
            return
        _EDITORS.pop(self.app, None)
        await self.app.navigate(Session("fleets", message=f"Saved {card.name} to your cards (id {card.id})."))

    async def _compare(self, ev) -> None:
        """The draft beside its printed card: every differing value side by side (issue 12)."""
        comparison = compare_with_printed(self.editor, await self.app.catalogue())
        if comparison.problem:
            content: ft.Control = ft.Text(comparison.problem)
        elif not comparison.rows:
            content = ft.Text(comparison.summary)
        else:
            head = ft.Row([ft.Text(t, weight=ft.FontWeight.W_600, expand=2) for t in ("Value", "This card", "Printed card")])
            rows = [tag(f"compare-{n}", ft.Row([ft.Text(label, expand=2), ft.Text(mine, expand=2),
                                                ft.Text(printed, expand=2)]),
                        label=f"{label}: this card {mine}, printed card {printed}")
                    for n, (label, mine, printed) in enumerate(comparison.rows)]
            content = ft.Column([muted(comparison.summary), head, ft.Divider(height=1), *rows],
                                spacing=6, tight=True, scroll=ft.ScrollMode.AUTO, width=560, height=420)
        self.app.page.show_dialog(ft.AlertDialog(
            title=ft.Text("Compare with the printed card"), content=tag("compare-dialog", content),
            actions=[ft.TextButton(content="Close", on_click=lambda _: self.app.page.pop_dialog())]))

    async def _back(self, ev) -> None:
        if not self.editor.dirty or (self.editor.card_id is None and self.editor.version == 0):
            _EDITORS.pop(self.app, None)
            await self.app.navigate(Session("fleets"))
            return

        async def discard(_):
            self.app.page.pop_dialog()
            _EDITORS.pop(self.app, None)
            await self.app.navigate(Session("fleets"))

        self.app.page.show_dialog(ft.AlertDialog(
            title=ft.Text("Leave without saving?"),
            content=ft.Text("Your changes to this card are not saved."),
            actions=[ft.TextButton(content="Keep editing", on_click=lambda _: self.app.page.pop_dialog()),
                     tag("discard", ft.TextButton(content="Discard changes", on_click=discard))]))


def _dots(notation: str, size: int) -> ft.Control:
    """The dice of a pool as coloured discs (no tooltips: the option's text names them)."""
    try:
        colours = dice_chips(notation)
    except ValueError:
        colours = []
    return ft.Row([ft.Container(width=size, height=size, border_radius=size / 2, bgcolor=DICE.get(c, ("#888888",))[0],
                                border=ft.Border.all(1, "#00000040" if c != "Black" else "#ffffff55"))
                   for c in colours], spacing=3, tight=True)


def _ident(path: Path) -> str:
    """("locations", "port", "slots", 4, "breach") -> 'port-5-breach' (slot numbers from 1)."""
    parts = [str(p + 1) if isinstance(p, int) else str(p) for p in path if p not in ("locations", "slots")]
    return "-".join(parts).replace("_", "-")
