"""Colours and themes (issue 18): the three palettes of `palettes.py` as Flet themes, dice chips,
side colours by faction, arc shading, the map's colours in each palette."""

from __future__ import annotations

import flet as ft

from .palettes import DEFAULT, FACTION_COLOURS, FACTIONS, PALETTES, SPARE_ORDER, side_colours

#: (fill, text) per die colour, as printed on the Leviathans dice.
DICE = {
    "Green": ("#2e7d32", "#ffffff"),
    "Blue": ("#1565c0", "#ffffff"),
    "Yellow": ("#f9c80e", "#1d1d1d"),
    "Red": ("#c62828", "#ffffff"),
    "Black": ("#1b1b1b", "#ffffff"),
    "D6": ("#f4f1e8", "#1d1d1d"),
}

#: Side colours by the side's place in the game (War Fleet's sides 0 and 1), in the light palette:
#: `side_colour` gives a named side its faction's colour in the palette shown.
SIDES = tuple(FACTION_COLOURS[DEFAULT][f] for f in SPARE_ORDER[:4])

#: Arc shading per location.
ARCS = {
    "bow": "#f2a93b", "stern": "#8e7cc3", "port": "#e0605a", "starboard": "#3fae6a",
    "port_bow": "#e0605a", "port_quarter": "#c0504a", "starboard_bow": "#3fae6a",
    "starboard_quarter": "#2f8e5a",
}

#: How strongly an arc shades the sky (short range, long range) in each palette: on the dark skies
#: the light palette's 0.30 and 0.14 were too dark to tell the arcs apart (issue 28.6).  Each keeps the
#: long band at least 10 (CIEDE2000) from the sky and the four arcs at least 12 apart at short range
#: (tests/test_theme_contrast.py).
ARC_OPACITY = {"light": (0.45, 0.3), "dark": (0.6, 0.35), "contrast": (0.6, 0.35)}


def arc_opacity(band: str, palette: str | bool = DEFAULT) -> float:
    """An arc's shading over the map's sky, stronger at short range, in the palette named."""
    short, long = ARC_OPACITY[palette_name(palette)]
    return short if band == "short" else long


CIRCLED = "#d9342b"

#: The brief highlight (issue 18, motion that helps) on the slot just hit and the ship that just moved:
#: the map's selection amber, clear on the light and the dark cards and on every sky.
FLASH = "#ffb300"


def side_colour(sides: list[str], side: str, palette: str | bool = DEFAULT) -> str:
    """A side's colour: its faction's ("British" is the British Empire's red coats), else a faction's
    colour no other side of the game has; in the palette named (or dark: True, light: False)."""
    name = palette_name(palette)
    return side_colours(list(sides), name).get(side, FACTION_COLOURS[name][FACTIONS[2]])


def palette_name(palette: str | bool) -> str:
    """A palette's name from its name, or from the old dark flag (True: "dark", False: "light")."""
    if isinstance(palette, bool):
        return "dark" if palette else "light"
    return palette if palette in PALETTES else DEFAULT


#: The printed cards' gun marks (▲, ■): no font of the offline web app has them, so the texts that
#: show marks fall back on this one (assets/fonts/card-marks.ttf, made by tools/card_marks_font.py).
MARKS_FONT = "CardMarks"
#: The app's own faces (issue 18), shipped in assets/fonts/ with their licences and loaded from the
#: app's server, never from the internet: Old Standard TT (bold), a face of the 1900s printed page,
#: for headings; Lato for the rest, plain and readable on a phone.  Both under the SIL Open Font Licence.
DISPLAY_FONT = "Old Standard"
BODY_FONT = "Lato"
FONTS = {MARKS_FONT: "fonts/card-marks.ttf", DISPLAY_FONT: "fonts/OldStandard-Bold.ttf",
         BODY_FONT: "fonts/Lato-Regular.ttf"}


def marks_style(struck: bool = False) -> ft.TextStyle:
    """A text style that draws the gun marks, struck through when the slot is destroyed."""
    if struck:
        return ft.TextStyle(font_family_fallback=[MARKS_FONT], decoration=ft.TextDecoration.LINE_THROUGH,
                            decoration_thickness=2)
    return ft.TextStyle(font_family_fallback=[MARKS_FONT])


def theme_for(name: str) -> ft.Theme:
    """The Flet theme of a palette: its colour scheme, the display and body fonts."""
    palette = PALETTES[palette_name(name)]
    return ft.Theme(color_scheme_seed=palette.primary, color_scheme=ft.ColorScheme(**palette.scheme()),
                    use_material3=True, font_family=BODY_FONT, text_theme=_text_theme(palette.on_surface),
                    scaffold_bgcolor=palette.surface, canvas_color=palette.surface,
                    divider_color=palette.outline_variant)


def apply_theme(page: ft.Page, name: str) -> None:
    """Show a page in a palette: the theme both ways, the mode by the palette's brightness."""
    name = palette_name(name)
    page.theme = page.dark_theme = theme_for(name)
    page.theme_mode = ft.ThemeMode.DARK if PALETTES[name].dark else ft.ThemeMode.LIGHT
    page.bgcolor = PALETTES[name].surface


def _text_theme(ink: str) -> ft.TextTheme:
    """The theme's display, headline and title styles (app bar and dialog titles) in the display font,
    the body and label styles in the body font (`views.widgets.heading` uses the display font too).
    A character either lacks is drawn from Flet's own Roboto, then the card marks' font: Flutter
    would otherwise ask for a Noto font the offline app does not have.  Every style in the palette's
    ink (`ink`): a style without a colour is drawn black, unreadable on a dark palette."""
    fallback = ["Roboto", MARKS_FONT]
    styles = {f"{kind}_{size}": ft.TextStyle(font_family=DISPLAY_FONT if kind in ("display", "headline", "title")
                                             else BODY_FONT, font_family_fallback=fallback, color=ink)
              for kind in ("display", "headline", "title", "body", "label") for size in ("large", "medium", "small")}
    return ft.TextTheme(**styles)


def map_colours(dark: bool | str) -> dict[str, str]:
    """Colours of the map layers in a palette (by name; or True: dark, False: light).  The high-contrast
    palette's map is black sky, a clear grid and white names.  The ships' hulls keep their sides' deep
    colours under white names in every palette; on a dark sky their outline ("halo") is light."""
    name = palette_name(dark)
    if name == "contrast":
        return {"sky": "#000000", "grid": "#8c8c8c", "label": "#d0d0d0", "ring": "#1a1a1a",
                "zone": "#0f2a12", "ink": "#ffffff", "halo": "#ffffff"}
    if name == "dark":
        return {"sky": "#1a1a1f", "grid": "#45454f", "label": "#a29a8a", "ring": "#0f0f12",
                "zone": "#23321f", "ink": "#ece3d0", "halo": "#d8cfbc"}
    return {"sky": "#ece6d6", "grid": "#bcae90", "label": "#6b5d47", "ring": "#ddd3bd",
            "zone": "#d9e3c6", "ink": "#2a2118", "halo": "#fcf8ee"}
