"""Writes the bad-input corpus beside this script (issue 11): run it again after a format change.

    .venv/bin/python tests/bad_inputs/make_corpus.py

Each file is a good card, fleet, scenario, War Fleet scenario or exported
game with one thing wrong, or a file that is not JSON at all.  The folder a
file is in says which commands read it (tests/test_bad_input_corpus.py);
every one of them must answer with one plain line and exit code 1.  The big
files (3 MB, 2,000 ships, 100,000 brackets) are made by the test, not kept.
"""

from __future__ import annotations

import copy
import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FOLDERS = ("cards", "fleets", "scenarios", "warfleet", "exports", "text")


def shipped(name: str):
    return json.loads((ROOT / "fleets" / name).read_text(encoding="utf-8"))


def changed(base, path: str, value):
    """A deep copy of `base` with the value at the dotted path replaced (`...=DELETE` removes it)."""
    data = copy.deepcopy(base)
    *parents, last = path.split(".")
    node = data
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    key = int(last) if isinstance(node, list) else last
    if value is DELETE:
        del node[key]
    else:
        node[key] = value
    return data


DELETE = object()
RAW = "__RAW__"  # replaced by a JSON literal json.dumps cannot write (1e4000, NaN, 5,000 digits)


def write(folder: str, name: str, data, raw: str | None = None) -> None:
    text = data if isinstance(data, str) else json.dumps(data, indent=1)
    if raw is not None:
        text = text.replace(json.dumps(RAW), raw)
    (HERE / folder / name).write_text(text, encoding="utf-8")


def cards() -> None:
    card = shipped("quick-start-british.json")["ships"][0]
    slots = card["locations"]["bow"]["slots"]
    gun = f"locations.bow.slots.{_first(slots, 'gun')}"
    armor = f"locations.bow.slots.{_first(slots, 'armor')}"
    crew = f"locations.bow.slots.{_first(slots, 'crew')}"
    for name, path, value in [
        ("type-true", "type", True),
        ("type-string", "type", "2"),
        ("type-9", "type", 9),
        ("type-fraction", "type", 2.5),
        ("type-null", "type", None),
        ("si-negative", "structural_integrity", -5),
        ("si-zero", "structural_integrity", 0),
        ("si-true", "structural_integrity", True),
        ("si-list", "structural_integrity", [20]),
        ("si-string", "structural_integrity", "twenty"),
        ("si-missing", "structural_integrity", DELETE),
        ("enter-true", "enter_hexes_before_turn", True),
        ("enter-negative", "enter_hexes_before_turn", -1),
        ("locations-list", "locations", []),
        ("locations-empty", "locations", {}),
        ("locations-extra", "locations.keel", card["locations"]["bow"]),
        ("bow-missing", "locations.bow", DELETE),
        ("slots-five", "locations.bow.slots", card["locations"]["bow"]["slots"][:5]),
        ("slots-hundred", "locations.bow.slots", card["locations"]["bow"]["slots"] * 17),
        ("slots-string", "locations.bow.slots", "gun"),
        ("slot-kind-laser", f"{gun}.kind", "laser"),
        ("slot-kind-missing", f"{gun}.kind", DELETE),
        ("slot-kind-number", f"{gun}.kind", 7),
        ("slot-null", gun, None),
        ("gun-21-dice", f"{gun}.short.dice", "21DRed"),
        ("gun-billion-dice", f"{gun}.short.dice", "999999999DRed"),
        ("gun-purple", f"{gun}.short.dice", "DPurple"),
        ("gun-dice-number", f"{gun}.short.dice", 12),
        ("gun-no-dice", f"{gun}.short.dice", "0DRed"),
        ("gun-range-negative", f"{gun}.short.range", -1),
        ("gun-range-true", f"{gun}.long.range", True),
        ("gun-range-string", f"{gun}.long.range", "12 hexes"),
        ("gun-traits-string", f"{gun}.traits", "turret"),
        ("gun-traits-unknown", f"{gun}.traits", ["laser"]),
        ("gun-saturation-negative", f"{gun}.saturation", -1),
        ("go-empty", "locations.bow.go", ""),
        ("stop-null", "locations.bow.stop", None),
        ("go-newline", "locations.bow.go", "DRed\nDBlue"),
        ("breach-zero", f"{gun}.breach", 0),
        ("breach-string", f"{gun}.breach", "12"),
        ("breach-true", f"{gun}.breach", True),
        ("armor-modifier-true", f"{armor}.breach_modifier", True),
        ("crew-no-dice", f"{crew}.dice", "0DGreen"),
        ("name-number", "name", 12345),
        ("id-null", "id", None),
        ("id-empty", "id", ""),
        ("extra-field", "colour", "grey"),
        ("format-newer", "format", "leviathans-card/9"),
        ("format-number", "format", 1),
    ]:
        write("cards", f"{name}.json", changed(card, path, value))
    for name, path, raw in [
        ("si-1e4000", "structural_integrity", "1e4000"),
        ("si-minus-1e4000", "structural_integrity", "-1e4000"),
        ("si-nan", "structural_integrity", "NaN"),
        ("si-infinity", "structural_integrity", "Infinity"),
        ("si-5000-digits", "structural_integrity", "9" * 5000),
        ("si-40-digits", "structural_integrity", "9" * 40),
        ("si-400-digits", "structural_integrity", "9" * 400),
        ("si-4000-digits", "structural_integrity", "9" * 4000),
        ("breach-1e400", f"{gun}.breach", "1e400"),
        ("range-1e4000", f"{gun}.short.range", "1e4000"),
        ("type-1e4000", "type", "1e4000"),
    ]:
        write("cards", f"{name}.json", changed(card, path, RAW), raw)
    text = json.dumps(card)
    write("cards", "deep-600.json", text[:-1] + ', "sources": ' + "[" * 600 + "]" * 600 + "}")
    write("cards", "deep-object-300.json", text[:-1] + ', "sources": ' + '{"a":' * 300 + "1" + "}" * 300 + "}")
    write("cards", "root-list.json", [card])
    write("cards", "root-string.json", "\"leviathans-card/1\"")
    write("cards", "root-number.json", "42")
    write("cards", "root-null.json", "null")
    write("cards", "root-true.json", "true")


def _first(slots, kind: str) -> int:
    return next(i for i, slot in enumerate(slots) if slot.get("kind") == kind)


def fleets() -> None:
    fleet = shipped("quick-start-british.json")
    for name, path, value in [
        ("ships-object", "ships", {"a": 1}),
        ("ships-string", "ships", "hml-raven"),
        ("ship-type-true", "ships.0.type", True),
        ("ship-id-string", "ships.0", "hml-raven"),
        ("ships-duplicate-id", "ships.1.id", fleet["ships"][0]["id"]),
        ("ship-gun-21-dice", f"ships.1.locations.bow.slots.{_first(fleet['ships'][1]['locations']['bow']['slots'], 'gun')}.short.dice", "21DBlack"),
        ("name-list", "name", ["a"]),
        ("format-missing", "format", DELETE),
    ]:
        write("fleets", f"{name}.json", changed(fleet, path, value))
    write("fleets", "ship-si-1e4000.json", changed(fleet, "ships.0.structural_integrity", RAW), "1e4000")


def scenarios() -> None:
    base = {"format": "leviathans-scenario/1", "ruleset": "quick-start", "board": {"columns": 33, "rows": 19},
            "turn": 1, "ships": [
                {"id": "a", "side": "British", "card": "hml-raven", "bow": "1010", "facing": "N"},
                {"id": "b", "side": "French", "card": "hml-hertfordshire", "bow": "1005", "facing": "S"}]}
    ship = "ships.0"
    for name, path, value in [
        ("board-columns-true", "board.columns", True),
        ("board-columns-zero", "board.columns", 0),
        ("board-huge", "board", {"columns": 100000, "rows": 100000}),
        ("board-billion", "board", {"columns": 10 ** 9, "rows": 10 ** 9}),
        ("board-string", "board", "33x19"),
        ("board-rows-negative", "board.rows", -19),
        ("turn-zero", "turn", 0),
        ("turn-true", "turn", True),
        ("ships-object", "ships", {"a": {}}),
        ("ships-null", "ships", None),
        ("ship-overlap-same-bow", f"{ship}.bow", "1005"),
        ("ship-overlap-footprint", f"{ship}.bow", "1004"),
        ("ship-off-board", f"{ship}.bow", "3410"),
        ("ship-bow-number", f"{ship}.bow", 1010),
        ("ship-bow-true", f"{ship}.bow", True),
        ("ship-bow-letters", f"{ship}.bow", "zz"),
        ("ship-bow-huge", f"{ship}.bow", "99999999999999"),
        ("ship-bow-negative", f"{ship}.bow", "-101"),
        ("ship-facing-true", f"{ship}.facing", True),
        ("ship-facing-NNE", f"{ship}.facing", "NNE"),
        ("ship-facing-9", f"{ship}.facing", 9),
        ("ship-facing-E", f"{ship}.facing", "E"),
        ("ship-side-null", f"{ship}.side", None),
        ("ship-id-duplicate", f"{ship}.id", "b"),
        ("ship-card-unknown", f"{ship}.card", "no-such-card"),
        ("ship-card-number", f"{ship}.card", 42),
        ("ship-card-type-true", f"{ship}.card", changed(shipped("quick-start-british.json")["ships"][1], "type", True)),
        ("ship-damage-slot-9", f"{ship}.damage", {"bow": {"9": "destroyed"}}),
        ("ship-damage-smashed", f"{ship}.damage", {"bow": {"2": "smashed"}}),
        ("ship-damage-keel", f"{ship}.damage", {"keel": {"2": "destroyed"}}),
        ("ship-moved-string", f"{ship}.moved", "yes"),
        ("ruleset-war-fleet", "ruleset", "war-fleet"),
        ("format-scenario-9", "format", "leviathans-scenario/9"),
    ]:
        write("scenarios", f"{name}.json", changed(base, path, value))
    write("scenarios", "turn-1e4000.json", changed(base, "turn", RAW), "1e4000")
    write("scenarios", "board-1e4000.json", changed(base, "board.columns", RAW), "1e4000")
    write("scenarios", "board-5000-digits.json", changed(base, "board.rows", RAW), "7" * 5000)


def warfleet() -> None:
    full = shipped("war-fleet-20v20.json")
    card = dict(shipped("quick-start-british.json")["ships"][0], id="corpus-cruiser")
    ships = full["ships"][:2] + full["ships"][20:22]
    ships[0] = dict(ships[0], card="corpus-cruiser")
    base = dict(full, cards=[card], ships=ships)
    full = base
    ship = "ships.0"
    stats = {"class": 1, "si": 9, "mp": 9}
    for name, path, value in [
        ("class-9", f"{ship}.stats", dict(stats, **{"class": 9})),
        ("class-true", f"{ship}.stats", dict(stats, **{"class": True})),
        ("stats-string", f"{ship}.stats", "class 1"),
        ("card-class-9", "cards.0.type", 9),
        ("card-type-true", "cards.0.type", True),
        ("card-gun-21-dice", f"cards.0.locations.bow.slots.{_first(full['cards'][0]['locations']['bow']['slots'], 'gun')}.short.dice", "21DRed"),
        ("hex-true", f"{ship}.hex", True),
        ("hex-off-board", f"{ship}.hex", "9999"),
        ("hex-letters", f"{ship}.hex", "ab"),
        ("facing-true", f"{ship}.facing", True),
        ("facing-NNE", f"{ship}.facing", "NNE"),
        ("card-unknown", f"{ship}.card", "no-such-card"),
        ("no-card-no-stats", f"{ship}.card", DELETE),
        ("destroyed-keel", f"{ship}.destroyed", ["keel"]),
        ("destroyed-string", f"{ship}.destroyed", "stern"),
        ("initiative-billion", "initiative_dice", "999999999DRed"),
        ("initiative-purple", "initiative_dice", "DPurple"),
        ("initiative-empty", "initiative_dice", ""),
        ("board-huge", "board", {"columns": 100000, "rows": 100000}),
        ("board-columns-true", "board.columns", True),
        ("cards-object", "cards", {"a": 1}),
        ("ships-duplicate-id", "ships.1.id", full["ships"][0]["id"]),
        ("turn-true", "turn", True),
        ("ruleset-quick-start", "ruleset", "quick-start"),
    ]:
        write("warfleet", f"{name}.json", changed(base, path, value))
    write("warfleet", "card-si-1e4000.json", changed(base, "cards.0.structural_integrity", RAW), "1e4000")
    write("warfleet", "stats-si-1e4000.json", changed(base, f"{ship}.stats", dict(stats, si=RAW)), "1e4000")


def exports() -> None:
    """Exported games: one is played here in a scratch data folder, then spoiled."""
    import tempfile
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "tests"))
    from companion.store import TinyDBStore
    from random_games import random_log

    with tempfile.TemporaryDirectory() as folder:
        store = TinyDBStore(Path(folder) / "data")
        initial, log = random_log(11)
        game = store.new_game(initial, "Corpus game")
        for action in log[:12]:
            game.act(action)
        document = store.export_game(game.id)
        store.close()
    document = json.loads(json.dumps(document))
    first_ship = next(iter(_ships(document)), None)
    cases = [
        ("format-wrong", "format", "leviathans-game/9"),
        ("format-missing", "format", DELETE),
        ("log-object", "log", {"0": 1}),
        ("log-entry-null", "log.0", None),
        ("log-entry-string", "log.0", "move"),
        ("log-action-garbage", "log.0.action", {"kind": "teleport"}),
        ("log-action-number", "log.0.action", 42),
        ("name-number", "name", 7),
        ("deep-log", "log.0.action", RAW),
        ("ships-overlap", "initial.ships.1.row", 6),
        ("ship-column-true", "initial.ships.0.column", True),
        ("ship-facing-true", "initial.ships.0.facing", True),
        ("ship-facing-9", "initial.ships.0.facing", 9),
        ("ship-off-board", "initial.ships.0.column", 99),
        ("board-huge", "initial.board", {"columns": 100000, "rows": 100000}),
        ("turn-true", "initial.turn", True),
        ("roller-seed-true", "initial.roller", True),
        ("initiative-faces-99", "log.0.action.faces", [99, 99]),
    ]
    for name, path, value in cases:
        raw = "[" * 700 + "]" * 700 if value is RAW else None
        try:
            write("exports", f"{name}.json", changed(document, path, value), raw)
        except (KeyError, IndexError, TypeError):
            print(f"skipped exports/{name}: the export has no {path}", file=sys.stderr)
    for key in ("initial", "start", "state", "scenario"):
        if key in document:
            write("exports", f"{key}-missing.json", changed(document, key, DELETE))
            write("exports", f"{key}-string.json", changed(document, key, "x"))
    if first_ship is not None:
        path, ship = first_ship
        write("exports", "ship-card-type-true.json", _with(document, path, lambda s: _card_set(s, "type", True)))
        write("exports", "ship-card-si-1e4000.json",
              _with(document, path, lambda s: _card_set(s, "structural_integrity", RAW)), "1e4000")


def _ships(document):
    """(dotted path, ship) of the ships in the export's starting position."""
    for key in ("initial", "start", "state", "scenario"):
        node = document.get(key)
        if isinstance(node, dict) and isinstance(node.get("ships"), list):
            for i, ship in enumerate(node["ships"]):
                yield f"{key}.ships.{i}", ship


def _with(document, path, change):
    data = copy.deepcopy(document)
    node = data
    for key in path.split("."):
        node = node[int(key)] if isinstance(node, list) else node[key]
    change(node)
    return data


def _card_set(ship, field, value):
    card = ship.get("card")
    if isinstance(card, dict):
        card[field] = value
    else:
        ship["card"] = value


def text_files() -> None:
    """Files that are not JSON, or not text."""
    write("text", "empty.json", "")
    write("text", "spaces.json", "   \n\t ")
    write("text", "truncated.json", '{"format": "leviathans-card/1", "id": "x", "locations": {"bow": ')
    write("text", "trailing-garbage.json", '{"format": "leviathans-card/1"} and more')
    write("text", "comments.json", '// a card\n{"format": "leviathans-card/1"}')
    write("text", "single-quotes.json", "{'format': 'leviathans-card/1'}")
    write("text", "bare-nan.json", "NaN")
    write("text", "deep-list-2000.json", "[" * 2000 + "]" * 2000)
    write("text", "deep-object-2000.json", '{"a":' * 2000 + "1" + "}" * 2000)
    write("text", "unclosed-5000.json", "[" * 5000)
    (HERE / "text" / "binary.json").write_bytes(bytes(range(256)) * 4)
    (HERE / "text" / "latin1.json").write_bytes('{"format": "leviathans-card/1", "name": "Héros"}'.encode("latin-1"))
    (HERE / "text" / "utf16.json").write_bytes('{"format": "leviathans-card/1"}'.encode("utf-16"))
    (HERE / "text" / "bom.json").write_bytes(b"\xef\xbb\xbf" + b'{"format": "leviathans-fleet/1"}')
    (HERE / "text" / "nul-bytes.json").write_bytes(b'{"format": "leviathans-card/1"\x00\x00}')
    (HERE / "text" / "gzip.json.gz").write_bytes(b"\x1f\x8b\x08\x00" + bytes(60))


def main() -> None:
    for folder in FOLDERS:
        shutil.rmtree(HERE / folder, ignore_errors=True)
        (HERE / folder).mkdir()
    cards()
    fleets()
    scenarios()
    warfleet()
    exports()
    text_files()
    count = sum(1 for f in FOLDERS for _ in (HERE / f).iterdir())
    print(f"wrote {count} files in {', '.join(FOLDERS)}")


if __name__ == "__main__":
    main()
