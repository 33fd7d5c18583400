"""Decisive Victory's dice and exact odds (issue 16 E): the worked examples of
decisive-victory.md §20 about tests, saves, damage and attacks, with the spec's
exact values; the exact odds against a brute-force enumeration of the dice; and
`companion dv odds test | save | attack`."""

import json
from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

from companion.commands import main
from companion.engine.cards import FormatError
import dv_brute_force as brute_force
from companion.engine.decisive_victory.table1 import Band
from companion.engine.decisive_victory.modifiers import AttackFacts, attack_modifier, fire_control, hit_chance_with_radar
from companion.engine.decisive_victory.odds import (
    GRID, NO_EFFECT, PAIRS, TABLE_1, HitResult, Save, SaveOdds, SuccessTable, attack_from, attack_odds, box_of,
    catastrophic_chance, damage_dice_odds, damage_result, gives_bonus_roll, half, hit_damage_dice,
    hit_damage_odds, hit_row, hit_strength, hits, save_odds, save_result, succeeds, success_chance,
)

CRUISER = {"deck": 3, "belt": 6, "underwater": 4}
DESTROYER = {"deck": 1, "belt": 3, "underwater": 2}


def attack(modifier, strength, damage, distance=0, armour=CRUISER, **more):
    return attack_from({"modifier": modifier, "strength": strength, "damage": damage, "distance": distance,
                        "armour": armour, **more})


def gun_facts(fc, distance, **more):
    return AttackFacts(fire_control=fc, distance=F(distance), **more)


# --- DV-1 the success table and N7 -------------------------------------------------------


@pytest.mark.parametrize("faces, m, expected", [
    ((3, 4), 0, True), ((2, 5), 0, False), ((2, 5), 1, True), ((6, 2), 2, True), ((6, 3), 2, False),
    ((1, 1), 9, False), ((6, 6), 9, False),
])
def test_dv1_the_success_table_and_n7(faces, m, expected):
    assert succeeds(*faces, m) is expected


def test_dv1_modifiers_are_kept_within_0_and_9():
    assert all(succeeds(a, b, -3) == succeeds(a, b, 0) for a, b in PAIRS)
    assert all(succeeds(a, b, 11) == succeeds(a, b, 9) for a, b in PAIRS)


def test_dv1_success_chances_for_every_modifier():
    expected = ["1/18", "1/6", "11/36", "4/9", "5/9", "2/3", "3/4", "5/6", "8/9", "17/18"]
    assert [str(success_chance(m)) for m in range(10)] == expected
    assert [brute_force.chance_of_success(m) for m in range(-2, 12)] == [success_chance(m) for m in range(-2, 12)]


def test_a_groups_own_table_1_and_grid_replace_the_reconstructions():
    own = SuccessTable(bands=[Band(modifier=0, totals=None)] + [Band(modifier=m, totals=(6, 8)) for m in range(1, 10)])
    assert success_chance(1, own) == F(16, 36) and success_chance(1) == F(1, 6)
    gun = attack(1, 6, 2, 20)
    assert attack_odds(gun, own).hit == F(16, 36)
    assert brute_force.attack_outcomes(gun, own) == attack_odds(gun, own).outcomes
    rows = GRID.model_dump()["rows"]
    rows[3]["armor"] = "belt"  # a group whose bottom row is belt armour
    grid = GRID.model_validate({**GRID.model_dump(), "rows": rows})
    assert attack_odds(attack(3, 6, 2, 10), grid=grid).armour == {"deck": 0, "belt": F(4, 9), "underwater": 0}


def test_halving_rounds_up():
    assert [half(x) for x in (1, 2, 3, 4, 5, 7)] == [1, 1, 2, 2, 3, 4]


# --- DV-3 and DV-4: to-hit with modifiers, split fire, damaged guns ----------------------


def test_dv3_to_hit_with_modifiers():
    assert attack_modifier(gun_facts(4, 17)) == 2 and success_chance(2) == F(11, 36)
    night = attack_modifier(gun_facts(4, 17, night=True))
    assert night == -2 and success_chance(night) == F(1, 18)
    japanese = attack_modifier(gun_facts(4, 17, night=True, japanese=True))
    assert japanese == -1 and success_chance(japanese) == F(1, 18)
    stopped = attack_modifier(gun_facts(4, 17, target_stopped=True))
    assert stopped == 7 and success_chance(stopped) == F(5, 6)
    assert attack_modifier(gun_facts(4, 16)) == 2
    assert attack_modifier(gun_facts(4, "15.9")) == 3 and success_chance(3) == F(4, 9)


def test_dv4_split_fire_and_damaged_guns():
    assert attack_modifier(gun_facts(5, 10)) == 4 and success_chance(4) == F(5, 9)
    assert attack_modifier(gun_facts(5, 10, split=True)) == 2 and success_chance(2) == F(11, 36)
    assert fire_control(5, guns_damaged=True) == 3 and fire_control(5, guns_damaged=True, split=True) == 2
    assert hit_damage_dice(attack(4, 6, 3, 10, guns_damaged=True)) == 2
    assert [fire_control(5, close_action=True), fire_control(5, True, True), fire_control(5, True, True, True)] \
        == [7, 4, 2]


# --- DV-5 hit location ----------------------------------------------------------------------


def test_dv5_hit_location_at_close_range():
    odds = attack_odds(attack(3, 6, 2, 10))
    assert odds.hit == F(4, 9)
    assert odds.rows == {1: 0, 2: F(1, 18), 3: F(1, 12), 4: F(1, 12), 5: F(1, 12), 6: F(5, 36)}
    assert odds.armour == {"deck": 0, "belt": F(11, 36), "underwater": F(5, 36)}


def test_dv5_hit_location_far_and_bow_on():
    odds = attack_odds(attack(3, 6, 2, 40, bow_on=True))
    assert odds.rows == {1: F(2, 9), 2: F(1, 12), 3: F(1, 12), 4: F(1, 18), 5: 0, 6: 0}


# --- DV-6 armour saves and DV-7 damage dice --------------------------------------------------


def test_the_automatic_save_is_at_13_exactly_either_way():
    """`003:67`: "13 or higher" than the attack's strength the save succeeds, and 13 or higher the
    other way it fails, with no roll; at 12 either way the dice decide (issue 35: the suite passed
    with the 13 made a 12)."""
    assert save_odds(14, 1) == SaveOdds(F(1, 18), F(17, 18), F(0))  # armour 13 above: it cannot fail
    assert save_odds(13, 1) == SaveOdds(F(1, 18), F(8, 9), F(1, 18))  # 12 above: the 2 and the 12 fail
    assert save_result(6, 6, 13, 1) is Save.FAIL and save_result(1, 1, 13, 1) is Save.FAIL
    assert save_result(6, 6, 14, 1) is Save.SUCCESS and save_result(1, 1, 14, 1) is Save.SUCCESS
    assert save_odds(1, 14) == SaveOdds(F(0), F(0), F(1))  # strength 13 above: no roll, it fails
    assert save_odds(1, 13) == SaveOdds(F(1, 18), F(0), F(17, 18))  # 12 above: only a N7 saves
    assert save_result(4, 3, 1, 13) is Save.CRITICAL and save_result(4, 3, 1, 14) is Save.FAIL


def test_dv6_armour_saves():
    gun = attack(2, 6, 2, 17)
    assert hit_strength(gun, 3) == 4 and hit_strength(gun, 6) == 2
    assert save_odds(6, 4) == SaveOdds(F(1, 18), F(1, 4), F(25, 36))
    assert save_odds(4, hit_strength(gun, 6)) == SaveOdds(F(1, 18), F(1, 4), F(25, 36))
    assert save_odds(3, 4) == SaveOdds(F(1, 18), F(0), F(17, 18))
    assert save_odds(20, 4) == SaveOdds(F(1, 18), F(17, 18), F(0))
    assert save_odds(1, 15) == SaveOdds(F(0), F(0), F(1))


def test_dv6_saves_equal_the_counted_pairs():
    for armour, strength in [(6, 4), (3, 4), (20, 4), (1, 15), (16, 3), (3, 16), (0, 12), (12, 0)]:
        counted = brute_force.save_chances(armour, strength)
        odds = save_odds(armour, strength)
        assert (odds.critical, odds.success, odds.fail) == (counted[Save.CRITICAL], counted[Save.SUCCESS],
                                                            counted[Save.FAIL])


def test_dv7_damage_dice():
    box = (2, 4)
    failed = hit_damage_odds(SaveOdds(F(0), F(0), F(1)), 2, 4, box)
    assert failed == {HitResult(0, 2, frozenset({box})): F(1, 4), HitResult(1, 1, frozenset({box})): F(1, 2),
                      HitResult(2, 0, frozenset({box})): F(1, 4)}
    saved = hit_damage_odds(SaveOdds(F(0), F(1), F(0)), 2, 4, box)
    assert saved == {HitResult(0, 0, frozenset()): F(1, 4), HitResult(0, 1, frozenset()): F(1, 2),
                     HitResult(0, 2, frozenset()): F(1, 4)}
    assert damage_dice_odds(3, 3) == {0: F(1, 27), 1: F(2, 9), 2: F(4, 9), 3: F(8, 27)}
    zero = attack_odds(attack(9, 6, 0, 5, weapon="torpedo"))  # no bonus roll to mix in
    assert zero.save_fail == 0 and zero.minor_damage[1] == zero.hit * F(1, 3) and zero.boxes == {}


def test_dv7_table_faces_of_a_failed_save():
    assert damage_result(Save.FAIL, [4, 2], 4, (2, 4)) == HitResult(1, 1, frozenset({(2, 4)}))
    assert damage_result(Save.CRITICAL, [6, 6], 4, (2, 4)) == NO_EFFECT
    assert damage_result(None, [5], 4, (2, 4)) == HitResult(0, 1, frozenset())


# --- DV-8 the N7 chain, DV-9 a full gun attack, DV-10 torpedoes --------------------------------


def test_dv8_the_n7_chain_at_modifier_0():
    gun = attack(0, 6, 2, 20)
    odds = attack_odds(gun)
    assert hit_strength(gun, 3) == 4 and odds.hit == F(1, 18)
    assert odds.rows == {1: 0, 2: 0, 3: F(1, 36), 4: F(1, 36), 5: 0, 6: 0} and odds.armour["belt"] == F(1, 18)
    assert odds.bonus_hit == F(1, 18) * F(1, 18)
    assert odds.save == SaveOdds(F(1, 18) * F(1, 18), F(1, 18) * F(1, 4), F(1, 18) * F(25, 36))
    assert odds.expected_hits == F(19, 324)
    assert odds.expected_damage_points == F(475, 11664) and odds.expected_minor_damage == F(323, 5832)
    assert odds.save_fail == F(25, 648)


def test_the_hit_row_bands_include_12_and_36():
    """[R-4]: "within 12”" is d <= 12; "farther than 36”" is d > 36 (`003:78`)."""
    assert [hit_row(attack(0, 6, 2, d), 3) for d in (F(12), F(121, 10), F(36), F(361, 10))] == [4, 3, 3, 2]


def test_dv8_faces_of_the_attack_and_the_bonus_roll():
    gun = attack(0, 6, 2, 20)
    assert hits(gun, 3, 4) and gives_bonus_roll(gun, 3, 4)
    assert box_of(hit_row(gun, 3), 4) == (2, 4)  # (2-3, 4)
    assert hits(gun, 4, 3) and box_of(hit_row(gun, 4), 3) == (3, 3)  # (4-5, 3)
    assert save_result(3, 4, 6, 4) is Save.CRITICAL and save_result(1, 2, 6, 4) is Save.FAIL


def test_dv9_a_full_gun_attack():
    odds = attack_odds(attack(2, 6, 2, 17))
    assert odds.hit == F(11, 36)
    assert odds.armour == {"deck": F(1, 36), "belt": F(8, 36), "underwater": F(2, 36)}
    assert odds.save_fail == F(71, 324) and odds.save_fail / odds.hit == F(71, 99)
    assert odds.bonus_hit == F(11, 648)
    assert odds.damage_points == {0: F(310271, 373248), 1: F(30601, 279936), 2: F(95353, 1679616),
                                  3: F(1775, 839808), 4: F(1775, 3359232)}
    assert sum(odds.damage_points.values()) == 1
    assert odds.expected_damage_points == F(1349, 5832) and odds.expected_minor_damage == F(3553, 11664)


def test_dv10_torpedoes():
    facts = AttackFacts(weapon="torpedo", fire_control=3, distance=F(7))
    m = attack_modifier(facts)
    torpedo = attack(m, 10, 3, 7, weapon="torpedo")
    odds = attack_odds(torpedo)
    assert m == 1 and odds.hit == F(1, 6) and odds.rows[6] == F(1, 6)
    assert hit_strength(torpedo, 6) == 10 and save_odds(4, 10) == SaveOdds(F(1, 18), F(0), F(17, 18))
    assert odds.damage_points == {0: F(1237, 1458), 1: F(17, 486), 2: F(17, 243), 3: F(34, 729)}
    assert odds.expected_damage_points == F(17, 54)
    assert odds.boxes == {(4, c): F(17, 648) for c in range(1, 7)}
    assert odds.bonus_hit == 0 and not gives_bonus_roll(torpedo, 3, 4)
    assert attack_modifier(facts.model_copy(update={"distance": F(6)})) == 1
    assert attack_modifier(facts.model_copy(update={"distance": F("5.9")})) == 2


def test_dv11_gunnery_radar_at_night():
    facts = gun_facts(4, 30, night=True)
    assert attack_modifier(facts) == -3 and success_chance(-3) == F(1, 18)
    assert attack_modifier(facts.model_copy(update={"radar_success": True})) == 4
    assert hit_chance_with_radar(4, facts) == F(1, 3)
    assert hit_strength(attack(4, 6, 2, 30), 3) == 3


# --- DV-13, DV-16, DV-17: other damage and attack odds ---------------------------------------


def test_dv13_catastrophic_damage():
    assert catastrophic_chance(6, 5) == F(7, 64)
    assert catastrophic_chance(3, 3) == F(1, 8) and catastrophic_chance(2, 3) == 0
    assert catastrophic_chance(6, 4) == F(11, 32)


def test_dv16_collision_and_close_action():
    assert 1 - damage_dice_odds(3)[0] == F(7, 8) and 1 - damage_dice_odds(2)[0] == F(3, 4)
    m = attack_modifier(gun_facts(4, 2, close_action=True))
    close = attack(m, 6, 2, 2, armour=DESTROYER, close_action=True)
    assert m == 6 and success_chance(m) == F(3, 4)
    assert hit_strength(close, 3) == 8 and hit_damage_dice(close) == 4 and hit_row(close, 3) == 4
    assert hit_damage_dice(attack(6, 6, 0, 2, close_action=True)) == 3


def test_dv17_a_dive_bomber_strike():
    assert success_chance(7) == F(5, 6) and success_chance(5) == F(2, 3) and success_chance(3) == F(4, 9)
    strike = attack_odds(attack(5, 8, 3, weapon="dive_bomber"))
    assert strike.hit == F(2, 3) and strike.rows[1] == F(2, 3) and save_odds(3, 8).fail == F(17, 18)
    some_damage = 1 - strike.damage_points[0]
    assert some_damage == F(119, 216)
    assert F(1, 3) * some_damage == F(119, 648) and F(5, 9) * some_damage == F(595, 1944)


def test_dv17_a_patrol_bomber_hits_only_on_a_natural_seven():
    for m in (0, 5, 9):
        odds = attack_odds(attack(m, 8, 4, weapon="patrol_bomber"))
        assert odds.hit == F(1, 18) and odds.bonus_hit == 0


# --- the exact odds against every die ----------------------------------------------------------


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.integers(-4, 12), st.sampled_from(["gun", "gun", "torpedo", "dive_bomber", "torpedo_bomber",
                                            "patrol_bomber"]),
       st.integers(0, 16), st.integers(0, 3), st.fractions(0, 48, max_denominator=4), st.booleans(),
       st.booleans(), st.booleans(), st.tuples(*[st.integers(0, 20)] * 3))
def test_exact_odds_equal_a_brute_force_enumeration(m, weapon, strength, damage, distance, bow_on, close,
                                                    damaged, armour):
    data = attack(m, strength, damage, distance, armour=dict(zip(("deck", "belt", "underwater"), armour)),
                  weapon=weapon, bow_on=bow_on, close_action=close, guns_damaged=damaged)
    if hit_damage_dice(data) > 3:
        data = data.model_copy(update={"damage": 1})
    assert attack_odds(data).outcomes == brute_force.attack_outcomes(data)


def test_all_outcomes_of_an_attack_add_up_to_one():
    odds = attack_odds(attack(4, 6, 2, 10))
    assert sum(odds.outcomes.values()) == 1 and sum(odds.minor_damage.values()) == 1


def test_bad_attack_input_names_the_field():
    with pytest.raises(FormatError, match="^strength: "):
        attack(2, -1, 2, 10)
    with pytest.raises(FormatError, match="^armour.belt: missing"):
        attack_from({"modifier": 2, "strength": 6, "damage": 2, "armour": {"deck": 3, "underwater": 4}})


# --- the command line --------------------------------------------------------------------------


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_dv_odds_test_text_and_json(capsys):
    code, out, err = run(capsys, "dv", "odds", "test", 2)
    assert code == 0 and err == ""
    assert out.splitlines()[0] == "2d6 test at +2: succeeds on 7-8 or a natural seven (3 and 4); 2 and 12 fail"
    assert "11/36" in out.splitlines()[1] and "30.6%" in out
    code, out, _ = run(capsys, "dv", "odds", "test", -3, "--json")
    assert code == 0 and json.loads(out) == {"modifier": -3, "clamped": 0, "successful_totals": [],
                                             "success": "1/18", "natural_seven": "1/18", "failure": "17/18"}
    _, out, _ = run(capsys, "dv", "odds", "test", 11, "--json")
    assert json.loads(out)["clamped"] == 9 and json.loads(out)["successful_totals"] == list(range(3, 12))


def test_dv_odds_save_text_and_json(capsys):
    code, out, err = run(capsys, "dv", "odds", "save", "--armour", 6, "--strength", 4)
    assert code == 0 and err == "" and out.startswith("Armour 6 against strength 4: difference +2")
    assert "25/36" in out
    _, out, _ = run(capsys, "dv", "odds", "save", "--armour", 1, "--strength", 15, "--json")
    assert json.loads(out) == {"armour": 1, "strength": 15, "difference": -14, "rolled": False,
                               "critical": "0", "success": "0", "fail": "1"}


def test_dv_odds_attack_text_and_json(capsys):
    args = ("dv", "odds", "attack", "-m", 2, "--strength", 6, "--damage", 2, "--distance", 17,
            "--deck", 3, "--belt", 6, "--underwater", 4)
    code, out, err = run(capsys, *args)
    assert code == 0 and err == "" and out.startswith('Gun attack at +2 (strength 6, damage 2, 17" away)')
    assert "310271/373248" in out and "1349/5832" in out and "box (2-3, 4)" in out
    code, out, _ = run(capsys, *args, "--json")
    data = json.loads(out)
    assert code == 0 and data["hit"] == "11/36" and data["bonus_hit"] == "11/648" and data["save_fail"] == "71/324"
    assert data["damage_points"]["4"] == "1775/3359232" and data["expected_minor_damage"] == "3553/11664"
    assert data["attack"]["distance"] == "17" and data["boxes"]["(1, 6)"] == "323/11664"
    _, out, _ = run(capsys, "dv", "odds", "attack", "-m", 1, "--weapon", "torpedo", "--strength", 10, "--damage", 3,
                    "--deck", 3, "--belt", 6, "--underwater", 4, "--json")
    assert json.loads(out)["expected_damage_points"] == "17/54"


def test_dv_odds_attack_takes_a_decimal_distance_exactly(capsys):
    _, out, _ = run(capsys, "dv", "odds", "attack", "-m", 3, "--strength", 6, "--damage", 2, "--distance", "15.9",
                    "--deck", 3, "--belt", 6, "--underwater", 4, "--json")
    assert json.loads(out)["attack"]["distance"] == "159/10"


@pytest.mark.parametrize("args, message", [
    (("attack", "-m", 2, "--strength", 6, "--damage", 2, "--deck", 3, "--belt", 6, "--underwater", 4),
     "a gun attack needs --distance"),
    (("attack", "-m", 2, "--strength", 6, "--damage", 2, "--distance", "1,5", "--deck", 3, "--belt", 6,
      "--underwater", 4), "--distance: '1,5' is not a number of inches"),
    (("attack", "-m", 2, "--strength", 6, "--damage", 2, "--distance", "-3", "--deck", 3, "--belt", 6,
      "--underwater", 4), "--distance: '-3' is below 0"),
    (("attack", "-m", 2, "--strength", -6, "--damage", 2, "--distance", 3, "--deck", 3, "--belt", 6,
      "--underwater", 4), "strength: input should be greater than or equal to 0"),
    (("attack", "-m", 2, "--strength", 6, "--damage", 40, "--distance", 3, "--deck", 3, "--belt", 6,
      "--underwater", 4), "damage: input should be less than or equal to 20"),
    (("save", "--armour", 200, "--strength", 4), "--armour 200: must be a whole number from 0 to 99"),
])
def test_bad_odds_input_is_one_plain_line_and_exit_1(args, message, capsys):
    code, out, err = run(capsys, "dv", "odds", *args)
    assert code == 1 and out == "" and message in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_dv_odds_read_a_groups_own_table_and_grid(capsys, tmp_path):
    table = tmp_path / "table1.json"
    table.write_text(json.dumps({"format": "decisive-victory-success-table/1", "bands": [
        {"modifier": m, "totals": None if m == 0 else [6, 8]} for m in range(10)]}))
    _, out, _ = run(capsys, "dv", "odds", "test", 1, "--table", table, "--json")
    assert json.loads(out)["success"] == "4/9"
    _, out, _ = run(capsys, "dv", "odds", "save", "--armour", 5, "--strength", 4, "--table", table, "--json")
    assert json.loads(out)["fail"] == "5/9"
    grid = GRID.dump()
    grid["rows"][3]["armor"] = "belt"
    (tmp_path / "grid.json").write_text(json.dumps(grid))
    _, out, _ = run(capsys, "dv", "odds", "attack", "-m", 3, "--strength", 6, "--damage", 2, "--distance", 10,
                    "--deck", 3, "--belt", 6, "--underwater", 4, "--grid", tmp_path / "grid.json", "--json")
    assert json.loads(out)["armour"] == {"deck": "0", "belt": "4/9", "underwater": "0"}
    table.write_text(json.dumps({"format": "decisive-victory-success-table/1", "bands": []}))
    code, out, err = run(capsys, "dv", "odds", "test", 1, "--table", table)
    assert code == 1 and out == "" and str(table) in err and "bands" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("args, message", [
    (("dv", "odds", "test"), "the following arguments are required: M"),
    (("dv", "odds", "test", "x"), "invalid int value: 'x'"),
    (("dv", "odds", "save", "--armour", 3), "the following arguments are required: --strength"),
    (("dv", "odds", "attack", "-m", 2, "--strength", 6, "--damage", 2), "--deck"),
    (("dv",), "the following arguments are required: COMMAND"),
    (("dv", "odds"), "the following arguments are required: ROLL"),
])
def test_usage_errors_exit_2_on_one_line(args, message, capsys):
    with pytest.raises(SystemExit) as stopped:
        main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert stopped.value.code == 2 and message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
