"""Names on the loading paths and one-sided scenarios (issue 25 part 8): a ship, side or game name
loses control and bidi characters and has a length limit, and a scenario with one side only is
refused in plain words by `companion new`, `validate` and the app's Load a scenario."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.views.info import scenario_state
from companion.commands import main
from companion.engine.cards import FormatError, load_card
from companion.files import load_catalogue

ROOT = Path(__file__).resolve().parent.parent
QUICK = {"format": "leviathans-scenario/1", "ruleset": "quick-start", "board": {"columns": 33, "rows": 19},
         "ships": [{"id": "b", "side": "British", "card": "hml-raven", "bow": "1010", "facing": "N"},
                   {"id": "f", "side": "French", "card": "pontbriand", "bow": "1005", "facing": "S"}]}
ONE_SIDE = "a scenario needs ships of two sides at least to play: every ship here is on the British side"


def one_sided(data: dict) -> dict:
    data = json.loads(json.dumps(data))
    for ship in data["ships"]:
        ship["side"] = "British"
        ship.pop("flagship", None)  # one flagship a side
    for base in data.get("bases", []):
        base["side"] = "British"
    for flight in data.get("flights", []):
        flight["side"] = "British"
    return data


def scenarios() -> dict[str, dict]:
    return {"quick-start": QUICK,
            "war-fleet": json.loads((ROOT / "fleets" / "war-fleet-20v20.json").read_text()),
            "decisive-victory": json.loads((ROOT / "fleets" / "decisive-victory" / "sample.json").read_text())}


@pytest.mark.parametrize("ruleset", ["quick-start", "war-fleet", "decisive-victory"])
def test_a_one_sided_scenario_is_refused_by_validate_and_new(ruleset, tmp_path, capsys):
    path = tmp_path / "one.json"
    path.write_text(json.dumps(one_sided(scenarios()[ruleset])))
    assert main(["validate", str(path)]) == 1
    assert ONE_SIDE in capsys.readouterr().err
    assert main(["new", str(path), "--data", str(tmp_path / "data")]) == 1
    err = capsys.readouterr().err
    assert ONE_SIDE in err and "Traceback" not in err
    both = tmp_path / "both.json"
    both.write_text(json.dumps(scenarios()[ruleset]))
    assert main(["validate", str(both)]) == 0


def test_the_apps_load_a_scenario_refuses_one_side_in_plain_words():
    with pytest.raises(FormatError) as caught:
        scenario_state(json.dumps(one_sided(QUICK)), load_catalogue(), "1")
    assert ONE_SIDE in caught.value.message


def test_side_and_game_names_lose_control_and_bidi_characters():
    data = json.loads(json.dumps(QUICK))
    data["name"], data["ships"][0]["side"] = "Evening\u202e\u200b game", "Brit\u2066ish\x1b"
    state, name = scenario_state(json.dumps(data), load_catalogue(), "1")
    assert name == "Evening game" and state.sides == ["British", "French"]


@pytest.mark.parametrize("field, value, words", [
    ("name", "x" * 81, "a game's name is at most 80 characters (81 given)"),
    ("side", "S" * 41, "a side's name is at most 40 characters (41 given)"),
])
def test_long_side_and_game_names_are_refused(field, value, words):
    data = json.loads(json.dumps(QUICK))
    if field == "name":
        data["name"] = value
    else:
        data["ships"][0]["side"] = value
    with pytest.raises(FormatError) as caught:
        scenario_state(json.dumps(data), load_catalogue(), "1")
    assert words in caught.value.message


def test_a_500_character_ship_name_is_refused_and_a_bidi_one_cleaned():
    card = json.loads(json.dumps(load_catalogue()["hml-raven"].model_dump(mode="json", by_alias=True)))
    card["name"] = "R" * 500
    with pytest.raises(FormatError) as caught:
        load_card(card)
    assert "a ship's name is at most 60 characters (500 given)" in caught.value.message
    card["name"] = "HML\u202e Raven\u0007"
    assert load_card(card).name == "HML Raven"


def test_a_long_game_name_is_refused_by_new(tmp_path, capsys):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(QUICK))
    assert main(["new", str(path), "--name", "n" * 81, "--data", str(tmp_path / "data")]) == 1
    assert "A game's name is at most 80 characters (81 given)" in capsys.readouterr().err
