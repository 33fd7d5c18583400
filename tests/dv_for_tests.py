"""Decisive Victory test helpers: the sample scenario's state at a phase, ships changed, actions applied."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.engine.decisive_victory.game import apply
from companion.engine.decisive_victory.scenario import build_dv_state, load_dv_scenario
from companion.engine.decisive_victory.state import Conditions, DVState

SAMPLE = Path(__file__).resolve().parent.parent / "fleets" / "decisive-victory" / "sample.json"


def sample_game(phase: str = "attacks", initiative: str = "British", **conditions: Any) -> DVState:
    """The sample scenario (British hms-sample cruiser, hms-dash and hms-dart destroyers; Japanese
    ijn-mihon cruiser, ijn-kaze and ijn-nami destroyers) in `phase`, daylight unless told."""
    state = build_dv_state(load_dv_scenario(json.loads(SAMPLE.read_text(encoding="utf-8"))))
    return state.model_copy(update={"phase": phase, "initiative": initiative, "conditions": Conditions(**conditions)})


def changed(state: DVState, ship_id: str, **changes: Any) -> DVState:
    return state.with_ship(state.ship(ship_id).model_copy(update=changes))


def act(state: DVState, **action: Any) -> Any:
    """Apply an action that must be taken; the Applied result."""
    result = apply(state, action)
    assert result.ok, result.reason
    return result


def refused(state: DVState, **action: Any) -> str:
    result = apply(state, action)
    assert not result.ok, f"taken: {action}"
    return result.reason


def kinds(result: Any) -> list[str]:
    return [e.kind for e in result.events]


def of_kind(result: Any, kind: str) -> list[Any]:
    return [e for e in result.events if e.kind == kind]
