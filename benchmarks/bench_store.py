"""Time to save one action when the game already holds 100, 1,000 and 10,000, for a
Quick-Start game and a War Fleet battle (the shipped 20 against 20): both rulesets
are saved by the same store, one log of actions.

For each ruleset and size a game is built on disk (TinyDB store in a temporary folder)
with that many log entries, opened afresh (snapshot plus replay), and then
200 more actions of a random legal game are played into it (War Fleet: chosen
among the ruleset's own possible options).  Reported per
action: the median and the slowest 5% of `game.act` (rules engine + save),
the save alone (the durable write of the log entry), the largest save (the
one that closes a segment and writes a snapshot), and the time to open.

For comparison, the last column inserts one document into a single plain
TinyDB file (its JSONStorage, no fsync) that already holds that many
documents: the cost that grows with the game, which the log segments avoid.

Run: `python benchmarks/bench_store.py` (about a minute; `--quick`: 100 actions held, 20 timed, for
the suite's smoke test).
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from tinydb import TinyDB  # noqa: E402

from companion.engine.quick_start.game import apply  # noqa: E402
from companion.engine.roller import Roller  # noqa: E402
from companion.engine.registry import find_ruleset  # noqa: E402
from companion.files import load_catalogue, read_json, shipped_fleets_dir  # noqa: E402
from companion.store import TinyDBStore  # noqa: E402
from companion.store.game import LogEntry  # noqa: E402
from companion.store.repository import GameRecord  # noqa: E402
from random_games import next_action, starting_state  # noqa: E402

SIZES = (100, 1_000, 10_000)
TIMED = 200
MARKS = [("hertfordshire", "bow", 2), ("raven", "stern", 3), ("pontbriand", "port", 1), ("pelletier", "bow", 4)]


class QuickStart:
    """A Quick-Start game: slots marked and cleared by hand (any phase allows it)."""

    ruleset = find_ruleset("quick-start")

    def initial(self):
        return starting_state(1).model_copy(update={"roller": Roller(seed="5e" * 32)})

    def marking(self, index: int) -> dict:
        ship, location, slot = MARKS[index % len(MARKS)]
        status = "destroyed_this_turn" if (index // len(MARKS)) % 2 == 0 else "live"
        return {"kind": "mark_slot", "ship": ship, "location": location, "slot": slot, "status": status}

    def next_action(self, state, rng: random.Random) -> dict:
        return next_action(state, rng) or self.marking(0)


class WarFleet:
    """The shipped War Fleet battle: locations marked and repaired by hand (any phase allows it)."""

    ruleset = find_ruleset("war-fleet")

    def initial(self):
        scenario = self.ruleset.load_scenario(read_json(shipped_fleets_dir() / "war-fleet-20v20.json"))
        return self.ruleset.build_state(scenario, load_catalogue(), Roller(seed="5e" * 32))

    def marking(self, index: int) -> dict:
        ship, location = [("hml-leviathan", "bow"), ("hml-leviathan", "stern")][index % 2]
        status = "destroyed" if (index // 2) % 2 == 0 else "live"
        return {"kind": "mark_location", "ship": ship, "location": location, "status": status}

    def next_action(self, state, rng: random.Random) -> dict:
        possible = [o.action for o in self.ruleset.options(state) if o.possible]
        return rng.choice(possible) if possible else self.marking(0)


def history(case, count: int):
    """`count` legal log entries of hand markings."""
    initial = case.initial()
    state, entries = initial, []
    for index in range(count):
        action = case.marking(index)
        outcome = case.ruleset.apply(state, action)
        state = outcome.state
        entries.append(LogEntry(index, "action", action, [e.model_dump(mode="json") for e in outcome.events], time.time()))
    return initial, entries, state


def measure(case, size: int, folder: Path) -> dict[str, float]:
    initial, entries, state = history(case, size)
    store = TinyDBStore(folder)
    record = GameRecord("bench", "benchmark", time.time(), initial.roller.commitment, initial, case.ruleset.id)
    store.repository.create(record, entries, (size, state))
    store.close()

    started = time.perf_counter()
    store = TinyDBStore(folder)
    game = store.game("bench")
    opened = time.perf_counter() - started

    sink = game._sink
    saves: list[float] = []
    real_append = sink.append

    def timed_append(entry, state):
        t = time.perf_counter()
        real_append(entry, state)
        saves.append(time.perf_counter() - t)

    sink.append = timed_append
    rng = random.Random(size)
    acts: list[float] = []
    while len(acts) < TIMED:
        action = case.next_action(game.state, rng)
        t = time.perf_counter()
        assert game.act(action).ok
        acts.append(time.perf_counter() - t)
    store.close()
    return {"act": statistics.median(acts), "act95": _p95(acts), "save": statistics.median(saves),
            "save95": _p95(saves), "savemax": max(saves), "open": opened}


def plain_tinydb(size: int, folder: Path) -> float:
    """One insert into a single TinyDB JSON file that holds `size` log entries already."""
    _, entries, _ = history(QuickStart(), min(size, 100))
    docs = [entries[i % len(entries)].to_doc() | {"index": i} for i in range(size)]
    db = TinyDB(folder / "plain.json")
    db.insert_multiple(docs)
    times = []
    for i in range(20):
        t = time.perf_counter()
        db.insert(docs[i])
        times.append(time.perf_counter() - t)
    db.close()
    return statistics.median(times)


def _p95(values: list[float]) -> float:
    return sorted(values)[int(0.95 * (len(values) - 1))]


def main() -> None:
    global TIMED
    quick = "--quick" in sys.argv[1:]
    if quick:
        TIMED = 20
    for case in (QuickStart(), WarFleet()):
        rows = []
        for size in SIZES[:1] if quick else SIZES:
            with tempfile.TemporaryDirectory() as tmp:
                result = measure(case, size, Path(tmp) / "store")
                result["plain"] = plain_tinydb(size, Path(tmp))
            rows.append((size, result))
        report(case.ruleset.name, rows)


def report(name: str, rows) -> None:
    ms = lambda seconds: f"{seconds * 1000:.2f}"  # noqa: E731
    print(f"\n{name}: saving one action (ms), {TIMED} actions timed per size; segments of 100 entries")
    print(f"{'actions held':>12} | {'act median':>10} | {'act p95':>7} | {'save median':>11} | {'save p95':>8} "
          f"| {'save max':>8} | {'open game':>9} | {'one plain TinyDB file':>21}")
    print("-" * 114)
    for size, r in rows:
        print(f"{size:>12,} | {ms(r['act']):>10} | {ms(r['act95']):>7} | {ms(r['save']):>11} | {ms(r['save95']):>8} "
              f"| {ms(r['savemax']):>8} | {ms(r['open']):>9} | {ms(r['plain']):>21}")


if __name__ == "__main__":
    main()
