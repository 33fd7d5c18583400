"""Converting Quick-Start cards to War Fleet stats (seed 004, "Conversion"; rules-notes 9).

Every worked example of seed 004's conversion section is a test below that
states the printed value and the computed one.  Where they differ, the test
says so and why: the app implements the formulas of rules-notes 9, which the
text's own examples break in places.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys

import pytest

from companion.engine.war_fleet.convert import (
    convert_card, convert_ranges, crew_bonus, go_mean, location_lost, prioritised_slots, working,
)
from companion.engine.war_fleet.dialup import top
from companion.engine.war_fleet.stats import load_stats
from companion.engine.cards import FormatError
from companion.files import load_catalogue, load_file, shipped_fleets_dir
from cards_for_tests import armor, card, crew, engine, gun, location, miss, other, tesla

# --- the ships of the seed's examples, as far as the text states them ------------------


@functools.lru_cache(maxsize=1)
def catalogue():
    """The shipped cards, read once for this file (146 printed cards and the Quick-Start four)."""
    return load_catalogue()


M138 = gun("138mm", short=(6, "DYellow"), long=(12, "DBlue"), breach=12)


def montpellier():
    """The printed Montpellier (a Grenouille-class Type 1 destroyer), which holds every value
    seed 004 states of it: SI 18; front: no armour, two miss slots, non-miss breach numbers 9
    and 10, Go dice DBlue; sides: two armour slots, breach numbers 9, 11 and 12 besides a miss
    slot, Go dice DYellow, a single 138mm (short DYellow, long DBlue), a DBlue crew."""
    return catalogue()["montpellier-2025"]


def pelletier_side():
    """Seed 004 "Example 2": a single 75mm gun (short DBlue, long DGreen), a DGreen crew
    (the printed Pelletier's side)."""
    return catalogue()["pelletier-2025"].locations["port"]


def ardent():
    """Seed 004 "Example 3" and "Example 4": the rear's slots carry 11 and 12 only (Go DBlue);
    the sides' slots run 12 to 15 without a gap (Go DBlack).  The War Fleet text's Ardent: the
    printed card named Ardent (a French Conquent-class Type 3) differs, so it may be another
    ship of that name (shared/reference/README.md); this card holds only what the text states."""
    stern = location([gun("6 IN", (6, "DYellow"), (12, "DBlue"), 12), engine(3, 11), engine(3, 12), crew("DGreen", 11),
                      armor(1, 12), miss()], go="DBlue", stop="DRed")
    side = location([gun("4 IN", (5, "DBlue"), (10, "DGreen"), 12), crew("DGreen", 13), armor(1, 14), armor(1, 15),
                     engine(3, 13), other(14)], go="DBlack", stop="2DRed")
    return card("ardent", ship_type=3, si=22, name="HML Ardent", stern=stern, port=side, starboard=side)


# --- New Structural Integrity ------------------------------------------------------------


def test_montpellier_si_18_becomes_9():
    """'The Montpellier normally has an SI of 18 ... the new SI is merely cut in half, making it 9.'"""
    printed, computed = 9, convert_card(montpellier()).si
    assert computed == printed


def test_si_is_halved_rounding_up():
    """'divided by 2. Round all fractions up.'"""
    assert convert_card(card(si=19)).si == 10
    assert convert_card(card(si=1)).si == 1


# --- Resilience ----------------------------------------------------------------------------


def test_montpellier_side_resilience_printed_10_computed_9():
    """'The highest breach value in the location is 12, so it would be modified to 14. The
    location Go-dice is a dYellow ... (15 - 5 = 10).'  Printed: 10.  The text's own formula
    gives 12 + 2 armour = 14, minus the DYellow mean 4.5 rounded up = 5: 9.  The printed
    sum starts from 15, not the 14 it just computed.  The app computes 9 (rules-notes 9)."""
    printed = 10
    side = montpellier().locations["starboard"]
    assert go_mean(side) == 5
    computed = convert_card(montpellier()).locations["starboard"].resilience
    assert computed == 14 - 5 == 9
    assert computed != printed


def test_montpellier_front_resilience_printed_6_computed_6():
    """'the Front of the ship has no armor slots, turning its highest non-miss breach value of 10
    into 10. With its location go-dice of blue having an average result of 4, the new breach
    value for the front is 6.'  (DBlue's mean is 3.5, rounded up 4.)"""
    printed, computed = 6, convert_card(montpellier()).locations["bow"].resilience
    assert computed == printed


def test_resilience_ignores_miss_slots_and_is_at_least_2():
    """'ignoring the values for any miss slots' and 'Should the final result be less than 2,
    then it becomes 2. There is always a chance for failure.'"""
    low = location([gun(breach=3), other(2), other(3), other(2), other(3), {"kind": "miss", "breach": 20}],
                   go="DBlack")
    stats = convert_card(card(bow=low)).locations["bow"]
    assert stats.resilience == 2  # 3 - 7 would be -4
    assert stats.destroyed_resilience == 2


# --- Attack values -------------------------------------------------------------------------


def test_montpellier_138mm_printed_black_and_red_computed_black_and_red():
    """'The Crew die available is a dBlue, with a top-end result of 6, which averages out to an
    even result of 4. ... (4 + 6 = 10 & 4 + 8 = 12) The new dice would be a dBlack for short and
    a dRed for long.'  Printed sums: 10 and 12.  DBlue's mean is 3.5 (rules-notes 1), rounded
    down 3, so the computed sums are 9 and 11; the first dice reaching them are the same:
    DRed (top 10) and DBlack (top 12)."""
    side = montpellier().locations["starboard"]
    assert crew_bonus(side) == 3  # printed: 4
    attack = convert_card(montpellier()).locations["starboard"].attack
    assert (6 + 3, 8 + 3) == (9, 11)  # computed sums; printed 10 and 12
    assert (attack.short.dice, attack.long.dice) == ("DBlack", "DRed")  # printed: dBlack, dRed


def test_pelletier_75mm_printed_yellow_and_blue_computed_yellow_and_blue():
    """'the dGreen crew die is averaged, resulting in 2.5, rounding down to 2, which is added to a
    top-end of 6 and 4 to get 8 and 6, respectively. The new short range die is a dYellow, and
    the new long range die is a dBlue.'"""
    side = pelletier_side()
    pelletier = card("pelletier", ship_type=1, port=side, starboard=side)
    assert crew_bonus(pelletier.locations["port"]) == 2
    attack = convert_card(pelletier).locations["port"].attack
    assert (attack.short.dice, attack.long.dice) == ("DYellow", "DBlue")


def test_without_crew_the_dice_are_unchanged():
    """'If it has none, then the attack dice won't be modified.'"""
    bow = location([gun("3 IN", (4, "DBlue"), (8, "DGreen"), 11)] + [other(12)] * 5)
    attack = convert_card(card(bow=bow)).locations["bow"].attack
    assert (attack.short.dice, attack.long.dice) == ("DBlue", "DGreen")


def test_crew_that_pushes_past_black_adds_a_die():
    """rules-notes 9: the first dial-up step whose top reaches the sum; past DBlack (12) that is
    DBlack & DGreen (16).  A DRed gun (10) with a DBlue crew (+3) reaches 13."""
    bow = location([gun("12 IN", (8, "DRed"), (16, "DYellow"), 14), crew("DBlue", 13)] + [other(12)] * 4)
    attack = convert_card(card(bow=bow)).locations["bow"].attack
    assert attack.short.dice == "DBlack & DGreen" and top(attack.short.pool) == 16
    assert attack.long.dice == "DBlack"


def test_several_crews_use_the_best_and_several_guns_the_best():
    """'for the highest if there's more than one' (crew); rules-notes 9: 'Several guns in a
    location: use the best gun.'"""
    port = location([gun("3 IN", (4, "DBlue"), (8, "DGreen"), 11), crew("DGreen", 12),
                     gun("5 IN", (5, "DYellow"), (10, "DBlue"), 13), crew("DBlue", 12), other(12), other(12)])
    attack = convert_card(card(port=port)).locations["port"].attack
    assert attack.name == "5 IN"
    assert (attack.short.dice, attack.long.dice) == ("DBlack", "DRed")  # 8 + 3, 6 + 3


def test_a_location_without_a_gun_has_no_attack():
    bow = location([crew("DGreen", 12)] + [other(12)] * 5)
    assert convert_card(card(bow=bow)).locations["bow"].attack is None


def test_traits_are_kept():
    """'Any gun with the Saturation Fire, Bracket Fire, and Turret Icons keep the trait.'"""
    traited = dict(gun("12 IN", (8, "DRed"), (16, "DYellow"), 14), traits=["turret", "bracket"], saturation=2)
    bow = location([traited] + [other(12)] * 5)
    attack = convert_card(card(bow=bow)).locations["bow"].attack
    assert attack.turret and attack.bracket and attack.boxes == 2
    assert set(attack.traits) == {"turret", "bracket", "saturation"}


# --- Ranges -------------------------------------------------------------------------------


def test_the_common_4_8_gun_printed_0_1_computed_0_1():
    """'the most common guns have short and long ranges of 4 and 8. Both, divided by 6 and
    rounding, will result in 1 ... the standard gun would have a short of 0 and a long of 1.'"""
    assert convert_ranges(4, 8) == (0, 1)


def test_hml_leviathan_12_inch_printed_long_3_computed_1_3():
    """'short:long ranges of 8:16 ... With a round normally clause, the long range (2 & 2/3)
    rounds up to 3, giving it a significant difference over its 6 inchers.'  (The short range
    8/6 rounds to 1.)"""
    printed_long, (short, computed_long) = 3, convert_ranges(8, 16)
    assert computed_long == printed_long and short == 1


def test_hml_leviathan_6_inch_printed_1_2_computed_1_2():
    """'her 6 in side guns with normal Leviathans ranges of 6 and 12' give 1:2."""
    assert convert_ranges(6, 12) == (1, 2)


@pytest.mark.parametrize("short, long, expected", [
    (3, 6, (0, 1)),   # a half rounds up: 3/6 -> 1 ties with 6/6 -> 1: the short gets 0
    (5, 10, (1, 2)),
    (9, 18, (2, 3)),
    (1, 2, (0, 0)),   # both 0: the long keeps it, the short cannot go below 0
])
def test_ranges_round_to_nearest_and_favour_the_long_range(short, long, expected):
    assert convert_ranges(short, long) == expected


# --- Destroyed location stats ----------------------------------------------------------------


def test_montpellier_side_destroyed_printed_6_computed_6():
    """'Even ignoring the miss slot's breach value, 11 is the middle value between 9 and 12, and
    thus the new, final breach value will be 6.'  (11 - DYellow 5.)"""
    printed, computed = 6, convert_card(montpellier()).locations["port"].destroyed_resilience
    assert computed == printed


def test_ardent_rear_destroyed_printed_7_computed_7():
    """'The Ardent's rear has two breach values in all its slots: 11 and 12. ... 11 is the
    starting point ... Subtracting the dBlue go-dice value of 4 ... 7.'"""
    printed, computed = 7, convert_card(ardent()).locations["stern"].destroyed_resilience
    assert computed == printed


def test_ardent_side_destroyed_printed_6_computed_6():
    """'slots ranging from 12 all the way to 15 ... The new reference value would be 13.
    Subtracting the dBlack go-dice average of 7 will result in a new breach value of 6.'"""
    printed, computed = 6, convert_card(ardent()).locations["starboard"].destroyed_resilience
    assert computed == printed


def test_montpellier_front_destroyed_printed_5_computed_5():
    """'Since the highest slot in that location is 10, and the lowest 9, once the location is
    destroyed, 9 is the basis ... Subtracting the dBlue go-dice average value of 4, the final
    breach for the destroyed location is 5.'"""
    printed, computed = 5, convert_card(montpellier()).locations["bow"].destroyed_resilience
    assert computed == printed


def test_si_modifier_is_slot_count_halved_rounding_up():
    """'The number of slots a ship has in a location divided by 2 and rounding up' (miss slots
    count): six slots give 3."""
    stats = convert_card(montpellier())
    assert {loc.si_modifier for loc in stats.locations.values()} == {3}


def test_mp_is_unchanged():
    """'With scale in mind, a Ships MP is unchanged.'  (The printed Montpellier: 3 + 3 + 4.)"""
    assert convert_card(montpellier()).mp == montpellier().starting_mp == 10


# --- any card, the models, the command line ---------------------------------------------------


@pytest.mark.parametrize("card_id", sorted(catalogue()))
def test_every_shipped_card_converts(card_id):
    the_card = catalogue()[card_id]
    stats = convert_card(the_card)
    assert stats.ship_class == the_card.type
    assert set(stats.locations) == set(the_card.locations)
    assert all(loc.resilience >= 2 and loc.destroyed_resilience >= 2 for loc in stats.locations.values())
    assert load_stats(stats.dump()) == stats  # the stats round-trip through JSON


def test_the_scenario_cards_convert_including_a_type_4():
    """Seed 004: the Leviathan's two turret-mounted 12 inch bow guns, ranges 8:16 (1 and 3 War
    Fleet hexes); the printed HML Leviathan: SI 33, MP 4, and no bracket mark."""
    scenario = load_file(shipped_fleets_dir() / "war-fleet-20v20.json")
    leviathan = catalogue()[next(s.card for s in scenario.ships if s.id == "hml-leviathan")]
    stats = convert_card(leviathan)
    assert len(stats.locations) == 6 and (stats.si, stats.mp) == (17, 4)
    bow = stats.locations["bow"].attack
    assert (bow.short.range, bow.long.range) == (1, 3) and bow.turret and not bow.bracket


def test_stats_with_a_mixed_set_of_locations_are_refused():
    data = convert_card(montpellier()).dump()
    data["locations"]["port_bow"] = data["locations"].pop("port")
    with pytest.raises(FormatError, match="locations"):
        load_stats(data)


def test_stats_refuse_a_d6_attack():
    data = convert_card(montpellier()).dump()
    data["locations"]["bow"]["attack"]["short"]["dice"] = "D6"
    with pytest.raises(FormatError, match="not a coloured die"):
        load_stats(data)


def test_working_explains_every_number():
    lines = [line for step in working(montpellier()) for line in step.lines()]
    assert "resilience 9 = highest breach 12 + armour 2 - DYellow mean rounded up 5" in lines
    assert "short: DYellow top 8 + 3 = 11 -> DBlack; range 6 / 6 -> 1" in lines


def test_the_slots_the_conversion_prioritised():
    side = montpellier().locations["port"]
    assert prioritised_slots(side) == {"resilience": (5, 6), "attack": (3,)}  # breach 12: both armour; the 138mm
    assert location_lost(side, {3}) is True       # the gun gone
    assert location_lost(side, {5}) is False      # one of the two breach-12 slots
    assert location_lost(side, {5, 6}) is True    # both
    assert location_lost(side, {2, 4}) is False


def run(*args):
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True)


def test_cli_convert_json_has_the_formats_md_shape():
    done = run("convert", "pelletier", "--to", "war-fleet", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["si"] == 10 and data["mp"] == 12  # the printed Pelletier: SI 19, MP 4 + 4 + 4
    bow = data["locations"]["bow"]
    assert set(bow) >= {"resilience", "destroyed_resilience", "si_modifier", "attack"}
    assert bow["attack"]["short"] == {"range": 0, "dice": "DYellow"}
    assert bow["attack"]["long"] == {"range": 1, "dice": "DBlue"}
    assert bow["attack"]["traits"] == ["turret"]  # the printed bow 75mm: ▲T


def test_cli_convert_a_card_file_and_a_fleet_file(tmp_path):
    path = tmp_path / "montpellier.json"
    path.write_text(json.dumps(montpellier().dump()))
    done = run("convert", str(path), "--to", "war-fleet")
    assert done.returncode == 0, done.stderr
    assert "Montpellier (War Fleet): class 1, SI 9" in done.stdout
    fleet = run("convert", str(shipped_fleets_dir() / "quick-start-french.json"), "--to", "war-fleet", "--json")
    assert [s["card"] for s in json.loads(fleet.stdout)] == ["pontbriand", "pelletier"]


def test_cli_convert_a_null_attack_and_bad_input():
    bow = location([crew("DGreen", 12)] + [other(12)] * 5)
    assert convert_card(card(bow=bow)).as_json()["locations"]["bow"]["attack"] is None
    unknown = run("convert", "no-such-card", "--to", "war-fleet")
    assert unknown.returncode == 1 and unknown.stderr.startswith("error: no card 'no-such-card'")
    assert "Traceback" not in unknown.stderr
    wrong = run("convert", "pelletier", "--to", "quick-start")
    assert wrong.returncode == 2 and "invalid choice" in wrong.stderr
