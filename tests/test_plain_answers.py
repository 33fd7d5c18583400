"""Plain answers everywhere (issue 36 part 5): a usage error is its one line and exit code 2, as the
README says (argparse's), bad input its one line and exit code 1; a refusal a device is shown names
no path of the host's disk (the host's terminal gets it); `act '{"kind": "undo"}'` answers the same
on a full disk as on one with room."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.app.views.game_files import refusal_words
from companion.commands import main
from companion.engine.roller import Roller
from companion.messages import without_paths
from companion.store import TinyDBStore, atomic

from random_games import starting_state
from test_store_disk_full import FullDisk

ROOT = Path(__file__).resolve().parent.parent
UNDO = '{"kind": "undo"}'


def run(capsys, *argv) -> tuple[int, str, str]:
    try:
        code = main([str(a) for a in argv])
    except SystemExit as stop:  # argparse's usage errors end the parse with SystemExit(2)
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def data(tmp_path):
    store = TinyDBStore(tmp_path / "data")
    game = store.new_game(starting_state(2), "Plain", roller=Roller.from_seed(2))
    store.close()
    return tmp_path / "data", game.id


@pytest.mark.parametrize("argv, words", [
    (["replay", "GAME", "--to", "NaN"], "argument --to: invalid int value: 'NaN'"),
    (["schema", "game"], "argument kind: invalid choice: 'game'"),
    (["import"], "the following arguments are required: FILE"),
    (["act"], "the following arguments are required: GAME, ACTION"),
])
def test_a_usage_error_is_one_line_and_exit_code_2(argv, words, data, capsys):
    folder, game_id = data
    argv = [game_id if a == "GAME" else a for a in argv]
    code, out, err = run(capsys, *argv, *(["--data", folder] if argv[0] in ("replay", "import") and len(argv) > 1 else []))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and words in err and err.rstrip().endswith("--help)") and "Traceback" not in err


@pytest.mark.parametrize("argv", [["import", "missing.json"], ["validate", "missing.json"], ["new", "missing.json"],
                                  ["replay", "GAME", "--to", "-3"]])
def test_bad_input_a_missing_file_included_is_one_line_and_exit_code_1(argv, data, capsys, tmp_path):
    folder, game_id = data
    argv = [game_id if a == "GAME" else str(tmp_path / a) if a.endswith(".json") else a for a in argv]
    extra = ["--data", folder] if argv[0] in ("import", "new", "replay") else []
    code, out, err = run(capsys, *argv, *extra)
    assert code == 1 and out == "" and err.count("\n") == 1 and "Traceback" not in err


def test_the_readme_says_the_exit_codes_the_commands_give():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "is one plain line on stderr and exit code 1" in readme
    assert "A usage error" in readme and "exit code 2" in readme


class AlwaysFull:
    """`os` for atomic.py on a disk with no room at all: every write step raises ENOSPC."""

    def __getattr__(self, name):
        real = getattr(os, name)
        if name not in FullDisk.STEPS:
            return real

        def step(*args, **kwargs):
            raise OSError(errno.ENOSPC, "No space left on device", str(args[0]) if args else None)
        return step


def test_act_undo_answers_the_same_on_a_full_disk(data, capsys, monkeypatch):
    folder, game_id = data
    roomy = run(capsys, "act", game_id, UNDO, "--data", folder)
    assert roomy[0] == 1 and roomy[1] == "" and roomy[2].startswith("refused (malformed): ")
    monkeypatch.setattr(atomic, "os", AlwaysFull())
    assert run(capsys, "act", game_id, UNDO, "--data", folder) == roomy
    for step in range(1, 6):  # the disk fills at each write step in turn
        monkeypatch.setattr(atomic, "os", FullDisk(step))
        assert run(capsys, "act", game_id, UNDO, "--data", folder) == roomy, step


def test_a_save_that_failed_names_no_host_path_to_a_device_and_the_whole_path_to_the_host(data, capsys, monkeypatch):
    folder, game_id = data
    monkeypatch.setattr(atomic, "os", AlwaysFull())
    store = TinyDBStore(folder)
    game = store.game(game_id)
    refused = game.act({"kind": "roll_initiative"})
    assert not refused.ok and "could not be saved: No space left on device" in refused.reason
    assert str(folder) not in refused.reason and "/" not in refused.reason  # what a phone is shown
    assert game.save_path and str(folder) in game.save_path
    store.close()
    code, out, err = run(capsys, "act", game_id, '{"kind": "roll_initiative"}', "--data", folder)
    assert code == 1 and "No space left on device" in err and str(folder) in err  # the host's terminal


def test_an_import_the_hosts_disk_refused_is_told_without_its_paths(tmp_path):
    full = OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "games" / "x.json"))
    assert refusal_words(full) == "The game could not be saved (no space left on device): nothing was added."
    said = refusal_words(ValueError(f"{tmp_path}/games/x: the game could not be saved (No space left on device)"))
    assert str(tmp_path) not in said and said.startswith("the data folder: the game could not be saved")


@pytest.mark.parametrize("text, shown", [
    ("No space left on device (/home/ann/.local/share/x/.log.tmp)", "No space left on device (the data folder)"),
    ("[Errno 30] Read-only file system: '/media/usb/games'", "[Errno 30] Read-only file system: 'the data folder'"),
    ("C:\\Users\\ann\\games\\x.json: gone", "the data folder: gone"),
    ("Type 2 ships, 1/2 odds, D6/D10 and (a/b)", "Type 2 ships, 1/2 odds, D6/D10 and (a/b)"),
])
def test_without_paths_takes_the_hosts_paths_out_and_nothing_else(text, shown):
    assert without_paths(text) == shown


def test_a_phones_import_refusal_names_the_file_only(tmp_path):
    """The app's import reads the chosen file's bytes (the browser gives its name, no path)."""
    from companion.app.views.game_files import read_game_file
    from companion.engine.cards import FormatError

    store = TinyDBStore(tmp_path / "data")
    with pytest.raises(FormatError) as refused:
        read_game_file(SimpleNamespace(store=store), "game.json", b'{"format": "leviathans-game/1", "initial": {}}')
    assert str(refused.value).startswith("game.json") and str(tmp_path) not in str(refused.value)
    store.close()
