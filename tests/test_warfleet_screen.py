"""War Fleet's shared screen as data (app/rulesets/war_fleet/screen_model.py, issue 28): the turn and phase, whose
move it is, each declared attack still to roll with its exact odds from attacker to target, the last
roll's dice, the ships lost and each side afloat."""

from __future__ import annotations

from companion.app.rulesets.war_fleet.screen_model import dice_in, screen_model
from companion.engine.war_fleet import apply
from companion.engine.war_fleet.actions import DeclareAttack, EndMovement, RollAttack, RollInitiative

from warfleet_for_tests import attack, loc, stats, table, warship


def battle():
    gun = attack((2, "DBlack"), (4, "DRed"))
    a = warship("hml-a", "British", stats("HML Able", bow=loc(gun=gun)), "1010", "N")
    b = warship("fr-b", "French", stats("Brest", bow=loc(gun=gun)), "1007", "S")
    state, events = table(a, b, phase="initiative"), []
    for action in (RollInitiative(faces={"British": [3], "French": [9]}), EndMovement(),
                   DeclareAttack(attacker="hml-a", locations=["bow"], target="fr-b"),
                   DeclareAttack(attacker="fr-b", locations=["bow"], target="hml-a"), RollAttack(attack=1)):
        outcome = apply(state, action)
        assert outcome.ok, outcome.reason
        state, events = outcome.state, events + list(outcome.events)
    return state, events


def test_the_tv_shows_the_phase_the_attack_to_roll_with_its_odds_and_the_last_roll():
    state, events = battle()
    model = screen_model(state, events, 5)
    assert (model.headline, model.whose) == ("Turn 1 · Combat", "Every side attacks · 1 to roll")
    [line] = model.shots
    assert line.what == "Brest Bow at HML Able's bow" and line.odds.startswith("destroys the bow ")
    assert (line.start, line.end) == (state.ship("fr-b").hex, state.ship("hml-a").hex)
    roll = model.last_roll
    rolled = next(e for e in events if e.kind == "attack")
    assert roll.kind == "attack" and roll.dice == tuple(dice_in(rolled.data)) and roll.dice
    assert all(colour == "Red" for colour, _ in roll.dice)  # DRed at long range (3 hexes), and its SI test


def test_initiative_dice_are_the_last_roll_before_any_attack():
    state, events = battle()
    model = screen_model(state, events[:2], 2)
    assert (model.last_roll.title, model.last_roll.dice) == ("Initiative", (("Black", 3), ("Black", 9)))


def test_dice_are_found_wherever_an_event_keeps_them():
    assert dice_in({"rolls": [{"side": "A", "dice": [{"colour": "Black", "face": 7}]}], "x": 1}) == [("Black", 7)]
    assert dice_in({"result": {"rolls": [{"dice": [{"colour": "Red", "face": 2}, {"colour": "Red", "face": 9}]}]}}) \
        == [("Red", 2), ("Red", 9)]
    assert dice_in({"none": "here"}) == []
