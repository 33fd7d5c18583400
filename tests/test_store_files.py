"""Save files on disk: atomic writes, segments and snapshots, bad files set aside."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.store import StoreError, TinyDBStore, effective_actions, replay
from companion.store.atomic import SAVE_FORMAT, AtomicJSONStorage, SaveFileError, write_atomic
from companion.store.segments import GameFolder

from store_helpers import played_game, reopened


def damage(path: Path, how: str) -> bytes:
    raw = path.read_bytes()
    bad = {
        "corrupt": raw[:40] + b"\x00\xff garbage }{" + raw[60:],
        "truncated": raw[: len(raw) // 2],
        "empty": b"",
        "future": raw.replace(SAVE_FORMAT.encode(), b"leviathans-save/2"),
    }[how]
    path.write_bytes(bad)
    return bad


WORDS = {
    "corrupt": "damaged",
    "truncated": "cut short",
    "empty": "the file is empty",
    "future": "leviathans-save/2, which this version of the companion cannot read",
}


def set_aside_copies(path: Path) -> list[Path]:
    return sorted(path.parent.glob(path.name + ".bad-*"))


@pytest.mark.parametrize("how", ["corrupt", "truncated", "empty", "future"])
@pytest.mark.parametrize("which", ["game.json", "live log"])
def test_a_bad_file_is_named_explained_and_kept_and_the_store_still_opens(tmp_path, how, which):
    store = TinyDBStore(tmp_path, segment_size=10)
    bad_game = played_game(store, 1, actions=25)
    good_game = played_game(store, 2, actions=25)
    store.close()
    folder = tmp_path / "games" / bad_game.id
    path = folder / "game.json" if which == "game.json" else sorted(folder.glob("log-*.json"))[-1]
    content = damage(path, how)

    again = reopened(tmp_path, 10)  # does not raise
    [problem] = again.problems
    assert str(path) in problem and WORDS[how] in problem
    assert "\n" not in problem and "Traceback" not in problem
    [kept] = set_aside_copies(path)
    assert kept.read_bytes() == content  # untouched
    assert kept.name in problem
    assert not path.exists()
    assert [s.id for s in again.games()] == [good_game.id]
    assert again.game(good_game.id).state == good_game.state
    with pytest.raises(KeyError):
        again.game(bad_game.id)

    third = reopened(tmp_path, 10)  # later starts say so again and touch nothing
    assert len(third.problems) == 1 and str(folder) in third.problems[0] and kept.name in third.problems[0]
    assert set_aside_copies(path) == [kept] and kept.read_bytes() == content
    third.new_game(bad_game.initial, "a new game")
    assert kept.read_bytes() == content


@pytest.mark.parametrize("how", ["corrupt", "truncated", "empty", "future"])
def test_a_bad_closed_log_file_is_found_when_the_game_opens(tmp_path, how):
    store = TinyDBStore(tmp_path, segment_size=10)
    game = played_game(store, 1, actions=35, undo_rate=0)
    store.close()
    path = tmp_path / "games" / game.id / "log-00000010.json"
    content = damage(path, how)
    again = reopened(tmp_path, 10)
    assert again.problems == []
    with pytest.raises(StoreError, match="log-00000010.json") as raised:
        again.game(game.id)
    assert WORDS[how] in str(raised.value)
    assert len(again.problems) == 1
    [kept] = set_aside_copies(path)
    assert kept.read_bytes() == content
    later = reopened(tmp_path, 10)  # the game stays out, saying why, until the file is put right
    assert len(later.problems) == 1 and kept.name in later.problems[0]
    with pytest.raises(KeyError):
        later.game(game.id)
    os.rename(kept, path)  # a log file gone missing: the game cannot open, and says which entries
    path.unlink()
    files = sorted(path.parent.iterdir())
    with pytest.raises(StoreError, match=r"entries 10 to 19 are missing \(no file holds them\). Nothing was changed"):
        reopened(tmp_path, 10).game(game.id)
    assert sorted(path.parent.iterdir()) == files


def test_a_bad_snapshot_is_set_aside_and_the_game_replays_its_log(tmp_path):
    store = TinyDBStore(tmp_path, segment_size=10)
    game = played_game(store, 1, actions=35, undo_rate=0)
    store.close()
    path = tmp_path / "games" / game.id / "snapshot-00000030.json"
    damage(path, "truncated")
    again = reopened(tmp_path, 10)
    assert again.game(game.id).state == game.state
    assert len(again.problems) == 1 and "snapshot-00000030.json" in again.problems[0]
    assert set_aside_copies(path)


def test_the_live_log_file_stays_small_and_closed_ones_are_never_rewritten(tmp_path):
    store = TinyDBStore(tmp_path, segment_size=10)
    game = played_game(store, 1, actions=12, undo_rate=0)
    folder = tmp_path / "games" / game.id
    first = folder / "log-00000000.json"
    before = first.stat().st_mtime_ns, first.read_bytes()
    played = len(game.entries)
    from random_games import play
    import random
    play(game, random.Random(9), 30, undo_rate=0.1)
    assert (first.stat().st_mtime_ns, first.read_bytes()) == before
    logs = sorted(folder.glob("log-*.json"))
    assert len(logs) == (len(game.entries) + 9) // 10
    snapshots = sorted(p.name for p in folder.glob("snapshot-*.json"))
    assert snapshots == [f"snapshot-{n:08d}.json" for n in range(10, len(game.entries) + 1, 10)]
    assert played == 12


def test_loading_starts_from_the_newest_valid_snapshot(tmp_path, monkeypatch):
    store = TinyDBStore(tmp_path, segment_size=10)
    game = played_game(store, 1, actions=45, undo_rate=0)
    store.close()
    import companion.engine.ruleset as ruleset_module  # every ruleset's apply goes through its dispatch
    applied = []
    real_dispatch = ruleset_module.dispatch
    monkeypatch.setattr(ruleset_module, "dispatch", lambda h, s, a, **k: applied.append(a) or real_dispatch(h, s, a, **k))
    again = reopened(tmp_path, 10)
    assert again.game(game.id).state == game.state
    assert len(applied) == len(game.entries) % 10  # only the entries after the last snapshot


def test_a_snapshot_behind_a_later_undo_is_not_used(tmp_path):
    store = TinyDBStore(tmp_path, segment_size=5)
    game = played_game(store, 3, actions=9, undo_rate=0)
    for _ in range(6):
        game.undo()  # back behind the snapshot after entry 5
    store.close()
    again = reopened(tmp_path, 5)
    loaded = again.game(game.id)
    assert loaded.state == game.state
    assert loaded.can_redo
    loaded.redo()
    assert loaded.state == replay(loaded.initial, effective_actions(loaded.entries))


def test_stray_temporary_files_are_removed_when_the_store_opens(tmp_path):
    store = TinyDBStore(tmp_path)
    game = played_game(store, 1, actions=3)
    folder = tmp_path / "games" / game.id
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # a writer that has ended for certain (a fixed pid might be a live process)
    stray = folder / f".log-00000000.json.{gone.pid}-abcd.tmp"
    stray.write_bytes(b'{"format": "leviathans-save/1", "kind": "lo')
    reopened(tmp_path)
    assert not stray.exists()


def test_atomic_writes_replace_the_whole_file(tmp_path):
    path = tmp_path / "x.json"
    write_atomic(path, b"old")
    write_atomic(path, b"new contents")
    assert path.read_bytes() == b"new contents"
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]


def test_the_storage_checks_format_and_kind(tmp_path):
    path = tmp_path / "db.json"
    storage = AtomicJSONStorage(path, kind="log")
    assert storage.read() is None
    storage.write({"entries": {"1": {"index": 0}}})
    data = json.loads(path.read_text())
    assert data["format"] == SAVE_FORMAT and data["kind"] == "log"
    assert storage.read() == {"entries": {"1": {"index": 0}}}
    with pytest.raises(SaveFileError, match="holds a \"log\" where a \"game\" file belongs"):
        AtomicJSONStorage(path, kind="game").read()
    path.write_text('{"format": "leviathans-card/1"}')
    with pytest.raises(SaveFileError, match="not a companion save file"):
        storage.read()


def test_a_second_process_may_not_write_the_same_game(tmp_path):
    store = TinyDBStore(tmp_path)
    game = played_game(store, 1, actions=3)
    other = reopened(tmp_path).game(game.id)  # another open of the folder (as another process)
    outcome = other.act({"kind": "set_bookkeeping", "on": False})
    assert not outcome.ok and "being played in another companion process" in outcome.reason
    assert len(other.entries) == len(game.entries)
    store.close()
    played_before = len(game.entries)
    # Once the first lets go, the second sees that the log moved on without it.
    game2 = reopened(tmp_path).game(game.id)
    assert len(game2.entries) == played_before


def test_the_game_changed_on_disk_is_refused_not_overwritten(tmp_path):
    store = TinyDBStore(tmp_path)
    game = played_game(store, 1, actions=3, undo_rate=0)
    stale = reopened(tmp_path).game(game.id)
    game.undo()
    store.close()
    state = stale.state
    assert stale.undo() is False and "changed on disk" in stale.save_problem
    assert stale.state == state
    assert len(reopened(tmp_path).game(game.id).entries) == len(game.entries)


def test_data_folder_from_option_environment_or_default(tmp_path, monkeypatch):
    from companion.store.tinydb_store import data_folder
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "env"))
    assert data_folder(tmp_path / "opt") == tmp_path / "opt"
    assert data_folder() == tmp_path / "env"
    monkeypatch.delenv("COMPANION_DATA")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if os.name == "posix" and not os.uname().sysname == "Darwin":
        assert data_folder() == tmp_path / "xdg" / "leviathans-companion"


def test_deleted_games_are_moved_aside_not_destroyed(tmp_path):
    store = TinyDBStore(tmp_path)
    game = played_game(store, 1, actions=3)
    store.delete(game.id)
    assert store.games() == []
    assert list((tmp_path / "deleted").iterdir())
    assert reopened(tmp_path).games() == []


def test_an_action_that_cannot_be_saved_is_not_done(tmp_path):
    store = TinyDBStore(tmp_path)
    game = played_game(store, 1, actions=3, undo_rate=0)
    state, entries = game.state, list(game.entries)

    def full_disk(entry, state):
        raise OSError(28, "No space left on device", str(tmp_path))

    game._sink.folder.append = full_disk
    outcome = game.act({"kind": "set_bookkeeping", "on": True})
    assert not outcome.ok and "could not be saved: No space left on device" in outcome.reason
    assert game.undo() is False and game.save_problem
    assert game.state == state and game.entries == entries
    del game._sink.folder.append
    assert game.act({"kind": "set_bookkeeping", "on": True}).ok and game.save_problem is None
    assert reopened(tmp_path).game(game.id).state == game.state


def test_a_temporary_file_another_running_process_is_writing_is_left_alone(tmp_path):
    """Issue 11 (two processes on one folder): a second companion starting up removed the first one's
    temporary file between its writing and its renaming, so the first one's save failed.  Only the
    temporary files of a writer that is gone (or of a write long finished) are removed."""
    import subprocess
    import sys
    import time

    from companion.store.atomic import remove_temporary_files

    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    try:
        writing = tmp_path / f".library.json.{alive.pid}-0a1b2c3d.tmp"
        crashed = tmp_path / f".library.json.{gone.pid}-0a1b2c3d.tmp"
        long_ago = tmp_path / f".game.json.{alive.pid}-4e5f6a7b.tmp"
        for path in (writing, crashed, long_ago):
            path.write_bytes(b"{")
        old = time.time() - 3600
        os.utime(long_ago, (old, old))
        assert remove_temporary_files(tmp_path) == 2
        assert writing.exists() and not crashed.exists() and not long_ago.exists()
    finally:
        alive.kill()
        alive.wait()
