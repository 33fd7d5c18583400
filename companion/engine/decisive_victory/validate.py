"""Validation of Decisive Victory files in plain words naming the JSON path (spec §17).

The Quick-Start `cards.validated` turns pydantic's errors into plain words;
its path skips names that are Leviathans slot kinds (`armor`, `gun`), which
here are real keys (`armor.belt`), so the path is written out in full.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..cards import FormatError, _check_format, format_error
from ..migrations import migrate_dv

M = TypeVar("M", bound=BaseModel)


def dv_validated(model: type[M], data: Any, expected: str | None = None) -> M:
    """`data` (in the format `expected`, when it has a format tag) as a `model`; FormatError naming the path.
    Older versions are upgraded first, and the files inside it (migrations.py, spec §17)."""
    if expected is not None:
        data = migrate_dv(data, expected.partition("/")[0])
        _check_format(data, expected)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        plain = format_error(exc)
        path = ".".join(str(part) for part in exc.errors()[0]["loc"])
        raise FormatError(plain.problem, path) from None
