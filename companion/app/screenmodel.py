"""What the shared screen (a TV by the table) shows: whose turn, the last roll, the ships lost.

No flet imports: `views/screen.py` draws this, and tests read it as data.
The shared screen is for reading across a room, so everything here is short.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.quick_start.combat import weapon_hex
from ..engine.quick_start.location_choice import shot_strikes
from ..engine.quick_start.table_play import LocationRoll
from ..engine.hexes import Hex
from ..engine.quick_start.state import GameState
from .banners import banner
from .viewmodels import location_name, log_lines, percent


@dataclass(frozen=True)
class LastRoll:
    """The latest roll of the game: its words and every die (colour, face)."""

    number: int  # its line in the log
    kind: str  # "shot", "initiative" or "initiative_tie"
    title: str
    text: str
    dice: tuple[tuple[str, int], ...]  # a shot: the pool, then the slot die (D6) and any keel dice


@dataclass(frozen=True)
class Lost:
    name: str
    side: str
    why: str


@dataclass(frozen=True)
class SideLine:
    side: str
    afloat: int
    ships: int
    acting: bool  # this side acts now (moves, or everyone fires)


@dataclass(frozen=True)
class ShotLine:
    """A declared shot not yet rolled, drawn on the TV from the gun's hex to the struck location's."""

    side: str
    start: Hex
    end: Hex
    what: str  # "Hertfordshire 6in gun at Pelletier bow"
    odds: str  # "34% to damage · 3% to destroy"


@dataclass(frozen=True)
class ScreenModel:
    turn: int
    phase: str
    headline: str  # "Turn 2 · Movement"
    whose: str  # "British move: HML Raven", "Everyone fires", "Roll initiative"
    whose_side: str | None
    detail: str
    sides: tuple[SideLine, ...]
    last_roll: LastRoll | None
    lost: tuple[Lost, ...]
    actions: int
    shots: tuple[ShotLine, ...] = ()
    volley: tuple[LastRoll, ...] = ()  # the shots rolled together last ("Roll all"), each with its dice


def screen_model(state: GameState, history, actions: int) -> ScreenModel:
    """The shared screen for a state and its log (`history`: the events in effect, in order)."""
    b = banner(state)
    whose, side = _whose(state)
    headline = b.title.split(":")[0] if state.phase == "movement" else b.title
    sides = tuple(
        SideLine(name, sum(1 for s in state.ships if s.side == name and not s.removed and s.destruction is None),
                 sum(1 for s in state.ships if s.side == name),
                 state.phase == "combat" or name == side)
        for name in state.sides
    )
    lost = tuple(Lost(s.card.name, s.side, s.destruction or "removed")
                 for s in state.ships if s.removed or s.destruction is not None)
    return ScreenModel(state.turn, state.phase, headline, whose, side, b.detail, sides,
                       last_roll(history), lost, actions, shot_lines(state), last_volley(history))


def shot_lines(state: GameState) -> tuple[ShotLine, ...]:
    """Every declared shot still to roll, with the exact chance that it damages the target
    (a slot destroyed, or the keel broken) and that it destroys the ship."""
    lines = []
    for shot in state.shots:
        if shot.result is not None:
            continue
        attacker, target = state.ship(shot.attacker), state.ship(shot.target)
        strikes = shot_strikes(state, shot)  # two while the target's side or a d6 is still to pick (table rule)
        words = _odds_words(strikes[0].odds if len(strikes) == 1 else LocationRoll(tuple(strikes)))
        if len(strikes) > 1 and state.table_rules.two_locations == "target":
            words = " or ".join(_odds_words(s.odds) for s in strikes) + f" ({target.side} chooses)"
        gun = attacker.card.locations[shot.location].gun(shot.slot).name
        place = " or ".join(location_name(s.location).lower() for s in strikes)
        what = f"{attacker.card.name} {gun} at {target.card.name} {place}"
        lines.append(ShotLine(attacker.side, weapon_hex(attacker, shot.location),
                              weapon_hex(target, strikes[0].location), what, words))
    return tuple(lines)


def _odds_words(odds: Any) -> str:
    """A declared shot's chance to damage (and to destroy the ship), in words."""
    words = f"{percent(odds.any_damage)} to damage"
    if odds.ship_destroyed:
        words += f" · {percent(odds.ship_destroyed)} to destroy"
    return words


def _whose(state: GameState) -> tuple[str, str | None]:
    phase = state.phase
    if phase == "setup":
        return "Deploy the ships, then start the battle", None
    if phase == "initiative":
        return "Roll for initiative", None
    if phase == "movement":
        ships = [state.ship(s) for s in banner(state).next_ships]  # the banner's: under H1 the unit order
        if not ships:
            return "Movement is over", None
        names = ", ".join(s.card.name for s in ships)
        if len({s.side for s in ships}) > 1:  # H1: a group of both sides moves simultaneously
            return f"{names} move simultaneously", None
        return f"{ships[0].side} to move: {names}", ships[0].side
    if phase == "combat":
        open_shots = sum(1 for s in state.shots if s.result is None)
        rolls = f" · {open_shots} shot{'s' if open_shots != 1 else ''} to roll" if open_shots else ""
        return f"Every side fires{rolls}", None
    return state.result or "The game is over", state.winner


def last_roll(history) -> LastRoll | None:
    """The newest event with dice (a breach roll or an initiative roll), or None."""
    lines = log_lines(history)
    for line in reversed(lines):
        if line.dice and (line.kind == "shot" or line.kind.startswith("initiative")):
            head, _, rest = line.text.partition(": ")
            title = "Initiative" if line.kind.startswith("initiative") else head
            text = rest if line.kind == "shot" else line.text.removeprefix("Initiative: ")
            return LastRoll(line.index, line.kind, title, text, tuple(line.dice))
    return None


def _shot_roll(line) -> LastRoll:
    head, _, rest = line.text.partition(": ")
    return LastRoll(line.index, line.kind, head, rest, tuple(line.dice))


def volley_of(lines, shot: str, declared: str) -> tuple[LastRoll, ...]:
    """The shots rolled together last (a side's "Roll all", or shots rolled one after another with
    nothing else done between), oldest first: the log's last run of `shot` lines, what they caused
    (lines without dice) passed over, ended by a shot's declaration (`declared`) or any other roll."""
    run = []
    for line in reversed(lines):
        if line.kind == shot and line.dice:
            run.append(_shot_roll(line))
        elif line.kind == declared or line.dice or line.kind.startswith(("end", "start", "turn", "phase")):
            break
    return tuple(reversed(run))


def last_volley(history) -> tuple[LastRoll, ...]:
    """Quick-Start's last volley: the shots rolled together last, each with its dice."""
    return volley_of(log_lines(history), "shot", "declare_shot")


def dice_in(data: Any) -> list[tuple[str, int]]:
    """Every die ({"colour": ..., "face": n}) an event's data holds, in order, wherever it is."""
    if isinstance(data, dict):
        if isinstance(data.get("face"), int) and isinstance(data.get("colour"), str):
            return [(data["colour"], data["face"])]
        return [die for value in data.values() for die in dice_in(value)]
    if isinstance(data, list):
        return [die for value in data for die in dice_in(value)]
    return []
