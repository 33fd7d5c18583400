"""Names compared by their skeleton (issue 36 part 4: Unicode TR39's confusables, engine/confusables_data.py):
a device, side or ship name that looks like another of the same game, or shows nothing (U+3164, the
Braille blank, accents only), is refused in words; sides that differ only by case or by lookalike
letters are refused by `companion new`, by the app's Load a scenario and by an import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.devices import HOST_NAME, named
from companion.app.views.info import scenario_state as load_a_scenario
from companion.commands import main
from companion.engine.cards import FormatError
from companion.engine.confusables_data import VERSION
from companion.engine.names import alike_problem, blank_problem, looks_alike, skeleton
from companion.engine.roller import Roller
from companion.files import load_catalogue
from companion.store import MemoryStore

ROOT = Path(__file__).resolve().parent.parent
ARMENIAN = "This c\u0585mputer"  # օ ARMENIAN SMALL LETTER OH
LATIN_IOTA = "Th\u0269s computer"  # ɩ LATIN SMALL LETTER IOTA
CHEROKEE = "\u13a2his computer"  # Ꭲ CHEROKEE LETTER I
CYRILLIC_O = "This c\u043emputer"
HANGUL_FILLER, BRAILLE_BLANK = "\u3164", "\u2800"
MARKS_ONLY = "\u0301\u0308\u0323"  # combining acute, diaeresis, dot below


def test_the_confusables_data_is_unicodes_and_says_its_version():
    assert VERSION == "13.0.0"
    assert skeleton("Pontbriand") == skeleton("P\u043entbriand") == "pontbriand"


@pytest.mark.parametrize("lookalike", [ARMENIAN, LATIN_IOTA, CHEROKEE, CYRILLIC_O, "THIS COMPUTER",
                                       "This computer\u3164", "This  c\u200bomputer 2"])
def test_no_other_device_may_take_a_name_that_looks_like_this_computer(lookalike):
    assert looks_alike(lookalike.removesuffix(" 2"), HOST_NAME)
    name, problem = named(lookalike, [])
    assert problem == f"Only the host's own browser is called {HOST_NAME}: pick another name."
    assert named(lookalike, [], local=True)[1] is None  # the host's own browser may


@pytest.mark.parametrize("blank", [HANGUL_FILLER, BRAILLE_BLANK * 3, MARKS_ONLY, f" {HANGUL_FILLER} {BRAILLE_BLANK} ",
                                   "\u115f\u1160", "\u200b\u3164"])
def test_a_device_name_that_shows_nothing_is_refused_in_words(blank):
    name, problem = named(blank, [])
    assert problem is not None and ("shows nothing" in problem or problem == "Give the device a name.")
    assert blank_problem(blank, "a name") is not None


def test_anna_with_a_hangul_filler_looks_like_anna():
    assert named("Anna" + HANGUL_FILLER, ["Anna"])[1] == (
        f"Anna{HANGUL_FILLER} looks like the name of another device, Anna: pick another name.")
    assert named("Anna" + BRAILLE_BLANK, ["Anna"])[1] is not None
    assert named("Anna\u0301", ["Anna"])[1] is not None  # an accent alone does not tell names apart
    assert named("Anne", ["Anna"])[1] is None  # names that differ to the eye are fine


@pytest.mark.parametrize("other", ["BRITISH", "british", "\u0412ritish", "Br\u0456tish", "Briti\u0455h"])
def test_sides_that_differ_only_by_case_or_lookalikes_look_the_same(other):
    assert alike_problem(["British", other], "side") == (
        f"sides 'British' and '{other}' look the same: give them names that differ to the eye")
    assert alike_problem(["British", "French"], "side") is None


def _scenario_with_sides(tmp_path: Path, french: str) -> Path:
    text = (ROOT / "fleets" / "war-fleet-20v20.json").read_text(encoding="utf-8")
    path = tmp_path / "sides.json"
    path.write_text(text.replace('"side": "French"', json.dumps({"side": french})[1:-1]), encoding="utf-8")
    return path


@pytest.mark.parametrize("other", ["BRITISH", "\u0412ritish"])
def test_new_and_load_a_scenario_refuse_sides_that_look_the_same(other, tmp_path, capsys):
    path = _scenario_with_sides(tmp_path, other)
    code = main(["new", str(path), "--data", str(tmp_path / "data"), "--seed", "1"])
    out, err = capsys.readouterr()
    assert code == 1 and out == "" and err.count("\n") == 1
    assert f"sides 'British' and '{other}' look the same" in err
    with pytest.raises(FormatError, match="look the same"):
        load_a_scenario(path.read_text(encoding="utf-8"), load_catalogue([]), "1")


def test_new_still_starts_a_game_of_two_sides_that_differ(tmp_path, capsys):
    code = main(["new", str(_scenario_with_sides(tmp_path, "French")), "--data", str(tmp_path / "data")])
    assert code == 0 and capsys.readouterr().out.strip()


def _war_fleet_export(french: str = "French", rename=None) -> dict:
    from companion.commands.common import scenario_state

    state = scenario_state(str(ROOT / "fleets" / "war-fleet-20v20.json"), [], "")[2]
    store = MemoryStore()
    game = store.new_game(state, "sides", roller=Roller.from_seed("s"))
    document = json.loads(json.dumps(store.export_game(game.id)))
    initial = document["initial"]
    initial["sides"] = [french if s == "French" else s for s in initial["sides"]]
    for ship in initial["ships"]:
        ship["side"] = french if ship["side"] == "French" else ship["side"]
    if rename:
        rename(initial["ships"])
    return document


@pytest.mark.parametrize("other", ["BRITISH", "\u0412ritish"])
def test_an_import_refuses_sides_that_look_the_same(other):
    with pytest.raises(FormatError, match="look the same"):
        MemoryStore().import_game(_war_fleet_export(other), "sides.json")
    assert MemoryStore().import_game(_war_fleet_export("Française"), "sides.json").state.sides[1] == "Française"


def test_an_import_refuses_ships_whose_names_only_look_alike():
    def lookalikes(ships):
        ships[0]["ship_name"], ships[1]["ship_name"] = "HML Raven", "HML R\u0430ven"  # a Cyrillic а

    def blank(ships):
        ships[0]["ship_name"] = BRAILLE_BLANK

    with pytest.raises(FormatError, match="ship names 'HML Raven' and 'HML R\u0430ven' look the same"):
        MemoryStore().import_game(_war_fleet_export(rename=lookalikes), "ships.json")
    with pytest.raises(FormatError, match="shows nothing"):
        MemoryStore().import_game(_war_fleet_export(rename=blank), "ships.json")
