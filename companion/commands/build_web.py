"""`companion build-web OUT`: the whole app as a static, offline, installable web folder (issue 29).

Any static host serves the folder (`python -m http.server -d OUT`); the page runs the app in the
browser (Pyodide), keeps its games there and, after the first open, needs no network.  The
building itself is companion/web/build.py; it fetches the wheels with pip from the package index.
"""

from __future__ import annotations

from pathlib import Path

from .common import Arguments, CommandError, SubParsers, command, sub_command


@command
def build_web(sub: SubParsers) -> None:
    p = sub_command(sub, "build-web", _run,
                    help="write the app as a static web folder that runs offline in a phone's browser")
    p.add_argument("out", metavar="OUT", help="the folder to write (new, empty, or an earlier web build)")
    p.add_argument("--wheels", metavar="DIR", help="keep the fetched wheels here (default: a temporary folder)")
    p.add_argument("--base-url", default="/", help="the path the folder is served under (default /)")
    p.add_argument("--seed", help="fix the dice of every new game in the built page (for tests, as $COMPANION_SEED)")


def _run(args: Arguments) -> int:
    from ..web.build import BuildError, build_web as build  # flet_web is only loaded when a build runs

    try:
        summary = build(Path(args.out), Path(args.wheels) if args.wheels else None, args.base_url, args.seed)
    except BuildError as exc:
        raise CommandError(str(exc)) from None
    print(f"Serve it from any static host, e.g.: python -m http.server -d {summary['folder']} 8000")
    return 0
