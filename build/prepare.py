"""Stage the packaged app for `flet build`: copy the package and its data beside build/app/main.py.

`flet build` packages one folder (pyproject's `[tool.flet.app] path`, here
`build/app`) and installs the project's dependencies into the bundle, but not
the project itself.  This copies what the app needs into that folder:

- `companion/` (the engine, the store and the app; no tests, no caches),
- `fleets/` as `companion/fleets/` and `docs/rule-readings.md` as
  `companion/docs/rule-readings.md`, where the installed wheel keeps them,
- `assets/` as `build/app/assets/` (icons and splash images, if any).

Run from anywhere: `python build/prepare.py [STAGE]` (default: build/app).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc")


def prepare(stage: Path) -> Path:
    """Copy the package, fleets, rule readings and assets into `stage` (beside its main.py)."""
    stage = Path(stage)
    stage.mkdir(parents=True, exist_ok=True)
    if stage.resolve() != (ROOT / "build" / "app").resolve():
        shutil.copy2(ROOT / "build" / "app" / "main.py", stage / "main.py")
    package = stage / "companion"
    for old in (package, stage / "assets"):
        if old.exists():
            shutil.rmtree(old)
    shutil.copytree(ROOT / "companion", package, ignore=SKIP)
    shutil.copytree(ROOT / "fleets", package / "fleets", ignore=SKIP)
    (package / "docs").mkdir(exist_ok=True)
    shutil.copy2(ROOT / "docs" / "rule-readings.md", package / "docs" / "rule-readings.md")
    shutil.copytree(ROOT / "assets", stage / "assets", ignore=SKIP)
    return stage


if __name__ == "__main__":
    where = prepare(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build" / "app")
    print(f"staged the app in {where}: now run `flet build <platform>` at the top of the project")
