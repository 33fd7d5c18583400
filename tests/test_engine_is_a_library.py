"""The rules core is a library: it imports no UI, storage or network code."""

import subprocess
import sys


def test_importing_the_engine_loads_neither_flet_nor_tinydb():
    code = ("import sys, companion.engine, companion.engine.quick_start.game, companion.engine.quick_start.combat;"
            "print(sorted(m for m in ('flet', 'tinydb') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
