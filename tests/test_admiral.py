"""The admiral (issue 38): legal orders everywhere, each with its reason in numbers, the same orders
for the same seed, whole games headless, what it may see, and the commands' bad input."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.commands import main
from companion.commands.common import scenario_state
from companion.engine.admiral import LEVELS, orders
from companion.engine.admiral.duel import play, seeded, tournament, wilson
from companion.engine.kernel import Refused
from companion.engine.quick_start.house_rules import with_house_rules
from companion.engine.quick_start.table_rules import HouseRules

ROOT = Path(__file__).resolve().parent.parent
QUICK_START = str(ROOT / "fleets" / "duel-quick-start.json")
WAR_FLEET = str(ROOT / "fleets" / "war-fleet-5v5.json")
HOUSE_RULES = [HouseRules(), HouseRules(unit_initiative=True), HouseRules(unit_initiative=True, seize_initiative=True),
               HouseRules(declared_turns=True), HouseRules(declared_turns=True, declare_direction=True),
               HouseRules(one_hex_ships=True)]
#: positions the default run checks (the slow run: `pytest -m slow tests/test_admiral.py`, 10,000)
DEFAULT_POSITIONS = 40
SLOW_POSITIONS = 10_000


def start(path: str, seed: str) -> tuple[Any, Any]:
    ruleset, _, state = scenario_state(path, [], "not a scenario", to_play=True)
    return ruleset, seeded(state, seed)


def table_step(ruleset: Any, state: Any, rng: random.Random) -> Any:
    """The table's next step (a roll first), the state after it, or None when there is none."""
    kit = ruleset.admiral
    steps = [c for c in ruleset.candidates(state, None) if c["kind"] in kit.rolls or c["kind"] in kit.table_steps]
    steps.sort(key=lambda c: c["kind"] not in kit.rolls)
    for action in steps:
        outcome = ruleset.apply(state, action)
        if not isinstance(outcome, Refused):
            return outcome.state
    return None


def random_move(ruleset: Any, state: Any, rng: random.Random) -> Any:
    """One ship that may move now moved to a random end of its reach (the state unchanged if none may)."""
    kit = ruleset.admiral
    movers = [s for s in state.active_ships if not kit.moved(s)
              and not isinstance(ruleset.apply(state, {"kind": "end_move", "ship": s.id}), Refused)]
    if not movers:
        return state
    ship = rng.choice(movers)
    end = rng.choice(ruleset.reach(state, ship.id).positions)
    if end.path:
        outcome = ruleset.apply(state, {"kind": "move_along", "ship": ship.id, "steps": list(end.path)})
        state = outcome.state if not isinstance(outcome, Refused) else state
    outcome = ruleset.apply(state, {"kind": "end_move", "ship": ship.id})
    return outcome.state if not isinstance(outcome, Refused) else state


def random_fire(ruleset: Any, state: Any, rng: random.Random) -> Any:
    """Some guns of some ships fire at random (each shot tried through apply)."""
    for ship in state.active_ships:
        for shot in ruleset.admiral.shots(state, ship.id):
            if rng.random() < 0.3:
                outcome = ruleset.apply(state, shot.action)
                state = outcome.state if not isinstance(outcome, Refused) else state
    return state


def positions(count: int, seed: str) -> Iterator[tuple[Any, Any]]:
    """`count` positions of both rulesets (Quick-Start under every house rule set, War Fleet's 10 ships)
    in which a side may move or fire, reached by random play from seeded games."""
    rng = random.Random(seed)
    found = 0
    game = 0
    while found < count:
        game += 1
        path = QUICK_START if game % 2 else WAR_FLEET
        ruleset, state = start(path, f"{seed}:{game}")
        if path == QUICK_START:
            state = with_house_rules(state, rng.choice(HOUSE_RULES))
        for _ in range(400):
            if state.phase == "over" or state.turn > 8 or found >= count:
                break
            if state.phase in ("movement", "combat"):
                found += 1
                yield ruleset, state
            if state.phase == "movement" and rng.random() < 0.7:
                after = random_move(ruleset, state, rng)
            elif state.phase == "combat" and rng.random() < 0.5:
                after = random_fire(ruleset, state, rng)
            else:
                after = state
            if after is state:
                after = table_step(ruleset, state, rng)
                if after is None:
                    break
            state = after


def check_orders(count: int, seed: str) -> tuple[int, int, int]:
    """(positions, orders given, orders refused): every side's orders at a level drawn in turn, each taken
    through `apply` on the whole state, in order; no order puts a ship of its side out of play."""
    levels = list(LEVELS)
    given = refused = checked = 0
    for number, (ruleset, state) in enumerate(positions(count, seed)):
        checked += 1
        for side in state.sides:
            level = levels[(number + len(side)) % len(levels)]
            ours = len([s for s in state.active_ships if s.side == side])
            for order in orders(ruleset, state, side, level, seed=str(number), budget=0.05):
                given += 1
                outcome = ruleset.apply(state, order.action)
                if isinstance(outcome, Refused):
                    refused += 1
                    continue
                state = outcome.state
            assert len([s for s in state.active_ships if s.side == side]) == ours, "an order wasted a ship"
    return checked, given, refused


def test_every_order_is_one_the_rules_accept():
    checked, given, refused = check_orders(DEFAULT_POSITIONS, "legal")
    assert checked == DEFAULT_POSITIONS and given > DEFAULT_POSITIONS and refused == 0


@pytest.mark.slow
@pytest.mark.timeout(7200)
def test_every_order_is_one_the_rules_accept_over_ten_thousand_positions(capsys):
    checked, given, refused = check_orders(SLOW_POSITIONS, "legal, slow")
    with capsys.disabled():
        print(f"\nadmiral legality: {checked} positions, {given} orders, {refused} refused")
    assert checked == SLOW_POSITIONS and refused == 0


def movement_position(path: str, seed: str) -> tuple[Any, Any, str]:
    """A game in its first movement, and the side that moves first."""
    ruleset, state = start(path, seed)
    while state.phase != "movement":
        state = table_step(ruleset, state, random.Random(0))
    side = next(side for side in state.sides if orders(ruleset, state, side, "scripted"))
    return ruleset, state, side


@pytest.mark.parametrize("path", [QUICK_START, WAR_FLEET])
def test_the_same_seed_gives_the_same_orders(path):
    ruleset, state, side = movement_position(path, "same")
    first = [o.as_json() for o in orders(ruleset, state, side, "admiral", seed="7", budget=120)]
    again = [o.as_json() for o in orders(ruleset, state, side, "admiral", seed="7", budget=120)]
    assert first and first == again
    assert first[0]["action"]["kind"] in ("move_along", "end_move")


@pytest.mark.parametrize("path", [QUICK_START, WAR_FLEET])
def test_every_order_carries_its_reason_in_numbers(path):
    ruleset, state, side = movement_position(path, "words")
    for level in LEVELS:
        for order in orders(ruleset, state, side, level, budget=120):
            assert re.search(r"\d", order.reason), order
            if order.action["kind"] == "move_along":
                assert re.search(r"to \d{4} facing (N|NE|SE|S|SW|NW), \d+ MP; because: ", order.reason), order
    ruleset, state = start(path, "fire")
    while state.phase != "combat":  # every ship closes on the enemy until it may fire
        moved = False
        for s in state.sides:
            for order in orders(ruleset, state, s, "greedy"):
                state, moved = ruleset.apply(state, order.action).state, True
        state = state if moved else table_step(ruleset, state, random.Random(0))
    shots = [o for s in state.sides for o in orders(ruleset, state, s, "admiral")]
    assert shots and all(re.search(r": \d+(\.\d)?% to damage", o.reason) for o in shots), shots


def test_the_admiral_sees_only_what_its_side_may_see():
    ruleset, state, side = movement_position(QUICK_START, "view")
    asked: list[Any] = []

    def view(seen: Any, who: Any) -> Any:
        asked.append(who)
        return seen

    spied = dataclasses.replace(ruleset, view=view)
    assert orders(spied, state, side, "cadet") and asked == [side]


@pytest.mark.parametrize("path, levels", [(QUICK_START, ("cadet", "scripted")), (WAR_FLEET, ("scripted", "cadet"))])
def test_bot_against_bot_games_play_to_the_end_the_same_each_time(path, levels):
    ruleset, state = start(path, "bots")
    sides = dict(zip(state.sides, levels))
    first = play(ruleset, state, sides, "bots", max_turns=3)
    again = play(ruleset, state, sides, "bots", max_turns=3)
    assert first.actions == again.actions and first.winner == again.winner
    kinds = {action["kind"] for action in first.actions}
    assert {"move_along", "end_move"} <= kinds and first.turns >= 2 or first.winner is not None
    tally = tournament(ruleset, lambda s: seeded(state, s), levels, 2, "pair", max_turns=2)
    assert tally.games == 2 and sum(tally.wins.values()) + tally.draws == 2


def test_the_interval_is_wilsons():
    share, low, high = wilson(80, 100)
    assert share == 0.8 and round(low, 3) == 0.711 and round(high, 3) == 0.867


# --- the commands --------------------------------------------------------------------------------


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_admiral_command_gives_orders_as_act_takes_them(capsys, tmp_path):
    data = str(tmp_path)
    code, out, _ = run(capsys, "new", QUICK_START, "--seed", "3", "--data", data)
    game = out.strip()
    run(capsys, "act", game, '{"kind": "roll_initiative"}', "--data", data)
    moving = [side for side in ("British", "French")
              if json.loads(run(capsys, "admiral", game, "--side", side, "--level", "cadet", "--json",
                                "--data", data)[1])["orders"]]
    assert len(moving) == 1
    code, out, err = run(capsys, "admiral", game, "--side", moving[0], "--json", "--data", data)
    found = json.loads(out)["orders"]
    assert code == 0 and found and all(set(o) == {"action", "reason"} for o in found)
    for order in found:
        assert run(capsys, "act", game, json.dumps(order["action"]), "--data", data)[0] == 0
    code, out, _ = run(capsys, "admiral", game, "--side", moving[0], "--data", data)
    assert code == 0 and "nothing to do now" in out


@pytest.mark.parametrize("argv, words", [
    (["--side", "Prussian"], "--side: no side 'Prussian'"),
    (["--side", "French", "--level", "general"], "--level: unknown level 'general': the levels are scripted,"),
])
def test_admiral_command_bad_input_is_one_plain_line(capsys, tmp_path, argv, words):
    data = str(tmp_path)
    game = run(capsys, "new", QUICK_START, "--data", data)[1].strip()
    code, out, err = run(capsys, "admiral", game, *argv, "--data", data)
    assert code == 1 and out == "" and err.count("\n") == 1 and words in err


def test_duel_command(capsys):
    code, out, err = run(capsys, "duel", WAR_FLEET, "--sides", "scripted,cadet", "--games", "2", "--seed", "1",
                         "--turns", "2", "--json")
    result = json.loads(out)
    assert code == 0 and set(result["wins"]) == {"scripted", "cadet"}
    assert sum(result["wins"].values()) + result["draws"] == 2 == result["games"]
    code, out, err = run(capsys, "duel", WAR_FLEET, "--sides", "scripted,greedy", "--games", "1", "--turns", "1")
    assert code == 0 and "1 games, scripted against greedy" in out and "95% interval" in out


@pytest.mark.parametrize("argv, words", [
    ([WAR_FLEET, "--sides", "admiral"], "--sides: give two levels"),
    ([WAR_FLEET, "--sides", "admiral,general"], "unknown level 'general'"),
    ([WAR_FLEET, "--sides", "captain,captain"], "two different levels"),
    ([str(ROOT / "fleets" / "decisive-victory" / "sample.json"), "--sides", "admiral,cadet"],
     "the app cannot play Decisive Victory"),
])
def test_duel_command_bad_input_is_one_plain_line(capsys, argv, words):
    code, out, err = run(capsys, "duel", *argv)
    assert code == 1 and out == "" and err.count("\n") == 1 and words in err
