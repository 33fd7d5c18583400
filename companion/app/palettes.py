"""The app's three palettes (issue 18, "A look of its own") as named colour tokens, the factions'
colours in each, and the WCAG 2.x contrast arithmetic that checks them (tests/test_theme_contrast.py).

Pure data and arithmetic, no Flet: `theme.py` turns a palette into an `ft.Theme`.

- "light", the period palette: parchment, ink, brass and naval blue;
- "dark", for dim tables: warm near-black, parchment text, pale naval blue and brass;
- "contrast", high contrast: black, white and signal yellow (every text pair at least 7:1).

Every text colour the views use stands on one of the palette's backgrounds: `TEXT_PAIRS` lists them
(normal text, 4.5:1), `LARGE_PAIRS` the pairs used only for large text and controls (3:1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: The palettes by name, in the order the settings offer them, with the words the settings show.
NAMES = ("light", "dark", "contrast")
LABELS = {"light": "Light", "dark": "Dark", "contrast": "High contrast"}
DEFAULT = "light"


@dataclass(frozen=True)
class Palette:
    """One palette: Material's colour-scheme roles (the views use them as `ft.Colors.*`) plus the
    app's own (`muted` is `on_surface_variant`; the map's colours are `theme.map_colours`)."""

    name: str
    dark: bool
    surface: str
    on_surface: str
    on_surface_variant: str
    surface_container_lowest: str
    surface_container_low: str
    surface_container: str
    surface_container_high: str
    surface_container_highest: str
    primary: str
    on_primary: str
    primary_container: str
    on_primary_container: str
    secondary: str
    on_secondary: str
    secondary_container: str
    on_secondary_container: str
    tertiary: str
    on_tertiary: str
    tertiary_container: str
    on_tertiary_container: str
    error: str
    on_error: str
    error_container: str
    on_error_container: str
    inverse_surface: str
    on_inverse_surface: str
    inverse_primary: str
    outline: str
    outline_variant: str

    def scheme(self) -> dict[str, str]:
        """The Material colour-scheme roles, by name (`ft.ColorScheme(**palette.scheme())`)."""
        roles = {k: v for k, v in self.__dict__.items() if k not in ("name", "dark")}
        return roles | {"surface_tint": self.primary, "shadow": "#000000", "scrim": "#000000",
                        "surface_bright": self.surface_container_lowest if not self.dark else self.surface_container_highest,
                        "surface_dim": self.surface_container_highest if not self.dark else self.surface}


PALETTES = {
    "light": Palette(
        name="light", dark=False,
        surface="#f6f0e1", on_surface="#2a2118", on_surface_variant="#574a39",
        surface_container_lowest="#fcf8ee", surface_container_low="#f0e8d5", surface_container="#ebe1ca",
        surface_container_high="#e5dac0", surface_container_highest="#ded2b6",
        primary="#1f3a5f", on_primary="#fbf7ec", primary_container="#d5dfec", on_primary_container="#0d2340",
        secondary="#6e5316", on_secondary="#fbf7ec", secondary_container="#ead9a8", on_secondary_container="#382705",
        tertiary="#7d2c2c", on_tertiary="#fbf7ec", tertiary_container="#f3d6cf", on_tertiary_container="#4a1111",
        error="#a1281e", on_error="#ffffff", error_container="#f6d8d2", on_error_container="#5c0f08",
        inverse_surface="#2f2a22", on_inverse_surface="#f6f0e1", inverse_primary="#a9c3e6",
        outline="#7b6d58", outline_variant="#c9bca0",
    ),
    "dark": Palette(
        name="dark", dark=True,
        surface="#16130f", on_surface="#ece3d0", on_surface_variant="#c4b79e",
        surface_container_lowest="#100d0a", surface_container_low="#1e1a15", surface_container="#24201a",
        surface_container_high="#2e2922", surface_container_highest="#39332b",
        primary="#a3c0e6", on_primary="#0b1e33", primary_container="#2a4262", on_primary_container="#dbe7f7",
        secondary="#dcbc6a", on_secondary="#2b2003", secondary_container="#4a3a14", on_secondary_container="#f3e2b3",
        tertiary="#e6a89f", on_tertiary="#3d0d0a", tertiary_container="#5e2320", on_tertiary_container="#ffdad4",
        error="#ffb4a8", on_error="#5c0f08", error_container="#7a2018", on_error_container="#ffdad4",
        inverse_surface="#ece3d0", on_inverse_surface="#2a2118", inverse_primary="#1f3a5f",
        outline="#9a8e78", outline_variant="#4a4337",
    ),
    "contrast": Palette(
        name="contrast", dark=True,
        surface="#000000", on_surface="#ffffff", on_surface_variant="#ececec",
        surface_container_lowest="#000000", surface_container_low="#0d0d0d", surface_container="#141414",
        surface_container_high="#1c1c1c", surface_container_highest="#242424",
        primary="#ffd84d", on_primary="#000000", primary_container="#1f3a66", on_primary_container="#ffffff",
        secondary="#8fdcff", on_secondary="#000000", secondary_container="#003c5a", on_secondary_container="#ffffff",
        tertiary="#ffa8e0", on_tertiary="#000000", tertiary_container="#ffa8e0", on_tertiary_container="#000000",
        error="#ff9a90", on_error="#000000", error_container="#ff9a90", on_error_container="#000000",
        inverse_surface="#ffffff", on_inverse_surface="#000000", inverse_primary="#5a4300",
        outline="#ffffff", outline_variant="#bdbdbd",
    ),
}

#: The factions, by their names on the printed cards (../shared/reference/printed-cards.json).
FACTIONS = ("British Empire", "French Republic", "German Empire", "Russian Empire", "Austro-Hungarian Empire",
            "Kingdom of Italy", "Japanese Empire", "United States of America", "Scandinavian Union",
            "Swiss Mercenaries")

#: Each faction's colour in each palette: readable as text on the palette's surfaces (4.5:1) and as a
#: ship's marker on the map (3:1).  Red coats, French blue, field grey, ...
FACTION_COLOURS = {
    "light": {
        "British Empire": "#9e1b1b", "French Republic": "#1f4fb0", "German Empire": "#3b3b3b",
        "Russian Empire": "#2b6632", "Austro-Hungarian Empire": "#765400", "Kingdom of Italy": "#005e66",
        "Japanese Empire": "#a8104f", "United States of America": "#5a2a91", "Scandinavian Union": "#8a4512",
        "Swiss Mercenaries": "#4c5a10",
    },
    "dark": {
        "British Empire": "#ff8f85", "French Republic": "#93b6ff", "German Empire": "#cccccc",
        "Russian Empire": "#8fd694", "Austro-Hungarian Empire": "#e8c15a", "Kingdom of Italy": "#6fd6d6",
        "Japanese Empire": "#ff8cc3", "United States of America": "#c8a8ff", "Scandinavian Union": "#f0aa6c",
        "Swiss Mercenaries": "#c6d86c",
    },
    "contrast": {
        "British Empire": "#ff9090", "French Republic": "#86b8ff", "German Empire": "#e6e6e6",
        "Russian Empire": "#7dff8a", "Austro-Hungarian Empire": "#ffd84d", "Kingdom of Italy": "#5ff5f5",
        "Japanese Empire": "#ff86d3", "United States of America": "#d4b8ff", "Scandinavian Union": "#ffb870",
        "Swiss Mercenaries": "#e0ff70",
    },
}

#: A side's name as players type it ("British", "the French") to its faction.
FACTION_WORDS = {
    "british": "British Empire", "britain": "British Empire", "english": "British Empire",
    "french": "French Republic", "france": "French Republic",
    "german": "German Empire", "germany": "German Empire", "prussian": "German Empire",
    "russian": "Russian Empire", "russia": "Russian Empire",
    "austro-hungarian": "Austro-Hungarian Empire", "austrian": "Austro-Hungarian Empire",
    "austria": "Austro-Hungarian Empire", "hungarian": "Austro-Hungarian Empire",
    "italian": "Kingdom of Italy", "italy": "Kingdom of Italy",
    "japanese": "Japanese Empire", "japan": "Japanese Empire",
    "american": "United States of America", "usa": "United States of America", "us": "United States of America",
    "united": "United States of America",
    "scandinavian": "Scandinavian Union", "swedish": "Scandinavian Union", "norwegian": "Scandinavian Union",
    "danish": "Scandinavian Union",
    "swiss": "Swiss Mercenaries", "mercenaries": "Swiss Mercenaries",
}

#: Sides of no known faction take these, in order, skipping those the game's factions already have.
SPARE_ORDER = ("French Republic", "British Empire", "Russian Empire", "United States of America",
               "Austro-Hungarian Empire", "Kingdom of Italy", "Japanese Empire", "Scandinavian Union",
               "Swiss Mercenaries", "German Empire")


def faction_of(side: str) -> str | None:
    """The faction a side's name names ("British" -> "British Empire"), or None."""
    if side in FACTIONS:
        return side
    words = side.lower().replace(",", " ").replace(".", " ").split()
    for word in words:
        if word in FACTION_WORDS:
            return FACTION_WORDS[word]
    return None


#: The least colour difference (CIEDE2000) between two sides of one game: sides closer than this
#: (the British Empire's dark red and the Japanese Empire's crimson, issue 28) look alike across a table.
DISTINCT = 20.0


def side_colours(sides: list[str], palette: str = DEFAULT) -> dict[str, str]:
    """Each side's colour in a palette: its faction's, or else a spare faction's no other side has; a
    side whose colour is too like an earlier side's (under `DISTINCT`) takes the first spare faction's
    that is unlike every side's.  The map, the cards and the report all draw sides by this."""
    colours = FACTION_COLOURS.get(palette, FACTION_COLOURS[DEFAULT])
    named = {side: faction_of(side) for side in sides}
    spare = [f for f in SPARE_ORDER if f not in named.values()]
    out: dict[str, str] = {}
    for side in sides:
        faction = named[side] or (spare.pop(0) if spare else SPARE_ORDER[len(out) % len(SPARE_ORDER)])
        colour = colours[faction]
        if any(colour_difference(colour, taken) < DISTINCT for taken in out.values()):
            colour = next((colours[f] for f in spare if all(colour_difference(colours[f], taken) >= DISTINCT
                                                             for taken in out.values())), colour)
        out[side] = colour
    return out


# --- colour difference (CIE L*a*b* under D65, CIEDE2000) --------------------------------------------


def lab(colour: str) -> tuple[float, float, float]:
    """The CIE L*a*b* (D65) of an sRGB colour "#rrggbb"."""
    value = colour.lstrip("#")[:6]
    channels = [int(value[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def colour_difference(a: str, b: str) -> float:
    """How unlike two colours look: CIEDE2000's ΔE00 of their L*a*b* (about 2: just noticeable)."""
    return delta_e00(lab(a), lab(b))


def delta_e00(first: tuple[float, float, float], second: tuple[float, float, float]) -> float:
    """CIEDE2000 (Sharma, Wu and Dalal, 2005) of two L*a*b* colours, kL = kC = kH = 1."""
    (l1, a1, b1), (l2, a2, b2) = first, second
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1, h2 = math.degrees(math.atan2(b1, a1)) % 360, math.degrees(math.atan2(b2, a2)) % 360
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    d_l, d_c, d_h = l2 - l1, c2 - c1, 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    r_t = (-2 * math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7))
           * math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2)))))
    dl, dc, dhh = d_l / s_l, d_c / s_c, d_h / s_h
    return math.sqrt(dl ** 2 + dc ** 2 + dhh ** 2 + r_t * dc * dhh)


# --- contrast (WCAG 2.x, "relative luminance" and "contrast ratio") ---------------------------------

AA_TEXT = 4.5  # WCAG 2.x 1.4.3, normal text
AA_LARGE = 3.0  # large text (18 pt, or 14 pt bold) and user-interface components (1.4.11)


def luminance(colour: str) -> float:
    """The relative luminance of an sRGB colour "#rrggbb": 0.2126 R + 0.7152 G + 0.0722 B of the
    linearised channels (c/12.92 up to 0.04045, else ((c+0.055)/1.055)^2.4)."""
    value = colour.lstrip("#")[:6]
    channels = [int(value[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The contrast ratio (L1 + 0.05) / (L2 + 0.05), the lighter over the darker: 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink_on(fill: str) -> str:
    """Black or white, whichever reads better on a fill (a side's colour under the odds of a shot)."""
    return "#000000" if contrast("#000000", fill) >= contrast("#ffffff", fill) else "#ffffff"


#: The backgrounds text stands on: the page, the panels and cards (Material 3's containers).
BACKGROUNDS = ("surface", "surface_container_lowest", "surface_container_low", "surface_container",
               "surface_container_high", "surface_container_highest")

#: (text, background) token pairs the views use for normal text: 4.5:1 in every palette.
TEXT_PAIRS = (
    *((text, ground) for text in ("on_surface", "on_surface_variant", "primary", "secondary", "tertiary", "error")
      for ground in BACKGROUNDS),
    ("on_primary", "primary"), ("on_primary_container", "primary_container"),
    ("on_secondary", "secondary"), ("on_secondary_container", "secondary_container"),
    ("on_tertiary", "tertiary"), ("on_tertiary_container", "tertiary_container"),
    ("on_error", "error"), ("on_error_container", "error_container"),
    ("on_inverse_surface", "inverse_surface"), ("inverse_primary", "inverse_surface"),
    ("on_surface", "primary_container"), ("on_surface_variant", "primary_container"),  # the game's banner
    ("on_surface", "secondary_container"),  # a declared shot's card (fire tab)
)

#: Pairs drawn only as large text or as a control's edge: 3:1.
LARGE_PAIRS = (
    *(("outline", ground) for ground in BACKGROUNDS),
    ("primary", "primary_container"),
)


def pairs(palette: Palette) -> list[tuple[str, str, str, str, float]]:
    """Every checked pair of a palette: (text token, background token, text, background, least ratio),
    the factions' colours on every background included."""
    tokens = palette.__dict__
    out = [(t, g, tokens[t], tokens[g], AA_TEXT) for t, g in TEXT_PAIRS]
    out += [(t, g, tokens[t], tokens[g], AA_LARGE) for t, g in LARGE_PAIRS]
    out += [(faction, g, colour, tokens[g], AA_TEXT)
            for faction, colour in FACTION_COLOURS[palette.name].items() for g in BACKGROUNDS]
    return out
