"""The annotations are checked like the behaviour (issues 13 and 27).

`mypy --strict` is clean on the engine alone, and on the engine, the store and
the commands together; the whole package (the app's screens over Flet's
controls) is clean without --strict.  mypy reads its settings (the pydantic
plugin, the untyped Flet web packages) from pyproject.toml and keeps its cache
in a temporary folder, not the tree.  Each run starts from an empty cache:
measured 5.7 s for the engine, 7.2 s for the three packages and 7.4 s for the
whole package (33 s for the file with mypy's start) on the shared 2-core box.
"""

from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"


def _mypy(cache: Path, *arguments: str) -> tuple[int, str]:
    report, errors, status = api.run([
        "--config-file", str(ROOT / "pyproject.toml"),
        "--cache-dir", str(cache),
        *arguments,
    ])
    return status, report + errors


def test_mypy_strict_finds_no_error_in_the_engine(tmp_path):
    status, said = _mypy(tmp_path / "mypy_cache", "--strict", str(PACKAGE / "engine"))
    assert status == 0, f"mypy --strict companion/engine:\n{said}"


def test_mypy_strict_finds_no_error_in_the_engine_store_and_commands(tmp_path):
    status, said = _mypy(tmp_path / "mypy_cache", "--strict",
                         *(str(PACKAGE / name) for name in ("engine", "store", "commands")))
    assert status == 0, f"mypy --strict companion/engine companion/store companion/commands:\n{said}"


def test_mypy_finds_no_error_in_the_whole_package(tmp_path):
    status, said = _mypy(tmp_path / "mypy_cache", str(PACKAGE))
    assert status == 0, f"mypy companion:\n{said}"
