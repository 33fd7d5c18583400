"""Decisive Victory by hand (no Flet): "the table is the truth: every automatic answer can be
overridden by hand" (issue 16).  The spec's by-hand and table actions (decisive-victory.md §16):
the initiative the table decided (`set_initiative`), the rudder (`set_rudder`), a ship taken off
(`remove_ship`), a side conceding (`concede`), the rule checks off or on (`set_bookkeeping`), the
ships a star shell lit (`illuminate`), and the table's dice for collisions (with a collision
rating typed when a record has none, [R-22]) and radar rolls; and whose hit grid and Table 1 a
game plays (§18: a group's own replace the reconstructed ones).
"""

from __future__ import annotations

from typing import Any

from ....engine.decisive_victory.state import RECONSTRUCTED_GRID, RECONSTRUCTED_TABLE, DVShip, DVState
from ..steps import Step
from .rolls import faces

RUDDER = {"free": "Rudder free", "ahead": "Locked ahead", "port": "Locked to port", "starboard": "Locked to starboard"}
REMOVED = {"sunk": "Sunk", "abandoned": "Abandoned", "scuttled": "Scuttled", "by_hand": "Off the table"}


def tables_words(state: DVState, ship: DVShip) -> str:
    """Whose hit grid and Table 1 the odds use (§18): the group's own, the ship's own, or reconstructed."""
    if ship.record.hit_grid is not None:
        grid = "the ship's own" + (f" ({ship.record.hit_grid.name})" if ship.record.hit_grid.name else "")
    elif state.hit_grid == RECONSTRUCTED_GRID:
        grid = "reconstructed"
    else:
        grid = "the group's own" + (f" ({state.hit_grid.name})" if state.hit_grid.name else "")
    table = "reconstructed" if state.success_table == RECONSTRUCTED_TABLE else \
        "the group's own" + (f" ({state.success_table.name})" if state.success_table.name else "")
    return f"Hit grid: {grid} · Table 1: {table}"


def initiative_choices(state: DVState) -> tuple[Step, ...]:
    """The initiative as the table decided it (§6, `set_initiative`), in the initiative phase."""
    if state.phase != "initiative":
        return ()
    return tuple(Step(f"dv-set-initiative-{side}", f"{side} has it (decided at the table)",
                      {"kind": "set_initiative", "side": side}) for side in state.sides)


def rudder_choices(state: DVState, ship_id: str) -> tuple[Step, ...]:
    ship = state.ship(ship_id)
    return tuple(Step(f"dv-rudder-{r}", words, {"kind": "set_rudder", "ship": ship.id, "rudder": r})
                 for r, words in RUDDER.items() if r != ship.rudder)


def removal_choices(state: DVState, ship_id: str) -> tuple[Step, ...]:
    ship = state.ship(ship_id)
    if not ship.in_play:
        return ()
    return tuple(Step(f"dv-remove-{how}", f"{words}: take {ship.label} off",
                      {"kind": "remove_ship", "ship": ship.id, "how": how},
                      f"{ship.label} leaves the game ({words.lower()}). Undo brings it back.")
                 for how, words in REMOVED.items())


def concede_choices(state: DVState, side: str | None) -> tuple[Step, ...]:
    """A side gives up (§16 `concede`): the device's own side, or any side on a whole-table device."""
    if state.phase == "over":
        return ()
    return tuple(Step(f"dv-concede-{s}", f"{s} concedes", {"kind": "concede", "side": s},
                      f"{s} concedes the battle: the game is over. Undo takes it back.")
                 for s in state.sides if side is None or s == side)


def bookkeeping_choice(state: DVState) -> Step:
    """Rule checks off (bookkeeping: the rules warn instead of refusing) or back on."""
    if state.settings.bookkeeping:
        return Step("dv-bookkeeping-off", "Rule checks on again", {"kind": "set_bookkeeping", "on": False})
    return Step("dv-bookkeeping-on", "Rule checks off (bookkeeping: warnings, no refusals)",
                {"kind": "set_bookkeeping", "on": True})


def lit_candidates(state: DVState) -> list[DVShip]:
    """The ships a star shell fired this turn may have lit (§8.8): the players say which (`illuminate`)."""
    if state.phase != "attacks" or not state.star_shells:
        return []
    return [s for s in state.ships if s.in_play and not s.illuminated]


def illuminate_action(ships: list[str]) -> dict[str, Any] | str:
    if not ships:
        return "Pick the ships within 1\" of the star shell first."
    return {"kind": "illuminate", "ships": sorted(ships)}


def missing_ratings(state: DVState, ship_id: str, other_id: str) -> list[DVShip]:
    """The ships of a collision whose records have no collision rating: the table types it [R-22]."""
    return [s for s in (state.ship(ship_id), state.ship(other_id)) if s.record.collision_rating is None]


def collision_action(action: dict[str, Any], ship_dice: str = "", other_dice: str = "",
                     ratings: dict[str, str] | None = None) -> dict[str, Any] | str:
    """The collision (`close_action`, nobody pays) with the table's dice and typed collision ratings."""
    out = dict(action)
    typed = {k: v.strip() for k, v in (ratings or {}).items() if v.strip()}
    bad = [v for v in typed.values() if not v.isdigit()]
    if bad:
        return f"a collision rating is a whole number, not {bad[0]!r}"
    if typed:
        out["collision_ratings"] = {k: int(v) for k, v in typed.items()}
    try:
        table = {k: faces(v) for k, v in (("ship", ship_dice), ("other", other_dice)) if v.strip()}
    except ValueError as exc:
        return str(exc)
    if table:
        out["table"] = table
    return out


def radar_action(action: dict[str, Any], text: str) -> dict[str, Any] | str:
    """A radar roll (§8.5) with the table's two dice, 1st then 2nd."""
    try:
        pair = faces(text)
    except ValueError as exc:
        return str(exc)
    if len(pair) != 2:
        return f"the radar roll is two dice, 1st then 2nd: {len(pair)} were typed"
    return {**action, "table": {"radar": pair}}
