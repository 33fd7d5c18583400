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
import io
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
    _copy_client(web, out)
    pyodide = _pyodide_info(out / "pyodide")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(wheels) if wheels else Path(scratch) / "wheels"
        say(f"fetching the wheels for Pyodide {pyodide['version']} (Python {pyodide['python']}) into {folder}")
        names = fetch_wheels(folder, pyodide)
        say(f"packing the app and {len(names)} wheels into {ARCHIVE}")
        _write_archive(out / ARCHIVE, folder, names, seed)
    _copy_assets(out)
    _patch_page(out, pyodide["version"], base_url)
    files = write_service_worker(out)
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    say(f"wrote {out}: {len(files) + 1} files, {size / 1e6:.1f} MB")
    return {"folder": str(out), "files": len(files) + 1, "bytes": size, "wheels": names}


def _flet_web_dir() -> Path:
    try:
        from flet_web import get_package_web_dir
    except ImportError:
        raise BuildError("the web build needs flet-web (pip install 'flet[web]')") from None
    return Path(get_package_web_dir())


def _copy_client(web: Path, out: Path) -> None:
    for source in sorted(web.rglob("*")):
        relative = source.relative_to(web).as_posix()
        if source.is_file() and not UNUSED.match(relative):
            target = out / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


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


def _write_archive(path: Path, wheels: Path, names: list[str], seed: str | None = None) -> None:
    """app.tar.gz: main.py, the package (with fleets and rule readings) and __pypackages__/ from the
    wheels; `seed.txt` with the dice seed if one is given."""
    skip = ("__pycache__", ".pyc", ".mypy_cache")
    with tarfile.open(path, "w:gz", format=tarfile.GNU_FORMAT) as tar:
        _add_bytes(tar, "main.py", (PACKAGE_DIR / "web" / "main.py").read_bytes())
        if seed:
            _add_bytes(tar, SEED_FILE, seed.encode("utf-8"))
        for source in sorted(PACKAGE_DIR.rglob("*")):
            if source.is_file() and not any(s in source.as_posix() for s in skip):
                tar.add(source, arcname="companion/" + source.relative_to(PACKAGE_DIR).as_posix())
        for name, where in (("fleets", _shipped("fleets")), ("docs/rule-readings.md", _shipped("docs/rule-readings.md"))):
            if not (PACKAGE_DIR / name).exists():  # a source checkout: beside the package, not in it
                tar.add(where, arcname=f"companion/{name}", filter=lambda t: None if "__pycache__" in t.name else t)
        for name in names:
            with zipfile.ZipFile(wheels / name) as wheel:
                for member in wheel.infolist():
                    if not member.is_dir():
                        _add_bytes(tar, "__pypackages__/" + member.filename, wheel.read(member))


def _add_bytes(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = 0o644
    tar.addfile(info, io.BytesIO(data))


def _shipped(name: str) -> Path:
    for candidate in (PACKAGE_DIR / name, PACKAGE_DIR.parent / name):
        if candidate.exists():
            return candidate
    raise BuildError(f"{name} is missing from the package and the checkout")


def _copy_assets(out: Path) -> None:
    """The app's fonts, icons and manifest at the top of the folder, where Flet looks for them."""
    assets = _shipped("assets")
    for source in assets.rglob("*"):
        if source.is_file() and source.name != "README.md":
            target = out / source.relative_to(assets)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def _patch_page(out: Path, pyodide_version: str, base_url: str) -> None:
    from flet.controls.types import RouteUrlStrategy, WebRenderer
    from flet_web.patch_index import patch_font_manifest_json, patch_index_html

    from ..app.server import APP_NAME

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
    index.write_text(page.replace("</head>", register, 1), encoding="utf-8")
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
