"""Where the table app is served: its port, this computer's address for phones, its data folder.

Used by `companion app | web | desktop` (commands/app.py); the failures are
ValueErrors in plain words, printed by the command line as one line.
"""

from __future__ import annotations

import socket
from ..store import open_store
from ..store.tinydb_store import data_folder

DEFAULT_PORT = 8550


def open_app_store(folder: str | None):
    """The saving store of the data folder (--data, else $COMPANION_DATA, else the user's data folder)."""
    if folder is not None and not folder.strip():  # issue 11: "" silently meant the default folder
        raise ValueError("--data names no folder (it is empty): give a folder, or leave --data out")
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
    raise ValueError(f"no free port to serve on (tried {wanted})")


def join_address(host: str, port: int) -> str | None:
    """The address other devices open, or None when the server listens on this computer only."""
    if host in ("127.0.0.1", "localhost", "::1") or host.startswith("127."):
        return None
    if host in ("0.0.0.0", "", "*", "::"):
        lan = lan_address()
        return f"http://{lan}:{port}/" if lan else None
    return f"http://{host}:{port}/"
