"""Devices follow the host (issue 28): the host's new game is offered to each joined device, as the
side it held where the new game has it, once; a guest starts none, the host is offered nothing."""

from __future__ import annotations

import pytest

from companion.app.devices import Device
from companion.app.follow_host import Started, offer_for
from companion.app.roles import Role
from companion.app.sharing import Sharing

from random_games import starting_state


class FakeRuleset:
    name = "War Fleet"


class FakeGame:
    def __init__(self, game_id, sides, name="Battle"):
        self.id, self.name, self.ruleset = game_id, name, FakeRuleset()
        self.state = type("S", (), {"sides": list(sides)})()


@pytest.fixture
def table():
    sharing = Sharing()
    host = Device(token="h", name="This computer", address="127.0.0.1", host=True)
    phone = Device(token="p", name="Anna's phone", address="192.168.1.5", host=False, admitted=True)
    stranger = Device(token="s", name="Phone 3", address="192.168.1.6", host=False)
    phone.roles["old"] = Role.holding("British")
    phone.game = "old"
    return sharing, host, phone, stranger


def test_the_hosts_new_game_is_offered_as_the_side_held(table):
    sharing, host, phone, stranger = table
    stranger.admitted = True  # let in, but holding no role yet: it picks its own
    sharing.host_started(host, FakeGame("new", ["British", "French"]))
    offer = sharing.offer(phone)
    assert offer.question == "The host started War Fleet: join as British?" and offer.role == Role.holding("British")
    assert sharing.offer(host) is None  # the host started it
    assert sharing.offer(stranger) is None
    sharing.answered(phone, offer)
    assert sharing.offer(phone) is None  # answered once, not asked again
    sharing.host_started(host, FakeGame("next", ["Russian", "German"], "Next"))
    assert sharing.offer(phone).question == "The host started War Fleet (Next): join it?"  # no British there


def test_a_guest_starts_nothing_to_follow(table):
    sharing, host, phone, _ = table
    sharing.host_started(phone, FakeGame("new", ["British", "French"]))
    assert sharing.offer(phone) is None and sharing.offer(host) is None


def test_a_device_already_showing_the_new_game_is_not_asked():
    started = Started(1, "g", "Quick-Start", "Battle", ("British", "French"))
    assert offer_for(started, 0, "g", Role.holding("British")) is None
    assert offer_for(started, 1, "old", Role.holding("British")) is None
    assert offer_for(started, 0, "old", Role.screen()).side is None  # the shared screen: join it, pick again
    assert offer_for(started, 0, None, None) is None  # a device just let in, holding no role yet
    assert offer_for(started, 0, None, Role.holding("French"), joined=True) is None  # changing its role in it


def test_a_device_holding_a_role_in_the_new_game_is_not_asked_to_join_it(table):
    """On its role picker (showing no game) a device changing its role in the host's game is not
    offered that game: it is in it."""
    sharing, host, phone, _ = table
    sharing.host_started(host, FakeGame("new", ["British", "French"]))
    phone.roles["new"] = Role.holding("British")
    phone.game = None
    assert sharing.offer(phone) is None


# --- issue 35: every new game of the host's is offered, one offer at a time; the TV follows -------


class Page:
    """A page that runs what a session schedules (`run_task`) and keeps its dialogs."""

    def __init__(self):
        import types
        self.session = types.SimpleNamespace(connection=object())
        self.dialogs, self.tasks = [], []

    def run_task(self, handler, *args):
        self.tasks.append(handler(*args))

    def show_dialog(self, dialog):
        dialog.open = True
        self.dialogs.append(dialog)

    def run(self):
        import asyncio
        while self.tasks:
            asyncio.run(self.tasks.pop(0))

    @property
    def open(self):
        return [d for d in self.dialogs if d.open]


def a_device_app(sharing, device, store):
    import types

    async def navigate(session):
        app.went.append(session.route)

    app = types.SimpleNamespace(page=Page(), sharing=sharing, device=device, store=store, went=[], navigate=navigate)
    return app


def questions(page):
    return [d.title.content.value for d in page.open]


@pytest.fixture
def hub():
    from companion.store import MemoryStore

    sharing, store = Sharing(), MemoryStore()
    host = sharing.connect(None, "127.0.0.1")
    first = store.new_game(starting_state(1), "First")
    phone, tv = sharing.connect(None, "10.0.0.5"), sharing.connect(None, "10.0.0.9")
    for device, role in ((phone, Role.holding("British")), (tv, Role.screen())):
        sharing.admit(device, sharing.pin)
        assert sharing.choose(device, first, role) is None
        sharing.showing(device, first.id)
    return sharing, store, host, phone, tv


def test_a_war_fleet_battle_the_host_starts_is_offered(hub):
    import asyncio
    import types

    from companion.app.rulesets.war_fleet.start import new_battle
    from companion.files import load_catalogue

    sharing, store, host, phone, _ = hub

    async def catalogue():
        return load_catalogue()

    app = types.SimpleNamespace(sharing=sharing, device=host, store=store, seed="offer", catalogue=catalogue)
    game, why = asyncio.run(new_battle(app))
    assert why == "" and game is not None
    offer = sharing.offer(phone)
    assert offer.started.game_id == game.id and offer.question == "The host started War Fleet: join as British?"


def test_play_from_here_is_offered_and_a_guest_forks_nothing(hub):
    import asyncio
    import types

    from companion.app.views.replay import play_from_here

    sharing, store, host, phone, _ = hub
    source = store.new_game(starting_state(2), "Source")
    source.act({"kind": "roll_initiative"})
    guest = types.SimpleNamespace(sharing=sharing, device=phone, store=store)
    game, problem = asyncio.run(play_from_here(guest, source.id, 1))
    assert game is None and problem.startswith("Only the host starts games") and sharing.offer(phone) is None
    app = types.SimpleNamespace(sharing=sharing, device=host, store=store)
    game, problem = asyncio.run(play_from_here(app, source.id, 1))
    assert problem is None and sharing.offer(phone).started.game_id == game.id
    assert sharing.offer(phone).question == "The host started Quick-Start: join as British?"


def test_one_offer_on_screen_the_newest_and_one_after_a_reload(hub):
    from companion.app.views.follow import watch

    sharing, store, host, phone, _ = hub
    app = a_device_app(sharing, phone, store)
    stop = watch(app)
    app.page.run()
    assert app.page.dialogs == []  # nothing started yet
    games = []
    for n in range(3):
        games.append(store.new_game(starting_state(1), f"Game {n}"))
        sharing.host_started(host, games[-1])
        app.page.run()
    assert questions(app.page) == ["The host started Quick-Start: join as British?"]  # one, not three
    assert len(app.page.dialogs) == 3 and app.page.open[0] is app.page.dialogs[-1]  # the older two closed
    assert app.page.open[0].content.value.startswith("Game 2:")
    stop()
    reloaded = a_device_app(sharing, phone, store)  # a reload: a new session of the same device
    stop = watch(reloaded)
    reloaded.page.run()
    assert len(reloaded.page.dialogs) == 1 and reloaded.page.open[0].content.value.startswith("Game 2:")
    stop()


def test_the_shared_screen_follows_the_host_by_itself(hub):
    from companion.app.views.follow import watch

    sharing, store, host, _, tv = hub
    app = a_device_app(sharing, tv, store)
    stop = watch(app)
    new = store.new_game(starting_state(1), "Next")
    sharing.host_started(host, new)
    app.page.run()
    assert app.page.dialogs == []  # asked nothing: no one at a TV answers a dialog
    assert app.went == [f"/game/{new.id}"] and sharing.role(tv, new.id) == Role.screen()
    assert sharing.offer(tv) is None  # followed once
    assert offer_for(Started(1, "g", "War Fleet", "B", ("British",)), 0, "old", Role.screen()).screen
    stop()


def test_a_reload_that_reconnects_the_session_shows_the_offer_again_once(hub):
    """Flet keeps a reloaded page's session: the app hears a reconnect, not a new start, and the
    browser no longer shows the dialog; the offer still unanswered is shown again, one dialog."""
    from companion.app.views.follow import watch

    sharing, store, host, phone, _ = hub
    app = a_device_app(sharing, phone, store)
    stop = watch(app)
    sharing.host_started(host, store.new_game(starting_state(1), "Game"))
    app.page.run()
    app.offer_again()
    app.page.run()
    assert questions(app.page) == ["The host started Quick-Start: join as British?"] and len(app.page.dialogs) == 2
    stop()
