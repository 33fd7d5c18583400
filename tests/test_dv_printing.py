"""Printable Decisive Victory ship records (`companion print` of DV ship and fleet files,
companion/app/rulesets/decisive_victory/printing.py, docs/printing.md): every value of the record, the grid with its
system names and empty boxes, and the sample-data and reconstructed-cell marks."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.commands import main
from companion.app.rulesets.decisive_victory.printing import record_section, render_records
from companion.engine.decisive_victory.grid import RECONSTRUCTED as GRID, load_hit_grid
from companion.engine.decisive_victory.records import load_ship

SAMPLE = Path(__file__).resolve().parent.parent / "fleets" / "decisive-victory" / "sample.json"


def records() -> list[dict]:
    return json.loads(SAMPLE.read_text(encoding="utf-8"))["records"]


def cruiser():
    return load_ship(records()[0])


def own_grid() -> dict:
    data = GRID.dump()
    for row in data["rows"]:
        row["unverified"] = []
    data.update(name="Our club grid", sources={"verified": True, "notes": ""})
    return data


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_record_shows_every_value_of_the_ship():
    page = record_section(cruiser())
    for text in ("Sample light cruiser", "Cruiser &middot; Decisive Victory", "15&Prime;", ">2<", ">5<"):
        assert text in page
    assert re.search(r'data-armor="deck">Deck <b>3</b>', page)
    assert re.search(r'data-armor="belt">Belt <b>6</b>', page)
    assert re.search(r'data-armor="underwater">Underwater <b>4</b>', page)
    main_gun = re.search(r'<tr class="weapon" data-weapon="main">.*?</tr>', page).group(0)
    assert re.findall(r'<td class="num">(\d+)</td>', main_gun) == ["4", "6", "2"], "FC, S, D"
    assert "2 mounts" in main_gun
    torpedoes = re.search(r'<tr class="weapon" data-weapon="torpedoes">.*?</tr>', page).group(0)
    assert re.findall(r'<td class="num">(\d+)</td>', torpedoes) == ["3", "10", "3"]
    assert torpedoes.count('class="box"') == 2 + 1, "a box per salvo, and the fired box"
    assert "DP AA 1" in page


def test_the_grid_has_every_cell_with_its_system_and_an_empty_box():
    page = record_section(cruiser())
    cells = re.findall(r'<td class="cell[^"]*" data-box="(\d),(\d)" data-system="(\w+)">', page)
    assert len(cells) == 24
    assert [s for g, c, s in cells if g == "1"] == ["AA", "AA", "Com", "Com", "AA", "AA"]
    assert [s for g, c, s in cells if g == "4"] == ["Turn", "Speed", "Speed", "Speed", "Speed", "Turn"]
    grid = page[page.index('<table class="grid">'):page.index("</table>", page.index('<table class="grid">'))]
    assert grid.count('<span class="box"></span>') == 24
    assert "2-3<span class=\"armor\">Belt 6</span>" in grid and "6<span class=\"armor\">Underwater 4</span>" in grid
    assert "damaged</b> after 2 boxes" in page, "the cruiser's threshold (003:107)"
    assert "<b>AA</b> anti-aircraft: 6 boxes" in page and "<b>Com</b> command: 2 boxes" in page


def test_sample_data_and_reconstructed_cells_are_marked():
    page = record_section(cruiser())
    assert "SAMPLE DATA / UNVERIFIED" in page
    assert page.count('class="cell unverified"') == 7, "row 2-3 columns 3-6, row 4-5 columns 4-6 (R-40)"
    assert "row 2-3 column 3" in page and "row 4-5 column 6" in page
    verified = load_ship({**records()[0], "sources": {"verified": True, "notes": ""}})
    plain = record_section(verified, load_hit_grid(own_grid()))
    assert "SAMPLE DATA" not in plain and "unverified" not in plain and "Reconstructed cells" not in plain
    assert "Our club grid" in plain


def test_a_ships_own_grid_wins_over_the_games():
    data = records()[0]
    data["hit_grid"] = own_grid()
    data["hit_grid"]["rows"][0]["cells"] = ["Com"] * 6
    page = record_section(load_ship(data), GRID)
    assert [s for g, c, s in re.findall(r'data-box="(\d),(\d)" data-system="(\w+)"', page) if g == "1"] == ["Com"] * 6


def test_companion_print_writes_dv_records_from_a_fleet_and_a_ship(tmp_path, capsys):
    fleet = tmp_path / "fleet.json"
    fleet.write_text(json.dumps({"format": "decisive-victory-fleet/1", "name": "Sample fleet",
                                 "ships": records()}))
    ship = tmp_path / "ship.json"
    ship.write_text(json.dumps(records()[1]))
    out = tmp_path / "records.html"
    code, said, err = run(capsys, "print", str(fleet), str(ship), "--out", str(out))
    assert code == 0, err
    assert said.strip() == f"wrote {out} (3 ship records; 3 sample or unverified, check against your records)"
    page = out.read_text()
    assert page.count('<section class="record') == 3
    assert "<script" not in page and "http" not in page.replace("http-equiv", "")


def test_companion_print_takes_a_grid_file_for_the_ships_and_writes_to_stdout(tmp_path, capsys):
    ship = tmp_path / "ship.json"
    ship.write_text(json.dumps(records()[0]))
    grid = tmp_path / "grid.json"
    grid.write_text(json.dumps(own_grid()))
    code, page, err = run(capsys, "print", str(ship), str(grid), "--out", "-")
    assert code == 0, err
    assert "Our club grid" in page and 'class="cell unverified"' not in page


@pytest.mark.parametrize("what,expected", [
    ("scenario", "is a decisive-victory-scenario file; print the ship or fleet files"),
    ("card", "is not a Decisive Victory file; print Leviathans cards separately"),
])
def test_companion_print_refuses_what_is_not_a_ship_record(tmp_path, capsys, what, expected):
    ship = tmp_path / "ship.json"
    ship.write_text(json.dumps(records()[0]))
    other = tmp_path / "other.json"
    if what == "scenario":
        other.write_text(SAMPLE.read_text())
    else:
        from companion.files import load_catalogue
        other.write_text(json.dumps(load_catalogue()["hml-raven"].dump()))
    code, _, err = run(capsys, "print", str(ship), str(other), "--out", str(tmp_path / "x.html"))
    assert code == 1 and expected in err


def test_the_page_renders_every_record_once():
    ships = [load_ship(r) for r in records()]
    page = render_records(ships, "Sample")
    assert page.startswith("<!DOCTYPE html>") and "<title>Sample</title>" in page
    assert [m for m in re.findall(r'data-ship-id="([^"]+)"', page)] == ["sample-light-cruiser", "sample-destroyer"]
