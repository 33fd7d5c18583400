"""Reading card, fleet and scenario files, and the shipped fleets.

The engine reads no files; this module does, and turns every problem into a
FormatError that names the file, the JSON path and the problem.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .engine.cards import Card, Fleet, FormatError, load_card, load_fleet
from .engine.scenario import Scenario, load_scenario

PACKAGE_DIR = Path(__file__).resolve().parent


def shipped_fleets_dir() -> Path:
    """`fleets/` inside an installed wheel, or at the top of a source checkout."""
    for candidate in (PACKAGE_DIR / "fleets", PACKAGE_DIR.parent / "fleets"):
        if candidate.is_dir():
            return candidate
    return PACKAGE_DIR.parent / "fleets"


def read_json(path: str | Path) -> Any:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FormatError("no such file", source=str(path)) from None
    except IsADirectoryError:
        raise FormatError("is a folder, not a file", source=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise FormatError(f"cannot be read ({exc.__class__.__name__})", source=str(path)) from None
    if not text.strip():
        raise FormatError("the file is empty", source=str(path))
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", source=str(path)) from None


def kind_of(data: Any) -> str:
    """`card`, `fleet` or `scenario`, from the file's format tag."""
    tag = data.get("format", "") if isinstance(data, dict) else ""
    for kind in ("card", "fleet", "scenario", "warfleet-scenario"):
        if str(tag).startswith(f"leviathans-{kind}/"):
            return kind
    raise FormatError(
        "no known \"format\" tag: expected leviathans-card/1, leviathans-fleet/1, leviathans-scenario/1 "
        "or leviathans-warfleet-scenario/1",
        "format",
    )


def load_file(path: str | Path) -> Card | Fleet | Scenario:
    """Any of the three formats, validated; FormatError names file and path."""
    data = read_json(path)
    try:
        kind = kind_of(data)
        if kind == "warfleet-scenario":  # War Fleet (docs/formats.md)
            from .engine.warfleet.scenario import load_warfleet_scenario
            return load_warfleet_scenario(data)
        return {"card": load_card, "fleet": load_fleet, "scenario": load_scenario}[kind](data)
    except FormatError as exc:
        raise exc.in_file(Path(path).name) from None


def load_catalogue(extra: list[str | Path] = ()) -> dict[str, Card]:
    """Every card of the shipped fleets, plus cards and fleets from `extra` files."""
    catalogue: dict[str, Card] = {}
    paths = sorted(shipped_fleets_dir().glob("*.json")) + [Path(p) for p in extra]
    for path in paths:
        loaded = load_file(path)
        if isinstance(loaded, Fleet):
            catalogue.update({card.id: card for card in loaded.ships})
        elif isinstance(loaded, Card):
            catalogue[loaded.id] = loaded
    return catalogue
