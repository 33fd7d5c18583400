"""Fleets (the cards the app knows), rule readings, and loading a scenario file."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import flet as ft

from ...engine.cards import FormatError
from ...engine.game_start import start_problem
from ...engine.roller import Roller
from ...engine.quick_start.scenario import two_sides
from ...engine.registry import RULESETS, ruleset_for_format
from ...files import MAX_FILE_BYTES, parse_json, read_text
from ..readings import ReadingsMissing, rule_readings_text
from ..tasks import soon
from ..viewmodels import ReadingSection, rule_readings
from .game_files import import_button
from .pages import host_only, may_start, titled
from .widgets import heading, inner, muted, pill, section, tag


def build_rules(app) -> ft.Control:
    """docs/rule-readings.md as the app shows it: each choice in plain words, the app's own marked."""
    holder = ft.Column(spacing=10, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)

    async def fill():
        try:
            text = await asyncio.to_thread(rule_readings_text)
        except ReadingsMissing as exc:
            holder.controls = [ft.Text(str(exc), color=ft.Colors.ERROR)]
        else:
            holder.controls = [control for section in rule_readings(text) for control in _section(section)]
        app.page.update()

    soon(app.page, fill)
    return titled(app, "Rule readings",
                  muted("If your group reads the printed rulebook differently, turn the rule checks off in the "
                        "game menu (bookkeeping mode) and the app records what you enter."),
                  holder, widest=900)


def _section(chapter: ReadingSection) -> list[ft.Control]:
    parts: list[ft.Control] = []
    if chapter.level > 1:
        parts.append(ft.Container(heading(chapter.title, 19 if chapter.level == 2 else 16),
                                  padding=ft.Padding.only(top=8 if chapter.level == 2 else 2)))
    parts += [ft.Text(text, size=14) for text in chapter.intro]
    for reading in chapter.readings:
        body: list[ft.Control] = [ft.Text(reading.text, size=14, selectable=True)]
        if reading.own:
            body.append(pill(ft.Text("the app's own reading", size=11, color=ft.Colors.ON_TERTIARY_CONTAINER),
                             ft.Colors.TERTIARY_CONTAINER))
        parts.append(section(*body))
    return parts


#: The most a scenario may be, as pasted text or a file (files.py's limit for every file it reads).
MAX_SCENARIO_CHARS = MAX_FILE_BYTES
#: The biggest board and the most ships the table app opens: a board of 99 x 99 hexes (fifteen
#: Quick-Start tables) with 100 ships took 12 s from "Load and play" to a playable table here,
#: the engine's limits (200 x 200) four times the hexes.
MAX_COLUMNS = MAX_ROWS = 99
MAX_SHIPS = 100


def read_scenario_file(path: str) -> str:
    """The text of a scenario file on the host (`files.read_text`: a regular file of at most
    MAX_SCENARIO_CHARS bytes, never a device, a FIFO or a folder, opened without blocking)."""
    if not path:
        raise FormatError("type the path of a scenario file, or paste the scenario")
    return read_text(path, MAX_SCENARIO_CHARS)


def scenario_state(text: str, catalogue, seed: str | None, source: str = "") -> tuple[Any, str]:
    """A pasted (or read) scenario's starting position and name, in the ruleset its format names:
    size checked before it is parsed (`files.parse_json`), board and ships bounded before the
    position is built.  Heavy: run it in a worker thread."""
    data = parse_json(text, source)
    board, ships = data.get("board") if isinstance(data, dict) else None, data.get("ships") if isinstance(data, dict) else None
    if isinstance(board, dict):
        for key, most in (("columns", MAX_COLUMNS), ("rows", MAX_ROWS)):
            if isinstance(board.get(key), int) and board[key] > most:
                raise FormatError(f"a board of {board[key]} {key} is too big for the table app: at most {most}",
                                  f"board.{key}")
    if isinstance(ships, list) and len(ships) > MAX_SHIPS:
        raise FormatError(f"{len(ships):,} ships are too many for the table app: at most {MAX_SHIPS}", "ships")
    ruleset = ruleset_for_format(data.get("format") if isinstance(data, dict) else None)
    if ruleset is None:
        formats = ", ".join(r.scenario_format for r in RULESETS.values())
        raise FormatError(f"not a scenario this app plays (the formats it reads: {formats})", "format")
    try:
        scenario = ruleset.load_scenario(data)
        state = ruleset.build_state(scenario, catalogue, Roller.from_seed(seed) if seed else None)
    except FormatError as exc:
        raise exc.in_file(source) if source else exc from None
    two_sides(state.sides)  # refused in plain words: a game needs two sides at least (issue 25 part 8)
    problem = start_problem(state, ruleset)  # sides that differ to the eye, ids once (issue 36)
    if problem:
        raise FormatError(problem[1], problem[0])
    return state, getattr(scenario, "name", "") or ""


def build_load(app) -> ft.Control:
    """Load a scenario: pasted on any screen that may start games (the host's), or read from a
    path on the host's own screen only (a regular file; never a device or a FIFO)."""
    refused = host_only(app, "Load a scenario", may_start(app))
    if refused:
        return refused
    on_host = bool(getattr(getattr(app, "device", None), "host", True))
    path = ft.TextField(label="Scenario file on this computer", hint_text="/path/to/scenario.json", expand=True,
                        visible=on_host)
    text = ft.TextField(label="...or paste the scenario JSON" if on_host else "Paste the scenario JSON",
                        multiline=True, min_lines=6, max_lines=14, expand=True)
    message = tag("load-message", ft.Text("", color=ft.Colors.ERROR))
    button = tag("load-button", ft.FilledButton(content="Load and play", icon=ft.Icons.PLAY_ARROW, height=52))

    def say(problem: str) -> None:
        inner(message, ft.Text).value = problem
        message.label = problem
        inner(button, ft.FilledButton).disabled = False
        app.page.update()

    async def load(e):
        refused = may_start(app)  # decided on the server from the device it holds
        if refused:
            say(refused)
            return
        pasted = text.value or ""
        where = (path.value or "").strip()
        if not pasted.strip() and where and not app.device.host:
            say("Only the host's own screen opens a file on the host: paste the scenario instead.")
            return
        inner(button, ft.FilledButton).disabled = True
        inner(message, ft.Text).value = "Reading the scenario..."
        app.page.update()
        try:
            if not pasted.strip():
                pasted = await asyncio.to_thread(read_scenario_file, where)
            catalogue = await app.catalogue()
            source = "" if (text.value or "").strip() else where
            state, name = await asyncio.to_thread(scenario_state, pasted, catalogue, app.seed, source)
        except (FormatError, ValueError) as exc:
            say(str(exc))
            return
        name = name or (where.rsplit("/", 1)[-1] if where and not (text.value or "").strip() else "Pasted scenario")
        await app.create_game(state, name + " " + time.strftime("%d %b %H:%M"))

    inner(button, ft.FilledButton).on_click = load
    return titled(app, "Load a scenario",
                  muted(f"A scenario file of any game here ({', '.join(r.scenario_format for r in RULESETS.values())}): "
                        "a table position with ships, facings and damage. "
                        "Cards are looked up in the fleets, or given inline. "
                        f"At most {MAX_SHIPS} ships on a board of at most {MAX_COLUMNS} x {MAX_ROWS} hexes."),
                  ft.Row([tag("load-path", path)]), ft.Row([tag("load-paste", text)]), message, button,
                  muted("Or a whole game exported from another device (leviathans-game/1): it goes on here."),
                  import_button(app, say), widest=900)
