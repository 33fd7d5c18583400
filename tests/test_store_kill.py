"""Kill the process at random moments: every acknowledged action survives.

A child process plays random legal actions (with undos and redos) into a
store on disk and writes an acknowledgement line after each `act`, `undo` or
`redo` returns.  The parent kills it with SIGKILL after a random delay, then
opens the store afresh: it must open cleanly (no problems) and hold every
acknowledged entry, in order, with at most the one in flight beyond them.
When a game ends, the child starts a new one, so game creation is killed too.
"""

import json
import os
import random
import select
import signal
import sys
import time

import pytest

from companion.store import TinyDBStore, effective_actions, replay

from random_games import next_action, starting_state

KILLS = 50
SEGMENT = 8  # small segments: kills land on segment changes and snapshots too

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")


def child(folder, seed: int, out_fd: int) -> None:
    """Play forever, acknowledging each saved entry on `out_fd` (runs in the forked child)."""
    out = os.fdopen(out_fd, "w", buffering=1)
    rng = random.Random(seed)
    store = TinyDBStore(folder, segment_size=SEGMENT)
    playing = [s.id for s in store.games() if s.phase != "over"]
    game = store.game(playing[0]) if playing else store.new_game(starting_state(seed), f"game {seed}")
    out.write(json.dumps({"ready": game.id}) + "\n")
    while True:
        roll = rng.random()
        if roll < 0.05 and game.can_undo:
            done = game.undo()
        elif roll < 0.08 and game.can_redo:
            done = game.redo()
        else:
            action = next_action(game.state, rng)
            if action is None:
                game = store.new_game(starting_state(rng.randrange(10**6)), "next game")
                out.write(json.dumps({"ready": game.id}) + "\n")
                continue
            done = game.act(action).ok
        assert done
        entry = game.entries[-1]
        out.write(json.dumps({"game": game.id, "index": entry.index, "kind": entry.kind,
                              "action": entry.action}) + "\n")


def run_and_kill(folder, seed: int, delay: float) -> list[dict]:
    """Fork a child, let it play for `delay` seconds after it is ready, SIGKILL it; its acks."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child never returns into pytest
        os.close(read_fd)
        try:
            child(folder, seed, write_fd)
        finally:
            os._exit(1)
    os.close(write_fd)
    buffer = b""
    deadline = None
    while True:
        ready, _, _ = select.select([read_fd], [], [], 0.005)
        if ready:
            chunk = os.read(read_fd, 65536)
            if not chunk:
                break
            buffer += chunk
            if deadline is None and b"\n" in buffer:
                deadline = time.monotonic() + delay
        if deadline is not None and time.monotonic() >= deadline:
            break
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    while chunk := os.read(read_fd, 65536):
        buffer += chunk
    os.close(read_fd)
    lines = buffer.split(b"\n")[:-1]  # a half-written last line was not acknowledged
    return [json.loads(line) for line in lines]


def test_sigkill_at_random_moments_loses_no_acknowledged_action(tmp_path):
    rng = random.Random(2024)
    acknowledged: dict[str, list[dict]] = {}
    in_flight = strays = 0
    for kill in range(KILLS):
        for ack in run_and_kill(tmp_path, seed=kill, delay=rng.uniform(0.0, 0.12)):
            if "game" in ack:
                log = acknowledged.setdefault(ack["game"], [])
                assert ack["index"] == len(log)
                log.append(ack)
        strays += len(list(tmp_path.glob("games/*/.*.tmp")))  # killed between writing and renaming
        store = TinyDBStore(tmp_path, segment_size=SEGMENT)
        assert store.problems == [], store.problems
        assert not list(tmp_path.glob("games/*/.*.tmp"))  # stray temporary files cleaned up
        for game_id in [s.id for s in store.games()]:  # a game begun by a child killed before any ack, too
            acks = acknowledged.setdefault(game_id, [])
            game = store.game(game_id)
            saved = [(e.index, e.kind, e.action) for e in game.entries]
            assert saved[:len(acks)] == [(a["index"], a["kind"], a["action"]) for a in acks]
            assert len(saved) - len(acks) in (0, 1)
            in_flight += len(saved) - len(acks)
            assert game.state == replay(game.initial, effective_actions(game.entries))
            acks.extend({"index": i, "kind": k, "action": a} for i, k, a in saved[len(acks):])
        store.close()
    total = sum(len(acks) for acks in acknowledged.values()) - in_flight
    print(f"\n{KILLS} kills, {total} acknowledged entries in {len(acknowledged)} games, all kept; "
          f"{in_flight} times an entry was saved but killed before its acknowledgement, "
          f"{strays} temporary files left by kills during a write (removed on opening)", file=sys.stderr)
    assert total > KILLS
