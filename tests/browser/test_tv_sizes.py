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

from .conftest import DESKTOP, SharedServer, by_id, open_app, shoot, tap_until
from .test_sharing import join, network_address, wait_log, wait_words

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


# --- every ship named, every shot of a volley shown (issue 35) ------------------------------------

#: The labels over the TV's map and the tokens under them, read in one call: identifier -> (x, y,
#: width, height, words).
MAP_NODES = r"""() => Object.fromEntries([...document.querySelectorAll('[flt-semantics-identifier]')]
  .filter(e => /^screen-(name|token|odds|key|map)(-|$)/.test(e.getAttribute('flt-semantics-identifier')))
  .map(e => { const r = e.getBoundingClientRect();
              return [e.getAttribute('flt-semantics-identifier'),
                      [r.x, r.y, r.width, r.height,
                       ((e.getAttribute('aria-label') || '') + ' ' + e.textContent).replace(/\s+/g, ' ').trim()]]; }))"""


def _big_battles():
    """War Fleet's twenty against twenty with initiative rolled (British move first), Quick-Start's
    four ships as New game deploys them, and Quick-Start's four closed to battle with five shots
    declared, and the same five rolled (as "Roll all" rolls them: one after another)."""
    from companion.app.rulesets.war_fleet import model as M
    from companion.app.setup import build_setup, quick_start_picks
    from companion.files import load_catalogue, shipped_fleets_dir

    war = M.twenty_against_twenty(load_catalogue(), shipped_fleets_dir(), seed="tv")
    shots = [A.DeclareShot(attacker=a, location=loc_, slot=slot, target=t, target_location=t_loc)
             for a, loc_, slot, t, t_loc in (
                 ("hertfordshire", "bow", 1, "pontbriand", "bow"), ("hertfordshire", "starboard", 1, "pelletier", "starboard"),
                 ("hertfordshire", "starboard", 4, "pelletier", "starboard"), ("raven", "bow", 1, "pelletier", "bow"),
                 ("pontbriand", "bow", 1, "hertfordshire", "bow"))]
    return {"war-fleet-20v20": (war, [RollInitiative(faces={"British": [9], "French": [3]})]),
            "quick-start-deployment": (build_setup(quick_start_picks(), load_catalogue()), []),
            "quick-start-declared": (close_battle(), shots),
            "quick-start-volley": (close_battle(), shots + [A.ResolveShot(shot=n) for n in range(1, 6)])}


@pytest.fixture(scope="module")
def big_tv_server(tmp_path_factory):
    if network_address() is None:
        pytest.skip("this machine has no network address besides loopback: no device can join from the network")
    server = SharedServer(tmp_path_factory.mktemp("big-tv") / "data")
    store = open_store(server.data)
    games = {}
    for name, (initial, actions) in _big_battles().items():
        game = store.new_game(initial, f"TV {name}")
        for action in actions:
            outcome = game.act(action)
            assert outcome.ok, outcome.reason
        games[name] = (game.id, len(actions), {s.id: s.name if hasattr(s, "name") else s.card.name
                                               for s in game.state.ships})
    store.close()
    server.start()
    yield server, games
    server.stop()


def _open_tv(browser, server, game_id: str, log: int):
    tv = browser.new_context(viewport=TVS["1920"]).new_page()
    join(tv, f"{server.lan_url}game/{game_id}", server.pin, "screen")
    by_id(tv, "screen-headline").wait_for(timeout=20000)
    wait_log(tv, log, timeout=20)
    return tv


def _map_nodes(tv, ships) -> dict:
    """The map's labels and tokens once every ship's label and token is on the page."""
    tv.wait_for_function("""ids => ids.every(id => document.querySelector(`[flt-semantics-identifier='screen-name-${id}']`)
                                                 && document.querySelector(`[flt-semantics-identifier='screen-token-${id}']`))""",
                         arg=list(ships), timeout=20000)
    return tv.evaluate(MAP_NODES)


def _legend(nodes: dict) -> dict[str, str]:
    """The marks' legend read as a person reads it: 'R1-R10 Raven 1-10' -> R1: Raven 1 ... R10: Raven 10."""
    import re

    out = {}
    for ident, (*_, words) in nodes.items():
        if not ident.startswith("screen-key-"):
            continue
        ranged = re.match(r"(\D+?)(\d+)\u2013\D+?(\d+)\s+(.+?)\s+\d+\u2013\d+$", words)
        if ranged:
            stem, first, last, name = ranged.groups()
            out.update({f"{stem}{n}": f"{name} {n}" for n in range(int(first), int(last) + 1)})
        else:
            mark, _, name = words.partition(" ")
            out[mark] = name.strip()
    return out


def _apart(a, b) -> bool:
    return (a[0] + a[2] <= b[0] + 1 or b[0] + b[2] <= a[0] + 1
            or a[1] + a[3] <= b[1] + 1 or b[1] + b[3] <= a[1] + 1)


def _every_ship_identifiable(nodes: dict, ships: dict[str, str]) -> dict[str, tuple]:
    """Each ship's label drawn inside the map, at least LEAST_NAME px high, its name or a mark the
    legend names it by; no label over another label or over another ship's token (a mark stands on
    its own token); returns each ship's label box."""
    legend, boxes = _legend(nodes), {}
    inside = nodes["screen-map"]
    for ship, name in ships.items():
        x, y, w, h, words = nodes[f"screen-name-{ship}"]
        plain = name.removeprefix("HML ")
        assert h >= LEAST_NAME, (ship, h)
        assert words.startswith(plain) or legend.get(words) == plain, (ship, words, legend.get(words))
        assert inside[0] - 1 <= x and x + w <= inside[0] + inside[2] + 1, (ship, "off the map")
        assert inside[1] - 1 <= y and y + h <= inside[1] + inside[3] + 1, (ship, "off the map")
        boxes[ship] = (x, y, w, h)
    labels = {k: v[:4] for k, v in nodes.items() if k.startswith(("screen-name-", "screen-odds-"))}
    tokens = {k.removeprefix("screen-token-"): v[:4] for k, v in nodes.items() if k.startswith("screen-token-")}
    keys = sorted(labels)
    for n, a in enumerate(keys):
        for b in keys[n + 1:]:
            assert _apart(labels[a], labels[b]), (a, b)
        for ship, box in tokens.items():
            if a != f"screen-name-{ship}":
                assert _apart(labels[a], box), (a, "over the token of", ship)
    return boxes


def test_twenty_against_twenty_each_ship_identifiable_and_its_label_kept_as_another_moves(big_tv_server, browser):
    """War Fleet's forty ships on a 1920 x 1080 TV: each named or marked (with the legend), no label
    over another or over a token; the host moves HML Leviathan (a turn, a hex ahead) and every other
    label stays put."""
    server, games = big_tv_server
    game_id, log, ships = games["war-fleet-20v20"]
    tv = _open_tv(browser, server, game_id, log)
    host = browser.new_context(viewport=DESKTOP).new_page()
    try:
        before = _every_ship_identifiable(_map_nodes(tv, ships), ships)
        token = tv.evaluate(MAP_NODES)["screen-token-hml-leviathan"][:4]
        assert _height(tv, "screen-title") >= 20 and _height(tv, "sync") >= 20  # the top bar from 3 m
        shoot(tv, "tv-sizes-war-fleet-20v20")
        tokens = {k: v[:4] for k, v in tv.evaluate(MAP_NODES).items() if k.startswith("screen-token-")}
        open_app(host, f"{server.url}game/{game_id}")
        tap_until(host, "wf-ship-hml-leviathan", "wf-starboard")  # ahead is Hertfordshire 2's hex: turn first
        by_id(host, "wf-starboard").click()
        wait_log(tv, log + 1, timeout=30)
        by_id(host, "wf-forward").click()  # into a hex of its own
        wait_log(tv, log + 2, timeout=30)
        tv.wait_for_function("""was => { const e = document.querySelector("[flt-semantics-identifier='screen-token-hml-leviathan']");
                                        const r = e && e.getBoundingClientRect(); return r && (r.x !== was[0] || r.y !== was[1]); }""",
                             arg=token, timeout=20000)
        nodes = _map_nodes(tv, ships)
        after = _every_ship_identifiable(nodes, ships)
        assert [k for k, box in tokens.items() if max(abs(p - q) for p, q in zip(box, nodes[k][:4])) > 1] \
            == ["screen-token-hml-leviathan"]  # only its token moved
        moved = [s for s in ships if s != "hml-leviathan"
                 and max(abs(p - q) for p, q in zip(before[s], after[s])) > 1]
        assert moved == [], "the other ships' labels stand where they stood"
        shoot(tv, "tv-sizes-war-fleet-20v20-moved")
    finally:
        host.context.close()
        tv.context.close()


def test_quick_start_at_deployment_names_every_ship_and_keeps_the_names_as_one_moves(big_tv_server, browser):
    """Quick-Start's four ships as New game deploys them: each named (HML Raven too), no label over
    another or a token; the host deploys HML Raven elsewhere and the other three names stay put."""
    server, games = big_tv_server
    game_id, log, ships = games["quick-start-deployment"]
    tv = _open_tv(browser, server, game_id, log)
    host = browser.new_context(viewport=DESKTOP).new_page()
    try:
        before = _every_ship_identifiable(_map_nodes(tv, ships), ships)
        for card in ("screen-last-roll", "screen-lost", "screen-sides"):  # the section labels from 3 m
            assert _height(tv, f"{card}-title") >= 20, card
        assert _height(tv, "screen-title") >= 20 and _height(tv, "sync") >= 20  # the top bar
        shoot(tv, "tv-sizes-quick-start-deployment")
        token = tv.evaluate(MAP_NODES)["screen-token-hml-raven"][:4]
        open_app(host, f"{server.url}game/{game_id}")
        tap_until(host, "ship-hml-raven", "place-hex")
        field = by_id(host, "place-hex")
        field.click()
        host.keyboard.press("Control+A")
        host.keyboard.type("2515", delay=20)
        by_id(host, "face-N").click()
        wait_log(tv, log + 1, timeout=30)
        tv.wait_for_function("""was => { const e = document.querySelector("[flt-semantics-identifier='screen-token-hml-raven']");
                                        const r = e && e.getBoundingClientRect(); return r && (r.x !== was[0] || r.y !== was[1]); }""",
                             arg=token, timeout=20000)
        after = _every_ship_identifiable(_map_nodes(tv, ships), ships)
        assert [s for s in ships if s != "hml-raven" and max(abs(p - q) for p, q in zip(before[s], after[s])) > 1] == []
        shoot(tv, "tv-sizes-quick-start-deployment-moved")
    finally:
        host.context.close()
        tv.context.close()


def test_every_declared_shot_with_its_odds_and_every_shot_of_the_volley_with_its_dice(big_tv_server, browser):
    """Five shots declared: five lines each with its odds on the map, none over a name or a token;
    the same five rolled one after another (Roll all): the last roll shows each with its dice."""
    server, games = big_tv_server
    game_id, log, ships = games["quick-start-declared"]
    tv = _open_tv(browser, server, game_id, log)
    try:
        nodes = _map_nodes(tv, ships)
        _every_ship_identifiable(nodes, ships)
        for n in range(1, 6):
            assert nodes[f"screen-odds-{n}"][3] >= LEAST_NAME and "%" in nodes[f"screen-odds-{n}"][4], n
        shoot(tv, "tv-sizes-quick-start-five-declared")
    finally:
        tv.context.close()
    game_id, log, ships = games["quick-start-volley"]
    tv = _open_tv(browser, server, game_id, log)
    try:
        wait_words(tv, "Last volley: 5 shots", timeout=20)
        for n in range(1, 6):
            shot = by_id(tv, f"screen-volley-{n}")
            shot.scroll_into_view_if_needed()
            dice = tv.locator(f"[flt-semantics-identifier^='screen-die-{n}-']")
            assert dice.count() >= 3, n  # the pool and the slot die
            for k in range(dice.count()):
                box = dice.nth(k).bounding_box()
                assert box["width"] >= LEAST_DIE and box["height"] >= LEAST_DIE, (n, k)
        shoot(tv, "tv-sizes-quick-start-volley")
    finally:
        tv.context.close()
