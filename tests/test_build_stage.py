"""The packaged app's folder (build/app, staged by build/prepare.py) runs on its own.

`flet build` itself needs the Flutter SDK from the internet (build/README.md); this
checks what it would package: the entry point imports the staged package, not the
checkout's, and finds the shipped fleets, the rule readings and a saving store.
"""

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHECK = """
import os, sys
import main
import companion
from companion.files import load_catalogue
from companion.app.readings import rule_readings_text
assert companion.__file__.startswith(os.getcwd()), companion.__file__
app = main.app_main()
assert callable(app)
cards = load_catalogue()
assert {'hml-hertfordshire', 'hml-raven', 'pontbriand', 'pelletier'} <= set(cards), sorted(cards)
assert 'rule' in rule_readings_text().lower()
print(len(cards), 'cards;', 'data in', os.environ['FLET_APP_STORAGE_DATA'])
"""


def load_prepare():
    spec = importlib.util.spec_from_file_location("prepare", ROOT / "build" / "prepare.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_staged_app_runs_from_its_own_folder(tmp_path):
    stage = load_prepare().prepare(tmp_path / "stage")
    assert (stage / "main.py").is_file()
    assert (stage / "companion" / "fleets").is_dir()
    assert (stage / "companion" / "docs" / "rule-readings.md").is_file()
    assert not list(stage.rglob("__pycache__"))
    data = tmp_path / "device-data"
    result = subprocess.run([sys.executable, "-c", CHECK], cwd=stage, capture_output=True, text=True,
                            env={"FLET_APP_STORAGE_DATA": str(data), "PATH": "/usr/bin:/bin"}, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "cards; data in" in result.stdout
    assert data.is_dir()  # the store made its folder where the platform said


def test_pyproject_points_flet_build_at_the_staged_folder():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["flet"]
    assert config["app"]["path"] == "build/app" and config["app"]["module"] == "main"
    assert (ROOT / config["app"]["path"] / "main.py").is_file()
