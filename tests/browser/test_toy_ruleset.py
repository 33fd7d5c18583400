"""A fifth ruleset in the browser with no shared file edited (issue 27): the server runs with the toy
tug of war (tests/toy_ruleset/) on its PYTHONPATH, registered by entry points alone.  Home shows the
toy's start tile; a game opens in the one game frame with the toy's body; a pull is taken through the
shared table and shown; /replay/<id> steps through it with the toy's drawer, and Play from here forks it; Home lists the
saved game in the toy's words.  The crash guard is on.
Screenshots: tests/screenshots/toy-*.png."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from .conftest import DESKTOP, Server, by_id, open_app, shoot, tap_until, words_in
from .test_editor import wait_text

pytestmark = pytest.mark.browser

TOY = Path(__file__).resolve().parents[1] / "toy_ruleset"


@pytest.fixture
def toy_server(tmp_path):
    srv = Server(tmp_path / "data")
    srv.extra_env = {"PYTHONPATH": os.pathsep.join(p for p in (str(TOY), os.environ.get("PYTHONPATH", "")) if p)}
    srv.start()
    yield srv
    srv.stop()


def test_the_toy_starts_from_home_plays_a_pull_and_replays(toy_server, browser):
    page = browser.new_context(viewport=DESKTOP).new_page()
    open_app(page, toy_server.url)
    by_id(page, "toy-tug").wait_for(timeout=60000)  # Home: the toy's start tile, beside the built-in ones
    shoot(page, "toy-home")
    tap_until(page, "toy-tug", "tug-rope", timeout=60)  # a new game, in the frame with the toy's body
    assert wait_text(page, "tug-ruleset", "Tug of war")  # the frame's top bar names the rules
    game_id = re.search(r"/game/([^/?#]+)", page.url).group(1)
    assert "Red ---|--- Blue" in wait_text(page, "tug-rope", "Red ---|--- Blue")  # the rope at the middle
    assert "No pulls yet." in wait_text(page, "tug-log", "No pulls yet.")
    by_id(page, "tug-pull-Red").click()  # once: a second pull would show as the rope at 2
    assert "Red pulls: the rope is at 1." in wait_text(page, "tug-log", "Red pulls", timeout=30)
    assert "Red --|---- Blue" in wait_text(page, "tug-rope", "Red --|---- Blue")
    shoot(page, "toy-game")
    open_app(page, f"{toy_server.url}replay/{game_id}")
    wait_text(page, "replay-count", "of 1", timeout=60)
    assert "Red ---|--- Blue" in wait_text(page, "replay-where", "Red ---|--- Blue")  # the start
    by_id(page, "replay-next").click()
    wait_text(page, "replay-count", "step 1 of 1", timeout=20)
    assert "Red --|---- Blue" in wait_text(page, "replay-where", "Red --|---- Blue", timeout=5)
    shoot(page, "toy-replay")
    tap_until(page, "replay-fork", "tug-rope", timeout=60)  # Play from here: a new toy game at that step
    fork_id = re.search(r"/game/([^/?#]+)", page.url).group(1)
    assert fork_id != game_id
    assert "Red --|---- Blue" in wait_text(page, "tug-rope", "Red --|---- Blue")
    assert "No pulls yet." in wait_text(page, "tug-log", "No pulls yet.")
    open_app(page, toy_server.url)  # Home lists both, in the toy's words
    by_id(page, "tug-resume-" + game_id).wait_for(timeout=60000)
    saved = words_in(by_id(page, "tug-resume-" + game_id).first)
    assert "Tug of war" in saved and "pulling" in saved, saved
    shoot(page, "toy-home-saved")
    page.context.close()
