"""The role bar's notes ("The host refused your request ... OK") sit on the tertiary container; their
buttons take the notes' own ink (issue 35: in the high-contrast theme a TextButton's default ink,
the signal-yellow primary, stood on pink and its "OK" could not be read)."""

from __future__ import annotations

import flet as ft
import pytest

from companion.app.palettes import PALETTES, contrast
from companion.app.views.join import bar_button


@pytest.mark.parametrize("name", sorted(PALETTES))
def test_the_bars_button_ink_reads_on_the_bar_in_every_theme(name):
    palette = PALETTES[name]
    button = bar_button("role-refused-ok", "OK", lambda e: None).content
    assert isinstance(button, ft.TextButton) and button.content == "OK"
    assert button.style.color == ft.Colors.ON_TERTIARY_CONTAINER == button.icon_color
    ink = contrast(palette.on_tertiary_container, palette.tertiary_container)
    assert ink >= (7 if name == "contrast" else 4.5)


def test_the_default_ink_was_unreadable_on_the_high_contrast_bar():
    palette = PALETTES["contrast"]
    assert contrast(palette.primary, palette.tertiary_container) < 3  # why the default could not stay
