"""No developer's words on a player's screen (issue 35): file paths and "integer geometry" on Rule
readings, "(seed 003)" on Home, "(003:178)" on the Aircraft tab, the report's command footer, the
repository and commit in the card editor's notes, action and result codes ("driven_off"), and the
grammar ("British's class 3 ships move", "1 value differ", "2 turn(s)").  The texts a player can
reach are scanned with `player_words.DEVELOPER_WORDS`: the rule readings as the screen shows them,
the app's own string literals, the log and refusals of a game played through the aircraft phase,
the card editor's copy of every shipped card."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from companion.app.card_compare import Comparison, compare_with_printed
from companion.app.editor_model import CardEditor
from companion.app.player_words import developer_words, spoken
from companion.app.readings import rule_readings_text
from companion.app.rulesets.decisive_victory import air_model
from companion.app.rulesets.registry import start_tiles
from companion.app.rulesets.steps import log_lines
from companion.app.viewmodels import rule_readings
from companion.store.library import CardLibrary, catalogue_of

from test_dv_aircraft import dive_bomber_over_the_cruiser, flight, game, landed_stage, ok

APP = Path(__file__).resolve().parents[1] / "companion" / "app"
#: What the app's own literals never hold (a code's name may be a dict key, a path a file to read).
NEVER_IN_LITERALS = re.compile(r"\bseeds? 00\d|\b00\d:\d+|\w\(s\)|github\.com|integer geometry|'s class \{"
                               r"|Quick-Start rules$|\bmove along\b")
#: player_words holds the patterns themselves; report_model keeps the CLI's command for its tests
#: (the Report screen no longer shows it).
NOT_SCANNED = {"player_words.py", "report_model.py"}


def test_the_rule_readings_screen_speaks_a_players_words():
    found = []
    for section in rule_readings(rule_readings_text()):
        for text in (section.title, *section.intro, *(r.text for r in section.readings)):
            # the CLI is a player's tool too: its commands and switches may be named
            found += [f"{w} in {text[:60]!r}" for w in developer_words(text) if not w.startswith("a command")]
    assert found == []
    every = " ".join(r.text for s in rule_readings(rule_readings_text()) for r in s.readings)
    assert "Decided exactly by counting, never by measuring angles." in every  # was "(integer geometry)"


def _literals(tree: ast.AST):
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            yield node.lineno, "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            yield node.lineno, node.value


def test_the_apps_own_texts_hold_no_seed_numbers_line_references_or_brackets_for_plurals():
    found = [f"{path.relative_to(APP)}:{line}: {text[:80]!r}"
             for path in sorted(APP.rglob("*.py")) if path.name not in NOT_SCANNED
             for line, text in _literals(ast.parse(path.read_text(encoding="utf-8")))
             if NEVER_IN_LITERALS.search(text)]
    assert found == []


def test_home_and_the_aircraft_tab_name_no_seed_or_rule_line():
    tiles = start_tiles()
    assert tiles and all(developer_words(f"{t.title} {t.subtitle}") == [] for t in tiles)
    assert all(developer_words(words) == [] for words in air_model.NEXT_WORDS.values())


def test_the_aircraft_log_counts_in_words_and_says_driven_off():
    state, sbd = dive_bomber_over_the_cruiser()
    state, _ = ok(state, {"kind": "place_flight", "flight": sbd})
    state, events = ok(state, {"kind": "aa_fire", "ship": "red", "flight": sbd, "points": 3,
                               "table": {"attack": [6, 6]}})
    tbd = flight("tbd", "Blue", "torpedo_bomber", slow=True)
    launched, more = ok(landed_stage(game([tbd])), {"kind": "launch_flight", "flight": "tbd", "base": "cv",
                                                    "target": "red", "distance": 100})
    lines = log_lines([*events, *more])
    assert any("3 turns in the attacking stage" in line for line in lines)
    assert any("returning stage, 2 turns to its base" in line for line in lines)
    assert [w for line in lines for w in developer_words(line)] == []


def test_refusals_and_log_lines_lose_the_rule_texts_line_numbers():
    assert spoken('Searchlights reach 6" (003:85)') == 'Searchlights reach 6"'
    assert spoken("the Ark has no gunnery radar (003:81; not for torpedoes, 003:93)") == (
        "the Ark has no gunnery radar (not for torpedoes)")
    assert spoken("every attack is declared before any roll (seed 000): the rolling has begun") == (
        "every attack is declared before any roll: the rolling has begun")
    assert spoken("Turn 3 (of 12): 1 of 2 ships.") == "Turn 3 (of 12): 1 of 2 ships."


def test_the_card_editor_shows_no_repository_or_commit_and_counts_its_differences():
    shipped = catalogue_of(CardLibrary(None)).cards()
    notes = [CardEditor.edit(card).data.get("sources", {}).get("notes", "") for card in shipped.values()]
    assert any("fan catalogue of printed cards" in n for n in notes)
    assert [w for n in notes for w in developer_words(n)] == []
    editor = CardEditor.edit(shipped["hml-raven-2025"])
    editor.set_number(("structural_integrity",), str(editor.get(("structural_integrity",)) + 1))
    comparison = compare_with_printed(editor, shipped)
    assert comparison.summary == "1 value differs from the printed card of HML Raven:"
    assert Comparison(comparison.printed, comparison.rows * 2).summary.startswith("2 values differ ")


def test_an_undo_names_what_it_took_back_in_the_logs_words():
    """The Log and the replay said "Undone: move along." (the action's code)."""
    from companion.store import MemoryStore
    from dv_for_tests import sample_game

    game = MemoryStore().new_game(sample_game("movement"), "Undo words")
    assert game.act({"kind": "concede", "side": "Japanese"}).ok and game.undo()
    said = game.entries[-1].events[0]["text"]
    assert said == "Undone: Japanese concedes. British wins." and developer_words(said) == []
