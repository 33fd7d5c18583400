"""The app as opponent from a shell (issue 38): `companion admiral` and `companion duel`.

    companion admiral GAME --side French --level captain --json
    companion duel fleets/duel-quick-start.json --sides admiral,scripted --games 200 --seed 1

`admiral` prints a side's orders for what it may do now (each an action as
`act` takes it, with its reason in numbers); `duel` plays whole games headless
between two levels, the sides swapped every other game, and prints the wins,
draws, turns and the 95% interval of the first level's share of the decided
games.  An unknown level or side, or a ruleset the app cannot play, is one
plain line.
"""

from __future__ import annotations

from typing import Any

from ..engine.admiral import LEVELS, find_level, orders
from ..engine.admiral.duel import MAX_TURNS, seeded, tournament
from ..engine.admiral.search import kit_of
from ..engine.roller import Roller
from .common import Arguments, CommandError, SubParsers, command, game_command, json_out, scenario_state, sub_command
from .games import open_data

LEVEL_WORDS = ", ".join(LEVELS)


@command
def admiral(sub: SubParsers) -> None:
    p = game_command(sub, "admiral", "a side's orders for what it may do now, each with its reason", run_admiral)
    p.add_argument("--side", metavar="S", required=True, help="the side the app plays")
    p.add_argument("--level", metavar="L", default="admiral", help=f"how it plays: {LEVEL_WORDS} (default admiral)")
    p.add_argument("--seed", metavar="S", default="0", help="the same game, level and seed: the same orders")
    p.add_argument("--json", action="store_true", help='{"orders": [{"action": {...}, "reason": "..."}, ...]}')


def run_admiral(args: Arguments) -> int:
    level = _level(args.level)
    store = open_data(args)
    game = store.game(store.find(args.game))
    state = game.state
    _playable(game.ruleset)
    if args.side not in state.sides:
        raise CommandError(f"--side: no side '{args.side}' in {game.name} (sides: {', '.join(state.sides)})")
    found = orders(game.ruleset, state, args.side, level, args.seed)
    if args.json:
        return json_out({"orders": [order.as_json() for order in found]})
    if not found:
        print(f"{args.side} has nothing to do now ({game.ruleset.phases.get(state.phase, state.phase)})")
    for order in found:
        print(order.reason)
    return 0


@command
def duel(sub: SubParsers) -> None:
    p = sub_command(sub, "duel", run_duel, help="whole games headless between two levels, sides swapped")
    p.add_argument("scenario", metavar="SCENARIO", help="a Quick-Start or War Fleet scenario file")
    p.add_argument("--sides", metavar="LEVEL,LEVEL", required=True, help=f"two of: {LEVEL_WORDS}")
    p.add_argument("--games", metavar="N", type=int, default=20, help="how many games (default 20)")
    p.add_argument("--seed", metavar="S", default="0", help="the games' dice and the admiral's seed")
    p.add_argument("--turns", metavar="T", type=int, default=MAX_TURNS,
                   help=f"a game undecided after T turns is a draw (default {MAX_TURNS})")
    p.add_argument("--json", action="store_true", help='{"wins": {"<level>": n, ...}, "draws": k, ...}')


def run_duel(args: Arguments) -> int:
    names = [part.strip() for part in args.sides.split(",")]
    if len(names) != 2:
        raise CommandError(f"--sides: give two levels as LEVEL,LEVEL (levels: {LEVEL_WORDS}), not {args.sides!r}")
    first, second = (_level(name) for name in names)
    if first == second:
        raise CommandError(f"--sides: a duel needs two different levels, not {first} twice")
    if args.games < 1 or args.turns < 1:
        raise CommandError("--games and --turns: give a whole number of at least 1")
    ruleset, loaded, state = scenario_state(args.scenario, [], "is not a scenario: a duel is played on a scenario file",
                                            roller=Roller.from_seed(args.seed), to_play=True)
    _playable(ruleset)
    tally = tournament(ruleset, lambda seed: seeded(state, seed), (first, second), args.games, args.seed, args.turns)
    data: dict[str, Any] = {**tally.as_json(), "scenario": getattr(loaded, "name", ""), "seed": args.seed}
    if args.json:
        return json_out(data)
    low, high = data["interval"]
    print(f"{data['scenario']}: {data['games']} games, {first} against {second}, sides swapped every other game")
    print(f"{first} {tally.wins[first]} wins, {second} {tally.wins[second]} wins, {tally.draws} draws; "
          f"{data['mean_turns']} turns a game on average")
    print(f"{first} won {data['share']:.1%} of the decided games (95% interval {low:.1%} to {high:.1%})")
    return 0


def _level(name: str) -> str:
    try:
        return find_level(name).name
    except ValueError as exc:
        raise CommandError(f"--level: {exc}") from None


def _playable(ruleset: Any) -> None:
    try:
        kit_of(ruleset)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
