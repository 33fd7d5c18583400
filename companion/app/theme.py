"""Colours and themes: dice chips, side colours, arc shading, light and dark."""

from __future__ import annotations

import flet as ft

SEED_COLOUR = "#3b5b7a"

#: (fill, text) per die colour, as printed on the Leviathans dice.
DICE = {
    "Green": ("#2e7d32", "#ffffff"),
    "Blue": ("#1565c0", "#ffffff"),
    "Yellow": ("#f9c80e", "#1d1d1d"),
    "Red": ("#c62828", "#ffffff"),
    "Black": ("#1b1b1b", "#ffffff"),
    "D6": ("#f4f1e8", "#1d1d1d"),
}

#: Side colours, by the side's place in the game (first side, second side).
SIDES = ("#2f6fd0", "#d2453b", "#2e9d6a", "#9b59b6")

#: Arc shading per location.
ARCS = {
    "bow": "#f2a93b", "stern": "#8e7cc3", "port": "#e0605a", "starboard": "#3fae6a",
    "port_bow": "#e0605a", "port_quarter": "#c0504a", "starboard_bow": "#3fae6a",
    "starboard_quarter": "#2f8e5a",
}

CIRCLED = "#d9342b"


def side_colour(sides: list[str], side: str) -> str:
    return SIDES[sides.index(side) % len(SIDES)] if side in sides else SIDES[-1]


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


def themes() -> tuple[ft.Theme, ft.Theme]:
    light = ft.Theme(color_scheme_seed=SEED_COLOUR, use_material3=True, font_family=BODY_FONT,
                     text_theme=_text_theme())
    dark = ft.Theme(color_scheme_seed=SEED_COLOUR, use_material3=True, font_family=BODY_FONT,
                    text_theme=_text_theme())
    return light, dark


def _text_theme() -> ft.TextTheme:
    """The theme's display, headline and title styles (app bar and dialog titles) in the display font,
    the body and label styles in the body font (`views.widgets.heading` uses the display font too).
    A character either lacks is drawn from Flet's own Roboto, then the card marks' font: Flutter
    would otherwise ask for a Noto font the offline app does not have."""
    fallback = ["Roboto", MARKS_FONT]
    styles = {f"{kind}_{size}": ft.TextStyle(font_family=DISPLAY_FONT if kind in ("display", "headline", "title")
                                             else BODY_FONT, font_family_fallback=fallback)
              for kind in ("display", "headline", "title", "body", "label") for size in ("large", "medium", "small")}
    return ft.TextTheme(**styles)


def map_colours(dark: bool) -> dict[str, str]:
    """Colours of the map layers for the light or dark theme."""
    if dark:
        return {"sky": "#1b2430", "grid": "#3d4a5c", "label": "#7f8ea3", "ring": "#11161d",
                "zone": "#2a3a2a", "ink": "#e8edf3", "halo": "#0d1117"}
    return {"sky": "#e9eef3", "grid": "#b5c2cf", "label": "#7d8b99", "ring": "#cfd7df",
            "zone": "#dcebd6", "ink": "#1d2733", "halo": "#ffffff"}
