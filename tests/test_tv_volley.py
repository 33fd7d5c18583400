"""The shared screen's last volley (issue 35): after "Roll all", every shot of the volley with its
dice, not only the last (screenmodel.last_volley, War Fleet's screen_model.last_volley)."""

from __future__ import annotations

from companion.app.rulesets.war_fleet import screen_model as W
from companion.app.screenmodel import screen_model
from companion.engine.quick_start import actions as A
from companion.engine.war_fleet.actions import DeclareAttack, EndMovement, RollAttack, RollInitiative
from companion.store import MemoryStore

from random_games import close_battle
from warfleet_for_tests import attack, loc, stats, table, warship

SHOTS = (("hertfordshire", "bow", 1, "pontbriand", "bow"), ("hertfordshire", "starboard", 1, "pelletier", "starboard"),
         ("hertfordshire", "starboard", 4, "pelletier", "starboard"), ("raven", "bow", 1, "pelletier", "bow"),
         ("pontbriand", "bow", 1, "hertfordshire", "bow"))


def _act(game, *actions) -> None:
    for action in actions:
        outcome = game.act(action)
        assert outcome.ok, outcome.reason


def _declared(game) -> None:
    _act(game, *(A.DeclareShot(attacker=a, location=l, slot=s, target=t, target_location=tl) for a, l, s, t, tl in SHOTS))


def test_five_shots_rolled_one_after_another_are_the_volley_each_with_its_dice():
    game = MemoryStore().new_game(close_battle(), "volley")
    _declared(game)
    assert screen_model(game.state, game.history(), 5).volley == ()  # declared, nothing rolled
    _act(game, *(A.ResolveShot(shot=n) for n in range(1, 6)))
    model = screen_model(game.state, game.history(), 10)
    assert [shot.title for shot in model.volley] == ["HML Hertfordshire 6 IN", "HML Hertfordshire 3 IN",
                                                     "HML Hertfordshire 3 IN", "HML Raven 3 IN", "Pontbriand 6 IN"]
    assert all(len(shot.dice) >= 3 for shot in model.volley)  # the pool and the slot die, each
    assert model.volley[-1].dice == model.last_roll.dice  # the last of them is the last roll


def test_a_declaration_ends_the_volley_before_it():
    game = MemoryStore().new_game(close_battle(), "volley")
    _declared(game)
    _act(game, A.ResolveShot(shot=1), A.ResolveShot(shot=2))
    assert len(screen_model(game.state, game.history(), 7).volley) == 2
    _act(game, A.ResolveShot(shot=3))
    assert len(screen_model(game.state, game.history(), 8).volley) == 3


def test_war_fleets_attacks_rolled_together_are_its_volley():
    gun = attack((2, "DBlack"), (4, "DRed"))
    a = warship("hml-a", "British", stats("HML Able", bow=loc(gun=gun)), "1010", "N")
    b = warship("fr-b", "French", stats("Brest", bow=loc(gun=gun)), "1007", "S")
    game = MemoryStore().new_game(table(a, b, phase="initiative"), "volley")
    _act(game, RollInitiative(faces={"British": [3], "French": [9]}), EndMovement(),
         DeclareAttack(attacker="hml-a", locations=["bow"], target="fr-b"),
         DeclareAttack(attacker="fr-b", locations=["bow"], target="hml-a"), RollAttack(attack=1))
    assert len(W.screen_model(game.state, game.history(), 5).volley) == 1
    _act(game, RollAttack(attack=2))
    volley = W.screen_model(game.state, game.history(), 6).volley
    assert len(volley) == 2 and all(shot.dice for shot in volley)
