"""The `companion` command line as formats.md describes it."""

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from companion.commands import build_parser, main
from cards_for_tests import card, gun, filler, location

TYPE1 = card("destroyer", ship_type=1, si=16, enter=1).dump()
TYPE2 = card("cruiser", ship_type=2, si=20, enter=2).dump()


def run(*args, capsys):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return str(path)


def scenario(*ships, board=None):
    return {"format": "leviathans-scenario/1", "ruleset": "quick-start",
            "board": board or {"columns": 33, "rows": 19}, "turn": 1, "ships": list(ships)}


def test_every_command_has_help_text():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, choice in sub.choices.items():
        assert choice.format_help().strip(), name
        assert sub._choices_actions and any(a.dest == name and a.help for a in sub._choices_actions), name


def test_dist_json_is_exact_fractions_in_ascending_order(capsys):
    code, out, _ = run("dist", "DGreen & DBlue", "--json", capsys=capsys)
    data = json.loads(out)
    assert code == 0 and data["pool"] == "DGreen & DBlue"
    keys = list(data["outcomes"])
    assert keys == sorted(keys, key=int) and keys[0] == "2" and keys[-1] == "10"
    assert sum(Fraction(v) for v in data["outcomes"].values()) == 1
    assert data["outcomes"]["2"] == "1/24"


def test_roll_with_a_seed_gives_the_same_faces(capsys):
    _, first, _ = run("roll", "2DRed & DBlue", "--seed", "7", "--json", capsys=capsys)
    _, second, _ = run("roll", "2dred & dblue", "--seed", "7", "--json", capsys=capsys)
    a, b = json.loads(first), json.loads(second)
    assert a["dice"] == b["dice"] and [d["die"] for d in a["dice"]] == ["DRed", "DRed", "DBlue"]
    assert a["total"] == sum(d["face"] for d in a["dice"])


@pytest.mark.parametrize("args, message", [
    (("dist", "DPurple"), "unknown die colour"),
    (("roll", "2DRad"), "unknown die colour 'Rad'"),
    (("dist", "30DBlack"), "more than 20 dice"),
])
def test_bad_pools_are_one_plain_line_and_exit_1(args, message, capsys):
    code, out, err = run(*args, capsys=capsys)
    assert code == 1 and message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_validate_names_file_path_and_problem(tmp_path, capsys):
    bad = dict(TYPE1)
    bad["locations"] = dict(bad["locations"])
    bad["locations"]["bow"] = dict(bad["locations"]["bow"], slots=bad["locations"]["bow"]["slots"][:5])
    path = write(tmp_path, "raven.json", bad)
    code, _, err = run("validate", path, capsys=capsys)
    assert code == 1 and err.strip() == "raven.json: locations.bow.slots: 5 slots, a location needs exactly 6"


@pytest.mark.parametrize("content, message", [
    ("{not json", "not valid JSON"),
    ("", "the file is empty"),
    (json.dumps({"format": "leviathans-card/9"}), "newer than this app"),
    (json.dumps({"format": "something"}), "no known \"format\" tag"),
])
def test_validate_malformed_files(tmp_path, capsys, content, message):
    path = write(tmp_path, "x.json", content)
    code, _, err = run("validate", path, capsys=capsys)
    assert code == 1 and message in err and "Traceback" not in err


def test_validate_bad_slot_kind_and_dice(tmp_path, capsys):
    bad = json.loads(json.dumps(TYPE1))
    bad["locations"]["port"]["slots"][2] = {"kind": "laser", "breach": 3}
    code, _, err = run("validate", write(tmp_path, "a.json", bad), capsys=capsys)
    assert code == 1 and "locations.port.slots.3: unknown slot kind 'laser'" in err
    bad = json.loads(json.dumps(TYPE1))
    bad["locations"]["stern"]["go"] = "DPink"
    code, _, err = run("validate", write(tmp_path, "b.json", bad), capsys=capsys)
    assert code == 1 and "locations.stern.go: unknown die colour 'Pink'" in err


def test_validate_scenarios_refuses_bad_positions(tmp_path, capsys):
    ok = scenario({"id": "a", "side": "A", "card": TYPE1, "bow": "1010", "facing": "N"},
                  {"id": "b", "side": "B", "card": TYPE2, "bow": "1005", "facing": "S"})
    assert run("validate", write(tmp_path, "ok.json", ok), capsys=capsys)[0] == 0
    off = scenario({"id": "a", "side": "A", "card": TYPE1, "bow": "3410", "facing": "N"})
    code, _, err = run("validate", write(tmp_path, "off.json", off), capsys=capsys)
    assert code == 1 and "ships.0.bow: hex 3410 is off the board" in err
    shared = scenario({"id": "a", "side": "A", "card": TYPE1, "bow": "1010", "facing": "N"},
                      {"id": "b", "side": "B", "card": TYPE2, "bow": "1011", "facing": "N"})
    code, _, err = run("validate", write(tmp_path, "shared.json", shared), capsys=capsys)
    assert code == 1 and "share hex" in err
    unknown = scenario({"id": "a", "side": "A", "card": "no-such-card", "bow": "1010", "facing": "N"})
    code, _, err = run("validate", write(tmp_path, "unknown.json", unknown), capsys=capsys)
    assert code == 1 and "unknown card id 'no-such-card'" in err
    bad_facing = scenario({"id": "a", "side": "A", "card": TYPE1, "bow": "1010", "facing": "E"})
    code, _, err = run("validate", write(tmp_path, "facing.json", bad_facing), capsys=capsys)
    assert code == 1 and "ships.0.facing" in err and "not a facing" in err


def test_schema_prints_json_schema(capsys):
    for kind in ("card", "fleet", "scenario"):
        code, out, _ = run("schema", kind, capsys=capsys)
        assert code == 0 and "properties" in json.loads(out)
    assert "class" in json.loads(run("schema", "card", capsys=capsys)[1])["properties"]


@pytest.mark.parametrize("facing", ["N", "NE", "SE", "S", "SW", "NW"])
def test_solutions_json_in_every_facing(tmp_path, capsys, facing):
    """Attacker in the middle, one enemy of each type; outcomes exact and summing to 1."""
    data = scenario({"id": "me", "side": "A", "card": TYPE2, "bow": "1710", "facing": facing},
                    {"id": "near", "side": "B", "card": TYPE1, "bow": "1706", "facing": "S",
                     "moved": True, "damage": {"bow": {"2": "destroyed", "3": "destroyed_this_turn"}}},
                    {"id": "far", "side": "B", "card": TYPE2, "bow": "2314", "facing": "NW"})
    code, out, err = run("solutions", write(tmp_path, "s.json", data), "--attacker", "me", "--json", capsys=capsys)
    assert code == 0, err
    rows = json.loads(out)
    assert len(rows) == 4 * 2  # four guns (one a location) x two enemies
    for row in rows:
        assert set(row) == {"weapon", "target", "in_arc", "range", "band", "locations"}
        assert row["band"] in ("short", "long", "out")
        if row["band"] == "out":
            assert row["locations"] == []
        for loc in row["locations"]:
            total = Fraction(loc["no_effect"]) + Fraction(loc["keel_break"]) + sum(
                Fraction(v) for v in loc["slot_destroyed"].values())
            assert total == 1
            assert loc["pool"].split(" & ")[0] in ("DBlue", "DGreen")
    assert any(row["locations"] for row in rows)


def test_solutions_unknown_attacker_is_plain(tmp_path, capsys):
    data = scenario({"id": "me", "side": "A", "card": TYPE2, "bow": "1710", "facing": "N"})
    code, _, err = run("solutions", write(tmp_path, "s.json", data), "--attacker", "you", capsys=capsys)
    assert code == 1 and "no ship 'you'" in err


def test_console_script_runs_as_a_module():
    out = subprocess.run([sys.executable, "-m", "companion", "dist", "2DRed"], capture_output=True, text=True)
    assert out.returncode == 0 and "2DRed" in out.stdout


def test_solutions_two_locations_and_damaged_slots_of_every_kind(tmp_path, capsys):
    """A spine through the firing hex: the shot may strike the bow or the starboard; the
    attacker's hashed crew, circled armour, hashed Tesla Coil and hashed gun all show."""
    from cards_for_tests import armor, crew, engine, tesla
    attacker = card("striker", ship_type=1, si=16, enter=1,
                    starboard=location([gun("4 IN", (4, "DBlue"), (8, "DGreen"), 11), crew("DGreen", 12),
                                        armor(1, 13), engine(3, 12), tesla(13), gun("3 IN")])).dump()
    target = card("target", ship_type=1, si=16, enter=1,
                  starboard=location([gun(), armor(2, 12), crew(), engine(), tesla(), {"kind": "miss"}])).dump()
    data = scenario(
        {"id": "striker", "side": "A", "card": attacker, "bow": "2109", "facing": "S",
         "damage": {"starboard": {"2": "destroyed", "3": "destroyed_this_turn", "5": "destroyed", "6": "destroyed"}}},
        {"id": "target", "side": "B", "card": target, "bow": "2010", "facing": "N", "moved": False,
         "damage": {"starboard": {"3": "destroyed"}}})
    code, out, err = run("solutions", write(tmp_path, "two.json", data), "--attacker", "striker", "--json", capsys=capsys)
    assert code == 0, err
    rows = json.loads(out)
    guns = {(r["weapon"]["location"], r["weapon"]["slot"]) for r in rows}
    assert ("starboard", 6) not in guns  # hashed gun: no solution
    row = next(r for r in rows if r["weapon"] == {"location": "starboard", "slot": 1, "name": "4 IN"})
    assert [loc["location"] for loc in row["locations"]] == ["bow", "starboard"]
    starboard = row["locations"][1]
    assert starboard["pool"] == "DBlue & DRed & DRed"  # no crew die (hashed); target stationary: 2DRed
    assert starboard["modifier"] == -1  # one Tesla Coil destroyed in an earlier turn
    assert "6" not in starboard["slot_destroyed"] or starboard["slot_destroyed"]["6"] == "0"  # miss slot
    assert starboard["slot_destroyed"]["3"] == "0"  # already destroyed
    assert Fraction(starboard["keel_break"]) > 0


# --- bad input (issue 11) ------------------------------------------------------------------------------------


def test_a_pasted_card_is_read_as_a_file_is(tmp_path):
    """The Fleets screen's pasted or uploaded JSON goes through files.parse_json: deep nesting,
    NaN, 1e4000 and more than 2 MB are one plain FormatError, not a RecursionError."""
    from companion.engine.cards import FormatError
    from companion.files import MAX_FILE_BYTES, parse_json

    for text, said in (("[" * 100_000, "nested too deeply"), ('{"a": ' * 40 + "1" + "}" * 40, "more than 32 levels"),
                       ('{"si": NaN}', "NaN is not a number"), ('{"si": 1e4000}', "si: the number is too large"),
                       (" " * (MAX_FILE_BYTES + 1) + "{}", "over 2 MB")):
        with pytest.raises(FormatError, match=said) as refused:
            parse_json(text, "pasted text")
        assert str(refused.value).startswith("pasted text: ") and "\n" not in str(refused.value)


def test_a_pydantic_error_reaching_the_command_line_is_one_line_without_a_url(monkeypatch, capsys):
    """A model error no loader translated printed pydantic's several lines and its URL."""
    from pydantic import BaseModel

    import companion.commands.files as cli

    class Gun(BaseModel):
        dice: int

    def broken(args):
        Gun.model_validate({"dice": "twenty"})

    monkeypatch.setattr(cli, "run_dist", broken)
    code, out, err = run("dist", "DRed", capsys=capsys)
    assert code == 1 and len(err.strip().splitlines()) == 1 and err.startswith("error: dice: ")
    assert "twenty" in err and "http" not in err and "validation error" not in err


def test_an_unexpected_error_is_one_plain_line(monkeypatch, capsys):
    import companion.commands.files as cli

    def broken(args):
        raise KeyError("bow")

    monkeypatch.setattr(cli, "run_dist", broken)
    code, out, err = run("dist", "DRed", capsys=capsys)
    assert code == 1 and len(err.strip().splitlines()) == 1 and "KeyError" in err and "Traceback" not in err


def test_data_that_names_no_folder_is_refused(capsys):
    """`--data ""` silently used the default data folder."""
    code, out, err = run("games", "--data", "", capsys=capsys)
    assert code == 1 and out == "" and err.strip().startswith("error: --data names no folder")


@pytest.mark.parametrize("argv", [("replay", "g", "--to", "ten"), ("convert", "x", "--to", "warfleet"), ("dist",),
                                  ("roll", "DRed", "--seed"), ("no-such-command",)])
def test_a_command_line_argparse_refuses_is_one_line(argv, capsys):
    """Usage errors keep argparse's exit code 2, in one line that points at --help."""
    with pytest.raises(SystemExit) as stopped:
        main(list(argv))
    out, err = capsys.readouterr()
    assert stopped.value.code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "error:" in err and "--help" in err


@pytest.mark.parametrize("command", [("validate",), ("solutions", "--attacker", "a"), ("attacks",)])
def test_a_bad_fleet_file_is_named_not_the_scenario(command, tmp_path, capsys):
    """`--fleet` files are read for the scenario's card ids: their problem names them, not the scenario."""
    from companion.files import shipped_fleets_dir

    quick = write(tmp_path, "quick.json", scenario({"id": "a", "side": "A", "card": "hml-raven", "bow": "1010", "facing": "N"}))
    scenario_file = str(shipped_fleets_dir() / "war-fleet-20v20.json") if command[0] == "attacks" else quick
    broken = write(tmp_path, "broken-fleet.json", "{not json")
    code, _, err = run(command[0], scenario_file, *command[1:], "--fleet", broken, capsys=capsys)
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert "broken-fleet.json: not valid JSON" in err and "quick.json" not in err and "20v20" not in err


def test_an_exported_game_may_be_bigger_than_a_card_file(tmp_path, capsys):
    """Cards, fleets and scenarios are read up to 2 MB; an exported game's log grows with the game,
    so `import` reads up to 32 MB (here a real export padded past 2 MB with JSON white space)."""
    from companion.files import MAX_FILE_BYTES
    from companion.store import TinyDBStore
    from random_games import random_log

    store = TinyDBStore(tmp_path / "data")
    initial, log = random_log(11)
    game = store.new_game(initial, "Long game")
    for action in log[:5]:
        game.act(action)
    document = store.export_game(game.id)
    store.close()
    padded = json.dumps(document) + " " * (MAX_FILE_BYTES + 1)
    exported = write(tmp_path, "long.json", padded)
    code, out, err = run("import", exported, "--data", str(tmp_path / "other"), capsys=capsys)
    assert code == 0 and "imported Long game" in out, err
    card = write(tmp_path, "card.json", json.dumps(TYPE1) + " " * (MAX_FILE_BYTES + 1))
    code, _, err = run("validate", card, capsys=capsys)
    assert code == 1 and "the companion reads files of at most 2 MB" in err
