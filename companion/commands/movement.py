"""The movement planner's command (issue 17): `companion reach SCENARIO --ship SHIP [--json]`."""

from __future__ import annotations

from ..engine.board import Board
from ..engine.hexes import facing_name
from ..engine.kernel import Refusal
from ..engine.quick_start.reach import Action, Reach
from .common import (Arguments, CommandError, SubParsers, command, fleet_option, json_out, scenario_state,
                     sub_command)


@command
def reach(sub: SubParsers) -> None:
    p = sub_command(sub, "reach", run_reach,
                    help="every end position a ship can reach this turn, with its cheapest MP")
    p.add_argument("scenario", metavar="SCENARIO", help="a scenario file of a ruleset with a movement planner")
    p.add_argument("--ship", required=True, metavar="SHIP", help="the id of the ship that moves")
    fleet_option(p)
    p.add_argument("--json", action="store_true",
                   help="[{bow, facing, mp_cost, moved}, ...], one per end position, cheapest first")


def run_reach(args: Arguments) -> int:
    ruleset, _, state = scenario_state(args.scenario, args.fleet, "is not a scenario of a ruleset the planner knows",
                                       attacker=args.ship)
    if ruleset.reach is None:
        raise CommandError(f"{args.scenario}: {ruleset.name} has no movement planner")
    try:
        found: Reach = ruleset.reach(state, args.ship)
        name = ruleset.ship_name(state.ship(args.ship))
    except Refusal as refusal:
        raise CommandError(f"{args.scenario}: {refusal}") from None
    if args.json:
        return json_out(found.as_json(state.board))
    _print_reach(found, name, state.board)
    return 0


def _print_reach(found: Reach, name: str, board: Board) -> None:
    count = len(found.positions)
    print(f"{name}: {found.mp_left} MP left, {count} end position{'s' if count != 1 else ''}")
    for reached in found.positions:
        where = reached.position
        marks = [m for m, on in (("moved", where.moved), ("half-hexes: destroyed", reached.half_hexes)) if on]
        extra = f" ({', '.join(marks)})" if marks else ""
        path = ", ".join(_words(action) for action in reached.path) or "stay"
        print(f"  {reached.mp_cost:>2} MP  {board.label(where.bow)} facing {facing_name(where.facing)}{extra}: {path}")


def _words(action: Action) -> str:
    kind: str = action["kind"]
    if kind == "step":
        return str(action["step"])
    if kind == "pivot":
        return f"pivot to {facing_name(action['facing'])}"
    if kind == "declare_turn":
        return "declare turn" + (f" to {action['side']}" if action.get("side") else "")
    return kind.replace("_", " ")
