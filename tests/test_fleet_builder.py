"""Fleet building for New game (issue 12), compare with the printed card, and the guest check on the
card library (issue 11): plain pytest, no browser."""

from __future__ import annotations

import asyncio

import pytest

from companion.app.fleet_builder import SHOWN, FleetBuilder, classes, factions, find
from companion.app.main import App
from companion.app.sharing import Sharing
from companion.engine.board import Board
from companion.engine.cards import FormatError
from companion.store import MemoryStore
from companion.store.library import CardLibrary, catalogue_of, load_shipped, player_copy


@pytest.fixture(scope="module")
def cards():
    return {card.id: card for fleet in load_shipped().fleets for card in fleet.ships}


def test_the_picker_filters_first_and_shows_a_bounded_list(cards):
    everything = find(cards.values())
    assert everything.total == len(cards) >= 150 and len(everything.cards) == SHOWN
    british = find(cards.values(), faction="British Empire")
    # the Lieutenant's Manual's "British" cards are listed with the British Empire's (issue 28)
    assert british.total == 27 + 2 and {c.faction for c in british.cards} == {"British Empire", "British"}
    assert british.cards[0].type == 4  # the biggest ships first
    dclass = find(cards.values(), faction="British Empire", ship_class="D-Class")
    assert dclass.total == 7 and {c.ship_class for c in dclass.cards} == {"D-Class"}
    raven = find(cards.values(), text="  raven ")
    assert {c.id for c in raven.cards} == {"hml-raven", "hml-raven-2025"}
    assert "British Empire" in factions(cards.values())
    assert "British" not in factions(cards.values()) and "French" not in factions(cards.values())
    assert "Connaught" in classes(cards.values(), "British Empire")
    assert "Bastille" not in classes(cards.values(), "British Empire")


def test_copies_of_a_card_get_their_own_names_and_a_typed_name_is_kept(cards):
    builder = FleetBuilder()
    raven = cards["hml-raven-2025"]
    assert builder.add(0, raven).name == "HML Raven"
    assert builder.add(0, raven).name == "HML Raven 2"
    assert builder.add(1, raven).name == "HML Raven 3"  # unique across the whole game
    assert builder.add(0, raven, "Corvo").name == "Corvo"
    assert builder.add(0, raven, " corvo ").name == "HML Raven 4"  # taken: the next free name
    assert builder.rename(0, 1, "HML Raven") == "Another ship is already called HML Raven: each ship needs its own name."
    assert builder.rename(0, 1, "   ") == "HML Raven 2: a ship needs a name."
    assert builder.rename(0, 1, "Nevermore") is None
    assert [s.name for s in builder.sides[0].ships] == ["HML Raven", "Nevermore", "Corvo", "HML Raven 4"]
    builder.remove(0, 0)
    assert builder.add(0, raven).name == "HML Raven"  # freed again


def test_points_totals_say_unknown_points(cards):
    builder = FleetBuilder()
    builder.add(0, cards["hml-leviathan-2025"])
    builder.add(0, cards["hml-raven-2025"])
    builder.add(0, cards["hml-raven-2025"])
    raven = cards["hml-raven-2025"].points
    assert builder.sides[0].points().text == f"{420 + 2 * raven} points"
    builder.add(0, cards["hml-hertfordshire-2025"])  # the catalogue gives it no points
    assert builder.sides[0].points().text == f"{420 + 2 * raven} points + 1 ship of unknown points (HML Hertfordshire)"
    assert builder.sides[1].points().text == "0 points"


def test_a_six_ship_game_starts_deployed_with_the_ships_names(cards):
    builder = FleetBuilder()
    for card_id in ("hml-leviathan-2025", "hml-raven-2025", "hml-raven-2025"):
        builder.add(0, cards[card_id])
    for card_id in ("paris-2025", "pelletier-2025", "pontbriand-2025"):
        builder.add(1, cards[card_id])
    state = builder.setup(Board(columns=33, rows=19), seed="3")
    assert [s.card.name for s in state.ships] == ["HML Leviathan", "HML Raven", "HML Raven 2", "Paris", "Pelletier",
                                                 "Pontbriand"]
    assert len({s.id for s in state.ships}) == 6 and state.sides == ["British", "French"]
    assert state.phase == "setup"


def test_a_game_needs_ships_on_both_sides_and_two_names(cards):
    builder = FleetBuilder()
    assert builder.problem() == "British has no ships yet: add at least one."
    builder.add(0, cards["hml-raven"])
    builder.add(1, cards["pelletier"])
    builder.set_side_name(1, " british ")
    assert builder.problem() == "The two sides need different names."
    builder.set_side_name(1, "")
    assert builder.problem() == "The second side needs a name."


def test_a_side_is_saved_and_loaded_as_a_fleet_file(cards):
    builder = FleetBuilder()
    builder.add(0, cards["hml-raven-2025"])
    builder.add(0, cards["hml-raven-2025"])
    builder.add(0, cards["hml-leviathan-2025"], "Goliath")
    document = builder.fleet_file(0)
    assert document["format"] == "leviathans-fleet/1" and document["name"] == "British"
    assert [s["id"] for s in document["ships"]] == ["hml-raven-2025", "hml-raven-2025-2", "hml-leviathan-2025"]
    other = FleetBuilder()
    assert other.load_fleet_file(1, document, "british.json") == "Loaded 3 ships as British (2)."
    assert [s.name for s in other.sides[1].ships] == ["HML Raven", "HML Raven 2", "Goliath"]
    assert other.sides[1].points().total == builder.sides[0].points().total


def test_a_broken_fleet_file_is_one_plain_message_and_the_side_is_kept(cards):
    builder = FleetBuilder()
    builder.add(0, cards["hml-raven"])
    with pytest.raises(FormatError) as caught:
        builder.load_fleet_file(0, {"format": "leviathans-fleet/1", "name": "X", "ships": [{"id": "x"}]}, "x.json")
    assert caught.value.message.startswith("x.json: ships.0")
    assert [s.name for s in builder.sides[0].ships] == ["HML Raven"]


# --- compare with the printed card -----------------------------------------------------------------


def test_the_players_copy_is_kept_and_compared_with_the_printed_card(tmp_path, cards):
    from companion.app.card_compare import printed_card, differences

    library = CardLibrary(tmp_path)
    mine = player_copy(cards["pontbriand"], taken=cards)  # the Lieutenant's Manual edition, SI 20
    library.save(mine)
    catalogue = catalogue_of(library).cards()
    assert mine.id in catalogue  # the printed fleets replace nothing of the player's
    printed = printed_card(mine, catalogue)
    assert printed.id == "pontbriand-2025"
    rows = differences(mine, printed)
    assert ("Structural Integrity", "20", "22") in rows
    assert all(label not in ("id", "Sources") for label, _, _ in rows)
    assert differences(printed, printed) == []


# --- issue 11: guests do not change the host's card library ---------------------------------------


class FakePage:
    def show_dialog(self, dialog):
        pass


def an_app(host: bool):
    app = App(FakePage(), MemoryStore(), catalogue=dict, seed="7", sharing=Sharing())
    app.device = app.sharing.connect(None, "127.0.0.1" if host else "192.0.2.9")
    app.sharing.admit(app.device, app.sharing.pin)
    return app


def test_only_the_host_changes_the_card_library():
    host, guest = an_app(True), an_app(False)
    assert host.sharing.may_edit_cards(host.device) is None
    assert guest.sharing.may_edit_cards(guest.device).startswith("Only the host changes the ship cards")
    assert host.card_library() is not None
    with pytest.raises(PermissionError, match="Only the host changes the ship cards"):
        guest.card_library()


def test_the_editor_compares_a_copy_with_the_printed_card(cards):
    from companion.app.card_compare import compare_with_printed
    from companion.app.editor_model import CardEditor

    editor = CardEditor.edit(cards["hml-raven"])  # the Lieutenant's Manual card: a player's copy
    editor.set(("structural_integrity",), 13)
    comparison = compare_with_printed(editor, cards)
    assert comparison.printed.id == "hml-raven-2025" and comparison.problem is None
    assert ("Structural Integrity", "13", str(cards["hml-raven-2025"].structural_integrity)) in comparison.rows
    editor.set(("name",), "")
    assert compare_with_printed(editor, cards).problem.startswith("Fix the card first: ")
    unknown = CardEditor.new()
    unknown.set(("name",), "HMS Nowhere")
    assert compare_with_printed(unknown, cards).problem == "No printed card of HMS Nowhere is in the fleets to compare with."


def test_the_picker_line_tells_the_quick_start_edition_from_the_printed_card(cards):
    from companion.app.fleet_builder import card_line

    assert card_line(cards["hml-raven"]).startswith("Quick-Start edition · D-class Destroyer · Type 1")
    assert card_line(cards["hml-raven-2025"]).startswith("D-Class · Type 1")
    assert card_line(cards["hml-hertfordshire-2025"]).endswith("points unknown")


def test_typed_names_are_cleaned_and_capped_as_loaded_files_are(cards):
    """Issue 35: a 208-character ship name typed in New game was accepted and drawn across the
    board; typed names are cleaned (control and bidi characters off, spaces run together) and held
    to the loaded files' limits, with the reason said."""
    builder = FleetBuilder()
    raven = cards["hml-raven-2025"]
    builder.add(0, raven)
    builder.add(1, cards["pelletier"])
    assert builder.rename(0, 0, "x" * 208) == ("HML Raven keeps its name: a ship's name is at most 60 "
                                                "characters (208 given).")
    assert builder.sides[0].ships[0].name == "HML Raven"
    assert builder.rename(0, 0, "  Night\u202e \x1b Hawk ") is None
    assert builder.sides[0].ships[0].name == "Night Hawk"
    assert builder.add(0, raven, "y" * 208).name == "HML Raven"  # too long: named after its card
    assert builder.set_side_name(1, "z" * 41) == "French keeps its name: a side's name is at most 40 characters (41 given)."
    assert builder.sides[1].name == "French"
    assert builder.set_side_name(1, " Les\u200b  Bleus ") is None and builder.sides[1].name == "Les Bleus"
    state = builder.setup()
    assert {s.card.name for s in state.ships} >= {"Night Hawk"}


def test_a_long_name_given_to_the_set_up_itself_is_refused_in_words(cards):
    from companion.app.setup import Pick, SetupError, build_setup
    with pytest.raises(SetupError, match="at most 60 characters"):
        build_setup([Pick("hml-raven", "British", name="n" * 208), Pick("pelletier", "French")], cards)
