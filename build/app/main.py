"""Entry point of the packaged app (`flet build`): the same app as `companion`, in one window.

`flet build` packages this folder; `python build/prepare.py` first copies the
`companion` package (with the shipped fleets and the rule readings) and the
assets next to this file.  Games are saved in the folder the platform gives
the app (`FLET_APP_STORAGE_DATA` on phones and desktops), else the user's data
folder, as `companion` does.
"""

from __future__ import annotations

import os

import flet as ft

from companion.app.main import create_app
from companion.store import open_store
from companion.store.tinydb_store import data_folder


def app_main():
    """The Flet `main` over the saving store of this device's data folder."""
    folder = data_folder(os.environ.get("FLET_APP_STORAGE_DATA") or None)
    return create_app(open_store(folder))


if __name__ == "__main__":
    ft.run(app_main())
