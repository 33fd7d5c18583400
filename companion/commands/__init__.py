"""The `companion` command (formats.md "Command line"): `main()` and its parser.

The command modules register their sub-commands in `common.COMMANDS`; this
entry point imports them (files and dice, games, play, the app, print, and
each ruleset's own), and none of them imports it back.  Errors are
translated here, at the edge: one plain line on stderr and exit code 1,
never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn

# each registers its commands, in this order in `companion --help`
from . import files, quick_start, games, play, app, print_cards, war_fleet, movement, dv, report, build_web, admiral  # noqa: F401  # isort: skip
from .common import COMMANDS, CommandError, one_line, plain_message


class _Parser(argparse.ArgumentParser):
    """argparse with its usage errors on one line (exit code 2 as argparse's, pointing at --help)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="companion",
        description="Leviathans table companion: ship cards, arcs, ranges, exact odds and dice.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for register in COMMANDS.values():
        register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        args = parser.parse_args(["app"])  # `companion` alone starts the table app
    try:
        _check_empty_arguments(args)
        return args.run(args) or 0
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `companion replay GAME | head`: the reader stopped listening
        sys.stdout = open(os.devnull, "w")
        return 0
    except Exception as exc:  # issue 11: whatever went wrong, one plain line and exit 1, never a traceback
        print(f"error: {plain_message(exc)}", file=sys.stderr)
        return 1


def _check_empty_arguments(args: argparse.Namespace) -> None:
    """`--data ""` named no folder but silently meant the default one, and an empty GAME matched
    every game as the start of its id (issue 11): both are refused."""
    data = getattr(args, "data", None)
    if data is not None and not data.strip():
        raise CommandError("--data names no folder (it is empty): give a folder, or leave --data out for "
                           "$COMPANION_DATA or the user's data folder")
    game = getattr(args, "game", None)
    if isinstance(game, str) and not game.strip():
        raise CommandError("GAME is empty: give a game's id, the start of one, or its name (companion games lists them)")
