"""The printed cards' gun marks draw in the offline app (issue 12): every mark a shipped card
prints is a letter or one of the geometric shapes that assets/fonts/card-marks.ttf holds, and
the app registers that font."""

from __future__ import annotations

import json
from pathlib import Path

from companion.app.main import _assets_dir
from companion.app.theme import FONTS, MARKS_FONT

FLEETS = Path(__file__).resolve().parent.parent / "fleets"


def test_the_marks_font_ships_in_the_assets():
    font = Path(_assets_dir()) / FONTS[MARKS_FONT]
    assert font.is_file() and font.read_bytes()[:4] == b"\x00\x01\x00\x00"  # a TrueType font


def test_every_printed_mark_is_a_letter_or_a_shape_the_font_holds():
    marks = set()
    for path in FLEETS.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        for card in data.get("ships", []):
            for location in card.get("locations", {}).values():
                for slot in location.get("slots", []):
                    marks.update(slot.get("marks") or "")
    assert {"▲", "■", "T"} <= marks
    assert all(mark.isascii() and mark.isalpha() or 0x25A0 <= ord(mark) < 0x2600 for mark in marks), marks
