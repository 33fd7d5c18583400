"""War Fleet combat (seed 000/004 "All Batteries, Fire at Will!"; rules-notes 9): dice by
band, saturation, bracket fire, turrets, dial-up, SI tests, rear destruction, casualties,
and the exact odds of every attack, checked against a plain enumeration of every die."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.engine.dice import Colour, Pool, distribution, parse_pool
from companion.engine.war_fleet import apply
from companion.engine.war_fleet.actions import (
    DeclareAttack, EndCombat, RollAttack, Step, TableRollFaces,
)
from companion.engine.war_fleet.combat import attack_odds, attack_option, attack_options
from companion.engine.war_fleet.dialup import dial_up, ladder_step, smallest_reaching
from warfleet_for_tests import attack, loc, stats, table, warship

RED = distribution(Pool([Colour.RED]))


def brute_odds(pool: Pool, rolls: int, intact: int, destroyed_res: int, destroyed: bool, si: int, modifier: int):
    """(no hit, location destroyed, casualty) by walking every face of every die, roll by roll,
    as the text reads: each roll that reaches the Resilience destroys the location (or hits the
    destroyed one) and forces an SI test, dRed + modifier >= SI is a casualty."""
    dist = distribution(pool)
    result = {"no_hit": Fraction(0), "destroyed": Fraction(0), "casualty": Fraction(0)}

    def walk(k, is_destroyed, newly, hit, chance):
        if k == rolls:
            result["no_hit"] += chance if not hit else 0
            result["destroyed"] += chance if newly else 0
            return
        for total, p in dist.items():
            if total < (destroyed_res if is_destroyed else intact):
                walk(k + 1, is_destroyed, newly, hit, chance * p)
                continue
            now_newly = newly or not is_destroyed
            for face, q in RED.items():
                if face + modifier >= si:
                    result["casualty"] += chance * p * q
                    result["destroyed"] += chance * p * q if now_newly else 0
                else:
                    walk(k + 1, True, now_newly, True, chance * p * q)

    walk(0, destroyed, False, False, Fraction(1))
    return result["no_hit"], result["destroyed"], result["casualty"]


def duel(attacker_stats=None, target_stats=None, target_hex="1009", target_facing="S", **target):
    """An attacker at 1010 facing north; the target one hex ahead, facing it (its bow is struck)."""
    a = warship("a", "British", attacker_stats or stats(
        "Attacker", bow=loc(gun=attack((1, "DYellow"), (2, "DBlue"), name="6 IN"))))
    t = warship("t", "French", target_stats or stats("Target", si=9), target_hex, target_facing, **target)
    return table(a, t)


def roll(state, attack_id, faces=(), si=()):
    table_faces = TableRollFaces(attack=list(faces), si=list(si))
    outcome = apply(state, RollAttack(attack=attack_id, table=table_faces))
    assert outcome.ok, getattr(outcome, "reason", "")
    return outcome


def declare(state, *locations, attacker="a", target="t", where=None):
    outcome = apply(state, DeclareAttack(attacker=attacker, locations=list(locations), target=target,
                                         target_location=where))
    assert outcome.ok, getattr(outcome, "reason", "")
    return outcome.state


# --- dice by band ---------------------------------------------------------------------


@pytest.mark.parametrize("hex_, band, dice", [("1009", "short", "DYellow"), ("1008", "long", "DBlue")])
def test_the_dice_of_the_range_band(hex_, band, dice):
    """'The range and color on the left is the short range value and die ... on the right is the
    long range value and die.'"""
    option = attack_option(duel(target_hex=hex_), *_pair(duel(target_hex=hex_)), )
    assert option.possible and option.bands == {"bow": band} and option.pool == parse_pool(dice)


def _pair(state):
    return state.ship("a"), ("bow",), state.ship("t")


def test_beyond_long_range_no_attack_with_the_reason():
    """'Attacks can be made at targets beyond the long range value, they just won't get attack
    dice ... an automatic miss.'  The app lists it with the reason instead."""
    state = duel(target_hex="1007")
    option = attack_option(state, *_pair(state))
    assert not option.possible and "3 hexes away, beyond the bow 6 IN's range of 2" in option.problem


def test_a_location_without_an_attack_cannot_attack():
    state = duel()
    option = attack_option(state, state.ship("a"), ("stern",), state.ship("t"))
    assert option.problem == "the stern of Attacker has no attack"


def test_one_attack_per_location_per_turn():
    """'Each ship may only make one attack per location for each weapon listed.'"""
    state = declare(duel(), "bow")
    again = apply(state, DeclareAttack(attacker="a", locations=["bow"], target="t"))
    assert not again.ok and "already declared its attack" in again.reason
    assert attack_options(state, "a") == []


# --- exact odds -----------------------------------------------------------------------------


@pytest.mark.parametrize("pool, rolls, intact, destroyed_res, destroyed, si, bow_modifier, others", [
    ("DYellow", 1, 6, 5, False, 9, 3, []),
    ("DBlack", 2, 9, 6, False, 10, 3, []),
    ("DBlack & DGreen", 3, 12, 7, False, 11, 2, ["port"]),
    ("DRed", 2, 8, 4, True, 9, 3, ["stern"]),
    ("DBlue", 1, 2, 2, False, 12, 0, []),
])
def test_exact_odds_match_a_plain_enumeration(pool, rolls, intact, destroyed_res, destroyed, si, bow_modifier, others):
    locations = {"bow": loc(intact, destroyed_res, bow_modifier)}
    gone = others + (["bow"] if destroyed else [])
    target = warship("t", "French", stats("T", si=si, **locations), destroyed=gone)
    odds = attack_odds(parse_pool(pool), rolls, target, "bow")
    modifier = 2 * bow_modifier + 3 * len(others)  # the other locations' modifier is 3
    assert odds.si_modifier == modifier
    assert (odds.no_effect, odds.location_destroyed, odds.casualty) == brute_odds(
        parse_pool(pool), rolls, intact, destroyed_res, destroyed, si, modifier)


def test_odds_of_a_simple_attack_by_hand():
    """DYellow against Resilience 6: faces 6, 7, 7, 8 of twelve = 1/3; then the SI test, dRed +
    2 x 3 against SI 9 fails on a red 3 or more: 10 faces of 12.  Casualty 1/3 x 10/12 = 5/18."""
    state = duel(target_stats=stats("T", si=9, bow=loc(6, 4, 3)))
    option = attack_option(state, *_pair(state))
    odds = option.strike("bow").odds
    assert odds.location_destroyed == Fraction(1, 3)
    assert odds.casualty == Fraction(5, 18)
    assert odds.no_effect == Fraction(2, 3)


# --- saturation -------------------------------------------------------------------------------


def test_saturation_boxes_roll_extra_separate_dice():
    """'For Each box shown next to the weapon, a player may roll an additional die matching the
    one being used. These are not added together, but are instead counted as separate hits.'"""
    gun = attack((1, "DYellow"), (2, "DBlue"), traits=["saturation"], saturation=2, name="138mm")
    state = duel(attacker_stats=stats("A", bow=loc(gun=gun)), target_stats=stats("T", si=12, bow=loc(7, 4, 1)))
    option = attack_option(state, *_pair(state))
    assert option.rolls == 3 and option.pool == parse_pool("DYellow")
    assert option.strike("bow").odds.no_effect == (1 - Fraction(3, 12)) ** 3  # 7, 7, 8 of twelve reach 7
    state = declare(state, "bow")
    # 3 misses (not added: 3 + 3 + 3 = 9 would beat 7), then 7 destroys, then 5 hits the destroyed bow
    done = roll(state, 1, faces=[3, 7, 5], si=[1, 1])
    rolls = done.state.attacks[0].result.rolls
    assert [r.effect for r in rolls] == ["miss", "location_destroyed", "destroyed_location_hit"]
    assert [r.resilience for r in rolls] == [7, 7, 4]
    assert [r.si_test.modifier for r in rolls[1:]] == [2, 2]
    assert done.state.ship("t").is_destroyed("bow") and not done.state.ship("t").casualty


def test_saturation_dice_take_the_dialled_up_die():
    """'roll extra dice matching the one in the attack (after it has been dialed)'."""
    gun = attack((1, "DYellow"), (2, "DBlue"), traits=["saturation"], saturation=1)
    state = duel(attacker_stats=stats("A", bow=loc(gun=gun)), target_stats=stats("T"), target_facing="N",
                 destroyed=["stern"])
    option = attack_option(state, *_pair(state))
    assert option.strikes[0].location == "stern"
    assert option.pool == parse_pool("DRed") and option.rolls == 2


# --- bracket fire ------------------------------------------------------------------------------


def bracket_ship(names=("6 IN", "6 IN", "6 IN"), traits=("turret", "bracket"), short=(1, "DYellow")):
    bow, port, starboard = (attack(short, (2, "DBlue"), traits=traits, name=n) for n in names)
    return stats("Bracketeer", bow=loc(gun=bow), port=loc(gun=port), starboard=loc(gun=starboard))


def test_bracket_fire_rolls_once_dialled_up_per_extra_gun():
    """'the player rolls one attack, basing it off the die for one gun, and dialing it up a color
    for each extra gun participating.'  Turrets let the side guns reach a target dead ahead."""
    state = duel(attacker_stats=bracket_ship())
    a, t = state.ship("a"), state.ship("t")
    two = attack_option(state, a, ("bow", "starboard"), t)
    three = attack_option(state, a, ("bow", "starboard", "port"), t)
    assert two.reach == {"bow": "arc", "starboard": "turret"}
    assert two.pool == parse_pool("DRed") and two.rolls == 1 and two.dial_ups == (("bracket fire", 1),)
    assert three.pool == parse_pool("DBlack")
    listed = {o.locations for o in attack_options(state, "a")}
    assert {("bow",), ("port",), ("starboard",), ("bow", "port"), ("bow", "starboard"), ("port", "starboard"),
            ("bow", "port", "starboard")} == listed


def test_bracket_fire_needs_the_trait_and_one_gun_name():
    """'all guns participating must share the same name'."""
    state = duel(attacker_stats=bracket_ship(names=("6 IN", "4 IN", "6 IN")))
    a, t = state.ship("a"), state.ship("t")
    assert attack_option(state, a, ("bow", "port"), t).problem == "bracket fire joins guns of the same name only"
    plain = duel(attacker_stats=bracket_ship(traits=("turret",)))
    assert "no bracket fire trait" in attack_option(plain, plain.ship("a"), ("bow", "port"), plain.ship("t")).problem


def test_a_bracket_is_one_attack_of_each_gun():
    state = declare(duel(attacker_stats=bracket_ship()), "bow", "starboard")
    done = roll(state, 1, faces=[1])
    assert done.state.attacks[0].result.pool == "DRed"
    late = apply(done.state, DeclareAttack(attacker="a", locations=["port"], target="t"))
    assert not late.ok and "before any roll" in late.reason


# --- dial-up -------------------------------------------------------------------------------------


def test_the_dial_up_ladder_past_black():
    """'Once you reach a dBlack, or if you start there, the next step is to add another die,
    starting at the lowest end of the progression, or dGreen.'"""
    ladder = [ladder_step(n).notation for n in range(11)]
    assert ladder == ["DGreen", "DBlue", "DYellow", "DRed", "DBlack", "DBlack & DGreen", "DBlack & DBlue",
                      "DBlack & DYellow", "DBlack & DRed", "2DBlack", "2DBlack & DGreen"]
    assert dial_up("DBlack").notation == "DBlack & DGreen"
    assert dial_up("DRed", 3).notation == "DBlack & DBlue"
    assert smallest_reaching(13).notation == "DBlack & DGreen"


def test_dial_up_past_black_in_an_attack():
    """A DBlack bracket of two at a ship whose rear is destroyed: two steps, DBlack & DBlue, one
    roll whose dice are added together."""
    state = duel(attacker_stats=bracket_ship(short=(1, "DBlack")), target_facing="N", destroyed=["stern"])
    option = attack_option(state, state.ship("a"), ("bow", "starboard"), state.ship("t"))
    assert option.pool == parse_pool("DBlack & DBlue")
    assert option.dial_ups == (("bracket fire", 1), ("target's rear destroyed", 1))
    state = declare(state, "bow", "starboard")
    done = roll(state, 1, faces=[2, 3], si=[1])  # 2 + 3 = 5 reaches the destroyed stern's 5
    first = done.state.attacks[0].result.rolls[0]
    assert first.total == 5 and first.effect == "destroyed_location_hit"


# --- SI tests ----------------------------------------------------------------------------------


def test_the_forcing_locations_si_modifier_is_doubled():
    """'add all SI modifiers from all destroyed locations ... For SI tests forced from a destroyed
    location, its SI modifier is doubled.'  Port already destroyed (3), bow destroyed now (3,
    doubled): 3 + 6 = 9.  A red 1 makes 10 against SI 10: a casualty; undoubled (7) it would hold."""
    state = duel(target_stats=stats("T", si=10, bow=loc(6, 4, 3), port=loc(8, 5, 3)), destroyed=["port"])
    assert state.ship("t").si_test_modifier("bow") == 9
    state = declare(state, "bow")
    done = roll(state, 1, faces=[6], si=[1])
    test = done.state.attacks[0].result.rolls[0].si_test
    assert (test.die.face, test.modifier, test.total, test.si, test.casualty) == (1, 9, 10, 10, True)
    assert done.state.ship("t").casualty


def test_a_hit_on_a_destroyed_location_forces_an_si_test():
    """'If the ship survives, any further hits to the destroyed location will also force SI tests'
    - against the destroyed Resilience."""
    state = duel(target_stats=stats("T", si=12, bow=loc(8, 3, 2)), destroyed=["bow"])
    state = declare(state, "bow")
    done = roll(state, 1, faces=[3], si=[7])
    r = done.state.attacks[0].result.rolls[0]
    assert (r.resilience, r.effect, r.si_test.modifier, r.si_test.total) == (3, "destroyed_location_hit", 4, 11)
    assert not done.state.ship("t").casualty
    assert not done.state.attacks[0].result.location_destroyed


def test_a_miss_forces_no_si_test():
    state = declare(duel(target_stats=stats("T", bow=loc(8, 3, 2))), "bow")
    done = roll(state, 1, faces=[7])
    assert done.state.attacks[0].result.rolls[0].si_test is None


def test_a_missing_si_die_is_asked_for():
    state = declare(duel(target_stats=stats("T", bow=loc(6, 3, 2))), "bow")
    asked = apply(state, RollAttack(attack=1, table=TableRollFaces(attack=[8])))
    assert not asked.ok and "SI test needs its red die" in asked.reason


# --- rear destruction ------------------------------------------------------------------------------


def test_rear_destroyed_means_mp_0_and_every_attack_dials_up():
    """'Once the rear location is destroyed ... The new MP value ... becomes zero. When this
    happens, all attacks against this ship Dial Up their dice before being rolled.'"""
    state = duel(target_facing="N", target_stats=stats("T", si=20, mp=6, stern=loc(7, 4, 2)))
    assert attack_option(state, *_pair(state)).pool == parse_pool("DYellow")
    state = declare(state, "bow")
    done = roll(state, 1, faces=[7], si=[1])
    target = done.state.ship("t")
    assert target.rear_destroyed and target.mp == 0
    later = done.state.model_copy(update={"attacks": [], "firing": False})
    assert attack_option(later, *_pair(later)).pool == parse_pool("DRed")
    moving = later.model_copy(update={"phase": "movement", "initiative_order": ["British", "French"]})
    moving = moving.with_ship(moving.ship("a").model_copy(update={"move_done": True}))
    refused = apply(moving, Step(ship="t", step="forward"))
    assert not refused.ok and "rear is destroyed: MP 0" in refused.reason


# --- casualties ---------------------------------------------------------------------------------------


def test_casualties_fire_their_declared_shots_and_leave_at_the_end_of_combat():
    """'since damage doesn't apply until the end of combat, if the destroyed vessel still has
    shots to resolve, it gets to finish them. It resolves its attacks under the damage conditions
    from which it ended the movement phase.'  Two ships sink each other."""
    gun = attack((1, "DYellow"), (2, "DBlue"), name="gun")
    a = warship("a", "British", stats("A", si=9, bow=loc(6, 4, 3, gun)), "1010", "N")
    b = warship("b", "French", stats("B", si=9, bow=loc(6, 4, 3, gun)), "1009", "S")
    state = table(a, b)
    state = declare(state, "bow", attacker="a", target="b")
    state = declare(state, "bow", attacker="b", target="a")
    state = roll(state, 1, faces=[8], si=[10]).state
    assert state.ship("b").casualty and state.ship("b").is_destroyed("bow")
    assert state.ship("b").fires("bow")  # destroyed this combat: still fires its declared attack
    state = roll(state, 2, faces=[8], si=[10]).state
    assert state.ship("a").casualty
    ended = apply(state, EndCombat())
    assert ended.ok
    assert all(s.removed for s in ended.state.ships)
    assert [e.kind for e in ended.events].count("ship_destroyed") == 2
    assert ended.state.ship("a").destroyed == {"bow": "destroyed"}


def test_an_attack_at_a_ship_already_a_casualty_rolls_nothing():
    gun = attack((1, "DYellow"), (2, "DBlue"))
    a = warship("a", "British", stats("A", bow=loc(gun=gun)), "1010", "N")
    c = warship("c", "British", stats("C", bow=loc(gun=gun)), "1011", "N")
    t = warship("t", "French", stats("T", si=2, bow=loc(2, 2, 1)), "1009", "S")
    state = declare(declare(table(a, c, t), "bow"), "bow", attacker="c", where="bow")
    state = roll(state, 1, faces=[4], si=[1]).state
    assert state.ship("t").casualty
    done = roll(state, 2)
    assert done.state.attacks[1].result.rolls == [] and "already a casualty" in done.state.attacks[1].result.text


def test_rolled_dice_come_from_the_seeded_roller_and_replay():
    state = declare(duel(), "bow")
    one = apply(state, RollAttack(attack=1))
    two = apply(state, RollAttack(attack=1))
    assert one.ok and one.state == two.state
    assert one.state.roller.counter > state.roller.counter
