"""The Decisive Victory screen model (companion/app/dv_model.py): what a DV game's screens show,
computed from the state, with the spec's worked examples (decisive-victory.md §20) read through it."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.app.rulesets.decisive_victory import model as M
from companion.engine.decisive_victory.state import AttackFacts, DVAttack
from companion.engine.kernel import Event
from companion.files import shipped_fleets_dir


@pytest.fixture
def sample():
    return M.sample_game(shipped_fleets_dir(), "dv-model")


def with_ship(state, ship_id, **changes):
    return state.model_copy(update={"ships": [s.model_copy(update=changes) if s.id == ship_id else s
                                              for s in state.ships]})


def test_the_sample_scenario_starts_in_setup_with_its_six_ships(sample):
    banner = M.banner(sample)
    assert banner.title == "Turn 1 · Set-up"
    assert [s.action for s in banner.steps] == [{"kind": "start_game"}]
    rows = M.ship_rows(sample)
    assert [r.name for r in rows] == ["HMS Sample", "HMS Dash", "HMS Dart", "IJN Mihon", "IJN Kaze", "IJN Nami"]
    cruiser = rows[0]
    assert cruiser.head == "Cruiser · speed 15\" · turning class 2 · Admiral · flagship"
    assert cruiser.damage == "Damage 0 (CDT 5) · minor 0"
    assert "21 in tubes: 2 salvoes left" in cruiser.notes


def test_the_grid_is_four_rows_of_six_with_the_reconstructed_cells_marked(sample):
    ship = with_ship(sample, "hms-sample", boxes=frozenset({(2, 2), (4, 6)})).ship("hms-sample")
    state = with_ship(sample, "hms-sample", boxes=frozenset({(2, 2), (4, 6)}))
    lines = M.grid_lines(state, ship)
    assert [line.label for line in lines] == ["1 (deck)", "2-3 (belt)", "4-5 (belt)", "6 (underwater)"]
    assert [[c.system for c in line.cells] for line in lines] == [
        ["AA", "AA", "Com", "Com", "AA", "AA"], ["AA", "Guns", "Guns", "Flight", "Guns", "AA"],
        ["Turn", "Struct", "Struct", "Torp", "Struct", "Turn"], ["Turn", "Speed", "Speed", "Speed", "Speed", "Turn"]]
    assert [line.reconstructed for line in lines] == [False, True, True, False]
    assert [c.box for line in lines for c in line.cells if c.unverified] == [
        (2, 3), (2, 4), (2, 5), (2, 6), (3, 4), (3, 5), (3, 6)]
    assert [c.box for line in lines for c in line.cells if c.marked] == [(2, 2), (4, 6)]


def test_a_cruiser_with_two_guns_boxes_has_its_guns_damaged(sample):
    state = with_ship(sample, "hms-sample", boxes=frozenset({(2, 2), (2, 3)}))
    row = M.ship_row(state, state.ship("hms-sample"))
    guns = next(s for s in row.systems if s.name == "Guns")
    assert (guns.status, guns.marked, guns.boxes) == ("damaged", 2, 3)


def test_phase_banners_carry_the_spec_action_kinds(sample):
    kinds = {phase: [s.action["kind"] for s in M.banner(sample.model_copy(update={"phase": phase})).steps]
             for phase in ("command", "initiative", "movement", "attacks", "maintenance")}
    assert kinds == {"command": ["end_command"], "initiative": ["roll_initiative"], "movement": ["end_movement"],
                     "attacks": ["end_activation", "end_attacks"], "maintenance": ["end_turn"]}
    assert "British d6+3, Japanese d6+3" in M.banner(sample.model_copy(update={"phase": "initiative"})).detail


def test_abilities_offer_the_flagship_as_payer_for_another_ship(sample):
    choices = {c.ident: c.action for c in M.ability_choices(sample, "hms-dash")}
    assert choices["dv-ability-scuttle"] == {"kind": "use_ability", "ship": "hms-dash", "ability": "scuttle"}
    assert choices["dv-ability-concentrate_fire-flagship"]["payer"] == "hms-sample"
    assert not any(i.endswith("-flagship") for i in (c.ident for c in M.ability_choices(sample, "hms-sample")))


def test_dv15_movement_limits_in_words(sample):
    """DV-15: cruiser speed 15, turning class 2: full 8-15", a turn 1" and 90 degrees."""
    assert M.movement_words(sample, "hms-sample").startswith(
        "Full speed: 8\" to 15\" (each turn costs 1\"). One turn per 2\" moved, up to 90° each.")
    damaged = with_ship(sample, "hms-sample", boxes=frozenset({(3, 1), (3, 6)}), speed_mode="half")
    assert M.movement_words(damaged, "hms-sample").startswith(
        "Half speed: 0\" to 8\" (each turn costs 2\"). One turn per 2\" moved, up to 45° each.")


def test_a_move_is_typed_as_exact_inches_and_whole_turns():
    assert M.move_action("hms-dash", "7.5", "2") == {"kind": "move", "ship": "hms-dash", "inches": "15/2", "turns": 2}
    assert M.move_action("hms-dash", "10", "", carried=True)["use_carried_turn"] is True
    assert "whole number" in M.move_action("hms-dash", "10", "1.5")


def test_dv3_the_odds_before_rolling(sample):
    """DV-3: cruiser main (FC 4) at 17": m = 2 -> 11/36; at 16" -2 as well; at 15.9" m = 3 -> 4/9;
    a target at a complete stop: m = 7 -> 5/6."""
    p = M.preview(sample, "hms-sample", "main", "ijn-mihon", "17")
    assert (p.modifier, p.hit) == (2, Fraction(11, 36))
    assert p.modifiers == (("fire control", 4), ("range (every full 8\")", -2))
    assert p.action == {"kind": "declare_attack", "ship": "hms-sample", "system": "main", "target": "ijn-mihon",
                        "distance": "17", "facts": {"in_arc": True, "bow_on": False, "smoke": False}, "full_fc": True}
    assert M.preview(sample, "hms-sample", "main", "ijn-mihon", "16").modifier == 2
    assert M.preview(sample, "hms-sample", "main", "ijn-mihon", "15.9").hit == Fraction(4, 9)
    stopped = with_ship(sample, "ijn-mihon", speed_mode="stop")
    assert M.preview(stopped, "hms-sample", "main", "ijn-mihon", "17").hit == Fraction(5, 6)
    assert M.preview(sample, "hms-sample", "main", "ijn-mihon", "seventeen").problem


def test_dv9_a_full_gun_attack_in_the_preview_lines(sample):
    """DV-9: cruiser main at 17" on the cruiser: hit 11/36, first save fails 71/324, bonus 11/648,
    E[damage points] 1349/5832."""
    p = M.preview(sample, "hms-sample", "main", "ijn-mihon", "17")
    assert p.lines[0] == "Hit 30.6% (11/36) at +2"
    assert p.lines[1] == "N7 bonus hit 1.7% (11/648)"
    assert p.lines[2] == "Save fails 21.9% (71/324)"
    assert p.lines[3] == "Damage points expected 0.23 (1349/5832)"


def test_dv10_torpedoes_in_the_preview(sample):
    """DV-10: destroyer torpedoes (FC 3) at 7" on the cruiser: m = 1, hit 1/6, E[damage] 17/54; no N7 bonus."""
    p = M.preview(sample, "ijn-kaze", "torpedoes", "hms-sample", "7")
    assert (p.modifier, p.hit) == (1, Fraction(1, 6))
    assert p.lines[0] == "Hit 16.7% (1/6) at +1"
    assert not any("N7" in line for line in p.lines)
    assert "(17/54)" in p.lines[2]


def test_declared_attacks_keep_their_odds(sample):
    attack = DVAttack(id=1, ship="hms-sample", system="main", target="ijn-mihon", distance=Fraction(17),
                      facts=AttackFacts())
    state = sample.model_copy(update={"phase": "attacks", "attacks": [attack]})
    ((shown, p),) = M.declared_previews(state)
    assert shown is attack and p.hit == Fraction(11, 36) and p.action is None


def test_table_dice_for_an_attack_in_the_spec_shape():
    assert M.attack_table("3 4", "4,3", "1 1 / 2 5", "4 2 / 6 6", "") == {
        "attack": [3, 4], "bonus": [4, 3], "saves": [[1, 1], [2, 5]], "damage": [[4, 2], [6, 6]]}
    assert M.attack_table("34") == {"attack": [3, 4]}
    with pytest.raises(ValueError, match="two dice"):
        M.attack_table("3")
    with pytest.raises(ValueError, match="not a face"):
        M.attack_table("3 7")
    assert M.initiative_faces({"British": "5", "Japanese": "2 6", "Other": ""}) == {"British": [5], "Japanese": [2, 6]}


def test_dv13_maintenance_rows(sample):
    """DV-13: a cruiser (CDT 5) with 6 damage points and 8 minor: P(sink) 7/64, 2 grid rolls; a
    destroyer with 6 points must pay 2 CP or be abandoned (DV-14)."""
    state = with_ship(sample, "hms-sample", damage_points=6, minor_damage=8)
    state = with_ship(state, "hms-dash", damage_points=6)
    rows = {r.ship: r for r in M.maintenance_rows(state.model_copy(update={"phase": "maintenance"}))}
    assert rows["hms-sample"].lines == ("Catastrophic test: 6 dice, sinks on 5+ fours: 10.9% (7/64)",
                                        "Minor damage 8: 2 grid rolls",
                                        "Next: the catastrophic damage test (6 damage points, CDT 5)")
    assert [c.action for c in rows["hms-sample"].steps] == [
        {"kind": "maintenance_roll", "ship": "hms-sample", "step": "catastrophic"}]
    assert set(rows) == {"hms-sample", "hms-dash"}
    dash = rows["hms-dash"]
    assert dash.lines[0] == "Catastrophic test: 6 dice, sinks on 3+ fours: 65.6% (21/32)"
    after = with_ship(state, "hms-dash", damage_points=6, maintenance_done=["struct", "catastrophic"])
    dash = {r.ship: r for r in M.maintenance_rows(after.model_copy(update={"phase": "maintenance"}))}["hms-dash"]
    assert "pay 2 CP or abandon ship" in dash.lines[-1]
    assert [c.action for c in dash.steps] == [
        {"kind": "pay_abandon", "ship": "hms-dash"},
        {"kind": "pay_abandon", "ship": "hms-dash", "payer": "hms-sample"},
        {"kind": "abandon", "ship": "hms-dash"}]


def test_maintenance_table_dice():
    assert M.maintenance_table("4 5 1", "2 3 / 6 6", "") == {"dice": [4, 5, 1], "grid": [[2, 3], [6, 6]]}
    with pytest.raises(ValueError, match="two dice"):
        M.maintenance_table("", "2 3 4")


def test_the_last_roll_reads_the_dice_of_the_newest_event():
    history = [Event(kind="phase", text="Turn 1: command phase."),
               Event(kind="attack", text="HMS Sample hits with a N7", data={"dice": [
                   {"colour": "D6", "face": 3, "role": "first"}, {"colour": "D6", "face": 4, "role": "second"}]}),
               Event(kind="box_marked", text="Box (2-3, 4) marked")]
    roll = M.last_roll(history)
    assert roll == M.LastRoll("Attack", "HMS Sample hits with a N7", (("first", 3), ("second", 4)))
    assert M.last_roll(history[:1]) is None
    assert M.log_lines(history)[0] == "Turn 1: command phase."


def test_percent_is_exact_beside_the_rounded():
    assert M.percent(Fraction(4, 9)) == "44.4% (4/9)"
    assert M.percent(Fraction(1)) == "100%"


def test_close_action_either_ship_or_a_flagship_pays_or_they_collide(sample):
    choices = {c.ident: c.action for c in M.close_action_choices(sample, "hms-dash", "ijn-kaze")}
    assert list(choices) == ["dv-close-paid-hms-dash", "dv-close-paid-ijn-kaze", "dv-close-paid-hms-sample",
                             "dv-close-paid-ijn-mihon", "dv-close-collision"]
    assert choices["dv-close-collision"] == {"kind": "close_action", "ship": "hms-dash", "other": "ijn-kaze",
                                             "paid_by": None}


def test_searchlight_star_shell_and_radar_before_the_attacks(sample):
    assert M.aid_choices(sample, "hms-sample", "main", "ijn-mihon", "5") == ()  # daylight, no radar
    night = sample.model_copy(update={"conditions": sample.conditions.model_copy(update={"night": True})})
    aids = {c.ident: c.action for c in M.aid_choices(night, "hms-sample", "main", "ijn-mihon", "5.5")}
    assert aids == {"dv-searchlight": {"kind": "searchlight", "ship": "hms-sample", "target": "ijn-mihon", "distance": "11/2"},
                    "dv-star-shell": {"kind": "star_shell", "ship": "hms-sample", "system": "main"}}
    ship = sample.ship("hms-sample")
    record = ship.record.model_copy(update={"weapons": [w.model_copy(update={"radar": 4}) if w.id == "main" else w
                                                        for w in ship.record.weapons]})
    radar = with_ship(sample, "hms-sample", record=record)
    assert [c.action for c in M.aid_choices(radar, "hms-sample", "main", "ijn-mihon", "")] == [
        {"kind": "radar_roll", "ship": "hms-sample", "system": "main", "target": "ijn-mihon"}]


def test_the_models_actions_are_the_engines(sample):
    """Every action the screens send is one the engine takes (spec §16 kinds and fields)."""
    from companion.engine.registry import find_ruleset

    rules = find_ruleset(M.RULESET)
    state = sample

    def act(action):
        nonlocal state
        outcome = rules.apply(state, action)
        assert outcome.ok, (action, getattr(outcome, "reason", ""))
        state = outcome.state

    act(M.banner(state).steps[0].action)
    act(next(c.action for c in M.ability_choices(state, "hms-dash") if c.ident == "dv-ability-evasive"))
    act(M.banner(state).steps[0].action)
    act({"kind": "roll_initiative", "faces": M.initiative_faces({"British": "5", "Japanese": "2"})})
    act(M.move_action("ijn-mihon", "10", "1"))
    act(M.close_action_choices(state, "ijn-mihon", "hms-dash")[0].action)
    act({"kind": "end_move", "ship": "ijn-mihon"})
    assert "hms-dash" in state.ship("ijn-mihon").close_action_with


def test_the_preview_says_when_the_rules_would_refuse_the_attack():
    """Issue 28.4: with "In arc" off the odds showed and Declare was then refused; the preview now
    carries the rules' own refusal beside the odds (and a declarable attack none)."""
    from dv_for_tests import sample_game as in_phase

    attacks = in_phase("attacks")
    assert M.preview(attacks, "hms-sample", "main", "ijn-mihon", "17").refused is None
    out_of_arc = M.preview(attacks, "hms-sample", "main", "ijn-mihon", "17", in_arc=False)
    assert out_of_arc.refused == "IJN Mihon is not in the 6 in battery's fire arc (003:55)"
    assert out_of_arc.hit == Fraction(11, 36)  # the odds stay shown


def test_a_rolled_attack_keeps_its_dice_on_its_card():
    """Issue 28: a rolled attack's dice showed only in the fading note; its card keeps them (this
    turn's rolls of that attack, the attack roll first)."""
    from dv_for_tests import sample_game as in_phase
    from companion.engine.decisive_victory.game import apply

    state, history = in_phase("attacks"), []
    for action in ({"kind": "declare_attack", "ship": "hms-sample", "system": "main", "target": "ijn-mihon",
                    "distance": "12", "facts": {"in_arc": True}},
                   {"kind": "roll_attack", "attack": 1, "table": {"attack": [1, 2]}}):
        outcome = apply(state, action)
        assert outcome.ok, outcome.reason
        state, history = outcome.state, history + list(outcome.events)
    rolls = M.attack_rolls(history, 1)
    assert rolls[0].dice == (("first", 1), ("second", 2)) and "1, 2 at +3: miss" in rolls[0].text
    assert M.attack_rolls(history, 2) == ()
    ended = history + [Event(kind="end_turn", text="Turn 1 ends.", data={"turn": 1})]
    assert M.attack_rolls(ended, 1) == ()  # last turn's attack 1 is not this turn's


def test_the_attacks_tab_picks_a_ship_of_the_side_that_attacks():
    """Issue 35: the Attacks tab kept the ship last selected, the other side's, while British attacked."""
    from dv_for_tests import act, sample_game

    def everyone(_ship_id):
        return True

    state = sample_game("attacks", initiative="British")  # the winner attacks first (003:50)
    assert M.attacking_side(state) == "British"
    assert [s.id for s in M.attackers(state, everyone)] == ["hms-sample", "hms-dash", "hms-dart"]
    assert M.attacker_pick(state, "ijn-mihon", everyone) == "hms-sample"  # not the Japanese ship selected
    assert M.attacker_pick(state, "hms-dash", everyone) == "hms-dash"  # a British ship stays picked
    assert M.attacker_pick(state, "ijn-mihon", lambda s: s.startswith("ijn")) is None  # Japan's phone waits
    started = act(state, kind="declare_attack", ship="hms-dart", system="main", target="ijn-kaze", distance="10").state
    assert M.attacker_pick(started, "hms-sample", everyone) == "hms-dart"  # the ship in its activation
    done = sample_game("attacks", initiative="Japanese")
    assert M.attacker_pick(done, "hms-sample", everyone) == "ijn-mihon"
    assert M.attackers(sample_game("movement"), everyone) == []


def test_the_last_roll_of_an_attack_holds_every_stage_in_words():
    """Issue 35: the TV's LAST ROLL showed the attack's last damage dice alone; it now holds the
    whole roll: the attack roll, the N7 bonus roll, each hit, save, damage and box marked, and
    every die of them; the events before the roll (its declaration) and after it are not its."""
    from dv_for_tests import act, sample_game

    state = act(sample_game("attacks"), kind="declare_attack", ship="hms-sample", system="main",
                target="ijn-mihon", distance="12").state
    declared = act(state, kind="declare_attack", ship="hms-sample", system="secondary", target="ijn-kaze", distance="12")
    rolled = act(declared.state, kind="roll_attack", attack=1,
                 table={"attack": [4, 3], "bonus": [2, 5], "saves": [[6, 3], [1, 1]], "damage": [[4, 2], [5, 5]]})
    history = [*declared.events, *rolled.events]
    roll = M.last_roll(history)
    assert roll.stages == tuple(e.text for e in rolled.events)
    assert [e.kind for e in rolled.events] == ["attack", "hit", "save", "damage", "box_marked"] * 2
    assert [face for _, face in roll.dice] == [4, 3, 6, 3, 4, 2, 2, 5, 1, 1, 5, 5]
    assert M.last_roll(declared.events) is None  # a declaration rolls nothing
