"""The shipped Quick-Start fleets: valid files, and every value the rule text states.

Each test below names the passage of the Quick-Start rules (seed 001) or of
War Fleet (seed 004) that states the value.  Every other value is the printed
card's (tests/test_printed_cards.py compares them), and each card's
`sources.from_manual` lists the values taken from the manual instead.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.engine.cards import GunSlot
from companion.files import load_catalogue, load_file, shipped_fleets_dir

FLEETS = sorted(shipped_fleets_dir().glob("*.json"))
QUICK_START = {"quick-start-british.json": ("British", {"hml-hertfordshire", "hml-raven"}),
               "quick-start-french.json": ("French", {"pontbriand", "pelletier"})}


@pytest.fixture(scope="module")
def cards():
    return load_catalogue()


def guns(card, location):
    return [s for s in card.locations[location].slots if s.kind == "gun"]


def gun_named(card, location, name) -> GunSlot:
    found = [g for g in guns(card, location) if g.name == name]
    assert found, f"{card.name} has no {name} in its {location}"
    return found[0]


# --- the files ------------------------------------------------------------------


def test_both_quick_start_fleets_are_shipped():
    assert {p.name for p in FLEETS} >= set(QUICK_START)


@pytest.mark.parametrize("path", FLEETS, ids=lambda p: p.name)
def test_companion_validate_accepts_every_shipped_file(path):
    done = subprocess.run([sys.executable, "-m", "companion", "validate", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok: ")


def test_the_catalogue_holds_the_four_quick_start_cards(cards):
    assert set(cards) >= {"hml-hertfordshire", "hml-raven", "pontbriand", "pelletier"}
    quick_start = [c for path in FLEETS if path.name in QUICK_START for c in load_file(path).ships]
    assert len(quick_start) == 4


@pytest.mark.parametrize("name", sorted(QUICK_START))
def test_fleet_faction_and_ships(name):
    fleet = load_file(shipped_fleets_dir() / name)
    faction, ids = QUICK_START[name]
    assert fleet.format == "leviathans-fleet/1"
    assert fleet.faction == faction
    assert {c.id for c in fleet.ships} == ids
    assert all(c.faction == faction for c in fleet.ships)


@pytest.mark.parametrize("card_id", ["hml-hertfordshire", "hml-raven", "pontbriand", "pelletier"])
def test_every_card_is_verified_and_names_its_printed_card(cards, card_id):
    """Issue 12: the Quick-Start cards are the printed cards, with seed 001's stated values."""
    card = cards[card_id]
    assert card.sources is not None and card.sources.verified is True
    assert card.sources.url.startswith("https://scottboehmer.github.io/fleet-builder/elements/")
    assert "Lieutenant's Manual" in card.sources.notes


@pytest.mark.parametrize("card_id", ["hml-hertfordshire", "hml-raven", "pontbriand", "pelletier"])
def test_every_card_is_a_complete_plausible_card(cards, card_id):
    card = cards[card_id]
    assert all(len(loc.slots) == 6 for loc in card.locations.values())
    assert card.starting_mp > 0
    assert any(s.kind == "tesla_coil" for loc in card.locations.values() for s in loc.slots)
    for loc in card.locations.values():
        for slot in loc.slots:
            assert slot.breach is None or 7 <= slot.breach <= 16


# --- Pontbriand -----------------------------------------------------------------------


def test_pontbriand_card_header(cards):
    """Getting Started (Type 2), Ending the Game (SI 20), the ship history (class, armament)."""
    card = cards["pontbriand"]
    assert (card.name, card.type, card.faction) == ("Pontbriand", 2, "French")
    assert card.ship_class == "Liberté-class Light Cruiser"
    assert card.structural_integrity == 20
    assert card.armament == "3 x 138mm, 8 x 65mm"


def test_pontbriand_must_enter_two_hexes_before_turning(cards):
    """Facing Changes: 'the French Pontbriand must enter 2 hexes before it can turn'."""
    assert cards["pontbriand"].enter_hexes_before_turn == 2


def test_pontbriand_engines_are_3_3_6_for_starting_mp_12(cards):
    """Damage, Engine Slot: two Engine MP 3 slots and one Engine MP 6 slot, Starting MP 12."""
    card = cards["pontbriand"]
    engines = sorted(s.mp for loc in card.locations.values() for s in loc.slots if s.kind == "engine")
    assert engines == [3, 3, 6]
    assert card.starting_mp == 12


@pytest.mark.parametrize("location", ["bow", "stern"])
def test_pontbriand_138mm_is_6_12_hex_dyellow_then_dblue(cards, location):
    """Determining Range and the Breach Roll: '6/12 Hex', DYellow at 1-6, DBlue at 7-12;
    the combat walk-through fires a 138mm from the stern too."""
    gun = gun_named(cards["pontbriand"], location, "138mm")
    assert (gun.short.range, gun.short.dice) == (6, "DYellow")
    assert (gun.long.range, gun.long.dice) == (12, "DBlue")


@pytest.mark.parametrize("location", ["port", "starboard"])
def test_pontbriand_has_four_65mm_a_side_with_maximum_range_6(cards, location):
    """Combat walk-through: four 65mm Gun Batteries in each side, maximum range 6."""
    side = guns(cards["pontbriand"], location)
    assert [g.name for g in side] == ["65mm"] * 4
    assert all(g.long.range == 6 and g.short.range < 6 for g in side)


def test_pontbriand_port_location_dice_and_slot_1(cards):
    """Damage example: a black die on the go arrow, two red on the stop arrow; slot 1 is a
    65mm Gun Battery with breach number 11, destroyed by a roll of exactly 11."""
    port = cards["pontbriand"].locations["port"]
    assert (port.go, port.stop) == ("DBlack", "2DRed")
    slot = port.slots[0]
    assert (slot.kind, slot.name, slot.breach) == ("gun", "65mm", 11)
    # A roll of 11 destroys it, so no armour raises the port's breach numbers.
    assert not any(s.kind == "armor" for s in port.slots)


# --- HML Hertfordshire --------------------------------------------------------------------


def test_hertfordshire_card_header(cards):
    card = cards["hml-hertfordshire"]
    assert (card.name, card.type, card.faction) == ("HML Hertfordshire", 2, "British")
    assert card.ship_class == "County-class Light Cruiser"
    assert card.armament == '3 x 6", 2 x 5", 4 x 3"'


def test_hertfordshire_port_breach_numbers_and_two_armor_slots(cards):
    """Armor Slots: 'on the HML Hertfordshire's port side, the Breach Numbers printed on the
    Ship Card are 11, 12, 13, 15, 16 and 15', with two +1 Armor slots."""
    port = cards["hml-hertfordshire"].locations["port"]
    assert [s.breach for s in port.slots] == [11, 12, 13, 15, 16, 15]
    assert not any(s.kind == "miss" for s in port.slots)
    armour = [s for s in port.slots if s.kind == "armor"]
    assert [a.breach_modifier for a in armour] == [1, 1]
    with_armour = [s.breach + sum(a.breach_modifier for a in armour) for s in port.slots]
    assert with_armour == [13, 14, 15, 17, 18, 17]


def test_hertfordshire_bow_6in_uses_dblue_at_8_hexes_and_has_dgreen_crew(cards):
    """Damage example: the bow 6 IN's yellow die is the short band, at 8 hexes it rolls the blue;
    the bow Crew slot adds a DGreen."""
    bow = cards["hml-hertfordshire"].locations["bow"]
    gun = gun_named(cards["hml-hertfordshire"], "bow", "6 IN")
    assert gun.short.dice == "DYellow" and gun.long.dice == "DBlue"
    assert gun.short.range < 8 <= gun.long.range
    assert [s.dice for s in bow.slots if s.kind == "crew"] == ["DGreen"]


def test_hertfordshire_starboard_3in_and_5in_reach_8_hexes(cards):
    """Determining Range example: both the 3 IN and 5 IN in the starboard location
    have maximum ranges of 8 or higher."""
    card = cards["hml-hertfordshire"]
    for name in ("3 IN", "5 IN"):
        assert gun_named(card, "starboard", name).long.range >= 8


# --- HML Raven ------------------------------------------------------------------------------


def test_raven_card_header(cards):
    card = cards["hml-raven"]
    assert (card.name, card.type, card.faction) == ("HML Raven", 1, "British")
    assert card.ship_class == "D-class Destroyer"
    assert card.armament == '3 x 3", 2 x 4"'


def test_raven_must_enter_one_hex_before_turning(cards):
    assert cards["hml-raven"].enter_hexes_before_turn == 1


def test_raven_bow_3in_is_4_8_hex_dblue_then_dgreen_with_dgreen_crew(cards):
    """Damage example: 4 hexes away uses the blue die; 5 to 8 hexes the green; the bow crew is green."""
    card = cards["hml-raven"]
    gun = gun_named(card, "bow", "3 IN")
    assert (gun.short.range, gun.short.dice, gun.long.range, gun.long.dice) == (4, "DBlue", 8, "DGreen")
    assert "DGreen" in [s.dice for s in card.locations["bow"].slots if s.kind == "crew"]


# --- Pelletier ---------------------------------------------------------------------------------


def test_pelletier_card_header(cards):
    card = cards["pelletier"]
    assert (card.name, card.type, card.faction) == ("Pelletier", 1, "French")
    assert card.ship_class == "Grenouille-class Destroyer"
    assert card.armament == "5 x 75mm"


@pytest.mark.parametrize("location", ["port", "starboard"])
def test_pelletier_one_75mm_a_side_with_dgreen_crew(cards, location):
    """War Fleet, Conversion example 2: a single 75mm gun each side (short dBlue, long dGreen),
    crew dGreen (the printed card has two DGreen crew slots a side)."""
    card = cards["pelletier"]
    side = guns(card, location)
    assert [g.name for g in side] == ["75mm"]
    assert (side[0].short.dice, side[0].long.dice) == ("DBlue", "DGreen")
    assert [s.dice for s in card.locations[location].slots if s.kind == "crew"] == ["DGreen", "DGreen"]
