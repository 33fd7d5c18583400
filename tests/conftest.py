"""The suite's scheduling over pytest-xdist's workers (issue 26).

`--dist loadgroup` (pyproject addopts) runs here as: every browser test (tests/browser) and each
benchmark smoke test that drives chromium in one group, one worker, one browser at a time on the
2-core machine; every other test module on whichever worker is free.  (pytest-xdist 3.8's own
loadgroup renames test ids, which pytest 9.2 no longer allows: its `xdist_group` marks are ignored
there, so the grouping is decided here from the test ids.)"""

from __future__ import annotations

import re

#: test ids that drive chromium outside tests/browser: the benchmarks' quick modes that open a browser
BROWSER_ELSEWHERE = re.compile(r"^tests/test_benchmarks_smoke\.py::test_(bench_app|bench_shared|bench_static|monkey)")


def scope_of(nodeid: str) -> str:
    """The group a test runs in: "browser", an explicit `@group` suffix, else its module."""
    if nodeid.startswith("tests/browser/") or BROWSER_ELSEWHERE.match(nodeid):
        return "browser"
    if "@" in nodeid:
        return nodeid.rsplit("@", 1)[-1]
    return nodeid.split("::", 1)[0]


def pytest_xdist_make_scheduler(config, log):
    if config.getoption("dist") != "loadgroup":
        return None  # xdist's own scheduler for any other --dist
    from xdist.scheduler import LoadScopeScheduling

    class BrowserInOneWorker(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return scope_of(nodeid)

    return BrowserInOneWorker(config, log)
