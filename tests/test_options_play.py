"""`companion options` lists every action the rules allow (issue 35): a game driven by nothing but
its options (a random possible one taken, again and again) plays to its end in every ruleset, each
option taken as listed; and Decisive Victory's seed-33 game, which stalled in maintenance with only
an impossible `end_turn` listed after 29 actions, now lists its due rolls."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.commands import main
from companion.commands.common import scenario_state
from companion.engine.decisive_victory.maintenance import maintenance_left
from companion.engine.roller import Roller

ROOT = Path(__file__).resolve().parent.parent
FLEETS = [str(ROOT / "fleets" / "quick-start-british.json"), str(ROOT / "fleets" / "quick-start-french.json")]
DV_SAMPLE = str(ROOT / "fleets" / "decisive-victory" / "sample.json")
QUICK_START = {
    "format": "leviathans-scenario/1", "ruleset": "quick-start", "name": "Raven meets Pelletier",
    "board": {"columns": 33, "rows": 19}, "turn": 1,
    "ships": [{"id": "raven", "side": "British", "card": "hml-raven", "bow": "1010", "facing": "N"},
              {"id": "pelletier", "side": "French", "card": "pelletier", "bow": "1005", "facing": "S"}],
}
HOUSE_RULES = {"unit_initiative": True, "seize_initiative": True, "declared_turns": True, "one_hex_ships": True}
WAR_FLEET_SHIPS = {"hml-raven-1", "hml-hertfordshire-1", "montpellier-1", "pontbriand-1"}
MOST_ACTIONS = 1500


def _scenarios(tmp_path: Path) -> dict[str, str]:
    """Each ruleset's scenario file: Quick-Start (and with every house rule), a four-ship War Fleet
    battle cut from the 20v20 one, Decisive Victory's sample and its carrier strike."""
    war_fleet = json.loads((ROOT / "fleets" / "war-fleet-20v20.json").read_text(encoding="utf-8"))
    war_fleet["ships"] = [s for s in war_fleet["ships"] if s["id"] in WAR_FLEET_SHIPS]
    files = {"quick-start": QUICK_START, "house-rules": {**QUICK_START, "house_rules": HOUSE_RULES},
             "war-fleet": war_fleet}
    paths = {}
    for name, data in files.items():
        paths[name] = str(tmp_path / f"{name}.json")
        Path(paths[name]).write_text(json.dumps(data), encoding="utf-8")
    paths["decisive-victory"] = DV_SAMPLE
    paths["carrier-strike"] = str(ROOT / "fleets" / "decisive-victory" / "carrier-strike.json")
    return paths


def play_by_options(path: str, seed: int) -> tuple[object, int]:
    """A game from `path` (as `companion new --seed` starts it) driven only by its options: a random
    possible one applied until the game is over; (the last state, how many actions)."""
    ruleset, _, state = scenario_state(path, FLEETS, "a scenario", roller=Roller.from_seed(str(seed)), to_play=True)
    rng = random.Random(seed)
    for taken in range(MOST_ACTIONS):
        if state.phase == "over":
            return state, taken
        listed = ruleset.options(state)
        possible = [o.action for o in listed if o.possible]
        assert possible, f"stalled in {state.phase}, turn {state.turn}: only {[o.action for o in listed]} listed"
        outcome = ruleset.apply(state, rng.choice(possible))
        assert outcome.ok
        state = outcome.state
    raise AssertionError(f"no end in {MOST_ACTIONS} actions: turn {state.turn}, {state.phase}")


@pytest.mark.parametrize("rules, seeds", [
    ("quick-start", (1, 2)), ("house-rules", (1, 2)), ("war-fleet", (1, 2)),
    ("decisive-victory", (33, 3)), ("carrier-strike", (1,)),
])
def test_a_game_driven_only_by_its_options_reaches_its_end(tmp_path, rules, seeds):
    path = _scenarios(tmp_path)[rules]
    for seed in seeds:
        state, taken = play_by_options(path, seed)
        assert state.phase == "over" and state.result, (rules, seed)
        assert 0 < taken < MOST_ACTIONS


# --- the seed-33 game, through the commands ---------------------------------------------------------


def run(capsys, *argv) -> str:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == 0 and err == "", err
    return out


def test_the_seed_33_game_lists_its_due_maintenance_rolls(capsys, tmp_path):
    """`companion new sample.json --seed 33`, then a random possible option (random.Random(33))
    taken with `companion act` each time, until the game is in maintenance with rolls due (after
    32 actions: a catastrophic damage test, a minor damage step and smoke drifts); `options`
    lists each of them, possible, and `end_turn` not possible until they are done."""
    data = tmp_path / "data"
    game = run(capsys, "new", DV_SAMPLE, "--seed", "33", "--data", data).strip()
    rng = random.Random(33)

    def options() -> list[dict]:
        return json.loads(run(capsys, "options", game, "--json", "--data", data))

    def stalled_before(listed: list[dict]) -> bool:  # end_turn listed, not possible: maintenance is due
        return any(o["action"] == {"kind": "end_turn"} and not o["possible"] for o in listed)

    for _ in range(60):
        listed = options()
        if stalled_before(listed):
            break
        possible = [o["action"] for o in listed if o["possible"]]
        run(capsys, "act", game, json.dumps(rng.choice(possible)), "--data", data)  # taken as listed
    from companion.store.store import open_store
    store = open_store(data)
    state = store.game(store.find(game)).state
    store.close()
    left = maintenance_left(state)
    assert state.phase == "maintenance" and left is not None
    listed = options()
    possible = [o["action"] for o in listed if o["possible"]]
    due = {(s.id, "catastrophic") for s in state.ships if s.in_play and s.damage_points >= s.record.critical_damage_threshold}
    assert due and due <= {(a["ship"], a["step"]) for a in possible if a["kind"] == "maintenance_roll"}
    assert {a["smoke"] for a in possible if a["kind"] == "drift_smoke"} == {s.id for s in state.smoke}
    [end_turn] = [o for o in listed if o["action"] == {"kind": "end_turn"}]
    assert not end_turn["possible"] and "maintenance is not done" in end_turn["problem"]
    while not any(o["action"] == {"kind": "end_turn"} and o["possible"] for o in options()):
        possible = [o["action"] for o in options() if o["possible"] and o["action"]["kind"] != "end_turn"]
        run(capsys, "act", game, json.dumps(possible[0]), "--data", data)
    assert "Turn 1 ends" in run(capsys, "act", game, json.dumps({"kind": "end_turn"}), "--data", data)
