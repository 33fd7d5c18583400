"""The table screen's house-rule data (app/rulesets/quick_start/house_model.py): the H1 banner, each ship's
house-rule moves as the rules offer them, and what a device shows of a sealed record."""

from companion.app.banners import banner, house_banner
from companion.app.rulesets.quick_start.house_model import house_moves
from companion.engine.quick_start.ruleset import QUICK_START

from test_house_unit_initiative import TIE_STAYS, act, record, roll, step, table


def test_the_banner_asks_for_a_d10_a_ship_and_names_the_move_order():
    first = banner(table(declared_turns=True))
    assert first.actions == ("roll_unit_initiative",) and "rolls 1d10" in first.detail
    assert "House rules: unit initiative, declared turns." in first.detail
    state, _ = roll(TIE_STAYS)
    moving = house_banner(state)
    assert moving.title == "Turn 1 · Movement: HML Raven (initiative 10)" and moving.next_ships == ("raven",)
    assert "Order: HML Raven; HML Hertfordshire and Pontbriand (simultaneously); Pelletier." in moving.detail
    assert house_banner(table()) is not None and house_banner(table().model_copy(update={"phase": "combat"})) is None


def test_a_tied_pair_records_and_only_its_own_side_reads_the_record():
    state, _ = roll(TIE_STAYS)
    state, _ = act(state, {"kind": "end_move", "ship": "raven"}, record("hertfordshire", "1011", "N"))
    assert "(HML Hertfordshire recorded)" in house_banner(state).detail
    assert house_moves(state, "pontbriand").recording and house_moves(state, "hertfordshire").recording
    british, french = QUICK_START.view_for(state, "British"), QUICK_START.view_for(state, "French")
    assert house_moves(british, "hertfordshire").status.startswith("Recorded: 1011 facing N")
    assert house_moves(french, "hertfordshire").status == "Recorded (sealed until the reveal)"
    assert house_moves(state, "hertfordshire", holds_a_side=False).status == "Recorded (sealed until the reveal)"


def test_each_move_offered_is_one_the_rules_accept_now():
    state, _ = roll({"hertfordshire": [4], "raven": [10], "pontbriand": [9], "pelletier": [3]}, seize=True,
                    declared_turns=True)
    idents = {ship: [m.ident for m in house_moves(state, ship).moves] for ship in ("pontbriand", "raven")}
    assert idents == {"pontbriand": ["declare-turn"], "raven": ["seize-initiative"]}  # Pontbriand 12 moves now
    state, _ = act(state, {"kind": "declare_turn", "ship": "pontbriand"})
    pontbriand = house_moves(state, "pontbriand")
    assert [m.ident for m in pontbriand.moves] == ["cancel-turn"]
    assert pontbriand.status == "Turn declared: 0 of 2 hexes entered"
    state, _ = act(state, step("pontbriand"))
    assert house_moves(state, "pontbriand").status == "Turn declared: 1 of 2 hexes entered"


def test_before_movement_a_ship_shows_its_chance_to_move_before_each_enemy():
    from companion.app.rulesets.quick_start.house_model import initiative_chances

    words = initiative_chances(table(), "raven")  # Type 1 (+0) against Type 2 (+3) and Type 1
    # two decimals, as house-rules.md 4.10 shows them (issue 25 part 8: was 22.5%)
    assert words == " Chance HML Raven moves before: Pontbriand 22.47% (together 0.49%), Pelletier 49.50% (together 1.00%)."
    assert initiative_chances(roll(TIE_STAYS)[0], "raven") == ""  # once the order is rolled, it is known
