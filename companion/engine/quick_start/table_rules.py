"""The rules a group chooses for one game: house rules (seed 002) and table rules.

House rules (`HouseRules`, shared/spec/house-rules.md) are Kannik's 1997 variant
rules that fit the Quick-Start game: unit initiative (H1), seizing the
initiative (H2), declared turns (H3) and one-hex ships (H4), each off by
default.  Table rules (`TableRules`) are the readings where the rule texts are
silent: each default is the app's reading (docs/rule-readings.md), and a group
that plays it differently chooses its own at New game.  Both are part of a
game's start (its settings), so replay, export and verify see them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..cards import RULE_SECTIONS

#: H1 class modifier by Quick-Start ship type (house-rules.md 4.2, reading R-H1.1).
CLASS_MODIFIERS = {1: 0, 2: 3, 3: 3, 4: 5}


class HouseRules(BaseModel):
    """Seed 002's house rules for a Quick-Start game; every one off by default."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    unit_initiative: bool = Field(default=False, strict=True, description="H1: each ship rolls 1d10 + class modifier")
    seize_initiative: bool = Field(default=False, strict=True, description="H2: a lower-ranked ship may seize the initiative")
    declared_turns: bool = Field(default=False, strict=True, description="H3: a turn is declared before it is made")
    one_hex_ships: bool = Field(default=False, strict=True, description="H4: every ship fills one hex")
    initiative_modifiers: dict[int, int] = Field(default_factory=lambda: dict(CLASS_MODIFIERS))
    declare_direction: bool = Field(default=False, strict=True, description="H3: a declared turn names its side")

    @model_validator(mode="after")
    def _seize_needs_unit_initiative(self) -> "HouseRules":
        if self.seize_initiative and not self.unit_initiative:
            raise ValueError("seize the initiative needs unit initiative")
        return self

    @property
    def names(self) -> list[str]:
        """The house rules in use, in words, for the game banner: their titles without the code,
        "unit initiative" for "Unit initiative (H1)"."""
        return [title.rsplit(" (", 1)[0].lower() for key, (title, _) in HOUSE_RULE_WORDS.items() if getattr(self, key)]


class TableRules(BaseModel):
    """Readings a group may play differently; each default is the app's reading."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    crew_slots: Literal["add", "best"] = Field(
        default="add", description="several crew slots in the weapon's location: each adds its dice, or only the best")
    two_locations: Literal["attacker", "target", "roll"] = Field(
        default="attacker", description="a shot that can strike two locations: who picks (or a d6 roll)")
    type4_sides: Literal["beam", "simple"] = Field(
        default="beam", description="Type 4 side locations: split at the beam, or the four simple arcs with the "
                                    "attacker choosing fore or aft")
    warfleet_initiative: Literal["highest", "lowest"] = Field(
        default="highest", description="War Fleet initiative and placement rolls: the highest or the lowest wins")
    warfleet_placement: Literal["split", "alternate"] = Field(
        default="split", description="War Fleet placement: the loser's ships split between the winner's, or "
                                     "plain alternation")
    side_turret_centre_line: Literal["reaches", "stops"] = Field(
        default="reaches", description="War Fleet side turrets: a hex the centre line cuts is in reach, or not")
    warfleet_range_zero: Literal["allowed", "none"] = Field(
        default="allowed", description="War Fleet attacks at range 0 (the same hex): allowed, or none")
    rear_destroyed_dialup: Literal["at_once", "next_combat"] = Field(
        default="at_once", description="War Fleet: attacks on a ship whose stern is destroyed dial up at once, "
                                       "or from the next combat")

    @property
    def chosen(self) -> dict[str, str]:
        """The table rules this game changed from the app's reading (key -> value)."""
        default = TableRules()
        return {key: value for key, value in self.model_dump().items() if getattr(default, key) != value}


def rules_in_words(house: HouseRules | None, table: TableRules) -> str:
    """The house rules in use and the table rules changed from the app's reading, as one sentence
    for a game's banner ("" when the game is played as the app reads the rules)."""
    names = house.names if house is not None else []
    chosen = [f"{TABLE_RULE_WORDS[key][0].lower()}: {TABLE_RULE_WORDS[key][1][value]}"
              for key, value in table.chosen.items()]
    return (f" House rules: {', '.join(names)}." if names else "") + (f" Table rules: {'; '.join(chosen)}." if chosen else "")


RULE_SECTIONS.update(house_rules=HouseRules, table_rules=TableRules)  # the unknown-key message (cards.py)

#: Each house rule in words: its name and what it does (New game, Rule readings).
HOUSE_RULE_WORDS = {
    "unit_initiative": ("Unit initiative (H1)", "each ship rolls 1d10 + its class modifier; the highest moves "
                                                "first; ships still tied after one re-roll move simultaneously"),
    "seize_initiative": ("Seize the initiative (H2)", "a lower-ranked ship may interrupt the move order and move "
                                                      "now (needs unit initiative)"),
    "declared_turns": ("Declared turns (H3)", "a ship declares a turn, then enters its card's hexes before making it"),
    "one_hex_ships": ("One-hex ships (H4)", "every ship fills one hex; its arcs, range and struck location are "
                                            "drawn from that hex"),
}

#: Each table rule in words: its question, and each answer (the first is the app's reading).
TABLE_RULE_WORDS = {
    "crew_slots": ("Several crew slots in one location", {"add": "each adds its dice", "best": "only the best counts"}),
    "two_locations": ("A shot that can strike two locations", {
        "attacker": "the attacker picks", "target": "the target picks", "roll": "a d6 decides"}),
    "type4_sides": ("Type 4 side locations", {
        "beam": "split at the beam", "simple": "four simple arcs, the attacker picks fore or aft"}),
    "warfleet_initiative": ("War Fleet initiative and placement", {
        "highest": "the highest roll wins", "lowest": "the lowest roll wins"}),
    "warfleet_placement": ("War Fleet placement order", {
        "split": "the loser's extra ships split between the winner's", "alternate": "one ship each, in turn"}),
    "side_turret_centre_line": ("War Fleet side turrets", {
        "reaches": "reach a hex the centre line cuts", "stops": "stop short of the centre line"}),
    "warfleet_range_zero": ("War Fleet range 0 (one hex)", {"allowed": "ships may attack", "none": "no attacks"}),
    "rear_destroyed_dialup": ("War Fleet stern destroyed: attacks dial up", {
        "at_once": "at once", "next_combat": "from the next combat"}),
}
QUICK_START_TABLE_RULES = ("crew_slots", "two_locations", "type4_sides")
WAR_FLEET_TABLE_RULES = ("warfleet_initiative", "warfleet_placement", "side_turret_centre_line",
                         "warfleet_range_zero", "rear_destroyed_dialup")
