"""What Quick-Start and War Fleet share, written once: the actions that mean the
same in both, the parts of a game's state alike in both, and the handlers (or
pieces of handlers) whose rules are the same.

Each ruleset's `game.py` builds its `HANDLERS` from these and its own; the
kernel (kernel.py) runs them.
"""

from __future__ import annotations

from typing import Annotated, Any, Callable, Generic, Literal, Mapping, Protocol, Sequence, TypeVar

from pydantic import BaseModel, ConfigDict, Strict, ValidationError

from .cards import format_error
from .dice import Pool
from .kernel import Event, Refusal, RefusalKind, Work
from .roller import DiceSource, DieRoll, NeedDice, RollerDice, TableDice, check_face

#: true or false, never "yes" nor 1 (an action read from a log or a file)
Flag = Annotated[bool, Strict()]
T = TypeVar("T")


# --- actions that mean the same in both rulesets --------------------------------------


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SetInitiative(_Action):
    """The table decided initiative some other way: `side` wins."""

    kind: Literal["set_initiative"] = "set_initiative"
    side: str


class Step(_Action):
    """1 MP: forward into the faced hex, or turn one hexside."""

    kind: Literal["step"] = "step"
    ship: str
    step: Literal["forward", "port", "starboard"]


class EndMove(_Action):
    kind: Literal["end_move"] = "end_move"
    ship: str


class EndMovement(_Action):
    """Skip the remaining moves: every ship that has not moved stays put."""

    kind: Literal["end_movement"] = "end_movement"


class EndTurn(_Action):
    kind: Literal["end_turn"] = "end_turn"


class Concede(_Action):
    kind: Literal["concede"] = "concede"
    side: str


class SetBookkeeping(_Action):
    """Turn the rule checks off (or on): warnings instead of refusals."""

    kind: Literal["set_bookkeeping"] = "set_bookkeeping"
    on: Flag


def action_parser(envelope: type[BaseModel], handlers: Any, words: str) -> Callable[[Any], Any]:
    """`parse_action` of a ruleset: an action object from data in a log or a file, or a
    MALFORMED `Refusal` saying what and where (`words`: "not an action", ...)."""
    def parse(action: Any) -> Any:
        if isinstance(action, _Action):
            pass
        elif isinstance(action, dict):
            try:
                action = getattr(envelope(action=action), "action")
            except ValidationError as exc:  # malformed action data: one plain line, what and where
                raise Refusal(f"{words}: {_action_problem(exc)}", RefusalKind.MALFORMED) from None
        else:  # not even a mapping pydantic can read
            raise Refusal(f"{words}: {action!r}", RefusalKind.MALFORMED)
        if getattr(action, "kind", None) not in handlers:
            raise Refusal(f"{words}: {action!r}", RefusalKind.MALFORMED)
        return action
    return parse


def _action_problem(exc: ValidationError) -> str:
    """What is wrong with an action's data and where, in one line: `facing: true is not a facing`."""
    error = format_error(exc)
    parts = error.path.split(".")
    path = ".".join(parts[2:]) if len(parts) > 2 and parts[0] == "action" else ""
    return f"{path}: {error.problem}" if path else error.problem


# --- state -------------------------------------------------------------------------------


class InitiativeRoll(BaseModel):
    side: str
    dice: list[DieRoll]

    @property
    def total(self) -> int:
        return sum(d.face for d in self.dice)


class ShipLike(Protocol):
    """What the `Ships` mixin reads of a ship: its id and whether it has left play."""

    @property
    def id(self) -> str: ...

    @property
    def removed(self) -> object: ...  # truthy once the ship has left play (a bool, or DV's record of how)


Ship = TypeVar("Ship", bound=ShipLike)


class Ships(Generic[Ship]):
    """The ships of a game's state, by id (a mixin of every ruleset's state, a pydantic model)."""

    ships: Sequence[Ship]

    def ship(self, ship_id: str) -> Ship:
        for ship in self.ships:
            if ship.id == ship_id:
                return ship
        raise KeyError(ship_id)

    def has_ship(self, ship_id: str) -> bool:
        return any(ship.id == ship_id for ship in self.ships)

    def with_ship(self, ship: Ship) -> Any:
        ships = [ship if s.id == ship.id else s for s in self.ships]
        assert isinstance(self, BaseModel), "Ships is a mixin of a pydantic state"
        return self.model_copy(update={"ships": ships})

    @property
    def active_ships(self) -> list[Ship]:
        return [s for s in self.ships if not s.removed]


# --- handlers and pieces of handlers alike in both rulesets ------------------------------


def roll_off(work: Work[Any], faces: dict[str, list[int]] | None, pool: Pool,
             decide: Callable[[list[InitiativeRoll]], T | None], words: Callable[[list[InitiativeRoll]], str],
             tie: str, kept: str) -> tuple[T, list[InitiativeRoll]] | None:
    """Every side rolls `pool` (or enters the faces it rolled) until `decide` finds no tie: what it
    decided and the decisive rolls, or None when the faces entered tie.  Each tie is told (event
    `tie`, the rolls in `words`) and kept in `state.<kept>`."""
    while True:
        if faces is not None:
            rolls = [InitiativeRoll(side=side, dice=_entered(faces, side, pool)) for side in work.state.sides]
        else:
            dice = RollerDice(work.state.roller)
            rolls = [InitiativeRoll(side=side, dice=[dice.take(c, "pool") for c in pool]) for side in work.state.sides]
            work.update(roller=dice.roller)
        decided = decide(rolls)
        if decided is not None:
            return decided, rolls
        work.event(tie, f"{words(rolls)}. A tie: roll again.", rolls=dumped(rolls))
        work.update(**{kept: rolls})
        if faces is not None:
            return None


def _entered(faces: dict[str, list[int]], side: str, pool: Pool) -> list[DieRoll]:
    if side not in faces or len(faces[side]) != len(pool):
        raise Refusal(f"enter {pool.notation} for {side} ({len(pool)} face{'s' if len(pool) > 1 else ''})")
    for colour, face in zip(pool, faces[side]):
        try:
            check_face(colour, face)
        except ValueError as exc:
            raise Refusal(str(exc)) from None
    return [DieRoll(colour=c, face=f) for c, f in zip(pool, faces[side])]


def dumped(rolls: list[InitiativeRoll]) -> list[dict[str, Any]]:
    return [r.model_dump(mode="json") for r in rolls]


def check_side(work: Work[Any], side: str) -> None:
    if side not in work.state.sides:
        raise Refusal(f"there is no side '{side}'")


def choose_location(work: Work[Any], chosen: str | None, choices: list[str], locations: Sequence[str],
                    target: str, noun: str, name: Callable[[str], str] = str) -> str:
    """The target location a declared shot (or attack) strikes: the one chosen, or the only
    one it can strike; the target's first location when it can strike none."""
    if chosen is None:
        if len(choices) > 1:
            raise Refusal(f"the {noun} can strike the {' or the '.join(map(name, choices))}: choose one")
        return choices[0] if choices else next(iter(locations))
    if chosen not in locations:
        raise Refusal(f"{target} has no location '{chosen}'")
    if chosen not in choices:
        joined = " or the ".join(map(name, choices)) if noun == "attack" else " or ".join(choices)
        work.rule(f"from there the {noun} can strike only the {joined or 'nothing'}")
    return chosen


def declared(work: Work[Any], records: str, record_id: int, noun: str, done: str, hint: str = "") -> Any:
    """The declared shot (or attack) `record_id` of `state.<records>`, not yet `done` (resolved, rolled)."""
    record = next((r for r in getattr(work.state, records) if r.id == record_id), None)
    if record is None:
        raise Refusal(f"there is no declared {noun} {record_id}")
    if record.result is not None:
        raise Refusal(f"{noun} {record.id} is already {done}{hint}")
    return record


def cancel(work: Work[Any], records: str, record_id: int, noun: str, done: str) -> None:
    """Take back a declared shot (or attack) not yet rolled."""
    record = declared(work, records, record_id, noun, done, ": undo it instead")
    work.update(**{records: [r for r in getattr(work.state, records) if r.id != record.id]})
    work.event(f"cancel_{noun}", f"{noun.capitalize()} {record.id} cancelled.", **{noun: record.id})


def rolled(work: Work[Any], table: BaseModel | None, needs: dict[str, str], resolve: Callable[[DiceSource], T]) -> T:
    """`resolve(dice)`, the dice the `table` entered (`TableDice`, for `needs`) or else the game's roller:
    a face a die does not carry is refused; the roller moves on if it rolled."""
    return rolled_faces(work, None if table is None else (table.model_dump(), needs), resolve)


def rolled_faces(work: Work[Any], faces: tuple[Mapping[str, Sequence[int]], Mapping[str, str]] | None,
                 resolve: Callable[[DiceSource], T], unused_refused: bool = False) -> T:
    """`resolve(dice)` with `faces` entered at the table (faces by purpose, and what each purpose's
    missing die is in words) or, when None, the game's roller, which then moves on.  A face a die
    does not carry is refused; with `unused_refused`, so is a face entered that the roll did not use."""
    dice = RollerDice(work.state.roller) if faces is None else TableDice(*faces)
    try:
        result = resolve(dice)
    except NeedDice:
        raise
    except ValueError as exc:  # a face the die does not carry
        raise Refusal(str(exc)) from None
    if isinstance(dice, RollerDice):
        work.update(roller=dice.roller)
    elif unused_refused and any(dice.faces.values()):
        raise Refusal("dice entered that this roll does not use: "
                      + ", ".join(dice.needs[p] for p, rest in dice.faces.items() if rest))
    return result


def ordered_pair(by: dict[str, list[int]], needs: dict[str, str], purpose: str, faces: Sequence[int],
                 words: str) -> None:
    """An ordered 2d6 roll entered at the table as [1st, 2nd]: each die its own purpose, so a missing
    one is named ("the attack roll's 2nd die")."""
    for i, role in enumerate(("first", "second")):
        by[f"{purpose}.{role}"] = list(faces[i:i + 1])
        needs[f"{purpose}.{role}"] = f"{words}'s {'1st' if role == 'first' else '2nd'} die"


def movement_groups(ships: Sequence[Any], order: Sequence[str], rank: Callable[[Any], int]) -> list[tuple[str, int]]:
    """(side, type or class) in moving order: the highest `rank` first, the sides in `order` within one."""
    ranks = sorted({rank(s) for s in ships}, reverse=True)
    return [(side, r) for r in ranks for side in order if any(s.side == side and rank(s) == r for s in ships)]


def first_to_move(ships: Sequence[Any], groups: list[tuple[str, int]], rank: Callable[[Any], int]) -> tuple[str, int] | None:
    """The first group in moving order with a ship that has not finished its move: it moves now."""
    return next(((side, r) for side, r in groups
                 if any(s.side == side and rank(s) == r and not s.move_done for s in ships)), None)


def may_move_problem(ship: Any, name: str, group: tuple[str, int] | None, rank: int, moving: str) -> str | None:
    """Why a ship may not move now, or None: it finished its move, movement is over, or another
    group moves now (`group`: side and type or class; `moving` says so, the group's side and rank in {})."""
    if ship.move_done:
        return f"{name} has finished its move this turn"
    if group is None:
        return "movement is over for this turn"
    if (ship.side, rank) != group:
        return moving.format(*group)
    return None


def movement_over(work: Work[Any], over: bool, text: str) -> None:
    """Once no ship is left to move, combat begins."""
    if work.state.phase == "movement" and over:
        work.update(phase="combat")
        work.event("phase", text)


def next_turn(work: Work[Any], turn: int, ended: tuple[str, str | None] | None) -> None:
    """After the end of turn `turn`: the game is over (`ended`: result, winner) or the next turn begins."""
    if ended:
        result, winner = ended
        work.update(phase="over", result=result, winner=winner)
        work.event("game_over", result, winner=winner)
    else:
        work.update(turn=turn + 1, phase="initiative")
        work.event("phase", f"Turn {turn + 1}: roll initiative.")


def concede(work: Work[Any], action: Concede) -> None:
    check_side(work, action.side)
    others = [s for s in work.state.sides if s != action.side and s not in work.state.conceded]
    winner = others[0] if len(others) == 1 else None
    result = f"{action.side} concedes." + (f" {winner} wins." if winner else "")
    work.update(phase="over", result=result, winner=winner, conceded=[*work.state.conceded, action.side])
    work.event("game_over", result, winner=winner)


def set_bookkeeping(work: Work[Any], action: SetBookkeeping) -> None:
    work.update(settings=work.state.settings.model_copy(update={"bookkeeping": action.on}))
    work.event("settings", "Bookkeeping mode on: rule checks give warnings, not refusals." if action.on
               else "Rule checks on.")


# --- a planned path as one action (issue 17: the movement planner's "Move there") ---------------


def move_along(moves: dict[str, Callable[[Work[Any], Any], None]], errors: tuple[type[Exception], ...] = (),
               *, ship_name: Callable[[Any], str]) -> Callable[[Work[Any], Any], None]:
    """A ruleset's `move_along` handler: a path the movement planner found (engine/quick_start/reach.py), taken
    as one action, so the log holds one entry and one undo takes the whole path back (issue 17:
    "'Move there' applies the path's steps as one undoable action").  Each step goes through the
    ruleset's own handler of its kind (`moves`), in order, with every rule it checks; at the first
    step the rules refuse, the whole action is refused, naming that step, and nothing is made.
    `errors`: the ruleset's own rule exceptions, refusals too; `ship_name`: a ship's name as the
    players know it (its card's, or its own)."""
    def handle(work: Work[Any], action: Any) -> None:
        total, first = len(action.steps), len(work.events)
        for number, step in enumerate(action.steps, 1):
            where = f"step {number} of {total} ({step_words(step)})"
            if step.ship != action.ship:
                raise Refusal(f"{where} moves {step.ship}, not {action.ship}")
            try:
                moves[step.kind](work, step)
            except Refusal as refusal:
                raise Refusal(f"{where}: {refusal}", refusal.kind) from None
            except errors as exc:
                raise Refusal(f"{where}: {exc}") from None
        name = ship_name(work.state.ship(action.ship))
        words = ", ".join(step_words(step) for step in action.steps)
        work.events.insert(first, Event(kind="move_along", text=f"{name} moves along its planned path: {words}.",
                                        data={"ship": action.ship, "steps": total}))
    return handle


def step_words(step: Any) -> str:
    """One move of a path in words: "forward", "turn to port", "declare turn", "pivot"."""
    if step.kind == "step":
        return "forward" if step.step == "forward" else f"turn to {step.step}"
    return str(step.kind).replace("_", " ")
