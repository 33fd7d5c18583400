"""Makes assets/fonts/card-marks.ttf: the printed cards' gun marks (▲, ■ and the rest of Unicode's
geometric shapes) cut out of DejaVu Sans, for the app's text to fall back on.  The offline web app
has no font with these glyphs (they drew as empty boxes) and may fetch none from the internet.

    pip install fonttools && python tools/card_marks_font.py [/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf]

DejaVu's licence (free, Bitstream Vera terms) ships beside the font as card-marks-LICENSE.txt.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset

SOURCE = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
TARGET = Path(__file__).resolve().parent.parent / "assets" / "fonts" / "card-marks.ttf"
GEOMETRIC_SHAPES = range(0x25A0, 0x2600)


def main(source: str = SOURCE) -> None:
    options = subset.Options()
    options.name_IDs = ["*"]  # keep the font's names, copyright and licence records
    options.notdef_outline = True
    font = subset.load_font(source, options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=list(GEOMETRIC_SHAPES))
    subsetter.subset(font)
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    subset.save_font(font, str(TARGET), options)
    print(f"wrote {TARGET} ({TARGET.stat().st_size} bytes)")


if __name__ == "__main__":
    main(*sys.argv[1:2])
