"""Tug of war as a `Ruleset`: two sides, one action (a side pulls the rope one step its way); the
first side to bring the rope `to_win` steps its way wins; a side may concede.  No dice, no ships."""

from __future__ import annotations

from typing import Annotated, Any, Final, Iterator, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from companion.engine.format_error import FormatError
from companion.engine.kernel import Refusal, RefusalKind, Work
from companion.engine.roller import Roller
from companion.engine.ruleset import Ruleset, conceding_side

FORMAT: Final = "toy-tug-scenario/1"
PHASES = {"pulling": "pulling: either side pulls the rope", "over": "the game is over"}


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True)
    bookkeeping: bool = False


class TugScenario(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    format: Literal["toy-tug-scenario/1"] = FORMAT
    name: str = ""
    sides: tuple[str, str] = ("Red", "Blue")
    rope: int = 0  # steps towards the first side (negative: towards the second)
    to_win: int = 3


class TugState(BaseModel):
    """What the kernel and the store read (`GameStateLike`, `turn`, `sides`), and the rope."""
    model_config = ConfigDict(frozen=True)
    sides: tuple[str, str] = ("Red", "Blue")
    rope: int = 0
    to_win: int = 3
    turn: int = 1
    phase: str = "pulling"
    result: str | None = None
    settings: Settings = Settings()
    roller: Roller = Roller(seed="00")  # the store's placeholder: a game gets its own seed
    ships: tuple[()] = ()

    def ship(self, ship_id: str) -> Any:
        raise KeyError(ship_id)

    def has_ship(self, ship_id: str) -> bool:
        return False


class Pull(BaseModel):
    kind: Literal["pull"] = "pull"
    side: str


class Concede(BaseModel):
    kind: Literal["concede"] = "concede"
    side: str


TugAction = Annotated[Union[Pull, Concede], Field(discriminator="kind")]
ACTIONS: TypeAdapter[Any] = TypeAdapter(TugAction)


def parse(data: Any) -> Any:
    if isinstance(data, (Pull, Concede)):
        return data
    try:
        return ACTIONS.validate_python(data)
    except ValidationError as exc:
        raise Refusal(f"not a tug action: {exc.errors()[0]['msg']}", RefusalKind.MALFORMED) from None


def _side(work: Work[Any], side: str) -> None:
    if side not in work.state.sides:
        raise Refusal(f"there is no side '{side}' (sides: {', '.join(work.state.sides)})")


def _over(work: Work[Any], winner: str, why: str) -> None:
    """The end: its `game_over` event is what reveals the dice seed (store/game.py, verify, export)."""
    work.update(phase="over", result=f"{winner} wins: {why}")
    work.event("game_over", f"{winner} wins: {why}.", winner=winner)


def pull(work: Work[Any], action: Pull) -> None:
    """A side pulls the rope one step its way; `to_win` steps its way wins."""
    _side(work, action.side)
    work.phase("pulling", doing="pulling the rope")
    state = work.state
    rope = state.rope + (1 if action.side == state.sides[0] else -1)
    work.update(rope=rope, turn=state.turn + 1)
    work.event("pull", f"{action.side} pulls: the rope is at {rope}.", side=action.side, rope=rope)
    if abs(rope) >= state.to_win:
        _over(work, action.side, f"the rope is {state.to_win} steps its way")


def concede(work: Work[Any], action: Concede) -> None:
    """A side gives up: the other wins."""
    _side(work, action.side)
    winner = next(s for s in work.state.sides if s != action.side)
    _over(work, winner, f"{action.side} concedes")


def load_scenario(data: Any) -> TugScenario:
    try:
        return TugScenario.model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        raise FormatError(error["msg"], ".".join(str(p) for p in error["loc"])) from None


def build_state(scenario: TugScenario, catalogue: Any = None, roller: Roller | None = None) -> TugState:
    state = TugState(sides=scenario.sides, rope=scenario.rope, to_win=scenario.to_win)
    return state.model_copy(update={"roller": roller}) if roller is not None else state


def save_scenario(state: TugState, name: str) -> dict[str, Any]:
    return TugScenario(name=name, sides=state.sides, rope=state.rope, to_win=state.to_win).model_dump(mode="json")


def candidates(state: TugState, side: str | None) -> Iterator[dict[str, Any]]:
    for each in state.sides:
        if side is None or side == each:
            yield {"kind": "pull", "side": each}
            yield {"kind": "concede", "side": each}


def describe(state: TugState) -> str:
    return f"tug of war, the rope at {state.rope} (first to {state.to_win})"


TOY: Ruleset[TugState, Any] = Ruleset(
    id="toy-tug",
    name="Tug of war",
    state_type=TugState,
    actions=ACTIONS,
    parse=parse,
    handlers={"pull": pull, "concede": concede},
    after_over=frozenset(),
    table_actions=frozenset(),
    side_of={"pull": conceding_side, "concede": conceding_side},
    phases=PHASES,
    scenario_format=FORMAT,
    load_scenario=load_scenario,
    build_state=build_state,
    describe=describe,
    candidates=candidates,
    save_scenario=save_scenario,
)
