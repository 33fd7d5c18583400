"""The ship card reads like the printed card (issue 18): MP as "6 of 9" with the printed figure
always in view, the SI as printed, the destroyed slots of the half SI, the locations in the
printed card's arrangement, and the go/stop dice explained once."""

from __future__ import annotations

from cards_for_tests import card, position, ship, shipped

from companion.app import viewmodels as vm


def raven(**kwargs):
    return ship("r", "British", shipped("hml-raven"), "1010", **kwargs)


def test_mp_reads_this_turns_of_the_printed_mp_after_an_engine_is_lost():
    """Issue 18: 'MP shown as 6/6 after an engine is lost (the card's 9 gone from view)'."""
    view = vm.card_view(position(raven(damage={("stern", 2): "destroyed"})), "r")
    assert view.card_mp == 9
    assert view.mp_text == "6 of 9"
    assert view.mp_left_text == ""


def test_an_undamaged_ship_reads_its_full_mp_and_a_spent_move_shows_what_is_left():
    fresh = raven()
    assert vm.card_view(position(fresh), "r").mp_text == "9 of 9"
    moved = fresh.model_copy(update={"mp_spent": 5})
    view = vm.card_view(position(moved, phase="movement"), "r")
    assert (view.mp_text, view.mp_left_text) == ("9 of 9", "4 left")


def test_a_card_that_prints_another_starting_mp_keeps_its_printed_figure():
    habsburg = card("h", ship_type=2).model_copy(update={"printed_mp": 11})
    view = vm.card_view(position(ship("h", "Red", habsburg, "1010")), "h")
    assert view.mp_text == f"{habsburg.starting_mp} of 11"


def test_si_and_destroyed_slots_as_the_card_shows_them():
    view = vm.card_view(position(raven(damage={("bow", 2): "destroyed", ("port", 3): "destroyed_this_turn"})), "r")
    assert view.si_text == "20"
    assert view.destroyed_text == "2 of 10"  # half of SI 20 destroys the ship
    noted = card("n", si=24).model_copy(update={"structural_integrity_note": "(25)"})
    assert vm.card_view(position(ship("n", "Red", noted, "1010")), "n").si_text == "24 (25)"


def test_locations_in_the_printed_cards_arrangement():
    """docs/printing.md: bow above, port left, starboard right, stern below."""
    view = vm.card_view(position(raven()), "r")
    assert [(loc.key, loc.place) for loc in view.locations] == [
        ("bow", "top"), ("port", "left"), ("starboard", "right"), ("stern", "bottom")]


def test_a_type_4_card_splits_each_side_into_bow_and_quarter_in_card_order():
    big = card("big", ship_type=4)
    reordered = big.model_copy(update={"locations": dict(reversed(list(big.locations.items())))})
    view = vm.card_view(position(ship("big", "Red", reordered, "1010")), "big")
    assert [(loc.key, loc.place) for loc in view.locations] == [
        ("bow", "top"), ("port_bow", "left"), ("starboard_bow", "right"),
        ("port_quarter", "left"), ("starboard_quarter", "right"), ("stern", "bottom")]


def test_the_go_and_stop_dice_are_explained_once():
    """rules-notes.md §7: a ship moved this turn when it entered a new hex; that picks go or stop."""
    assert vm.DICE_LEGEND == "Location dice: ▶ go if this ship entered a new hex this turn, ■ stop if not"
    moved = vm.card_view(position(raven(moved=True)), "r")
    still = vm.card_view(position(raven()), "r")
    assert {loc.rolling for loc in moved.locations} == {"go"}
    assert {loc.rolling for loc in still.locations} == {"stop"}


def test_a_war_fleet_ship_with_its_rear_destroyed_reads_mp_0_of_its_cards():
    """Seed 004 "MP": rear destroyed, MP 0; the card's MP stays in view (issue 18)."""
    from companion.app.rulesets.war_fleet import model as M
    from companion.app.rulesets.war_fleet.card import converted_card
    from companion.files import load_catalogue, shipped_fleets_dir

    state = M.twenty_against_twenty(load_catalogue(), shipped_fleets_dir(), seed="model")
    ship = next(s for s in state.ships if s.id == "montpellier-1")
    card = converted_card(state, ship.id)
    assert card.head.startswith(f"class 1 · SI 9 · MP {ship.stats.mp} of {ship.stats.mp}")
    wrecked = ship.with_location("stern", "destroyed")
    state = state.model_copy(update={"ships": [wrecked if s.id == ship.id else s for s in state.ships]})
    assert converted_card(state, ship.id).head == f"class 1 · SI 9 · MP 0 of {ship.stats.mp} (rear destroyed)"
