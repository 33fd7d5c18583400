"""Dice players can verify: commitment at the start, every roll re-derived at the end."""

from companion.engine.roller import Roller
from companion.store import MemoryStore
from companion.store.verify import dice_in, verify_game

from random_games import random_log, starting_state


def finished_game():
    initial, log = random_log(21)
    store = MemoryStore()
    game = store.new_game(initial.model_copy(update={"roller": Roller(seed="ab" * 32)}), "verified")
    for action in log:
        if game.act(action).ok is False:  # the random log was made with another seed
            break
    while game.state.phase != "over":
        from random_games import next_action
        import random
        assert game.act(next_action(game.state, random.Random(len(game.entries)))).ok
    return store, game


def test_every_roll_of_a_finished_game_matches():
    store, game = finished_game()
    game.undo()
    game.redo()
    result = verify_game(store.stored(game.id))
    assert result.ok and result.commitment_ok and result.over
    assert result.roller_dice == sum(len(dice_in(e.events)) for e in game.entries)
    assert result.roller_dice > 10


def test_a_wrong_seed_does_not_match_its_commitment():
    store, game = finished_game()
    stored = store.stored(game.id)
    stored.record.commitment = Roller(seed="cd" * 32).commitment
    assert not verify_game(stored).ok


def test_table_dice_are_counted_apart():
    store = MemoryStore()
    game = store.new_game(starting_state("table-dice-seed"))  # a seed no clock or count can show by chance
    game.act({"kind": "roll_initiative", "faces": {"British": [10, 9], "French": [1, 2]}})
    result = verify_game(store.stored(game.id))
    assert result.ok and result.table_dice == 4 and result.roller_dice == 0
    assert not result.over and "kept secret" in "\n".join(result.lines())
    assert game.initial.roller.seed not in "\n".join(result.lines())


def test_dice_are_read_from_initiative_and_shot_events():
    events = [{"kind": "initiative", "text": "", "data": {"rolls": [{"side": "A", "dice": [
        {"colour": "Red", "face": 3}, {"colour": "Red", "face": 7}]}]}},
              {"kind": "shot", "text": "", "data": {"result": {
                  "pool": [{"colour": "Blue", "face": 2}], "slot_rolls": [4, 4],
                  "keel_dice": [{"colour": "Red", "face": 1}, {"colour": "Red", "face": 9}]}}}]
    assert dice_in(events) == [("Red", 3), ("Red", 7), ("Blue", 2), ("D6", 4), ("D6", 4), ("Red", 1), ("Red", 9)]
