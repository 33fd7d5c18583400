"""Renders the app's icons from assets/icon.svg (the airship drawn for this project, issue 18):
the favicon, the web manifest's icons (plain and maskable), the Apple touch icons, the loading
picture, and assets/icon.png, the one source `flet build` makes every platform's icons from.

    python tools/make_icons.py

It draws with the Chromium the browser tests use (Debian's /usr/bin/chromium, driven by Playwright):
the one SVG renderer on the machine that needs nothing new installed, and it works offline.  Each
PNG is a screenshot of the SVG at exactly its size, with a transparent page behind it.

Framings (what is drawn where):
- *plain* (favicon, icon-192/512): the rounded square as drawn in icon.svg;
- *full* (maskable icons, Apple touch icons, icon.png): the square filled to its edges and the
  ship shrunk to 80 % in the middle, inside the safe circle a phone's mask keeps (the manifest's
  "maskable"; iOS and `flet build` round or cut the corners themselves);
- *ship*: the ship alone on nothing (not used now: cream on the white loading page was unseen).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ASSETS = Path(__file__).resolve().parent.parent / "assets"
SOURCE = ASSETS / "icon.svg"
CHROMIUM = "/usr/bin/chromium"
SAFE = "translate(256 256) scale(0.8) translate(-253 -245)"  # the ship's middle to the square's

#: file under assets/ -> (size in pixels, framing)
OUTPUTS = {
    "favicon.png": (32, "plain"),
    "icons/favicon-16.png": (16, "plain"),
    "icons/icon-192.png": (192, "plain"),
    "icons/icon-512.png": (512, "plain"),
    "icons/icon-maskable-192.png": (192, "full"),
    "icons/icon-maskable-512.png": (512, "full"),
    "icons/apple-touch-icon-192.png": (192, "full"),  # the name Flet's index.html links
    "apple-touch-icon.png": (180, "full"),  # where iOS looks when a page links none
    "icons/loading-animation.png": (400, "plain"),  # the picture Flet's index.html shows while loading
    "icon.png": (1024, "full"),  # `flet build`'s source for every platform's icons
}


def framed(svg: str, framing: str) -> str:
    """The SVG drawn in one framing (see the module's docstring)."""
    if framing == "full":
        svg = re.sub(r'(<rect id="background"[^>]*?) rx="\d+"', r"\1", svg)
        return svg.replace('<g id="art">', f'<g id="art" transform="{SAFE}">')
    if framing == "ship":
        return re.sub(r'<rect id="background"[^>]*/>', "", svg)
    return svg


def sized(svg: str, size: int) -> str:
    return re.sub(r'width="512" height="512"', f'width="{size}" height="{size}"', svg, count=1)


def main() -> None:
    from playwright.sync_api import sync_playwright

    source = SOURCE.read_text(encoding="utf-8")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for name, (size, framing) in OUTPUTS.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(f"<html><body style='margin:0'>{sized(framed(source, framing), size)}</body></html>")
            target = ASSETS / name
            target.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(target), omit_background=True)
            page.close()
            print(f"{target.relative_to(ASSETS.parent)}  {size}x{size}  {framing}")
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
