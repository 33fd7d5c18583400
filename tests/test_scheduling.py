"""The suite's own scheduling (tests/conftest.py, issue 26): two browser groups, one a worker."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("suite_scheduling", Path(__file__).with_name("conftest.py"))
assert _spec is not None and _spec.loader is not None
conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(conftest)


def test_browser_modules_alternate_between_two_groups_and_a_module_stays_whole():
    ids = ["tests/browser/test_b.py::test_one", "tests/browser/test_a.py::test_one",
           "tests/browser/test_a.py::test_two[phone]", "tests/browser/test_c.py::test_one",
           "tests/test_benchmarks_smoke.py::test_monkey_runs[quick]", "tests/test_dice.py::test_one"]
    groups = conftest.browser_groups(ids)
    assert groups == {"tests/browser/test_a.py": "browser-0", "tests/browser/test_b.py": "browser-1",
                      "tests/browser/test_c.py": "browser-0", "tests/test_benchmarks_smoke.py::test_monkey_runs": "browser-1"}
    assert [conftest.scope_of(i, groups) for i in ids] == [
        "browser-1", "browser-0", "browser-0", "browser-0", "browser-1", "tests/test_dice.py"]
