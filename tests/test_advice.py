"""The shot advisor (issue 17): each gun's options ranked (ship destroyed, then expected slots,
then keel), the best marked, and `companion plan`."""

from __future__ import annotations

import json
from fractions import Fraction

from cards_for_tests import card, gun, location, miss, other, position, ship
from companion.commands import main
from companion.engine.quick_start.advice import Value, advise, best_shots, ranked, side_ships
from companion.engine.quick_start.combat import firing_solution
from companion.engine.quick_start.fire_plan import PlannedShot, fire_plan
from companion.engine.quick_start.state import Shot
from companion.engine.quick_start.table_rules import TableRules

GREEN = (4, "DGreen")


def gunboat():
    """Two DGreen guns in the starboard, none elsewhere."""
    loc = location([gun("G1", GREEN, (8, "DGreen")), gun("G2", GREEN, (8, "DGreen"))] + [other()] * 4)
    unarmed = location([other()] * 6)
    return card("gunboat", ship_type=1, si=20, bow=unarmed, port=unarmed, stern=unarmed, starboard=loc)


def target_card(breach_bow=8, breach_starboard=2):
    """Bow: one live slot and five misses (destroying it wrecks the bow, so the ship); starboard:
    six easy slots, SI 20 (destroying one destroys nothing)."""
    bow = location([other(breach_bow)] + [miss()] * 5, go="DGreen", stop="DGreen")
    starboard = location([other(breach_starboard)] * 6, go="DGreen", stop="DGreen")
    return card("target", ship_type=1, si=20, bow=bow, starboard=starboard)


def abeam(two_locations="attacker", target=None):
    """The gunboat's starboard guns may strike the target's bow or its starboard (test_cli's spine)."""
    state = position(ship("a", "A", gunboat(), "2109", "S"), ship("t", "B", target or target_card(), "2010", "N"))
    return state.model_copy(update={"settings": state.settings.model_copy(
        update={"table_rules": TableRules(two_locations=two_locations)})})


def starboard_gun(state, slot=1):
    return next(g for g in advise(state, "a") if (g.location, g.slot) == ("starboard", slot))


def test_ship_destroyed_ranks_before_a_likelier_slot():
    """The bow's last live slot (1/96) outranks the starboard's sure slot: the ship would be destroyed."""
    options = starboard_gun(abeam()).options
    assert [o.target_location for o in options] == ["bow", "starboard"]
    bow, starboard = options
    assert bow.value == Value(Fraction(1, 96), Fraction(1, 96), Fraction(0), Fraction(1, 96))
    assert starboard.value.slot == 1 and starboard.value.ship_destroyed == 0
    assert bow.best and not starboard.best
    assert starboard_gun(abeam()).best == bow


def test_expected_slots_part_equal_chances_of_destroying_the_ship():
    """Neither option can destroy the ship (bow slot unreachable): the likelier slot comes first."""
    options = starboard_gun(abeam(target=target_card(breach_bow=30, breach_starboard=5))).options
    assert [o.target_location for o in options] == ["starboard", "bow"]
    assert options[1].value == Value(Fraction(0), Fraction(0), Fraction(0), Fraction(0))


def test_values_are_the_strikes_exact_odds():
    state = abeam()
    solution = firing_solution(state.ship("a"), "starboard", 1, state.ship("t"))
    for option in starboard_gun(state).options:
        odds = solution.strike(option.target_location).odds
        assert option.value.slot == option.value.expected_slots == sum(odds.slot_destroyed.values())
        assert option.value.keel_break == odds.keel_break and option.value.ship_destroyed == odds.ship_destroyed


def test_a_d6_picking_gives_one_option_worth_the_mixture():
    options = starboard_gun(abeam("roll")).options
    assert len(options) == 1 and options[0].target_location is None and options[0].decided_by == "roll"
    assert options[0].value.slot == (Fraction(1, 96) + 1) / 2
    assert options[0].value.ship_destroyed == Fraction(1, 192)


def test_the_targets_side_picking_gives_the_option_it_would_choose():
    """The target's side keeps its ship: the attacker gets the starboard."""
    options = starboard_gun(abeam("target")).options
    assert len(options) == 1 and options[0].target_location == "starboard" and options[0].decided_by == "target"
    assert options[0].best  # still the best the gun can do


def test_no_best_when_nothing_can_happen():
    guns = advise(abeam(target=target_card(breach_bow=30, breach_starboard=30)), "a")
    assert all(o.value.slot == 0 for g in guns for o in g.options)
    assert all(g.best is None for g in guns) and best_shots(guns) == []


def test_ranking_is_stable_for_equal_options():
    options = list(starboard_gun(abeam(target=target_card(breach_bow=30, breach_starboard=30))).options)
    assert [o.target_location for o in ranked(options)] == ["bow", "starboard"]


def test_guns_with_a_declared_shot_are_left_out_of_the_plan():
    state = abeam()
    shot = Shot(id=1, attacker="a", location="starboard", slot=1, target="t", target_location="bow")
    state = state.model_copy(update={"shots": [shot]})
    guns = advise(state, "a")
    assert [g.declared for g in guns if g.location == "starboard"] == [True, False]
    assert [(s.location, s.slot) for s in best_shots(guns)] == [("starboard", 2)]
    assert len(best_shots(guns, undeclared_only=False)) == 2


def best_plan(state, ship_ids):
    """The fire plan of every gun of these ships firing its best option, as `companion plan` makes it."""
    return fire_plan(state, [shot for ship_id in ship_ids for shot in best_shots(advise(state, ship_id))])


def test_best_plan_of_a_ship_and_of_a_side():
    state = abeam()
    plan = best_plan(state, ["a"])
    shots = [PlannedShot("a", "starboard", n, "t", "bow") for n in (1, 2)]
    assert plan == fire_plan(state, shots)
    assert plan.targets[0].ship_destroyed.value == 1 - (1 - Fraction(1, 96)) ** 2
    assert best_plan(state, side_ships(state, "A")) == plan


def test_options_as_json_are_exact_fractions():
    row = starboard_gun(abeam()).as_json()
    assert row["weapon"] == {"location": "starboard", "slot": 1, "name": "G1"}
    assert row["options"][0]["ship_destroyed"] == "1/96" and row["options"][0]["best"] is True


# --- companion plan ---------------------------------------------------------------------------------


def scenario_file(tmp_path, target_location_dice="DGreen"):
    data = {"format": "leviathans-scenario/1", "ruleset": "quick-start", "board": {"columns": 33, "rows": 19},
            "turn": 1, "ships": [
                {"id": "a", "side": "A", "card": gunboat().model_dump(mode="json", by_alias=True),
                 "bow": "2109", "facing": "S"},
                {"id": "t", "side": "B", "card": target_card().model_dump(mode="json", by_alias=True),
                 "bow": "2010", "facing": "N"}]}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_companion_plan_json(tmp_path, capsys):
    code = main(["plan", scenario_file(tmp_path), "--ship", "a", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    data = json.loads(out)
    starboard = next(g for g in data["ships"][0]["guns"] if g["weapon"]["slot"] == 1
                     and g["weapon"]["location"] == "starboard")
    assert starboard["options"][0]["target_location"] == "bow" and starboard["options"][0]["best"]
    plan = data["plan"][0]
    assert plan["target"] == "t" and plan["exact"]
    assert Fraction(plan["ship_destroyed"]["value"]) == 1 - (1 - Fraction(1, 96)) ** 2


def test_companion_plan_text_and_side(tmp_path, capsys):
    path = scenario_file(tmp_path)
    assert main(["plan", path, "--side", "A"]) == 0
    out = capsys.readouterr().out
    assert "* Target bow" in out and "Fire plan" in out and "exact" in out
    assert main(["plan", path, "--side", "C"]) == 1
    assert "no ship of side 'C'" in capsys.readouterr().err
    assert main(["plan", path, "--ship", "zz"]) == 1
    assert "no ship 'zz'" in capsys.readouterr().err


def test_a_ship_that_left_play_has_no_advice():
    state = abeam()
    state = state.with_ship(state.ship("a").model_copy(update={"removed": True}))
    assert advise(state, "a") == ()
