"""`companion`, `companion app`, `companion web` and `companion desktop`: start the table app.

The app is served by Flet's web mode with no CDN, so it runs with no
internet; phones on the same network open the printed address.  Flet is
imported only when a command starts the app.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys

from ..app.network import DEFAULT_PORT, free_port, join_address, open_app_store
from .common import Arguments, CommandError, SubParsers, command, sub_command


def _server(sub: SubParsers, name: str, help: str, host_help: str) -> argparse.ArgumentParser:
    """`app` or `web`: --host, --port and --data, served by `_serve`."""
    p = sub.add_parser(name, help=help)
    p.add_argument("--host", default="127.0.0.1", help=host_help)
    p.add_argument("--port", type=int, default=None, help=f"port to serve on (default {DEFAULT_PORT}, or a free one)")
    p.add_argument("--data", metavar="FOLDER", help="folder for saved games (default: $COMPANION_DATA or ~/.local/share/leviathans-companion)")
    p.set_defaults(run=_serve, command_name=name)
    return p


@command
def app(sub: SubParsers) -> None:
    p = _server(sub, "app", "start the table app: serve it, open the browser, print the address for phones",
                "address to listen on (default 127.0.0.1: this computer only; 0.0.0.0 lets phones and "
                "tablets on the network join, with the PIN the app shows)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")


@command
def web(sub: SubParsers) -> None:
    p = _server(sub, "web", "serve the table app for browsers without opening one",
                "address to listen on (default 127.0.0.1; 0.0.0.0 for phones on the network, with the join PIN)")
    p.set_defaults(no_browser=True)


@command
def desktop(sub: SubParsers) -> None:
    p = sub_command(sub, "desktop", run_desktop,
                    help="open the app in Flet's native window (the client downloads at first use)")
    p.add_argument("--data", metavar="FOLDER", help="folder for saved games")


def _serve(args: Arguments) -> int:
    from ..app.main import serve  # flet is only loaded when the app starts (the command line starts without it)
    from ..app.sharing import Sharing  # the store's tinydb too: only when the app starts

    if os.environ.get("COMPANION_LOG"):  # e.g. info: every change, with the device that made it
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
    serve(store, args.host, port, not args.no_browser, sharing=sharing)
    return 0


def run_desktop(args: Arguments) -> int:
    try:
        importlib.import_module("flet_desktop")  # optional, and without type information
    except ImportError:
        raise CommandError(
            "the desktop window needs the flet-desktop client, which is not installed and downloads "
            "from the internet at first use (pip install flet-desktop). Use `companion` or "
            "`companion web` to play in a browser instead."
        ) from None
    import flet as ft  # flet is only loaded when the app starts (the command line starts without it)

    from ..app.main import create_app  # flet is only loaded when the app starts

    store, where = open_app_store(args.data)
    print(f"Leviathans companion: opening the desktop window ({where})", flush=True)
    try:
        ft.run(create_app(store, seed=os.environ.get("COMPANION_SEED") or None), view=ft.AppView.FLET_APP)
    except Exception as exc:  # the client could not be fetched or started
        print(f"error: the desktop window could not open ({exc}). Use `companion web` instead.", file=sys.stderr)
        return 1
    return 0
