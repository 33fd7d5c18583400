"""The check code 'log N · code' tells no one more than the shared screen sees (issue 25 part 8): it
is computed from the public view (the log position beside it), so a sealed H1 record cannot be found by
trying each place it could name against the code, and every device shows the same code."""

from __future__ import annotations

from companion.app.devices import PinGate
from companion.app.sharing import Sharing, public_code
from companion.engine.quick_start.ruleset import QUICK_START
from companion.engine.roller import Roller
from companion.store import MemoryStore

from test_house_unit_initiative import TIE_STAYS, record, table


def h1_game(bow: str):
    """H1's tie that stays (house-rules.md 4.5): Raven moved, Hertfordshire's end position recorded
    (sealed: Pontbriand has not recorded yet), the same known dice seed every time."""
    game = MemoryStore().new_game(table(), "secret", roller=Roller.from_seed(7), ruleset=QUICK_START)
    for action in ({"kind": "roll_unit_initiative", "faces": TIE_STAYS}, {"kind": "end_move", "ship": "raven"},
                   record("hertfordshire", bow, "N")):
        assert game.act(action).ok, action
    return game


def code(game) -> str:
    return Sharing(PinGate("123456")).table(game).check_code()


def test_the_code_does_not_change_with_a_sealed_record():
    codes = {code(h1_game(bow)) for bow in ("1010", "1011", "1012", "1013")}
    assert len(codes) == 1, "the code would tell Hertfordshire's sealed record"


def test_the_code_follows_what_everyone_sees():
    game = h1_game("1011")
    sealed = code(game)
    assert game.act(record("pontbriand", "1008", "S")).ok  # the reveal: both moves shown to all
    assert code(game) != sealed
    assert code(game) == public_code(game, game.state)
    assert game.undo()
    assert code(game) == sealed  # the same position, the same code
