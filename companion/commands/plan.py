"""`companion plan SCENARIO --ship SHIP | --side SIDE`: the shot advisor and its fire plan (issue 17)."""

from __future__ import annotations

from ..engine.quick_start.advice import GunAdvice, advise, best_shots, side_ships
from ..engine.quick_start.fire_plan import Figure, FirePlan, fire_plan
from ..engine.quick_start.ruleset import QUICK_START
from ..engine.quick_start.state import GameState
from .common import (Arguments, CommandError, SubParsers, command, fleet_option, json_out, percent,
                     scenario_state, sub_command)


@command
def plan(sub: SubParsers) -> None:
    p = sub_command(sub, "plan", run_plan,
                    help="each gun's options ranked by exact odds, and the fire plan of the best")
    p.add_argument("scenario", metavar="SCENARIO")
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--ship", metavar="SHIP", help="the ship whose guns to advise")
    who.add_argument("--side", metavar="SIDE", help="every ship of a side")
    fleet_option(p)
    p.add_argument("--json", action="store_true", help="exact fractions as strings")


def run_plan(args: Arguments) -> int:
    _, _, state = scenario_state(args.scenario, args.fleet, "is not a scenario (leviathans-scenario/1)", QUICK_START,
                                 attacker=args.ship)
    if args.side is not None:
        ships = side_ships(state, args.side)
        if not ships:
            raise CommandError(f"{args.scenario}: no ship of side '{args.side}' in play "
                               f"(sides: {', '.join(state.sides)})")
    else:
        ships = [args.ship]
    advice = {ship: advise(state, ship) for ship in ships}
    planned = fire_plan(state, [shot for guns in advice.values() for shot in best_shots(guns)])
    if args.json:
        ships_json = [{"ship": ship, "guns": [g.as_json() for g in guns]} for ship, guns in advice.items()]
        return json_out({"ships": ships_json, "plan": planned.as_json()})
    for ship, guns in advice.items():
        _print_guns(state, ship, guns)
    _print_plan(state, planned)
    return 0


def _print_guns(state: GameState, ship_id: str, guns: tuple[GunAdvice, ...]) -> None:
    ship = state.ship(ship_id)
    print(f"{ship.card.name} ({ship.side}) at {ship.describe_position(state.board)}")
    if not guns:
        print("  no working guns")
    for gun in guns:
        print(f"  {gun.location} slot {gun.slot} {gun.gun}" + (" (declared)" if gun.declared else ""))
        if not gun.options:
            print("      no target in arc and range")
        for o in gun.options:
            where = o.target_location or "a d6 picks the location"
            chooser = ", the target's side picks" if o.decided_by == "target" else ""
            v = o.value
            print(f"    {'*' if o.best else ' '} {state.ship(o.target).card.name} {where}{chooser}: "
                  f"{o.pool}; ship destroyed {percent(v.ship_destroyed)}, slot {percent(v.slot)}, "
                  f"keel {percent(v.keel_break)}")


def _figure(f: Figure) -> str:
    return percent(f.value) if f.exact else f"{percent(f.value)} +/- {f.error * 100:.1f}%"


def _print_plan(state: GameState, planned: FirePlan) -> None:
    print("Fire plan: every gun's best option (*)")
    if not planned.targets:
        print("  no shot worth firing")
    for t in planned.targets:
        how = "exact" if t.exact else f"sampled, {t.samples} runs, 3 standard errors"
        slots = t.expected_slots
        mean = f"{float(slots.value):.2f}" + ("" if slots.exact else f" +/- {slots.error:.2f}")
        print(f"  {state.ship(t.target).card.name} ({len(t.shots)} shots, {how}): ship destroyed "
              f"{_figure(t.ship_destroyed)}, keel {_figure(t.keel_break)}, a slot {_figure(t.any_slot)}, "
              f"expected slots {mean}")
