"""Decisive Victory's data files at the edge (spec decisive-victory.md §17): `companion schema` of
every format, version tags through migrations.py (newer and never-written versions refused in
plain words, a registered step upgrades), and `companion validate` of each kind of file."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from companion.commands import main
from companion.app.rulesets.decisive_victory.files import SCHEMAS, load_dv_data, ship_records
from companion.engine import migrations
from companion.engine.cards import FormatError
from companion.engine.decisive_victory.grid import RECONSTRUCTED as GRID
from companion.engine.decisive_victory.records import load_ship, load_ship_fleet
from companion.engine.decisive_victory.scenario import load_dv_scenario
from companion.engine.decisive_victory.table1 import RECONSTRUCTED as TABLE_1, load_success_table
from companion.engine.migrations import DV_STEPS, DV_VERSIONS, migrate_dv

SAMPLE = Path(__file__).resolve().parent.parent / "fleets" / "decisive-victory" / "sample.json"


def sample() -> dict:
    return json.loads(SAMPLE.read_text(encoding="utf-8"))


def cruiser() -> dict:
    return copy.deepcopy(sample()["records"][0])


def fleet() -> dict:
    return {"format": "decisive-victory-fleet/1", "name": "Sample", "nation": "British",
            "ships": [r for r in sample()["records"]]}


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, name: str, data) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


# --- schema -------------------------------------------------------------------------------

EXAMPLES = {
    "dv-ship": cruiser, "dv-fleet": fleet, "dv-hit-grid": GRID.dump, "dv-table": lambda: TABLE_1.model_dump(mode="json"),
    "dv-scenario": sample,
    "dv-flight": lambda: {"id": "stringbag-1", "name": "Swordfish flight", "type": "torpedo_bomber",
                          "quality": 2, "slow": True, "radar": False, "naval": True},
}


@pytest.mark.parametrize("kind", sorted(SCHEMAS))
def test_companion_schema_prints_each_dv_format_and_its_example_fits(kind, capsys):
    code, out, _ = run(capsys, "schema", kind)
    assert code == 0
    schema = json.loads(out)
    example = EXAMPLES[kind]()
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert set(example) <= set(schema["properties"]), "every field of the example is in the schema"
    assert set(schema.get("required", [])) <= set(example), "the example has every required field"
    if "format" in schema["properties"]:
        assert schema["properties"]["format"]["const"] == example["format"]


def test_the_ship_schema_names_the_spec_fields_and_refuses_a_stray_one(capsys):
    _, out, _ = run(capsys, "schema", "dv-ship")
    schema = json.loads(out)
    assert set(schema["required"]) >= {"id", "name", "class", "speed", "turning_class", "armor",
                                       "critical_damage_threshold", "weapons"}
    assert schema["properties"]["format"]["const"] == "decisive-victory-ship/1"
    assert schema["properties"]["class"]["enum"] == ["destroyer", "cruiser", "capital"]
    assert schema["properties"]["turning_class"]["minimum"] == 1
    assert schema["properties"]["turning_class"]["maximum"] == 4
    weapon = schema["$defs"]["Weapon"]["properties"]
    assert weapon["kind"]["enum"] == ["gun", "torpedo"] and "salvoes" in weapon


# --- migrations -----------------------------------------------------------------------------

@pytest.mark.parametrize("load,data", [(load_ship, cruiser), (load_ship_fleet, fleet), (load_dv_scenario, sample),
                                       (load_success_table, lambda: TABLE_1.model_dump(mode="json"))])
def test_a_newer_version_is_refused_in_plain_words(load, data):
    item = data()
    family = item["format"].split("/")[0]
    item["format"] = f"{family}/2"
    with pytest.raises(FormatError) as caught:
        load(item)
    assert str(caught.value) == (f"format: '{family}/2' is newer than this app understands ({family}/1); "
                                 "update the app")


def test_a_version_0_file_has_no_upgrade_the_spec_describes_and_is_refused_in_plain_words():
    assert all(not steps for steps in DV_STEPS.values()), "spec 17 describes no older version"
    with pytest.raises(FormatError) as caught:
        load_ship({**cruiser(), "format": "decisive-victory-ship/0"})
    assert str(caught.value) == (
        "format: 'decisive-victory-ship/0' is a version this app cannot upgrade: decisive-victory-ship/1 is "
        "the first version of this file (spec decisive-victory.md 17); write the file as decisive-victory-ship/1")


def test_a_file_inside_another_is_checked_where_it_sits():
    data = fleet()
    data["ships"][1]["format"] = "decisive-victory-ship/3"
    with pytest.raises(FormatError, match=r"^ships\.1\.format: 'decisive-victory-ship/3' is newer"):
        load_ship_fleet(data)
    scenario = sample()
    scenario["hit_grid"] = {**GRID.dump(), "format": "decisive-victory-hit-grid/0"}
    with pytest.raises(FormatError, match=r"^hit_grid\.format: 'decisive-victory-hit-grid/0' is a version"):
        load_dv_scenario(scenario)
    scenario = sample()
    scenario["ships"][0]["ship"] = {**cruiser(), "format": "decisive-victory-ship/9"}
    with pytest.raises(FormatError, match=r"^ships\.0\.ship\.format: 'decisive-victory-ship/9' is newer"):
        load_dv_scenario(scenario)
    ship = cruiser()
    ship["hit_grid"] = {**GRID.dump(), "format": "decisive-victory-hit-grid/2"}
    with pytest.raises(FormatError, match=r"^hit_grid\.format: 'decisive-victory-hit-grid/2' is newer"):
        load_ship(ship)


def test_another_format_is_still_named_as_not_this_one():
    with pytest.raises(FormatError, match="format: 'leviathans-card/1' is not 'decisive-victory-ship/1'"):
        load_ship({**cruiser(), "format": "leviathans-card/1"})


def test_a_registered_step_upgrades_an_older_ship_and_the_ships_in_a_fleet(monkeypatch):
    """The pattern the next version will use: a step per version, applied where the file sits."""
    def ship_0_to_1(data: dict) -> dict:
        data = {**data, "format": "decisive-victory-ship/1"}
        data["class"] = data.pop("ship_class")
        return data

    monkeypatch.setitem(DV_STEPS, "decisive-victory-ship", {0: ship_0_to_1})
    old = cruiser()
    old["format"] = "decisive-victory-ship/0"
    old["ship_class"] = old.pop("class")
    before = copy.deepcopy(old)
    assert load_ship(old) == load_ship(cruiser())
    assert old == before, "migrations never change the caller's data"
    data = fleet()
    data["ships"][0] = old
    assert load_ship_fleet(data).ships[0] == load_ship(cruiser())
    assert migrate_dv(data, "decisive-victory-fleet")["ships"][0]["format"] == "decisive-victory-ship/1"


def test_every_dv_format_has_a_version_and_a_loader():
    from companion.app.rulesets.decisive_victory.files import LOADERS

    assert set(DV_VERSIONS) == set(LOADERS)
    assert migrations.dv_family_of({"format": "decisive-victory-hit-grid/1"}) == "decisive-victory-hit-grid"
    assert migrations.dv_family_of({"format": "leviathans-card/1"}) is None


# --- validate and loading -------------------------------------------------------------------

def test_companion_validate_reads_every_dv_file(tmp_path, capsys):
    paths = [write(tmp_path, "ship.json", cruiser()), write(tmp_path, "fleet.json", fleet()),
             write(tmp_path, "grid.json", GRID.dump()),
             write(tmp_path, "table.json", TABLE_1.model_dump(mode="json")), str(SAMPLE)]
    code, out, err = run(capsys, "validate", *paths)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].endswith("(Decisive Victory ship Sample light cruiser (cruiser, unverified))")
    assert lines[1].endswith("(Decisive Victory fleet Sample, 2 ships)")
    assert lines[2].endswith("(Decisive Victory hit grid Reconstructed grid (spec R-40), 4 rows, "
                             "7 reconstructed cells (unverified))")
    assert lines[3].endswith("(Decisive Victory Table 1 Reconstructed Table 1 (spec R-5), reconstructed bands "
                             "(unverified))")
    assert "Decisive Victory scenario, 6 ships (3 British, 3 Japanese)" in lines[4]


def test_companion_validate_finds_a_scenarios_ship_ids_in_dv_fleets(tmp_path, capsys):
    data = sample()
    records = data.pop("records")
    path = write(tmp_path, "scenario.json", data)
    code, _, err = run(capsys, "validate", path)
    assert code == 1 and "scenario.json: ships.0.ship: unknown ship record 'sample-light-cruiser'" in err
    fleet_path = write(tmp_path, "fleet.json", {"format": "decisive-victory-fleet/1", "ships": records})
    code, out, err = run(capsys, "validate", path, "--fleet", fleet_path)
    assert code == 0, err


def test_companion_validate_names_the_file_and_path_of_a_bad_dv_file(tmp_path, capsys):
    bad = cruiser()
    bad["weapons"][2].pop("salvoes")
    path = write(tmp_path, "cruiser.json", bad)
    code, _, err = run(capsys, "validate", path)
    assert code == 1
    assert err.strip() == 'cruiser.json: weapons.2: a torpedo system needs "salvoes" (003:91)'
    newer = write(tmp_path, "newer.json", {**cruiser(), "format": "decisive-victory-ship/2"})
    code, _, err = run(capsys, "validate", newer)
    assert "newer.json: format: 'decisive-victory-ship/2' is newer than this app understands" in err


def test_load_dv_data_refuses_an_unknown_dv_family_and_ship_records_collects_ships():
    with pytest.raises(FormatError, match="'decisive-victory-boat/1' is not a Decisive Victory format"):
        load_dv_data({"format": "decisive-victory-boat/1"}, "x.json")
    loaded = [load_dv_data(cruiser()), load_dv_data(fleet()), load_dv_data(sample())]
    assert [s.id for s in ship_records(loaded)] == ["sample-light-cruiser", "sample-light-cruiser",
                                                    "sample-destroyer", "sample-light-cruiser", "sample-destroyer"]
