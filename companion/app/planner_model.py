"""The movement planner in the app, as plain data (issue 17, "Beyond paper"); no flet.

Issue 17: "select a ship and see every end position it can reach this turn,
shaded on the map by the MP it costs (facing shown on tap) ... Tapping an end
position shows the path and, for each gun, which enemies would then be in arc
and range with the odds; 'Move there' applies the path's steps as one undoable
action."  Everything here is read from the game's ruleset, never by asking
which one it is: the end positions and paths from its `reach` capability
(None: no planner), the path on the map from its `trail`, the guns from the
ship placed where the path leaves it by the `guns` its own table hands over
(app/rulesets/<id>/planner_guns.py), and whether "Move there" may be taken now
from `apply` of the `move_along` action itself.  The view draws these rows
and sends `PlanView.action`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

from ..engine.hexes import FACING_NAMES, Hex
from ..engine.kernel import Refused, Refusal
from ..engine.quick_start.reach import Reach, Reached
from ..engine.registry import ruleset_of_state

#: How many cost bands the map shades besides "stays" (0 MP): the MP left split evenly.
BANDS = 3


@dataclass(frozen=True)
class CostBand:
    """One shade of the map: the end positions whose cheapest MP lies in low..high."""

    index: int  # 0: where the ship stands (0 MP); higher, dearer
    low: int
    high: int

    @property
    def label(self) -> str:
        return f"{self.low} MP" if self.low == self.high else f"{self.low}\u2013{self.high} MP"


@dataclass(frozen=True)
class PlanMap:
    """Every hex the ship's bow can end in this turn, with its cheapest MP and its band."""

    ship: str
    mp_left: int
    costs: dict[Hex, int]
    bands: tuple[CostBand, ...]
    shades: dict[Hex, int] = field(default_factory=dict)  # hex -> band index


@dataclass(frozen=True)
class FacingChoice:
    """One way to end in the tapped hex: a facing (and, Quick-Start, whether the ship moved)."""

    ident: str
    facing: int
    name: str
    moved: bool
    mp_cost: int
    label: str
    half_hexes: bool  # Quick-Start: ending here leaves part of the ship in the half-hexes (destroyed)


@dataclass(frozen=True)
class TargetShot:
    """One enemy a gun would have in arc and range from the end position, with the odds."""

    target: str
    name: str
    summary: str  # "range 4, short"
    odds: str  # in percent, one line per location struck
    exact: str  # the same odds as exact fractions
    best: Fraction  # the likeliest outcome named, to rank targets


@dataclass(frozen=True)
class GunShots:
    gun: str  # "Bow 1: Heavy gun" (Quick-Start) or "Bow: Guns" (War Fleet)
    targets: tuple[TargetShot, ...]


#: (state, ship id, the end position reached) -> each gun's targets from there: each ruleset's own
#: (app/rulesets/<id>/planner_guns.py), handed to the planner by its table
GunsFrom = Callable[[Any, str, Reached], tuple[GunShots, ...]]


@dataclass(frozen=True)
class PlanView:
    """The tapped end position: its facings, the chosen one's path and guns, and "Move there"."""

    ship: str
    name: str
    hex_label: str
    choices: tuple[FacingChoice, ...]
    chosen: FacingChoice
    steps: tuple[str, ...]  # the path in words, in order
    trail: tuple[tuple[Hex, int], ...]  # the bow hex and facing after each step, the start first
    guns: tuple[GunShots, ...]
    action: dict[str, Any]  # move_along, or None-like {} when the ship stays where it stands
    problem: str | None  # why "Move there" cannot be taken now (apply's own words), None when it can

    @property
    def mp_cost(self) -> int:
        return self.chosen.mp_cost


# --- the reach and the map's shades ------------------------------------------------------------


def plan_reach(state: Any, ship_id: str) -> Reach:
    """Every end position of the ship this turn, by its game's rules (its ruleset's `reach`);
    Refusal in plain words for a ship out of play or a ruleset with no planner."""
    ruleset = ruleset_of_state(state)
    if ruleset.reach is None:
        raise Refusal(f"{ruleset.name} has no movement planner")
    found: Reach = ruleset.reach(state, ship_id)
    return found


def cost_bands(mp_left: int) -> tuple[CostBand, ...]:
    """0 MP (stays), then 1..mp_left split into at most BANDS even bands, cheapest first."""
    bands = [CostBand(0, 0, 0)]
    width = -(-mp_left // BANDS) if mp_left else 0
    low = 1
    while low <= mp_left:
        high = min(mp_left, low + width - 1)
        bands.append(CostBand(len(bands), low, high))
        low = high + 1
    return tuple(bands)


def band_of(cost: int, bands: tuple[CostBand, ...]) -> int:
    return next(b.index for b in bands if b.low <= cost <= b.high)


def plan_map(state: Any, ship_id: str, found: Reach | None = None) -> PlanMap:
    """The map's shading: each reachable bow hex by its cheapest MP, in bands (issue 17)."""
    found = found or plan_reach(state, ship_id)
    costs = found.costs()
    bands = cost_bands(max(costs.values(), default=0))
    return PlanMap(ship_id, found.mp_left, costs, bands, {cell: band_of(cost, bands) for cell, cost in costs.items()})


# --- a tapped end position -----------------------------------------------------------------------


def facings_at(found: Reach, cell: Hex) -> tuple[FacingChoice, ...]:
    """The ways to end with the bow in this hex, one per facing (and moved or not), cheapest first."""
    here = sorted(found.at(cell), key=lambda r: (r.position.facing, r.position.moved))
    both = {r.position.facing for r in here if not r.position.moved} & {r.position.facing for r in here
                                                                         if r.position.moved}
    choices = []
    for reached in here:
        facing, moved = reached.position.facing, reached.position.moved
        name = FACING_NAMES[facing]
        stays = facing in both and not moved
        label = f"{name} \u00b7 {reached.mp_cost} MP" + (" (not moved)" if stays else "") + (
            " \u26a0 half-hexes" if reached.half_hexes else "")
        choices.append(FacingChoice(f"plan-face-{name}" + ("-stays" if stays else ""), facing, name, moved,
                                    reached.mp_cost, label, reached.half_hexes))
    return tuple(choices)


def plan_view(state: Any, ship_id: str, cell: Hex, choice: str | None = None,
              found: Reach | None = None, guns: GunsFrom | None = None) -> PlanView | None:
    """The tapped end position (None when the ship cannot end there): its facings, the chosen one
    (`choice`, an ident; else the cheapest), its path, each gun's targets from there (`guns`, the
    ruleset's own: its table passes them; none when not given), and the `move_along` action with
    apply's reason when it cannot be taken now."""
    found = found or plan_reach(state, ship_id)
    choices = facings_at(found, cell)
    if not choices:
        return None
    chosen = next((c for c in choices if c.ident == choice), None) or min(choices, key=lambda c: (c.mp_cost, c.facing))
    reached = found.find(cell, chosen.facing, chosen.moved)
    assert reached is not None
    path = [dict(a) for a in reached.path]
    action: dict[str, Any] = {"kind": "move_along", "ship": ship_id, "steps": path} if path else {}
    problem = _move_problem(state, action) if path else "the ship already stands here, so there is no move to make"
    name = ruleset_of_state(state).ship_name(state.ship(ship_id))
    shots = guns(state, ship_id, reached) if guns is not None else ()
    return PlanView(ship_id, name, state.board.label(cell), choices, chosen, tuple(_step_words(a) for a in path),
                    trail(state, ship_id, reached), shots, action, problem)


def _move_problem(state: Any, action: dict[str, Any]) -> str | None:
    outcome = ruleset_of_state(state).apply(state, action)
    return outcome.reason if isinstance(outcome, Refused) else None


def _step_words(action: dict[str, Any]) -> str:
    kind = action["kind"]
    if kind == "step":
        return "forward" if action["step"] == "forward" else f"turn to {action['step']}"
    if kind == "pivot":
        return f"pivot to {FACING_NAMES[int(action['facing'])] if str(action['facing']).isdigit() else action['facing']}"
    if kind == "declare_turn":
        return "declare a turn" + (f" to {action['side']}" if action.get("side") else "")
    return kind.replace("_", " ")


def trail(state: Any, ship_id: str, reached: Reached) -> tuple[tuple[Hex, int], ...]:
    """Where the bow stands and faces after each action of the path, the start first (the path
    drawn on the map): the ruleset's own `trail`."""
    ruleset = ruleset_of_state(state)
    if ruleset.trail is None:
        raise Refusal(f"{ruleset.name} has no movement planner")
    return ruleset.trail(state, ship_id, reached.path)
