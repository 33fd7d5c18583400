"""The rules a new game is played by: seed 002's house rules (Quick-Start) and the table rules,
each at the app's reading until the group changes it.  The view only draws the choice; the
models (`HouseRules`, `TableRules`, engine/quick_start/table_rules.py) say what each means and check it."""

from __future__ import annotations

import flet as ft

from ...engine.quick_start.table_rules import HOUSE_RULE_WORDS, TABLE_RULE_WORDS, HouseRules, TableRules
from .widgets import heading, muted, section, tag


class RulesChoice:
    """Switches for the house rules (when `house` is set) and a drop-down per table rule in `table`."""

    def __init__(self, table: tuple[str, ...], house: bool = True):
        self.switches = {key: ft.Switch(label=title, value=False, on_change=self._switched)
                         for key, (title, _) in HOUSE_RULE_WORDS.items()} if house else {}
        self.choices = {key: self._dropdown(key) for key in table}
        rows: list[ft.Control] = [heading("Rules")]
        if house:
            rows.append(muted("House rules (Kannik's variant rules, 1997): each is off unless you switch it on.", 12))
            rows += [ft.Column([tag(f"house-{key}", switch), muted(HOUSE_RULE_WORDS[key][1], 12)], spacing=0,
                               tight=True) for key, switch in self.switches.items()]
        rows.append(muted("Table rules: where the rule texts are silent, the app's reading is first; "
                          "pick your group's own.", 12))
        rows += [tag(f"table-{key}", dropdown) for key, dropdown in self.choices.items()]
        self.control = section(*rows)
        self._switched(None)

    @staticmethod
    def _dropdown(key: str) -> ft.Dropdown:
        title, answers = TABLE_RULE_WORDS[key]
        return ft.Dropdown(label=title, value=next(iter(answers)), dense=True, width=400,
                           options=[ft.DropdownOption(key=value, text=words) for value, words in answers.items()])

    def _switched(self, e) -> None:
        """Seize the initiative plays only with unit initiative: off and greyed out without it."""
        if "seize_initiative" in self.switches:
            seize = self.switches["seize_initiative"]
            seize.disabled = not self.switches["unit_initiative"].value
            if seize.disabled:
                seize.value = False

    def house_rules(self) -> HouseRules:
        return HouseRules.model_validate({key: bool(switch.value) for key, switch in self.switches.items()})

    def table_rules(self) -> TableRules:
        return TableRules.model_validate({key: dropdown.value for key, dropdown in self.choices.items()})
