"""The after-action report (issue 17, "Beyond paper"): a game's dice and damage, per side.

Pure functions from a ruleset, a starting state and the log of actions (replayed through
the ruleset's `apply`) to a `Report`:

- every roll's place in its own exact distribution: the mid-rank percentile
  P(X < x) + P(X = x) / 2 of its outcome, exact; and the luck line, the mean percentile by turn;
- damage dealt against damage expected, one resolved shot or attack at a time;
- shots per gun, and ships lost by turn.

What differs between rulesets is asked of the ruleset, never guessed from its field or action
names (issue 25): its `rated_rolls` (which rolls count for whom, each in its exact distribution),
its `expected_damage` (a shot's or attack's damage against its exact odds), its `ships_lost`,
its `ship_name` and its `report_words` (engine/report_damage.py; Quick-Start's in
quick_start_report.py, War Fleet's in warfleet/report.py, Decisive Victory's in dv/report.py).
Which rolls count for whom: docs/rule-readings.md, "After-action report".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from .kernel import Event, Refused
from .report_damage import Frozen, ReportWords, RollMark, ShotMark, percentile
from .ruleset import AnyRuleset

__all__ = ["RollMark", "ShotMark", "ReportWords", "TurnLuck", "GunShots", "ShipsLost", "SideReport", "Report",
           "percentile", "after_action_report"]


class TurnLuck(Frozen):
    """One point of a side's luck line: its rolls' mean percentile in the turn, and over the game so far."""

    turn: int
    rolls: int
    mean: Fraction | None
    running: Fraction | None


class GunShots(Frozen):
    """How often one gun fired (resolved shots) and the slots and keels its shots took."""

    ship: str
    gun: str
    location: str
    slot: int
    shots: int
    slots_destroyed: int
    keel_breaks: int


class ShipsLost(Frozen):
    """The side's ships lost in one turn (names), and in all up to it."""

    turn: int
    ships: list[str]
    total: int


class SideReport(Frozen):
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


class Report(Frozen):
    """A game's (or one turn's) after-action report."""

    ruleset: str
    turns: list[int]
    only_turn: int | None
    sides: list[SideReport]
    words: ReportWords = ReportWords()


# --- the whole report ---------------------------------------------------------------------


class _Tally:
    """What the replay gathers, per side."""

    def __init__(self, sides: Sequence[str]) -> None:
        self.rolls: dict[str, list[RollMark]] = {s: [] for s in sides}
        self.shots: dict[str, list[ShotMark]] = {s: [] for s in sides}
        self.lost: dict[str, dict[int, list[str]]] = {s: {} for s in sides}
        self.gone: set[str] = set()
        self.turns: list[int] = []


def after_action_report(ruleset: AnyRuleset, initial: Any, actions: Iterable[Any], turn: int | None = None) -> Report:
    """The report of a game from its start and its actions in effect (a store's `effective_actions`);
    `turn`: of that turn alone (its rolls, shots and losses; the luck line's running mean still
    counts the turns before it). Raises ValueError if the log does not replay."""
    tally = _Tally(list(initial.sides))
    state = initial
    for action in actions:
        try:
            parsed = ruleset.parse_action(action)
        except ValueError as exc:
            raise ValueError(f"the log does not replay: {exc}") from None
        outcome = ruleset.apply(state, parsed)
        if isinstance(outcome, Refused):
            raise ValueError(f"the log does not replay: {outcome.reason}")
        _gather(tally, ruleset, state, parsed, outcome.state, outcome.events)
        state = outcome.state
    if turn is not None and turn not in tally.turns:
        raise ValueError(f"the game has no turn {turn} (its turns: {_turn_words(tally.turns)})")
    names = {ship.id: ruleset.ship_name(ship) for ship in initial.ships}
    sides = [_side_report(tally, side, names, turn) for side in initial.sides]
    return Report(ruleset=ruleset.id, turns=tally.turns, only_turn=turn, sides=sides,
                  words=ruleset.report_words or ReportWords())


def _gather(tally: _Tally, ruleset: AnyRuleset, state: Any, action: Any, after: Any, events: list[Event]) -> None:
    turn = int(state.turn)
    if not tally.turns or tally.turns[-1] != turn:
        tally.turns.append(turn)
    for mark in ruleset.rated_rolls(state, action, events):
        tally.rolls.setdefault(mark.side, []).append(mark)
    shot = ruleset.expected_damage(state, action, events)
    if shot is not None:
        tally.shots.setdefault(shot.side, []).append(shot)
    sides = sides_of_ships(state)
    for ship in ruleset.ships_lost(state, after, events):
        if ship in sides and ship not in tally.gone:
            tally.gone.add(ship)
            tally.lost.setdefault(sides[ship], {}).setdefault(turn, []).append(ship)


def sides_of_ships(state: Any) -> dict[str, str]:
    return {ship.id: ship.side for ship in state.ships}


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
