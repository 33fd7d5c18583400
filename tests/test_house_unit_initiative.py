"""House rule H1 "unit initiative" (seed 002:2-16; shared/spec/house-rules.md 3, 4 and the worked
examples H1-1 to H1-5 of section 9), with the shipped Quick-Start cards on the 33 x 19 board."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from companion.engine.quick_start import apply
from companion.engine.board import Board
from companion.engine.dice import Colour, distribution, parse_pool
from companion.engine.quick_start.ruleset import QUICK_START
from companion.engine.roller import Roller
from companion.engine.quick_start.secret_moves import reachable
from companion.engine.quick_start.state import Settings
from companion.engine.quick_start.table_rules import HouseRules
from companion.engine.quick_start.unit_initiative import moves_before
from companion.files import load_catalogue
from companion.store import MemoryStore
from companion.store.verify import dice_in, verify_game

from cards_for_tests import position, ship

CARDS = load_catalogue()
#: H1-3's positions (also H1-2's and H2's: nothing there depends on where the ships stand).
PLACES = {"hertfordshire": ("British", "hml-hertfordshire", "1014", "N"),
          "raven": ("British", "hml-raven", "2014", "N"),
          "pontbriand": ("French", "pontbriand", "1006", "S"),
          "pelletier": ("French", "pelletier", "2006", "S")}
TIE_STAYS = {"hertfordshire": [4, 6], "raven": [10], "pontbriand": [4, 6], "pelletier": [3]}


def table(seize=False, seed="h1", **house):
    """The four ships of section 9 in the initiative phase with H1 (and H2 when `seize`) on."""
    ships = [ship(i, side, CARDS[card], bow, facing, board=Board()) for i, (side, card, bow, facing) in PLACES.items()]
    state = position(*ships, board=Board(), phase="initiative", seed=seed)
    rules = HouseRules(unit_initiative=True, seize_initiative=seize, **house)
    return state.model_copy(update={"settings": Settings(house_rules=rules)})


def act(state, *actions):
    """Each action accepted, in turn: the state after the last, and the last one's events."""
    events = []
    for action in actions:
        outcome = apply(state, action)
        assert outcome.ok, (action, outcome)
        state, events = outcome.state, outcome.events
    return state, events


def refused(state, action):
    outcome = apply(state, action)
    assert not outcome.ok, action
    return outcome.reason


def roll(faces, **kw):
    return act(table(**kw), {"kind": "roll_unit_initiative", "faces": faces})


def step(ship_id, where="forward"):
    return {"kind": "step", "ship": ship_id, "step": where}


def record(ship_id, bow, facing):
    return {"kind": "record_move", "ship": ship_id, "bow": bow, "facing": facing}


# --- the D10 (house-rules.md 3) ------------------------------------------------------------


def test_the_d10_reads_rolls_and_takes_a_table_zero_as_ten():
    assert parse_pool("d10") == parse_pool("D10") == (Colour.D10,) and parse_pool("2D10").notation == "2D10"
    assert distribution(parse_pool("D10")) == {n: Fraction(1, 10) for n in range(1, 11)}
    state, events = roll({"hertfordshire": [0], "raven": [9], "pontbriand": [1], "pelletier": [2]})
    assert state.unit_initiative[0].first.face == 10 and state.unit_initiative[0].first_total == 13
    assert "D10 has no face 11" in refused(table(), {"kind": "roll_unit_initiative", "faces": {
        "hertfordshire": [11], "raven": [9], "pontbriand": [1], "pelletier": [2]}})


# --- H1-1 and the odds of 4.10 ---------------------------------------------------------------


def _brute_force(a, b):
    """Every one of the 10,000 rolls (first pair, re-roll pair), as the procedure of 4.3 orders them."""
    first = simultaneous = 0
    for x, y, x2, y2 in itertools.product(range(1, 11), repeat=4):
        mine, theirs = (x + a, x2 + a), (y + b, y2 + b)
        if mine[0] != theirs[0]:
            first += mine[0] > theirs[0]
        elif mine[1] == theirs[1]:
            simultaneous += 1
        else:
            first += mine[1] > theirs[1]
    return Fraction(first, 10_000), Fraction(simultaneous, 10_000)


def test_h1_1_pair_odds_exact():
    raven_first, together, pontbriand_first = moves_before(0, 3)
    assert (raven_first, together, pontbriand_first) == (Fraction(2247, 10000), Fraction(49, 10000),
                                                         Fraction(963, 1250))
    assert raven_first + together + pontbriand_first == 1
    first_roll = {d: Fraction(10 - abs(d), 100) for d in range(-9, 10)}  # Raven's d10 minus Pontbriand's
    assert sum(p for d, p in first_roll.items() if d > 3) == Fraction(21, 100)
    assert first_roll[3] == Fraction(7, 100) and sum(p for d, p in first_roll.items() if d < 3) == Fraction(18, 25)
    assert moves_before(3, 3) == (Fraction(99, 200), Fraction(1, 100), Fraction(99, 200))


@pytest.mark.parametrize("a, b, expected", [
    (0, 0, (Fraction(99, 200), Fraction(1, 100), Fraction(99, 200))),
    (0, 3, (Fraction(2247, 10000), Fraction(49, 10000), Fraction(963, 1250))),
    (0, 5, (Fraction(21, 200), Fraction(1, 400), Fraction(357, 400))),
    (3, 5, (Fraction(189, 625), Fraction(4, 625), Fraction(432, 625))),
])
def test_the_table_of_4_10(a, b, expected):
    assert moves_before(a, b) == expected
    assert moves_before(b, a) == expected[::-1]


@pytest.mark.parametrize("a, b", [(0, 0), (0, 3), (3, 0), (0, 5), (3, 5), (-2, 7), (0, 9), (0, 10), (1, 12)])
def test_the_odds_formula_equals_brute_force_over_10000_rolls(a, b):
    first, together, second = moves_before(a, b)
    assert (first, together) == _brute_force(a, b) and first + together + second == 1


# --- H1-2 to H1-5 -------------------------------------------------------------------------------


def test_h1_2_a_tie_broken_by_the_reroll_keeps_its_place():
    state, events = roll({"hertfordshire": [4, 8], "raven": [10], "pontbriand": [4, 2], "pelletier": [3]})
    assert state.move_order == [["raven"], ["hertfordshire"], ["pontbriand"], ["pelletier"]]
    assert [e.kind for e in events] == ["unit_initiative", "initiative_tie"]
    assert events[1].data["ships"] == ["hertfordshire", "pontbriand"]
    assert events[1].data["rerolls"] == {"hertfordshire": 11, "pontbriand": 5}
    assert [(r.first_total, r.reroll_total) for r in state.unit_initiative] == [(7, 11), (10, None), (7, 5), (3, None)]
    assert state.phase == "movement" and state.initiative is None
    assert refused(state, step("pontbriand")).startswith("HML Raven (initiative 10) moves now")
    assert apply(state, step("raven")).ok


def test_h1_3_a_tie_that_stays_moves_by_secret_records():
    state, events = roll(TIE_STAYS)
    assert state.move_order == [["raven"], ["hertfordshire", "pontbriand"], ["pelletier"]]
    assert "simultaneous" in [e.kind for e in events]
    state, _ = act(state, {"kind": "end_move", "ship": "raven"})
    assert refused(state, step("hertfordshire")) == ("HML Hertfordshire and Pontbriand move simultaneously: "
                                                     "record their end positions")
    assert "cannot reach 1007 facing N" in refused(state, record("hertfordshire", "1007", "N"))  # 7 steps, 6 MP
    state, events = act(state, record("hertfordshire", "1011", "N"))
    assert [(e.kind, e.data) for e in events] == [("move_recorded", {"ship": "hertfordshire"})]
    french = QUICK_START.view_for(state, "French")
    assert french.ships == state.ships  # no Hertfordshire position change
    assert french.sealed_moves["hertfordshire"].bow == "" and french.sealed_moves["hertfordshire"].facing == -1
    assert "1011" not in french.model_dump_json()
    state, events = act(state, record("pontbriand", "1008", "S"))
    revealed = next(e for e in events if e.kind == "moves_revealed")
    assert set(revealed.data["positions"]) == {"hertfordshire", "pontbriand"}
    ships = {s.id: s for s in state.ships}
    assert ships["hertfordshire"].describe_position(state.board) == "1011 facing N"
    assert ships["pontbriand"].describe_position(state.board) == "1008 facing S"
    assert all(ships[s].moved and ships[s].move_done for s in ("hertfordshire", "pontbriand"))
    assert state.sealed_moves == {} and state.phase == "movement"
    assert apply(state, step("pelletier")).ok  # Pelletier moves next


def test_h1_4_a_missing_reroll_face_is_refused_and_nothing_changes():
    state = table()
    outcome = apply(state, {"kind": "roll_unit_initiative",
                            "faces": {"hertfordshire": [4], "raven": [10], "pontbriand": [4], "pelletier": [3]}})
    assert not outcome.ok
    assert outcome.reason == ("HML Hertfordshire and Pontbriand tie at 7: roll 1d10 again for each "
                              "and enter both faces")
    assert "Pelletier has no face" in refused(state, {"kind": "roll_unit_initiative", "faces": {
        "hertfordshire": [4], "raven": [10], "pontbriand": [4]}})
    assert "not tied" in refused(state, {"kind": "roll_unit_initiative", "faces": {
        "hertfordshire": [4, 1], "raven": [10, 2], "pontbriand": [4, 3], "pelletier": [3]}})


def test_h1_5_records_that_share_a_hex_clash_at_the_reveal():
    state, _ = roll(TIE_STAYS)
    state, _ = act(state, {"kind": "end_move", "ship": "raven"}, record("hertfordshire", "1010", "N"))
    before = state
    state, events = act(state, record("pontbriand", "1010", "S"))
    clash = next(e for e in events if e.kind == "reveal_clash")
    assert clash.data["ships"] == ["hertfordshire", "pontbriand"]
    assert "moves_revealed" not in [e.kind for e in events]
    assert state.sealed_moves == {} and state.ships == before.ships  # both where they stood
    assert not state.ship("hertfordshire").move_done
    state, events = act(state, record("hertfordshire", "1011", "N"), record("pontbriand", "1008", "S"))
    assert "moves_revealed" in [e.kind for e in events]


def test_a_record_may_be_replaced_until_the_reveal_and_must_be_its_ships_to_make():
    state, _ = roll(TIE_STAYS)
    state, _ = act(state, {"kind": "end_move", "ship": "raven"}, record("hertfordshire", "1010", "N"))
    state, events = act(state, record("hertfordshire", "1012", "N"))
    assert "again" in events[0].text and state.sealed_moves["hertfordshire"].bow == "1012"
    assert "moves later" in refused(state, record("pelletier", "2008", "S"))
    assert QUICK_START.view_for(state, "British").sealed_moves["hertfordshire"].bow == "1012"
    assert QUICK_START.view_for(state, None).sealed_moves["hertfordshire"].bow == ""


def test_the_reach_search_is_the_quick_start_movement():
    raven = ship("raven", "British", CARDS["hml-raven"], "1012", "N", board=Board())  # enter 1, 9 MP
    reach = reachable(raven, Board())
    board = Board()
    assert (board.parse("1003"), 0) in reach and (board.parse("1002"), 0) not in reach  # 9 forward, not 10
    assert (raven.bow, 0) in reach and (raven.bow, 1) not in reach  # it must enter a hex before turning
    assert (board.parse("1011"), 1) in reach and (board.parse("1011"), 2) not in reach  # one hexside a hex
    edge = ship("raven", "British", CARDS["hml-raven"], "1002", "N", board=board)
    assert all(board.contains(bow) for bow, _ in reachable(edge, board))


# --- the turn around it -------------------------------------------------------------------------


def test_the_side_roll_is_refused_under_unit_initiative():
    assert refused(table(), {"kind": "roll_initiative"}) == "this game uses unit initiative: roll 1d10 for each ship"
    assert "unit initiative" in refused(table(), {"kind": "set_initiative", "side": "British"})
    plain = table().model_copy(update={"settings": Settings()})
    assert "not in use" in refused(plain, {"kind": "roll_unit_initiative"})


def test_set_move_order_names_every_ship_once():
    state = table()
    assert "Pelletier missing" in refused(state, {"kind": "set_move_order", "order": [
        ["raven"], ["hertfordshire", "pontbriand"]]})
    assert "more than once" in refused(state, {"kind": "set_move_order", "order": [
        ["raven"], ["raven", "hertfordshire", "pontbriand", "pelletier"]]})
    state, _ = act(state, {"kind": "set_move_order", "order": [["pelletier"], ["raven", "hertfordshire"],
                                                                 ["pontbriand"]]})
    assert state.phase == "movement" and state.move_order[0] == ["pelletier"]
    assert "Pelletier (rank 1) moves now" in refused(state, step("raven"))
    state, _ = act(state, step("pelletier"), {"kind": "end_move", "ship": "pelletier"}, step("raven"))
    assert "is moving" in refused(state, step("hertfordshire"))  # one side's group: one ship after another
    state, _ = act(state, {"kind": "end_move", "ship": "raven"}, step("hertfordshire"))


def test_end_movement_discards_records_and_end_turn_clears_the_order():
    state, _ = roll(TIE_STAYS)
    state, _ = act(state, {"kind": "end_move", "ship": "raven"}, record("hertfordshire", "1011", "N"))
    state, events = act(state, {"kind": "end_movement"})
    assert "records_discarded" in [e.kind for e in events] and state.sealed_moves == {}
    assert state.phase == "combat" and state.ship("hertfordshire").describe_position(state.board) == "1014 facing N"
    state, _ = act(state, {"kind": "end_turn"})
    assert (state.phase, state.move_order, state.unit_initiative, state.movers) == ("initiative", [], [], [])


def test_the_options_offer_the_unit_roll_and_the_records():
    kinds = [o.action["kind"] for o in QUICK_START.options(table()) if o.possible]
    assert "roll_unit_initiative" in kinds and "roll_initiative" not in kinds
    state, _ = roll(TIE_STAYS)
    state, _ = act(state, {"kind": "end_move", "ship": "raven"})
    french = [o.action for o in QUICK_START.options(state, "French") if o.possible]
    assert {"kind": "record_move", "ship": "pontbriand", "bow": "1006", "facing": 3} in french
    assert not any(a["kind"] == "record_move" and a["ship"] == "hertfordshire" for a in french)


# --- the roller, replay and verify ------------------------------------------------------------


def test_the_roller_rolls_in_ship_order_and_a_replay_gives_the_same_order():
    rerolled = 0
    for seed in (f"h1 {n}" for n in range(12)):
        start = table(seed=seed)
        state, events = act(start, {"kind": "roll_unit_initiative"})
        dice = dice_in([e.model_dump(mode="json") for e in events])
        assert [c for c, _ in dice] == ["D10"] * len(dice) and len(dice) >= 4
        rolled = [r.first for r in state.unit_initiative] + [r.reroll for r in state.unit_initiative if r.reroll]
        assert [f for _, f in dice] == [d.face for d in rolled]  # the roller's order: firsts, then re-rolls
        assert state.roller.counter == len(dice)
        assert QUICK_START.replay(start, [{"kind": "roll_unit_initiative"}]).move_order == state.move_order
        rerolled += len(dice) > 4
    assert rerolled  # some seed tied


def test_verify_re_derives_every_d10():
    store = MemoryStore()
    game = store.new_game(table().model_copy(update={"roller": Roller(seed="ab" * 32)}), "unit initiative")
    for _ in range(2):  # two turns: rolls, every ship ends its move as the order says, combat, end of turn
        assert game.act({"kind": "roll_unit_initiative"}).ok
        assert game.act({"kind": "end_movement"}).ok and game.act({"kind": "end_turn"}).ok
    result = verify_game(store.stored(game.id))
    assert result.ok and result.roller_dice >= 8 and result.table_dice == 0
