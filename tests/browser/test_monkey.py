"""The monkey's short run (issue 25.4): random taps on a phone, a tablet, a desktop and the shared
screen (a TV), every ruleset played on one of them (a random matching, by the seed), the client's
10 s method timeout waited out once between bursts.  Fails on a session crash or a traceback in the
server's output, the client's "Error running app", or a screen left with nothing to tap.

The seed is printed; `MONKEY_SEED=N` replays a failure (every burst in full: the short run cuts
a screen's bursts after PAIR_SECONDS).  Long runs: `python benchmarks/monkey.py
--minutes N` (the same code: monkey_core.py)."""

from __future__ import annotations

import os
import random

import pytest

from .monkey_core import Figures, make_games, new_seed, play, start_server
from .test_sharing import network_address

pytestmark = pytest.mark.browser

TAPS = 12  # taps in a burst
BURSTS = 2  # bursts on each screen
PAIR_SECONDS = 18  # of tapping on each screen at most: about 2 minutes in all on a loaded 2-core machine


def test_a_monkey_on_four_screens_and_every_ruleset(tmp_path, browser):
    seed = new_seed()
    print(f"monkey seed {seed}: MONKEY_SEED={seed} replays this run")
    games = make_games(tmp_path / "data")
    server = start_server(tmp_path / "data")
    lan = network_address()
    figures = Figures()
    try:
        play(browser, server, games, seed, figures, taps=TAPS, bursts=BURSTS,
             wait_pairs={random.Random(seed).randrange(4)},
             pair_seconds=None if os.environ.get("MONKEY_SEED") else PAIR_SECONDS,  # a replay: every tap
             lan=server.lan_url if lan else None)
    finally:
        server.stop()
        print(f"monkey seed {seed}: {figures.line()}")
    assert figures.taps >= 4 * BURSTS and figures.waits == 1 and not figures.crashes
    assert len(figures.screens) >= 4  # each screen at least


def test_the_monkey_counts_a_dialog_without_a_button_as_a_crash(tmp_path, browser, server):
    """Issue 35: a dialog shown with no button (a "Not possible" on a phone had none) is a finding.
    A real dialog (the theme choice) passes; one without a button, put on the page as the Flutter
    client puts a dialog (a semantics node of role alertdialog), fails the check, named."""
    from .conftest import PHONE, open_app, tap_until
    from .monkey_core import Monkey, MonkeyFailure, ServerLog

    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    open_app(page, server.url)
    figures = Figures()
    monkey = Monkey(page, random.Random(1), ServerLog(server.log), figures, "phone test", 1)
    tap_until(page, "theme", "theme-dialog")
    assert monkey.buttonless() == [] and monkey.check()
    page.evaluate("""() => { const d = document.createElement('flt-semantics');
        d.setAttribute('role', 'alertdialog'); d.setAttribute('aria-label', 'Not possible');
        d.textContent = 'Only the host may do that.'; document.body.appendChild(d); }""")
    assert monkey.buttonless() == ["Not possible"]
    with pytest.raises(MonkeyFailure, match="a dialog without a button: 'Not possible'"):
        monkey.check()
    assert figures.crashes == ["a dialog without a button: 'Not possible'"]
    page.context.close()
