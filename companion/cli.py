"""The `companion` command (formats.md "Command line").

Errors are translated here, at the edge: one plain line on stderr and exit
code 1, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from fractions import Fraction
from typing import Callable

from .engine.cards import Card, Fleet, FormatError
from .engine.combat import firing_solutions
from .engine.dice import distribution, parse_pool
from .engine.hexes import PositionError
from .engine.roller import Roller, roll_pool
from .engine.ruleset import ruleset_for_format
from .engine.scenario import Scenario, build_state
from .files import load_catalogue, load_file

COMMANDS: dict[str, Callable[[argparse._SubParsersAction], None]] = {}


def command(register: Callable) -> Callable:
    """Register a function that adds one sub-command to the parser."""
    COMMANDS[register.__name__] = register
    return register


class CommandError(ValueError):
    """A plain-words failure of a command."""


def _out(text: str = "") -> None:
    print(text)


def _json(data) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


# --- validate ----------------------------------------------------------------


@command
def validate(sub) -> None:
    p = sub.add_parser("validate", help="check card, fleet and scenario files")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--fleet", action="append", default=[], metavar="FILE",
                   help="more cards for scenarios that name card ids")
    p.set_defaults(run=run_validate)


def run_validate(args) -> int:
    failures = 0
    for path in args.files:
        try:
            loaded = load_file(path)
            what = _check_loaded(loaded, path, args.fleet)
            _out(f"ok: {path} ({what})")
        except FormatError as exc:
            failures += 1
            print(one_line(exc.in_file(exc.source or path).message), file=sys.stderr)
        except (KeyboardInterrupt, BrokenPipeError):
            raise
        except Exception as exc:  # one line per file, and the other files are still checked
            failures += 1
            print(f"{path}: {plain_message(exc)}", file=sys.stderr)
    return 1 if failures else 0


def _check_loaded(loaded, path: str, fleets: list[str]) -> str:
    if isinstance(loaded, Card):
        return f"card {loaded.name}"
    if isinstance(loaded, Fleet):
        left_out = f"; not in play: {', '.join(f'{c.name} (Type {c.type})' for c in loaded.left_out)}" \
            if loaded.left_out else ""
        return f"fleet {loaded.name}, {len(loaded.ships)} ships{left_out}"
    ruleset = ruleset_for_format(loaded.format)  # the scenario's format names its ruleset
    catalogue = load_catalogue(fleets)  # a bad --fleet file names itself
    try:
        state = ruleset.build_state(loaded, catalogue)
    except FormatError as exc:
        raise exc.in_file(path) from None
    return ruleset.describe(state)


# --- schema --------------------------------------------------------------------


@command
def schema(sub) -> None:
    p = sub.add_parser("schema", help="print the JSON Schema of a file format")
    p.add_argument("kind", choices=["card", "fleet", "scenario"])
    p.set_defaults(run=run_schema)


def run_schema(args) -> int:
    model = {"card": Card, "fleet": Fleet, "scenario": Scenario}[args.kind]
    _json(model.model_json_schema(by_alias=True))
    return 0


# --- dist and roll ---------------------------------------------------------------


@command
def dist(sub) -> None:
    p = sub.add_parser("dist", help="exact distribution of a dice pool's total")
    p.add_argument("pool", nargs="+", metavar="POOL", help="e.g. 'DBlue & DBlack' or 2DRed")
    p.add_argument("--json", action="store_true", help="exact fractions as JSON")
    p.set_defaults(run=run_dist)


def run_dist(args) -> int:
    pool = parse_pool(" ".join(args.pool))
    outcomes = distribution(pool)
    if args.json:
        _json({"pool": pool.notation, "outcomes": {str(t): str(p) for t, p in outcomes.items()}})
        return 0
    _out(f"{pool.notation}: {len(pool)} dice, totals {min(outcomes)} to {max(outcomes)}")
    _out(f"{'total':>5}  {'exactly':>14}  {'':>6}  {'at least':>7}")
    remaining = Fraction(1)
    for total, p in outcomes.items():
        _out(f"{total:>5}  {str(p):>14}  {_percent(p):>6}  {_percent(remaining):>7}")
        remaining -= p
    return 0


@command
def roll(sub) -> None:
    p = sub.add_parser("roll", help="roll a dice pool: each die's face and the total")
    p.add_argument("pool", nargs="+", metavar="POOL")
    p.add_argument("--seed", help="the same seed gives the same faces")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_roll)


def run_roll(args) -> int:
    pool = parse_pool(" ".join(args.pool))
    seed = args.seed if args.seed is not None else str(secrets.randbits(63))
    rolls, _ = roll_pool(Roller.from_seed(seed), pool)
    total = sum(d.face for d in rolls)
    if args.json:
        _json({"pool": pool.notation, "seed": seed,
               "dice": [{"die": d.colour.label, "face": d.face} for d in rolls], "total": total})
        return 0
    for d in rolls:
        _out(f"{d.colour.label:>8}  {d.face}")
    _out(f"{'total':>8}  {total}")
    _out(f"(seed {seed})")
    return 0


# --- solutions ----------------------------------------------------------------------


@command
def solutions(sub) -> None:
    p = sub.add_parser("solutions", help="every firing solution of a ship, with exact odds")
    p.add_argument("scenario", metavar="SCENARIO")
    p.add_argument("--attacker", required=True, metavar="SHIP")
    p.add_argument("--fleet", action="append", default=[], metavar="FILE",
                   help="more cards for a scenario that names card ids")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_solutions)


def load_state(path: str, fleets: list[str] = ()):
    loaded = load_file(path)
    if not isinstance(loaded, Scenario):
        raise FormatError("is not a scenario (leviathans-scenario/1)", source=path)
    catalogue = load_catalogue(fleets)  # a bad --fleet file names itself
    try:
        return build_state(loaded, catalogue)
    except FormatError as exc:
        raise exc.in_file(path) from None


def run_solutions(args) -> int:
    state = load_state(args.scenario, args.fleet)
    if not state.has_ship(args.attacker):
        known = ", ".join(s.id for s in state.ships)
        raise CommandError(f"{args.scenario}: no ship '{args.attacker}' (ships: {known})")
    found = firing_solutions(state, args.attacker)
    if args.json:
        _json([s.as_json() for s in found])
        return 0
    attacker = state.ship(args.attacker)
    _out(f"{attacker.card.name} ({attacker.side}) at {attacker.describe_position(state.board)}")
    if not found:
        _out("  no working guns, or no enemy ships")
    for s in found:
        target = state.ship(s.target).card.name
        head = f"  {s.location} slot {s.slot} {s.name} -> {target}: "
        if not s.in_arc:
            _out(head + "out of arc")
            continue
        if s.band == "out":
            _out(head + f"range {s.range}, out of range")
            continue
        _out(head + f"range {s.range} ({s.band})")
        for strike in s.strikes:
            odds = strike.odds
            mod = f" {strike.modifier:+d}" if strike.modifier else ""
            slots = ", ".join(f"{n}: {_percent(p)}" for n, p in odds.slot_destroyed.items() if p)
            _out(f"      {strike.location}: {strike.pool.expanded}{mod}; damage {_percent(odds.any_damage)}"
                 f" (slots {slots or 'none'}; keel {_percent(odds.keel_break)});"
                 f" ship destroyed {_percent(odds.ship_destroyed)}")
    return 0


# --- entry point ------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """argparse with its usage errors on one line (exit code 2 as argparse's, pointing at --help)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="companion",
        description="Leviathans table companion: ship cards, arcs, ranges, exact odds and dice.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _load_plugins()
    for register in COMMANDS.values():
        register(sub)
    return parser


def _load_plugins() -> None:
    """Commands that live with their subsystem (store, app) register themselves."""
    for module in ("companion.store.cli", "companion.app.cli", "companion.print_cli", "companion.warfleet_cli"):
        try:
            __import__(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        if "app" in COMMANDS:
            args = parser.parse_args(["app"])
        else:
            parser.print_help()
            return 0
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


def _check_empty_arguments(args) -> None:
    """`--data ""` named no folder but silently meant the default one, and an empty GAME matched
    every game as the start of its id (issue 11): both are refused."""
    data = getattr(args, "data", None)
    if data is not None and not data.strip():
        raise CommandError("--data names no folder (it is empty): give a folder, or leave --data out for "
                           "$COMPANION_DATA or the user's data folder")
    game = getattr(args, "game", None)
    if isinstance(game, str) and not game.strip():
        raise CommandError("GAME is empty: give a game's id, the start of one, or its name (companion games lists them)")


#: The longest message printed: longer ones (a list of every known card id) are cut.
MAX_MESSAGE = 400


def plain_message(exc: BaseException) -> str:
    """One plain line for any failure: a pydantic error condensed to its field path and problem
    (no URL), an unexpected one named by its kind; never more than MAX_MESSAGE characters."""
    from pydantic import ValidationError

    from .engine.cards import format_error

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


def one_line(text: str, most: int = MAX_MESSAGE) -> str:
    """Text on one line: pydantic's 'For further information visit URL' lines dropped, line breaks
    and control characters turned to spaces, cut to `most` characters."""
    lines = [line.strip() for line in str(text).splitlines()
             if line.strip() and not line.strip().startswith("For further information")]
    flat = " ".join(line.split(" [type=")[0] for line in lines)
    flat = "".join(c if c.isprintable() else " " for c in flat)
    if len(flat) <= most:
        return flat or "failed (no reason given)"
    cut = flat[:most]
    if ", " in cut[most // 2:]:
        cut = cut[:cut.rindex(", ")] + ", ..."
    return cut + (")" if cut.count("(") > cut.count(")") else "")


if __name__ == "__main__":
    sys.exit(main())
