"""The monkey for long runs (issue 25.4): random taps on a phone (390x844), a tablet (820x1180), a
desktop (1280x800) and the shared screen (a 1920x1080 TV), every ruleset (Quick-Start, Quick-Start
with house rules H1-H3, War Fleet, Decisive Victory), in rounds until the time is up; between
bursts every screen waits out the Flet client's 10 s method timeout and is looked at again.

Prints the seed (MONKEY_SEED=N replays a run) and the figures: taps, screens reached (a screen: the
address and its set of tagged controls), timeout waits and crashes (a session crash or traceback
in the server's output, "Error running app", a dialog without a button (issue 35), or a screen
with nothing to tap).  Exit code 1 on a crash.  The same code as the test suite's short run (tests/browser/monkey_core.py).

Run: `python benchmarks/monkey.py --minutes 30`, or `--quick` (a few seconds: the smoke test).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # as pytest sees them: tests/browser is the package `browser`

from browser.conftest import ARGS, CHROMIUM  # noqa: E402
from browser.monkey_core import RULESETS, SCREENS, Figures, MonkeyFailure, make_games, new_seed, play, start_server  # noqa: E402
from browser.test_sharing import network_address  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0, help="how long to run (default 5)")
    parser.add_argument("--quick", action="store_true", help="a few seconds: one screen, a few taps (smoke test)")
    parser.add_argument("--taps", type=int, default=25, help="taps in a burst (default 25)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    seed = new_seed()
    print(f"monkey seed {seed}: MONKEY_SEED={seed} replays this run", flush=True)
    figures, started, found = Figures(), time.monotonic(), ""
    stop_at = started + args.minutes * 60
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        games = make_games(Path(tmp) / "data")
        server = start_server(Path(tmp) / "data")
        lan = server.lan_url if network_address() else None
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        rounds = 0
        try:
            if args.quick:
                play(browser, server, games, seed, figures, taps=5, bursts=1, pairs=[("desktop", "quick-start")],
                     lan=lan, say=say)
            while not args.quick and time.monotonic() < stop_at:
                # each round: every screen and every ruleset (a random matching), a fresh seed from the first
                round_seed = random.Random(seed * 1000 + rounds).randrange(1, 10**9)
                print(f"round {rounds + 1} (round seed {round_seed})", flush=True)
                play(browser, server, games, round_seed, figures, taps=args.taps, bursts=3, lan=lan, say=say,
                     stop_at=stop_at, keep_going=True)
                rounds += 1
        except MonkeyFailure as exc:
            found = str(exc)
        finally:
            browser.close()
            server.stop()
    minutes = (time.monotonic() - started) / 60
    print(f"\nmonkey: {minutes:.1f} min, {rounds} rounds of {len(SCREENS)} screens x {len(RULESETS)} rulesets")
    print(f"  {figures.line()}")
    print(f"  load average at the end {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for finding in ([found] if found else []) + figures.found:
        print("\nFOUND:\n" + finding)
    return 1 if figures.crashes else 0


def say(line: str) -> None:
    print(line, flush=True)


if __name__ == "__main__":
    sys.exit(main())
