"""War Fleet combat: attack options with exact odds, and rolling an attack.

Seed 000/004 "All Batteries, Fire at Will! (Combat)" and rules-notes 9:

- A location attacks a ship in its arc (or its turret's extended arc) and in
  range; the attack rolls the location's dice for the range band.
- "Compare the result to the target location's Resilience value. If it's
  equal to or greater, than the attack was a success" and "When an attack
  succeeds, it has destroyed the location."  A destroyed location keeps its
  destroyed Resilience and SI modifier and can still be hit.
- Saturation (square icons): "roll extra dice matching the one in the attack
  (after it has been dialed) for each square ... Each die is considered a
  separate attack".  Here each box is one more roll of the (dialled) dice
  against the same target location, resolved after the main roll in turn.
- Bracket fire (triangle): guns of one name against one ship roll once, "basing
  it off the die for one gun, and dialing it up a color for each extra gun".
- Rear destroyed: "all attacks against this ship Dial Up their dice" (from the
  moment it is destroyed, or from the next combat: table rule
  `rear_destroyed_dialup`, `rear_dials_up`).
- SI tests: "roll a dRed, add all SI modifiers from all destroyed locations on
  a ship and compare the final result to the target's SI value.  For SI tests
  forced from a destroyed location, its SI modifier is doubled."  Destroying a
  location forces a test at once; a hit on a destroyed location forces one too.

The exact odds of an attack are in odds.py.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Literal

from ..roller import DiceSource
from ..dice import Colour, Pool
from ..quick_start.table_rules import TableRules
from .arcs import in_firing_arc, range_problem, struck_locations, war_fleet_range
from .dialup import canonical, dial_up, top
from .odds import AttackOdds, attack_odds
from .state import AttackResult, AttackRoll, SITest, WarFleetState, WarShip
from .stats import REAR, AttackStat, Band


# --- attack options: the one list the app, the CLI and the tests read -----------------


@dataclass(frozen=True)
class Strike:
    """The odds of an attack at one location the target can be struck in."""

    location: str
    odds: AttackOdds

    def as_json(self) -> dict[str, Any]:
        return {"location": self.location, **self.odds.as_json()}


@dataclass(frozen=True)
class AttackOption:
    """One location's attack (or a bracket of several) against one enemy ship."""

    attacker: str
    locations: tuple[str, ...]
    name: str
    target: str
    range: int | None = None
    reach: dict[str, str | None] = field(default_factory=dict)
    bands: dict[str, str] = field(default_factory=dict)
    base: str | None = None
    pool: Pool | None = None
    rolls: int = 0
    dial_ups: tuple[tuple[str, int], ...] = ()
    strikes: tuple[Strike, ...] = ()
    problem: str | None = None

    @property
    def possible(self) -> bool:
        return self.problem is None

    @property
    def bracket(self) -> bool:
        return len(self.locations) > 1

    def strike(self, location: str) -> Strike | None:
        return next((s for s in self.strikes if s.location == location), None)

    def as_json(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker,
            "locations": list(self.locations),
            "name": self.name,
            "target": self.target,
            "range": self.range,
            "reach": dict(self.reach),
            "bands": dict(self.bands),
            "base": self.base,
            "pool": self.pool.expanded if self.pool is not None else None,
            "rolls": self.rolls,
            "dial_ups": [{"why": why, "steps": n} for why, n in self.dial_ups],
            "problem": self.problem,
            "strikes": [s.as_json() for s in self.strikes],
        }


def attack_pool(
    attacker: WarShip, locations: tuple[str, ...], bands: dict[str, str], target: WarShip,
    rules: TableRules = TableRules(),
) -> tuple[Pool, int, str, tuple[tuple[str, int], ...]]:
    """(dice of one roll, number of rolls, base location, dial-ups) of an attack.

    The base gun of a bracket is the participant with the best dice for its
    band (the first listed on a tie); one step per extra gun, one more when
    the target's rear dials attacks up (`rear_dials_up`); then one roll plus
    one per saturation box of the base gun.
    """
    def dice(loc: str) -> Pool:
        band: Band = getattr(armed_attack(attacker, loc), bands[loc])
        return canonical(band.dice)

    base = max(locations, key=lambda loc: (top(dice(loc)), -locations.index(loc)))
    steps: list[tuple[str, int]] = []
    if len(locations) > 1:
        steps.append(("bracket fire", len(locations) - 1))
    if rear_dials_up(target, rules):
        steps.append(("target's rear destroyed", 1))
    pool = dial_up(dice(base), sum(n for _, n in steps))
    rolls = 1 + armed_attack(attacker, base).boxes
    return pool, rolls, base, tuple(steps)


def rear_dials_up(target: WarShip, rules: TableRules) -> bool:
    """Do attacks on this ship dial up for its destroyed rear (seed 004 "MP")?

    Table rule `rear_destroyed_dialup`: "at_once" (the app's reading) from the
    moment the stern is destroyed, so an attack rolled later in the same combat
    dials up; "next_combat" only once the stern was destroyed in an earlier
    combat (its damage has taken full effect at the end of that combat).
    """
    if rules.rear_destroyed_dialup == "next_combat":
        return target.destroyed.get(REAR) == "destroyed"
    return target.rear_destroyed


def armed_attack(ship: WarShip, loc: str) -> AttackStat:
    """The attack of a location known to have one (`_location_problem` refused the others)."""
    attack = ship.locations[loc].attack
    if attack is None:
        raise ValueError(f"the {loc_name(loc)} of {ship.name} has no attack")
    return attack


def _located(ship: WarShip) -> bool:
    return ship.placed and not ship.removed


def attack_option(
    state: WarFleetState, attacker: WarShip, locations: tuple[str, ...] | list[str] | str,
    target: WarShip, used: Set[str] = frozenset(),
) -> AttackOption:
    """An attack by one location (or a bracket of locations) at a target, with its
    odds at every location it can strike, or the reason it cannot be made.

    The checked entry, for people and the app; `attack_options` uses the same
    checks in the order cheapest first.
    """
    if isinstance(locations, str):
        locations = (locations,)
    locations = tuple(locations)
    first = attacker.locations.get(locations[0]) if locations else None
    name = first.attack.name if first is not None and first.attack else ""
    def refuse(problem: str) -> AttackOption:
        return AttackOption(attacker=attacker.id, locations=locations, name=name, target=target.id, problem=problem)

    if not locations:
        return refuse("name the location that attacks")
    if len(set(locations)) != len(locations):
        return refuse("a location joins an attack once")
    problem = _ships_problem(state, attacker, target)
    if problem:
        return refuse(problem)
    for loc in locations:
        problem = _location_problem(attacker, loc, used)
        if problem:
            return refuse(problem)
    if len(locations) > 1:
        problem = _bracket_problem(attacker, locations)
        if problem:
            return refuse(problem)
    return _placed_option(attacker, locations, name, target, state.settings.table_rules)


def _placed_option(attacker: WarShip, locations: tuple[str, ...], name: str, target: WarShip,
                   rules: TableRules) -> AttackOption:
    """Arc and range of guns that may attack this target; the option, or why not."""
    range_ = war_fleet_range(attacker.hex, target.hex)
    problem = range_problem(range_, rules)
    if problem:
        return AttackOption(attacker=attacker.id, locations=locations, name=name, target=target.id,
                            range=range_, problem=problem)
    reach: dict[str, str | None] = {}
    bands: dict[str, str] = {}
    for loc in locations:
        attack = armed_attack(attacker, loc)
        reach[loc] = in_firing_arc(attacker.hex, attacker.facing, loc, target.hex, attack.turret,
                                   attacker.locations, rules)
        bands[loc] = attack.band(range_) if reach[loc] else "out"
    for loc in locations:
        attack = armed_attack(attacker, loc)
        gun = f"{loc_name(loc)} {attack.name}".strip()
        problem = None
        if not reach[loc]:
            problem = f"{target.name} is outside the arc of the {gun}"
        elif bands[loc] == "out":
            problem = f"{target.name} is {range_} hexes away, beyond the {gun}'s range of {attack.long.range}"
        if problem:
            return AttackOption(attacker=attacker.id, locations=locations, name=name, target=target.id,
                                range=range_, reach=reach, bands=bands, problem=problem)
    return _option(attacker, locations, name, target, range_, reach, bands, rules)


def _ships_problem(state: WarFleetState, attacker: WarShip, target: WarShip) -> str | None:
    for ship in (attacker, target):
        if not _located(ship):
            return f"{ship.name} is not on the map"
        if ship.pocket is not None:
            still = any(p.open for p in state.pockets if p.id == ship.pocket)
            return (f"{ship.name} is away in pocket battle {ship.pocket}" if still
                    else f"{ship.name} fought pocket battle {ship.pocket} this turn")
    if attacker.side == target.side:
        return f"{target.name} is on {attacker.side}'s own side"
    if target.casualty:
        return f"{target.name} is already a casualty"
    return None


def _location_problem(attacker: WarShip, loc: str, used: Set[str]) -> str | None:
    stats = attacker.locations.get(loc)
    if stats is None:
        return f"{attacker.name} has no location '{loc}'"
    if stats.attack is None:
        return f"the {loc_name(loc)} of {attacker.name} has no attack"
    if not attacker.fires(loc):
        return f"the {loc_name(loc)} of {attacker.name} was destroyed in an earlier turn"
    if loc in used:
        return f"the {loc_name(loc)} of {attacker.name} has already declared its attack this turn"
    return None


def _bracket_problem(attacker: WarShip, locations: tuple[str, ...]) -> str | None:
    """Seed 000 "Gunner's Primer on Coordination": bracket guns, all of one name."""
    attacks = [armed_attack(attacker, loc) for loc in locations]
    for loc, attack in zip(locations, attacks):
        if not attack.bracket:
            return f"the {loc_name(loc)} {attack.name} has no bracket fire trait".replace("  ", " ")
    if len({a.name for a in attacks}) != 1 or not attacks[0].name:
        return "bracket fire joins guns of the same name only"
    return None


def _option(attacker: WarShip, locations: tuple[str, ...], name: str, target: WarShip, range_: int,
            reach: dict[str, str | None], bands: dict[str, str], rules: TableRules) -> AttackOption:
    """The unchecked fast path: an attack known to be legal, with its odds."""
    pool, rolls, base_loc, steps = attack_pool(attacker, locations, bands, target, rules)
    struck = struck_locations(target.hex, target.facing, target.locations, attacker.hex)
    if not struck:  # cannot happen with the wedges of rules-notes 4; guard it anyway
        struck = list(target.locations)
    strikes = tuple(Strike(loc, attack_odds(pool, rolls, target, loc)) for loc in struck)
    return AttackOption(attacker=attacker.id, locations=locations, name=name, target=target.id, range=range_,
                        reach=reach, bands=bands, base=base_loc, pool=pool, rolls=rolls, dial_ups=steps,
                        strikes=strikes)


def loc_name(location: str) -> str:
    return location.replace("_", " ")


def declared_locations(state: WarFleetState, attacker_id: str) -> set[str]:
    return {loc for a in state.attacks if a.attacker == attacker_id for loc in a.locations}


def attack_options(state: WarFleetState, attacker_id: str, brackets: bool = True,
                   impossible: bool = False) -> list[AttackOption]:
    """Every attack a ship can declare now: each of its locations with an attack
    against each enemy in arc and range, and every bracket of two or more of its
    bracket-fire guns of one name that all reach that enemy, each with exact odds.

    `impossible=True` adds every other (location, enemy) pair with the reason it
    cannot attack.  This is the one list the app, the CLI and the tests read.
    """
    attacker = state.ship(attacker_id)
    if not _located(attacker) or attacker.pocket is not None:
        return []
    used = declared_locations(state, attacker_id)
    firing = [loc for loc in attacker.locations if _location_problem(attacker, loc, used) is None]
    options: list[AttackOption] = []
    enemies = state.enemies_of(attacker)
    if impossible:
        named = [loc for loc in attacker.locations if attacker.locations[loc].attack is not None]
        options = [attack_option(state, attacker, (loc,), target, used) for target in enemies for loc in named]
        if brackets:
            options += _brackets(state, attacker, firing, enemies, options, used)
        return options
    origin, facing, stats = attacker.hex, attacker.facing, attacker.locations
    rules = state.settings.table_rules
    longest = max((armed_attack(attacker, loc).long.range for loc in firing), default=-1)
    for target in enemies:
        cell = target.hex
        range_ = origin.distance(cell)
        if range_ > longest or range_problem(range_, rules) or _ships_problem(state, attacker, target):
            continue
        for loc in firing:
            attack = armed_attack(attacker, loc)
            if range_ > attack.long.range:
                continue
            reach = in_firing_arc(origin, facing, loc, cell, attack.turret, stats, rules)
            if reach:
                options.append(_option(attacker, (loc,), attack.name, target, range_, {loc: reach},
                                       {loc: attack.band(range_)}, rules))
    if brackets:
        options += _brackets(state, attacker, firing, enemies, options, used)
    return options


def _brackets(state: WarFleetState, attacker: WarShip, firing: list[str], enemies: list[WarShip],
              singles: list[AttackOption], used: Set[str]) -> list[AttackOption]:
    """Every bracket of two or more guns of one name that each reach the target alone."""
    groups: dict[str, list[str]] = {}
    for loc in firing:
        attack = armed_attack(attacker, loc)
        if attack.bracket and attack.name:
            groups.setdefault(attack.name, []).append(loc)
    found: list[AttackOption] = []
    for members in groups.values():
        if len(members) < 2:
            continue
        for target in enemies:
            reaching = [o.locations[0] for o in singles
                        if o.target == target.id and len(o.locations) == 1 and o.locations[0] in members
                        and o.possible]
            for size in range(2, len(reaching) + 1):
                for chosen in combinations(reaching, size):
                    found.append(attack_option(state, attacker, chosen, target, used))
    return found


def all_attack_options(state: WarFleetState, brackets: bool = True, impossible: bool = False) -> list[AttackOption]:
    """Attack options of every ship on the map, side by side."""
    return [
        option
        for ship in state.active_ships
        if ship.placed and ship.pocket is None
        for option in attack_options(state, ship.id, brackets, impossible)
    ]


# --- rolling an attack ------------------------------------------------------------------


#: An attack's table dice (`TableDice`): every attack die in order (main roll, then each saturation
#: roll), then one red die per SI test in order.
TABLE_NEEDS = {"attack": "the attack needs another die", "si": "an SI test needs its red die"}


def resolve_attack(pool: Pool, rolls: int, target: WarShip, location: str, dice: DiceSource) -> tuple[AttackResult, WarShip]:
    """Roll (or read) an attack's dice, in order, and apply each roll to the target.

    All the attack's dice are taken first (they are rolled together); each roll
    is then resolved in turn against the location as it stands, and every hit
    forces an SI test (the first hit on an intact location destroys it).
    Returns the result and the target as it now stands.
    """
    units = [[dice.take(colour, "attack") for colour in pool] for _ in range(rolls)]
    ship = target
    results: list[AttackRoll] = []
    destroyed_now = False
    for faces in units:
        total = sum(d.face for d in faces)
        res = ship.resilience(location)
        hit = total >= res
        if ship.casualty:
            results.append(AttackRoll(dice=faces, total=total, resilience=res, hit=hit, effect="already_casualty"))
            continue
        if not hit:
            results.append(AttackRoll(dice=faces, total=total, resilience=res, hit=False, effect="miss"))
            continue
        effect: Literal["destroyed_location_hit", "location_destroyed"]
        if ship.is_destroyed(location):
            effect = "destroyed_location_hit"
        else:
            effect = "location_destroyed"
            destroyed_now = True
            ship = ship.with_location(location, "destroyed_this_combat")
        modifier = ship.si_test_modifier(location)
        die = dice.take(Colour.RED, "si")
        si_total = die.face + modifier
        failed = si_total >= ship.stats.si
        if failed:
            ship = ship.model_copy(update={"casualty": True})
        results.append(AttackRoll(
            dice=faces, total=total, resilience=res, hit=True, effect=effect,
            si_test=SITest(die=die, modifier=modifier, total=si_total, si=ship.stats.si, casualty=failed),
        ))
    result = AttackResult(
        pool=pool.expanded, rolls=results, location_destroyed=destroyed_now,
        casualty=ship.casualty and not target.casualty,
    )
    return result.model_copy(update={"text": describe(result, target, location)}), ship


def describe(result: AttackResult, target: WarShip, location: str) -> str:
    """The attack in plain words, roll by roll."""
    parts = []
    where = f"{target.name}'s {loc_name(location)}"
    for i, roll in enumerate(result.rolls):
        faces = " + ".join(f"{d.colour.label} {d.face}" for d in roll.dice)
        head = ("saturation roll: " if i else "") + f"{faces} = {roll.total} against {roll.resilience}"
        if roll.effect == "already_casualty":
            parts.append(f"{head}: {target.name} is already a casualty")
        elif roll.effect == "miss":
            parts.append(f"{head}: no damage")
        else:
            what = f"{where} destroyed" if roll.effect == "location_destroyed" else f"hit on the destroyed {loc_name(location)}"
            t = roll.si_test
            assert t is not None, "every hit forces an SI test (resolve_attack)"
            verdict = f"{target.name} is a casualty" if t.casualty else "she holds together"
            parts.append(f"{head}: {what}; SI test DRed {t.die.face} + {t.modifier} = {t.total} against SI {t.si}: {verdict}")
    return "; ".join(parts) + "."
