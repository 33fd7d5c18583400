"""One "log" number everywhere (issue 35: the bar said log 44 while the Log listed entries to 66
and the replay counted 50 steps).  "log N" is the actions in effect (undo steps it back): the bar
shows it, the Log numbers each event by the action that made it (so its newest number is the
bar's), and the replay, whose steps are every log entry (undos and redos too), says beside its step
the log number the table showed then."""

from __future__ import annotations

import random

from random_games import play, starting_state

from companion.app.replay_model import replay_of
from companion.app.rulesets.steps import numbered_log_lines
from companion.app.viewmodels import log_lines
from companion.store import MemoryStore


def test_the_bar_the_log_and_the_replay_count_the_same_log():
    store = MemoryStore()
    game = store.new_game(starting_state(4), "Log numbers")
    play(game, random.Random(4), 120, undo_rate=0.12)
    assert any(e.kind == "undo" for e in game.entries) and any(e.kind == "redo" for e in game.entries)
    bar = game.actions_in_effect  # the role bar and the shared screen: f"log {game.actions_in_effect} · code"
    history, numbers = game.history(), game.action_numbers()
    assert len(numbers) == len(history) > bar  # more events than actions: the Log numbered them 1..66
    lines = log_lines(history, numbers)
    assert lines[-1].index == bar and sorted({line.index for line in lines}) == list(range(1, bar + 1))
    told = numbered_log_lines(history, numbers)  # Decisive Victory's and War Fleet's Log
    assert [line.split(" · ")[0] for line in told if " · " in line][-1] == str(bar)
    replay = replay_of(store, game.id)
    assert replay.last == len(game.entries) > bar  # a replay step is a log entry, undos included
    assert replay.log_number(replay.last) == bar
    assert replay.position_words(replay.last) == f"step {replay.last} of {replay.last} · log {bar}"
    undo = next(n for n, e in enumerate(game.entries, start=1) if e.kind == "undo")
    assert replay.log_number(undo) == replay.log_number(undo - 1) - 1  # an undo steps the log back
