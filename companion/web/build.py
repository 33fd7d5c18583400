"""`companion build-web OUT`: the whole app as a static, offline, installable web folder (issue 29).

The folder holds everything the page loads, all from its own host:

- Flet's web client (`flet_web`'s `web/`) patched for Pyodide and no CDN
  (`flet_web.patch_index.patch_index_html`, as `flet publish --no-cdn` does), with
  CanvasKit, Flutter's fonts and Roboto (`patch_font_manifest_json`) so text paints offline;
- the Pyodide runtime `flet_web` carries (`pyodide/`);
- `app.tar.gz`: `main.py` (companion/web/main.py), the `companion` package with the shipped
  fleets and the rule readings, and `__pypackages__/` with every dependency, unpacked from
  wheels pip fetches from the package index at build time (Pyodide's own platform tag for
  the two with compiled code, pydantic_core and msgpack);
- the app's `assets/` (its fonts, icons, manifest) at the top, where Flet serves them;
- `sw.js`, a service worker that keeps every file above, so after the first open the app
  opens with no network; with the manifest, the browser offers to install it.

Only the files the page can load are kept (the Wasm renderer, CanvasKit's other variants, debug
symbols and Pyodide's command-line files are left out).  Runs on the building computer only.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from importlib import metadata
from pathlib import Path

from flet.controls.types import RouteUrlStrategy, WebRenderer

from ..app.offline import with_no_rive
from ..app.server import APP_NAME

try:  # flet-web: the browser client the build copies (`_flet_web_dir` says plainly when it is missing)
    from flet_web import get_package_web_dir
    from flet_web.patch_index import patch_font_manifest_json, patch_index_html
except ImportError:
    get_package_web_dir = None

PACKAGE_DIR = Path(__file__).resolve().parent.parent  # companion/
#: The dependencies the page needs, at the versions installed here (flet's httpx and oauthlib
#: are not for Emscripten; the app needs neither).
DEPENDENCIES = ("flet", "flet-charts", "msgpack", "repath", "six", "pydantic", "pydantic_core",
                "annotated-types", "typing-extensions", "typing-inspection", "tinydb", "segno")
#: What the page never loads: the Wasm (skwasm) build of the client, CanvasKit's variants other than
#: the two the canvaskit renderer picks from, debug symbols, Pyodide's command-line runner.
UNUSED = re.compile(r"^(main\.dart\.wasm|main\.dart\.mjs|flutter\.js\.map|flutter_service_worker\.js"
                    r"|canvaskit/(skwasm|skwasm_heavy|wimp)\.(js|wasm)|canvaskit/experimental_webparagraph/.*"
                    r"|.*\.symbols|pyodide/(python|python\.bat|python\.exe|python_cli_entry\.mjs|.*\.d\.ts"
                    r"|micropip-.*\.whl|packaging-.*\.whl))$")
#: The assets folder's own note (fonts, icons and the manifest go to the top of the build).
ASSETS_LEFT_OUT = re.compile(r"^(.*/)?README\.md$")
#: What the page never imports, left out of the archive (issue 37: a smaller archive opens sooner):
#: pydantic's v1 copy, Flet's test helpers and its FastAPI server, and the command line.
ARCHIVE_LEFT_OUT = ("__pypackages__/pydantic/v1", "__pypackages__/flet/testing", "__pypackages__/flet/fastapi",
                    "__pypackages__/flet/pytest_plugin.py", "__pypackages__/flet/cli.py", "companion/commands")
SERVICE_WORKER = "sw.js"
ARCHIVE = "app.tar.gz"
SEED_FILE = "seed.txt"  # beside main.py in the archive: the dice seed of a test build


class BuildError(ValueError):
    """Why the folder could not be built, in plain words."""


def build_web(out: Path, wheels: Path | None = None, base_url: str = "/", seed: str | None = None,
              say=print) -> dict:
    """Write the static web build into `out` (emptied first); a summary: files, bytes, wheels.
    `seed` fixes the dice of every new game in the built page (as COMPANION_SEED does; for tests)."""
    out = Path(out)
    web = _flet_web_dir()
    if out.exists():
        if not out.is_dir() or (any(out.iterdir()) and not (out / SERVICE_WORKER).exists()):
            raise BuildError(f"{out} exists and is not an earlier web build: give a new or empty folder")
        shutil.rmtree(out)
    say(f"copying Flet's web client and the Pyodide runtime from {web}")
    _copy_files(web, out, UNUSED)
    pyodide = _pyodide_info(out / "pyodide")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(wheels) if wheels else Path(scratch) / "wheels"
        say(f"fetching the wheels for Pyodide {pyodide['version']} (Python {pyodide['python']}) into {folder}")
        names = fetch_wheels(folder, pyodide)
        say(f"packing the app and {len(names)} wheels into {ARCHIVE}")
        _write_archive(out / ARCHIVE, folder, names, seed, say)
    _copy_files(_shipped("assets"), out, ASSETS_LEFT_OUT)  # the app's fonts, icons and manifest, where Flet looks
    _patch_page(out, pyodide["version"], base_url)
    files = write_service_worker(out)
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    say(f"wrote {out}: {len(files) + 1} files, {size / 1e6:.1f} MB")
    return {"folder": str(out), "files": len(files) + 1, "bytes": size, "wheels": names}


def _flet_web_dir() -> Path:
    if get_package_web_dir is None:
        raise BuildError("the web build needs flet-web (pip install 'flet[web]')") from None
    return Path(get_package_web_dir())


def _copy_files(source: Path, out: Path, left_out: re.Pattern[str]) -> None:
    """Every file under `source` to the same place under `out`, but those whose path `left_out` matches."""
    for path in sorted(source.rglob("*")):
        relative = path.relative_to(source).as_posix()
        if path.is_file() and not left_out.match(relative):
            (out / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, out / relative)


def _pyodide_info(folder: Path) -> dict:
    """The runtime's version and what its wheels must be built for (pyodide-lock.json's `info`)."""
    try:
        version = json.loads((folder / "package.json").read_text())["version"]
        info = json.loads((folder / "pyodide-lock.json").read_text())["info"]
    except (OSError, ValueError, KeyError) as exc:
        raise BuildError(f"flet_web carries no usable Pyodide runtime ({exc})") from None
    python = ".".join(info["python"].split(".")[:2])
    return {"version": version, "python": python,
            "platform": f"pyemscripten_{info['abi_version']}_{info['arch']}",
            "abi": "cp" + python.replace(".", "")}


def fetch_wheels(folder: Path, pyodide: dict) -> list[str]:
    """pip downloads each dependency, at the version installed here, for Pyodide's platform; the files."""
    folder.mkdir(parents=True, exist_ok=True)
    wanted = [f"{name}=={metadata.version(name)}" for name in DEPENDENCIES]
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
               "--platform", pyodide["platform"], "--platform", "any", "--python-version", pyodide["python"],
               "--implementation", "cp", "--abi", pyodide["abi"], "--abi", "abi3", "--abi", "none",
               "--dest", str(folder), *wanted]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        problem = [line for line in done.stderr.splitlines() if line.startswith("ERROR")] or done.stderr.splitlines()[-1:]
        raise BuildError("the wheels could not be fetched from the package index: " + " ".join(problem))
    names = sorted(p.name for p in folder.glob("*.whl"))
    missing = [w for w in wanted if not any(_wheel_is(n, w) for n in names)]
    if missing:
        raise BuildError(f"no wheel for {', '.join(missing)} in {folder}")
    return [n for n in names if any(_wheel_is(n, w) for w in wanted)]


def _wheel_is(file_name: str, requirement: str) -> bool:
    name, version = requirement.split("==")
    norm = re.sub(r"[-_.]+", "_", name).lower()
    return file_name.lower().startswith(f"{norm}-{version}-")


def _write_archive(path: Path, wheels: Path, names: list[str], seed: str | None = None, say=print) -> None:
    """app.tar.gz: main.py, the package (with fleets and rule readings) and __pypackages__/ from the
    wheels, each module compiled for the page's Python where node is here (`compile_for_pyodide`);
    `seed.txt` with the dice seed if one is given."""
    with tempfile.TemporaryDirectory() as scratch:
        stage = Path(scratch) / "app"
        stage.mkdir()
        _stage_app(stage, wheels, names, seed)
        compiled = compile_for_pyodide(stage, path.parent / "pyodide")
        say(f"compiled {compiled} modules for the page's Python" if compiled else
            "node is not here: the modules are compiled in the page at each start (slower to open)")
        with tarfile.open(path, "w:gz", format=tarfile.GNU_FORMAT) as tar:
            for item in sorted(stage.iterdir()):
                tar.add(item, arcname=item.name)


def _stage_app(stage: Path, wheels: Path, names: list[str], seed: str | None) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".mypy_cache")
    shutil.copy2(PACKAGE_DIR / "web" / "main.py", stage / "main.py")
    if seed:
        (stage / SEED_FILE).write_text(seed, encoding="utf-8")
    shutil.copytree(PACKAGE_DIR, stage / "companion", ignore=ignore)
    for name in ("fleets", "docs/rule-readings.md"):
        target = stage / "companion" / name
        if not target.exists():  # a source checkout: beside the package, not in it
            where = _shipped(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            (shutil.copytree(where, target, ignore=ignore) if where.is_dir() else shutil.copy2(where, target))
    for name in names:
        with zipfile.ZipFile(wheels / name) as wheel:
            wheel.extractall(stage / "__pypackages__")
    for left_out in ARCHIVE_LEFT_OUT:
        path = stage / left_out
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()


#: Run by node: Pyodide compiles every module of the staged app to its own bytecode (no source
#: checks: the archive's files never change once built), so the page imports without compiling.
COMPILE_SCRIPT = """
const [runtime, folder] = process.argv.slice(2);
const { loadPyodide } = await import(runtime);
const py = await loadPyodide();
py.FS.mkdir("/stage");
py.FS.mount(py.FS.filesystems.NODEFS, { root: folder }, "/stage");
console.log(py.runPython(`
import compileall, py_compile, pathlib
compileall.compile_dir("/stage", quiet=1, workers=1, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
str(len(list(pathlib.Path("/stage").rglob("*.pyc"))))
`));
"""


def compile_for_pyodide(stage: Path, runtime: Path) -> int:
    """Compile the staged modules with the page's own Python (Pyodide under node); how many, or 0
    when node is not on this computer or the compiling failed (the page then compiles them itself)."""
    node = shutil.which("node")
    if node is None:
        return 0
    script = stage.parent / "compile_for_pyodide.mjs"
    script.write_text(COMPILE_SCRIPT, encoding="utf-8")
    try:
        done = subprocess.run([node, str(script), (runtime / "pyodide.mjs").resolve().as_uri(), str(stage)],
                              capture_output=True, text=True, timeout=900)
    except (OSError, subprocess.TimeoutExpired):
        return 0
    finally:
        script.unlink()
    lines = done.stdout.strip().splitlines()
    return int(lines[-1]) if done.returncode == 0 and lines and lines[-1].isdigit() else 0


def _shipped(name: str) -> Path:
    for candidate in (PACKAGE_DIR / name, PACKAGE_DIR.parent / name):
        if candidate.exists():
            return candidate
    raise BuildError(f"{name} is missing from the package and the checkout")


#: Shown while the page opens (issue 37: never a bare splash): a bar and what is being done, told by
#: the Python worker over a BroadcastChannel (Flet's own start-up lines, patched in by `_patch_worker`,
#: and companion/web/main.py's marks); gone once the app's first screen is sent.
PROGRESS = """<div id="leviathans-progress" role="progressbar" aria-label="Opening the app"
 style="position:fixed;left:0;right:0;bottom:0;z-index:10000;pointer-events:none;padding:12px 18px 18px;
 font:15px/1.35 system-ui,sans-serif;color:#1c2a3a;background:rgba(255,255,255,.94)">
<div id="leviathans-progress-words">Loading the app's files</div>
<div style="height:8px;margin-top:8px;border-radius:4px;background:#d5dde6;overflow:hidden">
<div id="leviathans-progress-bar" style="height:100%;width:5%;background:#2f5d8a;transition:width .3s"></div></div></div>
<script>(() => {
  const stages = [["Starting up Python worker", 20, "Starting Python in this browser (the first open takes longest)"],
    ["python_module_name", 45, "Unpacking the app"], ["Adding __pypackages__", 60, "Importing the app"],
    ["leviathans: the app imported", 80, "Reading the games kept in this browser"],
    ["leviathans: the games read", 90, "Drawing the first screen"], ["leviathans: the first screen sent", 100, ""]];
  let reached = 5;
  const show = (line) => {
    const box = document.getElementById("leviathans-progress");
    if (!box) { return; }
    for (const [start, percent, words] of stages) {
      if (String(line).startsWith(start) && percent > reached) {
        reached = percent;
        if (percent >= 100) { box.remove(); return; }
        document.getElementById("leviathans-progress-words").textContent = words;
        document.getElementById("leviathans-progress-bar").style.width = percent + "%";
        box.setAttribute("aria-valuenow", String(percent));
      }
    }
  };
  new BroadcastChannel("leviathans-progress").onmessage = (event) => show(event.data);
  const said = console.log.bind(console);
  console.log = (...args) => { show(args.join(" ")); said(...args); };
})();</script>
</body>"""
WORKER_OUTPUT = "self.sendPythonOutput = function (text, isStderr) {"


def _patch_worker(out: Path) -> None:
    """Flet's Python worker tells the page each start-up line too (`PROGRESS` listens)."""
    worker = out / "python-worker.js"
    text = worker.read_text(encoding="utf-8")
    if WORKER_OUTPUT not in text:
        raise BuildError("python-worker.js has changed: its output hook was not found")
    worker.write_text(text.replace(WORKER_OUTPUT, "const progress = new BroadcastChannel('leviathans-progress');\n"
                                   + WORKER_OUTPUT + "\n    progress.postMessage(String(text));", 1), encoding="utf-8")


def _patch_page(out: Path, pyodide_version: str, base_url: str) -> None:
    index = out / "index.html"
    patch_index_html(str(index), base_href=base_url, app_name=APP_NAME,
                     app_description="Leviathans table companion: ship cards, arcs, odds and dice, offline.",
                     pyodide=True, pyodide_script_path="main.py", pyodide_version=pyodide_version,
                     app_package_url=ARCHIVE, web_renderer=WebRenderer.CANVAS_KIT,
                     route_url_strategy=RouteUrlStrategy.HASH, no_cdn=True)
    patch_font_manifest_json(str(out / "assets" / "FontManifest.json"))
    page = index.read_text(encoding="utf-8")
    # the worker imports the runtime as a module: a bare "pyodide/..." is no URL to import()
    page = page.replace('flet.pyodideUrl="pyodide/', 'flet.pyodideUrl="./pyodide/', 1)
    register = ("<script>if ('serviceWorker' in navigator) { navigator.serviceWorker.register('"
                + SERVICE_WORKER + "'); }</script>\n</head>")
    page = page.replace("</head>", register, 1).replace("</body>", PROGRESS, 1)
    index.write_text(with_no_rive(page), encoding="utf-8")
    _patch_worker(out)
    # Flutter's own (deprecated) worker unregisters whatever worker the page has: not asked for here.
    bootstrap = out / "flutter_bootstrap.js"
    text, count = re.subn(r"serviceWorkerSettings:\s*\{[^}]*\},", "", bootstrap.read_text(encoding="utf-8"))
    if count != 1:
        raise BuildError("flutter_bootstrap.js has changed: its service worker settings were not found")
    bootstrap.write_text(text, encoding="utf-8")


def write_service_worker(out: Path) -> list[str]:
    """`sw.js`: keeps every file of the folder (named in it, with a version from their contents)."""
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file() and p.name != SERVICE_WORKER)
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode() + b"\0" + (out / name).read_bytes())
    template = (Path(__file__).resolve().parent / "service_worker.js").read_text(encoding="utf-8")
    script = (template.replace("__VERSION__", digest.hexdigest()[:16])
              .replace("__FILES__", json.dumps(["./"] + files, indent=1)))
    (out / SERVICE_WORKER).write_text(script, encoding="utf-8")
    return files
