"""A screen's `join.follow` listener goes with its session (issue 25): a device that has gone is no
longer kept by the hub nor told of every change."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import flet as ft

from companion.app.main import App
from companion.app.sharing import Sharing
from companion.app.views.join import follow, stop_following


class FakePage:
    def __init__(self):
        self.session = SimpleNamespace(connection=None)  # away: nothing is run on it


async def changed() -> None:
    pass


def listening(sharing: Sharing) -> int:
    return len(sharing._listeners)


def a_screen():
    sharing = Sharing()
    return sharing, SimpleNamespace(page=FakePage(), sharing=sharing)


def test_the_listeners_of_a_closed_session_are_unregistered():
    sharing, app = a_screen()
    follow(app, ft.Text("devices"), changed)
    follow(app, ft.Text("requests"), changed)
    assert listening(sharing) == 2
    stop_following(app)
    assert listening(sharing) == 0
    stop_following(app)  # twice: nothing left to stop
    assert listening(sharing) == 0


def test_a_table_listener_goes_with_its_session_too():
    from test_sharing import fresh_game

    sharing, app = a_screen()
    table = sharing.table(fresh_game())
    follow(app, ft.Text("seats"), changed, table)
    assert table.listeners == 1
    stop_following(app)
    assert table.listeners == 0


def test_a_session_flet_let_go_stops_listening_at_the_next_change():
    sharing, app = a_screen()
    other = SimpleNamespace(page=FakePage(), sharing=sharing)
    follow(app, ft.Text("devices"), changed)
    follow(other, ft.Text("devices"), changed)
    app.page.session = None  # Flet destroyed the session (its socket closed long ago)
    sharing._devices_changed()
    assert listening(sharing) == 1  # the other screen still listens
    assert getattr(app, "_following") == set()


def test_the_apps_close_stops_its_screens_listeners():
    sharing, screen = a_screen()
    app = App.__new__(App)
    app.page, app.sharing, app.device, app.game, app.table = screen.page, sharing, None, None, None
    app._unlisten = app._stop_offers = None
    follow(app, ft.Text("devices"), changed)
    assert listening(sharing) == 1
    asyncio.run(app._on_close(None))
    assert listening(sharing) == 0
