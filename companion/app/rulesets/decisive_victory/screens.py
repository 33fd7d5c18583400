"""Decisive Victory's screens (seed 003): what the shared app draws for its games
(app/rulesets/__init__.py: `GameScreens`)."""

from __future__ import annotations

import flet as ft

from .. import GameScreens, StartTile
from .body import DecisiveVictoryBody, start_sample
from .editor import build as group_editor
from .model import PHASES, RULESET
from .replay import DecisiveVictoryReplay
from .screen import DVScreenView

SCREENS = GameScreens(
    ruleset_id=RULESET,
    body=DecisiveVictoryBody,
    screen_view=DVScreenView,  # the shared screen: both fleets' cards across the room
    phases=PHASES,
    icon=ft.Icons.ANCHOR,
    resume_tag="resume-",
    replay=DecisiveVictoryReplay(),
    start_tiles=(StartTile("decisive-victory", ft.Icons.ANCHOR, "Decisive Victory",
                           "Naval battle with aircraft: cruisers and destroyers, or a carrier strike",
                           start_sample),),
    routes={"dv-editor": group_editor},
)
