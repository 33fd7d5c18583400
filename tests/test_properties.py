"""Properties that must hold for every position, card and pool."""

import itertools
from collections import Counter
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from companion.engine.quick_start.combat import RollerDice, breach_odds, firing_solutions, resolve_breach
from companion.engine.dice import FACES, Colour, Pool, distribution
from companion.engine.footprint import Placement
from companion.engine.hexes import Hex
from companion.engine.roller import Roller
from companion.engine.quick_start.state import SlotStatus
from cards_for_tests import armor, card, crew, engine, gun, location, miss, other, position, tesla
from companion.engine.quick_start.state import ShipState

D12 = [c for c in Colour if c not in (Colour.D6, Colour.D10)]
SWAP = {"port": "starboard", "starboard": "port", "port_bow": "starboard_bow",
        "starboard_bow": "port_bow", "port_quarter": "starboard_quarter",
        "starboard_quarter": "port_quarter"}

slot_specs = st.sampled_from([
    gun("3 IN", (4, "DBlue"), (8, "DGreen"), 11), gun("6 IN", (6, "DYellow"), (12, "DBlue"), 13),
    gun("65mm", (3, "DBlue"), (6, "DGreen"), 10), crew("DGreen", 12), crew("DBlue", 14),
    armor(1, 13), armor(2, 15), engine(3, 12), tesla(14), miss(), other(16),
])
dice_specs = st.sampled_from(["DBlack", "2DRed", "DRed", "DRed & DBlue", "DYellow & DGreen"])


@st.composite
def cards(draw, ship_type):
    locs = {}
    from companion.engine.footprint import LOCATION_HEX
    for loc in LOCATION_HEX[ship_type]:
        slots = [draw(slot_specs) for _ in range(6)]
        if all(s["kind"] == "miss" for s in slots):
            slots[0] = other(12)
        locs[loc] = location(slots, go=draw(dice_specs), stop=draw(dice_specs))
    return card(f"t{ship_type}", ship_type=ship_type, si=draw(st.integers(8, 30)), **locs)


@st.composite
def damaged_ship(draw, ship_id, side, ship_type, bow, facing):
    the_card = draw(cards(ship_type))
    damage = {}
    for loc, spec in the_card.locations.items():
        for n, slot in enumerate(spec.slots, start=1):
            if slot.kind != "miss":
                status = draw(st.sampled_from(["live", "live", "destroyed", "destroyed_this_turn"]))
                if status != "live":
                    damage.setdefault(loc, {})[n] = SlotStatus(status)
    return ShipState(id=ship_id, side=side, card=the_card, column=bow.column, row=bow.row,
                     facing=facing, moved=draw(st.booleans()), damage=damage)


@st.composite
def positions(draw):
    """Two to four ships of types 1-4 at random, non-overlapping places."""
    count = draw(st.integers(2, 4))
    ships, taken = [], set()
    for i in range(count):
        ship_type = draw(st.integers(1, 4))
        for _ in range(50):
            bow = Hex(draw(st.integers(-9, 9)), draw(st.integers(-9, 9)))
            facing = draw(st.integers(0, 5))
            cells = set(Placement(bow, facing, ship_type).hexes)
            if not cells & taken:
                break
        else:
            continue
        taken |= cells
        side = "A" if i % 2 == 0 else "B"
        ships.append(draw(damaged_ship(f"s{i}", side, ship_type, bow, facing)))
    return position(*ships)


def moved(state, shift=Hex(0, 0), rotation=0, mirror=False):
    ships = []
    for s in state.ships:
        p = s.placement.transformed(shift, rotation, mirror)
        ships.append(s.at(p))
    return state.model_copy(update={"ships": ships})


def solution_table(state, rename=lambda loc: loc):
    table = {}
    for s in state.ships:
        for sol in firing_solutions(state, s.id):
            key = (sol.attacker, rename(sol.location), sol.slot, sol.target)
            table[key] = (sol.in_arc, sol.range, sol.band,
                          sorted((rename(k.location), k.pool.sorted_key, k.modifier, k.odds) for k in sol.strikes))
    return table


@settings(max_examples=60, deadline=None)
@given(positions(), st.integers(-20, 20), st.integers(-20, 20), st.integers(1, 5))
def test_translating_or_rotating_a_position_changes_no_firing_solution(state, dq, dr, rotation):
    before = solution_table(state)
    assert solution_table(moved(state, shift=Hex(dq, dr))) == before
    assert solution_table(moved(state, rotation=rotation)) == before


@settings(max_examples=60, deadline=None)
@given(positions())
def test_mirroring_a_position_swaps_port_and_starboard_and_nothing_else(state):
    def swap_card(s):
        locs = {SWAP.get(k, k): v for k, v in s.card.locations.items()}
        dmg = {SWAP.get(k, k): v for k, v in s.damage.items()}
        return s.model_copy(update={"card": s.card.model_copy(update={"locations": locs}), "damage": dmg})

    before = solution_table(state)
    mirrored = moved(state, mirror=True)
    # with the cards mirrored too, the mirrored table is the same table
    mirrored_cards = mirrored.model_copy(update={"ships": [swap_card(s) for s in mirrored.ships]})
    assert solution_table(mirrored_cards, rename=lambda loc: SWAP.get(loc, loc)) == before


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_every_outcome_distribution_sums_to_exactly_one(data):
    ship_type = data.draw(st.integers(1, 4))
    target = data.draw(damaged_ship("t", "B", ship_type, Hex(0, 0), 0))
    pool = Pool(data.draw(st.lists(st.sampled_from(D12), min_size=1, max_size=4)))
    modifier = data.draw(st.integers(-4, 0))
    for loc in target.card.locations:
        odds = breach_odds(pool, modifier, target, loc)
        parts = [odds.no_effect, odds.keel_break, *odds.slot_destroyed.values()]
        assert sum(parts) == 1
        assert all(0 <= p <= 1 for p in parts)
        assert all(isinstance(p, Fraction) for p in parts)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(list(Colour)), min_size=1, max_size=3))
def test_exact_pool_distribution_equals_brute_force(dice):
    pool = Pool(dice)
    counts = Counter(sum(faces) for faces in itertools.product(*(FACES[c] for c in pool)))
    outcomes = sum(counts.values())
    assert distribution(pool) == {t: Fraction(n, outcomes) for t, n in sorted(counts.items())}


def test_seeded_monte_carlo_of_the_shot_resolver_agrees_with_exact_odds():
    """20,000 seeded shots at a damaged location land within 4 sigma of the exact odds."""
    bow = location([gun(breach=11), crew(breach=9), armor(1, 10), engine(3, 8), miss(), tesla(12)],
                   go="DRed", stop="DRed")
    target = ShipState(id="t", side="B", card=card("t", ship_type=1, si=12, bow=bow),
                       column=10, row=10, facing=0,
                       damage={"bow": {1: SlotStatus.DESTROYED, 4: SlotStatus.DESTROYED_THIS_TURN},
                               "stern": {1: SlotStatus.DESTROYED}})
    pool = Pool([Colour.BLUE, Colour.GREEN, Colour.RED])
    exact = breach_odds(pool, -1, target, "bow")
    dice = RollerDice(Roller.from_seed("monte-carlo"))
    n = 20_000
    seen = Counter()
    for _ in range(n):
        result = resolve_breach(pool, -1, target, "bow", dice)
        key = ("slot", result.slot) if result.outcome == "slot_destroyed" else result.outcome
        seen["no_effect" if key == "miss" else key] += 1
    expected = {"no_effect": exact.no_effect, "keel_break": exact.keel_break,
                **{("slot", k): v for k, v in exact.slot_destroyed.items()}}
    assert exact.keel_break > 0 and exact.slot_destroyed[2] > 0
    for key, p in expected.items():
        sigma = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(seen[key] / n - float(p)) <= 4 * sigma + 1e-9, (key, seen[key] / n, float(p))


def _wedge_by_every_vertex(dq: int, dr: int, span: int) -> bool:
    """The separating-axis test written out vertex by vertex (the reference for arcs.py)."""
    from companion.engine.arcs import CORNERS

    def cross(ax, ay, bx, by):
        return ax * by - ay * bx

    if (dq, dr) == (0, 0):
        return False
    d1, d2 = CORNERS[0], CORNERS[span % 6]
    cx, cy = Hex(dq, dr).centre
    vertices = [(cx + x, cy + y) for x, y in CORNERS]
    if all(cross(*d1, vx, vy) <= 0 for vx, vy in vertices):
        return False
    if all(cross(vx, vy, *d2) <= 0 for vx, vy in vertices):
        return False
    for i in range(6):
        (ax, ay), (bx, by) = vertices[i], vertices[(i + 1) % 6]
        ex, ey = bx - ax, by - ay
        if cross(ex, ey, -ax, -ay) <= 0 and cross(ex, ey, *d1) <= 0 and cross(ex, ey, *d2) <= 0:
            return False
    return True


def test_the_precomputed_wedge_test_equals_the_vertex_by_vertex_one():
    from companion.engine.arcs import _in_wedge_from_corner_0

    for span in range(1, 6):
        for dq in range(-12, 13):
            for dr in range(-12, 13):
                assert _in_wedge_from_corner_0(dq, dr, span) == _wedge_by_every_vertex(dq, dr, span), (dq, dr, span)
