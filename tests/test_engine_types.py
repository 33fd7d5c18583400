"""`mypy --strict companion/engine` stays clean (issue 13).

The engine is plain data and pure functions; its annotations are checked like
its behaviour.  mypy reads its settings (the pydantic plugin) from
pyproject.toml and keeps its cache in a temporary folder, not the tree.
"""

from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_strict_finds_no_error_in_the_engine(tmp_path):
    report, errors, status = api.run([
        "--strict",
        "--config-file", str(ROOT / "pyproject.toml"),
        "--cache-dir", str(tmp_path / "mypy_cache"),
        str(ROOT / "companion" / "engine"),
    ])
    assert status == 0, f"mypy --strict companion/engine:\n{report}{errors}"
