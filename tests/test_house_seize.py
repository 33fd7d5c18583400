"""House rule H2 "seize the initiative" (seed 002:16; shared/spec/house-rules.md 5 and the worked
examples H2-1 to H2-3 of section 9), with the shipped Quick-Start cards."""

from __future__ import annotations

import random

import pytest

from companion.engine.quick_start.ruleset import QUICK_START

from test_house_unit_initiative import TIE_STAYS, act, record, refused, roll, step

#: Order for every H2 example: Pontbriand (12), Raven (10), Hertfordshire (7), Pelletier (3), each alone.
ALONE = {"pontbriand": [9], "raven": [10], "hertfordshire": [4], "pelletier": [3]}


def seize(ship_id):
    return {"kind": "seize_initiative", "ship": ship_id}


def end(ship_id):
    return {"kind": "end_move", "ship": ship_id}


def finished(events):
    return [e.data["ship"] for e in events if e.kind == "end_move"]


def test_h2_1_seize_in_the_middle_of_a_move_then_resume():
    state, _ = roll(ALONE, seize=True)
    assert state.move_order == [["pontbriand"], ["raven"], ["hertfordshire"], ["pelletier"]]
    state, _ = act(state, step("pontbriand"))
    assert state.movers == ["pontbriand"] and state.ship("pontbriand").mp_left == 11
    state, events = act(state, seize("pelletier"))
    assert state.movers == ["pontbriand", "pelletier"] and [e.kind for e in events] == ["seize"]
    assert events[0].data == {"ship": "pelletier", "from": "pontbriand"}
    assert refused(state, step("pontbriand")) == "Pontbriand is paused: it resumes when Pelletier ends its move"
    assert refused(state, seize("raven")) == ("HML Raven (initiative 10) is not ranked lower than Pelletier "
                                              "(initiative 3), which is moving now")
    state, events = act(state, step("pelletier"), end("pelletier"))
    assert state.movers == ["pontbriand"] and "resume" in [e.kind for e in events]
    paused = state.ship("pontbriand")
    assert (paused.mp_left, paused.entered_since_turn) == (11, 1)
    state, _ = act(state, end("pontbriand"))
    assert "HML Raven (initiative 10) moves now" in refused(state, step("hertfordshire"))
    state, _ = act(state, end("raven"))
    assert refused(state, seize("pelletier")) == "Pelletier has already moved this turn: a ship moves once per turn"
    state, _ = act(state, end("hertfordshire"))
    assert state.phase == "combat"


def test_h2_2_seizing_a_seized_move():
    state, _ = roll(ALONE, seize=True)
    order = []
    state, _ = act(state, seize("hertfordshire"))  # 7 < 12, before Pontbriand's first step
    state, _ = act(state, step("hertfordshire"), seize("pelletier"))  # 3 < 7
    assert state.movers == ["hertfordshire", "pelletier"]  # Pontbriand had not begun: never pushed
    for ship_id in ("pelletier", "hertfordshire", "pontbriand", "raven"):
        state, events = act(state, end(ship_id))
        order += finished(events)
    assert order == ["pelletier", "hertfordshire", "pontbriand", "raven"] and state.phase == "combat"


def test_h2_3_toggle_off_and_ranks_in_a_tie():
    state, _ = roll(ALONE)  # H1 without H2
    assert refused(state, seize("pelletier")) == "seize the initiative is not in use in this game"
    state, _ = roll(TIE_STAYS, seize=True)
    assert state.move_order == [["raven"], ["hertfordshire", "pontbriand"], ["pelletier"]]
    state, _ = act(state, end("raven"), record("hertfordshire", "1011", "N"))
    assert "not ranked lower" in refused(state, seize("pontbriand"))  # its rank is the group's
    state, _ = act(state, seize("pelletier"))
    assert "Pelletier" in refused(state, record("pontbriand", "1008", "S"))  # no reveal while Pelletier moves
    state, _ = act(state, step("pelletier"), end("pelletier"))
    state, events = act(state, record("hertfordshire", "1012", "N"))  # R-H1.6: replaced after the seizure
    assert "again" in events[0].text and state.sealed_moves["hertfordshire"].bow == "1012"
    state, _ = act(state, record("pontbriand", "1008", "S"))
    assert state.ship("hertfordshire").describe_position(state.board) == "1012 facing N"
    assert state.phase == "combat"


@pytest.mark.parametrize("seed", range(8))
def test_in_any_legal_sequence_every_ship_finishes_its_move_exactly_once_a_turn(seed):
    """A seeded random walk over the options (seizures, steps, records, ends of move) for three turns."""
    rng = random.Random(seed)
    state, _ = roll(ALONE if seed % 2 else TIE_STAYS, seize=True, seed=f"walk {seed}")
    turns = 0
    finished_now: list[str] = []
    while turns < 3 and state.phase != "over":
        possible = [o.action for o in QUICK_START.options(state) if o.possible]
        if state.phase == "movement":  # leave skipping the rest of the movement for last
            possible = [a for a in possible if a["kind"] != "end_movement"] or possible
        if state.phase == "combat":
            possible = [{"kind": "end_turn"}]
            for ship in state.active_ships:
                assert finished_now.count(ship.id) == 1, (ship.id, finished_now)
        action = rng.choice(possible)
        outcome = QUICK_START.apply(state, action)
        assert outcome.ok, (action, outcome)
        state = outcome.state
        finished_now += finished(outcome.events)
        finished_now += [s for e in outcome.events if e.kind == "moves_revealed" for s in e.data["positions"]]
        assert len(finished_now) == len(set(finished_now)), finished_now
        if action["kind"] == "end_turn":
            turns, finished_now = turns + 1, []
            assert (state.movers, state.move_order, state.sealed_moves) == ([], [], {})
    assert turns == 3


def test_the_banner_and_the_ship_list_follow_a_seize():
    """Issue 28.3: under H1 the ship list marked "to move" by side and type (another ship than the
    banner's), and the banner's order stayed the rolled one after a seize."""
    from companion.app.banners import banner
    from companion.app.viewmodels import ship_rows

    def to_move(state):
        return [row.id for row in ship_rows(state) if row.status == "to move"]

    state, _ = roll(ALONE, seize=True)
    assert to_move(state) == ["pontbriand"] == list(banner(state).next_ships)
    state, _ = act(state, step("pontbriand"), seize("pelletier"))
    told = banner(state)
    assert to_move(state) == ["pelletier"] == list(told.next_ships)
    assert "Order: Pelletier; Pontbriand; HML Raven; HML Hertfordshire." in told.detail
    state, _ = act(state, end("pelletier"))
    assert to_move(state) == ["pontbriand"]
    assert "Order: Pontbriand; HML Raven; HML Hertfordshire." in banner(state).detail


def test_the_shared_screen_names_the_ship_that_seized():
    """The TV's whose-turn line follows the banner's movers too (issue 28.3)."""
    from companion.app.screenmodel import screen_model

    state, _ = roll(ALONE, seize=True)
    state, _ = act(state, step("pontbriand"), seize("pelletier"))
    model = screen_model(state, (), 0)
    assert model.whose == "French to move: Pelletier" and model.whose_side == "French"
