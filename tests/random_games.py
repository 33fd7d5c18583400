"""Random legal games, for tests that need many games (store, replay, kill tests).

`starting_state(seed)` sets up a small Quick-Start-like table from cards built
here (so the tests do not depend on the shipped fleet files); `next_action`
picks a random legal action for any state; `play(game, rng, n)` drives a live
`Game` (anything with `state` and `act`), sprinkling undo and redo.

A random legal turn: roll initiative; each ship in movement order takes some
legal steps and ends its move (if it may not end there because of stacking, it
tries another step or is placed on a free hex); in combat every gun that can
fire may declare a shot, each shot is resolved with the game's roller; then
the turn ends.
"""

from __future__ import annotations

import random
from typing import Any

from companion.engine.board import Board
from companion.engine.cards import Card
from companion.engine.quick_start.combat import firing_solutions
from companion.engine.footprint import Placement
from companion.engine.hexes import Hex
from companion.engine.quick_start.movement import legal_steps, placement_problem, stacking_problem
from companion.engine.roller import Roller
from companion.engine.quick_start.state import GameState, ShipState
from companion.engine.quick_start.turn import to_move

LOCATIONS = ("bow", "port", "starboard", "stern")


def _gun(name: str, short: int, long: int, near: str, far: str, breach: int) -> dict:
    return {"kind": "gun", "name": name, "short": {"range": short, "dice": near},
            "long": {"range": long, "dice": far}, "breach": breach}


def _location(go: str, stop: str, slots: list[dict]) -> dict:
    assert len(slots) == 6
    return {"go": go, "stop": stop, "slots": slots}


def cruiser(card_id: str, name: str, faction: str) -> Card:
    """A Type 2 light cruiser, in the spirit of the Quick-Start cards."""
    def side(gun: str) -> dict:
        return _location("DBlack", "2DRed", [
            _gun(gun, 4, 8, "DYellow", "DBlue", 11), {"kind": "crew", "dice": "DGreen", "breach": 12},
            {"kind": "armor", "breach_modifier": 1, "breach": 13}, _gun(gun, 4, 8, "DYellow", "DBlue", 15),
            {"kind": "engine", "mp": 3, "breach": 16}, {"kind": "miss"}])
    return Card.model_validate({
        "id": card_id, "name": name, "class": "Light Cruiser", "faction": faction, "type": 2,
        "structural_integrity": 20, "enter_hexes_before_turn": 2,
        "locations": {
            "bow": _location("DBlack", "2DRed", [
                _gun("6 IN", 6, 12, "DYellow", "DBlue", 12), {"kind": "crew", "dice": "DGreen", "breach": 12},
                {"kind": "tesla_coil", "breach": 13}, {"kind": "miss"},
                {"kind": "engine", "mp": 3, "breach": 14}, {"kind": "other", "label": "Bridge", "breach": 13}]),
            "port": side("3 IN"),
            "starboard": side("3 IN"),
            "stern": _location("DBlack", "2DRed", [
                _gun("5 IN", 5, 10, "DYellow", "DBlue", 12), {"kind": "crew", "dice": "DBlue", "breach": 12},
                {"kind": "engine", "mp": 6, "breach": 13}, {"kind": "miss"},
                {"kind": "armor", "breach_modifier": 1, "breach": 14}, {"kind": "miss"}]),
        },
    })


def destroyer(card_id: str, name: str, faction: str) -> Card:
    """A Type 1 destroyer, in the spirit of the Quick-Start cards."""
    def location(gun: bool) -> dict:
        return _location("DBlack", "2DRed", [
            _gun("3 IN", 4, 8, "DBlue", "DGreen", 11) if gun else {"kind": "miss"},
            {"kind": "crew", "dice": "DGreen", "breach": 12},
            {"kind": "armor", "breach_modifier": 1, "breach": 13},
            {"kind": "engine", "mp": 3, "breach": 12}, {"kind": "tesla_coil", "breach": 13},
            {"kind": "miss"}])
    return Card.model_validate({
        "id": card_id, "name": name, "class": "Destroyer", "faction": faction, "type": 1,
        "structural_integrity": 18, "enter_hexes_before_turn": 1,
        "locations": {"bow": location(True), "port": location(True),
                      "starboard": location(False), "stern": location(True)},
    })


def quick_cards() -> dict[str, Card]:
    cards = [cruiser("hml-hertfordshire", "HML Hertfordshire", "British"),
             destroyer("hml-raven", "HML Raven", "British"),
             cruiser("pontbriand", "Pontbriand", "French"),
             destroyer("pelletier", "Pelletier", "French")]
    return {card.id: card for card in cards}


def starting_state(seed: int | str = 1, board: Board | None = None) -> GameState:
    """Two ships a side facing each other across a small board, initiative to roll."""
    board = board or Board(columns=17, rows=13)
    cards = quick_cards()
    mid = board.rows // 2
    setup = [  # (id, side, card, column, row, facing): British face NE, French face SW
        ("hertfordshire", "British", "hml-hertfordshire", 4, mid, 1),
        ("raven", "British", "hml-raven", 4, mid + 3, 1),
        ("pontbriand", "French", "pontbriand", board.columns - 3, mid, 4),
        ("pelletier", "French", "pelletier", board.columns - 3, mid - 3, 4),
    ]
    ships = [ShipState(id=i, side=s, card=cards[c], column=col, row=row, facing=f)
             for i, s, c, col, row, f in setup]
    return GameState(board=board, ships=ships, sides=["British", "French"],
                     roller=Roller.from_seed(seed))


# --- choosing actions ---------------------------------------------------------------


def next_action(state: GameState, rng: random.Random) -> dict[str, Any] | None:
    """A random legal action for this state (None when the game is over)."""
    if state.phase == "over":
        return None
    if state.phase == "setup":
        return {"kind": "start_game"}
    if state.phase == "initiative":
        return {"kind": "roll_initiative"}
    if state.phase == "movement":
        return _movement_action(state, rng)
    return _combat_action(state, rng)


def _movement_action(state: GameState, rng: random.Random) -> dict[str, Any]:
    side, ship_type = to_move(state)
    ship = next(s for s in state.active_ships
                if s.side == side and s.card.type == ship_type and not s.move_done)
    steps = [step for step, problem in legal_steps(ship, state.board).items() if problem is None]
    # Keep away from the half-hexes mostly: they destroy a ship that ends its move there.
    safe = [s for s in steps if not _edge_after(state, ship, s)] or steps
    if safe and (ship.mp_spent < 2 or rng.random() < 0.6):
        weights = [4 if s == "forward" else 1 for s in safe]
        return {"kind": "step", "ship": ship.id, "step": rng.choices(safe, weights)[0]}
    if stacking_problem(state, ship) is None:
        return {"kind": "end_move", "ship": ship.id}
    if safe:
        return {"kind": "step", "ship": ship.id, "step": rng.choice(safe)}
    spot = free_placement(state, ship)
    return {"kind": "place", "ship": ship.id, "bow": state.board.label(spot.bow), "facing": spot.facing}


def _edge_after(state: GameState, ship: ShipState, step: str) -> bool:
    from companion.engine.quick_start.movement import take_step
    moved = take_step(ship, step, state.board)
    return any(state.board.in_half_hex_ring(c) for c in moved.hexes)


def free_placement(state: GameState, ship: ShipState) -> Placement:
    """The nearest placement (same facing) where the ship stands alone on the board."""
    for radius in range(0, max(state.board.columns, state.board.rows)):
        for dq in range(-radius, radius + 1):
            for dr in range(-radius, radius + 1):
                if Hex(dq, dr).distance() != radius:
                    continue
                placement = Placement(ship.bow + Hex(dq, dr), ship.facing, ship.card.type)
                if placement_problem(state, ship, placement) is None:
                    return placement
    raise AssertionError("no free hex on the board")


def _combat_action(state: GameState, rng: random.Random) -> dict[str, Any]:
    pending = [shot for shot in state.shots if shot.result is None]
    if pending:
        shot = rng.choice(pending)
        if rng.random() < 0.05:
            return {"kind": "cancel_shot", "shot": shot.id}
        return {"kind": "resolve_shot", "shot": shot.id}
    if rng.random() < 0.03:
        return _hand_mark(state, rng)
    if rng.random() < 0.1:
        return {"kind": "end_turn"}
    fired = {(s.attacker, s.location, s.slot) for s in state.shots}
    ships = list(state.active_ships)
    rng.shuffle(ships)
    for ship in ships:  # the first ship (in random order) with a gun that can still fire
        options = [solution for solution in firing_solutions(state, ship.id)
                   if solution.strikes and (ship.id, solution.location, solution.slot) not in fired]
        if options:
            solution = rng.choice(options)
            return {"kind": "declare_shot", "attacker": solution.attacker, "location": solution.location,
                    "slot": solution.slot, "target": solution.target,
                    "target_location": rng.choice(solution.strikes).location}
    return {"kind": "end_turn"}


def _hand_mark(state: GameState, rng: random.Random) -> dict[str, Any]:
    ship = rng.choice(state.active_ships)
    location = rng.choice(list(ship.card.locations))
    slots = [n for n, slot in enumerate(ship.card.locations[location].slots, 1) if slot.kind != "miss"]
    return {"kind": "mark_slot", "ship": ship.id, "location": location, "slot": rng.choice(slots),
            "status": "destroyed_this_turn"}


# --- driving a game ---------------------------------------------------------------


def play(game, rng: random.Random, actions: int, undo_rate: float = 0.05) -> int:
    """Act `actions` times on a live game (undo and redo now and then); returns how many."""
    done = 0
    while done < actions:
        roll = rng.random()
        if roll < undo_rate and game.can_undo:
            game.undo()
        elif roll < 2 * undo_rate and game.can_redo:
            game.redo()
        else:
            action = next_action(game.state, rng)
            if action is None:
                break
            outcome = game.act(action)
            assert outcome.ok, (action, outcome.reason)
        done += 1
    return done


def random_log(seed: int, length: int = 400) -> tuple[GameState, list[dict[str, Any]]]:
    """A starting state and a list of legal actions (no undo), played to the end or `length`."""
    from companion.engine.quick_start.game import apply

    rng = random.Random(seed)
    initial = state = starting_state(seed)
    log: list[dict[str, Any]] = []
    while len(log) < length:
        action = next_action(state, rng)
        if action is None:
            break
        outcome = apply(state, action)
        assert outcome.ok, (action, outcome.reason)
        state = outcome.state
        log.append(action)
    return initial, log


def close_battle(seed: int | str = 1) -> GameState:
    """The four ships closed to battle in the middle of a 40 x 30 board (three hexes of sky
    between the lines), in the combat phase, French first: what the TV zooms to."""
    from companion.engine.quick_start import actions as A
    from companion.engine.quick_start.game import apply

    board = Board(columns=40, rows=30)
    cards = quick_cards()
    setup = [("hertfordshire", "British", "hml-hertfordshire", 16, 14, 1), ("raven", "British", "hml-raven", 16, 17, 1),
             ("pontbriand", "French", "pontbriand", 22, 12, 4), ("pelletier", "French", "pelletier", 22, 15, 4)]
    ships = [ShipState(id=i, side=s, card=cards[c], column=col, row=row, facing=f) for i, s, c, col, row, f in setup]
    state = GameState(board=board, ships=ships, sides=["British", "French"], roller=Roller.from_seed(seed))
    for action in (A.SetInitiative(side="French"), A.EndMovement()):
        state = apply(state, action).state
    return state


# --- any ruleset through its own options -------------------------------------------------------

#: The actions a steered game takes first when one is possible: declaring and rolling attacks.
ATTACKING = frozenset({"declare_attack", "roll_attack", "end_activation"})


def dv_attack_offers(state: Any) -> list[dict[str, Any]]:
    """Decisive Victory's attacks, which its options do not offer (the distance is measured at the
    table): each system of each ship that may attack now against each target it may be declared
    against, at 10", and each such ship's end of activation once its attacks are rolled; and what
    the damage calls for (system rolls, maintenance steps, abandon ship, smoke drift)."""
    from companion.engine.decisive_victory.attacks import attack_options

    offers = _dv_upkeep(state)
    if state.phase != "attacks":
        return offers
    for ship in (s for s in state.ships if s.in_play):
        options = attack_options(state, ship)
        if options.problem:
            continue
        offers += [{"kind": "declare_attack", "ship": ship.id, "system": system.system, "target": target,
                    "distance": "10"}
                   for system in options.systems if system.problem is None for target in system.targets]
        if not options.to_roll:
            offers.append({"kind": "end_activation", "ship": ship.id})
    return offers


def _dv_upkeep(state: Any) -> list[dict[str, Any]]:
    """The rolls and choices Decisive Victory's damage calls for, which its options leave out."""
    from companion.engine.decisive_victory.maintenance import next_due

    offers: list[dict[str, Any]] = []
    for ship in (s for s in state.ships if s.in_play):
        due = next_due(state, ship)
        if due is None:
            continue
        if due[0] == "abandon":
            offers += [{"kind": "pay_abandon", "ship": ship.id}, {"kind": "abandon", "ship": ship.id}]
        else:
            offers.append({"kind": "maintenance_roll", "ship": ship.id, "step": due[0]})
    if state.phase == "maintenance":
        offers += [{"kind": "drift_smoke", "smoke": s.id} for s in state.smoke if s.drifted_turn != state.turn]
    return offers


def options_game(ruleset: Any, initial: Any, seed: int, length: int, offers: Any = None) -> tuple[Any, list[dict[str, Any]]]:
    """A random game through the ruleset's own options: each step one possible option, chosen by a
    seeded rng.  `offers(state)`: more actions to try (those the options leave out); when given, the
    game is steered to attack: a possible declaration, roll or end of activation is taken first."""
    rng = random.Random(seed)
    state, log = initial, []
    while len(log) < length and state.phase != "over":
        possible = [o.action for o in ruleset.options(state) if o.possible]
        if offers is not None:
            possible += [a for a in offers(state) if ruleset.apply(state, a).ok]
        assert possible, f"no possible option in the {state.phase} phase"
        attacking = [a for a in possible if a["kind"] in ATTACKING] if offers is not None else []
        action = rng.choice(attacking or possible)
        state = ruleset.apply(state, action).state
        log.append(action)
    return state, log
