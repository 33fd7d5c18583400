"""Old saves open (issue 27): games of every ruleset saved by the code before the rulesets moved into
packages of their own (commit 06265eb, tests/saves_before_issue_27/: made by `_stored_game` of
tests/test_rulesets.py at that commit) open, hold the same position, verify and replay."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from companion.app.replay_model import replay_of
from companion.store import TinyDBStore
from companion.store.verify import verify_game

SAVES = Path(__file__).resolve().parent / "saves_before_issue_27"
STATES = json.loads((SAVES / "states.json").read_text())


@pytest.fixture
def store(tmp_path):
    shutil.copytree(SAVES / "data", tmp_path / "data")
    opened = TinyDBStore(tmp_path / "data")
    yield opened
    opened.close()


def test_every_old_save_is_listed_under_its_ruleset(store):
    assert {s.id: s.ruleset for s in store.games()} == {gid: kept["ruleset"] for gid, kept in STATES.items()}
    assert not store.problems


@pytest.mark.parametrize("game_id", sorted(STATES))
def test_an_old_save_opens_at_the_same_position_verifies_and_replays(store, game_id):
    kept = STATES[game_id]
    game = store.game(game_id)
    assert game.ruleset.id == kept["ruleset"]
    assert json.loads(game.state.model_dump_json()) == kept["state"]
    assert verify_game(store.stored(game_id)).ok
    replay = replay_of(store, game_id)
    assert replay.last == kept["log"] and replay.state(replay.last) == game.state
