"""One gate for a game from outside (issue 36 part 1): every hostile export of the corpus below is
refused in one line, or imported cleaned, through `companion import` AND through the app's import
(views/game_files.read_game_file, what Load a scenario > Import a game file calls, on the host
and in the static build); a game saved before is never changed; the replayed events are the
rules', so an edited or an extra "game over" cannot come in and reveal the seed."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable

import pytest

from companion.app.views import game_files
from companion.commands import main
from companion.commands.common import scenario_state
from companion.engine.cards import FormatError
from companion.engine.registry import find_ruleset
from companion.engine.roller import Roller
from companion import files
from companion.store import MemoryStore, TinyDBStore, export
from companion.store.verify import verify_game

from random_games import options_game, starting_state

ROOT = Path(__file__).resolve().parent.parent
Document = dict[str, Any]


def _exported(ruleset_id: str, start: Any, actions: int) -> Document:
    """A short game of a ruleset, played through its own options, as its export reads back."""
    ruleset = find_ruleset(ruleset_id)
    store = MemoryStore()
    start = start.model_copy(update={"roller": Roller.from_seed("gate")})
    _, log = options_game(ruleset, start, 5, actions)
    game = store.new_game(start, f"{ruleset.name} game", ruleset=ruleset, roller=start.roller)
    for action in log:
        assert game.act(action).ok, action
    return json.loads(json.dumps(store.export_game(game.id)))


@pytest.fixture(scope="module")
def documents() -> dict[str, Document]:
    war_fleet = scenario_state(str(ROOT / "fleets" / "war-fleet-20v20.json"), [], "")[2]
    dv = scenario_state(str(ROOT / "fleets" / "decisive-victory" / "sample.json"), [], "")[2]
    return {"quick-start": _exported("quick-start", starting_state(3), 12),
            "war-fleet": _exported("war-fleet", war_fleet, 12),
            "decisive-victory": _exported("decisive-victory", dv, 12)}


def _copy(document: Document) -> Document:
    return json.loads(json.dumps(document))


def _changed(ruleset_id: str, change: Callable[[Document], Any]) -> Callable[[dict[str, Document]], Document]:
    def make(documents: dict[str, Document]) -> Document:
        document = _copy(documents[ruleset_id])
        change(document)
        return document
    return make


def _ships_sharing_an_id(document: Document) -> None:
    ships = document["initial"]["ships"]
    ships.extend(json.loads(json.dumps(ships[0])) for _ in range(1000))  # 40 + 1,000 ships
    assert len(ships) == 1040


def _second_ship_takes_the_first_ones_id(document: Document) -> None:
    ships = document["initial"]["ships"]
    ships[1]["id"] = ships[0]["id"]


def _first_event(document: Document, kind: str) -> dict[str, Any]:
    return next(e for entry in document["log"] for e in entry["events"] if kind in e["kind"])


def _edit_first_initiative(document: Document) -> None:
    _first_event(document, "initiative")["text"] = "British wins the game"


def _add_game_over(document: Document) -> None:
    document["log"][-1]["events"].append({"kind": "game_over", "text": "British wins the game.",
                                          "data": {"winner": "British"}})


def _long_log(document: Document) -> None:
    undo = {"index": 0, "kind": "undo", "action": None, "events": [], "at": 1.0}
    document["log"] = [{**undo, "index": i} for i in range(150_000)]


def _ship_named(name: str, position: int = 0) -> Callable[[Document], None]:
    def change(document: Document) -> None:
        document["initial"]["ships"][position]["ship_name"] = name
    return change


def _set(path: str, value: Any) -> Callable[[Document], None]:
    def change(document: Document) -> None:
        *parents, last = path.split(".")
        target = document
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        target[last] = value
    return change


def _both(*changes: Callable[[Document], None]) -> Callable[[Document], None]:
    def change(document: Document) -> None:
        for one in changes:
            one(document)
    return change


def _qs_card_named(name: str) -> Callable[[Document], None]:
    def change(document: Document) -> None:
        document["initial"]["ships"][0]["card"]["name"] = name
    return change


LONG = "x" * 100_000

#: case -> (the document, the words the one-line refusal holds; None: imported, cleaned)
REFUSED: dict[str, tuple[Callable[[dict[str, Document]], Document], str]] = {
    "1,040 ships, 1,000 sharing one id": (_changed("war-fleet", _ships_sharing_an_id), "at most 200 ships"),
    "two ships of one id": (_changed("war-fleet", _second_ship_takes_the_first_ones_id), "two ships have the id"),
    "Decisive Victory, one side": (_changed("decisive-victory", _set("initial.sides", ["British"])),
                                   "two sides at least"),
    "War Fleet, British twice": (_changed("war-fleet", _set("initial.sides", ["British", "British"])),
                                 "named twice"),
    "War Fleet, BRITISH beside British": (_changed("war-fleet", _set("initial.sides", ["British", "BRITISH"])),
                                          "look the same"),
    "War Fleet, turn -3": (_changed("war-fleet", _set("initial.turn", -3)), "turns count from 1"),
    "Decisive Victory, turn -3": (_changed("decisive-victory", _set("initial.turn", -3)), "turns count from 1"),
    "a side with a raw ESC": (_changed("war-fleet", _both(_set("initial.sides", ["\x1b[31mred", "French"]))),
                              "control, invisible"),
    "a side with U+202E": (_changed("decisive-victory", _set("initial.sides", ["British\u202e", "Japanese"])),
                           "control, invisible"),
    "a side with zero-width characters": (_changed("quick-start", _set("initial.sides", ["Brit\u200bish", "French"])),
                                          "control, invisible"),
    "a ship named with a raw ESC": (_changed("war-fleet", _ship_named("\x1b[31mred")), "control, invisible"),
    "a ship named This cоmputer beside This computer": (
        _changed("war-fleet", _both(_ship_named("This computer", 0), _ship_named("This c\u043emputer", 1))),
        "look the same"),
    "a ship of a 100,000-character name": (_changed("war-fleet", _ship_named(LONG)), "at most 60 characters"),
    "a game of a 100,000-character name": (_changed("quick-start", _set("name", LONG)), "at most 80 characters"),
    "a ship of a blank name (U+3164)": (_changed("war-fleet", _ship_named("\u3164")), "shows nothing"),
    "an extra game_over in an unfinished game": (_changed("quick-start", _add_game_over), "the rules make"),
    "a 150,000-entry log": (_changed("decisive-victory", _long_log), "150,000 log entries"),
    "100,000 flights": (_changed("decisive-victory", lambda d: d["initial"]["flights"].extend(
        [{"id": "f", "side": "British"}] * 100_000)), "at most 1,000"),
}

#: case -> the document whose events say what the rules' say, in other words: imported with the
#: rules' own words (the edited text never shown), and the import's line says so
REWORDED: dict[str, Callable[[dict[str, Document]], Document]] = {
    "the first initiative event edited": _changed("war-fleet", _edit_first_initiative),
    # the card's name is cleaned as it is read ("[31mRaven"): the events the rules make name the ship so
    "a Quick-Start card named with a raw ESC": _changed("quick-start", _qs_card_named("\x1b[31mRaven")),
}

#: case -> (the document, what the imported game holds, cleaned)
CLEANED: dict[str, tuple[Callable[[dict[str, Document]], Document], Callable[[Any], Any]]] = {
    "a game named with a raw ESC": (_changed("quick-start", _set("name", "\x1b[31mred")), lambda g: g.name),
    "a game named with U+202E and zero-width characters": (
        _changed("war-fleet", _set("name", "\u202eevil\u200b game\u200d")), lambda g: g.name),
}
CLEAN_NAMES = {"a game named with a raw ESC": "[31mred",
               "a game named with U+202E and zero-width characters": "evil game",
}


@pytest.fixture
def folder(tmp_path, documents):
    """A data folder with one game saved before, and that game's export (to see it unchanged)."""
    store = TinyDBStore(tmp_path / "data")
    kept = store.import_game(_copy(documents["war-fleet"]), "kept.json")
    before = store.export_game(kept.id)
    store.close()
    return tmp_path / "data", kept.id, before


def _unchanged(data: Path, kept_id: str, before: Document, added: int = 0) -> None:
    store = TinyDBStore(data)
    assert len(store.games()) == 1 + added
    after = store.export_game(kept_id)
    assert {**after, "exported": 0} == {**before, "exported": 0}
    store.close()


def _cli_import(capsys, tmp_path, document: Document, data: Path) -> tuple[int, str, str]:
    path = tmp_path / "in.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    code = main(["import", str(path), "--data", str(data)])
    out, err = capsys.readouterr()
    return code, out, err


def _app_import(document: Document, data: Path):
    store = TinyDBStore(data)
    app = SimpleNamespace(store=store)
    try:
        return game_files.read_game_file(app, "in.json", json.dumps(document).encode("utf-8"))
    finally:
        store.close()


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_hostile_export_is_refused_in_one_line_by_the_cli_and_the_app(case, documents, folder, tmp_path, capsys):
    make, words = REFUSED[case]
    document = make(documents)
    data, kept_id, before = folder
    code, out, err = _cli_import(capsys, tmp_path, document, data)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and words in err, err
    assert "Traceback" not in err and "\x1b" not in err and "\u202e" not in err and len(err) < 400
    with pytest.raises(FormatError) as refused:
        _app_import(document, data)
    assert words in str(refused.value) and "\n" not in str(refused.value) and len(str(refused.value)) < 400
    _unchanged(data, kept_id, before)


@pytest.mark.parametrize("case", sorted(CLEANED))
def test_a_hostile_name_that_cleaning_mends_is_imported_cleaned_by_the_cli_and_the_app(case, documents, folder,
                                                                                        tmp_path, capsys):
    make, read = CLEANED[case]
    document = make(documents)
    data, kept_id, before = folder
    code, out, err = _cli_import(capsys, tmp_path, document, data)
    assert code == 0 and out.startswith("imported ") and "\x1b" not in out and "\u202e" not in out, (out, err)
    game = _app_import(document, data)
    assert read(game) == CLEAN_NAMES[case]
    store = TinyDBStore(data)
    assert all(read(store.game(s.id)) == CLEAN_NAMES[case] for s in store.games() if s.id != kept_id)
    store.close()
    _unchanged(data, kept_id, before, added=2)


def test_the_huge_cases_are_refused_before_the_file_is_read_further(documents, monkeypatch, tmp_path, capsys):
    """The 1,040 ships and the 150,000 entries are counted first, by the CLI and by the app, as soon as
    the JSON is parsed: no walk over every value, no validation, no replay."""
    def never(*args, **kwargs):
        raise AssertionError("read further than the counts")

    monkeypatch.setattr(files, "check_nesting_and_numbers", never)
    monkeypatch.setattr(export, "check_nesting_and_numbers", never)
    monkeypatch.setattr(export.GameDocument, "model_validate", never)
    for case in ("1,040 ships, 1,000 sharing one id", "a 150,000-entry log", "100,000 flights"):
        make, words = REFUSED[case]
        document = make(documents)
        with pytest.raises(FormatError, match=words):
            MemoryStore().import_game(document, "huge.json")
        with pytest.raises(FormatError, match=words):
            game_files.read_game_file(SimpleNamespace(store=MemoryStore()), "huge.json", json.dumps(document).encode())
        code, out, err = _cli_import(capsys, tmp_path, document, tmp_path / "data")
        assert code == 1 and words in err and "read further" not in err


def test_an_honest_export_of_every_ruleset_imports_with_the_rules_events_and_verifies(documents):
    for ruleset_id, document in documents.items():
        store = MemoryStore()
        game = store.import_game(_copy(document), "honest.json")
        assert [e.events for e in game.entries] == [e["events"] for e in document["log"]], ruleset_id
        assert game.revealed_seed is None
        checked = verify_game(store.stored(game.id))
        assert checked.ok and not checked.over, (ruleset_id, checked.lines())


def test_verify_names_an_edited_event_and_keeps_the_seed_of_an_unfinished_game_secret(documents):
    """The store's own log edited (as a file on disk could be): verify compares events, not only dice,
    and a game_over the rules did not make reveals no seed."""
    store = MemoryStore()
    game = store.import_game(_copy(documents["quick-start"]), "honest.json")
    stored = store.stored(game.id)
    last = stored.entries[-1]
    forged = type(last)(last.index, last.kind, last.action,
                        last.events + [{"kind": "game_over", "text": "British wins.", "data": {}}], last.at)
    stored.entries[-1] = forged
    checked = verify_game(stored)
    assert not checked.ok and not checked.over
    assert any(f"log entry {last.index}" in line and "not the ones the rules make" in line for line in checked.lines())
    assert not any(stored.record.initial.roller.seed in line for line in checked.lines())


@pytest.mark.parametrize("case", sorted(REWORDED))
def test_an_export_whose_event_words_were_edited_is_imported_in_the_rules_own_words(case, documents, folder,
                                                                                     tmp_path, capsys):
    """What happened (each event's kind and data) is the rules'; only the words differ: the game comes
    in with the rules' words, never the file's, and the CLI's line says so (issue 36, 'imported with
    the replayed events, and the line says so')."""
    document = REWORDED[case](documents)
    data, kept_id, before = folder
    code, out, err = _cli_import(capsys, tmp_path, document, data)
    assert code == 0 and out.count("\n") == 1 and "worded otherwise in the file" in out, (out, err)
    assert "British wins the game" not in out and "\x1b" not in out
    game = _app_import(document, data)
    assert game.reworded >= 1
    shown = [e["text"] for entry in game.entries for e in entry.events]
    assert not any("British wins the game" in text or "\x1b" in text for text in shown)
    store = TinyDBStore(data)
    assert verify_game(store.stored(game.id)).ok  # the rules' words kept: nothing reworded is left
    store.close()
    _unchanged(data, kept_id, before, added=2)
