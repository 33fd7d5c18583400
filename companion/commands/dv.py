"""Decisive Victory on the command line (issue 16): `companion dv odds test | save | attack`.

Exact odds of the 2d6 test (spec decisive-victory.md §2.2), the armour save
(§9.2, §15.5) and one whole attack (§15.4), printed as a table or, with
`--json`, as exact fraction strings like `companion dist --json`.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..engine.cards import FormatError
from ..engine.decisive_victory.grid import HitGrid, load_hit_grid
from ..engine.decisive_victory.inches import parse_inches
from ..engine.decisive_victory.odds import (
    GRID, TABLE_1, SuccessTable, Weapon, attack_from, attack_odds, box_name, clamp_modifier, save_is_rolled, save_odds, success_chance,
    successful_totals,
)
from .common import CommandError, SubParsers, command, json_out, percent, sub_command
from ..engine.decisive_victory.table1 import load_success_table
from ..files import read_json


@command
def dv(sub: SubParsers) -> None:
    p = sub.add_parser("dv", help="Decisive Victory (seed 003): exact odds of its dice",
                       description="Decisive Victory (seed 003): exact odds of its dice.")
    dv_sub = p.add_subparsers(dest="dv_command", metavar="COMMAND", required=True)
    odds = dv_sub.add_parser("odds", help="exact odds of a 2d6 test, an armour save or a whole attack",
                             description="Exact odds (spec decisive-victory.md §15); --json prints exact fractions.")
    rolls = odds.add_subparsers(dest="odds_command", metavar="ROLL", required=True)
    _test_parser(rolls)
    _save_parser(rolls)
    _attack_parser(rolls)


def _test_parser(rolls: SubParsers) -> None:
    p = sub_command(rolls, "test", run_test,
                    help="the 2d6 success test at modifier M (2 and 12 fail, a natural seven succeeds)")
    p.add_argument("modifier", type=int, metavar="M", help="the sum of all modifiers (kept within 0 to 9)")
    _table_option(p)
    p.add_argument("--json", action="store_true", help="exact fractions as JSON")


def _save_parser(rolls: SubParsers) -> None:
    p = sub_command(rolls, "save", run_save, help="an armour save: armour A against strength S")
    p.add_argument("--armour", "--armor", type=int, required=True, metavar="A", help="the struck armour value")
    p.add_argument("--strength", type=int, required=True, metavar="S", help="the hit's strength (after range)")
    _table_option(p)
    p.add_argument("--json", action="store_true", help="exact fractions as JSON")


def _attack_parser(rolls: SubParsers) -> None:
    p = sub_command(rolls, "attack", run_attack,
                    help="one attack's whole chain: hit, row, save, damage points, minor damage, box",
                    description="One attack's whole chain (spec §15.4). --modifier is the total: fire "
                                "control and every situational modifier (range, night, ...).")
    p.add_argument("--modifier", "-m", type=int, required=True, metavar="M", help="the attack's total modifier")
    p.add_argument("--weapon", choices=[w.value for w in Weapon], default="gun", help="default: gun")
    p.add_argument("--strength", type=int, required=True, metavar="S", help="the weapon's printed strength")
    p.add_argument("--damage", type=int, required=True, metavar="D", help="the weapon's damage dice")
    p.add_argument("--distance", metavar="INCHES", help="measured distance, e.g. 17.5 (needed for guns)")
    p.add_argument("--deck", type=int, required=True, metavar="A", help="the target's deck armour")
    p.add_argument("--belt", type=int, required=True, metavar="A", help="the target's belt armour")
    p.add_argument("--underwater", type=int, required=True, metavar="A", help="the target's underwater armour")
    p.add_argument("--bow-on", action="store_true", help="the target's bow or stern points at the firer")
    p.add_argument("--close-action", action="store_true", help="the two ships were in close action")
    p.add_argument("--guns-damaged", action="store_true", help="the firer's gun system is damaged")
    _table_option(p)
    p.add_argument("--grid", metavar="FILE", help="a group's own hit grid (decisive-victory-hit-grid/1) "
                                                  "in place of the spec's placeholder")
    p.add_argument("--json", action="store_true", help="exact fractions as JSON")


def _table_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--table", metavar="FILE", help="a group's own Table 1 (decisive-victory-success-table/1) "
                                                   "in place of the spec's reconstruction")


def _table(args: argparse.Namespace) -> SuccessTable:
    return TABLE_1 if args.table is None else _load(args.table, load_success_table)


def _grid(args: argparse.Namespace) -> HitGrid:
    return GRID if args.grid is None else _load(args.grid, load_hit_grid)


def _load(path: str, load: Any) -> Any:
    try:
        return load(read_json(path))
    except FormatError as exc:
        raise exc.in_file(path) from None


# --- test -------------------------------------------------------------------------------


def run_test(args: argparse.Namespace) -> int:
    table = _table(args)
    m = clamp_modifier(args.modifier)
    p = success_chance(args.modifier, table)
    totals = successful_totals(args.modifier, table)
    if args.json:
        return json_out({"modifier": args.modifier, "clamped": m, "successful_totals": totals,
                         "success": str(p), "natural_seven": "1/18", "failure": str(1 - p)})
    clamped = "" if m == args.modifier else f" (kept within 0 to 9: {_signed(m)})"
    band = f"{totals[0]}-{totals[-1]} or " if totals else ""
    print(f"2d6 test at {_signed(args.modifier)}{clamped}: succeeds on {band}a natural seven (3 and 4); "
          f"2 and 12 fail")
    _rows([("success", p), ("natural seven", Fraction(1, 18)), ("failure", 1 - p)])
    return 0


# --- save -------------------------------------------------------------------------------


def run_save(args: argparse.Namespace) -> int:
    for name in ("armour", "strength"):
        if not 0 <= getattr(args, name) <= 99:
            raise CommandError(f"--{name} {getattr(args, name)}: must be a whole number from 0 to 99")
    odds = save_odds(args.armour, args.strength, _table(args))
    diff = args.armour - args.strength
    if args.json:
        return json_out({"armour": args.armour, "strength": args.strength, "difference": diff,
                         "rolled": save_is_rolled(args.armour, args.strength), **odds.as_json()})
    print(f"Armour {args.armour} against strength {args.strength}: {_save_words(diff)}")
    _rows([("critical (no effect)", odds.critical), ("success", odds.success), ("fail", odds.fail)])
    return 0


def _save_words(diff: int) -> str:
    if diff <= -13:
        return f"difference {_signed(diff)}, the save fails with no roll"
    if diff >= 13:
        return f"difference {_signed(diff)}, the save succeeds (rolled only to see a natural seven)"
    return f"difference {_signed(diff)}, a 2d6 test at {_signed(clamp_modifier(diff))}"


# --- attack -----------------------------------------------------------------------------


def run_attack(args: argparse.Namespace) -> int:
    if args.weapon == "gun" and args.distance is None:
        raise CommandError("a gun attack needs --distance (inches, e.g. 17.5): range lowers strength and moves the hit")
    attack = attack_from({
        "modifier": args.modifier, "weapon": args.weapon, "strength": args.strength, "damage": args.damage,
        "distance": _inches(args.distance) if args.distance is not None else 0,
        "bow_on": args.bow_on, "close_action": args.close_action, "guns_damaged": args.guns_damaged,
        "armour": {"deck": args.deck, "belt": args.belt, "underwater": args.underwater},
    })
    grid = _grid(args)
    odds = attack_odds(attack, _table(args), grid)
    if args.json:
        return json_out({"attack": _attack_json(attack.model_dump(mode="json")), **odds.as_json(grid)})
    where = f", {args.distance}\" away" if args.distance is not None else ""
    print(f"{args.weapon.replace('_', ' ').capitalize()} attack at {_signed(args.modifier)} (strength "
          f"{args.strength}, damage {args.damage}{where}) on deck {args.deck} / belt {args.belt} / "
          f"underwater {args.underwater}")
    _rows([("hit", odds.hit), ("bonus hit (N7)", odds.bonus_hit)])
    print(f"{'expected hits':<24}  {str(odds.expected_hits):>16}")
    _rows([(f"row {r} ({grid.armor_of(r)})", p) for r, p in odds.rows.items()])
    _rows([(f"first save {k}", v) for k, v in
           (("critical", odds.save.critical), ("success", odds.save.success), ("fail", odds.save.fail))])
    _rows([(f"{k} damage point{'s' if k != 1 else ''}", p) for k, p in odds.damage_points.items()])
    print(f"{'expected damage points':<24}  {str(odds.expected_damage_points):>16}")
    _rows([(f"{k} minor damage", p) for k, p in odds.minor_damage.items()])
    print(f"{'expected minor damage':<24}  {str(odds.expected_minor_damage):>16}")
    _rows([(f"box {box_name(b, grid)}", p) for b, p in odds.boxes.items()])
    return 0


def _attack_json(dumped: Mapping[str, Any]) -> dict[str, Any]:
    return {k: (str(v) if k == "distance" else v) for k, v in dumped.items()}


def _inches(text: str) -> Fraction:
    """A measured distance as an exact rational parsed from the text (spec §1.2), never a float."""
    try:
        return parse_inches(text)
    except ValueError as exc:
        raise CommandError(f"--distance: {exc}") from None


# --- output -----------------------------------------------------------------------------


def _signed(m: int) -> str:
    return f"+{m}" if m >= 0 else str(m)


def _rows(rows: list[tuple[str, Fraction]]) -> None:
    for label, p in rows:
        print(f"{label:<24}  {str(p):>16}  {percent(p):>6}")
