"""The movement planner (issue 17): `reach` against an exhaustive search written here.

The search below knows no rule: it tries every action at every point, through
the game's own `apply`, and asks `apply` whether the ship may end its move
there (`end_move`).  Every end position with its cheapest MP is compared with
the planner's, for both Quick-Start types and every facing, with ships in the
way, at the board's edge, under house rules H3 and H4, and for War Fleet.
"""

from __future__ import annotations

import json

import pytest

from companion.commands import main
from companion.engine.quick_start import apply
from companion.engine.quick_start.actions import EndMove
from companion.engine.board import Board
from companion.engine.hexes import Hex, facing_name
from companion.engine.quick_start.combat import firing_solutions
from companion.engine.quick_start.reach import Position, Reach, reach, ship_after, state_after
from companion.engine.quick_start.table_rules import HouseRules
from companion.engine.war_fleet import game as wf_game
from companion.engine.war_fleet.reach import reach as wf_reach
from cards_for_tests import card, engine, filler, gun, location, position, ship, shipped
from warfleet_for_tests import stats, table, warship

FACINGS = range(6)
RAVEN, HERTS, PONT = shipped("hml-raven"), shipped("hml-hertfordshire"), shipped("pontbriand")


def path_to(found: Reach, position: Position | tuple[Hex, int]) -> list[dict]:
    """One cheapest path to an end position (a `Position`, or a (bow, facing) pair: moved or not,
    the cheaper), as the planner's "Move there" takes it; ValueError when it is out of reach."""
    bow, facing = (position.bow, position.facing) if isinstance(position, Position) else position
    reached = found.find(bow, facing, position.moved if isinstance(position, Position) else None)
    if reached is None:
        raise ValueError(f"{found.ship} cannot reach {bow} facing {facing_name(facing)} this turn")
    return [dict(action) for action in reached.path]


# --- the exhaustive search, through apply -------------------------------------------------------


def moving(*ships, board=None, house=None):
    """A movement phase where the first ship moves now: every other ship has finished its move."""
    first, *others = ships
    others = [s.model_copy(update={"move_done": True}) for s in others]
    state = position(first, *others, board=board or Board(), phase="movement")
    settings = state.settings.model_copy(update={"house_rules": house or HouseRules()})
    return state.model_copy(update={"initiative": state.sides[-1], "settings": settings})


def candidate_actions(state, ship_id):
    rules = state.house_rules
    actions = [{"kind": "step", "ship": ship_id, "step": s} for s in ("forward", "port", "starboard")]
    if rules.declared_turns:
        sides = ("port", "starboard") if rules.declare_direction else (None,)
        actions += [{"kind": "declare_turn", "ship": ship_id, **({"side": s} if s else {})} for s in sides]
        actions.append({"kind": "cancel_turn", "ship": ship_id})
    return actions


def exhaustive(state, ship_id):
    """{(bow, facing, moved): (cheapest MP, destroyed in the half-hexes)} over every sequence of
    actions `apply` accepts, each end checked by `apply(end_move)`."""
    spent = state.ship(ship_id).mp_spent
    best = {}

    def visit(here):
        ship = here.ship(ship_id)
        end = apply(here, EndMove(ship=ship_id))
        if end.ok:
            key = (ship.bow, ship.facing, ship.moved)
            cost = ship.mp_spent - spent
            if key not in best or cost < best[key][0]:
                best[key] = (cost, end.state.ship(ship_id).removed)
        if ship.mp_left == 0:
            return
        for action in candidate_actions(here, ship_id):
            out = apply(here, action)
            if out.ok:
                visit(out.state)

    visit(state)
    return best


def planned(state, ship_id):
    found = reach(state, ship_id)
    return {(r.position.bow, r.position.facing, r.position.moved): (r.mp_cost, r.half_hexes)
            for r in found.positions}


def check_paths(state, ship_id):
    """Every planned path, applied through `apply`, ends where the planner says, at its cost."""
    found = reach(state, ship_id)
    spent = state.ship(ship_id).mp_spent
    for reached in found.positions:
        here = state
        for action in reached.path:
            out = apply(here, action)
            assert out.ok, (reached, action, out.reason)
            here = out.state
        ship = here.ship(ship_id)
        assert (ship.bow, ship.facing, ship.moved) == (reached.position.bow, reached.position.facing,
                                                       reached.position.moved)
        assert ship.mp_spent - spent == reached.mp_cost
        assert apply(here, EndMove(ship=ship_id)).ok
        assert ship_after(state, ship_id, reached.path) == ship
    return found


def agrees(state, ship_id="s"):
    expected = exhaustive(state, ship_id)
    assert planned(state, ship_id) == expected
    check_paths(state, ship_id)
    return expected


def spent(the_ship, mp):
    return the_ship.model_copy(update={"mp_spent": mp})


# --- Quick-Start, both types, every facing ------------------------------------------------------


@pytest.mark.parametrize("facing", FACINGS)
def test_type_1_raven_every_facing_on_an_open_board(facing):
    """HML Raven: Type 1, pivots on its bow hex, enter 1 (`001:317`); 5 of its 9 MP left."""
    raven = spent(ship("s", "British", RAVEN, "1710", facing), 4)
    found = agrees(moving(raven))
    assert len(found) > 20


@pytest.mark.parametrize("facing", FACINGS)
def test_type_2_hertfordshire_every_facing_on_an_open_board(facing):
    """HML Hertfordshire: Type 2, pivots on its centre hex, enter 2, all 6 MP."""
    herts = ship("s", "British", HERTS, "1710", facing)
    found = agrees(moving(herts))
    assert min(cost for (_, f, _), (cost, _) in found.items() if f != facing) == 3  # F, F, turn


def test_raven_with_every_mp_reaches_what_the_search_finds():
    agrees(moving(ship("s", "British", RAVEN, "1710", "N")))


def test_a_type_2_turning_about_its_centre_has_not_moved():
    """Enter 0 (a test card): the Type 2 turns in place at once, its bow swings into a new hex,
    and it has not entered a new hex (rule-readings "Movement": stop dice)."""
    quick = card("quick", ship_type=2, enter=0, stern=location([gun(), engine(3)] + filler()[:4]))
    found = agrees(moving(ship("s", "British", quick, "1710", "N")))
    swung = [(bow, f, moved) for (bow, f, moved), (cost, _) in found.items() if cost == 1 and f == 1]
    assert swung == [(Hex.at(18, 10), 1, False)]


# --- other ships in the way, the board's edge ---------------------------------------------------


@pytest.mark.parametrize("facing", (0, 3))
def test_ships_in_the_way_are_passed_through_never_ended_on(facing):
    herts = ship("s", "British", HERTS, "1710", facing)
    blocker = ship("b", "French", RAVEN, "1707" if facing == 0 else "1712", "NE")
    beside = ship("c", "French", HERTS, "1510", "N")
    state = moving(herts, blocker, beside)
    found = agrees(state)
    held = set(blocker.hexes) | set(beside.hexes)
    beyond = Hex.at(17, 4) if facing == 0 else Hex.at(17, 16)
    assert all(not held & set(ship_after(state, "s", path_to(reach(state, "s"), pos)).hexes)
               for pos in [(bow, f) for bow, f, _ in found])
    assert any(bow == beyond for bow, _, _ in found)  # straight through the Raven and out beyond


def test_type_1_with_a_ship_one_hex_ahead():
    raven = spent(ship("s", "British", RAVEN, "1710", "N"), 3)
    agrees(moving(raven, ship("b", "French", PONT, "1708", "S")))


@pytest.mark.parametrize("bow, facing", [("0303", 5), ("0302", 0), ("3117", 2), ("1702", 1)])
def test_at_the_board_edge_no_step_beyond_the_labelled_hexes(bow, facing):
    """Half-hexes: a ship may end there and is destroyed (`001:305`); nothing beyond the board."""
    herts = ship("s", "British", HERTS, bow, facing)
    found = agrees(moving(herts))
    assert any(half for _, half in found.values())
    board = Board()
    for (cell, f, _), _ in found.items():
        assert all(board.contains(c) for c in ship("x", "British", HERTS, board.label(cell), f).hexes)


def test_a_ship_that_has_spent_mp_and_turned_in_this_hex_goes_on_from_there():
    raven = ship("s", "British", RAVEN, "1710", "NE").model_copy(
        update={"mp_spent": 5, "entered_since_turn": 0, "turned_in_this_hex": True, "moved": True})
    found = agrees(moving(raven))
    assert found[(Hex.at(17, 10), 1, True)] == (0, False)
    assert not any(cost == 1 and f != 1 for (_, f, _), (cost, _) in found.items())  # one hexside per hex


def test_a_ship_whose_move_is_done_stays_where_it_stands():
    raven = ship("s", "British", RAVEN, "1710", "N").model_copy(update={"move_done": True})
    state = moving(ship("o", "French", HERTS, "0505", "N"), raven)
    found = reach(state, "s")
    assert [(r.position, r.mp_cost, r.path) for r in found.positions] == [(Position(Hex.at(17, 10), 0, False), 0, ())]


def test_a_ship_out_of_play_is_refused_in_plain_words():
    from companion.engine.kernel import Refusal

    gone = ship("s", "British", RAVEN, "1710", "N").model_copy(update={"removed": True, "keel_broken": True})
    with pytest.raises(Refusal, match="HML Raven has left play \\(its keel broke\\)"):
        reach(moving(ship("o", "French", HERTS, "0505", "N"), gone), "s")


def test_path_to_a_position_out_of_reach_says_so():
    state = moving(ship("s", "British", HERTS, "1710", "N"))
    found = reach(state, "s")
    assert path_to(found, (Hex.at(17, 8), 0)) == [{"kind": "step", "ship": "s", "step": "forward"}] * 2
    with pytest.raises(ValueError, match="cannot reach"):
        path_to(found, (Hex.at(1, 1), 0))
    assert found.costs()[Hex.at(17, 10)] == 0 and found.costs()[Hex.at(17, 4)] == 6


# --- house rules -----------------------------------------------------------------------------------


DECLARED = HouseRules(declared_turns=True)


@pytest.mark.parametrize("facing", (0, 2, 4))
def test_h3_from_the_start_reaches_what_plain_quick_start_reaches(facing):
    """House-rules.md 6.4 and 10: declaring at the start and after each turn moves as plain
    Quick-Start; the planner declares for the player (a free action in the path)."""
    raven = spent(ship("s", "British", RAVEN, "1710", facing), 4)
    plain = planned(moving(raven), "s")
    assert agrees(moving(raven, house=DECLARED)) == plain
    paths = [r.path for r in reach(moving(raven, house=DECLARED), "s").positions]
    assert any(a["kind"] == "declare_turn" for path in paths for a in path)


def test_h3_2_pontbriand_declaring_late():
    """H3-2: Pontbriand (enter 2) from 1016 has made three forward steps without declaring (bow
    1013, 9 MP left); a port turn now needs a declaration and two more hexes: 3 MP, where plain
    Quick-Start turns at once for 1 MP (4 hexes since the start of its move)."""
    pont = ship("s", "French", PONT, "1013", "N").model_copy(
        update={"mp_spent": 3, "entered_since_turn": 3, "moved": True})
    pont = pont.model_copy(update={"turn_mp": None})
    declared = planned(moving(pont, house=DECLARED), "s")
    plain = planned(moving(pont), "s")
    assert min(c for (_, f, _), (c, _) in plain.items() if f == 5) == 1
    assert min(c for (_, f, _), (c, _) in declared.items() if f == 5) == 3
    found = reach(moving(pont, house=DECLARED), "s")
    turned = min((r for r in found.positions if r.position.facing == 5), key=lambda r: r.mp_cost)
    assert [a.get("step", a["kind"]) for a in turned.path] == ["declare_turn", "forward", "forward", "port"]
    assert turned.position.bow == Hex.at(10, 12).neighbour(5)  # turned about its centre hex 1012


def test_h3_agrees_with_the_search_mid_move():
    pont = ship("s", "French", PONT, "1013", "N").model_copy(
        update={"mp_spent": 7, "entered_since_turn": 3, "moved": True})
    agrees(moving(pont, house=DECLARED))


def test_h3_with_declare_direction_plans_the_named_side():
    house = HouseRules(declared_turns=True, declare_direction=True)
    raven = spent(ship("s", "British", RAVEN, "1710", "N"), 5)
    agrees(moving(raven, house=house))
    pending = raven.model_copy(update={"turn_declared": True, "declared_side": "port"})
    found = agrees(moving(pending, house=house))
    # to turn starboard the ship cancels (1 MP) and declares again: forward, starboard costs 3
    assert min(c for (_, f, _), (c, _) in found.items() if f == 1) == 3


def test_h3_5_a_card_with_enter_0_turns_without_declaring():
    quick = card("quick", ship_type=1, enter=0, stern=location([gun(), engine(3)] + filler()[:4]))
    found = agrees(moving(ship("s", "British", quick, "1710", "N"), house=DECLARED))
    assert found[(Hex.at(17, 10), 1, False)] == (1, False)


@pytest.mark.parametrize("the_card, facing", [(RAVEN, 0), (HERTS, 1), (HERTS, 4)])
def test_h4_one_hex_ships_pivot_in_place(the_card, facing):
    """H4 (house-rules.md 7.2): one hex, pivoting on it; stacking stays Quick-Start (R-H4.2)."""
    one = spent(ship("s", "British", the_card, "1710", facing), max(0, the_card_mp(the_card) - 5))
    one = one.model_copy(update={"one_hex": True})
    other = ship("b", "French", HERTS, "1707", "N").model_copy(update={"one_hex": True})
    found = agrees(moving(one, other, house=HouseRules(one_hex_ships=True)))
    assert (Hex.at(17, 7), 0, True) not in found


def test_h4_4_a_one_hex_type_2_turns_in_its_hex():
    quick = card("quick", ship_type=2, enter=0, stern=location([gun(), engine(3)] + filler()[:4]))
    one = ship("s", "British", quick, "1010", "N").model_copy(update={"one_hex": True})
    found = agrees(moving(one, house=HouseRules(one_hex_ships=True)))
    assert found[(Hex.at(10, 10), 1, False)] == (1, False)


def the_card_mp(the_card):
    return sum(slot.mp for loc in the_card.locations.values() for slot in loc.slots if slot.kind == "engine")


# --- War Fleet --------------------------------------------------------------------------------------


def wf_moving(*ships):
    first, *others = ships
    others = [s.model_copy(update={"move_done": True}) for s in others]
    state = table(first, *others, phase="movement")
    return state.model_copy(update={"initiative": state.sides[-1], "initiative_order": list(state.sides)})


def wf_exhaustive(state, ship_id):
    """Every sequence of steps and pivots War Fleet's `apply` accepts; each one an end (ships
    may share a hex); a ship lost off the map is no end."""
    spent = state.ship(ship_id).mp_spent
    best = {}

    def visit(here, moved):
        ship = here.ship(ship_id)
        if ship.removed:
            return
        key = (ship.hex, ship.facing, moved)
        cost = ship.mp_spent - spent
        if key in best and best[key] <= cost:
            return  # the same spot and facing again at no less cost: its futures are no wider
        best[key] = cost
        if ship.mp_left == 0:
            return
        actions = [({"kind": "step", "ship": ship_id, "step": s}, s == "forward")
                   for s in ("forward", "port", "starboard")]
        actions += [({"kind": "pivot", "ship": ship_id, "facing": f}, False) for f in range(6)]
        for action, forward in actions:
            out = wf_game.apply(here, action)
            if out.ok:
                visit(out.state, moved or forward)

    visit(state, False)
    return best


@pytest.mark.parametrize("facing", FACINGS)
def test_war_fleet_every_facing_against_the_search(facing):
    ship_ = warship("s", "British", stats("s", mp=4), hex_="1503", facing=facing)
    other = warship("o", "French", stats("o"), hex_="1502", facing="S")
    state = wf_moving(ship_, other)
    found = wf_reach(state, "s")
    assert {(r.position.bow, r.position.facing, r.position.moved): r.mp_cost
            for r in found.positions} == wf_exhaustive(state, "s")
    for reached in found.positions:
        here = state
        for action in reached.path:
            out = wf_game.apply(here, action)
            assert out.ok, out.reason
            here = out.state
        assert (here.ship("s").hex, here.ship("s").facing) == (reached.position.bow, reached.position.facing)
    assert (Hex.at(15, 2), 0, True) in {(r.position.bow, r.position.facing, r.position.moved)
                                        for r in found.positions} or facing != 0  # ends on a ship: allowed


def test_war_fleet_pivot_costs_every_mp_and_only_from_the_start():
    ship_ = warship("s", "British", stats("s", mp=2), hex_="1010", facing="N")
    found = wf_reach(wf_moving(ship_), "s")
    about = found.find(Hex.at(10, 10), 3, False)
    assert about is not None and about.mp_cost == 2 and about.path == ({"kind": "pivot", "ship": "s", "facing": 3},)
    moved_on = wf_reach(wf_moving(ship_.model_copy(update={"mp_spent": 1})), "s")
    assert moved_on.find(Hex.at(10, 10), 3) is None


def test_war_fleet_rear_destroyed_stays_put():
    ship_ = warship("s", "British", stats("s", mp=5), hex_="1010", facing="N", destroyed=("stern",))
    found = wf_reach(wf_moving(ship_), "s")
    assert [(r.position.bow, r.mp_cost) for r in found.positions] == [(Hex.at(10, 10), 0)]


# --- the command line -------------------------------------------------------------------------------


def test_companion_reach_json_is_every_end_position(tmp_path, capsys):
    scenario = {"format": "leviathans-scenario/1", "ruleset": "quick-start", "board": {"columns": 33, "rows": 19},
                "turn": 1, "ships": [
                    {"id": "herts", "side": "British", "card": "hml-hertfordshire", "bow": "1710", "facing": "N"},
                    {"id": "pont", "side": "French", "card": "pontbriand", "bow": "1706", "facing": "S"}]}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario))
    assert main(["reach", str(path), "--ship", "herts", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data[0] == {"bow": "1710", "facing": 0, "mp_cost": 0, "moved": False}
    assert {"bow": "1709", "facing": 0, "mp_cost": 1, "moved": True} in data
    assert not any(d["bow"] in ("1704", "1705", "1706") and d["facing"] == 0 for d in data)  # the Pontbriand
    assert len({(d["bow"], d["facing"], d["moved"]) for d in data}) == len(data)
    assert [d["mp_cost"] for d in data] == sorted(d["mp_cost"] for d in data)
    assert main(["reach", str(path), "--ship", "herts"]) == 0
    assert "HML Hertfordshire: 6 MP left" in capsys.readouterr().out


def test_companion_reach_bad_ship_and_bad_file_are_plain_words(tmp_path, capsys):
    path = tmp_path / "s.json"
    raven = {"id": "r", "side": "A", "card": "hml-raven", "bow": "1010", "facing": "N"}
    path.write_text(json.dumps({"format": "leviathans-scenario/1", "ruleset": "quick-start", "turn": 1,
                                "ships": [raven]}))
    assert main(["reach", str(path), "--ship", "nope"]) == 1
    assert "no ship 'nope' (ships: r)" in capsys.readouterr().err
    assert main(["reach", str(tmp_path / "missing.json"), "--ship", "r"]) == 1
    err = capsys.readouterr().err
    assert "no such file" in err and len(err.strip().splitlines()) == 1


def test_companion_reach_war_fleet_scenario(capsys):
    from companion.files import shipped_fleets_dir

    scenario = str(shipped_fleets_dir() / "war-fleet-20v20.json")
    assert main(["reach", scenario, "--ship", "hml-leviathan", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data[0]["mp_cost"] == 0 and all(set(d) == {"bow", "facing", "mp_cost", "moved"} for d in data)


@pytest.mark.parametrize("ship_type", (1, 2))
@pytest.mark.parametrize("facing", FACINGS)
def test_companion_reach_agrees_with_the_search(ship_type, facing, tmp_path, capsys):
    """Issue 17's check: the command's JSON is the exhaustive search's answer, for both types and
    every facing (a 6 MP card of each type, enter 1 and 2, with a ship in the way)."""
    engines = location([gun(), engine(3), engine(3)] + filler()[:3])
    the_card = card(f"t{ship_type}", ship_type=ship_type, enter=ship_type, stern=engines)
    moving_ship = ship("s", "British", the_card, "1710", facing)
    other = ship("o", "French", HERTS, "1808", "S")
    scenario = {"format": "leviathans-scenario/1", "ruleset": "quick-start", "board": {"columns": 33, "rows": 19},
                "turn": 1, "ships": [
                    {"id": "s", "side": "British", "card": the_card.model_dump(mode="json", by_alias=True,
                                                                               exclude_none=True),
                     "bow": "1710", "facing": facing},
                    {"id": "o", "side": "French", "card": "hml-hertfordshire", "bow": "1808", "facing": "S"}]}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario))
    assert main(["reach", str(path), "--ship", "s", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    board = Board()
    said = {(board.parse(d["bow"]), d["facing"], d["moved"]): (d["mp_cost"], d.get("half_hexes", False))
            for d in data}
    assert len(said) == len(data)
    assert said == exhaustive(moving(moving_ship, other), "s")


def test_the_guns_from_an_end_position():
    """Tapping an end position: each gun's targets in arc and range there, with the odds."""
    herts = ship("s", "British", HERTS, "1710", "N")
    pont = ship("p", "French", PONT, "1704", "S")
    state = moving(herts, pont)
    found = reach(state, "s")
    there = state_after(state, "s", path_to(found, (Hex.at(17, 8), 0)))
    assert there.ship("s").bow == Hex.at(17, 8) and there.ship("s").moved
    bow_gun = [s for s in firing_solutions(there, "s") if s.location == "bow"]
    assert bow_gun and all(s.in_arc and s.range == 4 for s in bow_gun)
    assert [s.range for s in firing_solutions(state, "s") if s.location == "bow"][0] == 6
