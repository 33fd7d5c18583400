"""Dialling up (seed 000/004 "Dialing Up", rules-notes 1).

"Improving a die's potential results by one step": Green (4), Blue (6),
Yellow (8), Red (10), Black (12).  "Once you reach a dBlack, or if you start
there, the next step is to add another die, starting at the lowest end of the
progression, or dGreen.  Then, after that, slowly progress up the scale again."
So the ladder runs Green, Blue, Yellow, Red, Black, Black & Green, Black &
Blue, ... Black & Black, Black & Black & Green, ...

A War Fleet attack made of several dice (a dialled-up Black & Green) is one
roll: its dice are added together (the seed warns that a dialled-up attack
using several dice is not to be read die by die).
"""

from __future__ import annotations

from functools import lru_cache

from ..dice import DIAL_UP_ORDER, FACES, Colour, Pool, parse_pool

_RANK = {colour: i for i, colour in enumerate(DIAL_UP_ORDER)}
_LAST = len(DIAL_UP_ORDER) - 1


@lru_cache(maxsize=2048)
def canonical(pool: Pool | str) -> Pool:
    """The same dice, largest first: `DBlack & DGreen`; ValueError naming a die that cannot be dialled up."""
    dice = parse_pool(pool) if isinstance(pool, str) else Pool(pool)
    for die in dice:
        if die not in _RANK:
            raise ValueError(f"{die.label} is not a coloured die and cannot be dialled up")
    largest_first = sorted(dice, key=lambda d: -_RANK[d])
    return Pool(largest_first)


def dial_up(pool: Pool | str, steps: int = 1) -> Pool:
    """The pool dialled up `steps` times.

    One step raises the smallest die that is not yet Black by one colour; when
    every die is Black, a Green is added.  On the ladder's own pools (one die,
    or Blacks and one other die) this is exactly the seed's progression;
    other pools (say `2DBlue` typed by hand) walk up their smallest die first.
    """
    if steps < 0:
        raise ValueError("a pool is dialled up, never down")
    return _dialled(canonical(pool), steps)


@lru_cache(maxsize=1024)
def _dialled(pool: Pool, steps: int) -> Pool:
    dice = list(pool)
    for _ in range(steps):
        lower = [i for i, d in enumerate(dice) if _RANK[d] < _LAST]
        if not lower:
            dice.append(DIAL_UP_ORDER[0])
        else:
            i = lower[-1]  # dice are sorted largest first: the last one is the smallest
            dice[i] = DIAL_UP_ORDER[_RANK[dice[i]] + 1]
        dice.sort(key=lambda d: -_RANK[d])
    return Pool(dice)


@lru_cache(maxsize=256)
def ladder_step(n: int) -> Pool:
    """Step `n` of the ladder from Green (0 = DGreen, 4 = DBlack, 5 = DBlack & DGreen)."""
    if n < 0:
        raise ValueError("the ladder starts at step 0 (DGreen)")
    blacks, rest = divmod(n, len(DIAL_UP_ORDER))
    if rest == _LAST:
        return Pool([Colour.BLACK] * (blacks + 1))
    return Pool([Colour.BLACK] * blacks + [DIAL_UP_ORDER[rest]])


def top(pool: Pool) -> int:
    """The highest total a pool can roll."""
    return sum(max(FACES[d]) for d in pool)


def smallest_reaching(total: int) -> Pool:
    """The first ladder step whose top reaches `total` (rules-notes 9, attack dice).

    Tops: Green 4, Blue 6, Yellow 8, Red 10, Black 12, Black & Green 16,
    Black & Blue 18, Black & Yellow 20, Black & Red 22, Black & Black 24,
    Black & Black & Green 28, ...
    """
    n = 0
    while top(ladder_step(n)) < total:
        n += 1
    return ladder_step(n)
