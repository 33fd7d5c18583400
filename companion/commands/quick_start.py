"""Quick-Start commands: `companion solutions SCENARIO --attacker SHIP`."""

from __future__ import annotations

from ..engine.quick_start.combat import firing_solutions
from ..engine.quick_start.ruleset import QUICK_START
from .common import (Arguments, SubParsers, command, fleet_option, json_out, percent, scenario_state,
                     sub_command)


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
