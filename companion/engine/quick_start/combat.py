"""Firing solutions, exact breach odds and shot resolution (seed 001 "Combat").

The chain (rules-notes 6): pool = weapon dice for the band + working crew dice
of the weapon's location + the target location's go/stop dice, plus the
attacker's Tesla Coil modifier.  One slot die picks the slot:
  miss slot -> miss;  live slot -> destroyed if total >= breach (+ armour);
  destroyed slot -> re-roll (again on a miss): a live slot is destroyed if
  total >= its breach without armour; a destroyed slot, if total >= its breach
  without armour, brings a keel roll: 2DRed + destroyed slots on the ship +
  destroyed slots in the location, >= SI breaks the keel.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from collections.abc import Sequence
from typing import Any, Literal

from ..arcs import offset_in_arc, ship_range
from ..dice import Colour, Pool, counts, parse_pool
from ..footprint import HEX_COUNT, LOCATION_HEX
from ..hexes import Hex
from ..roller import DiceSource, DieRoll, RollerDice as RollerDice, TableDice as TableDice
from ..cards import GunSlot, RangeBand
from .state import FiringBand, GameState, ShipState, ShotOutcome, ShotResult, SlotStatus
from .table_play import DEFAULT_RULES, Chooser, LocationRoll, crew_dice, location_wedge, who_decides, whole_sides
from .table_rules import TableRules

KEEL_DICE = parse_pool("2DRed")
SLOT_DIE = Colour.D6


# --- geometry of a shot ------------------------------------------------------


def weapon_hex(ship: ShipState, location: str) -> Hex:
    """The hex a location's weapons fire from (seed 001 "Slots", p. 12)."""
    return ship.placement.location_hex(location)


def arc_and_range(attacker: ShipState, location: str, target: ShipState,
                  rules: TableRules = DEFAULT_RULES) -> tuple[bool, int | None]:
    """Is any target hex in the location's firing arc, and the range to it.

    Range to a ship is the smallest in-arc range over its in-arc hexes
    (rules-notes 5).
    """
    return _sights(_gun_place(attacker, location, rules), shapes([target]))[0]


#: A ship as the arc tables see it: its bow (q, r), the facing its hexes trail in, its hex count.
Shape = tuple[int, int, int, int]


def shapes(ships: Sequence[ShipState]) -> list[Shape]:
    """Each ship's `Shape`, for `_sights`."""
    found = []
    for ship in ships:  # Hex.at and where Placement.hexes trail, inline (issue 30: once per enemy per call)
        q = ship.column - 1
        found.append((q, ship.row - 1 - (q - (q & 1)) // 2, (ship.facing + 3) % 6,
                      1 if ship.one_hex else HEX_COUNT[ship.card.type]))
    return found


def _sights(place: tuple[int, int, tuple[int, int]], targets: Sequence[Shape]) -> list[tuple[bool, int | None]]:
    """`arc_and_range` from a gun's `_gun_place` at each target, looked up in arcs.py's tables by the
    target's offset from the gun's hex and its shape (issue 30): the same answers as `in_wedge`
    and the direct in-arc range on each of its hexes (tests/test_arc_tables.py)."""
    q, r, wedge = place
    found = [ship_range(wedge, bow_q - q, bow_r - r, back, count) for bow_q, bow_r, back, count in targets]
    return [(range_ is not None, range_) for range_ in found]


def struck_locations(target: ShipState, from_hex: Hex, rules: TableRules = DEFAULT_RULES) -> list[str]:
    """Target locations whose damage arc holds the firing weapon's hex.

    Damage arcs are the firing-arc wedges drawn from the target (seed 001
    "Determining Damage Arcs"); if none holds the hex, fall back to the wedges
    drawn from the target's pivot hex (rules-notes 4).  Under the table rule type4_sides
    "simple" a Type 4's side is struck through the simple side wedge and offers both its
    locations, fore and aft (table_play.py).
    """
    arcs_from, pivot = _damage_arcs(target, rules)
    bow = target.bow
    q, r = from_hex.q - bow.q, from_hex.r - bow.r  # the weapon's hex from the target's bow
    found = [loc for loc, dq, dr, wedge in arcs_from if offset_in_arc(q - dq, r - dr, wedge)]
    if not found:
        found = [loc for loc, _, _, wedge in arcs_from if offset_in_arc(q - pivot[0], r - pivot[1], wedge)]
    return whole_sides(target, found, rules)


#: A ship's damage arcs from its bow: (location, its hex's offset from the bow, its wedge) in the
#: card's order, and the pivot hex's offset (`_damage_arcs`).
DamageArcs = tuple[tuple[tuple[str, int, int, tuple[int, int]], ...], tuple[int, int]]
_DAMAGE_ARCS: dict[tuple[Any, ...], DamageArcs] = {}


def _gun_place(ship: ShipState, location: str, rules: TableRules) -> tuple[int, int, tuple[int, int]]:
    """(q, r) of the hex a location fires from (`weapon_hex`) and its wedge (`location_wedge`),
    read from the ship's `_damage_arcs`: a firing arc is the damage arc of the same location."""
    for loc, dq, dr, wedge in _damage_arcs(ship, rules)[0]:
        if loc == location:
            q = ship.column - 1  # Hex.at, inline
            return q + dq, ship.row - 1 - (q - (q & 1)) // 2 + dr, wedge
    raise KeyError(location)


def _damage_arcs(target: ShipState, rules: TableRules) -> DamageArcs:
    """Where each location's damage arc is drawn from, as offsets from the bow, and its wedge: the
    same for every ship of one type, facing, shape and card order under one set of table rules, so
    remembered by those (issue 30: `struck_locations` read the placement's hexes and every wedge
    again for each shot)."""
    key = (target.card.type, target.one_hex, target.facing, tuple(target.card.locations), rules)
    found = _DAMAGE_ARCS.get(key)
    if found is None:
        placement = target.placement
        cells, bow = placement.hexes, placement.bow
        where = {loc: cells[0] if placement.one_hex else cells[LOCATION_HEX[placement.ship_type][loc]]
                 for loc in target.card.locations}
        found = (tuple((loc, where[loc].q - bow.q, where[loc].r - bow.r, location_wedge(target, loc, rules))
                       for loc in target.card.locations),
                 (placement.pivot.q - bow.q, placement.pivot.r - bow.r))
        _bound(_DAMAGE_ARCS)
        _DAMAGE_ARCS[key] = found
    return found


# --- exact odds ---------------------------------------------------------------


@dataclass(frozen=True)
class Odds:
    """Exclusive, exhaustive outcomes of one breach roll at one location, and
    `ship_destroyed`: the chance the ship counts as destroyed once the shot is
    resolved (the keel breaks, or the slot it destroys wrecks the location or
    brings the destroyed slots to half the SI; see `_ship_destroyed`)."""

    no_effect: Fraction
    slot_destroyed: dict[int, Fraction]
    keel_break: Fraction
    ship_destroyed: Fraction

    @property
    def any_damage(self) -> Fraction:
        return 1 - self.no_effect

    def as_json(self) -> dict[str, Any]:
        return {
            "no_effect": str(self.no_effect),
            "slot_destroyed": {str(k): str(v) for k, v in self.slot_destroyed.items()},
            "keel_break": str(self.keel_break),
            "ship_destroyed": str(self.ship_destroyed),
        }


def breach_odds(pool: Pool, modifier: int, target: ShipState, location: str) -> Odds:
    """Exact odds of every outcome of a breach roll against a target location."""
    return _odds(Pool(pool).sorted_key, modifier, *location_key(target, location), fate(target))


def location_key(target: ShipState, location: str) -> tuple[tuple[int | None, ...], tuple[bool, ...], int, int, int]:
    """What a breach roll's odds read from the target location: its printed breaches, which slots
    are destroyed, its armour, the SI and the keel modifier (with the ship's `fate`, its target key)."""
    slots = target.card.locations[location].slots
    return (
        tuple(None if s.kind == "miss" else s.breach for s in slots),
        tuple(target.is_destroyed(location, n) for n in range(1, 7)),
        target.armour(location),
        target.card.structural_integrity,
        target.destroyed_count() + target.destroyed_count(location),
    )


def fate(target: ShipState) -> bool | None:
    """What one more destroyed slot would do to the ship: None when it is destroyed
    already (seed 001 "Ending the Game": circled slots counted, as they will be
    hashed at the end of the turn), True when one more destroyed slot anywhere
    reaches half its SI, else False (then only wrecking the struck location would)."""
    if target.destruction is not None:
        return None
    return 2 * (target.destroyed_count() + 1) >= target.card.structural_integrity


@dataclass(frozen=True)
class BreachWays:
    """A breach roll's outcomes in integers: each a number of ways out of `whole` (issue 30)."""

    whole: int
    no_effect: int
    slots: tuple[tuple[int, int], ...]  # (slot, ways it is destroyed), every printed slot
    keel: int


@lru_cache(maxsize=100_000)
def breach_ways(pool_key: tuple[Colour, ...], modifier: int, breaches: tuple[int | None, ...],
                destroyed: tuple[bool, ...], armour: int, keel_modifier: int, si: int) -> BreachWays:
    """The outcomes of a breach roll in integers over one common denominator.

    With L printed slots, B of them destroyed, O rolls of the pool and W(x) of them totalling x or
    more: P(slot n destroyed) = (1/6) W(b + armour)/O + (B/6L) W(b)/O for a live slot of breach b
    (the slot die, or a re-roll after a destroyed slot), and the keel breaks with chance
    (B/6L) (K/144) sum of W(b) over the destroyed slots (K: keel rolls of 2DRed that break it);
    every figure is a count over 6 L O 144.  `whole` depends only on the pool and the location.
    """
    pool = counts(pool_key)
    keel = counts(KEEL_DICE)
    printed = {n: breach for n, breach in enumerate(breaches, start=1) if breach is not None}
    if not printed:  # only miss slots: nothing can happen
        return BreachWays(1, 1, (), 0)
    whole = 6 * len(printed) * pool.outcomes * keel.outcomes
    broken = [n for n in printed if destroyed[n - 1]]
    live, keel_ways = len(printed), keel.ways_at_least(si - keel_modifier)
    slots = tuple((n, 0 if destroyed[n - 1] else keel.outcomes * (
        live * pool.ways_at_least(breach + armour - modifier) + len(broken) * pool.ways_at_least(breach - modifier)))
        for n, breach in printed.items())
    keel_break = len(broken) * keel_ways * sum(pool.ways_at_least(printed[n] - modifier) for n in broken)
    return BreachWays(whole, whole - sum(w for _, w in slots) - keel_break, slots, keel_break)


@lru_cache(maxsize=100_000)
def _odds(pool_key: tuple[Colour, ...], modifier: int, breaches: tuple[int | None, ...],
          destroyed: tuple[bool, ...], armour: int, si: int, keel_modifier: int, fate: bool | None) -> Odds:
    """`breach_ways` as Fractions, with the chance the ship counts as destroyed."""
    ways = breach_ways(pool_key, modifier, breaches, destroyed, armour, keel_modifier, si)
    whole = ways.whole
    slot_destroyed = {n: Fraction(w, whole) for n, w in ways.slots}
    return Odds(Fraction(ways.no_effect, whole), slot_destroyed, Fraction(ways.keel, whole),
                Fraction(_ship_destroyed(ways, destroyed, fate), whole))


def _ship_destroyed(ways: BreachWays, destroyed: tuple[bool, ...], fate: bool | None) -> int:
    """The ways (out of `ways.whole`) the ship counts as destroyed after this shot (seed 001
    "Ending the Game").

    A shot ends in exactly one of: no effect, one slot destroyed, the keel
    broken; so the ways are the keel's plus those of every slot whose loss
    destroys the ship: the last live slot of the location (miss slots count as
    destroyed), or any slot when one more reaches half the SI.  Other shots
    declared this turn are not assumed.  In integers, one Fraction made by `_odds` (issue 30).
    """
    if fate is None:
        return ways.whole
    live = [w for n, w in ways.slots if not destroyed[n - 1]]
    dooming = live if fate or len(live) == 1 else []
    return ways.keel + sum(dooming)


# --- firing solutions -----------------------------------------------------------


@dataclass(frozen=True)
class Strike:
    """What a shot at one target location would roll and could do."""

    location: str
    pool: Pool
    modifier: int
    odds: Odds

    def as_json(self) -> dict[str, Any]:
        return {
            "location": self.location,
            "pool": self.pool.expanded,
            "modifier": self.modifier,
            **self.odds.as_json(),
        }


@dataclass(frozen=True, init=False)
class FiringSolution:
    """One working gun of the attacker against one enemy ship."""

    attacker: str
    location: str
    slot: int
    name: str
    target: str
    in_arc: bool
    range: int | None
    band: FiringBand | Literal["out"]
    strikes: list[Strike] = field(default_factory=list)
    decided_by: Chooser = "attacker"  # who picks between two strikes (table rule two_locations)

    def __init__(self, attacker: str, location: str, slot: int, name: str, target: str, in_arc: bool,
                 range: int | None, band: FiringBand | Literal["out"], strikes: list[Strike] | None = None,
                 decided_by: Chooser = "attacker"):
        """The dataclass's own fields, written straight into the frozen instance's dict: a board makes
        thousands of solutions, and one `object.__setattr__` a field cost three times as much (issue 30)."""
        fields = self.__dict__
        fields["attacker"], fields["location"], fields["slot"], fields["name"] = attacker, location, slot, name
        fields["target"], fields["in_arc"], fields["range"], fields["band"] = target, in_arc, range, band
        fields["strikes"], fields["decided_by"] = [] if strikes is None else strikes, decided_by

    @property
    def location_roll(self) -> LocationRoll | None:
        """The exact odds of the shot when a d6 picks between its two strikes, else None."""
        return LocationRoll(tuple(self.strikes)) if self.decided_by == "roll" else None

    def strike(self, location: str) -> Strike | None:
        return next((s for s in self.strikes if s.location == location), None)

    def as_json(self) -> dict[str, Any]:
        return {
            "weapon": {"location": self.location, "slot": self.slot, "name": self.name},
            "target": self.target,
            "in_arc": self.in_arc,
            "range": self.range,
            "band": self.band,
            "locations": [s.as_json() for s in self.strikes],
            **({"decided_by": self.decided_by} if self.decided_by != "attacker" else {}),
            **({"location_roll": self.location_roll.as_json()} if self.location_roll else {}),
        }


def shot_pool(attacker: ShipState, location: str, slot: int, band: FiringBand, target: ShipState, target_location: str,
              rules: TableRules = DEFAULT_RULES) -> Pool:
    """Weapon dice for the band, then crew dice (table rule crew_slots), then the target location's dice."""
    gun = attacker.card.locations[location].gun(slot)
    weapon: RangeBand = getattr(gun, band)
    return weapon.pool + crew_dice(attacker, location, rules) + target.location_dice(target_location)


class _Facts:
    """What one `firing_solutions` call reads again and again, read once (issue 30): the attacker's
    Tesla modifier and crew dice per location, each target location's key (`_target_keys`) and dice."""

    def __init__(self, attacker: ShipState, rules: TableRules):
        self.attacker, self.rules = attacker, rules
        self._tesla: int | None = None
        self._crew: dict[str, Pool] = {}
        self._dice: dict[tuple[str, str], Pool] = {}
        self._hexes: dict[str, Hex] = {}
        self._places: dict[str, tuple[int, int, tuple[int, int]]] = {}

    def place(self, location: str) -> tuple[int, int, tuple[int, int]]:
        """The attacker's `_gun_place` of a location, remembered."""
        if location not in self._places:
            self._places[location] = _gun_place(self.attacker, location, self.rules)
        return self._places[location]

    @property
    def tesla(self) -> int:
        """The attacker's Tesla modifier, read when a shot first needs it."""
        if self._tesla is None:
            self._tesla = self.attacker.tesla_modifier
        return self._tesla

    def struck(self, target: ShipState, location: str) -> list[str]:
        """`struck_locations` of the target from the gun hex of `location`, remembered across calls
        by all it reads: the target's shape and facing, the gun hex's offset from its bow, the rules."""
        if location not in self._hexes:
            q, r, _ = self.place(location)
            self._hexes[location] = Hex(q, r)
        origin = self._hexes[location]
        bow = target.bow
        key = (target.card.type, target.one_hex, target.facing, tuple(target.card.locations),
               origin.q - bow.q, origin.r - bow.r, self.rules)
        found = _STRUCK.get(key)
        if found is None:
            found = _STRUCK[key] = tuple(struck_locations(target, origin, self.rules))
            _bound(_STRUCK)
        return list(found)

    def pool(self, location: str, slot: int, band: FiringBand, target: ShipState, struck: str) -> Pool:
        """`shot_pool`, its parts remembered."""
        if location not in self._crew:
            self._crew[location] = crew_dice(self.attacker, location, self.rules)
        if (target.id, struck) not in self._dice:
            self._dice[(target.id, struck)] = target.location_dice(struck)
        weapon: RangeBand = getattr(self.attacker.card.locations[location].gun(slot), band)
        return weapon.pool + self._crew[location] + self._dice[(target.id, struck)]

    def odds(self, pool: Pool, target: ShipState, struck: str) -> Odds:
        """`breach_odds`, the target's part remembered (`_target_keys`)."""
        return _odds(pool.sorted_key, self.tesla, *_target_keys(target)[struck])


#: `struck_locations` by what it reads (`_Facts.struck`).
_STRUCK: dict[tuple[Any, ...], tuple[str, ...]] = {}
#: Per ship object: the ship and the key of every location, its `location_key` and `fate` (`_target_keys`).
_TARGET_KEYS: dict[int, tuple[ShipState, dict[str, tuple[Any, ...]]]] = {}
#: The solutions out of arc or range: per gun (attacker, location, slot, name), by target (`firing_solutions`).
_OUT_OF_REACH: dict[tuple[str, str, int, str], dict[str, "FiringSolution"]] = {}
#: Entries a memo of this module keeps before it starts afresh.
MEMO_SIZE = 100_000


def _bound(memo: dict[Any, Any]) -> None:
    """Start a memo afresh once it holds `MEMO_SIZE` entries (a long game's positions)."""
    if len(memo) > MEMO_SIZE:
        memo.clear()


def _target_keys(target: ShipState) -> dict[str, tuple[Any, ...]]:
    """`location_key` and `fate` of a ship's locations, each read when first asked (`_Facts.odds`) and remembered
    per ship object (issue 30: each enemy in reach of a gun read them again).  A ShipState is frozen
    and the engine never changes one in place (a change makes a new one), and the memo holds the
    ship itself, so its id cannot be reused by another ship while its entry lasts."""
    held = _TARGET_KEYS.get(id(target))
    if held is not None and held[0] is target:
        return held[1]
    _bound(_TARGET_KEYS)
    keys = _TargetKeys(target)
    _TARGET_KEYS[id(target)] = (target, keys)
    return keys


class _TargetKeys(dict[str, tuple[Any, ...]]):
    """A ship's `location_key` and `fate` per location, read on first use."""

    def __init__(self, target: ShipState):
        super().__init__()
        self.target = target
        self.fate: bool | None | str = "unread"

    def __missing__(self, location: str) -> tuple[Any, ...]:
        if self.fate == "unread":
            self.fate = fate(self.target)
        key = self[location] = (*location_key(self.target, location), self.fate)
        return key


def clear_memos() -> None:
    """Empty every cache and memo of this module (benchmarks: a cold start)."""
    for memo in (_STRUCK, _TARGET_KEYS, _OUT_OF_REACH, _DAMAGE_ARCS):
        memo.clear()
    for cached in (_odds, breach_ways):
        cached.cache_clear()


def firing_solution(attacker: ShipState, location: str, slot: int, target: ShipState,
                    rules: TableRules = DEFAULT_RULES, sight: tuple[bool, int | None] | None = None,
                    facts: _Facts | None = None) -> FiringSolution:
    """One gun against one ship: arc, range, band and a strike per location it can hit (`rules`: the table rules;
    `sight`: its `arc_and_range` when already known; `facts`: firing_solutions' memory of its call)."""
    gun = attacker.card.locations[location].gun(slot)
    in_arc, range_ = sight if sight is not None else arc_and_range(attacker, location, target, rules)
    band = gun.band(range_) if in_arc else "out"
    if band == "out":
        return FiringSolution(attacker.id, location, slot, gun.name, target.id, in_arc, range_, band)
    facts = facts or _Facts(attacker, rules)
    strikes: list[Strike] = []
    for struck in facts.struck(target, location):
        pool = facts.pool(location, slot, band, target, struck)
        strikes.append(Strike(struck, pool, facts.tesla, facts.odds(pool, target, struck)))
    return FiringSolution(attacker.id, location, slot, gun.name, target.id, in_arc, range_, band, strikes,
                          who_decides(rules, target, [s.location for s in strikes]))


def working_guns(ship: ShipState) -> list[tuple[str, int, GunSlot]]:
    """`ShipState.working_guns` with each gun's slot, read by the slots' kind (issue 30: a pydantic
    class's isinstance costs more than the rest of a slot's reading)."""
    damage = ship.damage
    found = []
    for location, spec in ship.card.locations.items():
        marks = damage.get(location, {})
        for number, slot in enumerate(spec.slots, start=1):
            if slot.kind == "gun" and marks.get(number, SlotStatus.LIVE) is not SlotStatus.DESTROYED:
                found.append((location, number, slot))
    return found


def firing_solutions(state: GameState, attacker_id: str) -> list[FiringSolution]:
    """Every working gun of a ship against every enemy still in play.

    The single source of what a ship may shoot at: the app's fire panel, the
    CLI's `solutions` and the tests all read this list.  Arcs and ranges are
    found once per location (its guns share them), and what the odds read of
    the ships once per call (`_Facts`).
    """
    attacker = state.ship(attacker_id)
    rules = state.table_rules
    enemies = state.enemies_of(attacker)
    where = shapes(enemies)
    seen: dict[str, list[tuple[bool, int | None]]] = {}
    facts = _Facts(attacker, rules)
    solutions = []
    attacker_id = attacker.id
    _bound(_OUT_OF_REACH)
    for location, slot, gun in working_guns(attacker):
        if location not in seen:
            seen[location] = _sights(facts.place(location), where)
        reach, name = max(gun.short.range, gun.long.range), gun.name  # gun.band is "out" past both bands
        gun_key = (attacker_id, location, slot, name)
        out_of_reach = _OUT_OF_REACH.get(gun_key)
        if out_of_reach is None:
            out_of_reach = _OUT_OF_REACH[gun_key] = {}
        for target, (in_arc, range_) in zip(enemies, seen[location]):
            if in_arc and range_ is not None and range_ <= reach:
                solutions.append(firing_solution(attacker, location, slot, target, rules, (in_arc, range_), facts))
                continue
            # firing_solution's answer when the gun cannot reach: frozen and without strikes, so one
            # value serves every call while the arc and range stay (4,000 a board: no key made a pair)
            found = out_of_reach.get(target.id)
            if found is None or found.range != range_ or found.in_arc != in_arc:
                found = out_of_reach[target.id] = FiringSolution(attacker_id, location, slot, name, target.id,
                                                                 in_arc, range_, "out")
            solutions.append(found)
    return solutions


# --- resolving a shot -------------------------------------------------------------


#: A breach roll's table dice (`TableDice`), per purpose: `pool` (weapon, crew, location dice in
#: pool order), `slot` (the slot die and every re-roll), `keel` (the two red keel dice).
TABLE_NEEDS = {
    "pool": "the breach roll needs another die",
    "slot": "the slot die needs another roll (a re-roll)",
    "keel": "the keel roll needs its two red dice",
}


def resolve_breach(
    pool: Pool, modifier: int, target: ShipState, location: str, dice: DiceSource
) -> ShotResult:
    """Roll (or read) every die of one breach roll and say what it did."""
    rolled = [dice.take(colour, "pool") for colour in pool]
    total = sum(d.face for d in rolled) + modifier
    slots = target.card.locations[location].slots
    first = dice.take(SLOT_DIE, "slot").face
    slot_rolls = [first]
    armour = target.armour(location)
    chosen = slots[first - 1]

    def finish(outcome: ShotOutcome, slot: int | None = None, keel_dice: Sequence[DieRoll] = ()) -> ShotResult:
        return ShotResult(
            pool=rolled, modifier=modifier, slot_rolls=slot_rolls, keel_dice=list(keel_dice),
            total=total, outcome=outcome, slot=slot,
        )

    if chosen.kind == "miss":
        return finish("miss", first)
    if not target.is_destroyed(location, first):
        hit = total >= chosen.breach + armour
        return finish("slot_destroyed" if hit else "no_effect", first)
    while True:  # critical damage: re-roll, again on a miss slot
        again = dice.take(SLOT_DIE, "slot").face
        slot_rolls.append(again)
        struck = slots[again - 1]
        if struck.kind != "miss":
            break
    breach = struck.breach
    if total < breach:
        return finish("no_effect", again)
    if not target.is_destroyed(location, again):
        return finish("slot_destroyed", again)
    keel_dice = [dice.take(colour, "keel") for colour in KEEL_DICE]
    keel_total = sum(d.face for d in keel_dice) + keel_modifier(target, location)
    outcome: ShotOutcome = "keel_break" if keel_total >= target.card.structural_integrity else "no_effect"
    return finish(outcome, again, keel_dice)


def keel_modifier(target: ShipState, location: str) -> int:
    """+1 per destroyed slot on the ship, +1 more per destroyed slot in the struck location."""
    return target.destroyed_count() + target.destroyed_count(location)
