"""War Fleet games saved before they joined the store, imported into it once.

Until issue 13, War Fleet games were kept one whole file each under
`<data>/warfleet/<id>.json` (`leviathans-warfleet-save/1`: the starting state,
the actions in effect with their events and times, the actions undone, and
the Quick-Start game of each pocket battle).  When a data folder is opened,
each such file becomes a game in the store like any other (its log replayed
through the War Fleet ruleset, so every event and die is the rules' own), and
the file is renamed `<id>.json.imported` beside it: kept, named, never read
again.  Its starting position is held to a new game's checks (`engine.game_start`, issue 36:
two sides that differ to the eye, ship ids once, names cleaned); its own name is cleaned and cut
to a game name's length, as the player's own file is not refused for it.  A file that cannot be read is set aside as damaged; one whose log no
longer replays is left as it is; each is named in `problems` in plain words.

The log keeps what the old file held: the actions in effect, then the actions
undone (replayed in the order they were played, then undone again), so redo
still offers them.  A pocket battle's Quick-Start game, kept beside the log in
the old file, moves into the `open_pocket` action that opened it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..engine.game_start import start_problem
from ..engine.kernel import Refused
from ..engine.names import GAME_LIMIT, cleaned
from ..engine.registry import find_ruleset
from .atomic import SaveFileError, read_document, set_aside_bad_file, short_reason, write_lock
from .game import LogEntry
from .repository import SAFE_ID, GameRecord, Repository

FOLDER = "warfleet"
SAVE_FORMAT = "leviathans-warfleet-save/1"
SAVE_FAMILY = "leviathans-warfleet-save/"
IMPORTED = ".imported"
LOCK_FILE = ".lock"


def import_war_fleet_saves(root: Path, repository: Repository) -> list[str]:
    """Import every old War Fleet save under `root/warfleet/` into `repository` (under the folder's
    lock: two companions opening it at once import each game once).  What was imported, in words;
    a file that could not be is named in `repository.problems`."""
    folder = Path(root) / FOLDER
    if not folder.is_dir() or not any(folder.glob("*.json")):
        return []
    imported: list[str] = []
    with write_lock(folder / LOCK_FILE, "the old War Fleet games"):
        for path in sorted(folder.glob("*.json")):
            if SAFE_ID.match(path.stem) and path.is_file():
                said = _import_one(path, repository)
                (imported if said.endswith(IMPORTED + ".") else repository.problems).append(said)
    return imported


def _import_one(path: Path, repository: Repository) -> str:
    try:
        data = read_document(_read(path), path, SAVE_FORMAT, SAVE_FAMILY, "War Fleet save file")
        record, entries, final = _game_of(data, path)
    except SaveFileError as exc:
        return f"{exc.path}: {exc.problem}. {set_aside_bad_file(exc)}; that War Fleet game could not be imported."
    except ValueError as exc:
        return f"{path}: this War Fleet game cannot be imported: {exc}. The file is left as it is."
    record.id = repository.free_id(record.id)
    repository.create(record, entries, (len(entries), final))
    kept = path.with_name(path.name + IMPORTED)
    path.rename(kept)
    return (f"{path}: War Fleet game '{record.name}' is now kept with the other games (id {record.id}); "
            f"the old file is kept as {kept.name}.")


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise SaveFileError(path, f"cannot be read ({exc.strerror or exc.__class__.__name__})",
                            file_is_bad=False) from None


def _game_of(data: dict[str, Any], path: Path) -> tuple[GameRecord, list[LogEntry], Any]:
    """The record, log and final state of an old save; SaveFileError if it is damaged, ValueError
    if its log no longer replays."""
    ruleset = find_ruleset("war-fleet")
    try:
        initial = ruleset.state_type.model_validate(data["initial"])
        done = [(dict(d["action"]), float(d.get("at", 0.0))) for d in data["done"]]
        undone = [dict(a) for a in data["undone"]]
        pockets = {int(k): str(v) for k, v in data["pockets"].items()}
        record = GameRecord(str(data["id"]), cleaned(str(data["name"]))[:GAME_LIMIT], float(data["created"]),
                            initial.roller.commitment, initial, ruleset.id)
        updated = float(data["updated"])
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SaveFileError(path, f"the file is damaged ({short_reason(exc)})") from None
    problem = start_problem(initial, ruleset)  # the checks of `companion new` and of an import (issue 36)
    if problem:
        raise ValueError(f"initial.{problem[0]}: {problem[1]}")
    played = done + [(action, updated) for action in reversed(undone)]
    entries: list[LogEntry] = []
    state = initial
    for number, (action, at) in enumerate(played, 1):
        if action.get("kind") == "open_pocket":
            action["game"] = pockets.get(max((p.id for p in state.pockets), default=0) + 1)
        outcome = ruleset.apply(state, action)
        if isinstance(outcome, Refused):  # `ok` is False exactly for a Refused
            raise ValueError(f"action {number} ({str(action.get('kind')).replace('_', ' ')}) does not replay: "
                             f"{outcome.reason}")
        state = outcome.state
        entries.append(LogEntry(len(entries), "action", ruleset.dump_action(ruleset.parse_action(action)),
                                [e.model_dump(mode="json") for e in outcome.events], at))
    for _ in undone:
        entries.append(LogEntry(len(entries), "undo", None, [{"kind": "undo", "text": "Undone.", "data": {}}], updated))
    final = ruleset.replay(initial, [action for action, _ in done])
    return record, entries, final
