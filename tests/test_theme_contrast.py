"""Issue 18: every text of every theme meets WCAG AA (4.5:1 normal text, 3:1 large text and controls),
computed from WCAG 2.x's relative luminance; the factions' colours readable in every palette."""

from __future__ import annotations

import json
from pathlib import Path

import flet as ft
import pytest

from companion.app.palettes import (AA_LARGE, AA_TEXT, BACKGROUNDS, FACTION_COLOURS, FACTIONS, LABELS, NAMES, PALETTES,
                                    contrast, faction_of, ink_on, luminance, pairs, side_colours)
from companion.app.theme import map_colours, side_colour, theme_for

CARDS = Path(__file__).resolve().parents[2] / "shared" / "reference" / "printed-cards.json"


# --- the arithmetic, against WCAG's own figures ---------------------------------------------------

def test_relative_luminance_of_white_black_and_a_grey():
    assert luminance("#ffffff") == pytest.approx(1.0)
    assert luminance("#000000") == 0.0
    assert luminance("#808080") == pytest.approx(0.2158605, abs=1e-6)  # (0.50196 + 0.055) / 1.055) ** 2.4


def test_contrast_ratio_extremes_and_wcag_examples():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#ffffff", "#ffffff") == pytest.approx(1.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # the grey that just fails AA
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)  # the grey that just passes
    assert contrast("#ffffff", "#777777") == contrast("#777777", "#ffffff")  # symmetric


# --- every palette ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_every_text_pair_meets_aa(name):
    failing = [(text, ground, a, b, round(contrast(a, b), 2), least)
               for text, ground, a, b, least in pairs(PALETTES[name]) if contrast(a, b) < least]
    assert failing == []


@pytest.mark.parametrize("name", NAMES)
def test_the_main_text_is_at_least_aaa(name):
    palette = PALETTES[name]
    assert contrast(palette.on_surface, palette.surface) >= 7.0


def test_high_contrast_is_at_least_seven_to_one_for_every_text():
    palette = PALETTES["contrast"]
    low = [(t, g, round(contrast(a, b), 2)) for t, g, a, b, least in pairs(palette)
           if least == AA_TEXT and contrast(a, b) < 7.0]
    assert low == []


@pytest.mark.parametrize("name", NAMES)
def test_the_map_names_and_labels_are_readable_and_the_ships_stand_out(name):
    colours = map_colours(name)
    assert contrast(colours["ink"], colours["sky"]) >= AA_TEXT
    assert contrast(colours["label"], colours["sky"]) >= AA_TEXT
    hulls = FACTION_COLOURS["light"].values()  # a ship's hull: its side's deep colour, a white name on it
    for colour in hulls:
        assert contrast("#ffffff", colour) >= AA_TEXT
        assert contrast(colour, colours["sky"]) >= AA_LARGE or contrast(colours["halo"], colours["sky"]) >= AA_LARGE


def test_the_palettes_are_light_dark_and_high_contrast():
    assert [LABELS[n] for n in NAMES] == ["Light", "Dark", "High contrast"]
    assert not PALETTES["light"].dark and PALETTES["dark"].dark
    assert contrast(PALETTES["contrast"].on_surface, PALETTES["contrast"].surface) == pytest.approx(21.0)


@pytest.mark.parametrize("name", NAMES)
def test_a_palette_is_a_flet_theme(name):
    theme = theme_for(name)
    assert isinstance(theme, ft.Theme)
    assert theme.color_scheme.surface == PALETTES[name].surface
    assert theme.color_scheme.on_surface == PALETTES[name].on_surface


# --- factions ---------------------------------------------------------------------------------------

def test_every_faction_of_the_printed_cards_has_a_colour_in_every_palette():
    printed = {ship["faction"] for ship in json.loads(CARDS.read_text())["ships"]} - {"Generic"}
    assert printed <= set(FACTIONS)
    for name in NAMES:
        assert set(FACTION_COLOURS[name]) == set(FACTIONS)


@pytest.mark.parametrize("name", NAMES)
def test_faction_colours_differ_within_a_palette(name):
    colours = list(FACTION_COLOURS[name].values())
    assert len(set(colours)) == len(colours)


def test_a_side_named_as_players_name_it_takes_its_faction():
    assert faction_of("British") == "British Empire"
    assert faction_of("French") == "French Republic"
    assert faction_of("Japanese") == "Japanese Empire"
    assert faction_of("Kingdom of Italy") == "Kingdom of Italy"
    assert faction_of("Pirates") is None


def test_the_quick_start_sides_take_red_and_blue_in_each_palette():
    for name in NAMES:
        assert side_colour(["British", "French"], "British", name) == FACTION_COLOURS[name]["British Empire"]
        assert side_colour(["British", "French"], "French", name) == FACTION_COLOURS[name]["French Republic"]


def test_sides_of_no_faction_take_colours_no_other_side_has():
    colours = side_colours(["French", "Pirates", "Smugglers"], "light")
    assert len(set(colours.values())) == 3
    assert colours["French"] == FACTION_COLOURS["light"]["French Republic"]


def test_the_old_dark_flag_still_names_a_palette():
    assert side_colour(["British", "French"], "French", True) == FACTION_COLOURS["dark"]["French Republic"]
    assert map_colours(False) == map_colours("light")


@pytest.mark.parametrize("name", NAMES)
def test_odds_on_a_sides_colour_are_readable(name):
    """The shared screen writes a shot's odds on its side's colour: black or white, whichever reads."""
    for colour in FACTION_COLOURS[name].values():
        assert contrast(ink_on(colour), colour) >= AA_TEXT


def test_backgrounds_are_the_palettes_surfaces():
    assert BACKGROUNDS[0] == "surface"


@pytest.mark.parametrize("name", NAMES)
def test_every_text_style_is_in_the_palettes_ink(name):
    """A style with no colour is drawn black: the dark palettes' text would vanish on their ground."""
    styles = theme_for(name).text_theme
    for kind in ("display", "headline", "title", "body", "label"):
        for size in ("large", "medium", "small"):
            assert getattr(styles, f"{kind}_{size}").color == PALETTES[name].on_surface


# --- sides told apart (issue 28.6) -------------------------------------------------------------------


@pytest.mark.parametrize("pair, expected", [
    # Sharma, Wu and Dalal (2005), the CIEDE2000 test data: pairs 1, 7, 17 and 25
    (((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485)), 2.0425),
    (((50.0, 0.0, 0.0), (50.0, -1.0, 2.0)), 2.3669),
    (((50.0, 2.5, 0.0), (73.0, 25.0, -18.0)), 27.1492),
    (((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387)), 1.2644),
])
def test_the_colour_difference_is_ciede2000(pair, expected):
    from companion.app.palettes import delta_e00

    assert delta_e00(*pair) == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize("name", NAMES)
def test_any_two_sides_of_a_game_are_told_apart(name):
    """Every pair of factions meeting in a game (the Decisive Victory sample's British and Japanese:
    dark red and crimson) gets colours at least DISTINCT apart, its own faction's where it can."""
    from itertools import permutations

    from companion.app.palettes import DISTINCT, colour_difference

    for first, second in permutations(FACTIONS, 2):
        colours = side_colours([first, second], name)
        assert colour_difference(colours[first], colours[second]) >= DISTINCT, (first, second)
        assert colours[first] == FACTION_COLOURS[name][first]
    british_japanese = side_colours(["British", "Japanese"], name)
    assert british_japanese["British"] == FACTION_COLOURS[name]["British Empire"]
    assert colour_difference(british_japanese["British"], british_japanese["Japanese"]) >= DISTINCT


@pytest.mark.parametrize("name", NAMES)
def test_the_arcs_are_told_apart_on_every_sky(name):
    """Issue 28.6: in the dark and high-contrast themes the arc shading was too dark to tell arcs apart.
    Each arc's long band stands 10 (CIEDE2000) off the sky, the four arcs 12 apart at short range."""
    from itertools import combinations

    from companion.app.palettes import colour_difference
    from companion.app.theme import ARCS, arc_opacity

    sky = map_colours(name)["sky"]

    def over_sky(colour, opacity):
        mix = [round(opacity * int(colour[i:i + 2], 16) + (1 - opacity) * int(sky[i:i + 2], 16)) for i in (1, 3, 5)]
        return "#" + "".join(f"{c:02x}" for c in mix)

    arcs = ("bow", "stern", "port", "starboard")
    for arc in arcs:
        assert colour_difference(over_sky(ARCS[arc], arc_opacity("long", name)), sky) >= 10, arc
    short = [over_sky(ARCS[arc], arc_opacity("short", name)) for arc in arcs]
    assert min(colour_difference(a, b) for a, b in combinations(short, 2)) >= 12
