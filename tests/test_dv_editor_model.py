"""The Decisive Victory editor's model (app/rulesets/decisive_victory/editor_model.py) and the group's own files
(app/rulesets/decisive_victory/group.py): every field of a ship record, the grid and Table 1 editable, problems in plain
words per field, saving to the data folder, and a new game playing the group's grid and Table 1
(spec decisive-victory.md §3, §10.1, §2.2, §17, §18)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.rulesets.decisive_victory.editor_model import (DVEditor, GridDraft, ShipDraft, TableDraft, parse_band, parse_dice)
from companion.app.rulesets.decisive_victory.files import load_dv_file, shipped_records
from companion.engine.cards import FormatError
from companion.engine.decisive_victory.grid import RECONSTRUCTED as GRID
from companion.engine.decisive_victory.odds import success_chance
from companion.engine.decisive_victory.scenario import load_dv_scenario
from companion.engine.decisive_victory.table1 import RECONSTRUCTED as TABLE_1
from companion.app.rulesets.decisive_victory.group import GroupFiles, build_group_game, group_files

SAMPLE = Path(__file__).resolve().parent.parent / "fleets" / "decisive-victory" / "sample.json"


class FolderStore:
    def __init__(self, folder: Path):
        self.folder = folder


def editor(tmp_path: Path | None = None) -> DVEditor:
    return DVEditor(GroupFiles(tmp_path), shipped_records())


def texts(draft) -> list[str]:
    return [p.text for p in draft.problems()]


# --- a ship record -----------------------------------------------------------------------------

def test_a_sample_copy_is_ready_to_save_and_every_field_is_named_when_wrong():
    e = editor()
    e.copy_sample("sample-light-cruiser")
    s = e.ship
    assert s.problems() == [] and s.dirty
    s.set_number(("speed",), "fast")
    s.set_number(("turning_class",), "5")
    s.set_number(("armor", "belt"), "")
    s.set(("class",), "battleship")
    s.set_number(("weapons", 0, "fire_control"), "-1")
    s.set(("weapons", 2, "salvoes"), None)
    s.set(("id",), "bad id")
    s.set(("name",), "  ")
    assert texts(s) == [
        "Name is empty: every ship record needs a name",
        "Record id 'bad id' may hold letters, digits, '-', '_' and '.', starting with a letter or digit",
        "Class 'battleship' is not one of 'destroyer', 'cruiser' or 'capital'",
        "Speed must be a whole number, not 'fast'",
        "Turning class must be at most 4",
        "Belt armour is empty: give a whole number",
        "Weapon 1 (6 in battery) fire control (FC) must be at least 0",
        'Weapon 3 (21 in tubes): a torpedo system needs "salvoes" (003:91)',
    ]
    assert [p.text for p in s.problems() if p.path == ("speed",)] == ["Speed must be a whole number, not 'fast'"]
    with pytest.raises(FormatError, match=r"^Name is empty: every ship record needs a name \(and 7 more\)$"):
        s.record()


def test_optional_numbers_typed_empty_are_null_and_weapon_kinds_carry_their_fields():
    s = ShipDraft.new()
    s.set_number(("collision_rating",), "")
    assert s.get(("collision_rating",)) is None and s.ok
    s.set_weapon_kind(0, "torpedo")
    assert s.get(("weapons", 0, "salvoes")) == 2 and "radar" not in s.get(("weapons", 0))
    s.set_weapon_kind(0, "gun")
    assert "salvoes" not in s.get(("weapons", 0)) and s.get(("weapons", 0, "dual_purpose_aa")) == 0
    s.set(("weapons", 0, "salvoes"), 2)
    assert texts(s) == ['Weapon 1 (Gun battery): "salvoes" is for torpedo systems only; a gun fires once every '
                        "turn (003:52)"]


def test_weapons_flights_arcs_and_the_flight_deck_are_edited():
    s = ShipDraft.new()
    s.add_weapon("torpedo")
    s.add_weapon("gun")
    assert [w["id"] for w in s.data["weapons"]] == ["guns", "torpedoes", "guns-2"]
    s.remove_weapon(0)
    s.set_arc(0, "port", True)
    s.set_arc(0, "fore", True)
    s.set_arc(0, "port", False)
    assert s.get(("weapons", 0, "arcs")) == ["fore"]
    s.set_flight_deck(True)
    s.add_flight("dive_bomber")
    s.set_number(("flights", 0, "quality"), "x")
    assert texts(s) == ["Flight 1 (flight) quality must be a whole number, not 'x'"]
    s.set_number(("flights", 0, "quality"), "3")
    record = s.record()
    assert record.flight_deck is not None and record.flights[0].type == "dive_bomber"
    s.set_flight_deck(False)
    s.remove_flight(0)
    assert s.record().flight_deck is None and s.record().flights == []


def test_a_ship_is_saved_renamed_and_deleted_in_the_groups_file(tmp_path):
    e = editor(tmp_path)
    assert e.ships == [] and e.ship.version == 0
    e.copy_sample("sample-destroyer")
    e.ship.set_number(("speed",), "20")
    saved = e.save_ship()
    fleet = load_dv_file(tmp_path / "decisive-victory" / "ships.json")
    assert fleet.format == "decisive-victory-fleet/1" and [s.speed for s in fleet.ships] == [20]
    assert not e.ship.dirty and e.ship.saved_id == saved.id == "sample-destroyer"
    e.ship.set(("id",), "club-destroyer")
    e.save_ship()
    assert [s.id for s in GroupFiles(tmp_path).ships()] == ["club-destroyer"], "the old id replaced"
    e.new_ship()
    e.ship.set(("id",), "club-destroyer")
    assert texts(e.ship) == ["Record id 'club-destroyer' is another of the group's ships: give this one its own "
                             "(scenarios name a ship by it)"]
    e.ship.set(("id",), "club-cruiser")
    e.save_ship()
    assert [s.id for s in GroupFiles(tmp_path).ships()] == ["club-destroyer", "club-cruiser"]
    e.choose("club-destroyer")
    e.delete_ship()
    assert [s.id for s in GroupFiles(tmp_path).ships()] == ["club-cruiser"]
    assert e.ship.saved_id == "club-cruiser"


def test_a_copied_samples_id_is_the_groups_own():
    e = editor()
    e.copy_sample("sample-light-cruiser")
    e.save_ship()
    e.copy_sample("sample-light-cruiser")
    assert e.ship.get(("id",)) == "sample-light-cruiser-2" and e.ship.ok


# --- the grid -----------------------------------------------------------------------------------

def test_dice_and_bands_are_read_as_the_group_writes_them():
    assert parse_dice("2-3") == [2, 3] and parse_dice("1") == [1] and parse_dice("2, 3") == [2, 3]
    assert parse_dice("3-2") is None and parse_dice("two") is None
    assert parse_band("6-8") == [6, 8] and parse_band("7") == [7, 7] and parse_band("N7 only") is None
    assert parse_band("six") == "six"


def test_a_grid_cell_set_by_the_group_is_no_longer_reconstructed():
    g = GridDraft.of(GRID)
    assert g.grid().unverified_boxes == [(2, 3), (2, 4), (2, 5), (2, 6), (3, 4), (3, 5), (3, 6)]
    g.set_cell(1, 3, "Torp")
    grid = g.grid()
    assert grid.unverified_boxes == [(2, 4), (2, 5), (2, 6), (3, 4), (3, 5), (3, 6)]
    assert grid.cell((2, 3)) == "Torp"


def test_grid_problems_name_the_row_column_and_threshold():
    g = GridDraft.of(GRID)
    g.set_dice(1, "2-x")
    assert texts(g) == ["Row 2 1st die '2-x': write the faces as 1, or 2-3, or 2, 3"]
    g.set_dice(1, "2-4")
    assert texts(g) == ["Rows: the rows' dice are [1, 2, 3, 4, 4, 5, 6]: they must cover 1 to 6, each once, "
                        "in order"]
    g.set_dice(1, "2-3")
    g.set(("rows", 0, "cells", 0), "Bridge")
    g.set_number(("thresholds", "cruiser"), "0")
    assert texts(g) == [
        "Row 1 (1st die 1) column 1 'Bridge' is not one of 'Com', 'AA', 'Flight', 'Guns', 'Turn', 'Speed', "
        "'Torp' or 'Struct'",
        "Threshold of a cruiser must be at least 1"]
    g.set_cell(0, 1, "AA")
    g.set_number(("thresholds", "cruiser"), "2")
    assert g.ok


def test_grid_rows_are_added_and_removed_and_armour_changed():
    g = GridDraft.of(GRID)
    g.remove_row(3)
    assert texts(g)[0].startswith("Rows: the rows' dice are [1, 2, 3, 4, 5]")
    g.add_row()
    g.set_armor(3, "belt")
    assert g.grid().rows[3].armor == "belt" and g.grid().rows[3].cells == ["Struct"] * 6


# --- Table 1 ------------------------------------------------------------------------------------

def test_a_band_set_by_the_group_is_no_longer_reconstructed_and_bad_ones_are_named():
    t = TableDraft.of(TABLE_1)
    assert t.data["bands"][3]["text"] == "6-8" and t.data["bands"][0]["text"] == "N7 only"
    t.set_band(5, "5-9x")
    assert texts(t) == ["+5: '5-9x' is not a band: write the totals as 6-8, one total as 7, or N7 only"]
    t.set_band(5, "2-9")
    assert texts(t) == ["Modifier +5: totals 2-9: a band runs from 3 to 11 (2 and 12 always fail), lowest first"]
    t.set_band(5, "6-9")
    table = t.table()
    assert table.band(5).totals == (6, 9) and 5 not in table.unverified_modifiers
    assert table.unverified_modifiers == [6, 7, 8, 9]


# --- the group's files in a new game --------------------------------------------------------------

def test_saved_grid_and_table_are_played_by_a_new_game(tmp_path):
    store = FolderStore(tmp_path)
    e = DVEditor(group_files(store), shipped_records())
    e.grid.set_cell(1, 3, "Torp")
    e.table.set_band(5, "6-9")
    e.save_grid()
    e.save_table()
    assert (tmp_path / "decisive-victory" / "hit-grid.json").exists()
    state = build_group_game(store, load_dv_scenario(json.loads(SAMPLE.read_text())))
    assert state.hit_grid.cell((2, 3)) == "Torp" and state.hit_grid.name == "Our grid (from the reconstructed one)"
    assert state.success_table.band(5).totals == (6, 9)
    assert success_chance(5, state.success_table) == success_chance(4, TABLE_1), "5-9 became 6-9: as +4"
    e.reset_grid()
    e.reset_table()
    state = build_group_game(store, load_dv_scenario(json.loads(SAMPLE.read_text())))
    assert state.hit_grid == GRID and state.success_table == TABLE_1


def test_the_groups_ships_are_found_by_id_in_a_new_game(tmp_path):
    store = FolderStore(tmp_path)
    e = DVEditor(group_files(store), shipped_records())
    e.copy_sample("sample-light-cruiser")
    e.ship.set(("id",), "club-cruiser")
    e.ship.set_number(("speed",), "17")
    e.save_ship()
    data = json.loads(SAMPLE.read_text())
    data["ships"][0]["ship"] = "club-cruiser"
    state = build_group_game(store, load_dv_scenario(data))
    assert state.ships[0].record.speed == 17


def test_a_bad_group_file_is_named_and_not_used(tmp_path):
    folder = tmp_path / "decisive-victory"
    folder.mkdir()
    (folder / "hit-grid.json").write_text(json.dumps({**GRID.dump(), "format": "decisive-victory-hit-grid/2"}))
    files = GroupFiles(tmp_path)
    assert files.hit_grid() is None
    assert files.problems == [f"{folder / 'hit-grid.json'}: format: 'decisive-victory-hit-grid/2' is newer than "
                              "this app understands (decisive-victory-hit-grid/1); update the app; it is left as "
                              "it is and not used"]
    assert json.loads((folder / "hit-grid.json").read_text())["format"].endswith("/2"), "never overwritten"


def test_a_memory_store_keeps_the_groups_files_in_memory():
    class MemoryStore:
        folder = None

    store = MemoryStore()
    files = group_files(store)
    assert files is group_files(store) and files.folder is None
    files.save_hit_grid(GRID)
    assert files.hit_grid() == GRID
    files.save_hit_grid(None)
    assert files.hit_grid() is None
