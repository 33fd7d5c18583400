"""The card editor's state (no flet): every field editable, problems in plain words."""

from __future__ import annotations

import pytest

from companion.app.card_draft import BOUNDS, DICE_CHOICES, KIND_NAMES, dice_options, new_card_data
from companion.app.editor_model import CardEditor
from companion.engine.cards import SLOT_KINDS, FormatError, load_card
from companion.engine.dice import parse_pool
from companion.store.library import CardLibrary, based_on, catalogue_of

PORT = ("locations", "port", "slots")


@pytest.fixture
def shipped():
    return catalogue_of(CardLibrary(None)).cards()


@pytest.fixture
def library():
    return CardLibrary(None)


def texts(editor):
    return [p.text for p in editor.problems()]


# --- a new card ------------------------------------------------------------------------


@pytest.mark.parametrize("ship_type", [1, 2, 3, 4])
def test_a_new_card_of_every_type_is_ready_to_save(ship_type):
    editor = CardEditor.new(ship_type)
    assert editor.problems() == []
    card = editor.card()
    assert card.type == ship_type and all(len(loc.slots) == 6 for loc in card.locations.values())
    assert card.starting_mp == editor.starting_mp == 6


def test_five_slots_in_a_location_is_said_in_plain_words_and_fixing_it_clears_it(library):
    editor = CardEditor.new(2)
    editor.remove_slot("port", 4)
    assert texts(editor) == ["Port has 5 slots; a location needs exactly 6 (one for each face of the slot die)"]
    assert [p.path for p in editor.problems()] == [PORT]
    with pytest.raises(FormatError, match="Port has 5 slots"):
        editor.save(library)
    assert library.cards() == {}
    editor.add_slot("port")
    assert editor.problems() == [] and editor.slots("port")[5]["kind"] == "miss"
    editor.add_slot("stern", "engine")
    assert texts(editor) == ["Stern has 7 slots; a location needs exactly 6 (one for each face of the slot die)"]


def test_every_problem_names_its_field():
    editor = CardEditor.new(1)
    editor.set(("name",), "  ")
    editor.set_number(("structural_integrity",), "")
    editor.set_number(("enter_hexes_before_turn",), "-1")
    editor.set_number(PORT + (0, "short", "range"), "9")
    editor.set_number(PORT + (2, "breach_modifier"), "two")
    editor.set(PORT + (0, "name"), "")
    editor.set_number(("locations", "stern", "slots", 2, "mp"), "x")
    editor.set_number(("locations", "bow", "slots", 1, "breach"), "0")
    assert texts(editor) == [
        "Name is empty: every card needs a ship name",
        "Structural Integrity is empty: give a whole number",
        "Hexes to enter before a turn must be at least 0",
        "Bow slot 2 (crew) breach number must be at least 1",
        "Port slot 1 (gun battery): long range 8 is shorter than short range 9",
        "Port slot 1 (gun battery) gun name is empty: name the gun as the card does",
        "Port slot 3 (armour) armour modifier must be a whole number, not 'two'",
        "Stern slot 3 (engine) MP must be a whole number, not 'x'",
    ]
    assert editor.problems()[-1].path == ("locations", "stern", "slots", 2, "mp")
    assert [p.text for p in editor.problems_within(("locations", "port"))] == texts(editor)[4:7]


def test_a_named_gun_is_named_in_its_problems(shipped):
    editor = CardEditor.edit(shipped["pontbriand"])
    editor.set_number(("locations", "bow", "slots", 2, "long", "range"), "3")  # the bow 138mm: slot 3
    assert texts(editor) == ["Bow slot 3 (138mm): long range 3 is shorter than short range 6"]


# --- every field ----------------------------------------------------------------------------


def test_every_field_of_the_card_can_be_set(library):
    editor = CardEditor.new(1)
    for key, value in (("name", "HMS Example"), ("class", "E-class Destroyer"), ("faction", "British"),
                       ("armament", "2 x 4\"")):
        editor.set((key,), value)
    editor.set_number(("structural_integrity",), "16")
    editor.set_number(("enter_hexes_before_turn",), 2)
    editor.set(("locations", "bow", "go"), "DYellow")
    editor.set(("locations", "bow", "stop"), "DRed & DBlue")
    gun = PORT + (0,)
    editor.set(gun + ("name",), "4 IN")
    editor.set_number(gun + ("short", "range"), "5")
    editor.set(gun + ("short", "dice"), "DYellow")
    editor.set_number(gun + ("long", "range"), "10")
    editor.set(gun + ("long", "dice"), "DBlue")
    editor.set_number(gun + ("breach",), "13")
    editor.set_trait("port", 0, "turret", True)
    editor.set_number(gun + ("saturation",), "2")
    editor.set(PORT + (1, "dice"), "DBlue")
    editor.set_kind("port", 3, "other")
    editor.set(PORT + (3, "label"), "Searchlight")
    editor.set_kind("port", 5, "tesla_coil")
    editor.set_number(("locations", "stern", "slots", 2, "mp"), "4")
    editor.set_notes("Checked against my card")
    card = editor.save(library)
    assert card.id == "my-hms-example" and library.get(card.id) == card
    assert (card.name, card.ship_class, card.faction, card.armament) == ("HMS Example", "E-class Destroyer", "British", "2 x 4\"")
    assert (card.structural_integrity, card.enter_hexes_before_turn, card.starting_mp) == (16, 2, 7)
    bow, port = card.locations["bow"], card.locations["port"]
    assert (bow.go, bow.stop) == ("DYellow", "DRed & DBlue")
    g = port.slots[0]
    assert (g.name, g.short.range, g.short.dice, g.long.range, g.long.dice, g.breach) == ("4 IN", 5, "DYellow", 10, "DBlue", 13)
    assert g.traits == ["turret", "saturation"] and g.saturation == 2
    assert port.slots[1].dice == "DBlue" and port.slots[3].label == "Searchlight" and port.slots[5].kind == "tesla_coil"
    assert card.sources.notes == "Checked against my card"


def test_changing_a_slots_kind_keeps_its_breach_number():
    editor = CardEditor.new(1)
    editor.set_number(PORT + (4, "breach"), "15")
    for kind in SLOT_KINDS:
        editor.set_kind("port", 4, kind)
        assert editor.get(PORT + (4, "kind")) == kind and editor.get(PORT + (4, "breach")) == 15
        assert editor.problems() == [], kind
    assert set(KIND_NAMES) == set(SLOT_KINDS)


def test_a_miss_slots_breach_number_may_be_left_empty():
    editor = CardEditor.new(1)
    editor.set_number(PORT + (4, "breach"), "")
    assert "breach" not in editor.get(PORT + (4,)) and editor.problems() == []
    editor.set_number(PORT + (0, "breach"), "")
    assert texts(editor) == ["Port slot 1 (Gun) breach number is empty: give a whole number"]


def test_steppers_stay_within_bounds():
    editor = CardEditor.new(1)
    editor.step(("structural_integrity",), +1)
    assert editor.get(("structural_integrity",)) == 19
    editor.set_number(("enter_hexes_before_turn",), "0")
    assert not editor.can_step(("enter_hexes_before_turn",), -1)
    editor.step(("enter_hexes_before_turn",), -1)
    assert editor.get(("enter_hexes_before_turn",)) == 0
    editor.set_number(("structural_integrity",), "abc")
    editor.step(("structural_integrity",), +1)
    assert editor.get(("structural_integrity",)) == 18, "a stepper on a bad value goes back to a sensible one"
    low, high = BOUNDS["breach"]
    editor.set_number(PORT + (0, "breach"), high)
    editor.step(PORT + (0, "breach"), +1)
    assert editor.get(PORT + (0, "breach")) == high


def test_moving_a_slot_changes_its_slot_number():
    editor = CardEditor.new(1)
    first, second = editor.slots("port")[0], editor.slots("port")[1]
    editor.move_slot("port", 0, +1)
    assert editor.slots("port")[:2] == [second, first]
    version = editor.version
    editor.move_slot("port", 0, -1)  # nothing above slot 1
    assert editor.version == version


def test_the_type_brings_its_locations_and_keeps_what_it_can():
    editor = CardEditor.new(2)
    editor.set(PORT + (0, "name"), "Port gun")
    editor.set_number(("type",), "4")
    assert editor.location_names == ["bow", "port_bow", "starboard_bow", "port_quarter", "starboard_quarter", "stern"]
    assert editor.get(("locations", "port_bow", "slots", 0, "name")) == "Port gun"
    assert editor.problems() == []
    editor.set_type(1)
    assert editor.location_names == ["bow", "port", "starboard", "stern"]
    assert editor.get(PORT + (0, "name")) == "Port gun"
    editor.set_number(("type",), "7")
    assert texts(editor) == ["Type must be at most 4"]
    with pytest.raises(ValueError):
        editor.set_type(5)


def test_the_dice_lists_are_real_pools_and_keep_an_unlisted_value():
    assert len(DICE_CHOICES) == 20 and {"DGreen", "DBlack", "2DRed", "DRed & DBlue"} <= set(DICE_CHOICES)
    for choice in DICE_CHOICES:
        assert parse_pool(choice).notation == choice
    assert dice_options("3DRed")[0] == "3DRed" and dice_options("DBlue") == list(DICE_CHOICES)


# --- shipped cards, duplicates, the player's own cards ------------------------------------------


def test_editing_a_shipped_card_edits_a_players_copy(shipped, library):
    raven = shipped["hml-raven"]
    editor = CardEditor.edit(raven)
    assert editor.title == "Your copy of HML Raven" and editor.card_id is None
    assert editor.based_on == "hml-raven" and editor.verified is True  # checked against the printed card
    editor.set_verified(False)
    editor.set_verified(True)
    card = editor.save(library)
    assert card.id == "my-hml-raven" and based_on(card) == "hml-raven" and card.verified
    assert shipped["hml-raven"] == raven and shipped["hml-raven"].verified is True
    assert editor.title == "Edit HML Raven" and not editor.dirty
    editor.set_number(("structural_integrity",), "17")
    assert editor.dirty
    assert editor.save(library).id == "my-hml-raven", "later saves keep the copy's id"
    assert list(library.cards()) == ["my-hml-raven"]


def test_the_checked_mark_clears_when_an_edit_differs_from_the_printed_card(shipped):
    """Issue 35: "Every value checked against the printed card" stayed ticked over an edited card."""
    editor = CardEditor.edit(shipped["hml-raven"])
    editor.set_notes("from the box")
    editor.data["name"] = "HML Corvo"
    editor.changed()
    assert editor.verified is True  # notes and the ship's own name are no values of play
    editor.set_number(("structural_integrity",), str(editor.get(("structural_integrity",)) + 1))
    assert editor.verified is False
    editor.set_verified(True)  # the player checked the new values
    assert editor.verified is True
    editor.step(("structural_integrity",), -1)
    assert editor.verified is False
    assert CardEditor.new().verified is True and CardEditor.new().card().verified


def test_two_copies_of_one_card_never_share_an_id(shipped, library):
    first, second = CardEditor.edit(shipped["pelletier"]), CardEditor.edit(shipped["pelletier"])
    assert {first.save(library).id, second.save(library).id} == {"my-pelletier", "my-pelletier-2"}


def test_a_players_card_is_edited_in_place_and_duplicated_as_a_new_card(shipped, library):
    mine = CardEditor.edit(shipped["pontbriand"]).save(library)
    editor = CardEditor.edit(mine)
    assert editor.card_id == mine.id and not editor.dirty
    editor.set(("faction",), "French Republic")
    assert editor.save(library).id == mine.id and library.get(mine.id).faction == "French Republic"
    duplicate = CardEditor.duplicate(library.get(mine.id))
    assert duplicate.get(("name",)) == "Pontbriand (copy)"
    copy = duplicate.save(library)
    assert copy.id == "my-pontbriand-copy" and based_on(copy) == "pontbriand"
    assert len(library.cards()) == 2


def test_a_card_from_the_editor_loads_as_a_file_would():
    data = new_card_data(3)
    data["id"] = "my-test"
    assert load_card(data).type == 3


# --- warnings: values no play can reach (issue 12); they never stop a save -----------------------


def warning_texts(editor):
    return [w.text for w in editor.warnings()]


def test_a_breach_number_no_shot_can_reach_is_warned_and_still_saves(library):
    """The strongest printed gun band (DBlack, 12) with the strongest printed crew (DYellow, 8)
    and the location's own dice (here 2DRed, 20) roll at most 40: a breach of 41 is never
    reached."""
    editor = CardEditor.new(1)
    editor.set(("name",), "HMS Tester")
    editor.set(("locations", "port", "go"), "DBlack")
    editor.set(("locations", "port", "stop"), "2DRed")
    editor.set_number(PORT + (1, "breach"), "40")
    assert warning_texts(editor) == []
    editor.set_number(PORT + (1, "breach"), "41")
    (warning,) = editor.warnings()
    assert warning.path == PORT + (1, "breach")
    assert warning.text == ("Port slot 2 (crew) breach number 41 is more than any shot can roll here: at most 40 "
                            "(the strongest printed gun, DBlack 12, a DYellow crew 8 and this location's 2DRed 20)")
    assert editor.ok and editor.save(library).id == "my-hms-tester"


def test_enter_hexes_before_turn_above_the_mp_is_warned(library):
    editor = CardEditor.new(1)
    editor.set(("name",), "HMS Tester")
    mp = editor.starting_mp
    editor.set_number(("enter_hexes_before_turn",), str(mp))
    assert warning_texts(editor) == []
    editor.set_number(("enter_hexes_before_turn",), str(mp + 1))
    assert warning_texts(editor) == [f"Enter hexes before turn {mp + 1} is more than the ship's MP {mp}: "
                                     "it could never turn"]
    assert editor.ok and editor.save(library)


def test_a_printed_starting_mp_other_than_the_engines_is_warned(shipped, library):
    """The SML Habsburg prints Starting MP 11; its engines add up to 8 (a Secondary Engine slot,
    which has no Quick-Start rule, gives the rest)."""
    editor = CardEditor.edit(shipped["sml-habsburg-2025"])
    assert warning_texts(editor) == ["Starting MP 11 as printed is not the engines' sum 8: "
                                     "play uses the engines (8)"]
    assert editor.save(library).card_mp == 11
    plain = CardEditor.edit(shipped["hml-raven"])
    assert plain.warnings() == []
