"""The kernel under every `apply`, and (below) the conformance test run over every ruleset."""

from __future__ import annotations

from companion.engine import game as quick_start_game
from companion.engine.kernel import Applied, RefusalKind, Refused
from companion.engine.turn import to_move
from companion.engine.warfleet import game as war_fleet_game

from random_games import starting_state
from warfleet_for_tests import table, warship


# --- the kernel: one result type, refusals with a kind ---------------------------------------


def test_both_applys_return_the_kernels_result_types():
    assert quick_start_game.Applied is war_fleet_game.Applied is Applied
    assert quick_start_game.Refused is war_fleet_game.Refused is Refused
    outcome = quick_start_game.apply(starting_state(), {"kind": "roll_initiative"})
    assert isinstance(outcome, Applied) and outcome.ok and outcome.events


def test_a_refusal_made_the_old_way_still_reads_the_old_way():
    refused = Refused("no game is open")
    assert (refused.ok, refused.reason, refused.kind) == (False, "no game is open", RefusalKind.ILLEGAL)


def test_malformed_action_data_is_refused_as_malformed_with_what_and_where():
    outcome = quick_start_game.apply(starting_state(), {"kind": "step", "ship": "raven", "step": 7})
    assert not outcome.ok and outcome.kind == RefusalKind.MALFORMED
    assert outcome.reason.startswith("not an action: step")
    outcome = war_fleet_game.apply(table(warship("a", "X"), warship("b", "Y")), {"kind": "fly"})
    assert not outcome.ok and outcome.kind == RefusalKind.MALFORMED
    assert outcome.reason.startswith("not a War Fleet action")


def test_wrong_phase_and_not_your_turn_are_told_apart_from_illegal():
    state = starting_state()
    outcome = quick_start_game.apply(state, {"kind": "step", "ship": "raven", "step": "forward"})
    assert (outcome.ok, outcome.kind) == (False, RefusalKind.PHASE)
    state = quick_start_game.apply(state, {"kind": "roll_initiative"}).state
    other = next(s for s in state.ships if (s.side, s.card.type) != to_move(state))
    outcome = quick_start_game.apply(state, {"kind": "step", "ship": other.id, "step": "forward"})
    assert (outcome.ok, outcome.kind) == (False, RefusalKind.TURN), outcome
    outcome = quick_start_game.apply(state, {"kind": "concede", "side": "Prussians"})
    assert (outcome.ok, outcome.kind) == (False, RefusalKind.ILLEGAL)
    wf = table(warship("a", "X"), warship("b", "Y"), phase="initiative")
    outcome = war_fleet_game.apply(wf, {"kind": "end_combat"})
    assert (outcome.ok, outcome.kind) == (False, RefusalKind.PHASE)


def test_a_game_that_is_over_refuses_as_game_over_but_takes_card_corrections():
    state = quick_start_game.apply(starting_state(), {"kind": "concede", "side": "French"}).state
    outcome = quick_start_game.apply(state, {"kind": "roll_initiative"})
    assert (outcome.ok, outcome.kind) == (False, RefusalKind.GAME_OVER)
    assert outcome.reason == "the game is over: French concedes. British wins."
    assert quick_start_game.apply(state, {"kind": "set_bookkeeping", "on": True}).ok

