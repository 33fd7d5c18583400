"""The store's games: `companion games | export | import | replay | verify` (all take --data DIR).

Games of every ruleset alike: the record names its ruleset, and export,
replay and verify read the game through it (store/export.py, verify.py).
"""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

from ..files import MAX_EXPORT_BYTES, read_json
from ..store.atomic import write_atomic
from ..store.export import check_sizes, scenario_at
from ..store.store import TinyDBStore
from ..store.verify import verify_game
from .common import Arguments, SubParsers, command, data_option, game_command, json_out, one_line, sub_command, warn


def open_data(args: Arguments) -> TinyDBStore:
    """The store of --data (else $COMPANION_DATA, else the user's data folder); its problems on stderr."""
    store = TinyDBStore(args.data)
    for problem in store.problems:
        warn(f"warning: {problem}")
    return store


def _when(stamp: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp)) if stamp else "-"


# --- games ---------------------------------------------------------------------------


@command
def games(sub: SubParsers) -> None:
    p = sub_command(sub, "games", run_games, help="list the saved games (of every ruleset)")
    data_option(p)
    p.add_argument("--json", action="store_true")


def run_games(args: Arguments) -> int:
    store = open_data(args)
    found = store.games()
    if args.json:
        return json_out([vars(s) for s in found])
    if not found:
        print(f"no games in {store.folder}")
        return 0
    print(f"{'id':<22}  {'updated':<16}  {'rules':<11}  {'turn':>4}  {'phase':<10}  {'actions':>7}  name")
    for s in found:
        print(f"{s.id:<22}  {_when(s.updated):<16}  {s.ruleset:<11}  {s.turn:>4}  {s.phase:<10}  {s.actions:>7}"
              f"  {one_line(s.name)}" + (f"  ({one_line(s.result)})" if s.result else ""))  # no raw control characters
    return 0


# --- export and import -----------------------------------------------------------------


@command
def export(sub: SubParsers) -> None:
    p = game_command(sub, "export", "write a whole game (its start and its log) to one JSON file", run_export)
    p.add_argument("file", metavar="FILE")


def run_export(args: Arguments) -> int:
    store = open_data(args)
    game_id = store.find(args.game)
    document = store.export_game(game_id)
    payload = json.dumps(document, indent=1, ensure_ascii=False).encode("utf-8")
    target = export_target(args.file)
    try:
        write_atomic(target, payload)
    except OSError as exc:  # a full disk, a folder that cannot be written
        raise ValueError(f"{args.file}: could not be written ({exc.strerror or exc}); nothing was written") from None
    over = any(e.get("kind") == "game_over" for entry in document["log"] for e in entry["events"])
    print(f"exported {document['name']} ({game_id}), {len(document['log'])} log entries, to {args.file}")
    if not over:
        warn("note: the file holds the secret dice seed of an unfinished game: keep it from the players")
    return 0


def export_target(text: str) -> Path:
    """Where an export may be written: a new file in an existing folder, or a regular file (a link is
    followed to the file it names); anything else (a folder, a device, a pipe) is refused in one line."""
    if not text.strip():
        raise ValueError("export: FILE is empty: give the name of the file to write")
    target = Path(os.path.realpath(text))
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        if not target.parent.is_dir():
            raise ValueError(f"{text}: no such folder {target.parent}") from None
        return target
    except OSError as exc:
        raise ValueError(f"{text}: cannot be written ({exc.strerror or exc})") from None
    if stat.S_ISDIR(mode):
        raise ValueError(f"{text}: is a folder: give the name of a file in it")
    if not stat.S_ISREG(mode):
        raise ValueError(f"{text}: is not a regular file (a device, a pipe or the like): give a new file's name")
    return target


@command
def import_(sub: SubParsers) -> None:
    p = sub_command(sub, "import", run_import, help="add a game exported with `companion export`")
    p.add_argument("file", metavar="FILE")
    data_option(p)


def run_import(args: Arguments) -> int:
    # a log grows with the game: more than a card file; its counts checked before every value is (issue 36)
    data = read_json(args.file, limit=MAX_EXPORT_BYTES, first=check_sizes)
    store = open_data(args)
    game = store.import_game(data, source=args.file)
    print(f"imported {game.name} as {game.id} ({len(game.entries)} log entries, turn {game.state.turn}, {game.state.phase})"
          + reworded_words(game.reworded))
    return 0


def reworded_words(count: int) -> str:
    """What an import says of the events it put in the rules' own words (export.replayed)."""
    if not count:
        return ""
    return (f"; the events of {count} log entr{'y' if count == 1 else 'ies'} were worded otherwise in the file: "
            "the rules' own words are kept")


# --- replay and verify -------------------------------------------------------------------


@command
def replay(sub: SubParsers) -> None:
    p = game_command(sub, "replay", "the position after N log entries, as a scenario file (JSON)", run_replay)
    p.add_argument("--to", type=int, metavar="N",
                   help="how many log entries (actions, undos, redos) to replay (default: all)")


def run_replay(args: Arguments) -> int:
    store = open_data(args)
    stored = store.stored(store.find(args.game))
    return json_out(scenario_at(stored, args.to))


@command
def verify(sub: SubParsers) -> None:
    game_command(sub, "verify", "re-derive every logged roll from the dice seed and check it", run_verify)


def run_verify(args: Arguments) -> int:
    store = open_data(args)
    result = verify_game(store.stored(store.find(args.game)))
    for line in result.lines():
        print(line)
    return 0 if result.ok else 1
