"""`companion`, `companion app`, `companion web` and `companion desktop`: start the table app.

Registered with the main CLI by `companion.cli._load_plugins`.  The app is
served by Flet's web mode with no CDN, so it runs with no internet; phones on
the same network open the printed address.
"""

from __future__ import annotations

import os
import socket
import sys

from ..cli import CommandError, command

DEFAULT_PORT = 8550


def open_app_store(folder: str | None):
    """The saving store of the data folder (--data, else $COMPANION_DATA, else the user's data folder)."""
    from ..store import open_store
    from ..store.tinydb_store import data_folder

    if folder is not None and not folder.strip():  # issue 11: "" silently meant the default folder
        raise CommandError("--data names no folder (it is empty): give a folder, or leave --data out")
    path = data_folder(folder)
    return open_store(path), f"games are saved in {path}"


def lan_address() -> str | None:
    """This computer's address on the local network, for phones (no traffic is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            address = s.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") else address


def free_port(host: str, wanted: int) -> int:
    for port in (wanted, 0):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will: a just-closed port is free
            try:
                s.bind((host if host not in ("", "0.0.0.0") else "0.0.0.0", port))
            except OSError:
                continue
            return s.getsockname()[1]
    raise CommandError(f"no free port to serve on (tried {wanted})")


def _common(p) -> None:
    p.add_argument("--port", type=int, default=None, help=f"port to serve on (default {DEFAULT_PORT}, or a free one)")
    p.add_argument("--data", metavar="FOLDER", help="folder for saved games (default: $COMPANION_DATA or ~/.local/share/leviathans-companion)")


@command
def app(sub) -> None:
    p = sub.add_parser("app", help="start the table app: serve it, open the browser, print the address for phones")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this computer only; 0.0.0.0 lets phones and "
                        "tablets on the network join, with the PIN the app shows)")
    _common(p)
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.set_defaults(run=run_app, command_name="app")


@command
def web(sub) -> None:
    p = sub.add_parser("web", help="serve the table app for browsers without opening one")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1; 0.0.0.0 for phones on the network, with the join PIN)")
    _common(p)
    p.set_defaults(run=run_web, command_name="web")


@command
def desktop(sub) -> None:
    p = sub.add_parser("desktop", help="open the app in Flet's native window (the client downloads at first use)")
    p.add_argument("--data", metavar="FOLDER", help="folder for saved games")
    p.set_defaults(run=run_desktop)


def join_address(host: str, port: int) -> str | None:
    """The address other devices open, or None when the server listens on this computer only."""
    if host in ("127.0.0.1", "localhost", "::1") or host.startswith("127."):
        return None
    if host in ("0.0.0.0", "", "*", "::"):
        lan = lan_address()
        return f"http://{lan}:{port}/" if lan else None
    return f"http://{host}:{port}/"


def _serve(args, open_browser: bool) -> int:
    from .main import serve
    from .sharing import Sharing

    if os.environ.get("COMPANION_LOG"):  # e.g. info: every change, with the device that made it
        import logging
        logging.basicConfig(level=os.environ["COMPANION_LOG"].upper(), format="%(created).3f %(name)s: %(message)s")
    store, where = open_app_store(args.data)
    port = free_port(args.host, args.port if args.port is not None else DEFAULT_PORT)
    local = f"http://127.0.0.1:{port}/"
    sharing = Sharing(address=join_address(args.host, port))
    print(f"Leviathans companion: {local}", flush=True)
    if sharing.address:
        print(f"Phones and tablets on this network: open {sharing.address} and type the PIN {sharing.pin}", flush=True)
        print("(the address, its QR code and the PIN are on this computer's home screen too)", flush=True)
    elif args.host in ("0.0.0.0", "", "*", "::"):
        print(f"Other devices: open this computer's network address, port {port}, and type the PIN {sharing.pin}", flush=True)
    else:
        print("Only this computer can open it. To play on phones and tablets too: "
              f"companion {args.command_name} --host 0.0.0.0", flush=True)
    print(f"({where}; Ctrl+C to stop)", flush=True)
    serve(store, args.host, port, open_browser, sharing=sharing)
    return 0


def run_app(args) -> int:
    return _serve(args, open_browser=not args.no_browser)


def run_web(args) -> int:
    return _serve(args, open_browser=False)


def run_desktop(args) -> int:
    try:
        import flet_desktop  # noqa: F401
    except ImportError:
        raise CommandError(
            "the desktop window needs the flet-desktop client, which is not installed and downloads "
            "from the internet at first use (pip install flet-desktop). Use `companion` or "
            "`companion web` to play in a browser instead."
        ) from None
    import flet as ft

    from .main import create_app

    store, where = open_app_store(args.data)
    print(f"Leviathans companion: opening the desktop window ({where})", flush=True)
    try:
        ft.run(create_app(store, seed=os.environ.get("COMPANION_SEED") or None), view=ft.AppView.FLET_APP)
    except Exception as exc:  # the client could not be fetched or started
        print(f"error: the desktop window could not open ({exc}). Use `companion web` instead.", file=sys.stderr)
        return 1
    return 0
