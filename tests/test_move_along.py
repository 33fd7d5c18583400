"""`move_along`: the movement planner's "Move there" (issue 17) as one action of each ruleset.

A planned path is taken through the ruleset's own step handlers, in order, as
one action: one log entry, undone in one step.  The first step the rules refuse
refuses the whole action, naming that step, and nothing of the path is made.
"""

from __future__ import annotations

from companion.engine.quick_start import apply
from companion.engine.hexes import Hex
from companion.engine.kernel import RefusalKind
from companion.engine.quick_start.reach import reach
from companion.engine.quick_start.table_rules import HouseRules
from companion.engine.war_fleet import game as wf_game
from companion.engine.war_fleet.reach import reach as wf_reach
from companion.store.game import Game
from cards_for_tests import ship, shipped
from test_reach import moving, path_to, wf_moving
from warfleet_for_tests import stats, warship

HERTS, PONT, RAVEN = shipped("hml-hertfordshire"), shipped("pontbriand"), shipped("hml-raven")


def along(ship_id, path):
    return {"kind": "move_along", "ship": ship_id, "steps": list(path)}


def step(ship_id, kind):
    return {"kind": "step", "ship": ship_id, "step": kind}


def test_quick_start_every_planned_path_as_one_action_ends_where_its_steps_end():
    state = moving(ship("s", "British", HERTS, "1710", "N"), ship("p", "French", PONT, "1704", "S"))
    for reached in reach(state, "s").positions:
        if not reached.path:
            continue
        one = apply(state, along("s", reached.path))
        assert one.ok, (reached, one.reason)
        here = state
        for action in reached.path:
            here = apply(here, action).state
        assert one.state == here
        assert [e.kind for e in one.events] == ["move_along"] + ["step"] * len(reached.path)


def test_quick_start_refused_at_the_first_illegal_step_naming_it_and_nothing_made():
    state = moving(ship("s", "British", HERTS, "1710", "N"))
    # Hertfordshire enters 2 hexes before each turn: forward, then a turn, is refused at step 2
    out = apply(state, along("s", [step("s", "forward"), step("s", "port"), step("s", "forward")]))
    assert not out.ok and out.kind == RefusalKind.ILLEGAL
    assert out.reason.startswith("step 2 of 3 (turn to port): ")
    alone = apply(apply(state, step("s", "forward")).state, step("s", "port"))
    assert out.reason == f"step 2 of 3 (turn to port): {alone.reason}"


def test_quick_start_a_step_of_another_ship_is_refused():
    state = moving(ship("s", "British", HERTS, "1710", "N"), ship("p", "French", PONT, "1704", "S"))
    out = apply(state, along("s", [step("s", "forward"), step("p", "forward")]))
    assert not out.ok and out.reason == "step 2 of 2 (forward) moves p, not s"


def test_quick_start_not_its_turn_keeps_the_refusals_kind():
    state = moving(ship("s", "British", HERTS, "1710", "N"), ship("p", "French", PONT, "1704", "S"))
    out = apply(state, along("p", [step("p", "forward")]))
    assert not out.ok and out.kind == RefusalKind.TURN and out.reason.startswith("step 1 of 1 (forward): ")


def test_an_empty_path_and_a_foreign_move_are_malformed():
    state = moving(ship("s", "British", HERTS, "1710", "N"))
    for bad in (along("s", []), along("s", [{"kind": "end_move", "ship": "s"}])):
        out = apply(state, bad)
        assert not out.ok and out.kind == RefusalKind.MALFORMED, out


def test_quick_start_bookkeeping_takes_the_path_with_its_warnings():
    state = moving(ship("s", "British", HERTS, "1710", "N"))
    state = apply(state, {"kind": "set_bookkeeping", "on": True}).state
    out = apply(state, along("s", [step("s", "forward"), step("s", "port")]))
    assert out.ok and [e.kind for e in out.events] == ["move_along", "step", "warning", "step"]
    assert out.events[0].text == "HML Hertfordshire moves along its planned path: forward, turn to port."


def test_h3_a_declared_turn_in_the_path():
    house = HouseRules(declared_turns=True)
    pont = ship("s", "French", PONT, "1013", "N").model_copy(
        update={"mp_spent": 3, "entered_since_turn": 3, "moved": True, "turn_mp": None})
    state = moving(pont, house=house)
    turned = min((r for r in reach(state, "s").positions if r.position.facing == 5), key=lambda r: r.mp_cost)
    out = apply(state, along("s", turned.path))
    assert out.ok and out.state.ship("s").facing == 5 and out.state.ship("s").mp_spent == 6
    assert [e.kind for e in out.events][:2] == ["move_along", "turn_declared"]


def test_war_fleet_every_planned_path_as_one_action():
    state = wf_moving(warship("a", "X", stats("a", mp=3), hex_="1010", facing="N"), warship("b", "Y", hex_="1005"))
    found = wf_reach(state, "a")
    assert any(a["kind"] == "pivot" for r in found.positions for a in r.path)
    for reached in found.positions:
        if not reached.path:
            continue
        one = wf_game.apply(state, along("a", reached.path))
        assert one.ok, (reached, one.reason)
        ship_after = one.state.ship("a")
        assert (ship_after.hex, ship_after.facing) == (reached.position.bow, reached.position.facing)
        assert ship_after.mp_spent - state.ship("a").mp_spent == reached.mp_cost


def test_war_fleet_refused_at_the_first_illegal_step():
    state = wf_moving(warship("a", "X", stats("a", mp=3), hex_="1010", facing="N"))
    out = wf_game.apply(state, along("a", [step("a", "forward"), {"kind": "pivot", "ship": "a", "facing": 3}]))
    alone = wf_game.apply(wf_game.apply(state, step("a", "forward")).state, {"kind": "pivot", "ship": "a", "facing": 3})
    assert not out.ok and out.reason == f"step 2 of 2 (pivot): {alone.reason}"


def test_the_store_logs_one_entry_and_one_undo_takes_the_whole_path_back():
    state = moving(ship("s", "British", HERTS, "1710", "N"))
    game = Game("g", "planner", state)
    path = path_to(reach(state, "s"), (Hex.at(17, 6), 0))
    assert len(path) == 4
    assert game.act(along("s", path)).ok
    assert len(game.entries) == 1 and game.state.ship("s").bow == Hex.at(17, 6)
    assert game.undo() and game.state == state
    assert game.redo() and game.state.ship("s").bow == Hex.at(17, 6)
