"""Persistence: a game is its log of actions plus snapshots.

`Game` (game.py) is the live game every view and command acts through;
`MemoryStore` keeps games in memory, the TinyDB store keeps them on disk.
"""

from .game import Game, GameSummary, LogEntry, MemoryStore, effective_actions, replay

__all__ = ["Game", "GameSummary", "LogEntry", "MemoryStore", "effective_actions", "replay"]
