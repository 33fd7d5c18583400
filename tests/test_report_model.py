"""The app's Report view model (app/report_model.py, issue 17): the figures of a stored seeded 10-turn
game as the charts draw them, one turn alone, and a plain problem for an unknown game or turn."""

from __future__ import annotations

import pytest

from companion.app.report_model import report_screen
from companion.commands import main
from companion.report_page import game_report, pct
from companion.store.store import TinyDBStore
from helpers.ten_turns import play_turns, write_scenario


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    folder = tmp_path_factory.mktemp("model")
    assert main(["new", write_scenario(folder), "--data", str(folder / "data"), "--seed", "5", "--name", "Ten turns"]) == 0
    store = TinyDBStore(folder / "data")
    [summary] = store.games()
    play_turns(store.game(summary.id), 5)
    yield store
    store.close()


def test_the_screen_holds_each_sides_figures_for_the_charts(store):
    screen = report_screen(store, "Ten turns")
    stored = store.stored(screen.game_id)
    report = game_report("quick-start", stored.record.initial, stored.entries)
    assert screen.problem is None and screen.turns == tuple(range(1, 11)) and screen.when == "turns 1 to 10"
    assert [s.side for s in screen.sides] == ["British", "French"]
    for series, side in zip(screen.luck, report.sides):
        assert [p.x for p in series.points] == list(range(1, 11))
        assert [p.y for p in series.points] == [float(p.running) * 100 for p in side.luck]
        assert pct(side.mean_percentile) in dict(screen.sides[report.sides.index(side)].rows)[
            "mean percentile (50% is even luck)"]
    assert [(b.label, b.value, b.expected) for b in screen.damage] == [
        (f"{s.side} slots", s.slots_destroyed, float(s.slots_expected)) for s in report.sides] + [
        (f"{s.side} keels", s.keel_breaks, float(s.keel_expected)) for s in report.sides]
    assert sum(b.value for b in screen.guns) == sum(len(s.shots) for s in report.sides)
    assert [p.y for p in screen.lost[1].points][-1] == 1  # the French ship lost in turn 8
    assert screen.html_command == f"companion report {screen.game_id} --out report.html"


def test_one_turn_and_the_problems(store):
    eighth = report_screen(store, "Ten turns", 8)
    assert eighth.when == "turn 8" and [p.x for p in eighth.luck[0].points] == [8]
    assert eighth.html_command.endswith("--turn 8")
    assert report_screen(store, "Ten turns", 30).problem == "the game has no turn 30 (its turns: 1 to 10)"
    assert report_screen(store, "nothing").problem.startswith("no game 'nothing'")



def test_the_report_draws_each_side_in_its_map_colour(store):
    """Issue 28.6: the report drew the British blue and the French orange, the map red and blue."""
    from companion.app.palettes import FACTION_COLOURS, side_colours
    from companion.report_page import colour_of

    screen = report_screen(store, "Ten turns")
    stored = store.stored(screen.game_id)
    report = game_report("quick-start", stored.record.initial, stored.entries)
    light = FACTION_COLOURS["light"]
    assert {s.side: s.colour for s in screen.sides} == {"British": light["British Empire"], "French": light["French Republic"]}
    assert {s.side: colour_of(report, s.side) for s in report.sides} == side_colours(["British", "French"])
