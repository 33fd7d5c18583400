"""`companion report GAME --out report.html [--turn N]` (issue 17): the after-action report of a seeded
10-turn Quick-Start game, played through the ruleset's options (tests/helpers/ten_turns.py), as one
self-contained HTML page; plain one-line errors for an unknown game or turn."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from companion.commands import main
from companion.engine.quick_start.ruleset import QUICK_START
from companion.report_page import game_report, pct
from companion.store.game import effective_actions
from companion.store.store import TinyDBStore
from helpers.ten_turns import play_turns, write_scenario

SEED = 5


@pytest.fixture(scope="module")
def ten_turn_game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    data = folder / "data"
    assert main(["new", write_scenario(folder), "--data", str(data), "--seed", str(SEED), "--name", "Ten turns"]) == 0
    store = TinyDBStore(data)
    [summary] = store.games()
    game = store.game(summary.id)
    play_turns(game, SEED)
    assert game.state.turn == 11 and game.state.phase == "initiative"
    entries, initial = list(game.entries), game.initial
    store.close()
    return data, summary.id, initial, entries


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_report_of_a_ten_turn_game_is_one_self_contained_page(ten_turn_game, tmp_path, capsys):
    data, game_id, initial, entries = ten_turn_game
    out = tmp_path / "report.html"
    code, said, err = run(capsys, "report", "Ten turns", "--data", data, "--out", out)
    assert code == 0 and err == ""
    assert said.startswith("wrote the report of Ten turns (10 turns, ") and str(out) in said
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and 'name="viewport"' in page
    assert page.count("<svg") == 4  # luck, damage, shots per gun, ships lost
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page), "the page fetches nothing"
    assert "<script" not in page and "<link" not in page
    report = game_report("quick-start", initial, entries)
    assert report.turns == list(range(1, 11))
    for side in report.sides:  # each side's figures are on the page
        assert f"{side.slots_destroyed} / {float(side.slots_expected):.2f}" in page
        assert pct(side.mean_percentile) in page
    assert f"Every roll ({sum(len(s.rolls) for s in report.sides)})" in page


def test_the_report_replays_the_actions_in_effect(ten_turn_game):
    data, game_id, initial, entries = ten_turn_game
    report = game_report("quick-start", initial, entries)
    again = game_report("quick-start", initial, [e for e in entries])
    assert report == again
    assert len(effective_actions(entries)) == len(entries)  # the helper never undoes
    assert QUICK_START.replay(initial, effective_actions(entries)).turn == 11
    assert all(isinstance(p.running, Fraction) for s in report.sides for p in s.luck)


def test_one_turn_of_the_report_and_standard_output(ten_turn_game, capsys):
    data, game_id, *_ = ten_turn_game
    code, page, err = run(capsys, "report", game_id, "--data", data, "--turn", 4, "--out", "-")
    assert code == 0 and err == ""
    assert "Quick-Start, turn 4." in page and page.count("<svg") == 4


@pytest.mark.parametrize("argv, said", [
    (["report", "no-such-game"], "error: no game 'no-such-game'"),
    (["report", "Ten turns", "--turn", "12"], "error: Ten turns: the game has no turn 12 (its turns: 1 to 10)"),
    (["report", "Ten turns", "--out", "report.pdf"], "error: --out report.pdf: the report is a web page"),
])
def test_an_unknown_game_or_turn_is_one_plain_line(ten_turn_game, capsys, argv, said):
    data = ten_turn_game[0]
    code, out, err = run(capsys, *argv, "--data", data)
    assert code == 1 and out == ""
    assert err.startswith(said) and err.count("\n") == 1
