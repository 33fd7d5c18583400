"""Files and dice: `companion validate | schema | dist | roll` (formats.md "Command line")."""

from __future__ import annotations

import secrets
from fractions import Fraction

from pydantic import BaseModel

from ..app.rulesets.decisive_victory.files import SCHEMAS
from ..engine.cards import Card, Fleet, FormatError
from ..engine.dice import distribution, parse_pool
from ..engine.roller import Roller, roll_pool
from ..engine.quick_start.scenario import Scenario
from ..files import load_file
from .dv_files import check_dv_file
from .common import (Arguments, SubParsers, command, fleet_option, json_out, one_line, percent,
                     plain_message, scenario_state, sub_command, warn)

# --- validate ----------------------------------------------------------------


@command
def validate(sub: SubParsers) -> None:
    p = sub_command(sub, "validate", run_validate, help="check card, fleet and scenario files")
    p.add_argument("files", nargs="+", metavar="FILE")
    fleet_option(p, "more cards for scenarios that name card ids")


def run_validate(args: Arguments) -> int:
    failures = 0
    for path in args.files:
        try:
            what = check_dv_file(path, args.fleet)
            if what is None:
                loaded = load_file(path)
                what = _check_loaded(loaded, path, args.fleet)
            print(f"ok: {path} ({what})")
        except FormatError as exc:
            failures += 1
            warn(one_line(exc.in_file(exc.source or path).message))
        except (KeyboardInterrupt, BrokenPipeError):
            raise
        except Exception as exc:  # one line per file, and the other files are still checked
            failures += 1
            warn(f"{path}: {plain_message(exc)}")
    return 1 if failures else 0


def _check_loaded(loaded: Card | Fleet | Scenario, path: str, fleets: list[str]) -> str:
    if isinstance(loaded, Card):
        return f"card {loaded.name}"
    if isinstance(loaded, Fleet):
        left_out = f"; not in play: {', '.join(f'{c.name} (Type {c.type})' for c in loaded.left_out)}" \
            if loaded.left_out else ""
        return f"fleet {loaded.name}, {len(loaded.ships)} ships{left_out}"
    ruleset, _, state = scenario_state(path, fleets, "is not a scenario", to_play=True)  # the ruleset its format names
    return ruleset.describe(state)


# --- schema --------------------------------------------------------------------


@command
def schema(sub: SubParsers) -> None:
    p = sub_command(sub, "schema", run_schema, help="print the JSON Schema of a file format",
                    description="The JSON Schema of a file format: Leviathans cards, fleets and scenarios; "
                                "Decisive Victory (dv-) ships, fleets, flights, hit grids, Table 1 and "
                                "scenarios.")
    p.add_argument("kind", choices=["card", "fleet", "scenario", *SCHEMAS])


def run_schema(args: Arguments) -> int:
    models: dict[str, type[BaseModel]] = {"card": Card, "fleet": Fleet, "scenario": Scenario, **SCHEMAS}
    return json_out(models[args.kind].model_json_schema(by_alias=True))


# --- dist and roll ---------------------------------------------------------------


@command
def dist(sub: SubParsers) -> None:
    p = sub_command(sub, "dist", run_dist, help="exact distribution of a dice pool's total")
    p.add_argument("pool", nargs="+", metavar="POOL", help="e.g. 'DBlue & DBlack' or 2DRed")
    p.add_argument("--json", action="store_true", help="exact fractions as JSON")


def run_dist(args: Arguments) -> int:
    pool = parse_pool(" ".join(args.pool))
    outcomes = distribution(pool)
    if args.json:
        return json_out({"pool": pool.notation, "outcomes": {str(t): str(p) for t, p in outcomes.items()}})
    print(f"{pool.notation}: {len(pool)} dice, totals {min(outcomes)} to {max(outcomes)}")
    print(f"{'total':>5}  {'exactly':>14}  {'':>6}  {'at least':>7}")
    remaining = Fraction(1)
    for total, p in outcomes.items():
        print(f"{total:>5}  {str(p):>14}  {percent(p):>6}  {percent(remaining):>7}")
        remaining -= p
    return 0


@command
def roll(sub: SubParsers) -> None:
    p = sub_command(sub, "roll", run_roll, help="roll a dice pool: each die's face and the total")
    p.add_argument("pool", nargs="+", metavar="POOL")
    p.add_argument("--seed", help="the same seed gives the same faces")
    p.add_argument("--json", action="store_true")


def run_roll(args: Arguments) -> int:
    pool = parse_pool(" ".join(args.pool))
    seed = args.seed if args.seed is not None else str(secrets.randbits(63))
    rolls, _ = roll_pool(Roller.from_seed(seed), pool)
    total = sum(d.face for d in rolls)
    if args.json:
        return json_out({"pool": pool.notation, "seed": seed,
                         "dice": [{"die": d.colour.label, "face": d.face} for d in rolls], "total": total})
    for d in rolls:
        print(f"{d.colour.label:>8}  {d.face}")
    print(f"{'total':>8}  {total}")
    print(f"(seed {seed})")
    return 0
