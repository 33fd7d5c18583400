"""Fixtures for the store tests: stores in a temporary folder, played games."""

from __future__ import annotations

import random

from companion.engine.roller import Roller
from companion.store import TinyDBStore

from random_games import play, starting_state


def played_game(store, seed: int = 1, actions: int = 60, undo_rate: float = 0.05):
    """A game in `store` with `actions` random legal actions (and some undos/redos) played."""
    game = store.new_game(starting_state(seed), f"game {seed}", roller=Roller.from_seed(seed))
    play(game, random.Random(seed), actions, undo_rate)
    return game


def reopened(folder, segment_size: int = 100) -> TinyDBStore:
    """A second, independent view of the folder (as after a restart)."""
    return TinyDBStore(folder, segment_size=segment_size)
