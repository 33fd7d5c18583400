"""A scenario's house_rules and table_rules on the command line (issue 15): checked with plain
errors that name the rule, carried into the game a scenario starts, and out again by replay."""

import json

import pytest

from companion.commands import main
from cards_for_tests import card

TYPE1 = card("destroyer", ship_type=1, si=16, enter=1).dump()


def scenario(**rules):
    return {"format": "leviathans-scenario/1", "ruleset": "quick-start", "board": {"columns": 33, "rows": 19},
            "ships": [{"id": "a", "side": "A", "card": TYPE1, "bow": "1010", "facing": "N"},
                      {"id": "b", "side": "B", "card": TYPE1, "bow": "1005", "facing": "S"}], **rules}


def run(tmp_path, capsys, data, *args):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    code = main([*args, str(path)])
    out, err = capsys.readouterr()
    return code, out + err


@pytest.mark.parametrize("rules, words", [
    ({"house_rules": {"sieze_initiative": True}},
     "house_rules.sieze_initiative: unknown house rule 'sieze_initiative': the house rules are unit_initiative, "),
    ({"house_rules": {"seize_initiative": True}}, "house_rules: seize the initiative needs unit initiative"),
    ({"house_rules": {"declared_turns": "yes"}}, "house_rules.declared_turns: 'yes' is not true or false"),
    ({"table_rules": {"crew": "best"}}, "table_rules.crew: unknown table rule 'crew': the table rules are crew_slots, "),
    ({"table_rules": {"crew_slots": "most"}}, "table_rules.crew_slots: input should be 'add' or 'best'"),
])
def test_a_scenarios_rules_are_checked_in_plain_words(tmp_path, capsys, rules, words):
    code, text = run(tmp_path, capsys, scenario(**rules), "validate")
    assert code == 1 and words in text and "Traceback" not in text


def test_the_rules_a_scenario_chooses_start_the_game_and_come_back_out(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    rules = {"house_rules": {"unit_initiative": True, "declared_turns": True}, "table_rules": {"crew_slots": "best"}}
    code, out = run(tmp_path, capsys, scenario(**rules), "new")
    assert code == 0, out
    game = out.split()[0] if out.split() else ""
    assert main(["replay", game]) == 0
    saved = json.loads(capsys.readouterr().out)
    assert saved["house_rules"]["unit_initiative"] is True and saved["house_rules"]["declared_turns"] is True
    assert saved["table_rules"] == {**saved["table_rules"], "crew_slots": "best"}


def test_a_scenario_without_rules_saves_none(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    code, out = run(tmp_path, capsys, scenario(), "new")
    assert code == 0
    assert main(["replay", out.split()[0]]) == 0
    saved = json.loads(capsys.readouterr().out)
    assert "house_rules" not in saved and "table_rules" not in saved
