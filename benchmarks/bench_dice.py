"""Time a pool's exact distribution against its peers, in one run (issue 30).

For each pool of `POOLS`, with every cache cleared before each call (CPU time, as the
machine is shared; the median of several batches):

- ours: `dice.counts`, the integer counts of every total over a common denominator;
- icepool (https://pypi.org/project/icepool/): `Pool(dice).sum()` and the dice summed
  with `+`; the faster of the two is the peer ("at least 10x faster" is the aim);
- numpy: an integer convolution of the face counts (`np.convolve`, int64 while the counts fit,
  else Python integers in an object array), shown as a ratio beside ours.

And a cache hit: `dice.counts` of a pool already asked for (aim: under 2 us).

The peers are not project dependencies: `/work/venv/bin/pip install icepool numpy`
(or `pip install icepool numpy` in your environment).  `--quick` (a smoke test, a few
seconds) runs fewer repeats and skips the peers with a note.

Run: `python benchmarks/bench_dice.py [--quick]`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.engine import dice  # noqa: E402
from companion.engine.dice import FACES, parse_pool  # noqa: E402

#: Pools of two dice or more (one die summed with `+` is no work at all for icepool).
POOLS = ("2DRed & DBlue", "DGreen & DYellow & DRed & DBlack", "6DBlack", "3DRed & 2DYellow & D6", "20DBlack")


def per_call(call: Callable[[], object], repeats: int, batch: int) -> float:
    """Median time of one call in microseconds, over `repeats` batches of `batch` calls."""
    runs = []
    for _ in range(repeats):
        start = time.process_time()
        for _ in range(batch):
            call()
        runs.append((time.process_time() - start) / batch)
    return statistics.median(runs) * 1e6


def ours_cold(pool: tuple[dice.Colour, ...]) -> Callable[[], object]:
    def call() -> object:
        dice.counts.cache_clear()
        return dice.counts(pool)
    return call


def icepool_routes(pool: tuple[dice.Colour, ...]) -> tuple[Callable[[], object], Callable[[], object]]:
    import icepool

    def pool_sum() -> object:
        return icepool.Pool([icepool.Die(FACES[c]) for c in pool]).sum()

    def plus() -> object:
        total = icepool.Die(FACES[pool[0]])
        for colour in pool[1:]:
            total = total + icepool.Die(FACES[colour])
        return total
    return pool_sum, plus


def numpy_convolution(pool: tuple[dice.Colour, ...]) -> Callable[[], object]:
    import numpy as np

    found = dice.counts(pool)
    wide = found.outcomes >= 2 ** 63
    faces = {c: np.array(dice._FACE_WAYS[c][1], dtype=object if wide else np.int64) for c in set(pool)}

    def call() -> object:
        total = faces[pool[0]]
        for colour in pool[1:]:
            total = np.convolve(total, faces[colour])
        return total
    assert [int(n) for n in call()] == list(found.ways), "numpy's convolution differs from ours"
    return call


def peers_available() -> bool:
    try:
        import icepool  # noqa: F401
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds, no peers (a smoke test)")
    args = parser.parse_args()
    repeats, batch = (3, 20) if args.quick else (9, 200)
    peers = not args.quick and peers_available()
    if not peers:
        print("peers skipped: " + ("--quick" if args.quick else "icepool or numpy not installed "
                                   "(pip install icepool numpy)"))
    print(f"{'pool':<34} {'ours':>9} {'icepool sum':>12} {'icepool +':>11} {'x faster':>9} "
          f"{'numpy':>9} {'ours/numpy':>10}")
    slowest_ratio = None
    for text in POOLS:
        pool = tuple(parse_pool(text))
        ours = per_call(ours_cold(pool), repeats, batch)
        line = f"{text:<34} {ours:>6.1f} us"
        if peers:
            pool_sum, plus = icepool_routes(pool)
            few = max(3, batch // 20)
            by_sum, by_plus = per_call(pool_sum, repeats, few), per_call(plus, repeats, few)
            ratio = min(by_sum, by_plus) / ours
            numpy_time = per_call(numpy_convolution(pool), repeats, batch)
            slowest_ratio = ratio if slowest_ratio is None else min(slowest_ratio, ratio)
            line += (f" {by_sum:>9.1f} us {by_plus:>8.1f} us {ratio:>8.1f}x {numpy_time:>6.1f} us"
                     f" {ours / numpy_time:>9.2f}x")
        print(line)
    hit_pool = tuple(parse_pool("6DBlack"))
    dice.counts(hit_pool)
    hit = per_call(lambda: dice.counts(hit_pool), repeats, batch * 50)
    print(f"cache hit (6DBlack): {hit:.2f} us (aim: under 2 us)")
    if slowest_ratio is not None:
        print(f"slowest pool against icepool's faster route: {slowest_ratio:.1f}x faster (aim: 10x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
