"""A disk that fills at any write step (issue 11): what a game reports is what is on disk.

"When the disk fills just as a log segment closes, the action is reported 'not done'
but is written anyway; later actions are refused until a restart, and then the refused
action is in effect."  A fault is injected at each operating-system step of the store's
writes in turn (opening a file, writing it, flushing it, renaming it): after each, the
answer the game gave must match a fresh open of the folder, and the next action works.
"""

from __future__ import annotations

import errno
import os
import random

import pytest

from companion.engine.roller import Roller
from companion.store import TinyDBStore
from companion.store import atomic

from random_games import next_action, starting_state


class FullDisk:
    """Stands in for `os` in atomic.py: the `fail_at`-th write step raises ENOSPC (no space left)."""

    STEPS = ("open", "fdopen", "fsync", "replace", "rename")

    def __init__(self, fail_at: int):
        self.fail_at, self.calls = fail_at, 0

    def __getattr__(self, name):
        real = getattr(os, name)
        if name not in self.STEPS:
            return real

        def step(*args, **kwargs):
            self.calls += 1
            if self.calls == self.fail_at:
                raise OSError(errno.ENOSPC, "No space left on device", str(args[0]) if args else None)
            return real(*args, **kwargs)

        return step


def fresh_game(folder, actions: int, segment_size: int = 3):
    store = TinyDBStore(folder, segment_size=segment_size)
    game = store.new_game(starting_state(5), "Full disk", roller=Roller.from_seed(5))
    rng = random.Random(5)
    for _ in range(actions):
        assert game.act(next_action(game.state, rng)).ok
    return store, game, rng


def on_disk(folder, game_id: str, segment_size: int = 3):
    again = TinyDBStore(folder, segment_size=segment_size)
    assert again.problems == []
    return again.game(game_id)


@pytest.mark.parametrize("held", [2, 5])  # the action that closes the first or the second segment
def test_a_full_disk_at_any_step_of_a_segment_close_reports_what_is_on_disk(tmp_path, monkeypatch, held):
    fail_at = 1
    while True:
        folder = tmp_path / f"fail-{fail_at}"
        store, game, rng = fresh_game(folder, held)
        action = next_action(game.state, rng)
        disk = FullDisk(fail_at)
        monkeypatch.setattr(atomic, "os", disk)
        outcome = game.act(action)
        monkeypatch.setattr(atomic, "os", os)
        saved = on_disk(folder, game.id)
        where = f"the disk filled at write step {fail_at}"
        assert len(saved.entries) == len(game.entries), where
        assert saved.state == game.state, where
        assert outcome.ok == (len(game.entries) == held + 1), where
        if not outcome.ok:
            assert "No space left" in outcome.reason, where
        following = game.act(next_action(game.state, rng))  # no restart needed to play on
        assert following.ok, f"{where}: the next action was refused: {getattr(following, 'reason', '')}"
        again = on_disk(folder, game.id)
        assert len(again.entries) == len(game.entries) and again.state == game.state, where
        store.close()
        if disk.calls < fail_at:  # every step of the close has failed once
            break
        fail_at += 1
    assert fail_at > 6, "the segment close went through the injected steps"
