"""What only the host decides, and what a guest is told (issue 25 part 8): the rule-check switch is
the host's (a guest side cannot turn the checks off for the whole game, nor undo the host's
switch), every screen is told when the checks go off or on, and a phone whose role request the
host refused is told so.  Decided on the server from its own device records.  No browser."""

from __future__ import annotations

from companion.app.devices import PinGate
from companion.app.roles import Role, rule_checks_note
from companion.app.sharing import Sharing
from companion.engine.roller import Roller
from companion.store import MemoryStore

from random_games import starting_state

BRITISH, FRENCH = Role.holding("British"), Role.holding("French")
OFF, ON = {"kind": "set_bookkeeping", "on": True}, {"kind": "set_bookkeeping", "on": False}


def shared():
    sharing = Sharing(PinGate("123456"))
    game = MemoryStore().new_game(starting_state(1), "shared", roller=Roller.from_seed(1))
    host = sharing.connect(None, "127.0.0.1")
    phone = sharing.connect(None, "10.0.0.7", "iPhone Mobile")
    assert sharing.admit(phone, "123456") is None
    assert sharing.choose(phone, game, FRENCH) is None
    return sharing, game, host, phone


def test_a_guest_side_cannot_turn_the_rule_checks_off():
    sharing, game, host, phone = shared()
    table = sharing.table(game)
    outcome = table.act(phone, OFF)
    assert not outcome.ok and outcome.reason.startswith("Only the host turns the rule checks off or on")
    assert not game.state.settings.bookkeeping and len(game.entries) == 0


def test_not_even_with_the_whole_table_handed_over():
    sharing, game, host, phone = shared()
    assert sharing.hand_over(host, phone.token, game, Role.table()) is None
    assert not sharing.table(game).act(phone, OFF).ok


def test_the_host_turns_them_off_and_a_guest_cannot_undo_it():
    sharing, game, host, phone = shared()
    table = sharing.table(game)
    assert table.act(host, OFF).ok and game.state.settings.bookkeeping
    assert table.undo(phone).startswith("Only the host turns the rule checks off or on")
    assert game.state.settings.bookkeeping
    assert table.undo(host) is None and not game.state.settings.bookkeeping
    assert table.redo(phone).startswith("Only the host")
    assert table.redo(host) is None and game.state.settings.bookkeeping


def test_every_screen_is_told_when_the_rule_checks_change():
    sharing, game, host, phone = shared()
    before = game.state
    sharing.table(game).act(host, OFF)
    assert rule_checks_note(before, game.state) == (
        "Rule checks are off for the whole game: the rules warn and record, nothing is refused.")
    off = game.state
    game.undo()
    assert rule_checks_note(off, game.state) == "Rule checks are on again for the whole game."
    assert rule_checks_note(game.state, game.state) is None
    assert rule_checks_note(None, game.state) is None  # a screen that showed nothing yet


def test_the_app_puts_the_note_on_a_screen_that_hears_the_change():
    """App._heard: the note is given to the screen before it refreshes (any thread)."""
    from companion.app.main import App

    class Screen:
        def __init__(self, game):
            self.game, self.state, self.notes = game, game.state, []

        def message(self, text, info=False):
            self.notes.append((text, info))

        async def refresh(self):
            pass

    sharing, game, host, _ = shared()
    app = App.__new__(App)
    app.table, app.page, app.sharing = Screen(game), None, sharing
    import companion.app.main as app_main  # the run_soon main calls (imported at its top, issue 27)
    scheduled = []
    original, app_main.run_soon = app_main.run_soon, lambda page, work, *a: scheduled.append(work)
    try:
        sharing.table(game).act(host, OFF)
        from companion.app.sharing import Change
        app._heard(Change(1, "game", game.entries[-1]))
    finally:
        app_main.run_soon = original
    assert app.table.notes == [("Rule checks are off for the whole game: the rules warn and record, "
                                "nothing is refused.", False)]  # it stays until the next tap
    assert scheduled


def test_a_phone_the_host_refused_is_told_until_it_has_read_it():
    sharing, game, host, phone = shared()
    sharing.ask_role(phone, game, BRITISH)
    assert sharing.asked(phone, game.id) == BRITISH
    assert sharing.answer(host, phone.token, game, approve=False) is None
    assert sharing.asked(phone, game.id) is None
    assert sharing.refused(phone, game.id) == BRITISH
    assert sharing.role(phone, game.id) == FRENCH
    sharing.seen_refusal(phone, game.id)
    assert sharing.refused(phone, game.id) is None


def test_asking_again_or_the_hosts_word_clears_the_refusal():
    sharing, game, host, phone = shared()
    sharing.ask_role(phone, game, BRITISH)
    sharing.answer(host, phone.token, game, approve=False)
    sharing.ask_role(phone, game, BRITISH)
    assert sharing.refused(phone, game.id) is None and sharing.asked(phone, game.id) == BRITISH
    sharing.answer(host, phone.token, game, approve=False)
    assert sharing.hand_over(host, phone.token, game, BRITISH) is None
    assert sharing.refused(phone, game.id) is None
    sharing.ask_role(phone, game, FRENCH)
    assert sharing.answer(host, phone.token, game, approve=True) is None
    assert sharing.refused(phone, game.id) is None and sharing.role(phone, game.id) == FRENCH
