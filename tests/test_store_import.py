"""Importing and exporting whole games (issue 11): an import validates everything the
store will later read; a failed import or export is one plain line and leaves nothing
half-written; an export writes only to a regular file or a new one."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from companion.commands import main
from companion.store import TinyDBStore

from store_helpers import played_game


@pytest.fixture
def exported(tmp_path):
    """The export of a short game, as a dict, and a data folder with one other game in it."""
    store = TinyDBStore(tmp_path / "data")
    game = played_game(store, 4, actions=12)
    document = store.export_game(game.id)
    store.close()
    return tmp_path / "data", document, game


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def nested(levels: int):
    value: object = "deep"
    for _ in range(levels):
        value = {"d": value}
    return value


def the_folder_still_opens(capsys, data, game) -> None:
    """`companion games` and the app's start (listing and opening every game) still work."""
    code, out, err = run(capsys, "games", "--data", data)
    assert code == 0 and game.id in out and "Traceback" not in err
    store = TinyDBStore(data)
    for summary in store.games():
        store.game(summary.id)
    store.close()


DEEP = "<975 levels>"
DEEP_975 = '{"d":' * 975 + '"deep"' + "}" * 975  # written by hand: json.dumps would recurse 975 times


def bad_document(document, how: str):
    bad = json.loads(json.dumps(document))
    if how == "nested 975 levels":
        bad["log"][-1]["events"][0]["data"]["note"] = DEEP
    elif how == "nested in the action":
        bad["log"][0]["action"]["extra"] = nested(200)
    elif how == "last entry dated 1e300":
        bad["log"][-1]["at"] = 1e300
    elif how == "created 1e300":
        bad["created"] = 1e300
    elif how == "an entry dated NaN":
        bad["log"][3]["at"] = math.nan
    elif how == "an entry dated before 1970":
        bad["log"][3]["at"] = -5.0
    return bad


HOWS = ["nested 975 levels", "nested in the action", "last entry dated 1e300", "created 1e300",
        "an entry dated NaN", "an entry dated before 1970"]


@pytest.mark.parametrize("how", HOWS)
def test_an_import_the_store_could_not_read_back_is_refused_in_one_line(exported, capsys, tmp_path, how):
    """Issue 11: such an export imported, and then `companion games` and the app crashed on start."""
    data, document, game = exported
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad_document(document, how)).replace(json.dumps(DEEP), DEEP_975))
    code, out, err = run(capsys, "import", path, "--data", data)
    assert code == 1 and err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    assert str(path) in err
    assert len(list((data / "games").iterdir())) == 1  # nothing was added
    the_folder_still_opens(capsys, data, game)


def test_a_document_nested_too_deep_is_refused_before_anything_reads_it(exported):
    data, document, game = exported
    bad = json.loads(json.dumps(document))
    bad["log"][-1]["events"][0]["data"]["note"] = nested(5000)  # deeper than Python's own recursion limit
    store = TinyDBStore(data)
    with pytest.raises(ValueError, match="nested"):
        store.import_game(bad, "deep.json")
    assert [s.id for s in store.games()] == [game.id]
    store.close()


@pytest.mark.parametrize("how", ["last entry dated 1e300", "nested 975 levels"])
def test_a_game_an_older_version_imported_unchecked_does_not_stop_the_others(exported, capsys, how):
    """Such a game already in a data folder (imported before the checks) is named, and the rest opens."""
    from companion.store.game import LogEntry

    data, document, game = exported
    store = TinyDBStore(data)
    other = played_game(store, 6, actions=5)
    record = store.repository.record(other.id)
    entries = list(other.entries)
    last = entries[-1]
    if how == "last entry dated 1e300":
        entries[-1] = LogEntry(last.index, last.kind, last.action, last.events, 1e300)
    else:  # the deep value is put into the file by hand: json.dumps would recurse 975 times here
        entries[-1] = LogEntry(last.index, last.kind, last.action,
                               [{**last.events[0], "data": {"note": DEEP}}], last.at)
    record.id = "20200101-000000-beef"
    store.repository.create(record, entries, None)
    store.close()
    for path in (data / "games" / record.id).glob("log-*.json"):
        path.write_text(path.read_text().replace(json.dumps(DEEP), DEEP_975))

    code, out, err = run(capsys, "games", "--data", data)
    assert code == 0 and game.id in out and other.id in out and "Traceback" not in err
    store = TinyDBStore(data)
    listed = {s.id for s in store.games()}
    assert {game.id, other.id} <= listed
    store.close()


# --- a full disk, an interrupted import, where an export may write ----------------------------------


def nothing_half_written(data, game) -> None:
    games = sorted(p.name for p in (data / "games").iterdir())
    assert games == [game.id], games  # no new folder, no hidden half-written one
    assert TinyDBStore(data).problems == []


def test_a_full_disk_at_any_step_of_an_import_is_one_line_and_leaves_nothing(exported, capsys, tmp_path,
                                                                                monkeypatch):
    from companion.store import atomic
    from test_store_disk_full import FullDisk

    data, document, game = exported
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document))
    fail_at = 1
    while True:
        disk = FullDisk(fail_at)
        monkeypatch.setattr(atomic, "os", disk)
        code, out, err = run(capsys, "import", path, "--data", data)
        monkeypatch.undo()
        if disk.calls < fail_at:
            assert code == 0  # every write step has failed once
            break
        where = f"the disk filled at write step {fail_at}"
        if code == 0:  # a step whose failure does not matter (flushing a folder)
            assert len(list((data / "games").iterdir())) == 2, where
            TinyDBStore(data).delete(out.split(" as ")[1].split()[0])
        else:
            assert err.startswith("error: ") and err.count("\n") == 1 and "No space left" in err, (where, err)
            nothing_half_written(data, game)
        fail_at += 1
    assert fail_at > 5


def test_an_interrupted_import_is_cleaned_up_at_the_next_start_and_named_once(exported, capsys):
    """Issue 11: an interrupted import left a folder without game.json, reported at every start."""
    data, document, game = exported
    half = data / "games" / "20240101-120000-dead"  # as an older version left it
    half.mkdir()
    (half / "log-00000000.json").write_text("{}")
    hidden = data / "games" / ".new-20240101-120001-beef-0a0b"  # as this version would, killed midway
    hidden.mkdir()
    (hidden / "log-00000000.json").write_text("{}")

    first = TinyDBStore(data)
    [problem] = first.problems
    assert half.name in problem and "interrupted" in problem and "deleted" in problem
    assert not half.exists() and not hidden.exists()
    assert list((data / "deleted").glob(f"{half.name}*"))  # nothing destroyed: moved aside
    assert [s.id for s in first.games()] == [game.id]
    assert TinyDBStore(data).problems == []  # named once, not at every start


def test_a_full_disk_during_an_export_is_one_line_and_writes_nothing(exported, capsys, tmp_path, monkeypatch):
    from companion.store import atomic
    from test_store_disk_full import FullDisk

    data, document, game = exported
    target = tmp_path / "out" / "game.json"
    target.parent.mkdir()
    for fail_at in (1, 2, 3, 4):  # opening, writing, flushing, renaming the file
        monkeypatch.setattr(atomic, "os", FullDisk(fail_at))
        code, out, err = run(capsys, "export", game.id, target, "--data", data)
        monkeypatch.undo()
        assert code == 1 and err.startswith("error: ") and err.count("\n") == 1, err
        assert "No space left" in err and str(target) in err
        assert list(target.parent.iterdir()) == []


def test_export_writes_only_to_a_regular_file_or_a_new_one(exported, capsys, tmp_path):
    """Issue 11: as root, `companion export GAME /dev/null` turned /dev/null into a JSON file."""
    import os

    data, document, game = exported
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    folder = tmp_path / "folder"
    folder.mkdir()
    for target in (pipe, folder, "", "/proc/version", tmp_path / "missing" / "game.json"):
        code, out, err = run(capsys, "export", game.id, target, "--data", data)
        assert code == 1 and err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, (target, err)
    assert pipe.is_fifo() and folder.is_dir() and list(folder.iterdir()) == []
    regular = tmp_path / "old.json"
    regular.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(regular)
    for target in (regular, link, tmp_path / "new.json"):
        code, out, err = run(capsys, "export", game.id, target, "--data", data)
        assert code == 0, err
        assert json.loads(Path(target).read_text())["id"] == game.id
    assert link.is_symlink()  # the link is kept: the file it names was written


# --- a game imported while the app runs ---------------------------------------------------------------


def test_a_game_imported_while_the_app_runs_appears_without_a_restart(exported, capsys, tmp_path):
    """Issue 11: the app's store (open since the start) lists and opens a game `companion import`
    added from another process, without a restart; the home screen lists `store.games()`."""
    data, document, game = exported
    app_store = TinyDBStore(data)
    assert [s.id for s in app_store.games()] == [game.id]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document))
    code, out, err = run(capsys, "import", path, "--data", data)
    assert code == 0, err
    new_id = out.split(" as ")[1].split()[0]
    assert {s.id for s in app_store.games()} == {game.id, new_id}
    assert app_store.find(new_id) == new_id
    assert app_store.game(new_id).state == app_store.game(game.id).state  # the same game, imported
    assert app_store.problems == []
    app_store.close()
