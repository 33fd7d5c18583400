"""The static web build (issue 29): its size, how long it takes to open, and the engine in the browser.

- the folder `companion build-web` writes: its size, and its biggest parts;
- the page served by `python -m http.server`, in Debian's Chromium at 390x844 with every other
  host refused: the first open (a new browser profile: nothing cached) and later opens (the
  service worker's cache), each to the first interactive screen (the home screen's Quick-Start
  tile, drawn by Python in the page);
- the engine's firing solutions (benchmarks/bench_solutions.py: the 4-ship and the 40-ship boards,
  cold and warm) in Pyodide in that page and in CPython in this process, and their ratio.

Run: `python benchmarks/bench_static.py [--quick] [--folder BUILT]` (`--quick`: one open of each
kind and fewer repeats; `--folder`: an existing build instead of building one).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
READY = "[flt-semantics-identifier='quick-start']"

ENGINE_PAGE = """<!DOCTYPE html><html><body><script type="module">
import { loadPyodide } from "./pyodide/pyodide.mjs";
const py = await loadPyodide();
py.unpackArchive(await (await fetch("app.tar.gz")).arrayBuffer(), "gztar");
for (const name of ["bench_solutions.py", "bench_dice.py", "bench_static_engine.py"]) {
  py.FS.writeFile(name, await (await fetch(name)).text());
}
window.benchResult = py.runPython(`
import sys; sys.path.insert(0, "__pypackages__")
import json, bench_static_engine
json.dumps(bench_static_engine.run(%REPEATS%))
`);
</script></body></html>"""

ENGINE_RUN = '''
def run(repeats):
    """Cold and warm (median) seconds of every firing solution, on each board (the 4-ship board closed
    to battle, shots in arc and range); and each dice pool's exact distribution, caches cleared, and a
    cache hit (bench_dice.py's pools), as "cold" and "warm"."""
    from bench_dice import POOLS, ours_cold, per_call
    from bench_solutions import closed_table, forty_ship_board, load_catalogue, measure
    from companion.engine import dice
    catalogue = load_catalogue()
    out = {}
    for name, state, n in (("4 ships", closed_table(catalogue), repeats * 5), ("40 ships", forty_ship_board(catalogue), repeats)):
        cold, warm, count = measure(state, n)
        out[name] = {"cold": cold, "warm": warm, "solutions": count}
    for text in POOLS:
        pool = dice.parse_pool(text)
        dice.counts(pool)
        out[f"dice {text}"] = {"cold": per_call(ours_cold(pool), 5, 20) / 1e6,
                               "warm": per_call(lambda: dice.counts(pool), 5, 2000) / 1e6}
    return out
'''


def folder_size(folder: Path) -> dict[str, int]:
    parts: dict[str, int] = {}
    for f in folder.rglob("*"):
        if f.is_file():
            top = f.relative_to(folder).parts[0]
            parts[top] = parts.get(top, 0) + f.stat().st_size
    return parts


def serve(folder: Path) -> tuple[subprocess.Popen, int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                                "--directory", str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return process, port
        time.sleep(0.05)
    raise RuntimeError("the static server did not start")


def own_host_only(context, port: int) -> None:
    def route(r):
        if r.request.url.startswith(f"http://127.0.0.1:{port}/") or r.request.url.startswith(("data:", "blob:")):
            r.continue_()
        else:
            r.abort("blockedbyclient")
    context.route("**/*", route)


def open_once(page, url: str | None) -> float:
    """Seconds from asking for the page (None: a reload) to the home screen's first interactive control."""
    start = time.perf_counter()
    if url is None:
        page.reload()
    else:
        page.goto(url)
    placeholder = page.locator("flt-semantics-placeholder")
    placeholder.wait_for(state="attached", timeout=300000)
    placeholder.dispatch_event("click")
    page.wait_for_selector(READY, timeout=300000)
    return time.perf_counter() - start


def opens(browser, port: int, count: int) -> tuple[list[float], list[float]]:
    url = f"http://127.0.0.1:{port}/"
    cold, warm = [], []
    for _ in range(count):
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, service_workers="allow")
        own_host_only(context, port)
        page = context.new_page()
        cold.append(open_once(page, url))
        page.evaluate("() => navigator.serviceWorker.ready.then(r => !!r.active)")
        warm.append(open_once(page, None))
        context.close()
    return cold, warm


def engine_in_browser(browser, folder: Path, port: int, repeats: int) -> dict:
    for name in ("bench_solutions.py", "bench_dice.py"):
        (folder / name).write_text((ROOT / "benchmarks" / name).read_text())
    (folder / "bench_static_engine.py").write_text(ENGINE_RUN)
    (folder / "bench-engine.html").write_text(ENGINE_PAGE.replace("%REPEATS%", str(repeats)))
    context = browser.new_context(service_workers="block")
    own_host_only(context, port)
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{port}/bench-engine.html")
    page.wait_for_function("() => window.benchResult !== undefined", timeout=600000, polling=200)
    result = json.loads(page.evaluate("() => window.benchResult"))
    context.close()
    return result


def engine_here(repeats: int) -> dict:
    namespace: dict = {}
    exec(ENGINE_RUN, namespace)
    return namespace["run"](repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one open of each kind, fewer repeats")
    parser.add_argument("--folder", help="an existing build (default: build one in a temporary folder)")
    args = parser.parse_args()
    count, repeats = (1, 2) if args.quick else (3, 6)
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(args.folder) if args.folder else Path(scratch) / "site"
        if not args.folder:
            from companion.web.build import build_web

            start = time.perf_counter()
            build_web(folder, wheels=Path(scratch) / "wheels", say=lambda text: None)
            print(f"build: {time.perf_counter() - start:.1f} s")
        parts = folder_size(folder)
        print(f"folder: {sum(parts.values()) / 1e6:.1f} MB ("
              + ", ".join(f"{k} {v / 1e6:.1f}" for k, v in sorted(parts.items(), key=lambda kv: -kv[1])[:5]) + " MB)")
        process, port = serve(folder)
        try:
            from playwright.sync_api import sync_playwright

            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                cold, warm = opens(browser, port, count)
                print(f"first open (nothing cached): {statistics.median(cold):.1f} s (median of {len(cold)}: "
                      + ", ".join(f"{t:.1f}" for t in cold) + ")")
                print(f"later open (service worker): {statistics.median(warm):.1f} s (median of {len(warm)}: "
                      + ", ".join(f"{t:.1f}" for t in warm) + ")")
                there = engine_in_browser(browser, folder, port, repeats)
                browser.close()
        finally:
            process.terminate()
        here = engine_here(repeats)
        print(f"{'engine (ms)':<40} {'CPython cold':>12} {'warm':>9} {'Pyodide cold':>13} {'warm':>9} {'ratio':>13}")
        for board in here:
            h, t = here[board], there[board]
            print(f"{board:<40} {h['cold'] * 1000:>12.3f} {h['warm'] * 1000:>9.4f} {t['cold'] * 1000:>13.3f} "
                  f"{t['warm'] * 1000:>9.4f} {t['cold'] / h['cold']:>6.1f}x cold {t['warm'] / h['warm']:>5.1f}x warm")
        print(f"load average while measured: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
