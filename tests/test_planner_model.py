"""The movement planner's view model (issue 17, app/planner_model.py): the map's cost bands, the
facings of a tapped hex, the path, each gun's targets from there with the odds, and "Move there"
as one `move_along` action that `apply` (and the store's undo) takes whole."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.app import planner_model as P
from companion.app.rulesets.quick_start.planner_guns import guns_from as quick_start_guns
from companion.app.rulesets.war_fleet.planner_guns import guns_from as war_fleet_guns
from companion.app.panels import fire_panel
from companion.engine.quick_start import apply
from companion.engine.hexes import Hex
from companion.engine.quick_start.reach import Position, Reach, Reached, reach, state_after
from companion.engine.war_fleet import game as wf_game
from companion.store.game import Game
from cards_for_tests import ship, shipped
from test_reach import moving, path_to, wf_moving
from warfleet_for_tests import attack, loc, stats, warship

HERTS, PONT, RAVEN = shipped("hml-hertfordshire"), shipped("pontbriand"), shipped("hml-raven")


def herts_and_pontbriand():
    return moving(ship("s", "British", HERTS, "1710", "N"), ship("p", "French", PONT, "1704", "S"))


@pytest.mark.parametrize("mp, labels", [
    (0, ["0 MP"]), (1, ["0 MP", "1 MP"]), (3, ["0 MP", "1 MP", "2 MP", "3 MP"]),
    (6, ["0 MP", "1\u20132 MP", "3\u20134 MP", "5\u20136 MP"]), (9, ["0 MP", "1\u20133 MP", "4\u20136 MP", "7\u20139 MP"]),
    (7, ["0 MP", "1\u20133 MP", "4\u20136 MP", "7 MP"]),
])
def test_cost_bands_split_the_mp_left_evenly(mp, labels):
    bands = P.cost_bands(mp)
    assert [b.label for b in bands] == labels
    assert [P.band_of(cost, bands) for cost in range(mp + 1)] == sorted(P.band_of(c, bands) for c in range(mp + 1))


def test_the_map_shades_every_reachable_bow_hex_by_its_cheapest_mp():
    state = herts_and_pontbriand()
    found = reach(state, "s")
    shown = P.plan_map(state, "s")
    assert shown.costs == found.costs() and shown.mp_left == 6
    assert shown.costs[Hex.at(17, 10)] == 0 and shown.shades[Hex.at(17, 10)] == 0
    assert shown.costs[Hex.at(17, 8)] == 2 and shown.shades[Hex.at(17, 8)] == 1
    assert Hex.at(17, 4) not in shown.costs  # Pontbriand's hexes: never an end
    assert {b.index for b in shown.bands} == set(shown.shades.values())


def test_tapping_an_end_hex_offers_each_facing_there_cheapest_first_by_default():
    state = moving(ship("s", "British", RAVEN, "1710", "N"))
    found = reach(state, "s")
    choices = P.facings_at(found, Hex.at(17, 9))
    assert [c.name for c in choices] == sorted({c.name for c in choices}, key="N NE SE S SW NW".split().index)
    view = P.plan_view(state, "s", Hex.at(17, 9))
    assert view.chosen.mp_cost == min(c.mp_cost for c in choices) == 1 and view.chosen.name == "N"
    turned = P.plan_view(state, "s", Hex.at(17, 9), "plan-face-NE")
    assert turned.chosen.facing == 1 and turned.steps == ("forward", "turn to starboard")
    assert turned.trail == ((Hex.at(17, 10), 0), (Hex.at(17, 9), 0), (Hex.at(17, 9), 1))
    assert P.plan_view(state, "s", Hex.at(1, 1)) is None


def test_moved_and_not_moved_to_the_same_facing_are_both_offered_apart():
    """Where a bow hex and facing can be had moved or not (its location dice differ: go or stop),
    both are offered, the unmoved one marked; a half-hex end is marked too."""
    here = Hex.at(5, 5)
    found = Reach("s", 9, (Reached(Position(here, 1, False), 1, ({"kind": "step", "ship": "s", "step": "starboard"},)),
                           Reached(Position(here, 1, True), 7, ()), Reached(Position(here, 2, True), 5, (), True)))
    choices = P.facings_at(found, here)
    assert [(c.ident, c.label) for c in choices] == [
        ("plan-face-NE-stays", "NE \u00b7 1 MP (not moved)"), ("plan-face-NE", "NE \u00b7 7 MP"),
        ("plan-face-SE", "SE \u00b7 5 MP \u26a0 half-hexes")]


def test_the_guns_from_the_end_position_are_the_fire_panels_on_the_moved_game():
    state = herts_and_pontbriand()
    view = P.plan_view(state, "s", Hex.at(17, 8), guns=quick_start_guns)
    assert view.steps == ("forward", "forward") and view.problem is None
    there = state_after(state, "s", path_to(reach(state, "s"), (Hex.at(17, 8), 0)))
    expected = [(g, t) for g in fire_panel(there, "s") for t in g.targets if t.strikes]
    shown = [(g, t) for g in view.guns for t in g.targets]
    assert len(shown) == len(expected) > 0
    bow = view.guns[0]
    assert bow.gun.startswith("Bow") and bow.targets[0].name == "Pontbriand"
    assert bow.targets[0].summary == "range 4, short"
    assert bow.targets[0].best == Fraction(1, 2) and "damage 50.0%" in bow.targets[0].odds
    assert "damage 1/2" in bow.targets[0].exact
    # from where it stands (range 6) the same gun's odds differ: the preview is of the end position
    here = [t for g in fire_panel(state, "s") for t in g.targets if t.strikes and g.location == "bow"]
    assert here and here[0].range == 6


def test_move_there_is_one_action_one_log_entry_one_undo():
    state = herts_and_pontbriand()
    view = P.plan_view(state, "s", Hex.at(17, 8))
    assert view.action == {"kind": "move_along", "ship": "s", "steps": [
        {"kind": "step", "ship": "s", "step": "forward"}, {"kind": "step", "ship": "s", "step": "forward"}]}
    game = Game("g", "plan", state)
    assert game.act(view.action).ok and len(game.entries) == 1
    assert game.state.ship("s").bow == Hex.at(17, 8)
    assert game.undo() and game.state == state


def test_move_there_says_apply_s_reason_when_it_cannot_be_taken_now():
    state = herts_and_pontbriand()
    view = P.plan_view(state, "p", Hex.at(17, 5))  # Pontbriand has finished its move (test_reach.moving)
    assert view is None or view.problem
    standing = P.plan_view(state, "s", Hex.at(17, 10))
    assert standing.action == {} and standing.problem.startswith("the ship already stands here")
    other_turn = herts_and_pontbriand().model_copy(update={"phase": "combat"})
    view = P.plan_view(other_turn, "s", Hex.at(17, 8))
    assert view.problem == apply(other_turn, view.action).reason and view.problem.startswith("step 1 of 2")


def test_war_fleet_plan_map_view_and_move_there():
    gun = loc(gun=attack(short=(2, "DYellow"), long=(5, "DBlue")))
    state = wf_moving(warship("a", "X", stats("a", mp=3, bow=gun), hex_="1010", facing="N"),
                      warship("b", "Y", stats("b", bow=gun, stern=gun), hex_="1007", facing="S"))
    shown = P.plan_map(state, "a")
    assert [b.label for b in shown.bands] == ["0 MP", "1 MP", "2 MP", "3 MP"]
    assert shown.costs[Hex.at(10, 7)] == 3  # a War Fleet ship may end sharing a hex
    view = P.plan_view(state, "a", Hex.at(10, 8), guns=war_fleet_guns)
    assert view.steps == ("forward", "forward") and view.problem is None
    assert view.trail[-1] == (Hex.at(10, 8), 0)
    assert [t.name for g in view.guns for t in g.targets] == ["b"]
    assert view.guns[0].targets[0].summary == "range 1, short" and view.guns[0].targets[0].exact == "Bow: 1/12 / 1/16"
    about = P.plan_view(state, "a", Hex.at(10, 10), "plan-face-S")
    assert about.steps == ("pivot to S",) and about.mp_cost == 3
    out = wf_game.apply(state, view.action)
    assert out.ok and out.state.ship("a").hex == Hex.at(10, 8)


def test_a_ship_out_of_play_is_refused_in_plain_words():
    from companion.engine.kernel import Refusal

    gone = ship("s", "British", RAVEN, "1710", "N").model_copy(update={"removed": True, "destruction": "keel broken"})
    with pytest.raises(Refusal, match="left play"):
        P.plan_map(moving(gone, ship("p", "French", PONT, "1704", "S")), "s")
