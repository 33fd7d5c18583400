"""The admiral: a side's orders for what it may do now, each with its reason in numbers (issue 38).

Movement: the side's ships that may move now (the rules say which: a ship
whose `end_move` the rules accept), one at a time, each given one end
position of its reach set (the planner: every legal end with its MP cost and a
path `apply` accepts) as a `move_along` and an `end_move`.  A position is
scored by what it opens (the exact value of each gun's best shot from there:
damage chance plus `KILL_WEIGHT` times the chance the target is destroyed)
against what it risks (the same value of the enemy's best shots at the ship
there, from where each enemy stands, and for an enemy still to move from
where its own reach can take it), plus a small pull toward the ship's best
range of the nearest enemy.  A position that costs the ship (Quick-Start's
half-hexes) is never taken; the planner never plans a step off the map.

Combat: each gun not yet fired declares one shot; at Captain and Admiral the
shots are spread (focus fire): a target already likely destroyed by the guns
before is worth less to the next.

Levels differ only by how widely and how far ahead they look (`LEVELS`):
every order of every level is one the rules accept, and each is tried through
`apply` before it is given.  The baselines are levels of the same interface:
`scripted` (as table AIs play: nearest enemy, close to best range, each gun's
best shot) and `greedy` (the best shots now and the move that opens them).
Seeded: ties and samples come from a `random.Random` seeded with the seed, the
level, the turn and the ship, so the same state, level and seed give the same
orders; the time budget, when it binds, returns the best orders found so far.
The admiral sees only `view_for` its side.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence

from ..hexes import facing_name
from ..kernel import Refused
from ..ruleset import AnyRuleset
from .kit import AdmiralKit, Shot, percent

#: the pull toward the best range of the nearest enemy, per hex off it (a tenth of a damage result)
APPROACH = Fraction(1, 10)
#: hexes between two ships' bows beyond their guns' reach of each other's nearest hex (a Type 3's length)
SHIP_LENGTH = 3


@dataclass(frozen=True)
class Level:
    """How widely and how far ahead a level looks."""

    name: str
    words: str
    style: str = "search"  # "scripted", "greedy" or "search"
    width: int = 0  # end positions whose shots are weighed per ship (0: all)
    deep: int = 0  # of those, the best this many have their risk weighed
    ahead: int = 0  # end positions of an enemy still to move looked at (0: only where it stands)
    caution: Fraction = Fraction(1)
    focus: bool = False  # fire spread over the targets
    budget: float = 1.5  # seconds for a side's orders now; past it, the best found so far


LEVELS: dict[str, Level] = {level.name: level for level in (
    Level("scripted", "nearest enemy, close to best range, each gun's best shot", style="scripted"),
    Level("greedy", "the best shots now and the move that opens them", style="greedy"),
    Level("cadet", "weighs a dozen ends a ship, the enemy where it stands", width=12, deep=4,
          caution=Fraction(1, 2)),
    Level("captain", "weighs forty ends a ship, and one end of each enemy still to move", width=40, deep=6, ahead=1,
          caution=Fraction(3, 4), focus=True),
    Level("admiral", "weighs every end of a ship, and three ends of each enemy still to move", deep=10, ahead=3,
          focus=True),
)}


@dataclass(frozen=True)
class Order:
    """One action for `act`, and why, in numbers."""

    action: dict[str, Any]
    reason: str

    def as_json(self) -> dict[str, Any]:
        return {"action": self.action, "reason": self.reason}


def find_level(name: str) -> Level:
    level = LEVELS.get(name.lower())
    if level is None:
        raise ValueError(f"unknown level {name!r}: the levels are {', '.join(LEVELS)}")
    return level


def orders(ruleset: AnyRuleset, state: Any, side: str, level: str | Level = "admiral", seed: str = "0",
           budget: float | None = None) -> list[Order]:
    """The side's orders for what it may do now, in the order to take them (none when it has nothing to do)."""
    kit = kit_of(ruleset)
    if side not in state.sides:
        raise ValueError(f"unknown side {side!r}: the sides are {', '.join(state.sides)}")
    chosen = level if isinstance(level, Level) else find_level(level)
    seen = ruleset.view_for(state, side)
    seen = seen.model_copy(update={"settings": seen.settings.model_copy(update={"bookkeeping": False})})
    deadline = time.monotonic() + (chosen.budget if budget is None else budget)
    planner = _Planner(ruleset, kit, chosen, str(seed), side, deadline)
    if seen.phase == "movement":
        return planner.moves(seen)
    if seen.phase == "combat":
        return planner.fire(seen)
    return []


def kit_of(ruleset: AnyRuleset) -> AdmiralKit:
    kit = ruleset.admiral
    if kit is None:
        raise ValueError(f"the app cannot play {ruleset.name} (it has no map in the app)")
    return kit


@dataclass
class _Planner:
    ruleset: AnyRuleset
    kit: AdmiralKit
    level: Level
    seed: str
    side: str
    deadline: float
    _spots: dict[str, list[Any]] = field(default_factory=dict)  # an enemy's ends looked at, found once
    ship_deadline: float = 0.0

    def rng(self, state: Any, *more: str) -> random.Random:
        return random.Random("|".join((self.seed, self.level.name, str(state.turn), *more)))

    def out_of_time(self) -> bool:
        """Past this ship's share of the budget (the time left split between the ships still to move)."""
        return time.monotonic() > self.ship_deadline

    # --- movement -----------------------------------------------------------------------------

    def next_mover(self, state: Any, done: set[str]) -> tuple[Any, int]:
        """The side's next ship the rules let move now (None when none may), and how many of its
        ships are still to move (the time budget is split between them)."""
        waiting = [ship for ship in state.active_ships if ship.side == self.side and not self.kit.moved(ship)
                   and ship.id not in done]
        mover = next((ship for ship in waiting if self._accepts(state, {"kind": "end_move", "ship": ship.id})), None)
        return mover, len(waiting)

    def _accepts(self, state: Any, action: dict[str, Any]) -> bool:
        return not isinstance(self.ruleset.apply(state, action), Refused)

    def moves(self, state: Any) -> list[Order]:
        out: list[Order] = []
        done: set[str] = set()
        while True:
            ship, waiting = self.next_mover(state, done)
            if ship is None:
                return out
            done.add(ship.id)
            self.ship_deadline = time.monotonic() + max(0.0, self.deadline - time.monotonic()) / waiting
            reached, reason = self.choose(state, ship)
            actions = []
            if reached is not None and reached.path:
                actions.append({"kind": "move_along", "ship": ship.id, "steps": [dict(a) for a in reached.path]})
            actions.append({"kind": "end_move", "ship": ship.id})
            for number, action in enumerate(actions):
                outcome = self.ruleset.apply(state, action)
                if isinstance(outcome, Refused):
                    continue
                state = outcome.state
                words = reason if number == 0 else self._done(state, ship.id)
                out.append(Order(action, words))

    def choose(self, state: Any, ship: Any) -> tuple[Any, str]:
        """The end position for one ship, and the reason in numbers."""
        reach = self.ruleset.reach(state, ship.id)  # type: ignore[misc]
        ends = [r for r in reach.positions if not self.kit.wasteful(r)]
        enemies = [s for s in state.active_ships if s.side != self.side and _placed(s)]
        if not ends or not enemies:
            stay = next((r for r in ends if not r.path), None)
            return stay, f"{self._name(state, ship.id)}: holds its place; because: no enemy in sight"
        rng = self.rng(state, ship.id)
        jitter = {id(r): rng.random() for r in ends}  # seeded tie-break
        approach = {id(r): self._approach(ship, r, enemies) for r in ends}
        style = self.level.style
        if style == "scripted":
            best = max(ends, key=lambda r: (approach[id(r)], jitter[id(r)]))
            return best, self._words(state, ship, best, None, None, enemies)
        pool = ends if style == "greedy" or not self.level.width else self._sample(ends, approach, rng)
        opens: dict[int, tuple[Fraction, list[Shot]]] = {}
        for r in pool:
            if opens and self.out_of_time():
                break
            opens[id(r)] = self._opens(state, ship.id, r)
        looked = [r for r in pool if id(r) in opens]
        if style == "greedy":
            best = max(looked, key=lambda r: (opens[id(r)][0], approach[id(r)], jitter[id(r)]))
            return best, self._words(state, ship, best, opens[id(best)][1], None, enemies)
        looked.sort(key=lambda r: (opens[id(r)][0] + approach[id(r)], jitter[id(r)]), reverse=True)
        risks: dict[int, tuple[Fraction, str | None]] = {}
        for r in looked[:max(1, self.level.deep)]:
            if risks and self.out_of_time():
                break
            risks[id(r)] = self._risk(state, ship.id, r, enemies)
        weighed = [r for r in looked if id(r) in risks]
        caution = self.level.caution

        def score(r: Any) -> tuple[Fraction, float]:
            return opens[id(r)][0] - caution * risks[id(r)][0] + approach[id(r)], jitter[id(r)]

        best = max(weighed, key=score)
        return best, self._words(state, ship, best, opens[id(best)][1], risks[id(best)], enemies)

    def _sample(self, ends: list[Any], approach: dict[int, Fraction], rng: random.Random) -> list[Any]:
        """`width` ends: half the closest to the best range, half drawn at random (the stay among them)."""
        width = self.level.width
        if len(ends) <= width:
            return ends
        ranked = sorted(ends, key=lambda r: approach[id(r)], reverse=True)
        kept = ranked[:width // 2]
        rest = ranked[width // 2:]
        kept += rng.sample(rest, min(len(rest), width - len(kept)))
        stay = next((r for r in ends if not r.path), None)
        if stay is not None and stay not in kept:
            kept.append(stay)
        return kept

    def _approach(self, ship: Any, reached: Any, enemies: Sequence[Any]) -> Fraction:
        bow = reached.position.bow
        nearest: int = min(bow.distance(self.kit.where(e)) for e in enemies)
        return -APPROACH * abs(nearest - self.kit.best_range(ship))

    def _opens(self, state: Any, ship_id: str, reached: Any) -> tuple[Fraction, list[Shot]]:
        """The value of each gun's best shot from this end (the enemy where it stands now); nothing,
        unasked, when every enemy is further than the longest gun's range and a ship's length."""
        bow, ship = reached.position.bow, state.ship(ship_id)
        limit = self.kit.max_range(ship) + SHIP_LENGTH
        if all(bow.distance(self.kit.where(e)) > limit for e in state.active_ships
               if e.side != self.side and _placed(e)):
            return Fraction(0), []
        placed = self.kit.place(state, ship_id, reached)
        best = best_per_gun(self.kit.shots(placed, ship_id))
        return sum((s.value for s in best), Fraction(0)), best

    def _risk(self, state: Any, ship_id: str, reached: Any, enemies: Sequence[Any]) -> tuple[Fraction, str | None]:
        """The value of the enemy's best shots at the ship at this end: from where each enemy stands, or
        (an enemy still to move, Captain and Admiral) the worst of where its reach can take it."""
        placed = self.kit.place(state, ship_id, reached)
        us = placed.ship(ship_id)
        total, worst, worst_words = Fraction(0), Fraction(0), None
        for enemy in enemies:
            value, words = Fraction(0), None
            limit = self.kit.max_range(enemy) + SHIP_LENGTH
            for spot in self._enemy_spots(state, enemy):
                stands = spot.position.bow if spot is not None else self.kit.where(enemy)
                if stands.distance(reached.position.bow) > limit:
                    continue
                here = self.kit.place(state, enemy.id, spot) if spot is not None else state
                shots = best_per_gun(self.kit.shots(here.model_copy(update={"ships": [here.ship(enemy.id), us]}),
                                                    enemy.id))
                got = sum((s.value for s in shots), Fraction(0))
                if got > value:
                    value, words = got, f"{self._name(state, enemy.id)}'s {max(shots, key=lambda s: s.value).reason()}"
            total += value
            if value > worst:
                worst, worst_words = value, words
        return total, worst_words

    def _enemy_spots(self, state: Any, enemy: Any) -> list[Any]:
        """Where an enemy may shoot from: where it stands (None), and for one still to move up to
        `ahead` ends of its reach, the closest to this side's ships, spread over facings."""
        spots: list[Any] = [None]
        if self.level.ahead and not self.kit.moved(enemy):
            if enemy.id not in self._spots:
                self._spots[enemy.id] = self._enemy_ends(state, enemy)
            spots += self._spots[enemy.id]
        return spots

    def _enemy_ends(self, state: Any, enemy: Any) -> list[Any]:
        ours = [self.kit.where(s) for s in state.active_ships if s.side == self.side and _placed(s)]
        if not ours:
            return []
        ends = [r for r in self.ruleset.reach(state, enemy.id).positions  # type: ignore[misc]
                if r.path and not self.kit.wasteful(r)]
        ends.sort(key=lambda r: (min(r.position.bow.distance(h) for h in ours), r.mp_cost))
        picked, facings = [], set()
        for r in ends:
            if r.position.facing in facings:
                continue
            facings.add(r.position.facing)
            picked.append(r)
            if len(picked) >= self.level.ahead:
                break
        return picked

    # --- combat -------------------------------------------------------------------------------

    def fire(self, state: Any) -> list[Order]:
        out: list[Order] = []
        alive: dict[str, Fraction] = {}
        for ship in [s for s in state.active_ships if s.side == self.side]:
            shots = self.kit.shots(state, ship.id)
            by_gun: dict[Any, list[Shot]] = {}
            for shot in shots:
                by_gun.setdefault(shot.gun, []).append(shot)
            for gun, options in by_gun.items():
                if self.level.focus:
                    pick = max(options, key=lambda s: (s.value * alive.get(s.target, Fraction(1)), s.hit))
                else:
                    pick = max(options, key=lambda s: (s.kill, s.hit))
                outcome = self.ruleset.apply(state, pick.action)
                if isinstance(outcome, Refused):
                    continue
                state = outcome.state
                alive[pick.target] = alive.get(pick.target, Fraction(1)) * (1 - pick.kill)
                out.append(Order(pick.action, f"{self._name(state, ship.id)}: {pick.reason()}"))
        return out

    # --- words --------------------------------------------------------------------------------

    def _done(self, state: Any, ship_id: str) -> str:
        ship = state.ship(ship_id)
        where = f"{state.board.label(self.kit.where(ship))} facing {facing_name(ship.facing)}"
        return f"{self._name(state, ship_id)}: ends its move at {where}, {ship.mp_spent} MP spent"

    def _name(self, state: Any, ship_id: str) -> str:
        return str(self.ruleset.ship_name(state.ship(ship_id)))

    def _words(self, state: Any, ship: Any, reached: Any, shots: list[Shot] | None,
               risk: tuple[Fraction, str | None] | None, enemies: Sequence[Any]) -> str:
        name = self._name(state, ship.id)
        where = f"{state.board.label(reached.position.bow)} facing {facing_name(reached.position.facing)}"
        move = f"{path_words(reached.path)} to {where}, {reached.mp_cost} MP" if reached.path else f"holds {where}"
        because: list[str] = []
        if shots:
            best = max(shots, key=lambda s: s.value)
            because.append(best.reason() + (f" (and {len(shots) - 1} more guns)" if len(shots) > 1 else ""))
        else:
            bow = reached.position.bow
            nearest = min(enemies, key=lambda e: bow.distance(self.kit.where(e)))
            because.append(f"{self._name(state, nearest.id)} {bow.distance(self.kit.where(nearest))} hexes away, "
                           f"best range {self.kit.best_range(ship)}")
        if risk is not None:
            because.append(f"risks {risk[1]}" if risk[1] else "out of the enemy's arcs")
        return f"{name}: {move}; because: {'; '.join(because)}"


def best_per_gun(shots: list[Shot]) -> list[Shot]:
    """Each gun's most valuable shot."""
    best: dict[Any, Shot] = {}
    for shot in shots:
        old = best.get(shot.gun)
        if old is None or shot.value > old.value:
            best[shot.gun] = shot
    return list(best.values())


def path_words(path: Sequence[dict[str, Any]]) -> str:
    """A path in a player's words: "forward 2, port, forward 1" (pivots and declared turns named)."""
    words: list[str] = []
    run = 0
    for action in path:
        if action.get("kind") == "step" and action.get("step") == "forward":
            run += 1
            continue
        if run:
            words.append(f"forward {run}")
            run = 0
        if action.get("kind") == "step":
            words.append(str(action["step"]))
        elif action.get("kind") == "pivot":
            words.append(f"pivot to {facing_name(int(action['facing']))}")
        else:
            side = f" {action['side']}" if action.get("side") else ""
            words.append(str(action.get("kind", "")).replace("_", " ") + side)
    if run:
        words.append(f"forward {run}")
    return ", ".join(words)


def _placed(ship: Any) -> bool:
    return bool(getattr(ship, "placed", True))

