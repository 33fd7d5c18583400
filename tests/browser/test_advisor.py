"""The shot advisor on the fire tab (issue 17), in a real browser: each gun's options ranked
with the Best mark and the four figures, the fire plan's figure for a target (the Raven's
guns, then its whole side), and Declare all; on a desktop and on a 390 px phone.

The game is the Quick-Start set-up played to the fire phase through the engine; every
figure the page must show is the advice model's, computed here."""

from __future__ import annotations

import time

import pytest

from companion.engine.roller import Roller
from companion.store import TinyDBStore

from .conftest import DESKTOP, PHONE, SCREENSHOTS, SEED, by_id, open_app, Server, settle, shoot, tap_until, words_in

pytestmark = pytest.mark.browser

RAVEN = "hml-raven"


def fire_phase():
    """The Quick-Start battle at its first fire phase, the Raven two hexes on and turned to port."""
    from companion.app import banners
    from companion.app.setup import build_setup, quick_start_picks
    from companion.engine.quick_start import actions as A
    from companion.engine.quick_start.game import apply
    from companion.files import load_catalogue

    def act(state, action):
        outcome = apply(state, action)
        assert outcome.ok, outcome.reason
        return outcome.state

    state = act(build_setup(quick_start_picks(), load_catalogue(), seed=SEED), A.StartGame())
    state = act(state, A.RollInitiative())
    while state.phase == "movement":
        ship = banners.banner(state).next_ships[0]
        if ship == RAVEN:
            for step in ("forward", "forward", "port"):
                state = act(state, A.Step(ship=ship, step=step))
        state = act(state, A.EndMove(ship=ship))
    assert state.phase == "combat"
    return state


def into_view(page, ident: str, x: float, tries: int = 24) -> None:
    """Scroll the panel (a wheel at `x`) until the control is drawn and wholly in view: Flutter
    leaves a control scrolled out of its list out of the page."""
    view = page.viewport_size
    for _ in range(tries):
        node = by_id(page, ident)
        box = node.first.bounding_box() if node.count() else None
        if box is not None and box["y"] >= 0 and box["y"] + box["height"] <= view["height"]:
            return
        page.mouse.move(x, view["height"] / 2)
        step = 300 if box is None else box["y"] + box["height"] / 2 - view["height"] / 2
        page.mouse.wheel(0, step)
        settle(page, quiet_ms=150)
    raise AssertionError(f"{ident} never scrolled into view")


#: Installed in a page: every wording a node (by identifier) takes, in order, in `window.__said`
#: (the quick plan may show for less than a poll: the full plan replaces it as soon as it is worked out).
RECORD = """ident => {
  window.__said = [];
  const look = () => {
    for (const e of document.querySelectorAll(`[flt-semantics-identifier='${ident}']`)) {
      const words = [e, ...e.querySelectorAll('*')].map(n => (n.getAttribute('aria-label') || '') + ' '
        + (n.childElementCount ? '' : n.textContent)).join(' ');
      if (window.__said[window.__said.length - 1] !== words) window.__said.push(words);
    }
  };
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
  look();
}"""


def wait_words(page, ident: str, words: str, timeout: float = 30) -> str:
    deadline = time.monotonic() + timeout
    seen = ""
    while time.monotonic() < deadline:
        node = by_id(page, ident)
        if node.count():
            seen = words_in(node.first)
            if words in seen:
                return seen
        time.sleep(0.2)
    raise AssertionError(f"{ident} never said {words!r} (it said {seen!r})")


def expected(state):
    from companion.app.rulesets.quick_start.advice_model import advisor_view

    ship = advisor_view(state, RAVEN, "ship")
    side = advisor_view(state, RAVEN, "side")
    gun = next(g for g in ship.guns if len(g.options) > 1 and g.options[0].best)
    return ship, side, gun


@pytest.mark.parametrize("viewport,name", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_advisor_ranks_marks_the_best_and_plans(tmp_path, browser, viewport, name):
    state = fire_phase()
    ship, side, gun = expected(state)
    target = ship.plan.targets[0]
    side_target = next(t for t in side.plan.targets if t.target == target.target)
    assert side_target.destroyed != target.destroyed, "the side's plan must read differently from the ship's"
    store = TinyDBStore(tmp_path / "data")
    game = store.new_game(state, "the advisor", roller=Roller.from_seed(SEED))
    store.close()
    server = Server(tmp_path / "data").start()
    try:
        context = browser.new_context(viewport=viewport, has_touch=name == "phone")
        page = context.new_page()
        open_app(page, f"{server.url}game/{game.id}?ship={RAVEN}&tab=fire")
        by_id(page, "fire").wait_for(timeout=30000)
        x = viewport["width"] - 200 if name == "desktop" else viewport["width"] / 2

        # the ranking: the best option first, marked, with its four figures
        into_view(page, f"best-{gun.ident}", x)
        best, second = gun.options[0], gun.options[1]
        said = words_in(by_id(page, f"option-{best.ident}"))
        assert f"1. Best: {best.target_name} {best.where}: {best.figures}" in said, said
        said = words_in(by_id(page, f"option-{second.ident}"))
        assert f"2. {second.target_name} {second.where}: {second.figures}" in said and "Best" not in said, said
        shoot(page, f"advisor-ranking-{name}")

        # the plan of the Raven's guns: the chance of destroying the target, exact
        into_view(page, f"plan-destroyed-{target.target}", x)
        wait_words(page, f"plan-destroyed-{target.target}", f"destroyed {target.destroyed}")
        assert target.how.startswith("exact")
        into_view(page, f"plan-target-{target.target}", x)
        wait_words(page, f"plan-target-{target.target}", target.how)
        shoot(page, f"advisor-plan-{name}")

        # the whole side's plan, then every planned shot declared in one tap
        into_view(page, "plan-scope-side", x)
        by_id(page, "plan-scope-side").click()
        into_view(page, f"plan-destroyed-{target.target}", x)
        wait_words(page, f"plan-destroyed-{target.target}", f"destroyed {side_target.destroyed}")
        shoot(page, f"advisor-side-{name}")
        if name == "phone":  # nothing of the advisor runs past the phone's edge
            wide = [words_in(n)[:40] for n in page.locator("[flt-semantics-identifier^='plan'],"
                                                           "[flt-semantics-identifier^='option-']").all()
                    if (b := n.bounding_box()) and b["width"] and b["x"] + b["width"] > PHONE["width"] + 1]
            assert wide == [], wide
        into_view(page, "plan-declare-all", x)
        tap_until(page, "plan-declare-all", f"roll-{len(side.plan.to_declare)}")
        context.close()
    finally:
        server.stop()


def test_a_sampled_plan_states_its_error_then_the_full_plan_follows(tmp_path, browser):
    """Twelve guns of a side at one target (test_advice_model.two_batteries): the first plan
    samples QUICK_RUNS runs and says so with its error; the full plan (exact: 1586 merged cards),
    worked out in the background, replaces it."""
    from companion.app.rulesets.quick_start.advice_model import PlanCache, advisor_view
    from companion.app.rulesets.quick_start.advisor import QUICK_RUNS
    from test_advice_model import two_batteries

    state = two_batteries()
    quick = advisor_view(state, "a", "side", cache=PlanCache(), quick=QUICK_RUNS).plan.targets[0]
    full = advisor_view(state, "a", "side").plan.targets[0]
    assert quick.destroyed.startswith("sampled: ") and full.how == "exact: 1586 outcomes combined"
    store = TinyDBStore(tmp_path / "data")
    game = store.new_game(state, "a sampled plan", roller=Roller.from_seed(SEED))
    store.close()
    server = Server(tmp_path / "data").start()
    try:
        page = browser.new_page(viewport=DESKTOP)
        open_app(page, f"{server.url}game/{game.id}?ship=a&tab=fire")
        by_id(page, "fire").wait_for(timeout=30000)
        x = DESKTOP["width"] - 200
        into_view(page, "plan-scope-side", x)
        page.evaluate(RECORD, "plan-destroyed-t")  # every wording the figure takes, however briefly shown
        by_id(page, "plan-scope-side").click()
        wait_words(page, "plan-target-t", full.how, timeout=90)
        said = page.evaluate("() => window.__said")
        sampled = next((n for n, words in enumerate(said) if f"destroyed · {quick.destroyed}" in words), None)
        assert sampled is not None and " ± " in said[sampled], said  # the quick plan first, its error stated
        assert any(f"destroyed {full.destroyed}" in words for words in said[sampled + 1:]), said  # then the full
        wait_words(page, "plan-destroyed-t", f"destroyed {full.destroyed}")
        assert by_id(page, "plan-refining").count() == 0
        shoot(page, "advisor-sampled-then-exact-desktop")
        page.close()
    finally:
        server.stop()
