"""The kernel under every `apply`, and (below) the conformance test run over every ruleset."""

from __future__ import annotations

from companion.engine.quick_start import game as quick_start_game
from companion.engine.kernel import Applied, RefusalKind, Refused
from companion.engine.quick_start.turn import to_move
from companion.engine.war_fleet import game as war_fleet_game
from companion.engine.quick_start.ruleset import QUICK_START

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


# --- shared play asks the ruleset who an action belongs to ---------------------------------------


def test_shared_play_refuses_an_action_kind_no_side_and_not_the_table_owns():
    """Fail closed: a new action kind missed in the side rules is not open to every side."""
    from companion.app.roles import Role, may

    state = starting_state()
    problem = may(Role.holding("British"), {"kind": "bribe_the_umpire", "side": "French"}, state, QUICK_START)
    assert problem and "bribe_the_umpire" in problem
    assert may(Role.holding("British"), {"kind": "roll_initiative"}, state, QUICK_START) is None
    assert may(Role.holding("British"), {"kind": "step", "ship": "raven", "step": "forward"}, state, QUICK_START) is None
    assert "French" in may(Role.holding("British"), {"kind": "step", "ship": "pelletier", "step": "forward"}, state, QUICK_START)
    assert may(Role.table(), {"kind": "bribe_the_umpire"}, state, QUICK_START) is None  # the whole table: the game says no


# --- conformance: every registered ruleset ------------------------------------------------------

import json  # noqa: E402
import random  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

import pytest  # noqa: E402

from companion.engine.ruleset import Ruleset  # noqa: E402
from companion.engine.registry import RULESETS, find_ruleset, ruleset_for_format  # noqa: E402
import functools  # noqa: E402

from random_games import dv_attack_offers, options_game, random_log  # noqa: E402
from warfleet_for_tests import attack, loc, stats  # noqa: E402

#: One example of every action kind, as a log keeps it.  A new kind needs an example here.
EXAMPLES = {
    "quick-start": [
        {"kind": "roll_initiative", "faces": {"British": [3, 5], "French": [1, 2]}},
        {"kind": "set_initiative", "side": "British"},
        {"kind": "step", "ship": "raven", "step": "port"},
        {"kind": "place", "ship": "raven", "bow": "0405", "facing": 2, "moved": True},
        {"kind": "end_move", "ship": "raven"},
        {"kind": "end_movement"},
        {"kind": "declare_shot", "attacker": "raven", "location": "bow", "slot": 1, "target": "pelletier",
         "target_location": "stern"},
        {"kind": "cancel_shot", "shot": 2},
        {"kind": "choose_location", "shot": 1, "location": "stern"},
        {"kind": "resolve_shot", "shot": 1, "table": {"pool": [4, 6], "slot": [3], "keel": []}},
        {"kind": "mark_slot", "ship": "raven", "location": "port", "slot": 2, "status": "destroyed"},
        {"kind": "set_keel", "ship": "raven", "broken": False},
        {"kind": "start_game"},
        {"kind": "end_turn"},
        {"kind": "concede", "side": "French"},
        {"kind": "set_bookkeeping", "on": True},
        {"kind": "declare_turn", "ship": "raven", "side": None},
        {"kind": "cancel_turn", "ship": "raven"},
        {"kind": "roll_unit_initiative", "faces": {"raven": [4, 0], "pelletier": [4, 7]}},
        {"kind": "set_move_order", "order": [["raven"], ["hertfordshire", "pontbriand"], ["pelletier"]]},
        {"kind": "record_move", "ship": "raven", "bow": "0405", "facing": "N", "moved": None},
        {"kind": "seize_initiative", "ship": "pelletier"},
        {"kind": "set_house_rules", "house_rules": {"declared_turns": True, "one_hex_ships": True}},
        {"kind": "move_along", "ship": "raven", "steps": [{"kind": "step", "ship": "raven", "step": "forward"},
                                                           {"kind": "declare_turn", "ship": "raven", "side": None}]},
    ],
    "war-fleet": [
        {"kind": "roll_placement", "faces": {"X": [3], "Y": [5]}},
        {"kind": "set_placement_first", "side": "X"},
        {"kind": "place", "ship": "a", "hex": "1010", "facing": "N"},
        {"kind": "roll_initiative", "faces": None},
        {"kind": "set_initiative", "side": "Y"},
        {"kind": "step", "ship": "a", "step": "forward"},
        {"kind": "pivot", "ship": "a", "facing": 3},
        {"kind": "end_move", "ship": "a"},
        {"kind": "end_group"},
        {"kind": "end_movement"},
        {"kind": "declare_attack", "attacker": "a", "locations": ["bow"], "target": "b", "target_location": None},
        {"kind": "cancel_attack", "attack": 1},
        {"kind": "roll_attack", "attack": 1, "table": {"attack": [6, 2], "si": [4]}},
        {"kind": "open_pocket", "ships": ["a", "b"]},
        {"kind": "resolve_pocket", "pocket": 1,
         "ships": {"a": {"casualty": True, "destroyed_locations": []}, "b": {"casualty": False,
                                                                         "destroyed_locations": ["bow"]}}},
        {"kind": "end_combat"},
        {"kind": "end_turn"},
        {"kind": "mark_location", "ship": "a", "location": "bow", "status": "destroyed"},
        {"kind": "set_stats", "ship": "a", "stats": stats("a").model_dump(mode="json", by_alias=True)},
        {"kind": "set_casualty", "ship": "b", "casualty": False},
        {"kind": "concede", "side": "X"},
        {"kind": "set_bookkeeping", "on": False},
        {"kind": "move_along", "ship": "a", "steps": [{"kind": "pivot", "ship": "a", "facing": 3},
                                                       {"kind": "step", "ship": "a", "step": "forward"}]},
    ],
    "decisive-victory": [
        {"kind": "start_game"},
        {"kind": "use_ability", "ship": "hms-dash", "ability": "damage_control", "payer": "hms-sample",
         "system": "Guns", "mode": "ignore_damaged"},
        {"kind": "end_command"},
        {"kind": "roll_initiative", "faces": {"British": [2, 1], "Japanese": [2, 5]}},
        {"kind": "set_initiative", "side": "British"},
        {"kind": "resolve_attacking"},
        {"kind": "place_flight", "flight": "f1"},
        {"kind": "move_flight", "flight": "f1"},
        {"kind": "intercept", "cap_flight": "f1", "flight": "f2"},
        {"kind": "air_attack", "attackers": ["f1"], "target": "f2"},
        {"kind": "aa_fire", "ship": "hms-dash", "flight": "f2", "points": 1},
        {"kind": "air_strike", "flight": "f2", "target": "hms-dash"},
        {"kind": "resolve_returning"},
        {"kind": "land_flight", "flight": "f1", "base": "hms-sample"},
        {"kind": "launch_flight", "flight": "f1"},
        {"kind": "end_aircraft"},
        {"kind": "set_speed", "ship": "hms-dash", "mode": "half"},
        {"kind": "move", "ship": "hms-dash", "inches": "7/2", "turns": 1, "use_carried_turn": False},
        {"kind": "close_action", "ship": "hms-dash", "other": "ijn-kaze", "paid_by": None,
         "table": {"ship": [4, 1], "other": [6, 6]}},
        {"kind": "end_move", "ship": "hms-dash"},
        {"kind": "end_movement"},
        {"kind": "searchlight", "ship": "hms-dash", "target": "ijn-kaze", "distance": 5},
        {"kind": "star_shell", "ship": "hms-dash", "system": "secondary"},
        {"kind": "illuminate", "ships": ["ijn-kaze"]},
        {"kind": "radar_roll", "ship": "hms-dash", "system": "main", "target": "ijn-kaze"},
        {"kind": "declare_attack", "ship": "hms-dash", "system": "main", "target": "ijn-kaze", "distance": 12},
        {"kind": "roll_attack", "attack": 1},
        {"kind": "end_activation"},
        {"kind": "end_attacks"},
        {"kind": "maintenance_roll", "ship": "hms-dash", "step": "catastrophic"},
        {"kind": "trade_damage", "ship": "hms-dash", "blocks": 1},
        {"kind": "pay_abandon", "ship": "hms-dash"},
        {"kind": "abandon", "ship": "hms-dash"},
        {"kind": "drift_smoke", "smoke": "smoke-1-hms-dash"},
        {"kind": "end_turn"},
        {"kind": "mark_box", "ship": "hms-dash", "box": [2, 3], "marked": True},
        {"kind": "set_damage", "ship": "hms-dash", "points": 3},
        {"kind": "set_minor", "ship": "hms-dash", "minor": 1},
        {"kind": "set_rudder", "ship": "hms-dash", "rudder": "ahead"},
        {"kind": "remove_ship", "ship": "hms-dash", "how": "sunk"},
        {"kind": "concede", "side": "Japanese"},
        {"kind": "set_bookkeeping", "on": True},
    ],
}


def _war_fleet_start(seed: int):
    """Two ships a side a few hexes apart, every location armed, initiative to roll."""
    from companion.engine.board import Board

    gun = loc(gun=attack(short=(2, "DYellow"), long=(5, "DBlue")))

    def armed(name: str, ship_class: int):
        return stats(name, ship_class=ship_class, bow=gun, port=gun, starboard=gun, stern=gun)

    ships = [warship("a", "X", armed("a", 2), hex_="0303", facing="S"),
             warship("b", "X", armed("b", 3), hex_="0503", facing="S"),
             warship("c", "Y", armed("c", 2), hex_="0307", facing="N"),
             warship("d", "Y", armed("d", 3), hex_="0607", facing="N")]
    return table(*ships, phase="initiative", seed=f"conformance {seed}", board=Board(columns=12, rows=10))


def _dv_start(seed: int):
    """The Decisive Victory sample scenario (three ships a side), dice seeded."""
    from pathlib import Path

    from companion.engine.roller import Roller

    ruleset = find_ruleset("decisive-victory")
    sample = Path(__file__).resolve().parent.parent / "fleets" / "decisive-victory" / "sample.json"
    return ruleset.build_state(ruleset.load_scenario(json.loads(sample.read_text())), None,
                               Roller.from_seed(f"conformance {seed}"))


def _options_log(ruleset: Ruleset, initial, seed: int, length: int):
    """A random game through the ruleset's own options (tests/random_games.py); a Decisive Victory
    game is steered to declare and roll attacks, which its options leave to the table."""
    offers = dv_attack_offers if ruleset.id == "decisive-victory" else None
    return options_game(ruleset, initial, seed, length, offers)


def _play_random_game(ruleset: Ruleset, seed: int):
    """(start, log, end) of a seeded random game of this ruleset."""
    if ruleset.id == "quick-start":
        initial, log = random_log(seed, length=150)  # tests/random_games.py plays Quick-Start
        return initial, log, ruleset.replay(initial, log)
    initial = _war_fleet_start(seed) if ruleset.id == "war-fleet" else _dv_start(seed)
    end, log = _options_log(ruleset, initial, seed, length=150)
    return initial, log, end


@functools.lru_cache(maxsize=None)
def _played(ruleset_id: str, seed: int):
    initial, log, end = _play_random_game(find_ruleset(ruleset_id), seed)
    return initial, tuple(json.dumps(a) for a in log), end


def _random_game(ruleset: Ruleset, seed: int):
    """(start, log, end) of a seeded random game of this ruleset, played once per test run."""
    initial, log, end = _played(ruleset.id, seed)
    return initial, [json.loads(a) for a in log], end


RULESET_IDS = sorted(RULESETS)


@pytest.fixture(params=RULESET_IDS)
def ruleset(request) -> Ruleset:
    return find_ruleset(request.param)


def _union_kinds(ruleset: Ruleset) -> set[str]:
    return set(ruleset.actions.json_schema()["discriminator"]["mapping"])


def test_the_registry_finds_each_ruleset_by_id_and_names_the_known_ids_otherwise():
    assert set(RULESETS) == {"quick-start", "war-fleet", "decisive-victory"}
    for ruleset_id, ruleset in RULESETS.items():
        assert find_ruleset(ruleset_id) is ruleset and ruleset.id == ruleset_id
        assert ruleset_for_format(ruleset.scenario_format) is ruleset
    with pytest.raises(ValueError, match="quick-start, war-fleet, decisive-victory"):
        find_ruleset("chess")
    assert ruleset_for_format("leviathans-card/1") is None


def test_every_kind_of_the_action_union_has_a_handler_an_example_and_an_owner(ruleset):
    kinds = _union_kinds(ruleset)
    assert kinds == set(ruleset.handlers)
    assert {e["kind"] for e in EXAMPLES[ruleset.id]} == kinds
    assert not (ruleset.table_actions & set(ruleset.side_of)), "a kind is both a side's and the table's"
    assert kinds == ruleset.table_actions | set(ruleset.side_of), "every kind belongs to a side or the table"
    assert ruleset.after_over <= kinds


def test_every_action_kind_round_trips_through_json(ruleset):
    for example in EXAMPLES[ruleset.id]:
        action = ruleset.parse_action(json.loads(json.dumps(example)))
        dumped = ruleset.dump_action(action)
        assert ruleset.parse_action(json.loads(json.dumps(dumped))) == action, example["kind"]
        assert dumped["kind"] == example["kind"]


@pytest.mark.parametrize("seed", [3, 11])
def test_a_seeded_random_game_replays_identically(ruleset, seed):
    initial, log, end = _random_game(ruleset, seed)
    assert len(log) > 20
    stored = json.loads(json.dumps(log))  # as the log keeps it
    assert ruleset.replay(initial, stored) == end
    assert ruleset.replay(ruleset.state_type.model_validate_json(initial.model_dump_json()), stored) == end
    again_initial, again_log, again_end = _play_random_game(ruleset, seed)
    assert (json.loads(json.dumps(again_log)), again_end) == (log, end)


def test_a_refusal_is_data_not_an_exception(ruleset):
    state = _random_game(ruleset, 5)[0]
    for bad in (None, 7, "step", [], {}, {"kind": "no_such_kind"}, {"kind": "step", "ship": 3},
                {"kind": "concede", "side": "nobody"}, {"kind": "end_turn", "extra": 1}):
        outcome = ruleset.apply(state, bad)
        assert not outcome.ok and outcome.reason and outcome.kind in RefusalKind, bad
    with pytest.raises(ValueError, match="refused"):
        ruleset.replay(state, [{"kind": "no_such_kind"}])


def test_options_are_the_engines_own_answers_with_reasons(ruleset):
    initial, log, _ = _random_game(ruleset, 7)
    state = ruleset.replay(initial, log[:8])
    options = ruleset.options(state)
    assert any(o.possible for o in options)
    for option in options:
        outcome = ruleset.apply(state, option.action)
        assert outcome.ok == option.possible and (option.possible or option.problem == outcome.reason)


def test_side_of_names_a_side_of_the_game_for_a_ships_action(ruleset):
    state = _random_game(ruleset, 5)[0]
    ship = state.ships[0]
    action = {"kind": "end_move", "ship": ship.id}
    assert ruleset.side(action, state) == ship.side
    assert ruleset.side({"kind": "end_movement"}, state) is None
    assert ruleset.side({"kind": "end_move", "ship": "nobody"}, state) is None
    with pytest.raises(KeyError):
        ruleset.side({"kind": "no_such_kind"}, state)


def test_a_variant_is_a_ruleset_of_its_own_id_with_the_changes():
    base = find_ruleset("quick-start")
    seize = base.variant("quick-start+test", "Quick-Start (test)", table_actions=base.table_actions - {"end_turn"},
                         side_of={**base.side_of, "end_turn": lambda data, state: None})
    assert (seize.id, seize.variant_of, base.id) == ("quick-start+test", "quick-start", "quick-start")
    assert "end_turn" in base.table_actions and "end_turn" not in seize.table_actions
    assert seize.handlers is base.handlers


def test_a_ruleset_hides_nothing_so_every_device_is_sent_the_whole_state(ruleset):
    state = _random_game(ruleset, 5)[0]
    for side in [*state.sides, None]:
        assert ruleset.view_for(state, side) is state


def test_a_variant_with_secret_shots_sends_each_only_to_the_side_that_declared_it():
    """Issue 13: a house rule's secret moves are kept from the other side and the shared screen."""
    from companion.engine.quick_start.state import Shot

    def own_shots_only(state, side):
        mine = [s for s in state.shots if side is not None and state.ship(s.attacker).side == side]
        return state.model_copy(update={"shots": mine})

    secret = find_ruleset("quick-start").variant("quick-start+secret", "Quick-Start (secret shots)", view=own_shots_only)
    state = starting_state()
    british = next(s for s in state.ships if s.side == "British")
    french = next(s for s in state.ships if s.side == "French")
    shot = Shot(id=1, attacker=british.id, location="bow", slot=1, target=french.id, target_location="bow")
    state = state.model_copy(update={"shots": [shot]})
    assert secret.view_for(state, "British").shots == [shot]
    assert secret.view_for(state, "French").shots == [] and secret.view_for(state, None).shots == []
    assert secret.view_for(state, "French").ships == state.ships and state.shots == [shot]


def test_the_engine_with_its_rulesets_still_imports_neither_flet_nor_tinydb():
    code = ("import sys, companion.engine.registry as r; r.RULESETS;"
            "print(sorted(m for m in ('flet', 'tinydb') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_server_refuses_the_other_sides_ship_with_the_kind_not_your_side():
    from companion.app.sharing import Role, Sharing
    from companion.engine.roller import Roller
    from companion.store import MemoryStore

    game = MemoryStore().new_game(starting_state(1), "shared", roller=Roller.from_seed(1))
    sharing = Sharing()
    table_ = sharing.table(game)
    phone = sharing.connect(None, "10.0.0.5")
    sharing.admit(phone, sharing.pin)
    sharing.choose(phone, game, Role.holding("British"))
    refused = table_.act(phone, {"kind": "end_move", "ship": "pelletier"})
    assert (refused.ok, refused.kind) == (False, RefusalKind.SIDE) and "French" in refused.reason
    refused = table_.act(phone, {"kind": "bribe_the_umpire"})  # a kind no side and not the table owns
    assert (refused.ok, refused.kind) == (False, RefusalKind.SIDE) and game.entries == []


# --- the store holds games of every ruleset ------------------------------------------------------


def _stored_game(store, ruleset: Ruleset, seed: int):
    """A game of `ruleset` in `store`, played through its log (with an undo and a redo)."""
    from companion.engine.roller import Roller

    initial, log, _ = _random_game(ruleset, seed)
    game = store.new_game(initial, f"{ruleset.name} {seed}", roller=initial.roller if initial.roller.seed != "00"
                          else Roller.from_seed(seed))
    for action in log[:40]:
        assert game.act(action).ok, action
    assert game.undo() and game.redo()
    return game


def test_the_store_keeps_a_game_of_every_ruleset_and_reopens_it(ruleset, tmp_path):
    from companion.store import TinyDBStore

    store = TinyDBStore(tmp_path)
    game = _stored_game(store, ruleset, 3)
    assert game.ruleset is ruleset
    listed = {s.id: s for s in store.games()}
    assert listed[game.id].ruleset == ruleset.id and listed[game.id].actions == 40
    store.close()
    again = TinyDBStore(tmp_path)
    reopened = again.game(game.id)
    assert reopened.ruleset is ruleset and reopened.state == game.state
    assert {s.id: s.ruleset for s in again.games()} == {game.id: ruleset.id}
    again.close()


def test_export_import_and_verify_hold_for_every_ruleset(ruleset, tmp_path):
    import json as json_module

    from companion.store import MemoryStore
    from companion.store.verify import verify_game

    store = MemoryStore()
    game = _stored_game(store, ruleset, 11)
    document = json_module.loads(json_module.dumps(store.export_game(game.id)))
    assert document["ruleset"] == ruleset.id
    copy = MemoryStore().import_game(document)
    assert copy.ruleset is ruleset and copy.state == game.state
    checked = verify_game(store.stored(game.id))
    assert not checked.mismatches and checked.commitment_ok


def test_a_record_from_before_rulesets_reads_as_quick_start():
    from companion.store.repository import GameRecord

    doc = GameRecord("g", "old", 1.0, "c", starting_state()).to_doc()
    del doc["ruleset"]
    assert GameRecord.from_doc(doc).ruleset == "quick-start"
    doc["ruleset"] = "chess"
    with pytest.raises(ValueError, match="no ruleset 'chess'"):
        GameRecord.from_doc(doc)


def test_what_a_device_is_shown_goes_through_its_roles_view():
    """Issue 13: the game frame and the shared screen compute what they show from `Role.sees`."""
    from companion.app.roles import Role
    from companion.engine.quick_start.state import Shot

    def own_shots_only(state, side):
        return state.model_copy(update={"shots": [s for s in state.shots if state.ship(s.attacker).side == side]})

    secret = find_ruleset("quick-start").variant("quick-start+secret", "Quick-Start (secret shots)", view=own_shots_only)
    state = starting_state()
    british, french = (next(s for s in state.ships if s.side == side) for side in ("British", "French"))
    state = state.model_copy(update={"shots": [Shot(id=1, attacker=british.id, location="bow", slot=1,
                                                    target=french.id, target_location="bow")]})
    assert Role.table().sees(secret, state) is state
    assert len(Role.holding("British").sees(secret, state).shots) == 1
    assert Role.holding("French").sees(secret, state).shots == [] and Role.screen().sees(secret, state).shots == []


# --- every shared feature on a game with attacks (issue 25) -------------------------------------------


def _cli(capsys, *argv) -> tuple[int, str, str]:
    from companion.commands import main

    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_every_shared_feature_runs_on_a_game_with_attacks_of_every_ruleset(ruleset, tmp_path, capsys):
    """A seeded game that declares and resolves attacks (or shots), stored with an undo and a redo:
    `report` (CLI and the app's model), `replay --to N` at every N (and the app's replay), `verify`,
    and `export` then `import` into another data folder, each without an error."""
    from companion.app.replay_model import replay_of
    from companion.app.report_model import report_screen
    from companion.store import TinyDBStore

    data = tmp_path / "data"
    store = TinyDBStore(data)
    game = _stored_game(store, ruleset, 3)
    game_id, end, entries = game.id, game.state, len(game.entries)
    assert any(a["kind"] in ("resolve_shot", "roll_attack") for a in _random_game(ruleset, 3)[1][:40])
    screen = report_screen(store, game_id)
    assert screen.problem is None and sum(bar.value for bar in screen.guns) > 0, screen.problem
    replay = replay_of(store, game_id)
    assert replay.last == entries and replay.state(entries) == end
    assert any(step.rolls for step in replay.steps)
    store.close()

    code, page, err = _cli(capsys, "report", game_id, "--data", data, "--out", "-")
    assert (code, err) == (0, "") and page.count("<svg") == 4
    for n in range(entries + 1):
        code, out, err = _cli(capsys, "replay", game_id, "--data", data, "--to", n)
        assert (code, err) == (0, ""), (n, err)
        position = json.loads(out)
        assert position["format"] == ruleset.scenario_format and ruleset.load_scenario(position) is not None, n
    assert ruleset.load_scenario(position) == ruleset.load_scenario(ruleset.save_scenario(end, position["name"]))
    code, out, err = _cli(capsys, "verify", game_id, "--data", data)
    assert (code, err) == (0, ""), out
    exported = tmp_path / "game.json"
    code, out, _ = _cli(capsys, "export", game_id, "--data", data, exported)
    assert code == 0 and out.startswith("exported ")
    code, out, err = _cli(capsys, "import", exported, "--data", tmp_path / "other")
    assert (code, err) == (0, "") and out.startswith("imported ")
    other = TinyDBStore(tmp_path / "other")
    [copy] = other.games()
    assert other.game(copy.id).state == end and copy.ruleset == ruleset.id
    other.close()
