"""Load a scenario (app/views/info.py) reads a scenario of any ruleset, found by its format (issue 27)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.views.info import scenario_state
from companion.engine.cards import FormatError
from companion.engine.registry import find_ruleset, ruleset_of_state

FLEETS = Path(__file__).resolve().parent.parent / "fleets"


def test_a_decisive_victory_scenario_loads_as_decisive_victory():
    text = (FLEETS / "decisive-victory" / "sample.json").read_text()
    state, name = scenario_state(text, {}, "1")
    assert ruleset_of_state(state) is find_ruleset("decisive-victory")
    assert name == "Cruisers and destroyers (sample)" and len(state.sides) == 2


def test_an_unknown_format_is_refused_naming_the_formats_it_reads():
    with pytest.raises(FormatError) as refused:
        scenario_state(json.dumps({"format": "chess-position/1", "board": {}, "ships": []}), {}, "1")
    assert "leviathans-scenario/1" in str(refused.value) and "format" in str(refused.value)
