"""War Fleet in the app, without flet: the game's log, and everything its screen shows.

A War Fleet game is a game of the store like any other (its log folded
through the War Fleet ruleset, with undo and redo, saved after every change).
The functions below turn a War Fleet state into plain rows for
the screen: the ships on the map, the phase and the next step, the moves of
the selected ship, its attack options with exact odds, the declared attacks
and the pocket battles (the converted card beside its source: warfleet_card.py).
The views only draw these and send the actions they carry.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from ....engine.cards import Card
from ....engine.dice import Pool
from ....engine.hexes import FACING_NAMES, Hex
from ....engine.roller import Roller
from ....engine.quick_start.table_rules import rules_in_words
from ....engine.war_fleet import actions as A
from ....engine.war_fleet.arcs import in_firing_arc
from ....engine.war_fleet.combat import AttackOption, attack_option, attack_options
from ....engine.war_fleet.game import Applied, Refused, apply
from ....engine.war_fleet.pocket import PocketError, pocket_battle, pocket_outcome
from ....engine.war_fleet.scenario import build_warfleet_state, load_warfleet_scenario
from ....engine.war_fleet.state import WarFleetState, WarShip
from ....engine.war_fleet.turn import to_move, to_place
from ....store.game import Game
from ...viewmodels import ArcShade, location_name, percent
from ..steps import Banner, Choice, Step, log_lines  # noqa: F401 (M.log_lines)
from .card import converted_card, edited_stats  # noqa: F401  (M.converted_card in the views)
from ....files import read_json

SCENARIO_FILE = "war-fleet-20v20.json"
WAR_FLEET = "war-fleet"  # the ruleset id of War Fleet games in the store
Act = Callable[[Any], Any]  # an action -> Applied | Refused: a device's checked act, or the game's own

PHASES = {
    "setup": "Set-up", "initiative": "Initiative", "movement": "Movement", "combat": "Combat",
    "end": "End of turn", "over": "Game over",
}


# --- the games: War Fleet games in the store --------------------------------------------------


def war_fleet_games(store) -> list:
    """Every War Fleet game of the store, most recently played first (its summaries)."""
    return [summary for summary in store.games() if summary.ruleset == WAR_FLEET]


def twenty_against_twenty(catalogue: dict[str, Card], fleets_dir: Path, seed: str | None = None) -> WarFleetState:
    """The shipped 20-against-20 battle, ready for initiative, with its dice seed."""
    scenario = load_warfleet_scenario(read_json(fleets_dir / SCENARIO_FILE))
    return build_warfleet_state(scenario, catalogue, Roller.from_seed(seed or secrets.token_hex(16)))


# --- the map ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MapShip:
    """One ship as the map draws it: several may share a hex (`slot` of `crowd`)."""

    id: str
    label: str
    side: int  # the side's place in the game, for its colour
    cell: Hex
    facing: int
    slot: int
    crowd: int
    selected: bool
    done: bool  # finished its move (movement) or casualty / away
    casualty: bool
    damaged: int
    pocket: bool


def map_ships(state: WarFleetState, selected: str | None) -> tuple[MapShip, ...]:
    crowds: dict[Hex, list[WarShip]] = {}
    for ship in state.active_ships:
        if ship.placed:
            crowds.setdefault(ship.hex, []).append(ship)
    rows = []
    for cell, ships in crowds.items():
        for slot, ship in enumerate(ships):
            rows.append(MapShip(
                id=ship.id, label=ship.name.replace("HML ", ""),  # 'Raven 3', 'Leviathan'
                side=state.sides.index(ship.side) if ship.side in state.sides else 0,
                cell=cell, facing=ship.facing, slot=slot, crowd=len(ships), selected=ship.id == selected,
                done=ship.move_done and state.phase == "movement", casualty=ship.casualty,
                damaged=len(ship.destroyed), pocket=ship.pocket is not None,
            ))
    return tuple(rows)


def token_spot(layout, ship: MapShip) -> tuple[float, float, float]:
    """Where a ship's token stands on a map drawn by `layout` (a HexLayout): its centre and radius,
    several to a hex in a ring (the tokens' drawing and the TV's labels read the same spot)."""
    cx, cy = layout.centre(ship.cell)
    radius = layout.size * (0.5 if ship.crowd == 1 else 0.3)
    if ship.crowd > 1:
        angle = 2 * math.pi * ship.slot / ship.crowd - math.pi / 2
        cx += layout.size * 0.42 * math.cos(angle)
        cy += layout.size * 0.42 * math.sin(angle)
    return cx, cy, radius


def next_on_tap(state: WarFleetState, cell: Hex, selected: str | None) -> str | None:
    """Tapping a hex selects its ship; tapping again cycles through the ships sharing it."""
    here = [s.id for s in state.active_ships if s.placed and s.hex == cell]
    if not here:
        return None
    if selected in here:
        return here[(here.index(selected) + 1) % len(here)]
    return here[0]


def arc_shades(state: WarFleetState, ship_id: str) -> tuple[ArcShade, ...]:
    """Each firing location's arc (turret arc included) out to its long range, short band darker."""
    ship = state.ship(ship_id)
    if not ship.placed or ship.removed:
        return ()
    shades = []
    for name, loc in ship.locations.items():
        if not ship.fires(name):
            continue
        attack = loc.attack
        assert attack is not None  # a location that fires has its attack
        bands: dict[str, list[Hex]] = {"short": [], "long": []}
        for cell in state.board.cells():
            distance = ship.hex.distance(cell)
            if distance == 0 or distance > attack.long.range:
                continue
            if in_firing_arc(ship.hex, ship.facing, name, cell, attack.turret, ship.locations,
                             state.settings.table_rules):
                bands["short" if distance <= attack.short.range else "long"].append(cell)
        shades += [ArcShade(name, band, tuple(cells)) for band, cells in bands.items() if cells]
    return tuple(shades)


# --- the banner: phase and the next step ---------------------------------------------------------


def banner(state: WarFleetState) -> Banner:
    """The phase's banner; its detail names the table rules the game changed."""
    told = _phase_banner(state)
    extra = rules_in_words(None, state.settings.table_rules)
    return replace(told, detail=told.detail + extra) if extra else told


def _phase_banner(state: WarFleetState) -> Banner:
    title = f"Turn {state.turn} · {PHASES.get(state.phase, state.phase)}"
    if state.phase == "over":
        return Banner("Game over", state.result or "", ())
    if state.phase == "setup":
        turn = to_place(state)
        if state.placement_first is None:
            return Banner(title, f"Each side rolls {state.settings.initiative_dice}; the loser places first.",
                          (Step("wf-roll-placement", "Roll for placement", A.RollPlacement()),))
        assert turn is not None  # in setup a ship is still to be placed
        side, ship_class = turn
        return Banner(title, f"{side} places a class {ship_class} ship: select it, then tap its hex.", ())
    if state.phase == "initiative":
        return Banner(title, f"Each side rolls {state.settings.initiative_dice}, ties rolled again.",
                      (Step("wf-roll-initiative", "Roll initiative", A.RollInitiative()),))
    if state.phase == "movement":
        group = to_move(state)
        detail = f"Initiative: {state.initiative}. " + (
            f"{group[0]}: class {group[1]} ships move now (initiative loser first)." if group else "")
        return Banner(title, detail, (
            Step("wf-end-group", "End this group's moves", A.EndGroup()),
            Step("wf-end-movement", "End movement", A.EndMovement(), _unmoved(state)),
        ))
    if state.phase == "combat":
        waiting = [a for a in state.attacks if a.result is None]
        declared = len(state.attacks)
        detail = (f"{declared} attack{'s' if declared != 1 else ''} declared, {len(waiting)} to roll. "
                  "Declare every attack, then roll." if not state.firing else
                  f"Rolling: {len(waiting)} declared attack{'s' if len(waiting) != 1 else ''} left.")
        steps = []
        if waiting:
            steps.append(Step("wf-roll-all", "Roll every declared attack", "roll-all"))
        steps.append(Step("wf-end-combat", "End combat", A.EndCombat()))
        return Banner(title, detail, tuple(steps))
    if state.phase == "end":
        return Banner(title, "Damage has taken effect; casualties have left the map.",
                      (Step("wf-end-turn", "End turn", A.EndTurn()),))
    return Banner(title, "", ())


def _unmoved(state) -> str:
    """The question before ending movement while ships have not moved (they stay put), or ""."""
    names = [s.name for s in state.active_ships if s.placed and not s.move_done and not s.mp_spent and not s.pivoted]
    if not names:
        return ""
    listed = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
    return f"{len(names)} ship{'s have' if len(names) != 1 else ' has'} not moved: {listed}. They stay where they are."


def roll_all(game: Game, act: Act | None = None) -> list[Applied | Refused]:
    """Roll every declared attack not yet rolled, in the order declared (through `act`: a device's
    checked act on a shared table; the game's own by default)."""
    act = act or game.act
    return [act(A.RollAttack(attack=attack.id)) for attack in list(game.state.attacks) if attack.result is None]


# --- the selected ship: movement --------------------------------------------------------------------


def moves(state: WarFleetState, ship_id: str) -> tuple[Choice, ...]:
    """The steps the selected ship can take now, each with why not when it cannot."""
    ship = state.ship(ship_id)
    if state.phase != "movement" or ship.removed or not ship.placed:
        return ()
    candidates = [
        Choice("wf-forward", "Forward", A.Step(ship=ship_id, step="forward")),
        Choice("wf-port", "Turn to port", A.Step(ship=ship_id, step="port")),
        Choice("wf-starboard", "Turn to starboard", A.Step(ship=ship_id, step="starboard")),
    ] + [
        Choice(f"wf-pivot-{name}", f"Pivot to {name}", A.Pivot(ship=ship_id, facing=name))
        for name in FACING_NAMES if FACING_NAMES.index(name) != ship.facing
    ] + [Choice("wf-end-move", "End move", A.EndMove(ship=ship_id))]
    return tuple(replace(m, problem=outcome.reason if isinstance(outcome := apply(state, m.action), Refused) else None)
                 for m in candidates)


# --- attacks with exact odds ------------------------------------------------------------------------


@dataclass(frozen=True)
class StrikeRow:
    location: str
    destroyed: str
    casualty: str
    exact: str  # the fractions
    action: Any


@dataclass(frozen=True)
class OptionRow:
    title: str
    detail: str
    dice: tuple[str, ...]
    strikes: tuple[StrikeRow, ...]


def _dice(pool: Pool | None) -> tuple[str, ...]:
    return tuple(d.value for d in pool) if pool else ()


def option_row(state: WarFleetState, option: AttackOption) -> OptionRow:
    target = state.ship(option.target)
    guns = " + ".join(location_name(loc) for loc in option.locations)
    kind = "Bracket: " if option.bracket else ""
    title = f"{kind}{guns} {option.name} at {target.name}".replace("  ", " ")
    parts = [f"range {option.range}", "/".join(sorted(set(option.bands.values())))]
    if option.rolls > 1:
        parts.append(f"{option.rolls} rolls (saturation)")
    parts += [f"dialled up {n} ({why})" for why, n in option.dial_ups]
    if any(r == "turret" for r in option.reach.values()):
        parts.append("turret")
    strikes = tuple(
        StrikeRow(
            location=location_name(s.location),
            destroyed=percent(s.odds.location_destroyed),
            casualty=percent(s.odds.casualty),
            exact=f"{s.odds.location_destroyed} / {s.odds.casualty}",
            action=A.DeclareAttack(attacker=option.attacker, locations=list(option.locations), target=option.target,
                                   target_location=s.location),
        )
        for s in option.strikes
    )
    return OptionRow(title, ", ".join(parts), _dice(option.pool), strikes)


def option_rows(state: WarFleetState, ship_id: str) -> tuple[OptionRow, ...]:
    """Every attack the ship can declare now, best chance of a casualty first."""
    if state.phase != "combat" or state.firing:
        return ()
    found = attack_options(state, ship_id)
    found.sort(key=lambda o: -max((s.odds.casualty for s in o.strikes), default=Fraction(0)))
    return tuple(option_row(state, o) for o in found)


@dataclass(frozen=True)
class DeclaredRow:
    id: int
    title: str
    odds: str
    dice: tuple[str, ...]
    result: str | None
    roll: Any
    cancel: Any


def declared_rows(state: WarFleetState) -> tuple[DeclaredRow, ...]:
    """The declared attacks, with their exact odds as the target stands now, and results once rolled."""
    rows = []
    for attack in state.attacks:
        attacker, target = state.ship(attack.attacker), state.ship(attack.target)
        guns = " + ".join(location_name(loc) for loc in attack.locations)
        title = f"{attack.id}. {attacker.name} {guns} at {target.name}'s {location_name(attack.target_location).lower()}"
        odds = ""
        dice: tuple[str, ...] = ()
        if attack.result is None:
            option = attack_option(state.model_copy(update={"attacks": []}), attacker, tuple(attack.locations), target)
            strike = option.strike(attack.target_location) if option.possible else None
            if strike is not None:
                odds = (f"destroys the {location_name(attack.target_location).lower()} {percent(strike.odds.location_destroyed)}"
                        f", casualty {percent(strike.odds.casualty)}")
                dice = _dice(option.pool)
            elif target.casualty:
                odds = f"{target.name} is already a casualty"
        rows.append(DeclaredRow(
            id=attack.id, title=title, odds=odds, dice=dice,
            result=attack.result.text if attack.result else None,
            roll=A.RollAttack(attack=attack.id), cancel=A.CancelAttack(attack=attack.id),
        ))
    return tuple(rows)


# --- pockets ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PocketRow:
    id: int
    ships: str
    open: bool
    game_id: str | None
    outcome: str


def near(state: WarFleetState, ship_id: str, reach: int = 1) -> list[str]:
    """The ship and every ship in play within `reach` hexes of it (a pocket to fight in detail)."""
    ship = state.ship(ship_id)
    return [s.id for s in state.active_ships
            if s.placed and s.pocket is None and not s.casualty and s.hex.distance(ship.hex) <= reach]


def pocket_rows(game: Game) -> tuple[PocketRow, ...]:
    rows = []
    for pocket in game.state.pockets:
        names = ", ".join(game.state.ship(s).name for s in pocket.ships)
        outcome = ""
        if pocket.outcome:
            lost = [f"{game.state.ship(s).name}: " + ("casualty" if o.casualty else
                                                       ", ".join(location_name(l).lower() for l in o.destroyed_locations)
                                                       + " destroyed")
                    for s, o in pocket.outcome.items() if o.casualty or o.destroyed_locations]
            outcome = "; ".join(lost) or "no damage"
        rows.append(PocketRow(pocket.id, names, pocket.open, pocket.game, outcome))
    return tuple(rows)


def open_pocket(game: Game, ship_ids: list[str], store, name: str, act: Act | None = None) -> tuple[str | None, str]:
    """Send the ships to a pocket battle: a Quick-Start game in the store with their full cards,
    then the War Fleet action naming that game.  (Quick-Start game id or None, a message)."""
    with game.lock:
        try:
            battle = pocket_battle(game.state, ship_ids)
        except PocketError as exc:
            return None, str(exc)
        probe = apply(game.state, A.OpenPocket(ships=ship_ids))
        if isinstance(probe, Refused):
            return None, probe.reason
        quick = store.new_game(battle.model_copy(update={"roller": Roller(seed="00")}), name)
        outcome = (act or game.act)(A.OpenPocket(ships=ship_ids, game=quick.id))
        if isinstance(outcome, Refused):  # not saved: the Quick-Start game goes too (to the store's deleted folder)
            store.delete(quick.id)
            return None, outcome.reason
        return quick.id, outcome.events[-1].text


def bring_back(game: Game, pocket_id: int, store, act: Act | None = None) -> Applied | Refused:
    """Read the pocket's Quick-Start game as it stands and bring its result into War Fleet."""
    game_id = next((p.game for p in game.state.pockets if p.id == pocket_id), None)
    if game_id is None:
        return Refused(f"pocket battle {pocket_id} has no Quick-Start game in this app")
    try:
        quick = store.game(game_id)
    except KeyError:
        return Refused(f"the Quick-Start game of pocket battle {pocket_id} is gone")
    return (act or game.act)(A.ResolvePocket(pocket=pocket_id, ships=pocket_outcome(quick.state)))
