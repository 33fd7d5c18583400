"""Names cleaned one way (issue 25 part 8): devices cannot pass for 'This computer' or carry the
rest of a terminal escape; ship, side and game names lose control and bidi characters and have a
length limit, on every path that loads or types them."""

from __future__ import annotations

import json

import pytest

from companion.app.devices import named
from companion.app.sharing import Sharing
from companion.engine.cards import FormatError
from companion.engine.names import GAME_LIMIT, SHIP_LIMIT, SIDE_LIMIT, cleaned, game_name, skeleton


def devices():
    sharing = Sharing()
    host = sharing.connect(None, "127.0.0.1")
    phone = sharing.connect(None, "10.0.0.5", "iPhone Mobile")
    sharing.admit(phone, sharing.pin)
    return sharing, host, phone


@pytest.mark.parametrize("name", ["This cоmputer", "Тhis computer", "THIS COMPUTER", "This\u200b computer",
                                  "This computer 2", "Τhis cοmputer", "this  computer"])
def test_a_phone_cannot_pass_for_the_hosts_own_browser(name):
    sharing, host, phone = devices()
    problem = sharing.rename(phone, phone.token, name)
    assert problem is not None and ("This computer" in problem)
    assert phone.name == "Phone 1"


def test_the_host_keeps_its_name_and_may_take_another():
    sharing, host, _ = devices()
    assert named("This computer 2", [], local=True) == ("This computer 2", None)
    assert sharing.rename(host, host.token, "Table laptop") is None


@pytest.mark.parametrize("name", ["[31mRed", "Ben [0m", "\x1b[1;31mBen", "x[2Jy"])
def test_the_printable_rest_of_a_terminal_escape_is_refused(name):
    sharing, _, phone = devices()
    problem = sharing.rename(phone, phone.token, name)
    assert problem is not None and "terminal code" in problem


def test_a_name_that_only_looks_like_another_devices_is_refused():
    sharing, host, phone = devices()
    tablet = sharing.connect(None, "10.0.0.6", "iPad")
    sharing.admit(tablet, sharing.pin)
    assert sharing.rename(phone, phone.token, "Anna's phone") is None
    assert sharing.rename(tablet, tablet.token, "Аnna's phоne") == (
        "Аnna's phоne looks like the name of another device, Anna's phone: pick another name.")
    assert sharing.rename(tablet, tablet.token, "Anna's tablet [3]") is None  # brackets alone are fine


def test_control_bidi_and_zero_width_characters_go():
    assert cleaned("Raven\u202e evil\u2066\u200d\x07\n  x") == "Raven evil x"
    assert skeleton("Pontbriand") == skeleton("Pоntbriand") == "pontbriand"


def test_a_game_name_as_typed():
    assert game_name("  Saturday\u202e \tevening ") == ("Saturday evening", None)
    name, problem = game_name("x" * (GAME_LIMIT + 1))
    assert problem == f"A game's name is at most {GAME_LIMIT} characters ({GAME_LIMIT + 1} given)"
