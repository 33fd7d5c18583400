"""A turn no side can stall (issue 35): a device holding one side ends only its own side's moves.

Ending movement while another side still has ships to move (or a sealed H1 record to reveal) is
refused on the server, naming them; the host may end it for everyone, and every screen is told.
The engine's `end_movement` still ends every move: only who may take it is decided here."""

from __future__ import annotations

import pytest

from companion.app.roles import Role, ends_others_moves, host_ended_note, others_unmoved
from companion.app.sharing import Sharing
from companion.engine.quick_start.ruleset import QUICK_START
from companion.engine.quick_start.turn import to_move
from companion.engine.roller import Roller
from companion.engine.war_fleet.ruleset import WAR_FLEET
from companion.store import MemoryStore

from random_games import starting_state
from test_house_unit_initiative import TIE_STAYS, record, roll
from test_sharing import in_movement

BRITISH, FRENCH = Role.holding("British"), Role.holding("French")
END = {"kind": "end_movement"}


def seated(game, host_role=None, **roles):
    """A hub with the host's browser (holding `host_role`, else the whole table) and one phone per
    side named: {"british": "British"} gives a phone holding British."""
    sharing = Sharing()
    host = sharing.connect(None, "127.0.0.1")
    if host_role is not None:
        assert sharing.choose(host, game, host_role) is None
    phones = {}
    for n, (name, side) in enumerate(roles.items()):
        phone = phones[name] = sharing.connect(None, f"10.0.0.{n + 5}")
        sharing.admit(phone, sharing.pin)
        assert sharing.choose(phone, game, Role.holding(side)) is None
    return sharing, sharing.table(game), host, phones


def quick_start_in_movement():
    game = MemoryStore().new_game(starting_state(1), "shared", roller=Roller.from_seed(1))
    in_movement(game)
    return game


def test_a_side_may_not_end_movement_while_the_other_side_has_ships_to_move():
    game = quick_start_in_movement()
    sharing, table, host, phones = seated(game, british="British", french="French")
    state = game.state
    waiting = {side: [s.card.name for s in state.active_ships if s.side == side and not s.move_done]
               for side in state.sides}
    for phone, mine, theirs in ((phones["british"], "British", "French"), (phones["french"], "French", "British")):
        refused = table.act(phone, END)
        assert not refused.ok
        count = len(waiting[theirs])
        assert refused.reason.startswith(f"{theirs} has {count} ship{'s' if count != 1 else ''} still to move "
                                          f"({waiting[theirs][0]}")
        assert f"a device holding {theirs} ends its own moves" in refused.reason
        assert refused.reason.endswith(f"This device holds {mine}.")
    assert game.state is state  # nothing changed


def test_a_side_ends_movement_once_only_its_own_ships_are_left():
    game = quick_start_in_movement()
    sharing, table, host, phones = seated(game, british="British", french="French")
    while True:  # every ship ends its move in the move order, until one side alone has ships left
        group = to_move(game.state)
        left = {s.side for s in game.state.active_ships if not s.move_done}
        if len(left) < 2:
            break
        side, ship_type = group
        ship = next(s for s in game.state.active_ships if s.side == side and s.card.type == ship_type
                    and not s.move_done)
        assert table.act(phones[side.lower()], {"kind": "end_move", "ship": ship.id}).ok
    (last,) = left
    other = "French" if last == "British" else "British"
    assert others_unmoved(Role.holding(last), END, game.state, QUICK_START) == {}
    assert not table.act(phones[other.lower()], END).ok  # the side still moving ends it, not the other
    assert table.act(phones[last.lower()], END).ok and game.state.phase == "combat"
    assert table.note_of(game.entries[-1]) is None  # a side ending its own moves: nothing to tell


def test_the_host_may_end_movement_for_everyone_and_every_screen_is_told():
    game = quick_start_in_movement()
    sharing, table, host, phones = seated(game, british="British", french="French")
    heard = []
    table.subscribe(heard.append)
    done = table.act(host, END)  # the host's browser, the whole table
    assert done.ok and game.state.phase == "combat"
    note = table.note_of(heard[-1].entry)
    assert note.startswith("The host ended movement: British's ") and "French's " in note
    assert "stay where they are" in note


def test_the_host_holding_one_side_may_end_the_others_moves_too():
    game = quick_start_in_movement()
    sharing, table, host, phones = seated(game, host_role=BRITISH, french="French")
    assert table.act(host, END).ok
    note = table.note_of(game.entries[-1])
    assert note.startswith("The host ended movement: French's ") and "British's" not in note


def test_one_device_playing_every_side_ends_movement_as_before_with_no_note():
    game = quick_start_in_movement()
    sharing, table, host, _ = seated(game)
    assert table.act(host, END).ok and game.state.phase == "combat"
    assert table.note_of(game.entries[-1]) is None  # no other device to tell


def test_a_device_the_host_gave_the_whole_table_may_end_movement():
    game = quick_start_in_movement()
    sharing, table, host, phones = seated(game, british="British")
    assert sharing.hand_over(host, phones["british"].token, game, Role.table()) is None
    assert table.act(phones["british"], END).ok


def test_a_sealed_h1_record_is_never_discarded_by_the_other_side():
    state, _ = roll(TIE_STAYS)
    game = MemoryStore().new_game(state, "h1", roller=Roller.from_seed(1))
    sharing, table, host, phones = seated(game, british="British", french="French")
    assert table.act(phones["british"], {"kind": "end_move", "ship": "raven"}).ok
    assert table.act(phones["british"], record("hertfordshire", "1011", "N")).ok
    refused = table.act(phones["french"], END)
    assert not refused.ok
    assert "the sealed move record of HML Hertfordshire not yet revealed" in refused.reason
    assert refused.reason.startswith("British has 1 ship still to move (HML Hertfordshire")
    assert "hertfordshire" in game.state.sealed_moves  # it survives
    refused = table.act(phones["british"], END)  # nor does British discard French's ships' moves
    assert not refused.ok and refused.reason.startswith("French has 2 ships still to move")
    assert table.act(host, END).ok  # the host may: the record goes, and every screen is told
    assert "the sealed move record of HML Hertfordshire is discarded unrevealed" in table.note_of(game.entries[-1])


@pytest.fixture(scope="module")
def war_fleet_state():
    from companion.app.rulesets.war_fleet import model as M
    from companion.files import load_catalogue, shipped_fleets_dir

    return M.twenty_against_twenty(load_catalogue(), shipped_fleets_dir(), seed="shared")


def test_war_fleet_a_side_ends_only_its_own_groups_and_never_the_whole_movement(war_fleet_state):
    from companion.engine.war_fleet.turn import to_move as wf_to_move

    game = MemoryStore().new_game(war_fleet_state, "battle")
    sharing, table, host, phones = seated(game, british="British", french="French")
    assert table.act(phones["french"], {"kind": "set_initiative", "side": "French"}).ok
    side, ship_class = wf_to_move(game.state)
    mine, theirs = phones[side.lower()], phones[("French" if side == "British" else "British").lower()]
    refused = table.act(theirs, {"kind": "end_group"})  # the other side's group: theirs to end
    assert not refused.ok and refused.reason.startswith(f"{side} has ")
    refused = table.act(mine, END)
    assert not refused.ok and "20 ships still to move" in refused.reason  # all of the other side's
    assert table.act(mine, {"kind": "end_group"}).ok  # its own group
    assert game.state.phase == "movement"
    assert table.act(host, END).ok and game.state.phase == "combat"
    assert "20 ships not moved" in table.note_of(game.entries[-1])


def test_the_rule_reads_the_ruleset_and_the_server_record_of_the_host():
    game = quick_start_in_movement()
    state = game.state
    assert ends_others_moves(BRITISH, END, state, QUICK_START, host=True) is None
    assert ends_others_moves(Role.table(), END, state, QUICK_START, host=False) is None
    assert ends_others_moves(BRITISH, {"kind": "end_turn"}, state, QUICK_START, host=False) is None
    assert ends_others_moves(BRITISH, END, state, QUICK_START, host=False).startswith("French has ")
    assert WAR_FLEET.ends_moves(state, {"kind": "roll_initiative"}) == {}
    left = others_unmoved(Role.table(), END, state, QUICK_START)
    assert set(left) == {"British", "French"} and host_ended_note(left).startswith("The host ended movement")


def test_decisive_victory_a_side_ends_only_its_own_ships_moves():
    from companion.engine.decisive_victory.ruleset import DECISIVE_VICTORY
    from test_dv_turn import in_movement as dv_in_movement

    game = MemoryStore().new_game(dv_in_movement(), "dv")  # Japanese lose the initiative: they move first
    sharing, table, host, phones = seated(game, british="British", japanese="Japanese")
    refused = table.act(phones["japanese"], END)
    assert not refused.ok and refused.reason.startswith("British has 3 ships still to move")
    assert refused.reason.endswith("This device holds Japanese.")
    assert not table.act(phones["british"], END).ok  # nor British the Japanese ships' moves
    for ship in ("ijn-mihon", "ijn-kaze", "ijn-nami"):
        assert table.act(phones["japanese"], {"kind": "set_speed", "ship": ship, "mode": "half"}).ok
        assert table.act(phones["japanese"], {"kind": "end_move", "ship": ship}).ok
    assert DECISIVE_VICTORY.ends_moves(game.state, END).keys() == {"British"}
    assert not table.act(phones["japanese"], END).ok  # British still have theirs to move
    for ship in ("hms-sample", "hms-dash", "hms-dart"):
        assert table.act(phones["british"], {"kind": "set_speed", "ship": ship, "mode": "half"}).ok
    assert table.act(phones["british"], END).ok and game.state.phase == "attacks"
    assert table.note_of(game.entries[-1]) is None
    assert DECISIVE_VICTORY.ends_moves(game.state, END) == {}  # no longer the movement phase
