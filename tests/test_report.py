"""The after-action report (issue 17, engine/report.py): every roll's mid-rank percentile equals a
brute-force count of its pool's faces, expected damage equals the shots' exact odds, the counts
(shots per gun, slots, keels, ships lost) equal the game's own events; War Fleet too."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from companion.engine.quick_start.combat import firing_solution
from companion.engine.dice import FACES, Pool, parse_pool
from companion.engine.quick_start.ruleset import QUICK_START
from companion.engine.report import after_action_report, percentile
from companion.engine.roller import Roller
from companion.engine.registry import find_ruleset
from companion.engine.quick_start.scenario import load_scenario
from companion.files import load_catalogue
from helpers.ten_turns import QUICK_START_SCENARIO, options_log
from random_games import close_battle

SEED = 5  # ten turns, a French ship lost to a broken keel


def brute_percentile(pool: Pool, total: int) -> Fraction:
    """P(X < x) + P(X = x) / 2, counted over every face of every die."""
    below = equal = count = 0
    for faces in itertools.product(*(FACES[c] for c in pool)):
        count += 1
        below += sum(faces) < total
        equal += sum(faces) == total
    return Fraction(2 * below + equal, 2 * count)


@pytest.fixture(scope="module")
def ten_turns():
    initial = QUICK_START.build_state(load_scenario(QUICK_START_SCENARIO), load_catalogue([]), Roller.from_seed(SEED))
    log = options_log(initial, SEED)
    return initial, log, after_action_report(QUICK_START, initial, log)


@pytest.mark.parametrize("pool, total, expected", [
    ("D6", 1, Fraction(1, 12)), ("D6", 6, Fraction(11, 12)), ("DBlack", 6, Fraction(11, 24)),
    ("2DRed", 11, Fraction(1, 2)),  # 2DRed is symmetric about 11
    ("DGreen", 1, Fraction(1, 8)), ("DGreen", 4, Fraction(7, 8)),
])
def test_a_percentile_is_the_mid_rank_of_the_total(pool, total, expected):
    assert percentile(parse_pool(pool), total) == expected == brute_percentile(parse_pool(pool), total)


@pytest.mark.parametrize("pool", ["DYellow & DGreen & DBlack", "2DRed", "DBlue & DBlue & DRed", "DRed & DBlack & 2DGreen"])
def test_every_total_of_a_pool_has_the_brute_force_percentile(pool):
    dice = parse_pool(pool)
    lowest, highest = sum(min(FACES[c]) for c in dice), sum(max(FACES[c]) for c in dice)
    for total in range(lowest, highest + 1):
        assert percentile(dice, total) == brute_percentile(dice, total)


def test_a_total_the_pool_cannot_roll_is_refused_in_words():
    with pytest.raises(ValueError, match="cannot total 25"):
        percentile(parse_pool("2DRed"), 25)


def test_the_ten_turn_game_has_ten_turns_and_rolls_of_both_sides(ten_turns):
    _, log, report = ten_turns
    assert report.turns == list(range(1, 11))
    assert [s.side for s in report.sides] == ["British", "French"]
    assert all(len(side.rolls) > 10 for side in report.sides)
    assert {r.what for side in report.sides for r in side.rolls} == {"initiative", "breach", "keel"}


def test_every_roll_of_the_game_has_its_brute_force_percentile(ten_turns):
    for side in ten_turns[2].sides:
        for roll in side.rolls:
            assert roll.percentile == brute_percentile(parse_pool(roll.pool), roll.total)


def test_the_rolls_are_the_games_dice_initiative_breach_and_keel(ten_turns):
    initial, log, report = ten_turns
    state, expected = initial, {"British": [], "French": []}
    for action in log:
        outcome = QUICK_START.apply(state, action)
        for event in outcome.events:
            if event.kind in ("initiative", "initiative_tie"):
                for roll in event.data["rolls"]:
                    expected[roll["side"]].append(sum(d["face"] for d in roll["dice"]))
            if event.kind == "shot":
                side = state.ship(next(s for s in state.shots if s.id == event.data["shot"]).attacker).side
                expected[side].append(sum(d["face"] for d in event.data["result"]["pool"]))
                if event.data["result"]["keel_dice"]:
                    expected[side].append(sum(d["face"] for d in event.data["result"]["keel_dice"]))
        state = outcome.state
    assert {s.side: [r.total for r in s.rolls] for s in report.sides} == expected


def test_the_luck_line_is_the_mean_percentile_by_turn_and_so_far(ten_turns):
    for side in ten_turns[2].sides:
        so_far: list[Fraction] = []
        for point in side.luck:
            this = [r.percentile for r in side.rolls if r.turn == point.turn]
            so_far += this
            assert point.rolls == len(this)
            assert point.mean == (sum(this) / len(this) if this else None)
            assert point.running == sum(so_far) / len(so_far)
        assert side.mean_percentile == side.luck[-1].running


def test_expected_damage_equals_each_shots_exact_odds_as_declared(ten_turns):
    initial, log, report = ten_turns
    state, odds = initial, []
    for action in log:
        if action["kind"] == "resolve_shot":
            shot = next(s for s in state.shots if s.id == action["shot"])
            attacker, target = state.ship(shot.attacker), state.ship(shot.target)
            strike = firing_solution(attacker, shot.location, shot.slot, target).strike(shot.target_location)
            odds.append((sum(strike.odds.slot_destroyed.values()), strike.odds.keel_break))
        state = QUICK_START.apply(state, action).state
    shots = sorted((s for side in report.sides for s in side.shots), key=lambda s: (s.turn,))
    assert len(shots) == len(odds) > 30
    assert sorted((s.slots_expected, s.keel_expected) for s in shots) == sorted(odds)
    for side in report.sides:
        assert side.slots_expected == sum(s.slots_expected for s in side.shots)
        assert side.keel_expected == sum(s.keel_expected for s in side.shots)
        assert all(isinstance(s.slots_expected, Fraction) for s in side.shots)


def test_slots_keels_guns_and_ships_lost_are_counted_from_the_events(ten_turns):
    initial, log, report = ten_turns
    state = initial
    slots = {"British": 0, "French": 0}
    keels = dict(slots)
    lost: dict[str, dict[int, list[str]]] = {"British": {}, "French": {}}
    for action in log:
        outcome = QUICK_START.apply(state, action)
        for event in outcome.events:
            if event.kind in ("slot_destroyed", "keel_break"):  # the firing side's
                shot = next(s for s in state.shots if s.id == action["shot"])
                (slots if event.kind == "slot_destroyed" else keels)[state.ship(shot.attacker).side] += 1
            if event.kind == "ship_destroyed":
                ship = state.ship(event.data["ship"])
                lost[ship.side].setdefault(state.turn, []).append(ship.card.name)
        state = outcome.state
    resolved = sum(a["kind"] == "resolve_shot" for a in log)
    assert sum(g.shots for side in report.sides for g in side.guns) == resolved
    for side in report.sides:
        assert side.slots_destroyed == slots[side.side] == sum(g.slots_destroyed for g in side.guns)
        assert side.keel_breaks == keels[side.side] == sum(g.keel_breaks for g in side.guns)
        assert {p.turn: p.ships for p in side.lost if p.ships} == lost[side.side]
        assert side.lost[-1].total == sum(len(v) for v in lost[side.side].values())
    # seed 5: the French lose a ship (its keel broken by the British)
    assert [side.lost[-1].total for side in report.sides] == [0, 1]
    assert sum(side.keel_breaks for side in report.sides) == 1


def test_one_turn_of_the_report(ten_turns):
    initial, log, whole = ten_turns
    third = after_action_report(QUICK_START, initial, log, turn=3)
    assert third.only_turn == 3
    for side, full in zip(third.sides, whole.sides):
        assert side.rolls == [r for r in full.rolls if r.turn == 3]
        assert [p.turn for p in side.luck] == [3] and side.luck[0] == full.luck[2]
        assert side.shots == [s for s in full.shots if s.turn == 3]
    with pytest.raises(ValueError, match="no turn 12"):
        after_action_report(QUICK_START, initial, log, turn=12)


def test_a_scripted_shot_with_table_dice_has_the_exact_figures():
    """One shot with faces typed in: the percentile of its pool total and its expected slots, by hand."""
    state = close_battle(1)
    attacker, target = state.ship("hertfordshire"), state.ship("pontbriand")
    gun = next(f for f in (firing_solution(attacker, loc, slot, target) for loc, slot in attacker.working_guns)
               if f.strikes)
    strike = gun.strikes[0]
    faces = [max(FACES[c]) for c in strike.pool]  # every die on its top face
    log = [{"kind": "declare_shot", "attacker": "hertfordshire", "location": gun.location, "slot": gun.slot,
            "target": "pontbriand", "target_location": strike.location},
           {"kind": "resolve_shot", "shot": 1, "table": {"pool": faces, "slot": [6, 1, 1, 1], "keel": [10, 10]}}]
    report = after_action_report(QUICK_START, state, log)
    british = report.sides[0]
    [breach] = [r for r in british.rolls if r.what == "breach"]
    at_top = Fraction(1)
    for colour in strike.pool:  # P(every die on its top face)
        at_top *= Fraction(FACES[colour].count(max(FACES[colour])), len(FACES[colour]))
    top = 1 - at_top / 2  # the highest total: every other total lies below it
    assert breach.total == sum(faces) and breach.percentile == top
    assert british.slots_expected == sum(strike.odds.slot_destroyed.values())
    assert british.keel_expected == strike.odds.keel_break
    assert [(g.ship, g.shots) for g in british.guns] == [("HML Hertfordshire", 1)]
    assert report.sides[1].rolls == [] and report.sides[1].shots == []


def test_a_war_fleet_game_reports_its_attack_rolls_and_their_odds():
    from test_rulesets import _options_log, _war_fleet_start
    from companion.engine.war_fleet.game import declared_pool
    from companion.engine.war_fleet.odds import attack_odds

    ruleset = find_ruleset("war-fleet")
    initial = _war_fleet_start(3)
    _, log = _options_log(ruleset, initial, 3, length=150)
    report = after_action_report(ruleset, initial, log)
    rolled = [a for a in log if a["kind"] == "roll_attack"]
    shots = [s for side in report.sides for s in side.shots]
    assert len(shots) == len(rolled) > 0
    assert any(r.what == "attack" for side in report.sides for r in side.rolls)
    for side in report.sides:
        for roll in side.rolls:
            assert roll.percentile == brute_percentile(parse_pool(roll.pool), roll.total)
    state, expected = initial, Fraction(0)
    for action in log:
        if action["kind"] == "roll_attack":
            attack = next(a for a in state.attacks if a.id == action["attack"])
            if not state.ship(attack.target).casualty:
                pool, rolls, _ = declared_pool(state, attack)
                expected += attack_odds(pool, rolls, state.ship(attack.target), attack.target_location).location_destroyed
        state = ruleset.apply(state, action).state
    assert sum(side.slots_expected for side in report.sides) == expected
