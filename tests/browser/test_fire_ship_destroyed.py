"""The fire panel shows the chance a shot destroys the ship, beside the keel chance (issue 11).

A saved game in combat: the Raven six hexes from the Pontbriand, whose struck
location has one live slot left (the others circled this turn), so destroying
that slot destroys the ship.  The figure the panel must show is the engine's.
"""

from __future__ import annotations

import re

import pytest

from cards_for_tests import position, ship
from companion.engine.board import Board
from companion.engine.quick_start.combat import firing_solutions
from companion.engine.roller import Roller
from companion.engine.quick_start.state import SlotStatus
from companion.files import load_catalogue
from companion.store import TinyDBStore

from .conftest import DESKTOP, SEED, by_id, open_app, Server, shoot, words_in

pytestmark = pytest.mark.browser


def one_slot_from_wrecked():
    """The Raven facing the Pontbriand; the struck location down to its lowest-breach live slot."""
    cards = load_catalogue()
    board = Board()
    raven = ship("hml-raven", "British", cards["hml-raven"], "1012", "N", moved=True, board=board)
    pontbriand = ship("pontbriand", "French", cards["pontbriand"], "1006", "S", board=board)
    state = position(raven, pontbriand, board=board, seed=SEED)
    solution = next(s for s in firing_solutions(state, "hml-raven") if s.target == "pontbriand" and s.strikes)
    struck = solution.strikes[0].location
    slots = [(n, slot) for n, slot in enumerate(pontbriand.card.locations[struck].slots, 1) if slot.kind != "miss"]
    keep = min(slots, key=lambda ns: ns[1].breach)[0]
    for n, _ in slots:
        if n != keep:
            pontbriand = pontbriand.with_status(struck, n, SlotStatus.DESTROYED_THIS_TURN)
    state = state.with_ship(pontbriand)
    solution = next(s for s in firing_solutions(state, "hml-raven")
                    if (s.location, s.slot, s.target) == (solution.location, solution.slot, "pontbriand"))
    odds = solution.strike(struck).odds
    assert odds.ship_destroyed > odds.keel_break
    ident = f"ship-destroyed-{solution.location}-{solution.slot}-pontbriand-{struck}"
    return state, ident, odds


def test_fire_panel_shows_the_chance_the_shot_destroys_the_ship(tmp_path, browser):
    from companion.app.viewmodels import percent

    state, ident, odds = one_slot_from_wrecked()
    data = tmp_path / "data"
    store = TinyDBStore(data)
    game = store.new_game(state, "one slot from wrecked", roller=Roller.from_seed(SEED))
    store.close()

    server = Server(data).start()
    try:
        page = browser.new_page(viewport=DESKTOP)
        open_app(page, f"{server.url}game/{game.id}?ship=hml-raven&tab=fire")
        chip = by_id(page, ident)
        chip.wait_for(timeout=20000)
        assert re.search(re.escape(f"ship destroyed {percent(odds.ship_destroyed)}"), words_in(chip))
        shoot(page, "fire-ship-destroyed-desktop")
        page.close()
    finally:
        server.stop()
