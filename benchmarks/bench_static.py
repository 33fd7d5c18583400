"""The static web build (issue 29): its size, how long it takes to open, and the engine in the browser.

- the folder `companion build-web` writes: its size, and its biggest parts;
- the page served by `python -m http.server`, in Debian's Chromium at 390x844 with every other
  host refused: the first open (a new browser profile: nothing cached) and later opens (the
  service worker's cache), each to the first interactive screen (the home screen's Quick-Start
  tile, drawn by Python in the page), with where the time went (the runtime up, the archive
  unpacked, the app imported, the games read, the first screen sent: the worker's console);
  then the same opens in Firefox ESR and WebKitGTK where they are installed (tests/browser/engines.py),
  and WebKit's ratio to Chromium (issue 37);
- the engine's firing solutions (benchmarks/bench_solutions.py: the 4-ship and the 40-ship boards,
  cold and warm) in Pyodide in that page and in CPython in this process, alternating A B A B,
  and their ratio.

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


#: Lines the page's Python worker writes to the console on its way to Home (Flet's python-worker.js and
#: companion/web/main.py's marks), and what each means has been done.
STAGES = (("python_module_name", "runtime up"), ("Adding __pypackages__", "archive unpacked"),
          ("leviathans: the app imported", "app imported"), ("leviathans: the games read", "games read"),
          ("leviathans: the first screen sent", "first screen sent"))


def open_once(page, url: str | None, split: dict[str, float] | None = None) -> float:
    """Seconds from asking for the page (None: a reload) to the home screen's first interactive control;
    `split` gets the seconds at which each of `STAGES` was reached (from the worker's console)."""
    start = time.perf_counter()

    def heard(message) -> None:
        for words, stage in STAGES:
            if split is not None and message.text.startswith(words) and stage not in split:
                split[stage] = time.perf_counter() - start

    def worker(w) -> None:
        w.on("console", heard)

    page.on("worker", worker)
    if url is None:
        page.reload()
    else:
        page.goto(url)
    placeholder = page.locator("flt-semantics-placeholder")
    placeholder.wait_for(state="attached", timeout=300000)
    placeholder.dispatch_event("click")
    page.wait_for_selector(READY, timeout=300000)
    took = time.perf_counter() - start
    page.remove_listener("worker", worker)
    if split is not None:
        split["home drawn"] = took
    return took


def opens(browser, port: int, count: int) -> tuple[list[float], list[float], list[dict], list[dict]]:
    url = f"http://127.0.0.1:{port}/"
    cold, warm, cold_split, warm_split = [], [], [], []
    for _ in range(count):
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, service_workers="allow")
        own_host_only(context, port)
        page = context.new_page()
        cold_split.append({})
        cold.append(open_once(page, url, cold_split[-1]))
        page.evaluate("() => navigator.serviceWorker.ready.then(r => !!r.active)")
        warm_split.append({})
        warm.append(open_once(page, None, warm_split[-1]))
        context.close()
    return cold, warm, cold_split, warm_split


def split_line(splits: list[dict]) -> str:
    """The median second at which each stage was reached."""
    stages = [stage for _, stage in STAGES] + ["home drawn"]
    return ", ".join(f"{stage} {statistics.median(s[stage] for s in splits if stage in s):.1f}"
                     for stage in stages if any(stage in s for s in splits))


def other_engine_opens(name: str, port: int, count: int) -> tuple[list[float], list[float]] | None:
    """Firefox or WebKit (tests/browser/engines.py): a new profile's open, then a reload (the service
    worker's), each to the Quick-Start tile; None when the engine is not installed."""
    from tests.browser import engines

    if engines.missing():
        print(f"{name}: not measured ({engines.missing()} missing)")
        return None
    url = f"http://127.0.0.1:{port}/"
    cold, warm = [], []
    for _ in range(count):
        engine = engines.ENGINES[name](*({"webkit": (450, 844)}.get(name, (390, 844))))
        try:
            for times in (cold, warm):
                start = time.perf_counter()
                engine.goto(url)
                while not engine.js("(() => { const p = document.querySelector('flt-semantics-placeholder');"
                                    " if (p) { p.click(); }"
                                    f" return !!document.querySelector(\"{READY}\"); }})()"):
                    if time.perf_counter() - start > 300:
                        raise RuntimeError(f"{name}: Home never drawn")
                    time.sleep(0.05)
                times.append(time.perf_counter() - start)
        finally:
            engine.close()
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


def median_runs(runs: list[dict]) -> dict:
    """Each board's cold and warm seconds, the median over the runs."""
    return {board: {kind: statistics.median(run[board][kind] for run in runs) for kind in ("cold", "warm")}
            for board in runs[0]}


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
        medians: dict[str, tuple[float, float]] = {}
        try:
            from playwright.sync_api import sync_playwright

            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                cold, warm, cold_split, warm_split = opens(browser, port, count)
                medians["Chromium"] = statistics.median(cold), statistics.median(warm)
                print(f"Chromium first open (nothing cached): {statistics.median(cold):.1f} s (median of {len(cold)}: "
                      + ", ".join(f"{t:.1f}" for t in cold) + ")")
                print(f"  where the time went (s from the start): {split_line(cold_split)}")
                print(f"Chromium later open (service worker): {statistics.median(warm):.1f} s (median of {len(warm)}: "
                      + ", ".join(f"{t:.1f}" for t in warm) + ")")
                print(f"  where the time went (s from the start): {split_line(warm_split)}")
                for name, label in (("firefox", "Firefox ESR"), ("webkit", "WebKitGTK")):
                    other = other_engine_opens(name, port, count)
                    if other:
                        medians[label] = statistics.median(other[0]), statistics.median(other[1])
                        print(f"{label} first open: {medians[label][0]:.1f} s, later open (service worker): "
                              f"{medians[label][1]:.1f} s (medians of {count}: "
                              + ", ".join(f"{c:.1f}/{w:.1f}" for c, w in zip(*other)) + ")")
                if "WebKitGTK" in medians:
                    print(f"WebKitGTK against Chromium: {medians['WebKitGTK'][0] / medians['Chromium'][0]:.2f}x first open, "
                          f"{medians['WebKitGTK'][1] / medians['Chromium'][1]:.2f}x later open")
                # the engine in the page (Pyodide) and here (CPython), alternating A B A B
                there_runs, here_runs = [], []
                for _ in range(2 if args.quick else 3):
                    there_runs.append(engine_in_browser(browser, folder, port, repeats))
                    here_runs.append(engine_here(repeats))
                browser.close()
        finally:
            process.terminate()
        here, there = median_runs(here_runs), median_runs(there_runs)
        print(f"engine, Pyodide and CPython alternating, median of {len(here_runs)} runs each:")
        print(f"{'engine (ms)':<40} {'CPython cold':>12} {'warm':>9} {'Pyodide cold':>13} {'warm':>9} {'ratio':>13}")
        for board in here:
            h, t = here[board], there[board]
            print(f"{board:<40} {h['cold'] * 1000:>12.3f} {h['warm'] * 1000:>9.4f} {t['cold'] * 1000:>13.3f} "
                  f"{t['warm'] * 1000:>9.4f} {t['cold'] / h['cold']:>6.1f}x cold {t['warm'] / h['warm']:>5.1f}x warm")
        print(f"load average while measured: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
