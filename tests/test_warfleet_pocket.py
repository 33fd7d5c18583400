"""Pockets between scales (seed 004: "once certain pockets of ships were in a decent
engagement range, players can then switch over to regular Leviathans"): War Fleet ships
to a Quick-Start battle with their full cards, and the result back."""

from __future__ import annotations

import pytest

from companion.engine.quick_start import apply as quick_start_apply
from companion.engine.quick_start.actions import DeclareShot, EndMovement, MarkSlot, ResolveShot, RollInitiative, SetKeel
from companion.engine.quick_start.combat import firing_solutions
from companion.engine.hexes import Hex
from companion.engine.roller import Roller
from companion.engine.war_fleet import apply
from companion.engine.war_fleet.actions import DeclareAttack, EndCombat, OpenPocket, ResolvePocket
from companion.engine.war_fleet.combat import attack_options
from companion.engine.war_fleet.convert import prioritised_slots
from companion.engine.war_fleet.pocket import MARGIN, PocketError, pocket_battle, pocket_outcome
from companion.engine.war_fleet.scenario import build_warfleet_state
from companion.files import load_catalogue, load_file, shipped_fleets_dir
from warfleet_for_tests import stats, table, warship


@pytest.fixture(scope="module")
def twenty():
    state = build_warfleet_state(load_file(shipped_fleets_dir() / "war-fleet-20v20.json"), load_catalogue())
    return state.model_copy(update={"phase": "combat"})


def near(state, ship_id, column, row, facing=None):
    ship = state.ship(ship_id)
    return state.with_ship(ship.at(Hex.at(column, row), facing))


def ok(state, action, door=apply):
    outcome = door(state, action)
    assert outcome.ok, getattr(outcome, "reason", "")
    return outcome.state


def test_a_pocket_becomes_a_quick_start_battle_with_the_full_cards(twenty):
    state = near(twenty, "pontbriand-1", 11, 6, 3)  # beside HML Ardent 2 at 1006, facing south
    ships = ["hml-spion-kop", "hml-hertfordshire-1", "pontbriand-1"]
    battle = pocket_battle(state, ships, Roller.from_seed("pocket"))
    assert [s.id for s in battle.ships] == ships and battle.sides == ["British", "French"]
    assert battle.phase == "initiative" and battle.ruleset == "quick-start"
    for qs in battle.ships:
        wf = state.ship(qs.id)
        assert qs.card.locations == wf.source.locations and qs.card.name == wf.name  # HML Ardent 2
        assert qs.facing == wf.facing and qs.damage == {}
        b = battle.board  # full hexes between each hex and the nearest edge
        assert all(min(c.column - 1, b.columns - c.column, c.row - 1, b.rows - c.row) >= MARGIN for c in qs.hexes)
    cells = [c for s in battle.ships for c in s.hexes]
    assert len(cells) == len(set(cells))  # no two ships share a Quick-Start hex
    # six Quick-Start hexes for each War Fleet hex between the bows (none had to make room)
    a, p = battle.ship("hml-spion-kop"), battle.ship("pontbriand-1")
    assert a.bow.distance(p.bow) == 6 * state.ship("hml-spion-kop").hex.distance(state.ship("pontbriand-1").hex)


def test_ships_sharing_a_war_fleet_hex_get_their_own_quick_start_hexes(twenty):
    state = near(near(twenty, "pelletier-1", 10, 4), "pelletier-2", 10, 4)
    battle = pocket_battle(state, ["hml-mafeking", "pelletier-1", "pelletier-2"])
    cells = [c for s in battle.ships for c in s.hexes]
    assert len(cells) == len(set(cells))
    assert {s.card.name for s in battle.ships} == {"HML Mafeking", "Pelletier 1", "Pelletier 2"}


def test_the_quick_start_battle_is_playable(twenty):
    state = near(twenty, "pontbriand-1", 11, 6, 3)
    battle = pocket_battle(state, ["hml-spion-kop", "pontbriand-1"], Roller.from_seed("play"))
    battle = ok(battle, RollInitiative(), quick_start_apply)
    battle = ok(battle, EndMovement(), quick_start_apply)
    shots = [s for ship in battle.ships for s in firing_solutions(battle, ship.id) if s.strikes]
    assert shots, "ships six Quick-Start hexes apart have something in arc and range"
    shot = shots[0]
    battle = ok(battle, DeclareShot(attacker=shot.attacker, location=shot.location, slot=shot.slot,
                                    target=shot.target, target_location=shot.strikes[0].location), quick_start_apply)
    battle = ok(battle, ResolveShot(shot=1), quick_start_apply)
    assert battle.shots[0].result is not None


def test_a_pocket_sent_to_quick_start_and_back(twenty):
    """Open the pocket in the War Fleet game, fight it at Quick-Start scale, bring the result back:
    the Pontbriand is destroyed (its keel broke), the Ardent lost the guns of its bow."""
    state = near(twenty, "pontbriand-1", 11, 6, 3)
    pocket = ["hml-spion-kop", "pontbriand-1"]
    state = ok(state, OpenPocket(ships=pocket))
    assert all(state.ship(s).pocket == 1 for s in pocket)
    assert attack_options(state, "hml-spion-kop") == []  # away at Quick-Start scale
    away = apply(state, DeclareAttack(attacker="hml-hertfordshire-1", locations=["starboard"], target="pontbriand-1"))
    assert not away.ok and "away in pocket battle 1" in away.reason
    assert "still being fought" in apply(state, EndCombat()).reason

    battle = pocket_battle(state, state.pocket(1).ships, Roller.from_seed("pocket"))
    ardent = state.ship("hml-spion-kop").source
    for n in prioritised_slots(ardent.locations["bow"])["attack"]:
        battle = ok(battle, MarkSlot(ship="hml-spion-kop", location="bow", slot=n, status="destroyed_this_turn"),
                    quick_start_apply)
    battle = ok(battle, SetKeel(ship="pontbriand-1"), quick_start_apply)
    outcome = pocket_outcome(battle)
    assert outcome["hml-spion-kop"].destroyed_locations == ["bow"] and not outcome["hml-spion-kop"].casualty
    assert outcome["pontbriand-1"].casualty

    back = apply(state, ResolvePocket(pocket=1, ships=outcome))
    assert back.ok
    state = back.state
    assert state.ship("hml-spion-kop").is_destroyed("bow")
    assert state.ship("pontbriand-1").casualty
    state = ok(state, EndCombat())
    assert state.ship("pontbriand-1").removed and not state.ship("hml-spion-kop").removed
    assert state.ship("hml-spion-kop").destroyed == {"bow": "destroyed"}


def test_a_destroyed_location_goes_to_quick_start_and_comes_back_unchanged(twenty):
    state = twenty.with_ship(twenty.ship("hml-mafeking").with_location("stern", "destroyed"))
    battle = pocket_battle(state, ["hml-mafeking", "montpellier-1"])
    ardent = battle.ship("hml-mafeking")
    struck = prioritised_slots(ardent.card.locations["stern"])
    assert set(ardent.damage["stern"]) == set(struck["attack"]) | set(struck["resilience"])
    assert pocket_outcome(battle)["hml-mafeking"].destroyed_locations == ["stern"]
    assert pocket_outcome(battle)["montpellier-1"].destroyed_locations == []


def test_a_pocket_needs_two_sides_and_cards(twenty):
    with pytest.raises(PocketError, match="two sides"):
        pocket_battle(twenty, ["hml-raven-1", "hml-raven-2"])
    bare = table(warship("a", "British", stats("A")), warship("b", "French", stats("B"), "1012"))
    with pytest.raises(PocketError, match="no Quick-Start card"):
        pocket_battle(bare, ["a", "b"])
    refused = apply(bare, OpenPocket(ships=["a", "b"]))
    assert not refused.ok and "no Quick-Start card" in refused.reason
