"""The shot advisor on the fire tab (issue 17 "Beyond paper"), as plain data: no flet.

Each gun's options ranked by what they are worth (engine/quick_start/advice.py: the chance of
destroying a slot, the expected slots, the chance of breaking the keel, the chance
of destroying the ship), the best marked; and the fire plan (engine/quick_start/fire_plan.py)
of the chosen shots of the selected ship or of its whole side: per target, the
chance of destroying it, exact where the outcomes combine exactly, else sampled
with its error stated ("sampled: 41.2% ± 1.5%").

The players' choices are kept by the view as `Choices`: a gun's chosen option, or
None for "no shot"; a gun not in it fires its best option (the default plan).
Shots declared and not yet rolled are in the plan as declared (they go at their
targets too); shots already rolled are on the target's card.

A plan of many shots at one target takes seconds to combine or sample (fire_plan.py), so the
view first asks `PlanCache` for a quick one (exact within `QUICK_BOUND` cards, else a few hundred
sampled runs, the wider error stated) and works out the full plan in the background.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from fractions import Fraction

from ....engine.quick_start.advice import GunAdvice, Option, advise, side_ships
from ....engine.quick_start.combat import Strike, firing_solution
from ....engine.quick_start.fire_plan import MAX_EXACT_CARDS, SAMPLES, Z, Figure, FirePlan, PlannedShot, TargetPlan, fire_plan
from ....engine.kernel import Refusal
from ....engine.quick_start.state import GameState, Shot
from ...viewmodels import location_name, percent

#: A gun of a ship: (ship, location, slot).
GunKey = tuple[str, str, int]
#: The players' choice per gun: the planned shot, or None for no shot (a gun not in it: its best).
Choices = dict[GunKey, PlannedShot | None]

SCOPES = ("ship", "side")
#: A first, quick plan combines at most this many cards exactly (the full bound, 4096, can take
#: seconds with a dozen shots at one target); past it, it samples the quick runs.
QUICK_BOUND = 256


@dataclass(frozen=True)
class OptionView:
    """One ranked option of a gun, with its four figures as the screen shows them."""

    ident: str  # "{location}-{slot}-{target}-{target location or d6}"
    rank: int  # 1 the best
    target: str
    target_name: str
    where: str  # "bow", "bow or stern (a d6 picks)", "stern (their side picks)"
    reach: str  # "range 6, long"
    pool: str
    slot: Fraction
    expected_slots: Fraction
    keel_break: Fraction
    ship_destroyed: Fraction
    best: bool
    planned: bool  # the gun's shot in the plan
    shot: PlannedShot

    @property
    def figures(self) -> str:
        """The four figures in one line (exact)."""
        return (f"slot {percent(self.slot)} · {slots_text(self.expected_slots)} · keel {percent(self.keel_break)}"
                f" · ship {percent(self.ship_destroyed)}")


@dataclass(frozen=True)
class GunAdviceView:
    attacker: str
    location: str
    slot: int
    name: str
    declared: bool
    options: tuple[OptionView, ...]

    @property
    def key(self) -> GunKey:
        return (self.attacker, self.location, self.slot)

    @property
    def ident(self) -> str:
        return f"{self.location}-{self.slot}"


@dataclass(frozen=True)
class PlanShotView:
    """One shot of the plan, with what Declare sends."""

    ident: str  # "{attacker}-{location}-{slot}"
    attacker: str
    location: str
    slot: int
    target: str
    text: str  # "Raven 4in (bow) at Pelletier bow"
    declared: bool  # declared already, not yet rolled
    declare_location: str | None  # the location DeclareShot names (None: a d6 or the target's side picks)


@dataclass(frozen=True)
class TargetPlanView:
    target: str
    name: str
    shots: int
    exact: bool
    destroyed: str  # "41.2%" or "sampled: 41.2% ± 1.5%"
    keel: str
    any_slot: str
    expected_slots: str
    how: str  # "exact: 25 outcomes combined" or "sampled: 4000 runs, error ±3 standard errors"


@dataclass(frozen=True)
class PlanView:
    scope: str  # ship or side
    title: str
    shots: tuple[PlanShotView, ...]
    targets: tuple[TargetPlanView, ...]
    problem: str | None = None  # the plan's refusal, in plain words
    refining: bool = False  # a quick plan: the full one is being worked out

    @property
    def to_declare(self) -> tuple[PlanShotView, ...]:
        return tuple(s for s in self.shots if not s.declared)


@dataclass(frozen=True)
class AdvisorView:
    """Everything the advisor shows for the selected ship."""

    ship: str
    ship_name: str
    side: str
    guns: tuple[GunAdviceView, ...]  # the guns with options, in the card's order
    plan: PlanView


# --- texts ------------------------------------------------------------------------------------


def slots_text(expected: Fraction) -> str:
    return f"{float(expected):.2f} slots"


def figure_text(figure: Figure, mean: bool = False) -> str:
    """An exact figure as "41.2%" (a mean as "0.41 slots"); a sampled one with its error stated."""
    shown = slots_text(figure.value) if mean else percent(figure.value)
    if figure.exact:
        return shown
    error = f"{figure.error:.2f}" if mean else f"{figure.error * 100:.1f}%"
    return f"sampled: {shown} ± {error}"


def reach_text(option: Option) -> str:
    return f"range {option.range}, {option.band}" if option.range is not None else option.band


# --- choices ------------------------------------------------------------------------------------


def gun_key(shot: PlannedShot | GunAdvice) -> GunKey:
    return (shot.attacker, shot.location, shot.slot)


def choose(choices: Choices, gun: GunKey, shot: PlannedShot | None) -> Choices:
    """The choices with this gun's shot chosen (None: the gun holds its fire)."""
    return {**choices, gun: shot}


def toggled(choices: Choices, option: OptionView) -> Choices:
    """Tap an option: into the plan as its gun's shot, or out of it (the gun then holds its fire)."""
    return choose(choices, gun_key(option.shot), None if option.planned else option.shot)


def chosen_shot(gun: GunAdvice, choices: Choices) -> PlannedShot | None:
    """The gun's shot in the plan: the players' choice while it is still one of its options,
    else its best option (None when nothing it can do is worth anything)."""
    key = gun_key(gun)
    if key in choices:
        choice = choices[key]
        if choice is None or any(o.shot == choice for o in gun.options):
            return choice
    return gun.best.shot if gun.best is not None else None


def declared_shot(gun: GunAdvice, shot: Shot) -> PlannedShot | None:
    """A declared, unrolled shot as planned: its named location, or the option its target's
    side would pick, or a d6 at the roll."""
    if shot.target_location is not None:
        return PlannedShot(shot.attacker, shot.location, shot.slot, shot.target, shot.target_location)
    option = next((o for o in gun.options if o.target == shot.target), None)
    return option.shot if option is not None else None


# --- views --------------------------------------------------------------------------------------


def option_view(state: GameState, option: Option, rank: int, planned: PlannedShot | None) -> OptionView:
    where = option.target_location or "d6"
    if option.target_location is None:
        names = " or ".join(location_name(s.location).lower() for s in _strikes(state, option))
        place = f"{names} (a d6 picks)"
    else:
        place = location_name(option.target_location).lower() + (
            " (their side picks)" if option.decided_by == "target" else "")
    v = option.value
    return OptionView(f"{option.location}-{option.slot}-{option.target}-{where}", rank, option.target,
                      state.ship(option.target).card.name, place, reach_text(option), option.pool,
                      v.slot, v.expected_slots, v.keel_break, v.ship_destroyed, option.best,
                      planned == option.shot, option.shot)


def _strikes(state: GameState, option: Option) -> list[Strike]:
    attacker, target = state.ship(option.attacker), state.ship(option.target)
    return firing_solution(attacker, option.location, option.slot, target, state.table_rules).strikes


def gun_view(state: GameState, gun: GunAdvice, choices: Choices) -> GunAdviceView:
    planned = None if gun.declared else chosen_shot(gun, choices)
    return GunAdviceView(gun.attacker, gun.location, gun.slot, gun.gun, gun.declared,
                         tuple(option_view(state, o, n, planned) for n, o in enumerate(gun.options, 1)))


def plan_shots(state: GameState, advice: dict[str, tuple[GunAdvice, ...]],
               choices: Choices) -> list[tuple[PlannedShot, bool, str | None]]:
    """The plan's shots: (shot, declared already, the location Declare names), in the cards' order."""
    out: list[tuple[PlannedShot, bool, str | None]] = []
    for ship_id, guns in advice.items():
        declared = {(s.location, s.slot): s for s in state.shots if s.attacker == ship_id and s.result is None}
        for gun in guns:
            if gun.declared:
                shot = declared.get((gun.location, gun.slot))
                planned = declared_shot(gun, shot) if shot is not None else None
                if planned is not None:
                    out.append((planned, True, shot.target_location if shot else None))
                continue
            planned = chosen_shot(gun, choices)
            if planned is not None:
                option = next(o for o in gun.options if o.shot == planned)
                out.append((planned, False, planned.target_location if option.decided_by == "attacker" else None))
    return out


def shot_text(state: GameState, shot: PlannedShot) -> str:
    attacker, target = state.ship(shot.attacker), state.ship(shot.target)
    gun = attacker.card.locations[shot.location].gun(shot.slot).name
    at = location_name(shot.target_location).lower() if shot.target_location else "(a d6 picks)"
    return f"{attacker.card.name} {gun} ({location_name(shot.location).lower()}) at {target.card.name} {at}"


def target_view(state: GameState, plan: TargetPlan) -> TargetPlanView:
    how = (f"exact: {plan.cards} outcomes combined" if plan.exact
           else f"sampled: {plan.samples} runs, error ±{Z} standard errors")
    return TargetPlanView(plan.target, state.ship(plan.target).card.name, len(plan.shots), plan.exact,
                          figure_text(plan.ship_destroyed), figure_text(plan.keel_break),
                          figure_text(plan.any_slot), figure_text(plan.expected_slots, mean=True), how)


class PlanCache:
    """The last few fire plans (a sampled one takes seconds): the same shots at the same ships
    give the same figures (the sampling roller is seeded), so a re-render does not sample again.

    Asked with `quick` runs, a plan not yet known is first worked out within `QUICK_BOUND` cards or
    else sampled with that many runs only (its wider error stated), and `pending` says the full plan
    is still to do (the view works it out in the background, then shows the closer figures)."""

    def __init__(self, size: int = 16):
        self.size = size
        self.pending = False
        self._plans: OrderedDict[tuple, FirePlan] = OrderedDict()

    def plan(self, state: GameState, shots: list[PlannedShot], runs: int = SAMPLES,
             bound: int = MAX_EXACT_CARDS, quick: int | None = None) -> FirePlan:
        ships = sorted({s.attacker for s in shots} | {s.target for s in shots})
        key = (tuple(shots), runs, bound, state.table_rules.model_dump_json(),
               tuple(state.ship(s).model_dump_json() for s in ships))
        found = self._plans.get(key)
        if found is not None:
            self._plans.move_to_end(key)
            return found
        if quick is not None:
            first = fire_plan(state, shots, runs=quick, bound=min(bound, QUICK_BOUND))
            if any(not t.exact for t in first.targets):
                self.pending = True
                return first
            found = first  # exact figures do not depend on the runs or the bound
        else:
            found = fire_plan(state, shots, runs=runs, bound=bound)
        self._plans[key] = found
        while len(self._plans) > self.size:
            self._plans.popitem(last=False)
        return found


def plan_view(state: GameState, ship_id: str, scope: str, choices: Choices,
              cache: PlanCache | None = None, runs: int = SAMPLES, bound: int = MAX_EXACT_CARDS,
              quick: int | None = None) -> PlanView:
    """The fire plan of the ship's guns (scope "ship") or of its whole side ("side")."""
    ship = state.ship(ship_id)
    ships = side_ships(state, ship.side) if scope == "side" else [ship_id]
    title = f"{ship.side}: every ship" if scope == "side" else ship.card.name
    advice = {s: advise(state, s) for s in ships}
    planned = plan_shots(state, advice, choices)
    shots = tuple(PlanShotView(f"{p.attacker}-{p.location}-{p.slot}", p.attacker, p.location, p.slot, p.target,
                               shot_text(state, p), declared, named) for p, declared, named in planned)
    try:
        plan = (cache or PlanCache()).plan(state, [p for p, _, _ in planned], runs, bound, quick)
    except Refusal as refusal:
        return PlanView(scope, title, shots, (), str(refusal))
    refining = quick is not None and any(not t.exact and t.samples == quick for t in plan.targets)
    return PlanView(scope, title, shots, tuple(target_view(state, t) for t in plan.targets), refining=refining)


def advisor_view(state: GameState, ship_id: str, scope: str = "ship", choices: Choices | None = None,
                 cache: PlanCache | None = None, runs: int = SAMPLES, bound: int = MAX_EXACT_CARDS,
                 quick: int | None = None) -> AdvisorView | None:
    """The advisor of the selected ship: its guns' ranked options and the fire plan (None once
    the ship left play)."""
    if not state.has_ship(ship_id) or state.ship(ship_id).removed:
        return None
    choices = choices or {}
    ship = state.ship(ship_id)
    guns = tuple(gun_view(state, g, choices) for g in advise(state, ship_id) if g.options)
    return AdvisorView(ship_id, ship.card.name, ship.side, guns,
                       plan_view(state, ship_id, scope if scope in SCOPES else "ship", choices, cache, runs, bound,
                                 quick))
