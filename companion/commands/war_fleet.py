"""War Fleet commands: `companion convert CARD --to war-fleet`, `companion attacks SCENARIO`."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ..engine.cards import Card, Fleet
from ..engine.war_fleet.combat import AttackOption, all_attack_options, attack_options
from ..engine.war_fleet.convert import convert_card, working
from ..engine.war_fleet.ruleset import WAR_FLEET
from ..engine.war_fleet.state import WarFleetState
from ..files import load_catalogue, load_file
from .common import (Arguments, CommandError, SubParsers, command, fleet_option, json_out, percent,
                     scenario_state, sub_command)

# --- convert ---------------------------------------------------------------------------


@command
def convert(sub: SubParsers) -> None:
    p = sub_command(sub, "convert", run_convert, help="War Fleet stats of a Quick-Start card (seed 004, Conversion)")
    p.add_argument("card", metavar="CARD", help="a card or fleet file, or the id of a card in the fleets")
    p.add_argument("--to", required=True, choices=["war-fleet"], help="the ruleset to convert to")
    fleet_option(p, "more cards to find CARD's id in")
    p.add_argument("--json", action="store_true", help="the stats as JSON (a list for a fleet file)")


def card_or_fleet(what: str, fleets: Sequence[str] = ()) -> Card | Fleet:
    """What CARD names: a card file, a fleet file, or a card id (its card)."""
    if Path(what).suffix.lower() == ".json" or Path(what).exists():
        loaded = load_file(what)
        if isinstance(loaded, (Card, Fleet)):
            return loaded
        raise CommandError(f"{what}: is a scenario, not a card or fleet")
    catalogue = load_catalogue(fleets)
    if what not in catalogue:
        ids = sorted(catalogue)
        shown = ", ".join(ids[:8]) + (f" and {len(ids) - 8} more" if len(ids) > 8 else "")
        raise CommandError(f"no card '{what}': give a card or fleet file, or a card id of the fleets ({shown})")
    return catalogue[what]


def run_convert(args: Arguments) -> int:
    named = card_or_fleet(args.card, args.fleet)
    cards = list(named.ships) if isinstance(named, Fleet) else [named]
    if args.json:
        converted = [convert_card(card).as_json() for card in cards]
        return json_out(converted if isinstance(named, Fleet) else converted[0])
    for i, card in enumerate(cards):
        if i:
            print()
        _print_stats(card)
    return 0


def _print_stats(card: Card) -> None:
    stats = convert_card(card)
    print(f"{card.name} (War Fleet): class {stats.ship_class}, SI {stats.si} "
          f"(half of {card.structural_integrity}, rounded up), MP {stats.mp}")
    for step in working(card):
        loc = step.stats
        attack = loc.attack
        if attack is None:
            gun = "no attack"
        else:
            traits = f" [{', '.join(attack.traits)}]" if attack.traits else ""
            boxes = f" +{attack.boxes} saturation" if attack.boxes else ""
            gun = (f"{attack.name} {attack.short.dice} to {attack.short.range}, "
                   f"{attack.long.dice} to {attack.long.range}{traits}{boxes}")
        print(f"  {step.location.replace('_', ' ')}: resilience {loc.resilience}, "
              f"destroyed {loc.destroyed_resilience}, SI modifier {loc.si_modifier}; {gun}")
        for line in step.lines():
            print(f"      {line}")


# --- attacks -------------------------------------------------------------------------------


@command
def attacks(sub: SubParsers) -> None:
    p = sub_command(sub, "attacks", run_attacks, help="every War Fleet attack option, with exact odds")
    p.add_argument("scenario", metavar="SCENARIO", help="a leviathans-warfleet-scenario/1 file")
    p.add_argument("--attacker", metavar="SHIP", help="one ship's options only")
    p.add_argument("--all", action="store_true", help="also the attacks that cannot be made, with why")
    fleet_option(p)
    p.add_argument("--json", action="store_true")


def run_attacks(args: Arguments) -> int:
    _, _, state = scenario_state(args.scenario, args.fleet,
                                 "is not a War Fleet scenario (leviathans-warfleet-scenario/1)", WAR_FLEET,
                                 attacker=args.attacker)
    if args.attacker:
        found = attack_options(state, args.attacker, impossible=args.all)
    else:
        found = all_attack_options(state, impossible=args.all)
    shown = [o for o in found if o.possible or args.all]
    if args.json:
        return json_out([o.as_json() for o in shown])
    if not shown:
        print("no attack can be made from this position" + ("" if args.all else " (--all lists why)"))
    for option in shown:
        print(_line(state, option))
        for strike in option.strikes:
            odds = strike.odds
            print(f"      {strike.location.replace('_', ' ')} (resilience {odds.resilience}): "
                  f"destroyed {percent(odds.location_destroyed)}, casualty {percent(odds.casualty)}  "
                  f"[{odds.location_destroyed} / {odds.casualty}]")
    return 0


def _line(state: WarFleetState, option: AttackOption) -> str:
    attacker, target = state.ship(option.attacker), state.ship(option.target)
    guns = " + ".join(loc.replace("_", " ") for loc in option.locations)
    head = f"{attacker.name} {guns} {option.name} -> {target.name}".replace("  ", " ")
    if not option.possible:
        return f"{head}: {option.problem}"
    assert option.pool is not None  # a possible attack has its pool
    extra = f", {option.rolls} rolls" if option.rolls > 1 else ""
    ups = "".join(f", dialled up {n} ({why})" for why, n in option.dial_ups)
    return f"{head}: range {option.range} ({'/'.join(sorted(set(option.bands.values())))}), {option.pool.expanded}{extra}{ups}"
