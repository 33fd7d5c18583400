"""Quick-Start's screens (seed 001, with the house rules as variants): what the shared app draws
for its games (app/rulesets/__init__.py: `GameScreens`)."""

from __future__ import annotations

import flet as ft

from ...session import Session
from ...viewmodels import PHASE_NAMES
from ...views.screen import ScreenView
from .. import GameScreens, StartTile
from .newgame import build as new_game, start_quick_start
from .replay import QuickStartReplay
from .table import QuickStartBody


SCREENS = GameScreens(
    ruleset_id="quick-start",
    body=QuickStartBody,
    screen_view=ScreenView,  # the shared screen's map, shots and dice (views/screen.py)
    phases=PHASE_NAMES,
    icon=ft.Icons.SAILING,
    resume_tag="resume-",
    replay=QuickStartReplay(),
    start_tiles=(
        StartTile("quick-start", ft.Icons.BOLT, "Quick-Start battle",
                  "HML Hertfordshire and HML Raven against Pontbriand and Pelletier, set on their own "
                  "edges: place them as the table has them, then play.", start_quick_start, featured=True),
        StartTile("new-game", ft.Icons.ADD_CIRCLE_OUTLINE, "New game", "Pick sides, ships and board size",
                  lambda app: app.navigate(Session("new"))),
    ),
    routes={"new": new_game},
)
