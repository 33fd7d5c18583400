"""Whole games headless, the admiral on both sides (issue 38): `play` one game, `tournament` many.

A game goes as at the table: each side's orders (search.py) are taken when it
may act; when neither may, the table takes its step: a declared shot's roll
first, then the turn's own step (start, initiative, ending a group, movement,
combat or the turn), the first the rules accept.  The dice are the game's own
seeded roller, so a game is replayed by its seed.  A game not decided after
`MAX_TURNS` turns is a draw (a duel's convention, not a rule).

`tournament` plays N games, the sides swapped every other game, and gives the
wins, draws, mean turns and the 95% Wilson score interval of the first level's
share of the decided games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from ..kernel import Refused
from ..roller import Roller
from ..ruleset import AnyRuleset
from .search import find_level, kit_of, orders

MAX_TURNS = 12
#: every headless game stops after this many actions at most (a guard, never reached in practice)
MAX_ACTIONS = 20_000
Z95 = 1.959964


@dataclass(frozen=True)
class GameResult:
    winner: str | None  # the winning side, None for a draw
    turns: int
    actions: list[dict[str, Any]] = field(default_factory=list)


def play(ruleset: AnyRuleset, state: Any, levels: dict[str, str], seed: str = "0",
         max_turns: int = MAX_TURNS, budget: float | None = None) -> GameResult:
    """One game from `state` (its dice seeded already), each side flown at its level in `levels`."""
    kit = kit_of(ruleset)
    log: list[dict[str, Any]] = []
    while state.phase != "over" and state.turn <= max_turns and len(log) < MAX_ACTIONS:
        acted = False
        for side in state.sides:
            for order in orders(ruleset, state, side, levels[side], seed, budget):
                outcome = ruleset.apply(state, order.action)
                if isinstance(outcome, Refused):
                    raise RuntimeError(f"{levels[side]} order refused: {order.action}: {outcome.reason}")
                state = outcome.state
                log.append(order.action)
                acted = True
        if acted:
            continue
        step = _table_step(ruleset, state, kit.rolls, kit.table_steps)
        if step is None:
            break
        state = ruleset.apply(state, step).state  # type: ignore[union-attr]
        log.append(step)
    winner = state.winner if state.phase == "over" else None
    return GameResult(winner, min(state.turn, max_turns), log)


def _table_step(ruleset: AnyRuleset, state: Any, rolls: tuple[str, ...],
                steps: tuple[str, ...]) -> dict[str, Any] | None:
    """The table's next step: a roll of a declared shot first, then the turn's own step."""
    candidates = [c for c in ruleset.candidates(state, None) if c.get("kind") in rolls or c.get("kind") in steps]
    candidates.sort(key=lambda c: c["kind"] not in rolls)
    for action in candidates:
        if not isinstance(ruleset.apply(state, action), Refused):
            return action
    return None


@dataclass
class Tally:
    """A pairing's games: wins per level, draws, turns."""

    levels: tuple[str, str]
    wins: dict[str, int]
    draws: int = 0
    turns: list[int] = field(default_factory=list)

    @property
    def games(self) -> int:
        return sum(self.wins.values()) + self.draws

    def interval(self) -> tuple[float, float, float]:
        """The first level's share of the decided games, and its 95% Wilson score interval."""
        first, decided = self.wins[self.levels[0]], sum(self.wins.values())
        return wilson(first, decided)

    def as_json(self) -> dict[str, Any]:
        share, low, high = self.interval()
        return {"wins": dict(self.wins), "draws": self.draws, "games": self.games,
                "mean_turns": round(sum(self.turns) / len(self.turns), 2) if self.turns else 0,
                "share": round(share, 4), "interval": [round(low, 4), round(high, 4)],
                "of": self.levels[0]}


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float, float]:
    """The share, and its Wilson score interval (0, 0, 1 for no trials)."""
    if trials == 0:
        return 0.0, 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def tournament(ruleset: AnyRuleset, start: Callable[[str], Any], levels: tuple[str, str], games: int,
               seed: str = "0", max_turns: int = MAX_TURNS, budget: float | None = None,
               progress: Callable[[int, GameResult], None] | None = None) -> Tally:
    """`games` games between two levels, the sides swapped every other game; `start(seed)` builds a
    game's first state with its dice seeded."""
    first, second = (find_level(level).name for level in levels)
    if first == second:
        raise ValueError(f"a duel needs two different levels, not {first} twice")
    tally = Tally((first, second), {first: 0, second: 0})
    for number in range(games):
        game_seed = f"{seed}:{number}"
        state = start(game_seed)
        sides = list(state.sides)
        flown = (first, second) if number % 2 == 0 else (second, first)
        by_side = dict(zip(sides, flown))
        result = play(ruleset, state, by_side, game_seed, max_turns, budget)
        tally.turns.append(result.turns)
        if result.winner is None:
            tally.draws += 1
        else:
            tally.wins[by_side[result.winner]] += 1
        if progress:
            progress(number + 1, result)
    return tally


def seeded(state: Any, seed: str) -> Any:
    """A game's first state with its dice seeded."""
    return state.model_copy(update={"roller": Roller.from_seed(seed)})
