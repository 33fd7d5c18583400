"""`companion desktop` where Flet's desktop client cannot be had: a plain message, no traceback."""

import importlib.util
import subprocess
import sys

import pytest


@pytest.mark.skipif(importlib.util.find_spec("flet_desktop") is not None,
                    reason="the desktop client is installed here: the window would open")
def test_desktop_without_the_client_says_so_plainly(tmp_path):
    result = subprocess.run([sys.executable, "-m", "companion", "desktop", "--data", str(tmp_path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "flet-desktop" in result.stderr and "companion web" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert len(result.stderr.strip().splitlines()) == 1


def test_web_help_names_the_host_and_the_pin():
    result = subprocess.run([sys.executable, "-m", "companion", "web", "--help"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert "127.0.0.1" in result.stdout and "PIN" in result.stdout
