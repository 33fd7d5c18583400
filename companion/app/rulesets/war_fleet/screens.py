"""War Fleet's screens (seed 004): what the shared app draws for its games
(app/rulesets/__init__.py: `GameScreens`)."""

from __future__ import annotations

import flet as ft

from ...session import Session
from .. import GameScreens, StartTile
from .body import WarFleetBody
from .model import PHASES, WAR_FLEET
from .replay import WarFleetReplay
from .screen import WarFleetScreenView
from .start import build as start_screen


SCREENS = GameScreens(
    ruleset_id=WAR_FLEET,
    body=WarFleetBody,
    screen_view=WarFleetScreenView,  # the shared screen's TV layout (issue 28)
    phases=PHASES,
    icon=ft.Icons.GRID_ON,
    resume_tag="wf-resume-",
    replay=WarFleetReplay(),
    start_tiles=(StartTile("war-fleet", ft.Icons.SAILING, "War Fleet",
                           "Twenty against twenty, one hex per ship; pockets at Quick-Start scale",
                           lambda app: app.navigate(Session("warfleet"))),),
    routes={"warfleet": start_screen},
)
