"""Two phones, one Undo (issue 25 part 6): a change made from a position the game has moved on from
is refused with "The game moved on: look again.", the position being what the server showed that
screen (`Sight`), never the browser's word.  No browser."""

from __future__ import annotations

import random
import threading

from companion.app.devices import PinGate
from companion.app.roles import Role
from companion.app.sharing import MOVED_ON, Sharing, Sight
from companion.engine.roller import Roller
from companion.store import MemoryStore

from random_games import next_action, starting_state


def table_of_two():
    """A shared Quick-Start game some actions in, the host at the table and two phones holding it
    (the host hands each the whole table, so each may undo anything)."""
    sharing = Sharing(PinGate("123456"))
    game = MemoryStore().new_game(starting_state(1), "shared", roller=Roller.from_seed(1))
    rng = random.Random(0)
    for _ in range(4):
        game.act(next_action(game.state, rng))
    host = sharing.connect(None, "127.0.0.1")
    phones = [sharing.connect(None, f"10.0.0.{i}", "iPhone Mobile") for i in (7, 8)]
    for phone in phones:
        assert sharing.admit(phone, "123456") is None
        assert sharing.hand_over(host, phone.token, game, Role.table()) is None
    return sharing, game, phones


def test_two_undos_from_the_same_position_undo_one_action():
    sharing, game, (anna, ben) = table_of_two()
    table = sharing.table(game)
    done = game.actions_in_effect
    annas, bens = Sight(shown=game.state), Sight(shown=game.state)  # both screens drew the same position
    assert table.undo(anna, annas) is None
    assert table.undo(ben, bens) == MOVED_ON == "The game moved on: look again."
    assert game.actions_in_effect == done - 1
    bens.shown = game.state  # Ben's screen drew the game again: now his Undo is taken
    assert table.undo(ben, bens) is None
    assert game.actions_in_effect == done - 2


def test_at_once_from_two_threads_one_is_taken():
    sharing, game, (anna, ben) = table_of_two()
    table, done, seen = sharing.table(game), game.actions_in_effect, game.state
    start, answers = threading.Barrier(2), {}

    def tap(device):
        start.wait()
        answers[device.name] = table.undo(device, Sight(shown=seen))

    threads = [threading.Thread(target=tap, args=(d,)) for d in (anna, ben)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers.values(), key=str) == [None, MOVED_ON]
    assert game.actions_in_effect == done - 1


def test_an_action_and_a_redo_from_a_stale_screen_are_refused_and_change_nothing():
    sharing, game, (anna, ben) = table_of_two()
    table = sharing.table(game)
    bens = Sight(shown=game.state)
    assert table.undo(anna, Sight(shown=game.state)) is None
    entries, state = len(game.entries), game.state
    assert table.redo(ben, bens) == MOVED_ON
    outcome = table.act(ben, next_action(game.state, random.Random(1)), bens)
    assert not outcome.ok and outcome.reason == MOVED_ON
    assert (len(game.entries), game.state) == (entries, state)


def test_a_screen_goes_on_from_its_own_change():
    """Several steps in a row from one screen (rolling every attack) see their own changes."""
    sharing, game, (anna, _) = table_of_two()
    table, rng = sharing.table(game), random.Random(2)
    annas = Sight(shown=game.state)
    for _ in range(3):
        assert table.act(anna, next_action(game.state, rng), annas).ok
    assert table.undo(anna, annas) is None
    assert annas.made is game.state


def test_callers_without_a_screen_give_no_position():
    """A test, a tool: no sight, no position check (the CLI and the store act on the game itself)."""
    sharing, game, (anna, ben) = table_of_two()
    table = sharing.table(game)
    assert table.undo(anna) is None
    assert table.undo(ben) is None


def test_the_game_screen_gives_the_state_the_server_drew_for_it():
    """GameFrame's undo and act (run on the server) give the table the state that screen last drew
    (`frame.state`, set when it rendered), never anything the browser sent."""
    from types import SimpleNamespace

    from companion.app.views.frame import GameFrame

    sharing, game, (anna, ben) = table_of_two()
    drawn = game.state

    def screen(device):
        return SimpleNamespace(app=SimpleNamespace(sharing=sharing, device=device), game=game, state=drawn,
                               sight=Sight())

    annas, bens = screen(anna), screen(ben)
    done = game.actions_in_effect
    assert GameFrame._change(annas, "undo")[0] is None
    problem, _ = GameFrame._change(bens, "undo")
    assert problem == MOVED_ON and game.actions_in_effect == done - 1
    outcome = GameFrame.table_act(bens, next_action(game.state, random.Random(3)))
    assert not outcome.ok and outcome.reason == MOVED_ON
    bens.state = game.state  # Ben's screen drew the game as it is now
    assert GameFrame._change(bens, "undo")[0] is None and game.actions_in_effect == done - 2
