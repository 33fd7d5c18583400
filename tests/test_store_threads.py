"""Several sessions acting on one game at once: nothing lost, nothing twice."""

import random
import threading

from companion.store import TinyDBStore, effective_actions, replay

from random_games import next_action, starting_state
from store_helpers import reopened

MARKERS = [("hertfordshire", "bow", 1), ("hertfordshire", "port", 2), ("raven", "bow", 2),
           ("raven", "stern", 4), ("pontbriand", "starboard", 1), ("pontbriand", "stern", 3),
           ("pelletier", "port", 5), ("pelletier", "bow", 3)]


def test_threads_acting_on_one_game_lose_and_duplicate_nothing(tmp_path):
    store = TinyDBStore(tmp_path, segment_size=20)
    game = store.new_game(starting_state(1), "busy table")
    per_thread = 30
    accepted: dict[str, list[dict]] = {}
    start = threading.Barrier(len(MARKERS) + 2)

    def marker(ship, location, slot):
        """Marks one slot on and off: always legal, so every action is accepted."""
        mine = accepted.setdefault(f"{ship}-{location}-{slot}", [])
        start.wait()
        for n in range(per_thread):
            status = "destroyed_this_turn" if n % 2 == 0 else "live"
            action = {"kind": "mark_slot", "ship": ship, "location": location, "slot": slot, "status": status}
            assert store.game(game.id).act(action).ok
            mine.append(action)

    def player(seed):
        """Plays the game: its actions may be refused when another session got there first."""
        rng = random.Random(seed)
        mine = accepted.setdefault(f"player-{seed}", [])
        start.wait()
        for _ in range(per_thread):
            action = next_action(game.state, rng)
            if action is not None and game.act(action).ok:
                mine.append(action)

    threads = [threading.Thread(target=marker, args=m) for m in MARKERS]
    threads += [threading.Thread(target=player, args=(seed,)) for seed in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    logged = [entry.action for entry in game.entries]
    assert [entry.index for entry in game.entries] == list(range(len(logged)))
    assert len(logged) == sum(len(actions) for actions in accepted.values())
    for (ship, location, slot) in MARKERS:
        mine = [a for a in logged if a.get("ship") == ship and a.get("location") == location
                and a.get("slot") == slot and a["kind"] == "mark_slot"]
        assert mine == accepted[f"{ship}-{location}-{slot}"]  # all there, once, in order
    assert replay(game.initial, effective_actions(game.entries)) == game.state
    store.close()
    loaded = reopened(tmp_path, 20).game(game.id)
    assert loaded.entries == game.entries and loaded.state == game.state


def test_threads_undoing_and_redoing_keep_the_stacks_consistent(tmp_path):
    store = TinyDBStore(tmp_path, segment_size=7)
    game = store.new_game(starting_state(2), "undo war")
    rng = random.Random(2)
    for _ in range(40):
        game.act(next_action(game.state, rng))

    def flip(n):
        for i in range(25):
            (game.undo if (i + n) % 3 else game.redo)()

    threads = [threading.Thread(target=flip, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert replay(game.initial, effective_actions(game.entries)) == game.state
    store.close()
    assert reopened(tmp_path, 7).game(game.id).state == game.state
