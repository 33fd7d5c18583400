"""Printable ship cards: the page of both Quick-Start fleets, its PDF and a screenshot."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from companion import printing
from companion.engine.cards import load_card
from companion.files import load_catalogue, load_file, shipped_fleets_dir

SCREENSHOTS = Path(__file__).parent / "screenshots"
CHROMIUM = printing.find_chromium()
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")


def screenshot(html_path: Path, png_path: Path, size: tuple[int, int]) -> Path:
    """A PNG of the page as a browser window of `size` shows it, by the chromium that prints the PDFs."""
    url = html_path.resolve().as_uri()
    return printing._run_chromium([f"--screenshot={png_path.resolve()}", f"--window-size={size[0]},{size[1]}", url],
                                  png_path, None, 120)


def quick_start_fleets():
    return [load_file(shipped_fleets_dir() / name)
            for name in ("quick-start-british.json", "quick-start-french.json")]


class CardSheet(HTMLParser):
    """What the printed page shows, read back from its HTML: card ids, and per card and
    location the go/stop dice and the slots (number, kind, breach), plus all visible text."""

    def __init__(self):
        super().__init__()
        self.cards: dict[str, dict] = {}
        self.text: list[str] = []
        self._card = self._location = None
        self._dice_target: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "section" and "card" in classes:
            self._card = self.cards.setdefault(a["data-card-id"], {"locations": {}, "banner": False})
        elif "banner" in classes and self._card is not None:
            self._card["banner"] = True
        elif tag == "div" and "loc" in classes:
            self._location = self._card["locations"].setdefault(a["data-location"], {"slots": []})
        elif tag == "span" and ("go" in classes or "stop" in classes) and "ld" in classes:
            self._dice_target = "go" if "go" in classes else "stop"
        elif tag == "span" and "dice" in classes and self._dice_target and self._location is not None:
            self._location[self._dice_target] = a["data-dice"]
            self._dice_target = None
        elif tag == "tr" and "slot" in classes:
            self._location["slots"].append(
                (int(a["data-slot"]), a["data-kind"], int(a["data-breach"]) if a["data-breach"] else None))

    def handle_data(self, data):
        if data.strip():
            self.text.append(data.strip())


@pytest.fixture(scope="module")
def page() -> str:
    return printing.render(quick_start_fleets(), "Quick-Start fleets")


@pytest.fixture(scope="module")
def sheet(page) -> CardSheet:
    parser = CardSheet()
    parser.feed(page)
    return parser


def test_the_page_holds_the_four_quick_start_cards_in_fleet_order(sheet):
    assert list(sheet.cards) == ["hml-hertfordshire", "hml-raven", "pontbriand", "pelletier"]


def test_every_card_shows_names_class_and_header_values(sheet):
    text = " ".join(sheet.text)
    for words in ("HML Hertfordshire", "County-class Light Cruiser", "HML Raven", "D-class Destroyer",
                  "Pontbriand", "Liberté-class Light Cruiser", "Pelletier", "Grenouille-class Destroyer",
                  "Structural Integrity", "Starting MP", "Enter hexes before turn",
                  "3 x 138mm, 8 x 65mm", '3 x 6", 2 x 5", 4 x 3"', "6/12 Hex", "4/8 Hex", "4/6 Hex"):
        assert words in text, words


def test_every_location_prints_six_numbered_slots(sheet):
    for card_id, card in sheet.cards.items():
        assert len(card["locations"]) == 4, card_id
        for name, location in card["locations"].items():
            assert [n for n, _, _ in location["slots"]] == [1, 2, 3, 4, 5, 6], (card_id, name)
    assert sum(len(loc["slots"]) for c in sheet.cards.values() for loc in c["locations"].values()) == 96


def test_printed_breach_numbers_and_dice_match_the_cards(sheet):
    catalogue = load_catalogue()
    for card_id, printed in sheet.cards.items():
        card = catalogue[card_id]
        for name, location in card.locations.items():
            shown = printed["locations"][name]
            assert (shown["go"], shown["stop"]) == (location.go, location.stop)
            assert shown["slots"] == [(i, s.kind, s.breach) for i, s in enumerate(location.slots, 1)]


def test_rulebook_values_are_on_the_printed_sheet(sheet):
    hertfordshire_port = sheet.cards["hml-hertfordshire"]["locations"]["port"]
    assert [b for _, _, b in hertfordshire_port["slots"]] == [11, 12, 13, 15, 16, 15]
    pontbriand_port = sheet.cards["pontbriand"]["locations"]["port"]
    assert (pontbriand_port["go"], pontbriand_port["stop"]) == ("DBlack", "2DRed")
    assert pontbriand_port["slots"][0] == (1, "gun", 11)


def test_unverified_cards_carry_the_banner_and_verified_ones_do_not(sheet):
    # The Quick-Start cards are checked against the printed cards (issue 12): no banner.
    assert not any(card["banner"] for card in sheet.cards.values())
    data = load_catalogue()["hml-raven"].dump()
    data["sources"] = {"verified": False, "notes": "values not checked"}
    unverified = printing.render(load_card(data))
    assert "UNVERIFIED" in unverified and 'class="banner"' in unverified
    data["sources"] = {"verified": True, "notes": "checked against the printed card"}
    verified = printing.render(load_card(data))
    assert "UNVERIFIED" not in verified and 'class="banner"' not in verified


def test_dice_print_as_lettered_chips(page):
    # Pontbriand port: one black chip on go, two red on stop.
    section = page.split('data-card-id="pontbriand"')[1].split('data-location="port"')[1]
    go, stop = section.split('class="ld stop"')[0], section.split('class="ld stop"')[1].split("</span></div>")[0]
    assert go.count('class="die die-bk">Bk<') == 1
    assert stop.count('class="die die-r">R<') == 2
    for letter in ("G", "Bl", "Y", "R", "Bk"):
        assert f">{letter}</span>" in page


def test_the_page_is_self_contained_and_print_ready(page):
    assert page.startswith("<!DOCTYPE html>")
    for outside in ("<script", "<link", "src=\"http", "url(http", "@import"):
        assert outside not in page
    assert "@page" in page and "@media print" in page
    assert "break-after: page" in page and "print-color-adjust: exact" in page
    assert page.count('<section class="card') == 4


def test_a_type_4_card_lays_out_six_locations():
    data = load_catalogue()["pontbriand"].dump()
    side = data["locations"]["port"]
    data.update(type=4, id="big", locations={
        "bow": data["locations"]["bow"], "stern": data["locations"]["stern"],
        "port_bow": side, "port_quarter": side, "starboard_bow": side, "starboard_quarter": side})
    parser = CardSheet()
    parser.feed(printing.render(load_card(data)))
    assert set(parser.cards["big"]["locations"]) == {
        "bow", "stern", "port_bow", "port_quarter", "starboard_bow", "starboard_quarter"}


# --- the command ----------------------------------------------------------------------------------


def companion(*args, env=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "companion", *map(str, args)], capture_output=True,
                          text=True, env=env, cwd=cwd)


def test_print_writes_an_html_page(tmp_path):
    out = tmp_path / "cards.html"
    done = companion("print", *sorted(shipped_fleets_dir().glob("quick-start-*.json")), "--out", out)
    assert done.returncode == 0, done.stderr
    assert "4 cards" in done.stdout
    assert out.read_text(encoding="utf-8").count('<tr class="slot') == 96


def test_print_defaults_to_the_files_name_in_the_current_folder(tmp_path):
    done = companion("print", shipped_fleets_dir() / "quick-start-french.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "quick-start-french.html").exists()


def test_print_to_standard_output():
    done = companion("print", shipped_fleets_dir() / "quick-start-british.json", "--out", "-")
    assert done.returncode == 0 and "HML Hertfordshire" in done.stdout


@pytest.mark.parametrize("args, message", [
    (["missing.json"], "missing.json: no such file"),
    (["{fleet}", "--out", "cards.txt"], "the output must end in .html or .pdf"),
])
def test_print_errors_are_one_plain_line(tmp_path, args, message):
    args = [a.replace("{fleet}", str(shipped_fleets_dir() / "quick-start-french.json")) for a in args]
    done = companion("print", *args, cwd=tmp_path)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in done.stderr


def test_print_refuses_a_scenario(tmp_path):
    scenario = tmp_path / "s.json"
    scenario.write_text('{"format": "leviathans-scenario/1", "ships": []}', encoding="utf-8")
    done = companion("print", scenario, cwd=tmp_path)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "is a scenario" in lines[0]


def test_a_pdf_without_chromium_is_a_plain_error(tmp_path):
    env = {**os.environ, "COMPANION_CHROMIUM": str(tmp_path / "no-chromium")}
    done = companion("print", shipped_fleets_dir() / "quick-start-french.json", "--out", tmp_path / "c.pdf", env=env)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "error: a PDF needs chromium, which is not installed: write .html instead and print it from a browser"]


@needs_chromium
def test_print_writes_a_pdf_with_one_page_per_card(tmp_path):
    out = tmp_path / "cards.pdf"
    done = companion("print", *sorted(shipped_fleets_dir().glob("quick-start-*.json")), "--out", out)
    assert done.returncode == 0, done.stderr
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    assert b"/Count 4" in data, "four pages, one per card"


@needs_chromium
def test_screenshot_of_the_quick_start_sheet(tmp_path, page):
    """Saved to tests/screenshots/print-quick-start.png for a person to look at."""
    source = tmp_path / "quick-start.html"
    source.write_text(page, encoding="utf-8")
    SCREENSHOTS.mkdir(exist_ok=True)
    png = screenshot(source, SCREENSHOTS / "print-quick-start.png", size=(1200, 1600))
    header = png.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", header[16:24]) == (1200, 1600)
    assert png.stat().st_size > 50_000, "a blank page would compress to almost nothing"
