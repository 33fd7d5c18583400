"""What every command module shares: the registry, CommandError, output helpers, plain messages.

A command module registers its sub-commands with `@command` and imports only
this module, never the entry point (`companion.commands.main`): the entry
point imports the command modules, so the registry lives below both
(ruleset-design.md step 6, like pluggy's hook spec that plugins receive).
"""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Protocol, TypeAlias

from pydantic import ValidationError

from ..engine.cards import FormatError, format_error
from ..engine.game_start import start_problem
from ..engine.hexes import PositionError
from ..engine.quick_start.scenario import two_sides
from ..engine.registry import ruleset_for_format
from ..files import load_catalogue, load_file
from ..messages import one_line as one_line  # the command modules take it from here
from ..store.tinydb_store import ENVIRONMENT_VARIABLE

if TYPE_CHECKING:
    from ..engine.ruleset import AnyRuleset


class SubParsers(Protocol):
    """What a registering function adds its sub-command to (argparse's sub-parsers action, of the
    entry point's parser class or of argparse's own)."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


#: what a command runs on.
Arguments: TypeAlias = argparse.Namespace
Register: TypeAlias = Callable[[SubParsers], None]
#: name of the registering function -> the function that adds its sub-command to the parser.
COMMANDS: dict[str, Register] = {}


def command(register: Register) -> Register:
    """Register a function that adds one sub-command to the parser."""
    COMMANDS[register.__name__] = register
    return register


class CommandError(ValueError):
    """A plain-words failure of a command."""


def json_out(data: Any) -> int:
    """Print `data` as JSON; 0, the exit code, so a command's --json branch is `return json_out(...)`."""
    print(json.dumps(data, indent=2, ensure_ascii=False))
    return 0


def warn(text: str) -> None:
    print(text, file=sys.stderr)


def percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def data_option(parser: argparse.ArgumentParser) -> None:
    """`--data DIR`: the data folder of the store commands."""
    parser.add_argument("--data", metavar="DIR",
                        help=f"the data folder (default: ${ENVIRONMENT_VARIABLE}, else the user's data folder)")


def sub_command(sub: SubParsers, name: str, run: Callable[[Arguments], int], **kwargs: Any) -> argparse.ArgumentParser:
    """A sub-command that runs `run` (`kwargs`: its help, description, ... as argparse's `add_parser`)."""
    parser = sub.add_parser(name, **kwargs)
    parser.set_defaults(run=run)
    return parser


def game_command(sub: SubParsers, name: str, help: str, run: Callable[[Arguments], int]) -> argparse.ArgumentParser:
    """A sub-command on one game of the store: GAME and `--data DIR`."""
    parser = sub_command(sub, name, run, help=help)
    parser.add_argument("game", metavar="GAME", help="game id, the start of one, or the game's name")
    data_option(parser)
    return parser


def fleet_option(parser: argparse.ArgumentParser, help: str = "more cards for a scenario that names card ids") -> None:
    """`--fleet FILE` (repeatable): cards beyond the shipped fleets."""
    parser.add_argument("--fleet", action="append", default=[], metavar="FILE", help=help)


def plain_message(exc: BaseException) -> str:
    """One plain line for any failure: a pydantic error condensed to its field path and problem
    (no URL), an unexpected one named by its kind; never more than MAX_MESSAGE characters."""
    if isinstance(exc, ValidationError):
        text = format_error(exc).message
    elif isinstance(exc, (FormatError, CommandError, PositionError, ValueError)):
        text = str(exc)
    elif isinstance(exc, RecursionError):
        text = "the input is nested too deeply to read"
    elif isinstance(exc, MemoryError):
        text = "the input is too large to hold in memory"
    elif isinstance(exc, OSError):
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        text = f"{where}{exc.strerror or exc.__class__.__name__}"
    else:
        text = f"unexpected {exc.__class__.__name__}: {exc} (please report this)"
    return one_line(text)


def scenario_state(path: str, fleets: list[str], wrong_file: str, ruleset: Any = None, roller: Any = None,
                   attacker: str | None = None, to_play: bool = False) -> tuple[AnyRuleset, Any, Any]:
    """(ruleset, scenario, state) of a scenario file of any ruleset (the one its format names), or
    of `ruleset` only; FormatError naming the file otherwise (`wrong_file` says what was wanted),
    or naming the ship a card of which is missing, or (`to_play`: a game to start or to validate)
    saying a game needs two sides; CommandError if it has no ship `attacker`."""
    loaded = load_file(path)
    found = ruleset_for_format(getattr(loaded, "format", None))
    if found is None or (ruleset is not None and found is not ruleset):
        raise FormatError(wrong_file, source=path)
    catalogue = load_catalogue(fleets)  # a bad --fleet file names itself
    try:
        state = found.build_state(loaded, catalogue, roller)
        if to_play:
            two_sides(state.sides)  # a game needs two sides at least (issue 25 part 8)
            problem = start_problem(state, found)  # sides that differ to the eye, ids once (issue 36)
            if problem:
                raise FormatError(problem[1], problem[0])
    except FormatError as exc:
        raise exc.in_file(path) from None
    if attacker is not None and not state.has_ship(attacker):
        raise CommandError(f"{path}: no ship '{attacker}' (ships: {', '.join(s.id for s in state.ships)})")
    return found, loaded, state
