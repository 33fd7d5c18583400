"""Persistence: a game is its log of actions plus snapshots.

`Game` (game.py) is the live game every view and command acts through.
`Store` (store.py) hands out games over a repository: `MemoryStore` keeps
them in memory, `TinyDBStore` / `open_store()` on disk (tinydb_store.py,
segments.py, atomic.py), games of every ruleset (Quick-Start, War Fleet) alike;
import_warfleet.py brings in, once, the War Fleet games an older version kept
in files of their own.  export.py reads and writes whole games as one
file; verify.py re-derives every logged roll from the revealed seed.
"""

from .atomic import SaveFileError, StoreError
from .game import Game, GameSummary, LogEntry, effective_actions, replay, state_after
from .store import MemoryStore, Store, TinyDBStore, UnknownGame, open_store

__all__ = [
    "Game", "GameSummary", "LogEntry", "MemoryStore", "SaveFileError", "Store", "StoreError",
    "TinyDBStore", "UnknownGame", "effective_actions", "open_store", "replay", "state_after",
]
