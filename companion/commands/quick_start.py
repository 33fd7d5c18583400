"""Quick-Start commands: `companion solutions SCENARIO --attacker SHIP`, and the shot advisor and its
fire plan, `companion plan SCENARIO --ship SHIP | --side SIDE` (issue 17)."""

from __future__ import annotations

from ..engine.quick_start.advice import GunAdvice, advise, best_shots, side_ships
from ..engine.quick_start.combat import firing_solutions
from ..engine.quick_start.fire_plan import Figure, FirePlan, fire_plan
from ..engine.quick_start.ruleset import QUICK_START
from ..engine.quick_start.state import GameState
from .common import (Arguments, CommandError, SubParsers, command, fleet_option, json_out, percent,
                     scenario_state, sub_command)


@command
def solutions(sub: SubParsers) -> None:
    p = sub_command(sub, "solutions", run_solutions, help="every firing solution of a ship, with exact odds")
    p.add_argument("scenario", metavar="SCENARIO")
    p.add_argument("--attacker", required=True, metavar="SHIP")
    fleet_option(p)
    p.add_argument("--json", action="store_true")


def run_solutions(args: Arguments) -> int:
    _, _, state = scenario_state(args.scenario, args.fleet, "is not a scenario (leviathans-scenario/1)", QUICK_START,
                                 attacker=args.attacker)
    found = firing_solutions(state, args.attacker)
    if args.json:
        return json_out([s.as_json() for s in found])
    attacker = state.ship(args.attacker)
    print(f"{attacker.card.name} ({attacker.side}) at {attacker.describe_position(state.board)}")
    if not found:
        print("  no working guns, or no enemy ships")
    for s in found:
        target = state.ship(s.target).card.name
        head = f"  {s.location} slot {s.slot} {s.name} -> {target}: "
        if not s.in_arc:
            print(head + "out of arc")
            continue
        if s.band == "out":
            print(head + f"range {s.range}, out of range")
            continue
        print(head + f"range {s.range} ({s.band})")
        for strike in s.strikes:
            odds = strike.odds
            mod = f" {strike.modifier:+d}" if strike.modifier else ""
            slots = ", ".join(f"{n}: {percent(p)}" for n, p in odds.slot_destroyed.items() if p)
            print(f"      {strike.location}: {strike.pool.expanded}{mod}; damage {percent(odds.any_damage)}"
                  f" (slots {slots or 'none'}; keel {percent(odds.keel_break)});"
                  f" ship destroyed {percent(odds.ship_destroyed)}")
        mixed = s.location_roll  # table rule two_locations: a d6 picks between the two
        if mixed is not None:
            print(f"      a d6 picks ({' 1-3, '.join(mixed.as_json()['locations'])} 4-6): damage "
                  f"{percent(mixed.any_damage)} (keel {percent(mixed.keel_break)}); ship destroyed "
                  f"{percent(mixed.ship_destroyed)}")
        elif s.decided_by == "target":
            print(f"      {state.ship(s.target).side} chooses the location")
    return 0


# --- plan: the shot advisor and its fire plan ------------------------------------------------


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
