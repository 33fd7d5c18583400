"""A file that does not match its format (cards, fleets, scenarios, saved games): where and what.

Its own module, below `cards` and `migrations`, which both raise it (issue 27: no import cycle)."""

from __future__ import annotations


class FormatError(ValueError):
    """A file that does not match its format: where (JSON path) and what."""

    def __init__(self, problem: str, path: str = "", source: str = ""):
        self.problem, self.path, self.source = problem, path, source
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return ": ".join(part for part in (self.source, self.path, self.problem) if part)

    def in_file(self, source: str) -> "FormatError":
        return FormatError(self.problem, self.path, source)
