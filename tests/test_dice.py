"""Dice notation, faces and exact distributions (seed 001 "Dice", rules-notes 1)."""

from fractions import Fraction

import pytest

from companion.engine.dice import FACES, Colour, PoolError, chance_at_least, distribution, mean, parse_pool, top
from companion.engine.roller import Roller, face_index, roll_pool


def test_face_tables_tops_and_means():
    assert {c: top(c) for c in Colour} == {Colour.GREEN: 4, Colour.BLUE: 6, Colour.YELLOW: 8,
                                           Colour.RED: 10, Colour.BLACK: 12, Colour.D6: 6, Colour.D10: 10}
    assert [mean(c) for c in Colour][:5] == [Fraction(5, 2), Fraction(7, 2), Fraction(9, 2), Fraction(11, 2), Fraction(13, 2)]
    assert all(len(FACES[c]) == 12 for c in Colour if c not in (Colour.D6, Colour.D10))


@pytest.mark.parametrize("text, expected", [
    ("DBlue", "DBlue"), ("2DRed", "2DRed"), ("DRed & DBlue", "DRed & DBlue"),
    ("dyellow & dgreen", "DYellow & DGreen"), ("Dblack", "DBlack"), ("dBlack", "DBlack"),
    ("D6", "D6"), ("3D6", "3D6"), (" 2dred + dblue ", "2DRed & DBlue"),
])
def test_pool_notation_is_case_insensitive(text, expected):
    assert parse_pool(text).notation == expected


@pytest.mark.parametrize("text, message", [
    ("DPurple", "unknown die colour 'Purple'"), ("", "empty dice pool"), ("Blue", "is not a die"),
    ("21DRed", "more than 20 dice"), ("0DRed", "asks for no dice"), ("DRed &", "is not a die"),
])
def test_bad_pools_say_what_is_wrong(text, message):
    with pytest.raises(PoolError, match=message):
        parse_pool(text)


def test_twenty_dice_are_allowed():
    assert len(parse_pool("20DBlack")) == 20
    assert sum(distribution(parse_pool("20DBlack")).values()) == 1


def test_distribution_of_a_pool_is_exact():
    d = distribution(parse_pool("DGreen & DBlue"))
    assert d[2] == Fraction(3, 12) * Fraction(2, 12) and sum(d.values()) == 1
    assert min(d) == 2 and max(d) == 10
    assert chance_at_least(parse_pool("2DRed"), 21) == 0 and chance_at_least(parse_pool("2DRed"), 2) == 1
    assert chance_at_least(parse_pool("2DRed"), 20) == Fraction(1, 144)


def test_the_same_seed_rolls_the_same_dice_and_state_advances():
    pool = parse_pool("DBlue & DBlack & D6")
    a, after = roll_pool(Roller.from_seed(42), pool)
    b, _ = roll_pool(Roller.from_seed(42), pool)
    assert a == b and after.counter == 3
    assert all(d.face in FACES[d.colour] for d in a)
    c, _ = roll_pool(after, pool)
    assert [d.face for d in c] != [d.face for d in a] or True  # the next roll uses new counters
    restored = Roller.model_validate(after.model_dump())
    assert roll_pool(restored, pool) == roll_pool(after, pool)


def test_face_indices_are_uniform_by_rejection():
    counts = [0] * 12
    for n in range(12_000):
        counts[face_index("abcd", n, 12)] += 1
    assert min(counts) > 850 and max(counts) < 1150
    assert Roller.from_seed("x").commitment == __import__("hashlib").sha256(b"x").hexdigest()


def test_integer_counts_equal_the_rolls_counted_one_by_one():
    """dice.counts (issue 30): the packed-integer convolution equals enumerating every roll."""
    from collections import Counter
    from itertools import product

    from companion.engine.dice import counts
    for text in ("DBlue", "2DRed & DBlue", "DGreen & D6 & D10", "3DBlack", "DYellow & DGreen & DRed"):
        pool = parse_pool(text)
        rolls = Counter(sum(faces) for faces in product(*(FACES[c] for c in pool)))
        found = counts(tuple(pool))
        assert found.outcomes == sum(rolls.values())
        assert {found.lowest + i: n for i, n in enumerate(found.ways) if n} == dict(rolls)
        assert all(found.ways_at_least(t) == sum(n for s, n in rolls.items() if s >= t) for t in range(-1, 40))
        assert counts(tuple(pool)) is found  # a cache hit returns the cached value


def test_twenty_black_dice_count_every_roll():
    found = __import__("companion.engine.dice", fromlist=["counts"]).counts(tuple(parse_pool("20DBlack")))
    assert found.outcomes == 12 ** 20 and sum(found.ways) == 12 ** 20 and found.ways[0] == 1 == found.ways[-1]
    assert found.ways[1] == 20 and found.lowest == 20 and len(found.ways) == 221


def _added_one_die_at_a_time(pool) -> dict[int, int]:
    """A pool's ways to roll each total, adding one die at a time (no packed integers)."""
    from collections import Counter

    ways: dict[int, int] = {0: 1}
    for colour in pool:
        after: Counter[int] = Counter()
        for total, n in ways.items():
            for face in FACES[colour]:
                after[total + face] += n
        ways = dict(after)
    return ways


@pytest.mark.parametrize("dice", [16, 17, 18, 19, 20])
def test_pools_of_16_to_20_dice_count_every_total(dice):
    """dice.counts packs each die's counts as the digits of one integer, each digit wide enough for
    the pool's largest count: a digit one byte too narrow carries into the next only for the big
    pools (16 to 20 dice), where the counts pass 2**56 (issue 35: the suite passed with the width
    computed too narrow there).  Every colour alone and mixed, against one die added at a time."""
    from companion.engine.dice import Colour, counts

    pools = [(colour,) * dice for colour in Colour]
    pools.append(tuple(Colour)[:5] * (dice // 5) + (Colour.BLACK,) * (dice % 5))
    pools.append((Colour.D10,) * (dice // 2) + (Colour.RED,) * (dice - dice // 2))
    for pool in pools:
        found = counts(pool)
        assert {found.lowest + i: n for i, n in enumerate(found.ways) if n} == _added_one_die_at_a_time(pool), pool
        assert sum(found.ways) == found.outcomes
