"""What a game's starting position must be, however it comes in (issue 36 part 1).

`companion new`, the app's Load a scenario, `companion import`, the app's Import a game file (on
the host and in the static build) and an old War Fleet save's upgrade all ask `start_problem`:
at most `MAX_SHIPS` ships, each id once, two sides at least that differ to the eye (not only by
case or by lookalike letters: `names.alike_problem`), every ship on one of them, names as a
scenario file would have made them (cleaned, within their limits, not blank), a turn of 1 or
more and a game not yet over.  Pure: no I/O; the answer is one line, with where it was found.
"""

from __future__ import annotations

from typing import Any

from .names import SHIP_LIMIT, SIDE_LIMIT, alike_problem, blank_problem, cleaned, name_problem
from .quick_start.state import MAX_SHIPS

#: The last turn a game may be at (docs/formats.md "Limits").
MAX_TURN = 9999


def start_problem(state: Any, ruleset: Any) -> tuple[str, str] | None:
    """(where, why) a starting position may not be played, or None.  `ruleset` names the ships
    (`ship_name`) and judges the board (`state_problem`)."""
    for check in (_ship_count, _ship_ids, _sides, _ship_names, _turn):
        problem = check(state, ruleset)
        if problem:
            return problem
    problem = ruleset.state_problem(state)  # Quick-Start: ships on the board, none sharing a hex
    return ("ships", problem) if problem else None


def _ship_count(state: Any, ruleset: Any) -> tuple[str, str] | None:
    if len(state.ships) > MAX_SHIPS:
        return "ships", f"a table holds at most {MAX_SHIPS} ships; this one has {len(state.ships):,}"
    return None


def _ship_ids(state: Any, ruleset: Any) -> tuple[str, str] | None:
    seen: set[str] = set()
    for position, ship in enumerate(state.ships):
        where = f"ships.{position}.id"
        if ship.id in seen:
            return where, f"two ships have the id '{ship.id}': each ship needs its own"
        if cleaned(ship.id) != ship.id or not ship.id:
            return where, "a ship's id holds blanks, control or invisible characters"
        if len(ship.id) > SHIP_LIMIT:
            return where, f"a ship's id is at most {SHIP_LIMIT} characters ({len(ship.id):,} given)"
        seen.add(ship.id)
    return None


def _sides(state: Any, ruleset: Any) -> tuple[str, str] | None:
    sides = list(state.sides)
    for side in sides:
        problem = _name_problem(side, "a side's name", SIDE_LIMIT)
        if problem:
            return "sides", problem
    if len(set(sides)) < len(sides):
        twice = next(side for side in sides if sides.count(side) > 1)
        return "sides", f"the side {twice} is named twice: a game needs two different sides"
    if len(sides) < 2:
        what = f"the only side is {sides[0]}" if sides else "it has no sides"
        return "sides", f"a game needs two sides at least: {what}"
    alike = alike_problem(sides, "side")
    if alike:
        return "sides", alike
    for position, ship in enumerate(state.ships):
        if ship.side not in sides:
            return f"ships.{position}.side", f"{ship.id} is on the side '{ship.side}', which is not one of the game's"
    return None


def _ship_names(state: Any, ruleset: Any) -> tuple[str, str] | None:
    names = []
    for position, ship in enumerate(state.ships):
        name = ruleset.ship_name(ship)
        problem = _name_problem(name, f"the name of ship {ship.id}", SHIP_LIMIT)
        if problem:
            return f"ships.{position}", problem
        names.append(name)
    alike = alike_problem(list(dict.fromkeys(names)), "ship name")  # ships of one card share its name
    return ("ships", alike) if alike else None


def _turn(state: Any, ruleset: Any) -> tuple[str, str] | None:
    if not 1 <= state.turn <= MAX_TURN:
        return "turn", f"turn {state.turn} is not a turn: turns count from 1 to {MAX_TURN}"
    if state.result is not None or state.phase == "over":
        return "phase", "the starting position is a game already over"
    return None


def _name_problem(name: str, what: str, limit: int) -> str | None:
    """Why a name in a position may not stand as it is: too long, not as cleaning leaves it
    (control, bidi or zero-width characters, runs of spaces), or showing nothing."""
    if len(name) > limit:
        return name_problem(name, what[0].upper() + what[1:], limit)
    if cleaned(name) != name:
        return f"{what} {cleaned(name)!r} holds control, invisible or repeated blank characters"
    return blank_problem(name, what)
