"""The shared screen read from three metres, for every ruleset (issue 28): on a 1920 x 1080 and a
1280 x 720 TV, the ships' names and the declared shots' odds at least 24 px high on screen, whose turn
and the phase at least 32 px, the last roll's dice at least 48 px, and nothing a device could
change (the hex numbers are not drawn: seen in the screenshots).  Sizes are the rendered boxes of the page's semantics nodes (the
texts' own boxes), never the font settings.  Screenshots: tests/screenshots/tv-sizes-*.png."""

from __future__ import annotations

import pytest

from companion.engine.quick_start import actions as A
from companion.engine.war_fleet.actions import DeclareAttack, EndMovement, RollAttack, RollInitiative
from companion.store.store import open_store

from dv_for_tests import sample_game as dv_in_phase
from random_games import close_battle
from warfleet_for_tests import attack, loc, stats, table, warship

from .conftest import SharedServer, by_id, shoot
from .test_sharing import join, network_address, wait_log

pytestmark = pytest.mark.browser

TVS = {"1920": {"width": 1920, "height": 1080}, "1280": {"width": 1280, "height": 720}}
LEAST_NAME, LEAST_PHASE, LEAST_DIE = 24, 32, 48


def _quick_start():
    """The four ships closed to battle: a shot rolled (the last roll) and one declared (its odds)."""
    return close_battle(), [
        A.DeclareShot(attacker="pontbriand", location="bow", slot=1, target="hertfordshire", target_location="bow"),
        A.ResolveShot(shot=1),
        A.DeclareShot(attacker="hertfordshire", location="bow", slot=1, target="pontbriand", target_location="bow")]


def _war_fleet():
    """Two War Fleet ships three hexes apart in combat: an attack rolled, the other still to roll."""
    gun = attack((2, "DBlack"), (4, "DRed"))
    a = warship("hml-a", "British", stats("HML Able", bow=loc(gun=gun)), "1010", "N")
    b = warship("fr-b", "French", stats("Brest", bow=loc(gun=gun)), "1007", "S")
    return table(a, b, phase="initiative"), [
        RollInitiative(faces={"British": [3], "French": [9]}), EndMovement(),
        DeclareAttack(attacker="hml-a", locations=["bow"], target="fr-b"),
        DeclareAttack(attacker="fr-b", locations=["bow"], target="hml-a"), RollAttack(attack=1)]


def _decisive_victory():
    """The sample scenario's attack phase: HMS Sample's main battery rolled, HMS Dash's torpedoes declared."""
    return dv_in_phase("attacks"), [
        {"kind": "declare_attack", "ship": "hms-sample", "system": "main", "target": "ijn-mihon",
         "distance": "12", "facts": {"in_arc": True}},
        {"kind": "roll_attack", "attack": 1}, {"kind": "end_activation"},
        {"kind": "declare_attack", "ship": "hms-dash", "system": "torpedoes", "target": "ijn-kaze",
         "distance": "6", "facts": {"in_arc": True}}]


RULESETS = {"quick-start": _quick_start, "war-fleet": _war_fleet, "decisive-victory": _decisive_victory}


@pytest.fixture(scope="module")
def tv_server(tmp_path_factory):
    if network_address() is None:
        pytest.skip("this machine has no network address besides loopback: no device can join from the network")
    server = SharedServer(tmp_path_factory.mktemp("tv") / "data")
    store = open_store(server.data)
    games = {}
    for name, build in RULESETS.items():
        initial, actions = build()
        game = store.new_game(initial, f"TV {name}")
        for action in actions:
            outcome = game.act(action)
            assert outcome.ok, outcome.reason
        games[name] = (game.id, len(actions), [s.id for s in game.state.ships])
    store.close()
    server.start()
    yield server, games
    server.stop()


def _height(page, ident: str) -> float:
    box = by_id(page, ident).first.bounding_box()
    assert box is not None, f"{ident} is not on screen"
    return box["height"]


@pytest.mark.parametrize("size", list(TVS))
@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_the_shared_screen_reads_from_three_metres(tv_server, browser, ruleset, size):
    server, games = tv_server
    game_id, log, ships = games[ruleset]
    tv = browser.new_context(viewport=TVS[size]).new_page()
    try:
        join(tv, f"{server.lan_url}game/{game_id}", server.pin, "screen")
        by_id(tv, "screen-headline").wait_for(timeout=20000)
        wait_log(tv, log, timeout=20)
        by_id(tv, "screen-odds-1").first.wait_for(timeout=10000)
        assert _height(tv, "screen-headline") >= LEAST_PHASE
        assert _height(tv, "screen-whose") >= LEAST_PHASE
        named = [ship for ship in ships if by_id(tv, f"screen-name-{ship}").count()]
        assert named == ships, "every ship is named on the TV"
        for ship in ships:
            by_id(tv, f"screen-name-{ship}").first.scroll_into_view_if_needed()
            assert _height(tv, f"screen-name-{ship}") >= LEAST_NAME, ship
        assert _height(tv, "screen-odds-1") >= LEAST_NAME
        dice = tv.locator("[flt-semantics-identifier^='screen-die-']")
        assert dice.count() >= 1
        for n in range(dice.count()):
            box = dice.nth(n).bounding_box()
            assert box["width"] >= LEAST_DIE and box["height"] >= LEAST_DIE
        # nothing a device could change: no undo, no table step, no declare or roll
        for control in ("undo", "wf-undo", "dv-undo", "roll-1", "wf-roll-all", "dv-attack-1-roll"):
            assert by_id(tv, control).count() == 0, control
        shoot(tv, f"tv-sizes-{ruleset}-{size}")
    finally:
        tv.context.close()
