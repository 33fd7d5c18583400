"""The browser tests wait on what the screen shows, never a fixed time (issue 26): every
`time.sleep(...)` and `wait_for_timeout(...)` in tests/browser's conftest.py and test_*.py has a
literal argument of at most 0.2 s (200 ms), a polling step, not a guess at how long painting takes;
or waits out a named client timeout (an expression naming a `..._TIMEOUT` constant: issue 25.3's
"check the page again after the client's timeout has passed").  monkey_core.py is the monkey's
engine, shared with benchmarks/monkey.py: its random pauses between taps are its method."""

from __future__ import annotations

import ast
from pathlib import Path

BROWSER = Path(__file__).resolve().parent / "browser"
LIMIT = {"sleep": 0.2, "wait_for_timeout": 200}  # seconds for time.sleep, milliseconds for Playwright


def sleeps(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in LIMIT:
            if node.func.attr == "sleep" and not (isinstance(node.func.value, ast.Name) and node.func.value.id == "time"):
                continue  # asyncio.sleep: a simulated player's think time in the load test (marked slow)
            yield node


def test_every_sleep_in_the_browser_tests_is_a_literal_of_at_most_0_2_s():
    found, bad = 0, []
    for path in [BROWSER / "conftest.py", *sorted(BROWSER.glob("test_*.py"))]:
        for call in sleeps(ast.parse(path.read_text(), str(path))):
            found += 1
            arg = call.args[0] if call.args else None
            if arg is not None and any(isinstance(n, ast.Name) and n.id.endswith("_TIMEOUT") for n in ast.walk(arg)):
                continue  # waits out the client's timeout on purpose
            if not (isinstance(arg, ast.Constant) and isinstance(arg.value, (int, float))
                    and 0 <= arg.value <= LIMIT[call.func.attr]):
                bad.append(f"{path.name}:{call.lineno}: {ast.unparse(call)}")
    assert found, "no sleep found at all: the check reads nothing"
    assert bad == [], "fixed sleeps over 0.2 s (wait on the screen instead):\n" + "\n".join(bad)
