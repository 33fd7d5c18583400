"""The logic behind the table app's screens, without a browser: banner, fire panel,
ship card, move panel, log, dice, set-up, routes and the hex layout."""

from __future__ import annotations

from fractions import Fraction

import pytest

from cards_for_tests import card, filler, gun, location, miss, other, position, ship

from companion.app import banners, geometry, panels, viewmodels as vm
from companion.app.session import Session, session_from_route
from companion.app.setup import SetupError, build_setup, quick_start_picks
from companion.engine.quick_start import actions as A
from companion.engine.board import Board
from companion.engine.quick_start.game import apply
from companion.engine.hexes import Hex
from companion.files import load_catalogue


def act(state, *actions):
    for action in actions:
        outcome = apply(state, action)
        assert outcome.ok, getattr(outcome, "reason", "")
        state = outcome.state
    return state


@pytest.fixture(scope="module")
def catalogue():
    return load_catalogue()


@pytest.fixture
def quick_start(catalogue):
    return build_setup(quick_start_picks(), catalogue, seed="3")


def play_to_movement(state):
    return act(state, A.StartGame(), A.RollInitiative())


def finish_movement(state):
    """Every ship ends its move where it stands, in the order the banner gives."""
    while state.phase == "movement":
        banner = banners.banner(state)
        state = act(state, A.EndMove(ship=banner.next_ships[0]))
    return state


# --- importing ----------------------------------------------------------------


def test_view_models_import_no_flet():
    import ast
    from pathlib import Path

    app = Path(vm.__file__).parent
    for module in ("viewmodels.py", "panels.py", "rulesets/quick_start/advice_model.py", "session.py", "geometry.py",
                   "setup.py", "roles.py", "devices.py",
                   "card_draft.py", "card_compare.py", "rulesets/war_fleet/card.py", "label_layout.py", "screenmodel.py"):
        tree = ast.parse((app / module).read_text())
        imported = {n.names[0].name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)}
        imported |= {(n.module or "").split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level == 0}
        assert "flet" not in imported, module


# --- set-up ---------------------------------------------------------------------


def test_quick_start_set_up_puts_the_four_ships_on_opposite_edges(quick_start):
    state = quick_start
    assert state.phase == "setup"
    assert state.sides == ["British", "French"]
    assert {s.id for s in state.ships} == {"hml-hertfordshire", "hml-raven", "pontbriand", "pelletier"}
    british = [s for s in state.ships if s.side == "British"]
    french = [s for s in state.ships if s.side == "French"]
    assert all(s.facing == 0 and s.bow.row == 15 for s in british)
    assert all(s.facing == 3 and s.bow.row == 5 for s in french)
    # every ship passes the engine's deployment check: placing it where it stands is accepted
    for s in state.ships:
        assert apply(state, A.Place(ship=s.id, bow=state.board.label(s.bow), facing=s.facing)).ok


def test_set_up_with_a_missing_card_says_which(catalogue):
    with pytest.raises(SetupError, match="no-such-ship"):
        build_setup([*quick_start_picks()[:3], quick_start_picks()[0].__class__("no-such-ship", "French")], catalogue)


def test_set_up_needs_two_sides(catalogue):
    with pytest.raises(SetupError, match="two sides"):
        build_setup(quick_start_picks()[:2], catalogue)


def test_set_up_without_a_seed_leaves_the_dice_to_the_store(catalogue):
    from companion.engine.quick_start.state import GameState

    assert build_setup(quick_start_picks(), catalogue).roller == GameState().roller


# --- banner ---------------------------------------------------------------------


def test_banner_in_deployment_offers_the_start(quick_start):
    b = banners.banner(quick_start)
    assert b.title == "Deployment" and b.actions == ("start_game",)


def test_banner_at_initiative_offers_dice(quick_start):
    b = banners.banner(act(quick_start, A.StartGame()))
    assert b.title == "Turn 1 · Initiative"
    assert "roll_initiative" in b.actions and "set_initiative" in b.actions


def test_banner_in_movement_names_the_type_2_ships_of_the_initiative_loser_first(quick_start):
    state = act(quick_start, A.StartGame(), A.SetInitiative(side="French"))
    b = banners.banner(state)
    assert b.title == "Turn 1 · Movement: British Type 2"
    assert b.next_ships == ("hml-hertfordshire",)
    assert "French has the initiative" in b.detail
    state = act(state, A.EndMove(ship="hml-hertfordshire"))
    assert banners.banner(state).next_ships == ("pontbriand",)
    state = act(state, A.EndMove(ship="pontbriand"))
    assert banners.banner(state).title == "Turn 1 · Movement: British Type 1"


def test_banner_in_combat_counts_declared_and_open_shots(quick_start):
    state = finish_movement(play_to_movement(quick_start))
    b = banners.banner(state)
    assert b.title == "Turn 1 · Fire" and "no shots declared yet" in b.detail
    state = act(state, A.DeclareShot(attacker="pontbriand", location="bow", slot=3, target="hml-hertfordshire",
                                     target_location="bow"))
    assert "1 shot declared, 1 to resolve" in banners.banner(state).detail
    assert banners.banner(state).actions == ("end_turn",)


# --- movement panel ------------------------------------------------------------------


def test_move_panel_gives_the_rules_reason_for_each_refused_step(quick_start):
    state = act(quick_start, A.StartGame(), A.SetInitiative(side="British"))
    state = act(state, A.EndMove(ship="pontbriand"), A.EndMove(ship="hml-hertfordshire"), A.EndMove(ship="pelletier"))
    panel = panels.move_panel(state, "hml-raven")
    assert panel.can_move and panel.mp_left == panel.mp
    reasons = {o.step: o.reason for o in panel.options}
    assert reasons["forward"] is None
    assert "must enter 1 hex before turning" in reasons["port"]
    state = act(state, A.Step(ship="hml-raven", step="forward"), A.Step(ship="hml-raven", step="port"))
    reasons = {o.step: o.reason for o in panels.move_panel(state, "hml-raven").options}
    assert "already turned in this hex" in reasons["starboard"]


def test_move_panel_says_whose_move_it_is(quick_start):
    state = act(quick_start, A.StartGame(), A.SetInitiative(side="French"))
    panel = panels.move_panel(state, "hml-raven")
    assert not panel.can_move
    assert "British's Type 2 ships move now" in panel.note
    assert all(o.reason for o in panel.options)


def test_bookkeeping_mode_offers_every_step(quick_start):
    state = act(quick_start, A.StartGame(), A.SetInitiative(side="French"), A.SetBookkeeping(on=True))
    panel = panels.move_panel(state, "hml-raven")
    assert panel.can_move and all(o.reason is None for o in panel.options)


# --- fire panel ---------------------------------------------------------------------------


def duel(**damage):
    """A Type 2 attacker facing north at 1010 and, six hexes ahead, a target that has not moved."""
    attacker = ship("a", "Red", card("attacker"), "1010", "N")
    target = ship("t", "Blue", card("target"), "1004", "S", damage=damage.get("damage"))
    return position(attacker, target)


def test_fire_panel_lists_every_gun_with_range_band_pool_and_exact_odds():
    state = duel()
    guns = panels.fire_panel(state, "a")
    bow = next(g for g in guns if g.location == "bow")
    target = bow.targets[0]
    assert (target.target, target.in_arc, target.range, target.band) == ("t", True, 6, "long")
    assert target.summary == "range 6, long"
    strike = target.strikes[0]
    assert strike.location == "bow"
    assert strike.pool == ("Green", "Red", "Red")  # long-range dice, then the unmoved target's stop dice
    total = sum((o.chance for o in strike.slots), Fraction(0)) + strike.keel + strike.no_effect
    assert total == 1
    assert strike.damage == 1 - strike.no_effect
    assert strike.damage_text.endswith("%")


def test_fire_panel_says_out_of_arc_and_out_of_range():
    state = duel()
    stern = next(g for g in panels.fire_panel(state, "a") if g.location == "stern")
    assert stern.targets[0].summary == "out of arc" and not stern.targets[0].strikes
    far = position(ship("a", "Red", card("attacker"), "1018", "N"), ship("t", "Blue", card("target"), "1002", "S"))
    bow = next(g for g in panels.fire_panel(far, "a") if g.location == "bow")
    assert bow.targets[0].summary == "range 16: out of range"


def test_fire_panel_marks_a_declared_gun_and_shot_views_show_its_dice():
    state = duel()
    state = act(state, A.DeclareShot(attacker="a", location="bow", slot=1, target="t", target_location="bow"))
    bow = next(g for g in panels.fire_panel(state, "a") if g.location == "bow")
    assert bow.fired and bow.targets[0].declared == 1
    shots = panels.shot_views(state)
    assert len(shots) == 1 and not shots[0].resolved
    state = act(state, A.ResolveShot(shot=1))
    shot = panels.shot_views(state)[0]
    assert shot.resolved and shot.result
    assert [c for c, _ in shot.dice][:3] == list(shot.pool)
    assert shot.dice[len(shot.pool)][0] == "D6"


def test_table_dice_fields_follow_the_pool_then_the_slot_die():
    state = act(duel(), A.DeclareShot(attacker="a", location="bow", slot=1, target="t", target_location="bow"))
    fields = panels.table_dice_fields(state, 1)
    assert [f.purpose for f in fields] == ["pool"] * (len(fields) - 1) + ["slot"]
    assert [f.label for f in fields] == ["DGreen", "DRed", "DRed", "Slot die"]


def test_a_face_the_die_does_not_carry_is_refused_in_words():
    state = act(duel(), A.DeclareShot(attacker="a", location="bow", slot=1, target="t", target_location="bow"))
    outcome = apply(state, A.ResolveShot(shot=1, table=A.TableFaces(pool=[9, 1, 1], slot=[1])))
    assert not outcome.ok and outcome.reason == "DGreen has no face 9: its faces are 1 to 4"


# --- ship card ---------------------------------------------------------------------------------


def test_card_view_shows_breach_numbers_with_armour_and_slot_states():
    from cards_for_tests import armor, crew, engine

    c = card("c", bow=location([gun(breach=11), crew(breach=12), armor(1, 13), engine(3, 12), miss(), other(12)]))
    s = ship("c", "Red", c, "1010", damage={("bow", 2): "destroyed_this_turn", ("bow", 4): "destroyed"})
    view = vm.card_view(position(s), "c")
    bow = view.locations[0]
    assert bow.name == "Bow"
    assert [sl.breach for sl in bow.slots] == [12, 13, 14, 13, None, 13]
    # issue 28: the card shows the number as printed, the live armour beside it
    assert [sl.breach_text for sl in bow.slots] == ["11 +1", "12 +1", "13 +1", "12 +1", "—", "12 +1"]
    assert [sl.status for sl in bow.slots][:4] == ["live", "destroyed_this_turn", "live", "destroyed"]
    assert bow.slots[0].title == "3 IN" and bow.slots[0].dice == (("Blue",), ("Green",))
    assert bow.slots[3].detail == "3 MP" and not bow.slots[3].working
    assert view.destroyed == 2 and view.half_si == 10
    assert view.mp == 0  # its only engine was destroyed in an earlier turn


def test_breach_text_is_the_printed_number_when_no_armour_adds():
    c = card("c", bow=location([gun(breach=11), miss(), *filler(12)[:4]]))
    s = ship("c", "Red", c, "1010")
    bow = vm.card_view(position(s), "c").locations[0]
    assert [sl.breach_text for sl in bow.slots][:3] == ["11", "—", "12"]


def test_half_si_rounds_up():
    s = ship("c", "Red", card("c", si=19), "1010")
    assert vm.half_si(s) == 10


# --- arcs ----------------------------------------------------------------------------------------


def test_arc_shades_split_each_locations_arc_by_its_gun_bands():
    state = duel()
    shades = vm.arc_shades(state, "a")
    bow_short = next(s for s in shades if s.location == "bow" and s.band == "short")
    assert Hex.at(10, 6) in bow_short.cells  # four hexes ahead: short range of a 4/8 gun
    assert Hex.at(10, 10) not in bow_short.cells  # the gun's own hex
    bow_long = next(s for s in shades if s.location == "bow" and s.band == "long")
    assert Hex.at(10, 3) in bow_long.cells and Hex.at(10, 6) not in bow_long.cells


# --- log -------------------------------------------------------------------------------------------


def test_log_lines_show_every_die_of_a_shot_and_of_initiative(quick_start):
    state = quick_start
    events = []
    for action in (A.StartGame(), A.RollInitiative()):
        outcome = apply(state, action)
        events += outcome.events
        state = outcome.state
    lines = vm.log_lines(events)
    roll = next(l for l in lines if l.kind == "initiative")
    assert len(roll.dice) == 4 and all(c == "Red" for c, _ in roll.dice)
    assert [l.index for l in lines] == list(range(1, len(lines) + 1))


# --- dice roller ------------------------------------------------------------------------------------


def test_dice_view_gives_the_chance_of_at_least_each_total():
    view = vm.dice_view("2DRed")
    assert view.chips == ("Red", "Red")
    assert view.rows[0].total == 2 and view.rows[0].at_least == "100%"
    assert view.rows[-1].total == 20 and view.rows[-1].at_least == view.rows[-1].exactly == "0.7%"
    assert view.mean == "11.00"


def test_dice_view_reports_a_bad_pool_in_words():
    view = vm.dice_view("DPurple")
    assert view.error and not view.rows


def test_percent_never_rounds_to_certainty():
    assert vm.percent(Fraction(1, 100000)) == "<0.1%"
    assert vm.percent(Fraction(99999, 100000)) == ">99.9%"
    assert vm.percent(Fraction(0)) == "0%" and vm.percent(Fraction(1)) == "100%"


# --- home ------------------------------------------------------------------------------------------------


def test_game_rows_say_turn_phase_sides_and_when(quick_start):
    from companion.store import MemoryStore

    store = MemoryStore()
    game = store.new_game(quick_start, "Friday game")
    game.act(A.StartGame())
    rows = vm.game_rows(store.games(), now=game.entries[-1].at + 120)
    assert rows[0].name == "Friday game"
    assert rows[0].detail == "Turn 1 · Initiative"
    assert rows[0].sides == "British vs French"
    assert rows[0].last_played == "2 min ago"


# --- routes ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("session", [
    Session(),
    Session("new"),
    Session("dice"),
    Session("game", "game-1"),
    Session("game", "20261122-2236-ab", "hml-raven", "fire"),
    Session("game", "g", None, "log"),
])
def test_a_session_survives_a_reload_through_its_route(session):
    assert session_from_route(session.route) == session


def test_unknown_routes_go_home():
    assert session_from_route("/nowhere/at/all") == Session()
    assert session_from_route("/game/g?tab=bogus").tab == "map"


# --- hex layout -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [20.0, 30.0, 44.5])
def test_every_hex_centre_maps_back_to_its_hex(size):
    layout = geometry.HexLayout(Board(columns=12, rows=9), size)
    for cell in layout.board.cells():
        x, y = layout.centre(cell)
        assert layout.hex_at(x, y) == cell
        for cx, cy in layout.corners(cell, inset=size * 0.15):
            assert layout.hex_at(cx, cy) == cell


def test_even_columns_sit_half_a_hex_lower():
    layout = geometry.HexLayout(Board())
    _, y1 = layout.centre(Hex.at(1, 1))
    _, y2 = layout.centre(Hex.at(2, 1))
    assert y2 - y1 == pytest.approx(layout.size * geometry.SQRT3 / 2)


def test_taps_off_the_board_hit_nothing():
    layout = geometry.HexLayout(Board())
    assert layout.hex_at(-50, -50) is None
    assert layout.hex_at(layout.width + 50, 10) is None


def test_the_board_fits_its_canvas():
    layout = geometry.HexLayout(Board())
    for cell in layout.board.cells():
        for x, y in layout.corners(cell):
            assert 0 <= x <= layout.width and 0 <= y <= layout.height


# --- rule readings -------------------------------------------------------------------------


def test_the_rule_readings_screen_reads_the_docs_page_through_the_package():
    from pathlib import Path

    from companion.app.readings import rule_readings_text

    page = (Path(__file__).resolve().parent.parent / "docs" / "rule-readings.md").read_text(encoding="utf-8")
    assert rule_readings_text() == page


def test_rule_readings_become_plain_words_with_the_apps_own_marked():
    from companion.app.player_words import reading_words
    from companion.app.readings import rule_readings_text

    text = rule_readings_text()
    sections = vm.rule_readings(text)
    titles = [s.title for s in sections]
    assert titles == [reading_words(line.lstrip("#").strip()).replace("`", "")  # "War Fleet (seeds 004 and 000)":
                      for line in text.splitlines() if line.startswith("#")]  # "War Fleet" (issue 35)
    readings = [r for s in sections for r in s.readings]
    assert len(readings) == sum(1 for line in text.splitlines() if line.startswith("- "))
    assert not any(mark in r.text for r in readings for mark in ("**", "`", "(app)"))
    bullets = text.split("\n- ")[1:]  # each bullet with its continuation lines (and what follows it)
    assert sum(r.own for r in readings) == sum(1 for block in bullets if "**(app)**" in block.split("\n\n")[0])
    dice = next(s for s in sections if s.title == "Dice")
    assert dice.readings[1] == vm.Reading("A pool may hold at most 20 dice.", own=True)


def test_a_reading_runs_over_its_continuation_lines_and_a_paragraph_is_an_intro():
    page = "# Title\n\nSome words\nover two lines.\n\n## Part\n- first line\n  goes on. **(app)**\n- [a link](x.md) and `code`\n"
    title, part = vm.rule_readings(page)
    assert title == vm.ReadingSection("Title", 1, ("Some words over two lines.",), ())
    assert part.readings == (vm.Reading("first line goes on.", True), vm.Reading("a link and code", False))


def test_a_tapped_hex_outside_the_deployment_zone_is_refused_in_the_engines_words():
    """Issue 14.7: the refusal uses the engine's words, and the banner says the same rule."""
    from companion.app.banners import banner
    from companion.app.viewmodels import deployment_hexes, deployment_refusal
    from companion.engine.quick_start.deployment import deployment_problem
    from companion.engine.footprint import Placement

    from random_games import starting_state

    state = starting_state(1).model_copy(update={"phase": "setup"})
    ship = state.ships[0]
    zone = set(deployment_hexes(state, ship.id))
    middle = next(c for c in state.board.cells() if c not in zone
                  and deployment_problem(state, ship, Placement(c, ship.facing, ship.card.type)) is not None)
    refusal = deployment_refusal(state, ship.id, middle)
    assert refusal == deployment_problem(state, ship, Placement(middle, ship.facing, ship.card.type))
    assert "within 4 hexes of a map edge, with the whole ship on the map" in refusal
    assert "within 4 hexes of a map edge, with the whole ship on the map" in banner(state).detail
    assert all(deployment_refusal(state, ship.id, cell) is None for cell in zone)


def test_the_dice_rollers_errors_read_as_sentences():
    """Issue 28: the dice roller's errors started lower-case ("unknown die colour ...")."""
    from companion.messages import sentence

    assert sentence(vm.dice_view("DPurple").error).startswith("Unknown die colour 'Purple'")
    assert sentence("'xx' is not a die") == "'xx' is not a die"
    assert sentence("") == ""


def test_a_ship_destroyed_badge_is_as_loud_as_its_risk():
    """Issue 28: a solid red badge on every gun for a <0.1% risk overstated it."""
    from companion.app.panels import destroyed_weight

    assert destroyed_weight(Fraction(1, 1000)) == "slight"
    assert destroyed_weight(Fraction(1, 20)) == "notable"
    assert destroyed_weight(Fraction(1, 5)) == "notable"
    assert destroyed_weight(Fraction(1, 4)) == destroyed_weight(Fraction(1)) == "grave"
