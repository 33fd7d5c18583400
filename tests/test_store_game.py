"""The game is its log: replay gives exactly what the players saw; undo and redo."""

import random

import pytest

from companion.engine.quick_start.game import apply
from companion.engine.roller import Roller
from companion.engine.quick_start.state import GameState
from companion.store import MemoryStore, TinyDBStore, effective_actions, replay, state_after
from companion.store.game import CHECKPOINT_EVERY

from random_games import next_action, play, random_log, starting_state
from store_helpers import played_game, reopened


def test_replaying_the_logs_of_100_random_games_gives_their_final_states():
    store = MemoryStore()
    for seed in range(100):
        game = played_game(store, seed, actions=400, undo_rate=0.04)
        assert replay(game.initial, effective_actions(game.entries)) == game.state
        assert state_after(game.initial, game.entries) == game.state


def test_random_games_end_and_roll_dice():
    initial, log = random_log(7)
    kinds = {action["kind"] for action in log}
    assert {"roll_initiative", "step", "end_move", "declare_shot", "resolve_shot", "end_turn"} <= kinds
    state = replay(initial, log)
    assert state.phase == "over" and state.roller.counter > 0


def test_reloaded_games_equal_the_games_played(tmp_path):
    store = TinyDBStore(tmp_path, segment_size=16)
    games = [played_game(store, seed, actions=250, undo_rate=0.06) for seed in range(10)]
    again = reopened(tmp_path, segment_size=16)
    for game in games:
        loaded = again.game(game.id)
        assert loaded is not game
        assert loaded.state == game.state
        assert loaded.entries == game.entries
        assert loaded.can_undo == game.can_undo and loaded.can_redo == game.can_redo
        assert loaded.history() == game.history()


@pytest.mark.parametrize("seed", range(12))
def test_undo_then_redo_of_any_action_returns_the_same_state(seed):
    game = MemoryStore().new_game(starting_state(seed), roller=Roller.from_seed(seed))
    rng = random.Random(seed)
    while (action := next_action(game.state, rng)) is not None:
        before = game.state
        assert game.act(action).ok
        after = game.state
        assert game.undo() and game.state == before
        assert game.redo() and game.state == after


def test_undo_goes_back_one_action_at_a_time_to_the_start():
    initial, log = random_log(3, length=2 * CHECKPOINT_EVERY + 7)
    game = MemoryStore().new_game(initial, roller=initial.roller)
    states = [game.state]
    for action in log:
        game.act(action)
        states.append(game.state)
    for expected in reversed(states[:-1]):
        assert game.undo()
        assert game.state == expected
    assert not game.can_undo and not game.undo()
    for expected in states[1:]:
        assert game.redo() and game.state == expected
    assert not game.can_redo


def test_a_new_action_after_undo_drops_the_redo_stack_and_stale_checkpoints():
    initial, log = random_log(4, length=CHECKPOINT_EVERY + 10)
    game = MemoryStore().new_game(initial, roller=initial.roller)
    for action in log:
        game.act(action)
    for _ in range(15):
        game.undo()
    rng = random.Random(1)
    for _ in range(30):
        action = next_action(game.state, rng)
        if action is None:
            break
        game.act(action)
    assert not game.can_redo
    for _ in range(len(game.entries)):
        if not game.undo():
            break
    assert game.state == initial


def test_undone_dice_come_back_the_same():
    """Undoing a roll and rolling again gives the same faces: no fishing for better dice."""
    initial, log = random_log(5)
    game = MemoryStore().new_game(initial, roller=initial.roller)
    for action in log:
        game.act(action)
        if action["kind"] == "resolve_shot":
            break
    first = game.history()[-1]
    game.undo()
    game.act(log[len(game.history()) and game.actions_in_effect])
    assert game.history()[-1] == first


def test_refused_actions_are_not_logged():
    game = MemoryStore().new_game(starting_state(1))
    outcome = game.act({"kind": "end_turn"})
    assert not outcome.ok and game.entries == []
    assert not game.act({"kind": "no_such_action"}).ok


def test_listeners_hear_every_change_after_it_is_saved(tmp_path):
    store = TinyDBStore(tmp_path)
    game = store.new_game(starting_state(1))
    heard = []
    stop = game.listen(lambda g, entry: heard.append((entry.index, len(reopened(tmp_path).stored(g.id).entries))))
    game.act({"kind": "roll_initiative"})
    game.undo()
    stop()
    game.redo()
    assert heard == [(0, 1), (1, 2)]


def test_the_store_hands_out_one_game_object_per_id(tmp_path):
    store = TinyDBStore(tmp_path)
    game = store.new_game(starting_state(1), "one")
    assert store.game(game.id) is game
    again = reopened(tmp_path)
    assert again.game(game.id) is again.game(game.id)


def test_new_games_get_a_secret_seed_shown_only_as_its_commitment(tmp_path):
    store = TinyDBStore(tmp_path)
    unseeded = starting_state(1).model_copy(update={"roller": GameState().roller})
    one, two = store.new_game(unseeded), store.new_game(unseeded)
    assert one.initial.roller.seed != two.initial.roller.seed
    assert len(one.initial.roller.seed) == 64  # 256 bits
    assert one.commitment == one.initial.roller.commitment
    assert one.revealed_seed is None
    summary = next(s for s in store.games() if s.id == one.id)
    assert summary.commitment == one.commitment
    assert one.initial.roller.seed not in repr(summary)


def test_the_seed_is_revealed_when_the_game_is_over():
    initial, log = random_log(2)
    game = MemoryStore().new_game(initial, roller=initial.roller)
    for action in log:
        assert game.revealed_seed is None
        game.act(action)
    assert game.state.phase == "over"
    assert game.revealed_seed == initial.roller.seed


def test_games_list_most_recent_first_with_their_summary(tmp_path):
    store = TinyDBStore(tmp_path)
    first = played_game(store, 1, actions=10, undo_rate=0)
    second = played_game(store, 2, actions=5, undo_rate=0)
    listed = store.games()
    assert [s.id for s in listed] == [second.id, first.id]
    cold = reopened(tmp_path).games()
    assert [(s.id, s.turn, s.phase, s.actions) for s in cold] == [(s.id, s.turn, s.phase, s.actions) for s in listed]
    assert cold[0].sides == ["British", "French"]


def test_unknown_games_are_a_key_error_and_a_plain_value_error():
    store = MemoryStore()
    with pytest.raises(KeyError):
        store.game("nope")
    with pytest.raises(ValueError, match="no game 'nope'"):
        store.game("nope")


def test_memory_store_keeps_the_app_api():
    store = MemoryStore()
    game = store.new_game(starting_state(1), "table")
    assert game.act({"kind": "roll_initiative"}).ok
    assert game.can_undo and not game.can_redo
    assert game.undo() and game.can_redo and game.redo()
    assert [s.name for s in store.games()] == ["table"]
    assert store.game(game.id) is game
    assert [e.kind for e in game.history()][0] in ("initiative", "initiative_tie")
    store.delete(game.id)
    assert store.games() == []
