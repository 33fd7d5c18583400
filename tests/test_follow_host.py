"""Devices follow the host (issue 28): the host's new game is offered to each joined device, as the
side it held where the new game has it, once; a guest starts none, the host is offered nothing."""

from __future__ import annotations

import pytest

from companion.app.devices import Device
from companion.app.follow_host import Started, offer_for
from companion.app.roles import Role
from companion.app.sharing import Sharing


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
