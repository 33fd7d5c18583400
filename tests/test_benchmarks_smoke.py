"""Benchmarks that cannot rot (issue 26): each `python benchmarks/X.py --quick` runs in seconds,
exits 0, and its board does what its title says (shots in arc and range where it times odds,
positions where it times reach, rows for every table it names).

A benchmark whose file is missing, or that has no `--quick` mode yet, is skipped with that reason.
The ones that drive chromium run in the browser tests' worker (tests/conftest.py)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"
BROWSER = Path("/usr/bin/chromium").exists()


def numbers_after(output: str, title: str) -> list[int]:
    """The whole numbers on the line of the output that starts with `title` (after the title)."""
    for line in output.splitlines():
        if line.strip().startswith(title) or line.strip().startswith(f"| {title}"):
            rest = line.strip()[len(title):] if line.strip().startswith(title) else line.strip()[len(title) + 2:]
            return [int(n) for n in re.findall(r"(?<![\d.])\d+(?![\d.])", rest.split(" ms")[0].replace(",", ""))]
    raise AssertionError(f"no line {title!r} in:\n{output}")


def quick(name: str, timeout: float = 240) -> str:
    path = BENCHMARKS / f"{name}.py"
    if not path.exists():
        pytest.skip(f"benchmarks/{name}.py does not exist yet")
    if "--quick" not in path.read_text():
        pytest.skip(f"benchmarks/{name}.py has no --quick mode yet")
    done = subprocess.run([sys.executable, str(path), "--quick"], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, f"{name} --quick exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_bench_reach_plans_moves_for_both_tables():
    out = quick("bench_reach")
    assert numbers_after(out, "Quick-Start, 40 ships (20 v 20)")[0] > 0  # end positions
    assert numbers_after(out, "War Fleet 20 v 20, as it opens")[0] > 0


def test_bench_warfleet_closed_to_battle_has_attacks_with_odds():
    out = quick("bench_warfleet")
    options, strikes = numbers_after(out, "closed to battle")[:2]
    assert options > 0 and strikes > 0, out


def test_bench_store_saves_both_rulesets():
    out = quick("bench_store")
    assert "Quick-Start" in out and "War Fleet" in out, out
    assert re.search(r"^\s+100 \|", out, re.M), out


def test_bench_solutions_boards_have_shots_in_arc_and_range():
    out = quick("bench_solutions")
    for table in ("Quick-Start, 4 ships", "40 ships, 20 against 20"):
        assert numbers_after(out, table)[0] > 0, f"{table}: no firing solution in arc and range\n{out}"


def test_bench_planner_runs():
    quick("bench_planner")


def test_bench_dice_runs():
    quick("bench_dice")


def test_bench_memory_waves_leave_and_are_collected():
    from test_server_security import LAN

    if LAN is None:
        pytest.skip("bench_memory's phones need a non-loopback address to connect from")
    out = quick("bench_memory")
    for wave in (1, 2):
        row = next(line for line in out.splitlines() if line.startswith(f"| {wave} |"))
        assert row.rstrip(" |").endswith("3/3"), out  # every phone of the wave joined, left, and was collected
    assert "after every wave left" in out, out


@pytest.mark.skipif(not BROWSER, reason="bench_app's start time needs /usr/bin/chromium")
def test_bench_app_taps_and_start():
    out = quick("bench_app")
    assert "| Quick-Start, 4 ships | phone |" in out, out
    assert "Start to home" in out, out


@pytest.mark.skipif(not BROWSER, reason="bench_shared drives browsers: needs /usr/bin/chromium")
def test_bench_shared_runs():
    quick("bench_shared", timeout=400)


@pytest.mark.skipif(not BROWSER, reason="the monkey drives a browser: needs /usr/bin/chromium")
def test_monkey_quick_run():
    quick("monkey", timeout=400)


@pytest.mark.slow  # builds the static web app first (minutes), as test_static_build does: `pytest -m slow`
@pytest.mark.skipif(not BROWSER, reason="bench_static opens the static build in chromium")
def test_bench_static_runs():
    quick("bench_static", timeout=900)


def test_bench_tv_labels_marks_forty_ships():
    out = quick("bench_tv_labels")
    assert numbers_after(out, "War Fleet 20v20 on a 1920x1080 TV:")[0] == 40 and "marks: True" in out
    for row in ("first", "again", "a move"):
        assert re.search(rf"^\s+{row}\s+[\d.]+ ms$", out, re.M), out
