"""Decisive Victory's attacks phase through `apply` (spec decisive-victory.md §8-§10, §16):
worked examples DV-9, DV-10 and DV-12 with the spec's exact values, a gun attack with its N7
bonus roll, a torpedo, an armour save and a box marked with spill from table faces, the
roller's dice all recorded, the legality of §8.2-8.9 and the batches of §8.1."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from companion.engine.decisive_victory.attacks import attack_options
from companion.engine.decisive_victory.command import generated_points, payer_problem
from companion.engine.decisive_victory.movement import max_speed
from companion.engine.decisive_victory.damage import mark_box
from companion.engine.decisive_victory.state import DVState
from companion.engine.roller import Roller

from dv_for_tests import act, changed, kinds, of_kind, refused, sample_game


def declared(state: DVState, ship: str = "hms-sample", system: str = "main", target: str = "ijn-mihon",
             distance: str = "17", **more) -> tuple[DVState, dict]:
    result = act(state, kind="declare_attack", ship=ship, system=system, target=target, distance=distance, **more)
    event = of_kind(result, "declare_attack")[0]
    return result.state, event.data


# --- DV-9 a full gun attack -------------------------------------------------------------------


def test_dv9_the_odds_attached_to_the_declared_attack():
    _, data = declared(sample_game())
    odds = data["odds"]
    assert odds["modifier"] == 2 and odds["hit"] == "11/36"
    assert odds["armour"] == {"deck": "1/36", "belt": "2/9", "underwater": "1/18"}  # 1/36, 8/36, 2/36
    assert odds["save_fail"] == "71/324" and F(odds["save_fail"]) / F(odds["hit"]) == F(71, 99)
    assert odds["bonus_hit"] == "11/648"
    assert odds["damage_points"] == {"0": "310271/373248", "1": "30601/279936", "2": "95353/1679616",
                                     "3": "1775/839808", "4": "1775/3359232"}
    assert odds["expected_damage_points"] == "1349/5832" and odds["expected_minor_damage"] == "3553/11664"


def test_dv9_through_apply_a_hit_a_failed_save_and_a_box():
    state, data = declared(sample_game())
    result = act(state, kind="roll_attack", attack=data["attack"],
                 table={"attack": [2, 5], "saves": [[6, 3]], "damage": [[4, 2]]})
    assert kinds(result) == ["attack", "hit", "save", "damage", "box_marked"]
    attack, hit, save, damage, box = result.events
    assert attack.data["hit"] and attack.data["modifier"] == 2
    assert attack.data["dice"] == [{"colour": "D6", "face": 2, "role": "first"},
                                   {"colour": "D6", "face": 5, "role": "second"}]
    assert (hit.data["row"], hit.data["box"], hit.data["armour"], hit.data["strength"]) == (2, [2, 5], "belt", 4)
    assert save.data["result"] == "fail" and save.data["modifier"] == 2
    assert (damage.data["damage_points"], damage.data["minor_damage"]) == (1, 1)  # DV-7: [4, 2]
    assert box.data["marked"] == [2, 5] and box.data["system"] == "Guns" and not box.data["spilled"]
    target = result.state.ship("ijn-mihon")
    assert (target.damage_points, target.minor_damage, target.boxes) == (1, 1, frozenset({(2, 5)}))
    assert result.state.attacks[0].rolled


@pytest.mark.parametrize("distance, row", [("12", 3), ("12.1", 2)])
def test_a_gun_hit_within_12_inches_adds_one_to_the_row(distance, row):
    """`003:78`: "Add one to the result if the target is within 12”" (d <= 12 [R-4]: "within"
    includes the number), at the boundary itself, through apply (issue 35: the suite passed with
    <= 12 made < 12).  The 1st die is a 2."""
    state, data = declared(sample_game(), distance=distance)
    result = act(state, kind="roll_attack", attack=data["attack"],
                 table={"attack": [2, 5], "saves": [[6, 3]], "damage": [[4, 2]]})
    assert of_kind(result, "hit")[0].data["row"] == row


def test_a_gun_n7_rolls_a_bonus_attack_a_second_independent_hit():
    state, data = declared(sample_game())
    result = act(state, kind="roll_attack", attack=data["attack"],
                 table={"attack": [3, 4], "bonus": [4, 3], "saves": [[6, 3], [5, 5]], "damage": [[4, 4], [1, 6]]})
    assert [e.data["roll"] for e in of_kind(result, "attack")] == ["attack", "bonus"]
    assert [e.data["box"] for e in of_kind(result, "hit")] == [[2, 4], [3, 3]]  # DV-8's boxes (2-3, 4) and (4-5, 3)
    target = result.state.ship("ijn-mihon")
    assert (target.damage_points, target.minor_damage) == (3, 1)
    assert target.boxes == {(2, 4), (3, 3)}
    # (2-3, 4) is the cruiser's one Flight box: damaged and disabled at once; nothing embarked
    assert [(e.kind, e.data["system"]) for e in result.events if e.kind.startswith("system_")] == [
        ("system_damaged", "Flight"), ("system_disabled", "Flight")]
    assert target.system_rolls_due == []


def test_the_bonus_roll_does_not_chain_and_a_miss_gives_no_second_hit():
    state, data = declared(sample_game())
    result = act(state, kind="roll_attack", attack=data["attack"],
                 table={"attack": [3, 4], "bonus": [6, 6], "saves": [[4, 3]]})
    assert [e.data["hit"] for e in of_kind(result, "attack")] == [True, False]
    assert of_kind(result, "save")[0].data["result"] == "critical"  # a N7 save: no effect at all
    assert result.state.ship("ijn-mihon").damage_points == 0 and not of_kind(result, "damage")


def test_missing_table_faces_are_refused_naming_the_die():
    state, data = declared(sample_game())
    assert refused(state, kind="roll_attack", attack=1, table={}) == \
        "the attack roll's 1st die: roll D6 and enter its face"
    assert refused(state, kind="roll_attack", attack=1, table={"attack": [3]}) == \
        "the attack roll's 2nd die: roll D6 and enter its face"
    assert refused(state, kind="roll_attack", attack=1, table={"attack": [3, 4]}) == \
        "the first armour save's 1st die: roll D6 and enter its face"
    assert refused(state, kind="roll_attack", attack=1, table={"attack": [3, 4], "saves": [[6, 3]]}) == \
        "the damage dice of the first hit: roll D6 and enter its face"
    assert refused(state, kind="roll_attack", attack=1, table={"attack": [3, 4], "saves": [[6, 3]],
                                                               "damage": [[4, 4]]}) == \
        "the N7 bonus roll's 1st die: roll D6 and enter its face"
    assert "has no face 7" in refused(state, kind="roll_attack", attack=1, table={"attack": [7, 1]})
    assert "does not use: the N7 bonus roll's 1st die" in refused(
        state, kind="roll_attack", attack=1, table={"attack": [1, 2], "bonus": [3, 4]})


@pytest.mark.parametrize("seed", ["00", "01", "02", "03", "04", "05", "06", "07"])
def test_the_roller_path_records_every_die(seed):
    state, data = declared(sample_game().model_copy(update={"roller": Roller(seed=seed)}), distance="3")
    result = act(state, kind="roll_attack", attack=data["attack"])
    rolled = sum(len(e.data.get("dice", [])) for e in result.events)
    assert rolled == result.state.roller.counter - state.roller.counter >= 2
    assert all(d["colour"] == "D6" and 1 <= d["face"] <= 6 for e in result.events for d in e.data.get("dice", []))


def test_a_roll_is_taken_once():
    state, data = declared(sample_game())
    state = act(state, kind="roll_attack", attack=1, table={"attack": [1, 2]}).state
    assert refused(state, kind="roll_attack", attack=1) == "attack 1 is already rolled"
    assert refused(state, kind="roll_attack", attack=9) == "there is no declared attack 9"


# --- DV-10 torpedoes -------------------------------------------------------------------------


def test_dv10_torpedo_odds():
    state, data = declared(sample_game(), ship="hms-dash", system="torpedoes", distance="7")
    odds = data["odds"]
    assert odds["modifier"] == 1 and odds["hit"] == "1/6" and odds["bonus_hit"] == "0"
    assert odds["rows"]["6"] == "1/6" and odds["armour"]["underwater"] == "1/6"
    assert odds["damage_points"] == {"0": "1237/1458", "1": "17/486", "2": "17/243", "3": "34/729"}
    assert odds["expected_damage_points"] == "17/54"
    assert set(odds["boxes"].values()) == {"17/648"} and len(odds["boxes"]) == 6
    assert declared(sample_game(), ship="hms-dash", system="torpedoes", distance="6")[1]["odds"]["modifier"] == 1
    assert declared(sample_game(), ship="hms-dash", system="torpedoes", distance="5.9")[1]["odds"]["modifier"] == 2


def test_dv10_a_torpedo_through_apply_no_bonus_roll_row_6_3_plus_one_salvo():
    state, data = declared(sample_game(), ship="hms-dash", system="torpedoes", distance="7")
    result = act(state, kind="roll_attack", attack=data["attack"],
                 table={"attack": [3, 4], "saves": [[6, 5]], "damage": [[3, 2, 6]]})
    assert len(of_kind(result, "attack")) == 1  # a N7 gives no bonus roll to a torpedo
    hit = of_kind(result, "hit")[0].data
    assert (hit["row"], hit["armour"], hit["strength"], hit["box"]) == (6, "underwater", 10, [4, 4])
    assert of_kind(result, "save")[0].data["modifier"] == -6
    assert (of_kind(result, "damage")[0].data["damage_points"], of_kind(result, "damage")[0].data["minor_damage"]) == (2, 1)
    assert result.state.ship("hms-dash").salvoes_left == {"torpedoes": 1}
    assert of_kind(result, "box_marked")[0].data["system"] == "Speed"


def test_no_salvo_left_no_torpedo_attack():
    state = changed(sample_game(), "hms-dash", salvoes_left={"torpedoes": 0})
    assert refused(state, kind="declare_attack", ship="hms-dash", system="torpedoes", target="ijn-mihon",
                   distance="7") == "the 21 in tubes has no torpedo salvo left"


def test_damage_0_hit_no_save_minor_on_5_plus():
    state = sample_game()
    record = state.ship("hms-sample").record
    weapons = [w.model_copy(update={"damage": 0}) if w.id == "secondary" else w for w in record.weapons]
    state = changed(state, "hms-sample", record=record.model_copy(update={"weapons": weapons}))
    state, data = declared(state, system="secondary", distance="20")
    result = act(state, kind="roll_attack", attack=1, table={"attack": [3, 4], "bonus": [1, 1], "minor": [5]})
    assert kinds(result) == ["attack", "hit", "damage", "attack"]
    assert result.state.ship("ijn-mihon").minor_damage == 1 and not result.state.ship("ijn-mihon").boxes


# --- DV-12 grid marking, spill and systems --------------------------------------------------------


def test_dv12_grid_marking_spill_and_systems():
    state = sample_game()
    ship = state.ship("ijn-mihon")  # a cruiser: threshold 2

    def hit(ship, box):
        ship, events = mark_box(state, ship, box, "test")
        return ship, [(k, d.get("system"), d.get("marked")) for k, _, d in events]

    ship, ev = hit(ship, (1, 3))
    assert ev == [("box_marked", "Com", [1, 3])] and state.status(ship, "Com") == "working"
    ship, ev = hit(ship, (1, 3))
    assert ev == [("box_marked", "Guns", [2, 3])]  # spills down the column
    ship, ev = hit(ship, (1, 4))
    assert ev == [("box_marked", "Com", [1, 4]), ("system_damaged", "Com", None), ("system_disabled", "Com", None)]
    assert generated_points(state, ship) == 0  # next command phase: 0 CP
    escort = state.ship("ijn-kaze").model_copy(update={"boxes": frozenset({(1, 3), (1, 4)})})  # its Com disabled
    flagship = state.ship("ijn-mihon").model_copy(update={"cp": 3})
    assert "its flagship cannot pay for it" in payer_problem(state, escort, flagship, 1, "Concentrate Fire")
    ship, ev = hit(ship, (4, 2))
    ship, ev = hit(ship, (4, 3))
    assert ev[-1] == ("system_damaged", "Speed", None)
    assert max_speed(state, ship) == 8  # ⌈15/2⌉
    ship, ev = hit(ship, (4, 4))
    ship, ev = hit(ship, (4, 5))
    assert ev[-1] == ("system_disabled", "Speed", None)
    assert max_speed(state, ship) == 0
    before = ship.damage_points
    ship, ev = hit(ship, (4, 3))
    assert ev == [("box_marked", None, None)] and ship.damage_points == before + 1
    destroyer = state.ship("ijn-kaze")
    _, ev = hit(destroyer, (2, 2))
    assert ev == [("box_marked", "Guns", [2, 2]), ("system_damaged", "Guns", None)]


def test_dv12_a_capital_ship_command_damaged_and_disabled_together():
    state = sample_game()
    record = state.ship("ijn-mihon").record.model_copy(update={"ship_class": "capital"})
    ship = state.ship("ijn-mihon").model_copy(update={"record": record})
    ship, _ = mark_box(state, ship, (1, 3), "test")
    ship, events = mark_box(state, ship, (1, 4), "test")
    assert [k for k, _, _ in events] == ["box_marked", "system_damaged", "system_disabled"]


def test_struct_damaged_adds_3_at_once_and_torpedoes_lose_half():
    state = sample_game()
    ship = state.ship("ijn-mihon").model_copy(update={"salvoes_left": {"torpedoes": 3}})
    ship, _ = mark_box(state, ship, (3, 2), "test")
    ship, events = mark_box(state, ship, (3, 3), "test")
    assert ship.damage_points == 3 and ("system_damaged", ) == tuple(k for k, _, _ in events[1:])
    ship, events = mark_box(state, ship, (3, 4), "test")  # the one Torp box: damaged, then disabled
    assert [k for k, _, _ in events] == ["box_marked", "system_damaged", "system_disabled", "system_roll_due"]
    assert ship.salvoes_left == {"torpedoes": 1} and ship.system_rolls_due == ["torpedoes"]


# --- legality (§8.2-8.9) -------------------------------------------------------------------------


def test_a_system_fires_once_and_every_attack_is_declared_before_the_first_roll():
    state, _ = declared(sample_game())
    state = act(state, kind="roll_attack", attack=1, table={"attack": [1, 2]}).state
    reason = refused(state, kind="declare_attack", ship="hms-sample", system="secondary", target="ijn-mihon",
                     distance="17")
    assert "every attack is declared before the first roll" in reason


def sample_game_split() -> DVState:
    return declared(sample_game(), distance="10")[0]


def test_dv4_split_fire_mounts_and_half_fc():
    state, _ = declared(sample_game(), distance="10")
    state, second = declared(state, target="ijn-kaze", distance="10", full_fc=False)
    assert second["odds"]["modifier"] == 2 - 1  # ⌈4/2⌉ − 1
    assert refused(state, kind="declare_attack", ship="hms-sample", system="main", target="ijn-nami",
                   distance="10", full_fc=False) == "the 6 in battery has 2 mounts: it cannot split its fire further [R-7]"
    assert "already has its full-FC attack" in refused(sample_game_split(), kind="declare_attack", ship="hms-sample",
                                                       system="main", target="ijn-kaze", distance="10")
    one, _ = declared(sample_game(), system="secondary", distance="10")
    assert refused(one, kind="declare_attack", ship="hms-sample", system="secondary", target="ijn-kaze",
                   distance="10", full_fc=False) == "the 4 in DP battery has 1 mount: it cannot split its fire against a second target [R-7]"
    assert "already attacks" in refused(one, kind="declare_attack", ship="hms-sample", system="secondary",
                                        target="ijn-mihon", distance="10")


def test_second_battery_minus_1_on_every_gun_attack_at_that_target():
    state, first = declared(sample_game(), distance="10")
    state, second = declared(state, system="secondary", distance="10")
    assert first["odds"]["modifier"] == 3 and second["odds"]["modifier"] == 3 - 1 - 1
    result = act(state, kind="roll_attack", attack=1, table={"attack": [1, 2]})
    assert of_kind(result, "attack")[0].data["modifier"] == 2  # the first gets the −1 too once both are declared


def test_damaged_guns_fire_at_half_fc_and_disabled_guns_not_at_all():
    state = changed(sample_game(), "hms-sample", boxes=frozenset({(2, 2), (2, 3)}))  # Guns 2 of 3
    _, data = declared(state, distance="10")
    assert data["odds"]["modifier"] == 2 - 1  # ⌈4/2⌉ − 1
    state = changed(state, "hms-sample", boxes=frozenset({(2, 2), (2, 3), (2, 5)}))
    assert refused(state, kind="declare_attack", ship="hms-sample", system="main", target="ijn-mihon",
                   distance="10") == "HMS Sample's gun system is disabled: it cannot make gun attacks"


def test_concentrate_fire_within_16_plus_2_first_roll_and_no_other_system():
    state = changed(sample_game(), "hms-sample", abilities=["concentrate_fire"])
    assert refused(state, kind="declare_attack", ship="hms-sample", system="main", target="ijn-mihon",
                   distance="18") == "concentrate fire: the target is 18\" away, it must be within 16\""
    state, data = declared(state, distance="10")
    assert data["odds"]["modifier"] == 3 + 2
    assert "no other weapon system" in refused(state, kind="declare_attack", ship="hms-sample",
                                               system="torpedoes", target="ijn-mihon", distance="10")


def test_close_action_evasive_smoke_and_a_stopped_target():
    state = changed(sample_game(), "hms-sample", close_action_with=frozenset({"ijn-kaze"}))
    _, data = declared(state, target="ijn-kaze", distance="2")
    assert data["odds"]["modifier"] == 6 and data["odds"]["hit"] == "3/4"  # DV-16
    state = changed(sample_game(), "ijn-mihon", abilities=["evasive"], turns_made=2)
    assert declared(state, distance="10")[1]["odds"]["modifier"] == 3 - 2
    state = changed(state, "hms-sample", abilities=["evasive"], turns_made=1)
    assert declared(state, distance="10")[1]["odds"]["modifier"] == 3 - 2 - 1
    assert declared(sample_game(), distance="10", facts={"smoke": True})[1]["odds"]["modifier"] == 1
    state = changed(sample_game(), "ijn-mihon", speed_mode="stop")
    assert declared(state, distance="17")[1]["odds"]["hit"] == "5/6"  # DV-3


def test_out_of_arc_own_side_and_spotter():
    assert "fire arc" in refused(sample_game(), kind="declare_attack", ship="hms-sample", system="main",
                                 target="ijn-mihon", distance="10", facts={"in_arc": False})
    assert "own side" in refused(sample_game(), kind="declare_attack", ship="hms-sample", system="main",
                                 target="hms-dash", distance="10")
    _, data = declared(sample_game(), distance="30", facts={"spotter_distance": "7"})
    assert data["odds"]["modifier"] == 4  # range to hit from the spotter (003:83)
    assert "no spotter plane" in refused(sample_game(), kind="declare_attack", ship="hms-dash", system="main",
                                         target="ijn-mihon", distance="30", facts={"spotter_distance": "7"})


# --- night aids (§8.5, §8.7, §8.8) -----------------------------------------------------------------


def test_night_searchlight_cancels_the_night_modifier_for_later_attacks():
    night = sample_game(night=True)
    assert declared(night, distance="5")[1]["odds"]["modifier"] == 0  # 4 − 0 − 4
    lit = act(night, kind="searchlight", ship="hms-sample", target="ijn-mihon", distance="5").state
    assert lit.ship("ijn-mihon").illuminated and lit.ship("hms-sample").illuminated
    assert declared(lit, distance="5")[1]["odds"]["modifier"] == 4
    assert "6\"" in refused(night, kind="searchlight", ship="hms-sample", target="ijn-mihon", distance="6.5")
    assert "already used" in refused(lit, kind="searchlight", ship="hms-sample", target="ijn-kaze", distance="5")
    assert "daylight" in refused(sample_game(), kind="searchlight", ship="hms-sample", target="ijn-mihon",
                                 distance="5")


def test_star_shell_uses_the_battery_and_lights_ships():
    night = sample_game(night=True)
    result = act(night, kind="star_shell", ship="hms-sample", system="secondary",
                 table={"scatter": [1, 2, 3], "direction": [2]})
    assert of_kind(result, "star_shell")[0].data["inches"] == 6
    state = act(result.state, kind="illuminate", ships=["ijn-mihon"]).state
    assert state.ship("ijn-mihon").illuminated and state.star_shells[-1].lit == ["ijn-mihon"]
    assert "already fired" in refused(state, kind="declare_attack", ship="hms-sample", system="secondary",
                                      target="ijn-mihon", distance="5")
    assert "the star shell's scatter die 2 of 3" in refused(night, kind="star_shell", ship="hms-sample",
                                                            system="main", table={"scatter": [1]})


def test_dv11_gunnery_radar_drops_the_negatives():
    state = sample_game(night=True)
    record = state.ship("hms-sample").record
    weapons = [w.model_copy(update={"radar": 4}) if w.id == "main" else w for w in record.weapons]
    state = changed(state, "hms-sample", record=record.model_copy(update={"weapons": weapons}))
    result = act(state, kind="radar_roll", ship="hms-sample", system="main", target="ijn-mihon",
                 distance="30", table={"radar": [4, 5]})
    assert of_kind(result, "radar_roll")[0].data["modifier"] == 4 and of_kind(result, "radar_roll")[0].data["success"]
    _, data = declared(result.state, distance="30")
    assert data["odds"]["modifier"] == 4 and data["odds"]["hit"] == "5/9"
    failed = act(state, kind="radar_roll", ship="hms-sample", system="main", target="ijn-mihon",
                 distance="30", table={"radar": [6, 6]}).state
    assert declared(failed, distance="30")[1]["odds"]["modifier"] == 4 - 3 - 4
    split, _ = declared(state, distance="30")
    assert "on the first target it fires at, IJN Mihon" in refused(split, kind="radar_roll", ship="hms-sample",
                                                                    system="main", target="ijn-kaze", distance="30")
    assert "already rolled for radar" in refused(failed, kind="radar_roll", ship="hms-sample", system="main",
                                                 target="ijn-mihon", distance="30")


# --- batches (§8.1) and the end of the phase ----------------------------------------------------------


def test_batches_initiative_winner_first_one_ship_at_a_time():
    state = sample_game(initiative="Japanese")
    assert "Japanese is attacking now" in refused(state, kind="declare_attack", ship="hms-sample", system="main",
                                                  target="ijn-mihon", distance="10")
    state, _ = declared(state, ship="ijn-mihon", target="hms-sample", distance="10")
    assert "IJN Mihon is attacking now" in refused(state, kind="end_activation", ship="ijn-kaze")
    assert "not yet rolled" in refused(state, kind="end_activation")
    state = act(state, kind="roll_attack", attack=1, table={"attack": [1, 2]}).state
    result = act(state, kind="end_activation")
    assert result.state.batch.side == "Japanese" and result.state.batch.left == 2  # admiral: 3 a batch
    state = act(result.state, kind="end_activation", ship="ijn-kaze").state
    state = act(state, kind="end_activation", ship="ijn-nami").state
    assert state.batch.side == "British" and state.batch.left == 3
    options = attack_options(state, state.ship("ijn-mihon"))
    assert options.problem == "IJN Mihon has finished its attacks this turn"
    options = attack_options(state, state.ship("hms-dash"))
    assert options.problem is None and options.systems[0].targets == ["ijn-mihon", "ijn-kaze", "ijn-nami"]


def test_end_attacks_leads_to_maintenance_and_clears_the_phase_marks():
    state = act(sample_game(night=True), kind="searchlight", ship="hms-sample", target="ijn-mihon", distance="5").state
    result = act(state, kind="end_attacks")
    assert result.state.phase == "maintenance" and not result.state.ship("ijn-mihon").illuminated
    state, _ = declared(sample_game())
    assert "declared and not yet rolled" in refused(state, kind="end_attacks")
