"""`companion games | export | import | replay | verify`, all with --data DIR."""

import json

import pytest

from companion.commands import main
from companion.engine.quick_start.scenario import load_scenario
from companion.store import TinyDBStore, state_after
from companion.store.export import GAME_FORMAT

from random_games import random_log
from store_helpers import played_game, reopened


@pytest.fixture
def finished(tmp_path):
    """A data folder with one finished game, played to the end."""
    store = TinyDBStore(tmp_path / "data")
    initial, log = random_log(11)
    game = store.new_game(initial, "Skirmish at Dover")
    for action in log:
        assert game.act(action).ok
    game.undo()
    game.redo()
    store.close()
    return tmp_path / "data", game


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_every_game(finished, capsys):
    data, game = finished
    code, out, err = run(capsys, "games", "--data", str(data))
    assert code == 0 and game.id in out and "Skirmish at Dover" in out and "over" in out
    code, out, _ = run(capsys, "games", "--data", str(data), "--json")
    [listed] = json.loads(out)
    assert listed["id"] == game.id and listed["actions"] == game.actions_in_effect


def test_the_data_folder_comes_from_the_environment(finished, capsys, monkeypatch):
    data, game = finished
    monkeypatch.setenv("COMPANION_DATA", str(data))
    code, out, _ = run(capsys, "games")
    assert code == 0 and game.id in out


def test_export_then_import_gives_the_same_game(finished, capsys, tmp_path):
    data, game = finished
    target = tmp_path / "skirmish.json"
    code, out, _ = run(capsys, "export", "Skirmish at Dover", str(target), "--data", str(data))
    assert code == 0 and str(target) in out
    document = json.loads(target.read_text())
    assert document["format"] == GAME_FORMAT and len(document["log"]) == len(game.entries)
    other = tmp_path / "elsewhere"
    code, out, _ = run(capsys, "import", str(target), "--data", str(other))
    assert code == 0 and "imported Skirmish at Dover" in out
    [imported] = reopened(other).games()
    assert (imported.turn, imported.phase, imported.actions) == (
        game.state.turn, game.state.phase, game.actions_in_effect)
    loaded = reopened(other).game(imported.id)
    assert loaded.state == game.state and loaded.entries == game.entries
    assert loaded.commitment == game.commitment


def test_importing_a_game_twice_gives_two_games(finished, capsys, tmp_path):
    data, game = finished
    target = tmp_path / "g.json"
    run(capsys, "export", game.id, str(target), "--data", str(data))
    run(capsys, "import", str(target), "--data", str(data))
    assert len(reopened(data).games()) == 2


def test_import_refuses_unknown_versions_and_broken_logs(finished, capsys, tmp_path):
    data, game = finished
    target = tmp_path / "g.json"
    run(capsys, "export", game.id, str(target), "--data", str(data))
    document = json.loads(target.read_text())
    future = tmp_path / "future.json"
    future.write_text(json.dumps({**document, "format": "leviathans-game/2"}))
    code, out, err = run(capsys, "import", str(future), "--data", str(data))
    assert code == 1 and err.count("\n") == 1
    assert "future.json" in err and "leviathans-game/2 is newer than this version" in err
    broken = tmp_path / "broken.json"
    log = document["log"]
    broken.write_text(json.dumps({**document, "log": log[:3] + log[5:]}))
    code, _, err = run(capsys, "import", str(broken), "--data", str(data))
    assert code == 1 and "out of order" in err
    cheat = tmp_path / "cheat.json"
    document["initial"]["roller"]["seed"] = "00" * 32
    cheat.write_text(json.dumps(document))
    code, _, err = run(capsys, "import", str(cheat), "--data", str(data))
    assert code == 1 and "does not match its commitment" in err
    assert len(reopened(data).games()) == 1


def test_replay_prints_the_position_after_n_log_entries_as_a_scenario(finished, capsys):
    data, game = finished
    for n in (0, 7, len(game.entries)):
        code, out, _ = run(capsys, "replay", game.id, "--to", str(n), "--data", str(data))
        assert code == 0
        scenario = load_scenario(json.loads(out))
        expected = state_after(game.initial, game.entries, n)
        assert scenario.turn == expected.turn
        assert [(s.id, s.bow) for s in scenario.ships] == [
            (s.id, expected.board.label(s.bow)) for s in expected.ships if not s.removed]
    code, _, err = run(capsys, "replay", game.id, "--to", "100000", "--data", str(data))
    assert code == 1 and "choose --to between 0 and" in err


def test_verify_rederives_every_roll(finished, capsys):
    data, game = finished
    code, out, _ = run(capsys, "verify", game.id[:10], "--data", str(data))
    assert code == 0
    assert "the seed matches the commitment" in out and "rolls match" in out
    assert game.initial.roller.seed in out  # the game is over: the seed is revealed


def test_verify_finds_a_changed_face(finished, capsys):
    data, game = finished
    folder = data / "games" / game.id
    for path in sorted(folder.glob("log-*.json")):
        document = json.loads(path.read_text())
        entries = document["tables"]["entries"]
        for doc in entries.values():
            shot = next((e for e in doc["events"] if e["kind"] == "shot"), None)
            if shot:
                die = shot["data"]["result"]["pool"][0]
                die["face"] = 1 if die["face"] != 1 else 2
                path.write_text(json.dumps(document))
                break
        else:
            continue
        break
    code, out, _ = run(capsys, "verify", game.id, "--data", str(data))
    assert code == 1 and "the seed gives" in out and "1 log entry does not match" in out


def test_unknown_games_are_one_plain_line(tmp_path, capsys):
    code, out, err = run(capsys, "verify", "nothing", "--data", str(tmp_path))
    assert code == 1 and err.startswith("error: no game 'nothing'") and err.count("\n") == 1


def test_a_damaged_file_is_a_warning_and_the_rest_still_lists(tmp_path, capsys):
    store = TinyDBStore(tmp_path)
    good, bad = played_game(store, 1, actions=5), played_game(store, 2, actions=5)
    store.close()
    (tmp_path / "games" / bad.id / "game.json").write_text("{")
    code, out, err = run(capsys, "games", "--data", str(tmp_path))
    assert code == 0 and good.id in out and bad.id not in out
    assert err.startswith("warning: ") and "game.json" in err and "damaged" in err
