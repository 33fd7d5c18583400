"""The rule readings page, read from the package: docs/rule-readings.md.

The wheel carries the page as `companion/docs/rule-readings.md` (pyproject's
force-include); a source checkout reads it from `docs/` at the top.  The app
shows the page itself, never a copy of it.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

NAME = "rule-readings.md"


class ReadingsMissing(OSError):
    """The page is not where the package keeps it."""


def rule_readings_text() -> str:
    packaged = resources.files("companion") / "docs" / NAME
    candidates = [packaged, Path(__file__).resolve().parents[2] / "docs" / NAME]
    for candidate in candidates:
        try:
            return candidate.read_text(encoding="utf-8")
        except (FileNotFoundError, NotADirectoryError):
            continue
    raise ReadingsMissing(f"the rule readings page ({NAME}) is missing from this installation")
