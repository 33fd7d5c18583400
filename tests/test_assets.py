"""The app's identity in assets/ (issue 18): the web manifest names icons that are there, at the
sizes it says; the maskable ones fill their square; the fonts the page registers are shipped with
their licences; and the server names the app as the manifest does."""

from __future__ import annotations

import json
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

ASSETS = Path(__file__).resolve().parent.parent / "assets"


def manifest() -> dict:
    return json.loads((ASSETS / "manifest.json").read_text(encoding="utf-8"))


def png_facts(path: Path) -> tuple[int, int, int]:
    """(width, height, colour type) from a PNG's header: type 2 is RGB (opaque), 6 is RGBA."""
    data = path.read_bytes()[:32]
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    width, height, _depth, colour = struct.unpack(">IIBB", data[16:26])
    return width, height, colour


def test_the_manifest_names_the_app_and_opens_standalone():
    m = manifest()
    assert m["name"] == "Leviathans Table Companion"
    assert m["short_name"] == "Leviathans"
    assert m["display"] == "standalone"
    assert m["theme_color"].startswith("#") and m["background_color"].startswith("#")


def test_every_icon_the_manifest_names_is_in_assets_at_its_size():
    icons = manifest()["icons"]
    assert {"192x192", "512x512"} <= {i["sizes"] for i in icons if i.get("purpose", "any") == "any"}
    assert {"192x192", "512x512"} <= {i["sizes"] for i in icons if i.get("purpose") == "maskable"}
    for icon in icons:
        path = ASSETS / icon["src"]
        assert path.is_file(), f"the manifest names {icon['src']}, not in assets/"
        width, height, colour = png_facts(path)
        assert f"{width}x{height}" == icon["sizes"], icon["src"]
        assert icon["type"] == "image/png"
        if icon.get("purpose") == "maskable":
            assert colour == 2, f"{icon['src']}: a maskable icon fills its square (no transparency)"


def test_the_rendered_icons_match_the_tool_list():
    """What Flet's index.html links (favicon, Apple touch icon, loading picture) and `flet build`'s
    assets/icon.png, each made from icon.svg by tools/make_icons.py at its size."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_icons", ASSETS.parent / "tools" / "make_icons.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    for name, (size, framing) in tool.OUTPUTS.items():
        width, height, colour = png_facts(ASSETS / name)
        assert (width, height) == (size, size), name
        if framing == "full":
            assert colour == 2, f"{name} fills its square"
    assert {"favicon.png", "icons/apple-touch-icon-192.png", "icons/loading-animation.png", "icon.png"} <= set(tool.OUTPUTS)
    assert png_facts(ASSETS / "icon.png")[:2] == (1024, 1024)


def test_the_icon_source_is_an_svg_with_the_ship():
    root = ET.parse(ASSETS / "icon.svg").getroot()
    ids = {e.get("id") for e in root.iter()}
    assert {"background", "art", "ship"} <= ids


def test_the_registered_fonts_are_shipped_with_their_licences():
    from companion.app.theme import BODY_FONT, DISPLAY_FONT, FONTS

    assert {BODY_FONT, DISPLAY_FONT} <= set(FONTS)
    for family, src in FONTS.items():
        path = ASSETS / src
        assert path.is_file(), f"{family}: {src} not in assets/"
        licences = list(path.parent.glob(f"{path.stem.split('-')[0]}*LICENSE*")) + \
            list(path.parent.glob(f"{path.stem}-LICENSE*"))
        assert licences, f"{family}: no licence file beside {src}"
    for name in ("OldStandard-LICENSE.txt", "Lato-LICENSE.txt"):
        assert "open font license" in (ASSETS / "fonts" / name).read_text(encoding="utf-8").lower()


def test_the_server_names_the_app_as_the_manifest_does():
    from companion.app import server

    m = manifest()
    assert (server.APP_NAME, server.APP_SHORT_NAME, server.APP_DESCRIPTION) == (m["name"], m["short_name"], m["description"])


def test_the_readme_lists_every_asset():
    listed = (ASSETS / "README.md").read_text(encoding="utf-8")
    for path in sorted(ASSETS.rglob("*")):
        if path.is_file() and path.name != "README.md":
            assert f"`{path.relative_to(ASSETS).as_posix()}`" in listed, f"assets/README.md does not list {path.name}"
