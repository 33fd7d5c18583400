"""Play a game from a shell, like a chess engine: `companion new | act | options` (issue 13).

    GAME=$(companion new fleets/war-fleet-20v20.json --seed 7)
    companion options "$GAME" --side British --json
    companion act "$GAME" '{"kind": "roll_initiative"}'

`new` builds the scenario through the ruleset its format names and starts a
game in the store; `act` sends one action (JSON as in the log) through the
game's ruleset; `options` lists what could be done now, with the engine's
reason for what cannot (`Ruleset.options`).  A refusal is printed as
`refused (<kind>): <reason>` on stderr with exit code 1.
"""

from __future__ import annotations

import json
import os
from typing import Any

from ..engine.kernel import Refused
from ..engine.names import game_name
from ..engine.roller import Roller
from ..files import parse_json
from .common import (Arguments, CommandError, SubParsers, command, data_option, fleet_option, game_command,
                     json_out, one_line, scenario_state, sub_command, warn)
from .games import open_data

#: Seeds the dice of `companion new` when --seed is not given (as the app's: tests, demos).
SEED_VARIABLE = "COMPANION_SEED"

# --- new ---------------------------------------------------------------------------


@command
def new(sub: SubParsers) -> None:
    p = sub_command(sub, "new", run_new, help="start a game from a scenario file (of any ruleset); prints its id")
    p.add_argument("scenario", metavar="SCENARIO", help="a scenario file: its format names its ruleset")
    p.add_argument("--name", metavar="N", help="the game's name (default: the scenario's, else the date)")
    p.add_argument("--seed", metavar="S", help=f"the dice seed: the same seed, the same dice "
                                                 f"(default: ${SEED_VARIABLE}, else a secret one)")
    fleet_option(p)
    data_option(p)


def run_new(args: Arguments) -> int:
    seed = args.seed if args.seed is not None else os.environ.get(SEED_VARIABLE) or None
    ruleset, loaded, state = scenario_state(  # no seed: the store draws a secret one
        args.scenario, args.fleet, "is a card or fleet, not a scenario: start a game from a scenario file",
        roller=Roller.from_seed(seed) if seed else None, to_play=True)
    name, too_long = game_name(args.name or getattr(loaded, "name", ""))  # no control or bidi characters
    if too_long:
        raise CommandError(f"--name: {too_long}")
    store = open_data(args)
    game = store.new_game(state, name, ruleset=ruleset)
    print(game.id)
    return 0


# --- act -----------------------------------------------------------------------------


@command
def act(sub: SubParsers) -> None:
    p = game_command(sub, "act", "take one action in a game (JSON as in the log); prints what happened", run_act)
    p.add_argument("action", metavar="ACTION", help='a JSON object, e.g. \'{"kind": "end_turn"}\'')
    p.add_argument("--json", action="store_true", help="the events as JSON")


def action_data(text: str) -> dict[str, Any]:
    """ACTION as JSON data: an object, read with the limits of every file the commands read."""
    data = parse_json(text, "ACTION")
    if not isinstance(data, dict):
        raise CommandError('ACTION: is not a JSON object: give one like \'{"kind": "end_turn"}\'')
    return data


def run_act(args: Arguments) -> int:
    action = action_data(args.action)
    store = open_data(args)
    game = store.game(store.find(args.game))
    outcome = game.act(action)
    if isinstance(outcome, Refused):
        where = f" ({game.save_path})" if game.save_problem and game.save_path else ""  # the host's terminal: the path
        warn(f"refused ({outcome.kind}): {one_line(outcome.reason)}{where}")
        return 1
    if args.json:
        return json_out([event.model_dump(mode="json") for event in outcome.events])
    for event in outcome.events:
        print(event.text)
    return 0


# --- options -------------------------------------------------------------------------


@command
def options(sub: SubParsers) -> None:
    p = game_command(sub, "options", "the actions a game allows now, with why the others cannot be taken", run_options)
    p.add_argument("--side", metavar="S", help="one side's options only (default: every side's and the table's)")
    p.add_argument("--json", action="store_true",
                   help='a list of {"action": {...}, "possible": true|false, "problem": text or null}')


def run_options(args: Arguments) -> int:
    store = open_data(args)
    game = store.game(store.find(args.game))
    state = game.state
    if args.side is not None and args.side not in state.sides:
        raise CommandError(f"no side '{args.side}' in {game.name} (sides: {', '.join(state.sides)})")
    found = game.ruleset.options(state, args.side)
    if args.json:
        return json_out([{"action": o.action, "possible": o.possible, "problem": o.problem} for o in found])
    possible = [o for o in found if o.possible]
    print(f"{game.name}: turn {state.turn}, {game.ruleset.phases.get(state.phase, state.phase)}; "
          f"{len(possible)} of {len(found)} options possible now")
    for option in sorted(found, key=lambda o: not o.possible):
        shown = json.dumps(option.action, ensure_ascii=False)
        print(f"  {shown}" if option.problem is None else f"  (not now) {shown}: {one_line(option.problem)}")
    return 0
