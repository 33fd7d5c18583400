"""The shot advisor on the fire tab (issue 17), as plain data: each gun's options ranked with the
Best mark and its four figures; the fire plan of the ship or its side (the best by default, the
players' choices, declared shots), exact or "sampled: 41.2% ± 1.5%"; what Declare sends."""

from __future__ import annotations

from fractions import Fraction

from cards_for_tests import card, location, other, position, ship
from cards_for_tests import gun as cards_gun
from companion.app.rulesets.quick_start.advice_model import (PlanCache, advisor_view, choose, figure_text, plan_view, slots_text,
                                        toggled)
from companion.engine.quick_start.fire_plan import Figure, PlannedShot, fire_plan
from companion.engine.quick_start.state import Shot, ShotResult
from companion.engine.quick_start.table_rules import TableRules
from test_advice import abeam, gunboat, target_card

BOW = PlannedShot("a", "starboard", 1, "t", "bow")
STARBOARD = PlannedShot("a", "starboard", 1, "t", "starboard")


def gun(view, slot=1):
    return next(g for g in view.guns if (g.location, g.slot) == ("starboard", slot))


def test_each_guns_options_ranked_best_marked_with_four_figures():
    """The bow's last live slot (1/96, ship destroyed) before the starboard's sure slot."""
    view = advisor_view(abeam(), "a")
    assert [(g.location, g.slot, g.name) for g in view.guns] == [("starboard", 1, "G1"), ("starboard", 2, "G2")]
    bow, starboard = gun(view).options
    assert (bow.rank, bow.best, bow.where, starboard.rank, starboard.best) == (1, True, "bow", 2, False)
    assert (bow.slot, bow.expected_slots, bow.keel_break, bow.ship_destroyed) == (
        Fraction(1, 96), Fraction(1, 96), 0, Fraction(1, 96))
    assert bow.figures == "slot 1.0% · 0.01 slots · keel 0% · ship 1.0%"
    assert starboard.figures == "slot 100% · 1.00 slots · keel 0% · ship 0%"
    assert bow.ident == "starboard-1-t-bow" and gun(view).ident == "starboard-1"
    assert bow.target_name == "Target" and bow.reach.startswith("range ")


def test_the_default_plan_is_every_guns_best_with_the_exact_figures():
    view = advisor_view(abeam(), "a")
    assert [o.planned for o in gun(view).options] == [True, False]
    plan = view.plan
    assert [s.text for s in plan.shots] == ["Gunboat G1 (starboard) at Target bow", "Gunboat G2 (starboard) at Target bow"]
    assert [(s.declared, s.declare_location) for s in plan.shots] == [(False, "bow")] * 2
    target, = plan.targets
    assert target.destroyed == "2.1%"  # 1 - (95/96)^2 = 191/9216, exactly
    exact = fire_plan(abeam(), [BOW, PlannedShot("a", "starboard", 2, "t", "bow")]).targets[0]
    assert exact.ship_destroyed.value == 1 - Fraction(95, 96) ** 2
    assert 0 < exact.keel_break.value < Fraction(1, 1000)  # the second shot may roll the circled bow slot
    assert (target.keel, target.any_slot, target.expected_slots) == ("<0.1%", "2.1%", "0.02 slots")
    assert target.how == f"exact: {exact.cards} outcomes combined" and target.exact and target.shots == 2


def test_a_tap_on_an_option_plans_it_and_a_second_tap_holds_the_guns_fire():
    state = abeam()
    starboard = gun(advisor_view(state, "a")).options[1]
    choices = toggled({}, starboard)
    assert choices == {("a", "starboard", 1): STARBOARD}
    view = advisor_view(state, "a", choices=choices)
    assert [o.planned for o in gun(view).options] == [False, True]
    assert view.plan.shots[0].text == "Gunboat G1 (starboard) at Target starboard"
    assert view.plan.targets[0].expected_slots == "1.01 slots"  # a sure slot and the other gun's 1/96
    held = toggled(choices, gun(view).options[1])
    assert held == {("a", "starboard", 1): None}
    view = advisor_view(state, "a", choices=held)
    assert [s.slot for s in view.plan.shots] == [2] and not any(o.planned for o in gun(view).options)


def test_a_choice_no_longer_offered_falls_back_to_the_best():
    gone = PlannedShot("a", "starboard", 1, "t", "stern")
    view = advisor_view(abeam(), "a", choices=choose({}, ("a", "starboard", 1), gone))
    assert view.plan.shots[0].text.endswith("at Target bow")


def test_a_declared_shot_not_yet_rolled_is_in_the_plan_and_not_declared_again():
    state = abeam().model_copy(update={"shots": [
        Shot(id=1, attacker="a", location="starboard", slot=1, target="t", target_location="starboard")]})
    view = advisor_view(state, "a")
    assert gun(view).declared and not any(o.planned for o in gun(view).options)
    assert [(s.slot, s.declared) for s in view.plan.shots] == [(1, True), (2, False)]
    assert [s.slot for s in view.plan.to_declare] == [2]
    assert view.plan.targets[0].any_slot == "100%"


def test_a_rolled_shot_is_on_the_card_not_in_the_plan():
    result = ShotResult(pool=[], slot_rolls=[], total=0, outcome="no_effect")
    state = abeam().model_copy(update={"shots": [Shot(id=1, attacker="a", location="starboard", slot=1, target="t",
                                                    target_location="bow", result=result)]})
    assert [s.slot for s in advisor_view(state, "a").plan.shots] == [2]


def test_a_d6_or_the_targets_side_picking_declares_no_location():
    d6 = advisor_view(abeam("roll"), "a")
    option, = gun(d6).options
    assert option.where == "bow or starboard (a d6 picks)" and option.ident == "starboard-1-t-d6"
    assert d6.plan.shots[0].declare_location is None and d6.plan.shots[0].text.endswith("(a d6 picks)")
    theirs = advisor_view(abeam("target"), "a")
    option, = gun(theirs).options
    assert option.where == "starboard (their side picks)"
    assert theirs.plan.shots[0].declare_location is None


def test_the_whole_sides_plan():
    state = position(ship("a", "A", gunboat(), "2109", "S"), ship("b", "A", gunboat(), "2309", "S"),
                     ship("t", "B", target_card(), "2010", "N"))
    one = advisor_view(state, "a", "ship").plan
    side = advisor_view(state, "a", "side").plan
    assert one.title == "Gunboat" and side.title == "A: every ship"
    assert {s.attacker for s in side.shots} >= {"a"} and len(side.shots) >= len(one.shots)
    assert advisor_view(state, "a", "nonsense").plan.scope == "ship"


def test_past_the_bound_the_plan_is_sampled_and_says_so():
    view = advisor_view(abeam(), "a", bound=1, runs=200)
    target, = view.plan.targets
    assert not target.exact and target.how == "sampled: 200 runs, error ±3 standard errors"
    assert target.destroyed.startswith("sampled: ") and " ± " in target.destroyed


def test_sampled_figures_state_their_error():
    """Issue 17's example: "sampled: 41.2% ± 1.5%"."""
    assert figure_text(Figure(Fraction(412, 1000), False, 0.397, 0.427)) == "sampled: 41.2% ± 1.5%"
    assert figure_text(Figure(Fraction(412, 1000))) == "41.2%"
    assert figure_text(Figure(Fraction(41, 100), False, 0.39, 0.43), mean=True) == "sampled: 0.41 slots ± 0.02"
    assert slots_text(Fraction(1, 3)) == "0.33 slots"


def test_the_cache_gives_the_same_plan_without_sampling_again():
    cache = PlanCache(size=2)
    state = abeam()
    first = cache.plan(state, [BOW], runs=50, bound=1)
    assert cache.plan(state, [BOW], runs=50, bound=1) is first
    cache.plan(state, [STARBOARD], runs=50, bound=1)
    cache.plan(state, [PlannedShot("a", "starboard", 2, "t", "bow")], runs=50, bound=1)
    assert cache.plan(state, [BOW], runs=50, bound=1) is not first  # the oldest went
    assert plan_view(state, "a", "ship", {}, cache).targets


def test_no_advisor_for_a_ship_out_of_play():
    state = abeam()
    gone = state.with_ship(state.ship("a").model_copy(update={"removed": True}))
    assert advisor_view(gone, "a") is None and advisor_view(state, "nobody") is None


def battery():
    """Six DGreen guns in the starboard."""
    guns = location([cards_gun(f"G{n}", (4, "DGreen"), (8, "DGreen")) for n in range(1, 7)])
    unarmed = location([other()] * 6)
    return card("battery", ship_type=1, si=40, bow=unarmed, port=unarmed, stern=unarmed, starboard=guns)


def two_batteries():
    """Twelve guns of side A at a target whose bow and starboard have six easy slots each, breached
    on 3 to 8, a d6 picking the location of every shot: 1586 cards once alike slots are merged
    (issue 30), a plan exact only past the quick bound."""
    easy = location([other(b) for b in range(3, 9)], go="DGreen", stop="DGreen")
    state = position(ship("a", "A", battery(), "2109", "S"), ship("b", "A", battery(), "2309", "S"),
                     ship("t", "B", card("target", ship_type=1, si=40, bow=easy, starboard=easy), "2010", "N"))
    return state.model_copy(update={"settings": state.settings.model_copy(
        update={"table_rules": TableRules(two_locations="roll")})})


def test_a_quick_plan_first_then_the_full_one():
    """Past QUICK_BOUND cards the first plan samples the quick runs (its error stated) and the
    cache says the full plan is still to do; the full plan then comes from the cache."""
    state, cache = two_batteries(), PlanCache()
    quick = advisor_view(state, "a", "side", cache=cache, quick=100).plan
    assert cache.pending and quick.refining and len(quick.shots) == 12
    target, = quick.targets
    assert target.how == "sampled: 100 runs, error ±3 standard errors" and target.destroyed.startswith("sampled: ")
    cache.pending = False
    full = advisor_view(state, "a", "side", cache=cache).plan
    assert full.targets[0].how == "exact: 1586 outcomes combined" and not full.refining
    again = advisor_view(state, "a", "side", cache=cache, quick=100).plan
    assert again == full and not cache.pending


def test_a_quick_plan_within_the_quick_bound_is_the_exact_one():
    cache = PlanCache()
    quick = advisor_view(abeam(), "a", cache=cache, quick=100).plan
    assert not cache.pending and not quick.refining and quick == advisor_view(abeam(), "a").plan
