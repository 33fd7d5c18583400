"""The house rules (seed 002) on the table screen, as plain data: the selected ship's house-rule moves (declare or cancel a turn, seize the
initiative, record a secret end position).  Every answer is the engine's: each move offered is
an action the rules accept now (tried through `QUICK_START.apply`), never a second copy of a rule.
No flet imports."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ....engine.quick_start import unit_initiative as H1
from ....engine.hexes import facing_name
from ....engine.quick_start.ruleset import QUICK_START
from ....engine.quick_start.secret_moves import BLANK_BOW
from ....engine.quick_start.state import GameState
from ..steps import Step


@dataclass(frozen=True)
class HouseMoves:
    """The selected ship's house-rule moves and what its card shows of them."""

    moves: tuple[Step, ...]  # ids: "declare-turn", "seize-initiative", ...
    recording: bool  # its end position is recorded in secret (H1: a simultaneous group of two sides)
    status: str  # "Turn declared: 1 of 2 hexes entered", "Recorded: 1011 facing N", "Recorded", ""


def house_moves(state: GameState, ship_id: str, holds_a_side: bool = True) -> HouseMoves | None:
    """The house-rule moves of a ship in the movement phase; None when the game uses none.

    A device holding a side is sent only its own sealed records (the ruleset's view) and shows
    them; one device for the whole table passes from player to player, so it shows no
    sealed position at all (house-rules.md 4.8)."""
    rules = state.house_rules
    if state.phase != "movement" or not (rules.seize_initiative or rules.declared_turns or rules.unit_initiative):
        return None
    ship = state.ship(ship_id)
    tried = [
        Step("seize-initiative", "Seize the initiative", {"kind": "seize_initiative", "ship": ship_id}),
        Step("cancel-turn", "Cancel the turn (1 MP)", {"kind": "cancel_turn", "ship": ship_id}),
        *(Step(f"declare-turn{'-' + side if side else ''}", f"Declare a turn{' to ' + side if side else ''}",
               {"kind": "declare_turn", "ship": ship_id, **({"side": side} if side else {})})
          for side in (("port", "starboard") if rules.declare_direction else (None,))),
    ]
    moves = tuple(move for move in tried if QUICK_START.apply(state, move.action).ok)
    return HouseMoves(moves, H1.records_end_position(state, ship), _status(state, ship_id, holds_a_side))


def _status(state: GameState, ship_id: str, holds_a_side: bool) -> str:
    ship = state.ship(ship_id)
    sealed = state.sealed_moves.get(ship_id)
    if sealed is not None:
        if sealed.bow == BLANK_BOW or not holds_a_side:
            return "Recorded (sealed until the reveal)"
        return f"Recorded: {sealed.bow} facing {facing_name(sealed.facing)} (sealed until the reveal)"
    if ship.turn_declared:
        need = ship.card.enter_hexes_before_turn
        side = f" to {ship.declared_side}" if ship.declared_side else ""
        return f"Turn declared{side}: {ship.entered_since_declared} of {need} hex{'es' if need != 1 else ''} entered"
    return ""


def hundredths(p: Any) -> str:
    """A chance to two decimals, as house-rules.md 4.10 shows it ("22.47%": display rounding only)."""
    return f"{float(p) * 100:.2f}%"


def initiative_chances(state: GameState, ship_id: str) -> str:
    """Under unit initiative, before movement: the exact chance this ship moves before each enemy
    (house-rules.md 4.10: its d10 and modifier against the enemy's, one re-roll of a tie)."""
    if not state.house_rules.unit_initiative or state.phase not in ("setup", "initiative"):
        return ""
    ship = state.ship(ship_id)
    mine = H1.modifier(state, ship)
    parts = []
    for enemy in state.enemies_of(ship):
        first, together, _ = H1.moves_before(mine, H1.modifier(state, enemy))
        parts.append(f"{enemy.card.name} {hundredths(first)} (together {hundredths(together)})")
    return f" Chance {ship.card.name} moves before: " + ", ".join(parts) + "." if parts else ""
