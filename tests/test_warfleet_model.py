"""The War Fleet screen's model (no flet): the game log, the map, the banner, moves, attack
options with odds, the converted card beside its source, editing it, and the pocket flow."""

from __future__ import annotations

import pytest

from companion.app.rulesets.war_fleet import model as M
from companion.engine.hexes import Hex
from companion.engine.war_fleet import actions as A
from companion.engine.war_fleet.convert import convert_card
from companion.engine.war_fleet.stats import load_stats
from companion.files import load_catalogue, shipped_fleets_dir
from companion.store.store import MemoryStore

from random_games import starting_state


@pytest.fixture()
def game():
    state = M.twenty_against_twenty(load_catalogue(), shipped_fleets_dir(), seed="model")
    return MemoryStore().new_game(state, "test")


def test_the_game_is_a_log_with_undo_and_redo(game):
    start = game.state
    assert game.act(A.RollInitiative()).ok
    rolled = game.state
    assert game.state.phase == "movement" and game.can_undo
    assert game.undo() and game.state == start and game.can_redo
    assert game.redo() and game.state == rolled
    refused = game.act(A.RollInitiative())
    assert not refused.ok and game.state == rolled
    assert any("wins the initiative" in line for line in M.log_lines(game.history()))


def test_war_fleet_games_are_games_of_the_store_listed_apart(game):
    store = MemoryStore()
    battle = store.new_game(game.state, "x")
    quick = store.new_game(starting_state(), "a Quick-Start game")
    assert {s.id: s.ruleset for s in store.games()} == {battle.id: "war-fleet", quick.id: "quick-start"}
    assert battle.ruleset.id == M.WAR_FLEET and store.game(battle.id) is battle
    assert [s.id for s in M.war_fleet_games(store)] == [battle.id]


def test_the_map_draws_every_ship_and_crowds_share_a_hex(game):
    ships = M.map_ships(game.state, "hml-leviathan")
    assert len(ships) == 40 and sum(s.selected for s in ships) == 1
    state = game.state.with_ship(game.state.ship("pelletier-1").at(Hex.at(10, 8)))
    crowd = [s for s in M.map_ships(state, None) if s.cell == Hex.at(10, 8)]
    assert sorted((s.slot, s.crowd) for s in crowd) == [(0, 2), (1, 2)]
    first = M.next_on_tap(state, Hex.at(10, 8), None)
    assert M.next_on_tap(state, Hex.at(10, 8), first) != first
    assert M.next_on_tap(state, Hex.at(1, 1), None) is None


def test_the_banner_names_the_next_step(game):
    assert [s.ident for s in M.banner(game.state).steps] == ["wf-roll-initiative"]
    game.act(A.SetInitiative(side="French"))
    banner = M.banner(game.state)
    assert "British: class 4 ships move now" in banner.detail
    assert [s.ident for s in banner.steps] == ["wf-end-group", "wf-end-movement"]


def test_moves_say_why_not(game):
    assert M.moves(game.state, "hml-leviathan") == ()
    game.act(A.SetInitiative(side="French"))
    moves = {m.ident: m for m in M.moves(game.state, "hml-leviathan")}
    assert moves["wf-forward"].problem is None and "wf-pivot-N" not in moves
    raven = {m.ident: m for m in M.moves(game.state, "hml-raven-1")}
    assert "class 4 ships move now" in raven["wf-forward"].problem


def engaged(game):
    """Turn 1 up to combat with the Leviathan moved within reach of the French line."""
    game.act(A.SetInitiative(side="French"))
    for step in ("starboard", "forward", "forward"):
        assert game.act(A.Step(ship="hml-leviathan", step=step)).ok
    assert game.act(A.EndMovement()).ok
    return game


def test_attack_options_with_exact_odds_then_declared_and_rolled(game):
    engaged(game)
    rows = M.option_rows(game.state, "hml-leviathan")
    assert rows, "the Leviathan's 12 inch guns reach the French line"
    row = rows[0]
    strike = row.strikes[0]
    assert strike.destroyed.endswith("%") and "/" in strike.exact
    assert game.act(strike.action).ok
    declared = M.declared_rows(game.state)
    assert len(declared) == 1 and "casualty" in declared[0].odds and declared[0].result is None
    assert all(not r.title.startswith(row.title) for r in M.option_rows(game.state, "hml-leviathan"))
    outcomes = M.roll_all(game)
    assert all(o.ok for o in outcomes)
    assert M.declared_rows(game.state)[0].result
    assert M.option_rows(game.state, "hml-leviathan") == ()  # the rolling has begun


def test_arc_shades_cover_the_turret_arcs(game):
    shades = M.arc_shades(game.state, "hml-mafeking")
    bow = {c for s in shades if s.location == "bow" for c in s.cells}
    here = game.state.ship("hml-mafeking").hex
    assert here.neighbour(2) in bow  # the bow turret reaches into the starboard arc
    assert here.neighbour(3) not in bow  # never dead astern
    battleship = M.arc_shades(game.state, "hml-leviathan")
    bow = {c for s in battleship if s.location == "bow" for c in s.cells}
    here = game.state.ship("hml-leviathan").hex
    assert here.neighbour(1) in bow and here.neighbour(2) not in bow  # Type 4: the bow quarters only


def test_a_bracket_is_offered_with_its_dialled_up_dice(game):
    """The printed cards print no bracket mark, so the players give the Mafeking's bow and
    stern turrets the trait by hand (both named 9.2in): one roll, the best dice (the stern's
    DBlack at range 1) dialled up one step."""
    game.act(A.SetInitiative(side="French"))
    mafeking = game.state.ship("hml-mafeking")
    data = mafeking.stats.dump()
    for where in ("bow", "stern"):
        data["locations"][where]["attack"]["traits"] = ["turret", "bracket"]
        data["locations"][where]["attack"]["name"] = "9.2in"
    assert game.act(A.SetStats(ship="hml-mafeking", stats=load_stats(data))).ok
    beside = game.state.with_ship(game.state.ship("pelletier-1").at(mafeking.hex.neighbour(2)))
    beside = beside.model_copy(update={"phase": "combat"})
    rows = M.option_rows(beside, "hml-mafeking")
    bracket = next(r for r in rows if r.title.startswith("Bracket: Bow + Stern 9.2in"))
    assert "dialled up 1 (bracket fire)" in bracket.detail and bracket.dice == ("Black", "Green")


def test_the_converted_card_beside_its_source(game):
    card = M.converted_card(game.state, "montpellier-1")
    assert card.source_head == "Montpellier: Type 1, SI 18, MP 10" and card.head.startswith("class 1 · SI 9")
    port = next(line for line in card.lines if line.location == "Port")
    assert (port.resilience, port.destroyed_resilience, port.si_modifier) == (9, 6, 3)
    assert port.source[0] == "go DYellow, stop DRed" and len(port.source) == 7
    assert "resilience 9 = highest breach 12 + armour 2 - DYellow mean rounded up 5" in port.working
    assert not card.edited


def test_editing_the_converted_card(game):
    ship = game.state.ship("montpellier-1")
    stats = M.edited_stats(ship.stats, "resilience", +1, "port")
    assert stats.locations["port"].resilience == 10
    assert game.act(A.SetStats(ship="montpellier-1", stats=stats)).ok
    assert M.converted_card(game.state, "montpellier-1").edited
    dice = M.edited_stats(stats, "short", +1, "bow")
    assert dice.locations["bow"].attack.short.dice == "DBlack"  # the printed 65mm with its DBlue crew: DRed
    assert M.edited_stats(dice, "short", -1, "bow").locations["bow"].attack.short.dice == "DRed"
    assert M.edited_stats(stats, "si_modifier", -4, "bow") is None
    assert M.edited_stats(stats, "si", +1).si == 10
    bad = convert_card(game.state.ship("hml-leviathan").source)
    refused = game.act(A.SetStats(ship="montpellier-1", stats=bad))
    assert not refused.ok and "has the locations" in refused.reason


def test_the_pocket_flow_to_quick_start_and_back(game):
    engaged(game)
    store = MemoryStore()
    pocket = M.near(game.state, "hml-leviathan", reach=3)
    assert "hml-leviathan" in pocket and any(game.state.ship(s).side == "French" for s in pocket)
    game_id, text = M.open_pocket(game, pocket, store, "Pocket 1")
    assert game_id and "Pocket battle 1" in text
    quick = store.game(game_id)
    assert {s.id for s in quick.state.ships} == set(pocket)
    assert quick.state.roller.seed != "00"  # a real secret seed from the store
    french = next(s for s in pocket if game.state.ship(s).side == "French")
    assert quick.act({"kind": "set_keel", "ship": french, "broken": True}).ok
    rows = M.pocket_rows(game)
    assert rows[0].open and rows[0].game_id == game_id
    back = M.bring_back(game, 1, store)
    assert back.ok and game.state.ship(french).casualty
    assert not M.pocket_rows(game)[0].open and "casualty" in M.pocket_rows(game)[0].outcome
    again = M.bring_back(game, 1, store)
    assert not again.ok and "already resolved" in again.reason


def test_a_pocket_of_one_side_is_refused_in_plain_words(game):
    engaged(game)
    game_id, text = M.open_pocket(game, ["hml-raven-1", "hml-raven-2"], MemoryStore(), "x")
    assert game_id is None and "two sides" in text
