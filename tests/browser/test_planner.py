"""The movement planner in a real browser (issue 17, "Done when"): plan the Raven's move by tapping
an end hex, see the path and the shots it opens, move there, and undo it in one step.

The same position is played alongside through the engine with the server's dice seed, so the
path, the guns' targets and their odds the browser must show are the planner model's own.
"""

from __future__ import annotations

import re

import pytest

from .conftest import DESKTOP, PHONE, by_id, open_app, Server, settle, tap_until
from .test_e2e import (RAVEN, SEED, end_move_of, shoot, small_targets, text_of, wait_banner, wait_for_text,
                       wait_note)

pytestmark = pytest.mark.browser

END, FACING = "1913", "NW"  # the Raven's bow two hexes on and a turn to port: both enemies in its starboard arc


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path / "data", seed=SEED).start()
    yield srv
    srv.stop()


def plan_in_engine():
    """The position when the Raven is to move, the ships before it, and the planner's view of END."""
    from companion.app import banners
    from companion.app.planner_model import plan_view
    from companion.app.rulesets.quick_start.planner_guns import guns_from
    from companion.app.setup import build_setup, quick_start_picks
    from companion.engine.quick_start import actions as A
    from companion.engine.quick_start.game import apply
    from companion.files import load_catalogue

    state = build_setup(quick_start_picks(), load_catalogue(), seed=SEED)
    state = apply(state, A.StartGame()).state
    state = apply(state, A.RollInitiative()).state
    before = []
    while banners.banner(state).next_ships[0] != RAVEN:
        before.append(banners.banner(state).next_ships[0])
        state = apply(state, A.EndMove(ship=before[-1])).state
    cell = state.board.parse(END)
    view = plan_view(state, RAVEN, cell, f"plan-face-{FACING}", guns=guns_from)
    assert view is not None and view.guns and view.problem is None
    moved = apply(state, view.action)
    assert moved.ok
    return state, before, cell, view, moved.state


def hex_point(page, state, cell):
    """Where a hex is on screen once the map is centred on the Raven (Centre: scale 1, its bow hex in
    the middle of the map below the note's room)."""
    from companion.app.geometry import HexLayout
    from companion.app.views.hexmap import NOTE_ROOM

    layout = HexLayout(state.board)
    box = by_id(page, "map").bounding_box()
    bx, by = layout.centre(state.ship(RAVEN).bow)
    tx, ty = layout.centre(cell)
    return box["x"] + box["width"] / 2 + tx - bx, box["y"] + (box["height"] + NOTE_ROOM) / 2 + ty - by


def test_plan_a_move_by_tapping_an_end_hex_move_there_and_undo_in_one_step(server, browser):
    state, before, cell, view, moved = plan_in_engine()
    raven = state.ship(RAVEN)
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    open_app(page, server.url)
    by_id(page, "quick-start").wait_for(timeout=15000)
    by_id(page, "quick-start").click()
    wait_banner(page, "Deployment")
    by_id(page, "start-game").click()
    wait_banner(page, "Initiative")
    by_id(page, "roll-initiative").click()
    wait_banner(page, "Movement")
    for ship in before:
        end_move_of(page, ship)
    by_id(page, f"next-{RAVEN}").click()
    page.wait_for_function(f"() => location.href.includes('{RAVEN}')", timeout=10000)

    # Plan: every end hex shaded by its MP, a legend of the bands; the map centred on the Raven
    tap_until(page, "plan-toggle", "plan")
    wait_for_text(lambda: text_of(by_id(page, "plan")), "tap one", "the plan panel")
    by_id(page, "centre").click()
    settle(page)  # the map has moved to its centre
    page.mouse.move(1, 1)  # no hover tooltip in the picture
    shoot(page, "planner-shades-desktop")

    # tap the end hex: its facings; pick NW: the path and each gun's targets with the odds
    x, y = hex_point(page, state, cell)
    for _ in range(5):
        page.mouse.click(x, y)
        try:
            wait_for_text(lambda: text_of(by_id(page, "plan")), f"End at {END}", "the plan panel", timeout=5)
            break
        except AssertionError:
            continue
    tap_until(page, f"plan-face-{FACING}", "plan-guns")
    heading = f"End at {END} facing {FACING}: {view.mp_cost} MP"
    wait_for_text(lambda: text_of(by_id(page, "plan")), re.escape(heading), "the plan panel")
    path = text_of(by_id(page, "plan-path"))
    assert "Path: " + ", ".join(view.steps) in path
    guns = text_of(by_id(page, "plan-guns"))
    for gun in view.guns:
        assert gun.gun in guns
        for target in gun.targets:
            assert f"{target.name} ({target.summary}): {target.odds}" in guns, (target, guns)
    page.mouse.move(1, 1)
    shoot(page, "planner-path-desktop")

    # Move there: one action; the Raven ends where the plan said, with the MP it said
    by_id(page, "plan-move-there").click()
    after = moved.ship(RAVEN)
    wait_for_text(lambda: text_of(by_id(page, "mp-left")), re.escape(f"{after.mp_left}/{after.movement_points} MP"),
                  "the MP left")
    assert after.mp_spent - raven.mp_spent == view.mp_cost
    wait_note(page, re.escape(moved.ship(RAVEN).describe_position(moved.board)) + "|MP left")
    shoot(page, "planner-moved-desktop")

    # one Undo takes the whole path back
    by_id(page, "undo").click()
    wait_note(page, "Undone: HML Raven moves along its planned path")
    wait_for_text(lambda: text_of(by_id(page, "mp-left")), re.escape(f"{raven.mp_left}/{raven.movement_points} MP"),
                  "the MP left after one undo")
    shoot(page, "planner-undone-desktop")
    game = page.url.split("?")[0]
    context.close()

    # the same plan on a phone: the strip over the map holds the plan, every button at least 48 px
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = phone.new_page()
    open_app(page, f"{game}?ship={RAVEN}&tab=map")
    tap_until(page, "plan-toggle", "plan")
    by_id(page, "centre").click()
    settle(page)  # the map has moved to its centre
    x, y = hex_point(page, state, cell)
    for _ in range(5):
        page.mouse.click(x, y)
        try:
            wait_for_text(lambda: text_of(by_id(page, "plan")), f"End at {END}", "the plan panel", timeout=5)
            break
        except AssertionError:
            continue
    tap_until(page, f"plan-face-{FACING}", "plan-guns")
    wait_for_text(lambda: text_of(by_id(page, "plan")), re.escape(heading), "the plan panel on a phone")
    shoot(page, "planner-path-phone")
    assert small_targets(page) == []
    phone.close()


# --- War Fleet: the same planner on the 20-against-20 battle ------------------------------------------


@pytest.fixture
def wf_server(tmp_path):
    srv = Server(tmp_path / "data", seed="3").start()  # the seed of test_warfleet.py: the Leviathan moves first
    yield srv
    srv.stop()


def test_war_fleet_plan_move_there_and_undo(wf_server, browser):
    from companion.app.rulesets.war_fleet import model as M
    from companion.app.planner_model import plan_view
    from companion.app.rulesets.war_fleet.planner_guns import guns_from as war_fleet_guns
    from companion.files import load_catalogue, shipped_fleets_dir

    state = M.twenty_against_twenty(load_catalogue(), shipped_fleets_dir(), "3")
    cell = state.board.parse("1207")
    view = plan_view(state, "hml-leviathan", cell, "plan-face-NE", guns=war_fleet_guns)
    assert view.guns  # the screen must show these
    assert view.steps == ("turn to starboard", "forward", "forward") and view.mp_cost == 3
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    open_app(page, wf_server.url)
    by_id(page, "war-fleet").wait_for(timeout=15000)
    by_id(page, "war-fleet").click()
    by_id(page, "wf-start-20v20").wait_for(timeout=15000)
    by_id(page, "wf-start-20v20").click()
    by_id(page, "wf-roll-initiative").wait_for(timeout=30000)
    by_id(page, "wf-roll-initiative").click()
    tap_until(page, "wf-ship-hml-leviathan", "wf-plan-toggle")
    tap_until(page, "wf-plan-toggle", "wf-plan")
    by_id(page, "centre").click()
    settle(page)  # the map has moved to its centre
    box = by_id(page, "map").bounding_box()
    from companion.app.geometry import HexLayout
    from companion.app.views.hexmap import NOTE_ROOM

    layout = HexLayout(state.board)
    (bx, by), (tx, ty) = layout.centre(state.ship("hml-leviathan").hex), layout.centre(cell)
    x, y = box["x"] + box["width"] / 2 + tx - bx, box["y"] + (box["height"] + NOTE_ROOM) / 2 + ty - by
    for _ in range(5):
        page.mouse.click(x, y)
        try:
            wait_for_text(lambda: text_of(by_id(page, "wf-plan")), "End at 1207", "the plan panel", timeout=5)
            break
        except AssertionError:
            continue
    tap_until(page, "wf-plan-face-NE", "wf-plan-guns")
    wait_for_text(lambda: text_of(by_id(page, "wf-plan")), re.escape("End at 1207 facing NE: 3 MP"), "the plan panel")
    assert "Path: turn to starboard, forward, forward" in text_of(by_id(page, "wf-plan-path"))
    guns = text_of(by_id(page, "wf-plan-guns"))
    for gun in view.guns:
        for target in gun.targets:
            assert f"{target.name} ({target.summary}): {target.odds}" in guns, (target, guns)
    page.mouse.move(1, 1)
    shoot(page, "planner-warfleet-desktop")
    by_id(page, "wf-plan-move-there").click()
    wait_for_text(lambda: text_of(by_id(page, "wf-selected")), re.escape("1207 facing NE · MP 1 of 4"), "the ship")
    by_id(page, "wf-undo").click()
    wait_for_text(lambda: text_of(by_id(page, "wf-selected")), re.escape("1008 facing N · MP 4 of 4"),
                  "the ship after one undo")
    context.close()
