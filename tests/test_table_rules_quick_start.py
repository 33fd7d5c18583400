"""Quick-Start table rules (issue 15 C): crew slots, two locations, Type 4 sides.

Each default is today's reading (docs/rule-readings.md); the whole suite runs
with the defaults.  These tests play each rule's other readings and check the
pool, the exact odds and the flow they give.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.engine.quick_start import actions as A
from companion.engine.quick_start.combat import arc_and_range, breach_odds, firing_solution, firing_solutions, struck_locations
from companion.engine.dice import Colour, Pool, chance_at_least, parse_pool
from companion.engine.quick_start.game import apply
from companion.engine.hexes import Hex
from companion.engine.quick_start.ruleset import QUICK_START
from companion.engine.quick_start.state import Settings, Shot
from companion.engine.quick_start.table_play import crew_dice, who_decides
from companion.engine.quick_start.table_rules import TableRules
from companion.files import load_catalogue
from companion.store.verify import dice_in
from cards_for_tests import card, crew, filler, gun, location, position, ship


@pytest.fixture(scope="module")
def cards():
    return load_catalogue()


def label(cell: Hex) -> str:
    return f"{cell.column:02d}{cell.row:02d}"


def with_rules(state, **rules):
    return state.model_copy(update={"settings": Settings(table_rules=TableRules(**rules))})


# --- 1. crew_slots ----------------------------------------------------------------------------


def pelletier_at_the_raven(cards):
    """The Pelletier (Type 1, facing N at 1010) with two DGreen crew slots in its starboard;
    the HML Raven four hexes off its starboard, not moved (stop dice)."""
    pelletier = ship("pelletier", "French", cards["pelletier"], "1010", "N")
    spot = pelletier.bow
    for _ in range(4):
        spot = spot.neighbour(2)
    raven = ship("raven", "British", cards["hml-raven"], label(spot), "N")
    return position(pelletier, raven)


def test_crew_slots_add_or_best_on_the_pelletiers_starboard(cards):
    """'add' (today): both DGreen crew slots add a die; 'best': one DGreen only (equal means:
    the first on the card).  The exact odds follow the pool."""
    state = pelletier_at_the_raven(cards)
    pelletier, raven = state.ship("pelletier"), state.ship("raven")
    assert crew_dice(pelletier, "starboard") == parse_pool("2DGreen")
    assert crew_dice(pelletier, "starboard", TableRules(crew_slots="best")) == parse_pool("DGreen")
    strikes = {}
    for rule in ("add", "best"):
        [solution] = [s for s in firing_solutions(with_rules(state, crew_slots=rule), "pelletier")
                      if s.location == "starboard" and s.strikes]
        strikes[rule] = solution.strikes[0]
    add, best = strikes["add"], strikes["best"]
    weapon = raven.card.locations[add.location].dice(False)  # the struck location's stop dice
    gun_dice = pelletier.card.locations["starboard"].gun(2).short.pool
    assert add.pool == gun_dice + parse_pool("2DGreen") + weapon
    assert best.pool == gun_dice + parse_pool("DGreen") + weapon
    assert add.odds == breach_odds(add.pool, 0, raven, add.location)
    assert best.odds == breach_odds(best.pool, 0, raven, best.location)
    # a live slot without armour: 1/6 x P(total >= its breach), exactly
    slots = raven.card.locations[add.location].slots
    n, breach = next((n, s.breach) for n, s in enumerate(slots, 1) if s.kind != "miss")
    armour = raven.armour(add.location)
    assert add.odds.slot_destroyed[n] == Fraction(1, 6) * chance_at_least(add.pool, breach + armour)
    assert best.odds.slot_destroyed[n] == Fraction(1, 6) * chance_at_least(best.pool, breach + armour)
    assert best.odds.any_damage < add.odds.any_damage


def test_crew_slots_best_is_the_highest_mean_and_the_first_on_a_tie():
    """DGreen (mean 2.5) and DBlue (3.5): the DBlue; 2DBlue (7) and DYellow & DGreen (4.5 + 2.5 = 7):
    the first on the card; a destroyed crew slot never counts."""
    blue = card("a", starboard=location([gun(), crew("DGreen"), crew("DBlue")] + filler()[:3]))
    tie = card("b", starboard=location([gun(), crew("2DBlue"), crew("DYellow & DGreen")] + filler()[:3]))
    best = TableRules(crew_slots="best")
    assert crew_dice(ship("a", "X", blue, "0505"), "starboard", best) == Pool([Colour.BLUE])
    assert crew_dice(ship("b", "X", tie, "0505"), "starboard", best) == parse_pool("2DBlue")
    lost = ship("a", "X", blue, "0505", damage={("starboard", 3): "destroyed"})
    assert crew_dice(lost, "starboard", best) == Pool([Colour.GREEN])
    assert crew_dice(ship("a", "X", blue, "0505"), "bow", best) == Pool()
    assert crew_dice(ship("a", "X", blue, "0505"), "starboard") == parse_pool("DGreen & DBlue")


# --- 2. two_locations ----------------------------------------------------------------------------


def raven_on_the_pelletiers_bow_spine(cards, **rules):
    """The Pelletier facing N at 1116; the HML Raven facing S at 1313, on the 30-degree spine
    of the Pelletier's bow hex: its bow 3 IN can strike the Pelletier's bow or starboard."""
    pelletier = ship("pelletier", "French", cards["pelletier"], "1116", "N")
    raven = ship("raven", "British", cards["hml-raven"], "1313", "S")
    return with_rules(position(raven, pelletier), **rules)


def raven_bow_solution(state):
    return firing_solution(state.ship("raven"), "bow", 3, state.ship("pelletier"), state.table_rules)


def declare(state, **extra):
    return apply(state, {"kind": "declare_shot", "attacker": "raven", "location": "bow", "slot": 3,
                         "target": "pelletier", **extra})


def test_two_locations_attacker_names_it_as_today(cards):
    state = raven_on_the_pelletiers_bow_spine(cards)
    solution = raven_bow_solution(state)
    assert [s.location for s in solution.strikes] == ["bow", "starboard"] and solution.decided_by == "attacker"
    assert "location_roll" not in solution.as_json() and "decided_by" not in solution.as_json()
    refused = declare(state)
    assert not refused.ok and refused.reason == "the shot can strike the bow or the starboard: choose one"
    assert declare(state, target_location="starboard").state.shots[0].target_location == "starboard"


def test_two_locations_target_the_target_side_chooses_then_the_shot_rolls(cards):
    state = raven_on_the_pelletiers_bow_spine(cards, two_locations="target")
    solution = raven_bow_solution(state)
    assert solution.decided_by == "target" and [s.location for s in solution.strikes] == ["bow", "starboard"]
    named = declare(state, target_location="bow")
    assert not named.ok and "French chooses the bow or the starboard of Pelletier" in named.reason
    declared = declare(state)
    assert declared.ok, declared
    state = declared.state
    assert state.shots[0].target_location is None and state.shots[0].may_strike == ["bow", "starboard"]
    assert "French chooses the bow or the starboard" in declared.events[-1].text
    early = apply(state, {"kind": "resolve_shot", "shot": 1})
    assert not early.ok and early.reason.startswith("shot 1 waits: French chooses the bow or the starboard")
    # the choice belongs to the target's side; the options offer it to that side only
    assert QUICK_START.side({"kind": "choose_location", "shot": 1, "location": "starboard"}, state) == "French"
    offered = [o.action for o in QUICK_START.options(state, "French") if o.action["kind"] == "choose_location"]
    assert offered == [{"kind": "choose_location", "shot": 1, "location": loc} for loc in ("bow", "starboard")]
    assert not apply(state, {"kind": "choose_location", "shot": 1, "location": "stern"}).ok
    chosen = apply(state, {"kind": "choose_location", "shot": 1, "location": "starboard"})
    assert chosen.ok and chosen.state.shots[0].target_location == "starboard"
    again = apply(chosen.state, {"kind": "choose_location", "shot": 1, "location": "bow"})
    assert not again.ok and again.reason == "shot 1 strikes the starboard already"
    rolled = apply(chosen.state, {"kind": "resolve_shot", "shot": 1})
    assert rolled.ok and rolled.state.shots[0].result.location_roll is None


def test_two_locations_roll_a_d6_picks_and_the_odds_are_the_half_half_mixture(cards):
    state = raven_on_the_pelletiers_bow_spine(cards, two_locations="roll")
    solution = raven_bow_solution(state)
    bow, starboard = solution.strikes
    mixed = solution.location_roll
    assert solution.decided_by == "roll" and mixed is not None
    assert mixed.no_effect == (bow.odds.no_effect + starboard.odds.no_effect) / 2
    assert mixed.any_damage == 1 - mixed.no_effect
    assert mixed.keel_break == (bow.odds.keel_break + starboard.odds.keel_break) / 2
    assert mixed.ship_destroyed == (bow.odds.ship_destroyed + starboard.odds.ship_destroyed) / 2
    assert mixed.slot_destroyed[("starboard", 2)] == starboard.odds.slot_destroyed[2] / 2
    assert sum(mixed.slot_destroyed.values()) + mixed.keel_break + mixed.no_effect == 1
    assert solution.as_json()["location_roll"]["locations"] == ["bow", "starboard"]
    offered = [o.action for o in QUICK_START.options(state, "British")
               if o.action["kind"] == "declare_shot" and o.action["location"] == "bow"]
    assert offered == [{"kind": "declare_shot", "attacker": "raven", "location": "bow", "slot": 3,
                        "target": "pelletier", "target_location": None}]
    state = declare(state).state
    assert "a d6 picks the bow (1-3) or the starboard (4-6)" in QUICK_START.apply(
        state, {"kind": "choose_location", "shot": 1, "location": "bow"}).reason
    # table dice: the location die, then the pool of the location it picked
    table = {"location": [5], "pool": [4, 3, 6], "slot": [2], "keel": []}
    assert len(starboard.pool) == 3
    done = apply(state, {"kind": "resolve_shot", "shot": 1, "table": table}).state.shots[0]
    assert done.target_location == "starboard" and done.result.location_roll.face == 5
    assert done.result.text.startswith("location d6 5: the starboard. ")
    missing = apply(state, {"kind": "resolve_shot", "shot": 1, "table": {"pool": [4, 3, 6], "slot": [2]}})
    assert not missing.ok and "the location roll needs a d6" in missing.reason
    # the roller: the location die first, recorded in the result and read first by verify
    rolled = apply(state, {"kind": "resolve_shot", "shot": 1})
    result = rolled.state.shots[0].result
    die = result.location_roll
    assert die.colour == Colour.D6 and rolled.state.shots[0].target_location == ("bow" if die.face <= 3 else "starboard")
    assert dice_in([e.model_dump(mode="json") for e in rolled.events])[0] == ("D6", die.face)
    assert rolled.state.roller.counter == state.roller.counter + 1 + len(result.pool) + len(result.slot_rolls) \
        + len(result.keel_dice)


def test_an_old_shot_with_its_location_still_loads():
    shot = Shot.model_validate({"id": 1, "attacker": "raven", "location": "bow", "slot": 3, "target": "pelletier",
                                "target_location": "stern", "band": "short"})
    assert shot.target_location == "stern" and shot.may_strike == []
    assert A.TableFaces.model_validate({"pool": [1], "slot": [2], "keel": []}).location == []


# --- 3. type4_sides ----------------------------------------------------------------------------


BOW = Hex(15, 15)
SIMPLE = TableRules(type4_sides="simple")


@pytest.mark.parametrize("facing", range(6))
def test_type4_simple_a_side_gun_fires_into_the_whole_side_wedge(cards, facing):
    """The Kamchatka's starboard bow gun (mid-fore hex) at a Raven four hexes out at 120 degrees:
    abaft the beam, so out of its beam arc, in the simple starboard wedge at range 3; its
    starboard quarter gun (mid-aft hex) likewise at 60 degrees, ahead of the beam."""
    kam = ship("kam", "Russian", cards["kamchatka-2025"], label(BOW), facing)
    spot = kam.hexes[1]
    for _ in range(4):
        spot = spot.neighbour((facing + 2) % 6)
    raven = ship("raven", "British", cards["hml-raven"], label(spot), (facing + 2) % 6)
    assert arc_and_range(kam, "starboard_bow", raven) == (False, None)
    assert arc_and_range(kam, "starboard_bow", raven, SIMPLE) == (True, 3)
    assert arc_and_range(kam, "port_bow", raven, SIMPLE) == (False, None)
    ahead = kam.hexes[2]
    for _ in range(4):  # four hexes out at 60 degrees from the mid-aft hex: ahead of the beam
        ahead = ahead.neighbour((facing + 1) % 6)
    raven = ship("raven", "British", cards["hml-raven"], label(ahead), (facing + 1) % 6)
    assert arc_and_range(kam, "starboard_quarter", raven) == (False, None)
    assert arc_and_range(kam, "starboard_quarter", raven, SIMPLE) == (True, 3)


@pytest.mark.parametrize("facing", range(6))
@pytest.mark.parametrize("port", [False, True], ids=["starboard", "port"])
def test_type4_simple_a_side_struck_offers_fore_and_aft(cards, facing, port):
    """Hexes on the beam spines, between them, and ahead of the beam in the mid-fore's wedge only:
    'beam' strikes one side location; 'simple' offers both, the bow location first (card order)."""
    side = "port" if port else "starboard"
    lev = ship("lev", "British", cards["hml-leviathan-2025"], label(BOW), facing)
    mid_fore, mid_aft = lev.hexes[1], lev.hexes[2]

    def turned(offset: Hex) -> Hex:
        return (offset.mirrored() if port else offset).rotated(facing)

    both = [loc for loc in lev.card.locations if loc in (f"{side}_bow", f"{side}_quarter")]
    for k in (1, 3):
        for cell, beam in ((mid_fore + turned(Hex(2 * k, -k)), f"{side}_bow"),
                           (mid_aft + turned(Hex(2 * k, -k)), f"{side}_quarter"),
                           (mid_fore + turned(Hex(2 * k - 1, 1 - k)), f"{side}_quarter")):
            assert struck_locations(lev, cell) == [beam]
            assert struck_locations(lev, cell, SIMPLE) == both
    ahead = mid_fore + turned(Hex(3, -3))
    assert struck_locations(lev, ahead) == [f"{side}_bow"] and struck_locations(lev, ahead, SIMPLE) == both
    # bow and stern as today
    assert struck_locations(lev, lev.hexes[0] + turned(Hex(0, -4)), SIMPLE) == ["bow"]


def test_type4_simple_the_attacker_chooses_fore_or_aft_with_both_odds(cards):
    """The Raven abeam of the Leviathan's starboard: both locations offered with their odds; the
    attacker names one even when two_locations leaves other choices to the target or a d6."""
    lev = ship("lev", "British", cards["hml-leviathan-2025"], label(BOW), "N")
    spot = lev.hexes[1] + Hex(5, -2)
    raven = ship("raven", "French", cards["hml-raven"], label(spot), "SW")
    state = with_rules(position(raven, lev), type4_sides="simple", two_locations="roll")
    [solution] = [s for s in firing_solutions(state, "raven") if s.strikes and s.location == "bow"][:1]
    assert [s.location for s in solution.strikes] == ["starboard_bow", "starboard_quarter"]
    assert solution.decided_by == "attacker"
    for strike in solution.strikes:
        assert strike.odds == breach_odds(strike.pool, 0, lev, strike.location) and strike.odds.any_damage > 0
    assert who_decides(state.table_rules, lev, ["starboard_bow", "starboard_quarter"]) == "attacker"
    assert who_decides(state.table_rules, lev, ["bow", "starboard_bow"]) == "roll"
    action = {"kind": "declare_shot", "attacker": "raven", "location": "bow", "slot": solution.slot, "target": "lev"}
    assert "choose one" in apply(state, action).reason
    shot = apply(state, {**action, "target_location": "starboard_quarter"}).state.shots[0]
    assert shot.target_location == "starboard_quarter"
    beam = with_rules(state, type4_sides="beam")
    [today] = [s for s in firing_solutions(beam, "raven") if s.strikes and s.location == "bow"][:1]
    assert len(today.strikes) == 1


# --- where the odds are read: companion solutions, the fire panel's shots, the shared screen ----------


def test_companion_solutions_prints_the_mixture_of_a_rolled_location(tmp_path, capsys):
    import json

    from companion.commands import main

    scenario = {"format": "leviathans-scenario/1", "ruleset": "quick-start", "board": {"columns": 30, "rows": 30},
                "turn": 1, "table_rules": {"two_locations": "roll"}, "ships": [
                    {"id": "raven", "side": "British", "card": "hml-raven", "bow": "1313", "facing": "S"},
                    {"id": "pelletier", "side": "French", "card": "pelletier", "bow": "1116", "facing": "N"}]}
    path = tmp_path / "roll.json"
    path.write_text(json.dumps(scenario))
    assert main(["solutions", str(path), "--attacker", "raven"]) == 0
    assert "a d6 picks (bow 1-3, starboard 4-6): damage " in capsys.readouterr().out
    assert main(["solutions", str(path), "--attacker", "raven", "--json"]) == 0
    [bow] = [e for e in json.loads(capsys.readouterr().out) if e["weapon"] == {"location": "bow", "slot": 3,
                                                                             "name": e["weapon"]["name"]}]
    assert bow["decided_by"] == "roll" and bow["location_roll"]["locations"] == ["bow", "starboard"]


@pytest.mark.parametrize("rule", ["target", "roll"])
def test_a_shot_still_to_find_its_location_is_shown_with_both(cards, rule):
    from companion.app.panels import shot_views, table_dice_fields
    from companion.app.screenmodel import shot_lines

    state = declare(raven_on_the_pelletiers_bow_spine(cards, two_locations=rule)).state
    [view] = shot_views(state)
    assert "Pelletier (" in view.text and "the bow" in view.text
    [line] = shot_lines(state)
    assert line.what.endswith("Pelletier bow or starboard")
    assert ("French chooses" in line.odds) == (rule == "target") and "to damage" in line.odds
    fields = table_dice_fields(state, 1)
    assert (fields[0].purpose == "location") == (rule == "roll")


def test_the_fire_panel_offers_the_target_side_its_two_locations(cards):
    """The table screen's shot card: while the target's side picks, the two locations to strike
    (and nothing to roll); once picked, the shot's pool and its roll."""
    from companion.app.panels import shot_views

    state = declare(raven_on_the_pelletiers_bow_spine(cards, two_locations="target")).state
    view = shot_views(state)[0]
    assert view.choices == (("bow", "bow"), ("starboard", "starboard")) and "chooses" in view.text
    chosen = apply(state, {"kind": "choose_location", "shot": 1, "location": "starboard"}).state
    assert shot_views(chosen)[0].choices == () and "starboard" in shot_views(chosen)[0].text
    plain = declare(raven_on_the_pelletiers_bow_spine(cards), target_location="bow").state
    assert shot_views(plain)[0].choices == ()
