"""The line at the top of the Quick-Start table, as plain data: the phase, who acts next and the
table's buttons; under house rule H1 (unit initiative) the ship-by-ship order of seed 002.  No flet
imports."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..engine.quick_start import unit_initiative as H1
from ..engine.board import DEPLOYMENT_DEPTH
from ..engine.quick_start.state import GameState, ShipState
from ..engine.quick_start.table_rules import rules_in_words
from ..engine.quick_start.turn import movement_groups, to_move


@dataclass(frozen=True)
class Banner:
    """The line at the top of the table: the phase and who acts next."""

    phase: str
    title: str
    detail: str
    actions: tuple[str, ...] = ()
    next_ships: tuple[str, ...] = ()


def banner(state: GameState) -> Banner:
    """The phase's banner; its detail names the house rules and the table rules the game changed."""
    told = house_banner(state) or _phase_banner(state)
    return replace(told, detail=told.detail + rules_in_words(state.house_rules, state.table_rules))


def _phase_banner(state: GameState) -> Banner:
    turn = f"Turn {state.turn}"
    phase = state.phase
    if phase == "setup":
        return Banner(phase, "Deployment",
                      f"Deploy every ship within {DEPLOYMENT_DEPTH} hexes of a map edge, with the whole ship on "
                      "the map and the sides on opposite edges, as on the table; then start the battle.",
                      ("start_game",))
    if phase == "initiative":
        tie = " Last roll was a tie: roll again." if state.initiative_rolls else ""
        return Banner(phase, f"{turn} · Initiative",
                      f"Each side rolls 2DRed; the higher total wins.{tie}",
                      ("roll_initiative", "enter_initiative", "set_initiative"))
    if phase == "movement":
        group = to_move(state)
        if group is None:
            return Banner(phase, f"{turn} · Movement", "Movement is over.", ("end_movement",))
        side, ship_type = group
        ships = movers(state, group)
        names = ", ".join(s.card.name for s in ships)
        order = ", then ".join(f"{sd} T{t}" for sd, t in movement_groups(state))
        return Banner(phase, f"{turn} · Movement: {side} Type {ship_type}",
                      f"{names} to move. Order: {order}. {state.initiative} has the initiative.",
                      ("end_movement",), tuple(s.id for s in ships))
    if phase == "combat":
        declared = len(state.shots)
        open_ = sum(1 for s in state.shots if s.result is None)
        shots = (f"{declared} shot{'s' if declared != 1 else ''} declared"
                 + (f", {open_} to resolve" if open_ else "")) if declared else "no shots declared yet"
        return Banner(phase, f"{turn} · Fire",
                      f"All fire is simultaneous: pick a ship, declare its shots, resolve them, "
                      f"then end the turn ({shots}).", ("end_turn",))
    return Banner(phase, "Game over", state.result or "The game is over.", ())


def movers(state: GameState, group: tuple[str, int]) -> list[ShipState]:
    """The ships of the group moving now (`to_move`: a side and a type) still to move."""
    side, ship_type = group
    return [s for s in state.active_ships if s.side == side and s.card.type == ship_type and not s.move_done]


def house_banner(state: GameState) -> Banner | None:
    """The banner of a game with unit initiative (H1), in initiative and movement; else None."""
    if not state.house_rules.unit_initiative or state.phase not in ("initiative", "movement"):
        return None
    turn = f"Turn {state.turn}"
    if state.phase == "initiative":
        return Banner("initiative", f"{turn} · Initiative",
                      "Each ship rolls 1d10 + its class modifier (Type 1 +0, Types 2-3 +3, Type 4 +5); the "
                      "highest moves first, ties re-rolled once, then move simultaneously.",
                      ("roll_unit_initiative",))
    group = H1.to_move(state)
    if group is None:
        return Banner("movement", f"{turn} · Movement", "Movement is over.", ("end_movement",))
    who = H1.names(state, group)
    recorded = [ship for ship in group if ship in state.sealed_moves]
    how = ((" move simultaneously: each records its end position in secret"
            + (f" ({H1.names(state, recorded)} recorded)" if recorded else ""))
           if H1.needs_records(state, group) else (" move" if len(group) > 1 else " moves"))
    order = H1.order_words(state, H1.order_now(state))  # after a seize too (issue 28.3)
    return Banner("movement", f"{turn} · Movement: {who} ({H1.initiative_words(state, group[0])})",
                  f"{who}{how}. Order: {order}.", ("end_movement",), tuple(group))
