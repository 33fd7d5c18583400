"""The suite's scheduling over pytest-xdist's workers (issue 26).

`--dist loadgroup` (pyproject addopts) runs here as: the browser tests (tests/browser, and each
benchmark smoke test that drives chromium) in two groups, the modules taken alternately in name
order, so each worker drives one browser at a time (a browser test mostly waits on the page: two
at once keep both cores busy); every other test module on whichever worker is free.  (pytest-xdist 3.8's own
loadgroup renames test ids, which pytest 9.2 no longer allows: its `xdist_group` marks are ignored
there, so the grouping is decided here from the test ids.)"""

from __future__ import annotations

import re

#: test ids that drive chromium outside tests/browser: the benchmarks' quick modes that open a browser
BROWSER_ELSEWHERE = re.compile(r"^tests/test_benchmarks_smoke\.py::test_(bench_app|bench_shared|bench_static|monkey)")


def browser_unit(nodeid: str) -> str | None:
    """A browser test's unit of scheduling (its module; a smoke test itself), or None for any other."""
    if nodeid.startswith("tests/browser/"):
        return nodeid.split("::", 1)[0]
    if BROWSER_ELSEWHERE.match(nodeid):
        return nodeid.split("[", 1)[0]
    return None


def browser_groups(nodeids: list[str]) -> dict[str, str]:
    """Each browser unit's group: "browser-0" and "browser-1" in turn, in name order."""
    units = sorted({unit for unit in map(browser_unit, nodeids) if unit is not None})
    return {unit: f"browser-{index % 2}" for index, unit in enumerate(units)}


def scope_of(nodeid: str, groups: dict[str, str] | None = None) -> str:
    """The group a test runs in: its browser group, an explicit `@group` suffix, else its module."""
    unit = browser_unit(nodeid)
    if unit is not None:
        return (groups or {}).get(unit, "browser-0")
    if "@" in nodeid:
        return nodeid.rsplit("@", 1)[-1]
    return nodeid.split("::", 1)[0]


def pytest_xdist_make_scheduler(config, log):
    if config.getoption("dist") != "loadgroup":
        return None  # xdist's own scheduler for any other --dist
    from xdist.scheduler import LoadScopeScheduling

    class OneBrowserAWorker(LoadScopeScheduling):
        groups: dict[str, str] | None = None

        def _split_scope(self, nodeid: str) -> str:
            if self.groups is None:  # the collection is known once every worker has collected
                self.groups = browser_groups(list(self.collection or [nodeid]))
            return scope_of(nodeid, self.groups)

    return OneBrowserAWorker(config, log)
