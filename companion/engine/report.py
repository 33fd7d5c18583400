"""The after-action report (issue 17, "Beyond paper"): a game's dice and damage, per side.

Pure functions from a ruleset, a starting state and the log of actions (replayed through
the ruleset's `apply`) to a `Report`:

- every roll's place in its own exact distribution: the mid-rank percentile
  P(X < x) + P(X = x) / 2 of the total of its faces in the distribution of its pool
  (`dice.distribution`), exact; and the luck line, the mean percentile by turn;
- damage dealt against damage expected: for each resolved shot, the slots it destroyed
  and the keel it broke against their exact chances (`combat.breach_odds` on the position
  the shot was rolled in, for the location it was declared at);
- shots per gun, and ships lost by turn.

Which rolls count for whom (docs/rule-readings.md, "After-action report"): a breach roll
and its keel roll are the firing side's (high is good for it); an initiative roll is the
rolling side's; the slot die and the d6 that picks a location are not luck in one
direction and are left out; faces typed in from the table dice count like the roller's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ConfigDict

from .dice import Colour, Pool, distribution
from .kernel import Event, Refused
from .ruleset import Ruleset
from .report_damage import ShotMark, expected_damage

__all__ = ["RollMark", "ShotMark", "TurnLuck", "GunShots", "ShipsLost", "SideReport", "Report",
           "percentile", "after_action_report"]


class RollMark(BaseModel):
    """One roll: whose, when, of what pool, its total of faces and that total's mid-rank percentile."""

    model_config = ConfigDict(frozen=True)

    turn: int
    side: str
    what: str  # "breach", "keel", "initiative", "attack" (War Fleet)
    pool: str
    total: int
    percentile: Fraction


class TurnLuck(BaseModel):
    """One point of a side's luck line: its rolls' mean percentile in the turn, and over the game so far."""

    model_config = ConfigDict(frozen=True)

    turn: int
    rolls: int
    mean: Fraction | None
    running: Fraction | None


class GunShots(BaseModel):
    """How often one gun fired (resolved shots) and the slots and keels its shots took."""

    model_config = ConfigDict(frozen=True)

    ship: str
    gun: str
    location: str
    slot: int
    shots: int
    slots_destroyed: int
    keel_breaks: int


class ShipsLost(BaseModel):
    """The side's ships lost in one turn (names), and in all up to it."""

    model_config = ConfigDict(frozen=True)

    turn: int
    ships: list[str]
    total: int


class SideReport(BaseModel):
    model_config = ConfigDict(frozen=True)

    side: str
    rolls: list[RollMark]
    luck: list[TurnLuck]
    shots: list[ShotMark]
    slots_destroyed: int
    slots_expected: Fraction
    keel_breaks: int
    keel_expected: Fraction
    guns: list[GunShots]
    lost: list[ShipsLost]

    @property
    def mean_percentile(self) -> Fraction | None:
        return _mean([r.percentile for r in self.rolls])


class Report(BaseModel):
    """A game's (or one turn's) after-action report."""

    model_config = ConfigDict(frozen=True)

    ruleset: str
    turns: list[int]
    only_turn: int | None
    sides: list[SideReport]


# --- the percentile of a roll ----------------------------------------------------------


def percentile(pool: Pool, total: int) -> Fraction:
    """Mid-rank percentile of a total in its pool's exact distribution: P(X < x) + P(X = x) / 2
    (a die's middle face is 1/2 on a fair die; the luckiest total is just under 1)."""
    odds = distribution(pool)
    if total not in odds:
        raise ValueError(f"{pool.notation} cannot total {total}")
    below = sum((p for t, p in odds.items() if t < total), Fraction(0))
    return below + odds[total] / 2


def _mark(turn: int, side: str, what: str, dice: Sequence[Mapping[str, Any]]) -> RollMark | None:
    if not dice:
        return None
    pool = Pool(Colour(d["colour"]) for d in dice)
    total = sum(int(d["face"]) for d in dice)
    return RollMark(turn=turn, side=side, what=what, pool=pool.notation, total=total,
                    percentile=percentile(pool, total))


def rolls_in(turn: int, events: Iterable[Event], shooter: Mapping[int, str]) -> list[RollMark]:
    """The luck-bearing rolls of one action's events (module docstring: which count for whom).

    `shooter`: shot or attack id -> the firing side, from the position before the action."""
    marks: list[RollMark | None] = []
    for event in events:
        data = event.data
        if event.kind in ("initiative", "initiative_tie") and isinstance(data.get("rolls"), list):
            marks += [_mark(turn, r["side"], "initiative", r.get("dice", [])) for r in data["rolls"]]
        elif event.kind == "shot" and data.get("shot") in shooter:
            side, result = shooter[data["shot"]], data["result"]
            marks += [_mark(turn, side, "breach", result["pool"]), _mark(turn, side, "keel", result["keel_dice"])]
        elif event.kind == "attack" and data.get("attack") in shooter:
            side = shooter[data["attack"]]
            marks += [_mark(turn, side, "attack", roll["dice"]) for roll in data["result"]["rolls"]]
    return [m for m in marks if m is not None]


# --- the whole report ---------------------------------------------------------------------


class _Tally:
    """What the replay gathers, per side."""

    def __init__(self, sides: Sequence[str]) -> None:
        self.rolls: dict[str, list[RollMark]] = {s: [] for s in sides}
        self.shots: dict[str, list[ShotMark]] = {s: [] for s in sides}
        self.lost: dict[str, dict[int, list[str]]] = {s: {} for s in sides}
        self.gone: set[str] = set()
        self.turns: list[int] = []


def after_action_report(ruleset: Ruleset, initial: Any, actions: Iterable[Any], turn: int | None = None) -> Report:
    """The report of a game from its start and its actions in effect (a store's `effective_actions`);
    `turn`: of that turn alone (its rolls, shots and losses; the luck line's running mean still
    counts the turns before it). Raises ValueError if the log does not replay."""
    tally = _Tally(list(initial.sides))
    state = initial
    for action in actions:
        outcome = ruleset.apply(state, action)
        if isinstance(outcome, Refused):
            raise ValueError(f"the log does not replay: {outcome.reason}")
        _gather(tally, state, action, outcome.events)
        state = outcome.state
    if turn is not None and turn not in tally.turns:
        raise ValueError(f"the game has no turn {turn} (its turns: {_turn_words(tally.turns)})")
    sides = [_side_report(tally, side, names_of(initial), turn) for side in initial.sides]
    return Report(ruleset=ruleset.id, turns=tally.turns, only_turn=turn, sides=sides)


def _gather(tally: _Tally, state: Any, action: Any, events: list[Event]) -> None:
    turn = int(state.turn)
    if not tally.turns or tally.turns[-1] != turn:
        tally.turns.append(turn)
    sides = sides_of_ships(state)
    shooter = {**_shooters(state, "shots"), **_shooters(state, "attacks")}
    for mark in rolls_in(turn, events, shooter):
        tally.rolls.setdefault(mark.side, []).append(mark)
    shot = expected_damage(state, action, events, turn)
    if shot is not None:
        tally.shots.setdefault(shot.side, []).append(shot)
    for event in events:
        ship = event.data.get("ship")
        if event.kind in ("ship_destroyed", "casualty", "ship_lost") and ship in sides and ship not in tally.gone:
            tally.gone.add(ship)
            tally.lost.setdefault(sides[ship], {}).setdefault(turn, []).append(ship)


def _shooters(state: Any, records: str) -> dict[int, str]:
    sides = sides_of_ships(state)
    return {int(r.id): sides[r.attacker] for r in getattr(state, records, []) if r.attacker in sides}


def sides_of_ships(state: Any) -> dict[str, str]:
    return {ship.id: ship.side for ship in state.ships}


def names_of(state: Any) -> dict[str, str]:
    """Ship id -> its name as the players know it."""
    return {ship.id: str(getattr(ship, "name", None) or ship.card.name) for ship in state.ships}


def _side_report(tally: _Tally, side: str, names: Mapping[str, str], only: int | None) -> SideReport:
    def kept(turn: int) -> bool:
        return only is None or turn == only

    rolls = [r for r in tally.rolls.get(side, []) if kept(r.turn)]
    shots = [s for s in tally.shots.get(side, []) if kept(s.turn)]
    lost_by_turn = tally.lost.get(side, {})
    lost, total = [], 0
    for turn in tally.turns:
        ships = [names[s] for s in lost_by_turn.get(turn, [])]
        total += len(ships)
        if kept(turn):
            lost.append(ShipsLost(turn=turn, ships=ships, total=total))
    return SideReport(
        side=side, rolls=rolls, luck=_luck_line(tally.rolls.get(side, []), tally.turns, kept), shots=shots,
        slots_destroyed=sum(s.slots for s in shots), slots_expected=sum((s.slots_expected for s in shots), Fraction(0)),
        keel_breaks=sum(s.keel for s in shots), keel_expected=sum((s.keel_expected for s in shots), Fraction(0)),
        guns=_guns(shots, names), lost=lost)


def _luck_line(rolls: list[RollMark], turns: list[int], kept: Any) -> list[TurnLuck]:
    line, so_far = [], []
    for turn in turns:
        this = [r.percentile for r in rolls if r.turn == turn]
        so_far += this
        if kept(turn):
            line.append(TurnLuck(turn=turn, rolls=len(this), mean=_mean(this), running=_mean(so_far)))
    return line


def _guns(shots: list[ShotMark], names: Mapping[str, str]) -> list[GunShots]:
    keys: dict[tuple[str, str, int], list[ShotMark]] = {}
    for shot in shots:
        keys.setdefault((shot.attacker, shot.location, shot.slot), []).append(shot)
    return [GunShots(ship=names.get(ship, ship), gun=fired[0].gun, location=location, slot=slot, shots=len(fired),
                     slots_destroyed=sum(s.slots for s in fired), keel_breaks=sum(s.keel for s in fired))
            for (ship, location, slot), fired in keys.items()]


def _mean(values: Sequence[Fraction]) -> Fraction | None:
    return sum(values, Fraction(0)) / len(values) if values else None


def _turn_words(turns: list[int]) -> str:
    return f"{turns[0]} to {turns[-1]}" if turns else "none yet"
