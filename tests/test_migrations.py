"""Format versions: older card and fleet files upgrade, newer ones are refused in plain words."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

from companion.engine.cards import FormatError, load_card, load_fleet
from companion.engine.migrations import migrate_card, migrate_fleet
from companion.files import load_catalogue, load_file


def v1_card() -> dict:
    return load_catalogue()["hml-raven"].dump()


def v0_card() -> dict:
    """The Raven as a version-0 file: `class_name`, `si`, and armour spelled `armour`."""
    card = v1_card()
    card["format"] = "leviathans-card/0"
    card = {("class_name" if k == "class" else "si" if k == "structural_integrity" else k): v
            for k, v in card.items()}
    for location in card["locations"].values():
        for slot in location["slots"]:
            if slot["kind"] == "armor":
                slot["kind"] = "armour"
    return card


def test_a_version_0_card_loads_as_the_same_card():
    assert load_card(v0_card()) == load_card(v1_card())


def test_migrate_card_renames_the_version_0_fields():
    migrated = migrate_card(v0_card())
    assert migrated["format"] == "leviathans-card/1"
    assert migrated["class"] == "D-class Destroyer" and "class_name" not in migrated
    assert migrated["structural_integrity"] == 20 and "si" not in migrated  # the printed Raven
    kinds = {s["kind"] for loc in migrated["locations"].values() for s in loc["slots"]}
    assert "armor" in kinds and "armour" not in kinds
    assert list(migrated)[:4] == ["format", "id", "name", "class"], "keys keep their places"


def test_migrate_card_leaves_the_callers_data_alone():
    data = v0_card()
    before = copy.deepcopy(data)
    migrate_card(data)
    assert data == before


def test_migrate_card_passes_current_and_foreign_data_through():
    current = v1_card()
    assert migrate_card(current) is current
    for other in ({"format": "leviathans-card/2"}, {"format": "something"}, [], "text", None):
        assert migrate_card(other) is other


def test_a_version_0_fleet_of_untagged_version_0_cards_loads():
    card = v0_card()
    del card["format"]
    fleet = load_fleet({"format": "leviathans-fleet/0", "name": "Old", "faction": "British", "ships": [card]})
    assert fleet.format == "leviathans-fleet/1"
    assert fleet.ships[0] == load_card(v1_card())


def test_a_current_fleet_may_hold_a_version_0_card():
    fleet = load_fleet({"format": "leviathans-fleet/1", "name": "Mixed", "ships": [v0_card()]})
    assert fleet.ships[0].structural_integrity == 20  # the printed Raven


def test_migrate_fleet_leaves_the_callers_data_alone():
    data = {"format": "leviathans-fleet/0", "name": "Old", "ships": [v0_card()]}
    before = copy.deepcopy(data)
    migrate_fleet(data)
    assert data == before


def test_version_0_with_both_old_and_new_names_is_an_error_not_a_guess():
    card = v0_card()
    card["class"] = "Another class"
    with pytest.raises(FormatError) as err:
        load_card(card)
    assert err.value.path == "class_name" and err.value.problem == "unknown field"


def test_a_newer_card_is_refused_in_plain_words():
    card = v1_card()
    card["format"] = "leviathans-card/2"
    with pytest.raises(FormatError) as err:
        load_card(card)
    assert err.value.path == "format"
    assert "newer than this app understands" in err.value.problem


def test_a_newer_fleet_is_refused_in_plain_words():
    with pytest.raises(FormatError) as err:
        load_fleet({"format": "leviathans-fleet/2", "name": "New", "ships": []})
    assert "newer than this app understands" in err.value.problem


def test_a_newer_card_inside_a_fleet_is_refused_with_its_path():
    card = v1_card()
    card["format"] = "leviathans-card/7"
    with pytest.raises(FormatError) as err:
        load_fleet({"format": "leviathans-fleet/1", "name": "Mixed", "ships": [v1_card() | {"id": "a"}, card]})
    assert err.value.path == "ships.1.format"
    assert "newer than this app understands" in err.value.problem


def test_validate_reads_a_version_0_file_and_refuses_a_newer_one(tmp_path):
    old = tmp_path / "old.json"
    old.write_text(json.dumps(v0_card()), encoding="utf-8")
    new = tmp_path / "new.json"
    new.write_text(json.dumps(v1_card() | {"format": "leviathans-card/2"}), encoding="utf-8")
    assert load_file(old).name == "HML Raven"

    done = subprocess.run([sys.executable, "-m", "companion", "validate", str(old)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    done = subprocess.run([sys.executable, "-m", "companion", "validate", str(new)], capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "new.json: format: 'leviathans-card/2' is newer than this app understands (leviathans-card/1); update the app"
    ]
