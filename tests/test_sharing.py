"""One table, many screens: roles, the join PIN, the shared table and its broadcast (no browser)."""

from __future__ import annotations

import random
import threading

import pytest

from companion.app.devices import PinGate, device_kind, is_local, new_pin
from companion.app.roles import Role, action_side, may
from companion.engine.quick_start.ruleset import QUICK_START
from companion.app.sharing import Sharing
from companion.engine.roller import Roller
from companion.store import MemoryStore

from random_games import next_action, starting_state

BRITISH, FRENCH, SCREEN, TABLE = Role.holding("British"), Role.holding("French"), Role.screen(), Role.table()


def fresh_game(store=None):
    store = store or MemoryStore()
    return store.new_game(starting_state(1), "shared", roller=Roller.from_seed(1))


def in_movement(game):
    """Play on (seeded) until the movement phase, returning the ship to move first."""
    rng = random.Random(0)
    while game.state.phase != "movement":
        game.act(next_action(game.state, rng))
    from companion.engine.quick_start.turn import to_move
    side, ship_type = to_move(game.state)
    return next(s for s in game.state.active_ships if s.side == side and s.card.type == ship_type)


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


# --- who may do what ---------------------------------------------------------------------------


def test_a_side_moves_only_its_own_ships():
    state = starting_state(1)
    step = {"kind": "step", "ship": "raven", "step": "forward"}
    assert may(BRITISH, step, state, QUICK_START) is None
    refusal = may(FRENCH, step, state, QUICK_START)
    assert refusal == ("HML Raven is a British ship: only a device holding British can move. "
                       "This device holds French.")
    for kind in ("end_move", "place"):
        assert "only a device holding British can move" in may(FRENCH, {"kind": kind, "ship": "raven"}, state, QUICK_START)


def test_shots_and_rolls_belong_to_the_attackers_side():
    state = starting_state(1)
    declare = {"kind": "declare_shot", "attacker": "pontbriand", "location": "bow", "slot": 1,
               "target": "raven", "target_location": "bow"}
    assert may(FRENCH, declare, state, QUICK_START) is None
    assert "Pontbriand is a French ship: only a device holding French can fire its guns" in may(BRITISH, declare, state, QUICK_START)
    from companion.engine.quick_start.state import Shot
    shot = Shot(id=4, attacker="pontbriand", location="bow", slot=1, target="raven", target_location="bow")
    state = state.model_copy(update={"shots": [shot]})
    assert "can roll its shots" in may(BRITISH, {"kind": "resolve_shot", "shot": 4}, state, QUICK_START)
    assert "can cancel its shots" in may(BRITISH, {"kind": "cancel_shot", "shot": 4}, state, QUICK_START)
    assert may(FRENCH, {"kind": "resolve_shot", "shot": 4}, state, QUICK_START) is None


def test_marks_on_a_card_belong_to_the_ships_side_and_concede_to_its_own():
    state = starting_state(1)
    mark = {"kind": "mark_slot", "ship": "raven", "location": "bow", "slot": 1, "status": "destroyed"}
    assert "can mark its ship card" in may(FRENCH, mark, state, QUICK_START)
    assert may(BRITISH, {"kind": "set_keel", "ship": "raven"}, state, QUICK_START) is None
    assert may(FRENCH, {"kind": "concede", "side": "British"}, state, QUICK_START) == (
        "Only a device holding British can concede for British; this device holds French.")
    assert may(FRENCH, {"kind": "concede", "side": "French"}, state, QUICK_START) is None


def test_table_actions_are_any_sides_the_screen_none_and_the_whole_table_all():
    state = starting_state(1)
    for kind in ("roll_initiative", "start_game", "end_movement", "end_turn"):
        assert may(BRITISH, {"kind": kind}, state, QUICK_START) is None
        assert may(FRENCH, {"kind": kind}, state, QUICK_START) is None
        assert may(SCREEN, {"kind": kind}, state, QUICK_START).startswith("This is the shared screen")
        assert may(TABLE, {"kind": kind}, state, QUICK_START) is None
    assert may(TABLE, {"kind": "step", "ship": "pontbriand", "step": "forward"}, state, QUICK_START) is None
    assert may(None, {"kind": "end_turn"}, state, QUICK_START).startswith("This device has not joined")


def test_an_action_is_checked_as_data_or_as_a_model():
    from companion.engine.quick_start import actions as A
    state = starting_state(1)
    assert action_side(A.Step(ship="pelletier", step="forward"), state, QUICK_START) == "French"
    assert action_side({"kind": "end_turn"}, state, QUICK_START) is None
    assert action_side({"kind": "resolve_shot", "shot": 99}, state, QUICK_START) is None  # no such shot: the game refuses it


def test_roles_have_stable_string_ids():
    for role in (BRITISH, SCREEN, TABLE, Role.holding("Royal Navy: Home Fleet")):
        assert Role.from_key(role.key) == role
    with pytest.raises(ValueError, match="not a role"):
        Role.from_key("captain")
    assert SCREEN.read_only and not BRITISH.read_only


# --- the join PIN --------------------------------------------------------------------------------


def test_a_pin_is_six_digits_and_new_each_start():
    pins = {new_pin() for _ in range(50)}
    assert all(len(p) == 6 and p.isdigit() for p in pins)
    assert len(pins) > 40
    assert len({Sharing().pin for _ in range(5)}) > 1  # each server start draws its own


def test_a_wrong_pin_is_refused_with_the_tries_left_then_a_doubling_wait():
    clock = Clock()
    gate = PinGate("123456", clock=clock)
    assert gate.check("10.0.0.7", "123 456") is None  # spaces do not matter
    for left in (4, 3, 2, 1):
        assert f"{left} more tr" in gate.check("10.0.0.7", "000000")
    assert "try again in 30 seconds" in gate.check("10.0.0.7", "000000")
    assert "try again in 30 seconds" in gate.check("10.0.0.7", "123456")  # even the right PIN waits
    assert gate.check("10.0.0.8", "123456") is None  # another device is not held up
    clock.now += 31
    assert "try again in 60 seconds" in gate.check("10.0.0.7", "999999")
    clock.now += 61
    assert gate.check("10.0.0.7", "123456") is None  # the right PIN clears the count
    assert "4 more tries" in gate.check("10.0.0.7", "1")


def test_many_addresses_cannot_share_out_the_guessing():
    clock = Clock()
    gate = PinGate("123456", clock=clock, network_limit=10, network_window=600)
    for i in range(10):
        assert "not right" in gate.check(f"10.0.1.{i}", "000000")
    assert "PINs are not checked for 10 minutes" in gate.check("10.0.2.1", "123456")
    clock.now += 601
    assert gate.check("10.0.2.1", "123456") is None


def test_the_network_pause_does_not_lock_the_table_out_the_host_lets_a_device_in():
    """Issue 11.6: one guesser's wrong PINs paused all joining, and a phone typing the right PIN was
    refused.  The guessing stays slow (the PIN is not checked during the pause), but the phone waits
    on the host's screen and is in with the host's one tap."""
    clock = Clock()
    sharing = Sharing(PinGate("123456", clock=clock, network_limit=10, network_window=600), clock=clock)
    host = sharing.connect(None, "127.0.0.1")
    for i in range(10):
        guesser = sharing.connect(None, f"10.0.1.{i}")
        assert "not right" in sharing.admit(guesser, "000000")
    phone = sharing.connect(None, "10.0.2.1", "iPhone Mobile")
    clock.now += 1
    refused = sharing.admit(phone, "123456")
    assert refused == ("Too many wrong PINs on this network: PINs are not checked for 10 minutes. "
                       "The host can let this device in: it is listed on their screen.")
    assert not phone.may_enter
    assert sharing.waiting()[0] is phone  # listed for the host, the latest first
    guesser = sharing.connect(None, "10.0.1.99")
    assert "not checked" in sharing.admit(guesser, "123456")  # even a lucky guess is not checked
    assert not guesser.may_enter
    assert sharing.let_in(guesser, phone.token) == "Only the host can let a device in."
    assert not phone.may_enter
    assert sharing.let_in(host, phone.token) is None
    assert phone.may_enter and phone not in sharing.waiting()
    assert guesser in sharing.waiting()
    assert sharing.turn_away(host, guesser.token) is None and guesser not in sharing.waiting()
    assert not guesser.may_enter


def test_a_device_waiting_out_its_own_wrong_pins_can_be_let_in_or_ask_to_be():
    clock = Clock()
    sharing = Sharing(PinGate("123456", clock=clock), clock=clock)
    host = sharing.connect(None, "127.0.0.1")
    phone = sharing.connect(None, "10.0.0.7")
    heard = []
    sharing.subscribe(lambda: heard.append(len(sharing.waiting())))
    for _ in range(4):
        sharing.admit(phone, "000000")
    assert sharing.waiting() == []  # tries left: not yet listed
    assert sharing.admit(phone, "000000").endswith("it is listed on their screen.")
    assert sharing.waiting() == [phone] and heard[-1] == 1
    other = sharing.connect(None, "10.0.0.8")
    clock.now += 5
    sharing.ask_in(other)  # the "ask the host" button: no PIN at all
    assert sharing.waiting() == [other, phone]
    assert sharing.let_in(host, phone.token) is None and heard[-1] == 1
    sharing.disconnect(other)  # gone from the network: no longer listed
    assert sharing.waiting() == []


def test_the_host_forgets_a_device_and_its_token_no_longer_admits():
    """Issue 11.7: a device token never expired.  The host forgets a device: its screens lose the
    game at once (the server refuses its actions), and its token is a stranger's."""
    sharing = Sharing()
    game = fresh_game()
    table = sharing.table(game)
    host = sharing.connect(None, "127.0.0.1")
    phone = sharing.connect(None, "10.0.0.5")
    sharing.admit(phone, sharing.pin)
    sharing.choose(phone, game, BRITISH)
    token = phone.token
    assert sharing.forget(phone, token) == "Only the host can forget a device."
    assert sharing.forget(host, host.token) == "The host's own browser is always let in: it cannot be forgotten."
    assert sharing.forget(host, token) is None
    assert not phone.may_enter and sharing.role(phone, game.id) is None
    refused = table.act(phone, {"kind": "roll_initiative"})
    assert not refused.ok and "join PIN" in refused.reason and game.entries == []
    again = sharing.connect(token, "10.0.0.5")
    assert again is not phone and not again.may_enter
    assert sharing.admit(phone, sharing.pin) is None  # the PIN again: in, with a new token
    assert phone.may_enter and phone.token != token and sharing.device(phone.token) is phone


def test_tokens_end_with_the_pin():
    """A new PIN (drawn by the host, or at a restart) ends every other device's token."""
    sharing = Sharing()
    game = fresh_game()
    host = sharing.connect(None, "127.0.0.1")
    phone = sharing.connect(None, "10.0.0.5")
    old_pin = sharing.pin
    sharing.admit(phone, old_pin)
    sharing.choose(phone, game, FRENCH)
    assert sharing.renew_pin(phone) == "Only the host can change the PIN."
    assert sharing.renew_pin(host) is None
    assert sharing.pin != old_pin or len(sharing.pin) == 6
    assert not phone.may_enter and sharing.connect(phone.token, "10.0.0.5") is not phone
    assert host.may_enter and sharing.device(host.token) is host
    stranger = sharing.connect(None, "10.0.0.6")
    if sharing.pin != old_pin:
        assert "not right" in sharing.admit(stranger, old_pin)
    restarted = Sharing()  # a restart: a new hub, a new PIN, no old token known
    assert not restarted.connect(phone.token, "10.0.0.5").may_enter


def test_an_empty_pin_is_asked_for_without_counting():
    gate = PinGate("123456")
    assert gate.check("10.0.0.7", "  ") == "Type the PIN shown on the host's screen."
    assert gate.check("10.0.0.7", "000000") == "That PIN is not right: 4 more tries before a wait."  # the first


# --- devices, the host and hand-over --------------------------------------------------------------


def test_the_host_is_a_browser_on_this_computer():
    assert is_local("127.0.0.1") and is_local("::1") and is_local("::ffff:127.0.0.1") and is_local("127.0.0.2")
    assert not is_local("192.168.1.20") and not is_local("") and not is_local(None) and not is_local("fd00::2")
    assert device_kind("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Mobile/15E148") == "Phone"
    assert device_kind("Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile Safari") == "Phone"
    assert device_kind("Mozilla/5.0 (Linux; Android 14; SM-X710) Safari") == "Tablet"
    assert device_kind("Mozilla/5.0 (X11; Linux x86_64) Chrome/120") == "Computer"


def test_a_device_on_the_network_needs_the_pin_to_see_or_change_anything():
    sharing = Sharing(PinGate("246810"))
    game = fresh_game()
    table = sharing.table(game)
    phone = sharing.connect(None, "192.168.1.20", "iPhone Mobile")
    assert not phone.may_enter and phone.name == "Phone 1"
    assert sharing.refusal(phone) == "Enter the join PIN shown on the host's screen first."
    assert sharing.choose(phone, game, BRITISH) == "Enter the join PIN shown on the host's screen first."
    refused = table.act(phone, {"kind": "roll_initiative"})
    assert not refused.ok and "join PIN" in refused.reason and game.entries == []
    assert "not right" in sharing.admit(phone, "111111")
    assert sharing.admit(phone, "246810") is None and phone.may_enter
    assert sharing.role(phone, game.id) is None  # in, but no role yet
    assert table.act(phone, {"kind": "roll_initiative"}).reason.startswith("This device has not joined")
    assert sharing.choose(phone, game, BRITISH) is None
    assert table.act(phone, {"kind": "roll_initiative"}).ok


def test_the_host_needs_no_pin_and_plays_the_whole_table_until_it_picks():
    sharing = Sharing()
    game = fresh_game()
    host = sharing.connect(None, "127.0.0.1")
    assert host.host and host.may_enter and host.name == "This computer"
    assert sharing.role(host, game.id) == TABLE
    assert TABLE in sharing.choices(host, game.state)
    phone = sharing.connect(None, "10.0.0.5")
    assert sharing.choices(phone, game.state) == [BRITISH, FRENCH, SCREEN]
    sharing.admit(phone, sharing.pin)
    assert sharing.choose(phone, game, TABLE) == "Only the host can give a device the whole table."
    assert sharing.choose(phone, game, Role.holding("Prussian")) == (
        "There is no side 'Prussian' in this game (sides: British, French).")


def test_a_device_comes_back_with_its_token_and_keeps_its_role():
    sharing = Sharing()
    game = fresh_game()
    phone = sharing.connect(None, "10.0.0.5", "Android Mobile")
    sharing.admit(phone, sharing.pin)
    sharing.choose(phone, game, FRENCH)
    sharing.disconnect(phone)
    again = sharing.connect(phone.token, "10.0.0.9", "Android Mobile")  # slept, new address from the router
    assert again is phone and again.may_enter and sharing.role(again, game.id) == FRENCH
    stranger = sharing.connect("made-up-token", "10.0.0.6")
    assert stranger is not phone and not stranger.may_enter


def test_a_token_does_not_make_a_remote_browser_the_host():
    sharing = Sharing()
    host = sharing.connect(None, "127.0.0.1")
    copied = sharing.connect(host.token, "10.0.0.66")
    assert not copied.host


def test_only_the_host_hands_a_side_over():
    sharing = Sharing()
    game = fresh_game()
    host = sharing.connect(None, "127.0.0.1")
    old, new = sharing.connect(None, "10.0.0.5"), sharing.connect(None, "10.0.0.6")
    for phone in (old, new):
        sharing.admit(phone, sharing.pin)
    sharing.choose(old, game, BRITISH)
    sharing.choose(new, game, SCREEN)
    assert sharing.hand_over(old, new.token, game, BRITISH) == "Only the host can hand a side over."
    assert sharing.hand_over(host, new.token, game, BRITISH) is None
    assert sharing.hand_over(host, old.token, game, SCREEN) is None
    assert sharing.role(new, game.id) == BRITISH and sharing.role(old, game.id) == SCREEN
    refused = sharing.table(game).act(old, {"kind": "roll_initiative"})
    assert refused.reason.startswith("This is the shared screen")
    seats = {s.name: s.role for s in sharing.seats(game.id)}
    assert seats == {old.name: SCREEN, new.name: BRITISH}
    assert sharing.hand_over(host, "gone", game, BRITISH) == "That device has left."


def test_a_device_changes_its_role_only_with_the_hosts_approval():
    """Issue 11.4: a device holding British pressed Change and took French with no one's consent."""
    sharing = Sharing()
    game = fresh_game()
    table = sharing.table(game)
    host = sharing.connect(None, "127.0.0.1")
    phone = sharing.connect(None, "10.0.0.5")
    sharing.admit(phone, sharing.pin)
    assert sharing.choose(phone, game, BRITISH) is None  # the first pick is its own
    assert sharing.choose(phone, game, FRENCH) == (
        "This device holds British: ask the host to change it (they approve it on their screen).")
    assert sharing.role(phone, game.id) == BRITISH
    assert sharing.ask_role(phone, game, FRENCH) is None
    assert sharing.role(phone, game.id) == BRITISH and sharing.asked(phone, game.id) == FRENCH
    assert [s.asks for s in sharing.seats(game.id) if s.token == phone.token] == [FRENCH]
    assert sharing.requests() == [(phone, game.id, FRENCH)]
    assert sharing.answer(phone, phone.token, game, True) == "Only the host can approve a change of role."
    assert sharing.role(phone, game.id) == BRITISH
    assert sharing.answer(host, phone.token, game, False) is None  # refused: it keeps British
    assert sharing.role(phone, game.id) == BRITISH and sharing.asked(phone, game.id) is None
    sharing.ask_role(phone, game, FRENCH)
    assert sharing.answer(host, phone.token, game, True) is None
    assert sharing.role(phone, game.id) == FRENCH and sharing.requests() == []
    assert sharing.answer(host, phone.token, game, True) == f"{phone.name} is not asking for a change now."
    assert sharing.ask_role(phone, game, TABLE) == "Only the host can give a device the whole table."
    sharing.ask_role(phone, game, BRITISH)
    sharing.ask_role(phone, game, FRENCH)  # asking for what it holds takes the question back
    assert sharing.asked(phone, game.id) is None
    assert sharing.choose(host, game, BRITISH) is None and sharing.choose(host, game, FRENCH) is None
    assert table.act(phone, {"kind": "roll_initiative"}).ok


# --- device names (issue 18) --------------------------------------------------------------------


def test_the_host_renames_a_device_and_the_name_shows_everywhere_it_is_named():
    """Issue 18: 'devices named This computer 2 that cannot be renamed'."""
    sharing = Sharing()
    game = fresh_game()
    heard = []
    sharing.table(game).subscribe(heard.append)
    host = sharing.connect(None, "127.0.0.1")
    phone = sharing.connect(None, "10.0.0.5", "iPhone Mobile")
    sharing.admit(phone, sharing.pin)
    sharing.choose(phone, game, BRITISH)
    heard.clear()
    assert sharing.rename(host, phone.token, "  Anna's   phone ") is None
    assert phone.name == "Anna's phone" and phone.ident == "Phone 1"  # its controls keep their id
    assert [c.kind for c in heard] == ["seats"]  # every screen at the game hears it
    seat = next(s for s in sharing.seats(game.id) if s.token == phone.token)
    assert (seat.name, seat.ident, seat.holds) == ("Anna's phone", "Phone 1", "British")
    sharing.ask_role(phone, game, FRENCH)
    assert sharing.requests()[0][0].name == "Anna's phone"  # the host's approval names it
    assert sharing.answer(host, phone.token, game, True) is None
    sharing.disconnect(phone)
    again = sharing.connect(phone.token, "10.0.0.9", "iPhone Mobile")  # the name stays with the token
    assert again is phone and again.name == "Anna's phone"


def test_a_device_renames_itself_but_no_other_and_names_are_bounded():
    sharing = Sharing()
    host = sharing.connect(None, "127.0.0.1")
    phone = sharing.connect(None, "10.0.0.5", "iPhone Mobile")
    tablet = sharing.connect(None, "10.0.0.6", "iPad")
    for device in (phone, tablet):
        sharing.admit(device, sharing.pin)
    assert sharing.rename(phone, phone.token, "Ben's phone") is None and phone.name == "Ben's phone"
    assert sharing.rename(phone, tablet.token, "Mine now") == "Only the host can rename another device."
    assert sharing.rename(phone, host.token, "Not the host") == "Only the host can rename another device."
    assert tablet.name == "Tablet 1" and host.name == "This computer"
    assert sharing.rename(tablet, tablet.token, " \t ") == "Give the device a name."
    assert sharing.rename(tablet, tablet.token, "x" * 41) == "A device's name is at most 40 characters (41 given)."
    assert sharing.rename(tablet, tablet.token, "BEN'S PHONE") == (
        "Another device is already called BEN'S PHONE: pick another name.")
    assert sharing.rename(tablet, tablet.token, "x" * 40) is None and tablet.name == "x" * 40
    assert sharing.rename(host, host.token, "Table\x00 laptop\n") is None and host.name == "Table laptop"
    assert sharing.rename(host, "gone", "Anyone") == "That device has left."


def test_renaming_is_decided_from_the_servers_record_not_a_copied_token():
    sharing = Sharing()
    host = sharing.connect(None, "127.0.0.1")
    phone = sharing.connect(None, "10.0.0.5")
    copied = sharing.connect(host.token, "10.0.0.66")  # a remote browser replaying the host's token
    assert not copied.host
    assert sharing.rename(copied, phone.token, "Hijacked") == "Only the host can rename another device."
    assert phone.name == "Computer 1"


def test_the_devices_list_says_what_each_device_holds():
    sharing = Sharing()
    game = fresh_game()
    host = sharing.connect(None, "127.0.0.1")
    phone, tv, watcher = (sharing.connect(None, f"10.0.0.{n}") for n in (5, 6, 7))
    for device in (phone, tv, watcher):
        sharing.admit(device, sharing.pin)
        sharing.showing(device, game.id)
    sharing.showing(host, game.id)
    sharing.choose(phone, game, FRENCH)
    sharing.choose(tv, game, SCREEN)
    holds = {s.token: s.holds for s in sharing.seats(game.id)}
    assert holds == {host.token: "whole table", phone.token: "French", tv.token: "shared screen",
                     watcher.token: "watching"}


def test_forgetting_a_renamed_device_ends_its_token():
    sharing = Sharing()
    host = sharing.connect(None, "127.0.0.1")
    phone = sharing.connect(None, "10.0.0.5")
    sharing.admit(phone, sharing.pin)
    sharing.rename(host, phone.token, "Anna's phone")
    token = phone.token
    assert sharing.forget(host, token) is None
    assert not phone.may_enter and sharing.device(token) is None
    assert not sharing.connect(token, "10.0.0.5").may_enter  # the PIN again


def test_the_shared_screen_cannot_make_itself_a_side():
    sharing = Sharing()
    game = fresh_game()
    tv = sharing.connect(None, "10.0.0.9")
    sharing.admit(tv, sharing.pin)
    assert sharing.choose(tv, game, SCREEN) is None
    assert "ask the host" in sharing.choose(tv, game, BRITISH)
    assert sharing.role(tv, game.id) == SCREEN
    assert not sharing.table(game).act(tv, {"kind": "roll_initiative"}).ok


def test_only_the_host_starts_games():
    """Issue 11.4: the shared screen started a War Fleet battle on the host."""
    sharing = Sharing()
    host = sharing.connect(None, "127.0.0.1")
    tv = sharing.connect(None, "10.0.0.9")
    sharing.admit(tv, sharing.pin)
    assert sharing.may_start(host) is None
    assert sharing.may_start(tv).startswith("Only the host starts games")


def test_a_war_fleet_battle_is_shared_by_sides_checked_on_the_server():
    """Issue 13: War Fleet gets the same roles as Quick-Start, decided through its ruleset: a side
    moves and fires its own ships only, the table's steps are anyone's, the shared screen changes
    nothing, and every device hears each change."""
    from companion.app.rulesets.war_fleet import model as M
    from companion.engine.kernel import RefusalKind
    from companion.files import load_catalogue, shipped_fleets_dir

    state = M.twenty_against_twenty(load_catalogue(), shipped_fleets_dir(), seed="shared")
    game = MemoryStore().new_game(state, "shared battle")
    sharing = Sharing()
    british, french, tv = (sharing.connect(None, f"10.0.0.{n}") for n in (5, 6, 9))
    for device, role in ((british, Role.holding("British")), (french, Role.holding("French")), (tv, Role.screen())):
        sharing.admit(device, sharing.pin)
        assert sharing.choose(device, game, role) is None
    table = sharing.table(game)
    heard = []
    table.subscribe(heard.append)
    assert table.act(french, {"kind": "set_initiative", "side": "French"}).ok  # a step of the whole table
    refused = table.act(french, {"kind": "step", "ship": "hml-leviathan", "step": "starboard"})
    assert (refused.ok, refused.kind) == (False, RefusalKind.SIDE)
    assert "HML Leviathan is a British ship: only a device holding British can move" in refused.reason
    assert table.act(british, {"kind": "step", "ship": "hml-leviathan", "step": "starboard"}).ok
    assert table.undo(french).startswith("Not undone. HML Leviathan is a British ship")
    assert not table.act(tv, {"kind": "end_movement"}).ok and table.undo(tv).startswith("This is the shared screen")
    assert not table.act(british, {"kind": "no_such_kind"}).ok
    assert [e.action["kind"] for e in game.entries] == ["set_initiative", "step"] and len(heard) == 2


# --- the shared table ------------------------------------------------------------------------------


def test_every_refusal_is_enforced_by_the_table_before_the_game_changes():
    sharing = Sharing()
    game = fresh_game()
    table = sharing.table(game)
    host = sharing.connect(None, "127.0.0.1")
    french, screen = sharing.connect(None, "10.0.0.5"), sharing.connect(None, "10.0.0.6")
    for device, role in ((french, FRENCH), (screen, SCREEN)):
        sharing.admit(device, sharing.pin)
        sharing.choose(device, game, role)
    ship = in_movement(game)
    step = {"kind": "step", "ship": ship.id, "step": "forward"}
    before = list(game.entries)
    for device in ((french,) if ship.side == "British" else ()) + (screen,):
        outcome = table.act(device, step)
        assert not outcome.ok and game.entries == before
    assert table.act(host, {"kind": "step", "ship": ship.id, "step": "forward"}).ok
    assert table.actor_of(len(game.entries) - 1) == "This computer"


def test_you_may_undo_what_you_may_do():
    sharing = Sharing()
    game = fresh_game()
    table = sharing.table(game)
    british, french = sharing.connect(None, "10.0.0.5"), sharing.connect(None, "10.0.0.6")
    for device, role in ((british, BRITISH), (french, FRENCH)):
        sharing.admit(device, sharing.pin)
        sharing.choose(device, game, role)
    ship = in_movement(game)
    owner, other = (british, french) if ship.side == "British" else (french, british)
    assert table.act(owner, {"kind": "step", "ship": ship.id, "step": "forward"}).ok
    count = len(game.entries)
    problem = table.undo(other)
    assert problem.startswith(f"Not undone. {ship.card.name} is a {ship.side} ship")
    assert len(game.entries) == count
    assert table.undo(owner) is None and len(game.entries) == count + 1
    assert table.redo(other).startswith("Not redone.")
    assert table.redo(owner) is None
    screen = sharing.connect(None, "10.0.0.7")
    sharing.admit(screen, sharing.pin)
    sharing.choose(screen, game, SCREEN)
    assert table.undo(screen).startswith("This is the shared screen")


def test_one_table_per_game_and_a_new_one_for_a_reopened_game():
    sharing = Sharing()
    store = MemoryStore()
    game = fresh_game(store)
    assert sharing.table(game) is sharing.table(store.game(game.id))
    other = fresh_game(store)
    assert sharing.table(other) is not sharing.table(game)


def test_changes_reach_every_subscriber_once_in_order_from_many_threads():
    sharing = Sharing()
    game = fresh_game()
    table = sharing.table(game)
    heard: dict[int, list] = {i: [] for i in range(8)}
    for i in range(8):
        table.subscribe(lambda change, i=i: heard[i].append(change))
    devices = []
    for side in ("British", "French") * 2:
        device = sharing.connect(None, f"10.0.0.{len(devices) + 10}")
        sharing.admit(device, sharing.pin)
        sharing.choose(device, game, Role.holding(side))
        devices.append(device)
    applied = {d.name: 0 for d in devices}
    lock = threading.Lock()

    def player(device, seed):
        rng = random.Random(seed)
        for _ in range(60):
            action = next_action(game.state, rng)
            if action is None:
                return
            if table.act(device, action).ok:
                with lock:
                    applied[device.name] += 1

    threads = [threading.Thread(target=player, args=(d, n)) for n, d in enumerate(devices)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    entries = game.entries
    assert sum(applied.values()) == len(entries) > 20  # nothing lost, nothing applied twice
    for changes in heard.values():
        games = [c for c in changes if c.kind == "game"]
        assert [c.entry.index for c in games] == list(range(len(entries)))
        versions = [c.version for c in changes]
        assert versions == sorted(versions) and len(set(versions)) == len(versions)
    for device in devices:
        assert sum(1 for i in range(len(entries)) if table.actor_of(i) == device.name) == applied[device.name]


def test_a_subscriber_that_fails_does_not_stop_the_others():
    sharing = Sharing()
    game = fresh_game()
    table = sharing.table(game)
    heard = []

    def broken(change):
        raise RuntimeError("session closed")

    table.subscribe(broken)
    stop = table.subscribe(heard.append)
    host = sharing.connect(None, "127.0.0.1")
    assert table.act(host, {"kind": "roll_initiative"}).ok
    assert [c.kind for c in heard] == ["game"]
    stop()
    table.seats_changed()
    assert len(heard) == 1 and table.listeners == 1


# --- the QR code of the join address ------------------------------------------------------------------


def test_the_join_qr_code_is_a_standard_code_with_its_finder_patterns():
    from companion.app.qr import qr_code, qr_png

    matrix = qr_code("http://192.168.1.20:8550/").matrix  # quiet zone left out
    rows = ["".join("#" if module else "." for module in row) for row in matrix]
    size = len(rows)
    assert size == 25 and all(len(row) == size for row in rows)  # version 2: 25 x 25 modules
    finder = ["#######", "#.....#", "#.###.#", "#.###.#", "#.###.#", "#.....#", "#######"]
    for top, left in ((0, 0), (0, size - 7), (size - 7, 0)):
        assert [row[left:left + 7] for row in rows[top:top + 7]] == finder
    png = qr_png("http://192.168.1.20:8550/", scale=4, border=4)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert width == height == (25 + 8) * 4


# --- the shared screen ---------------------------------------------------------------------------------


def test_the_shared_screen_shows_whose_turn_the_last_roll_and_the_ships_lost():
    from companion.app.screenmodel import screen_model

    game = fresh_game()
    model = screen_model(game.state, game.history(), game.actions_in_effect)
    assert model.headline == "Turn 1 · Initiative" and model.whose == "Roll for initiative"
    assert model.last_roll is None and model.lost == ()
    assert [(s.side, s.afloat, s.ships) for s in model.sides] == [("British", 2, 2), ("French", 2, 2)]
    ship = in_movement(game)
    model = screen_model(game.state, game.history(), game.actions_in_effect)
    assert model.headline == "Turn 1 · Movement" and model.whose_side == ship.side
    assert model.whose.startswith(f"{ship.side} to move: {ship.card.name}")
    roll = model.last_roll
    assert roll.kind == "initiative" and roll.title == "Initiative" and len(roll.dice) == 4
    assert "wins the initiative" in roll.text
    # play on to the first breach roll
    rng = random.Random(5)
    while not any(e.kind == "shot" for e in game.history()):
        game.act(next_action(game.state, rng))
    roll = screen_model(game.state, game.history(), game.actions_in_effect).last_roll
    shot = [e for e in game.history() if e.kind == "shot"][-1]
    assert roll.kind == "shot" and shot.text == f"{roll.title}: {roll.text}"
    assert ("D6", shot.data["result"]["slot_rolls"][0]) in roll.dice
    game.act({"kind": "set_keel", "ship": "raven", "broken": True})
    lost = screen_model(game.state, game.history(), game.actions_in_effect).lost
    assert [(l.name, l.side, l.why) for l in lost] == [("HML Raven", "British", "its keel broke")]


def test_undo_cannot_fish_for_better_dice():
    """The reading 'you may undo what you may do' is safe: the same shot rolls the same faces again."""
    game = fresh_game()
    rng = random.Random(5)
    while not any(s.result is None for s in game.state.shots):
        game.act(next_action(game.state, rng))
    shot = next(s for s in game.state.shots if s.result is None)
    first = game.act({"kind": "resolve_shot", "shot": shot.id})
    assert first.ok and game.undo()
    again = game.act({"kind": "resolve_shot", "shot": shot.id})
    result = lambda outcome: next(s.result for s in outcome.state.shots if s.id == shot.id)  # noqa: E731
    assert result(again) == result(first)


# --- loading a scenario (issue 11.7) ---------------------------------------------------------------------


def quick_start_scenario() -> dict:
    from companion.engine.quick_start.scenario import scenario_of

    return scenario_of(starting_state(1), "Quick-Start").model_dump(mode="json")


def test_a_scenario_path_is_read_only_if_it_is_a_plain_small_file(tmp_path):
    """`/dev/zero` took the server to 2.7 GB and `/dev/stdin` blocked its threads: a device, a FIFO or a
    folder is refused by what the open file is, without reading it, and so is a file too big."""
    import json
    import os

    from companion.app.views.info import MAX_SCENARIO_CHARS, read_scenario_file
    from companion.engine.cards import FormatError

    for path, said in (("/dev/zero", "is a device, not a plain file"), (str(tmp_path), "is a folder"),
                       (str(tmp_path / "nothing.json"), "no such file")):
        with pytest.raises(FormatError, match=said):
            read_scenario_file(path)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(FormatError, match="is a pipe"):
        read_scenario_file(str(fifo))  # returns at once: no writer is waited for
    big = tmp_path / "big.json"
    big.write_text(" " * (MAX_SCENARIO_CHARS + 1))
    with pytest.raises(FormatError, match="reads files of at most 2 MB"):
        read_scenario_file(str(big))
    good = tmp_path / "good.json"
    good.write_text(json.dumps(quick_start_scenario()))
    assert '"leviathans-scenario/1"' in read_scenario_file(str(good))


def test_a_pasted_scenario_is_bounded_before_it_is_built():
    """A 999 x 999 board left the server unanswering for 680 s, 2,000 ships froze it for 79 s."""
    import json

    from companion.app.views.info import scenario_state
    from companion.engine.cards import FormatError
    from companion.files import load_catalogue

    catalogue = load_catalogue()
    data = quick_start_scenario()
    state, name = scenario_state(json.dumps(data), catalogue, "1")
    assert len(state.ships) == 4 and name == "Quick-Start"
    wide = dict(data, board={"columns": 999, "rows": 999})
    with pytest.raises(FormatError, match="too big") as refused:
        scenario_state(json.dumps(wide), catalogue, "1")
    assert "999" in str(refused.value)
    ship = dict(data["ships"][0], card=data["ships"][0]["card"]["id"])  # the card by its id: a small file
    crowd = dict(data, ships=[dict(ship, id=f"s{i}") for i in range(2000)])
    with pytest.raises(FormatError, match="too many") as refused:
        scenario_state(json.dumps(crowd), catalogue, "1")
    assert "2,000" in str(refused.value) or "2000" in str(refused.value)
    from companion.app.views.info import MAX_SCENARIO_CHARS
    with pytest.raises(FormatError, match="is over 2 MB"):
        scenario_state(" " * (MAX_SCENARIO_CHARS + 1), catalogue, "1")
    with pytest.raises(FormatError, match="nested too deeply"):
        scenario_state("[" * 100_000, catalogue, "1")


def test_the_shared_screen_draws_each_declared_shot_with_its_exact_odds():
    """Issue 14.3: the TV shows a declared shot as a line from the gun's hex to the struck location's."""
    from fractions import Fraction

    from companion.app.screenmodel import screen_model
    from companion.app.viewmodels import percent
    from companion.engine.quick_start import actions as A
    from companion.engine.quick_start.combat import breach_odds, shot_pool, weapon_hex
    from companion.engine.quick_start.game import apply

    from random_games import close_battle

    state = close_battle()
    assert screen_model(state, [], 0).shots == ()
    state = apply(state, A.DeclareShot(attacker="hertfordshire", location="bow", slot=1, target="pontbriand",
                                       target_location="bow")).state
    (line,) = screen_model(state, [], 0).shots
    attacker, target = state.ship("hertfordshire"), state.ship("pontbriand")
    odds = breach_odds(shot_pool(attacker, "bow", 1, "short", target, "bow"), 0, target, "bow")
    assert (line.side, line.start, line.end) == ("British", weapon_hex(attacker, "bow"), weapon_hex(target, "bow"))
    assert line.what.startswith("HML Hertfordshire ") and line.what.endswith(" at Pontbriand bow")
    assert line.odds == f"{percent(odds.any_damage)} to damage" and 0 < odds.any_damage < Fraction(1)


def test_the_shared_screen_zooms_to_the_ships_in_play_never_past_the_whole_board():
    from companion.app.geometry import HexLayout
    from companion.app.views.screen import LARGEST, fitted_size, in_play, ships_view

    from random_games import close_battle

    state = close_battle()
    width, height = 1516, 930  # the map's room on a 1920 x 1080 TV
    whole = fitted_size(state.board, width, height)
    size, left, top = ships_view(state.board, in_play(state), width, height)
    assert whole < size <= LARGEST
    layout = HexLayout(state.board, size)
    for cell in in_play(state):  # every ship in view, a hex clear of the edges
        x, y = layout.centre(cell)
        assert left + size <= x <= left + width - size and top + size <= y <= top + height - size
    assert ships_view(state.board, (), width, height) == (whole, 0.0, 0.0)
    spread = tuple(state.board.cells())  # ships over the whole board: the whole board
    assert ships_view(state.board, spread, width, height)[0] == whole
