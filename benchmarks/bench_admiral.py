"""The admiral's strength and speed (issue 38).

Strength: the tournament, `companion duel`'s games (engine/admiral/duel.py),
N games per pairing with the sides swapped every other game, on the
Quick-Start scenario (fleets/duel-quick-start.json) and a 10-ship War Fleet
battle (fleets/war-fleet-5v5.json); each pairing's wins, draws, mean turns and
the 95% Wilson interval of the first level's share of the decided games.

Speed: a whole side's turn (its moves, then its shots) at each level, on the
Quick-Start scenario, the 10-ship battle and the 40-ship board
(fleets/war-fleet-20v20.json): the median and the worst of every side's turn
of two seeded games (the 40-ship board: one game's first three turns).

Run: `python benchmarks/bench_admiral.py --strength --games 200` (long: hours
on a busy machine), `--speed`, or `--pairing admiral,scripted --scenario qs`;
`--out FILE` appends each pairing's JSON line as it finishes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.commands.common import scenario_state  # noqa: E402
from companion.engine.admiral import orders  # noqa: E402
from companion.engine.admiral.duel import seeded, tournament  # noqa: E402
from companion.engine.kernel import Refused  # noqa: E402

SCENARIOS = {"qs": ROOT / "fleets" / "duel-quick-start.json", "wf10": ROOT / "fleets" / "war-fleet-5v5.json",
             "wf40": ROOT / "fleets" / "war-fleet-20v20.json"}
PAIRINGS = ("admiral,scripted", "admiral,greedy", "captain,scripted", "cadet,scripted")


def load(name: str) -> tuple[Any, Any, str]:
    ruleset, loaded, state = scenario_state(str(SCENARIOS[name]), [], "not a scenario", to_play=True)
    return ruleset, state, loaded.name


def strength(name: str, pairing: str, games: int, seed: str) -> dict[str, Any]:
    ruleset, state, title = load(name)
    started = time.perf_counter()
    first, second = pairing.split(",")

    def progress(number: int, result: Any) -> None:  # one line a game on stderr, to follow a long run
        print(f"{name} {pairing} game {number}: {result.winner or 'draw'} in {result.turns} turns, "
              f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)

    tally = tournament(ruleset, lambda s: seeded(state, s), (first, second), games, seed, progress=progress)
    return {"scenario": name, "pairing": pairing, **tally.as_json(),
            "seconds": round(time.perf_counter() - started, 1)}


def side_turns(name: str, level: str, games: int = 2, turns: int = 12) -> list[float]:
    """Seconds for each side's whole turn (its moves, then its shots) in a few seeded games."""
    ruleset, start, _ = load(name)
    kit = ruleset.admiral
    times: list[float] = []
    for number in range(games):
        state = seeded(start, f"speed:{number}")
        spent: dict[tuple[int, str], float] = {}
        while state.turn <= turns and state.phase != "over":
            acted = False
            for side in state.sides:
                began = time.perf_counter()
                found = orders(ruleset, state, side, level, str(number))
                spent[state.turn, side] = spent.get((state.turn, side), 0.0) + time.perf_counter() - began
                for order in found:
                    state = ruleset.apply(state, order.action).state
                    acted = True
            if not acted:
                steps = [c for c in ruleset.candidates(state, None)
                         if c.get("kind") in kit.rolls or c.get("kind") in kit.table_steps]
                steps.sort(key=lambda c: c["kind"] not in kit.rolls)
                step = next(s for s in steps if not isinstance(ruleset.apply(state, s), Refused))
                state = ruleset.apply(state, step).state
        times += spent.values()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--strength", action="store_true")
    parser.add_argument("--speed", action="store_true")
    parser.add_argument("--pairing", action="append", help="LEVEL,LEVEL (default: the four pairings)")
    parser.add_argument("--scenario", action="append", choices=["qs", "wf10"], help="default: both")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--out", help="append each result's JSON line to this file")
    args = parser.parse_args()
    if args.speed:
        for name in ("qs", "wf10", "wf40"):
            for level in ("scripted", "greedy", "cadet", "captain", "admiral"):
                times = side_turns(name, level, 2 if name != "wf40" else 1, 12 if name != "wf40" else 3)
                print(f"{name:5} {level:9} a side's turn: median {statistics.median(times):.2f} s, "
                      f"worst {max(times):.2f} s", flush=True)
    if args.strength or args.pairing:
        for name in args.scenario or ["qs", "wf10"]:
            for pairing in args.pairing or PAIRINGS:
                result = strength(name, pairing, args.games, args.seed)
                line = json.dumps(result)
                print(line, flush=True)
                if args.out:
                    with open(args.out, "a") as out:
                        out.write(line + "\n")


if __name__ == "__main__":
    main()
