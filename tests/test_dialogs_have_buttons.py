"""Every dialog has a button (issue 35: a "Not possible" dialog had none, and on a phone nothing
said how to close it).  Each `ft.AlertDialog(...)` the app builds is given its actions, in the
call or by an `.actions = [...]` of the dialog in the same function; the monkey counts a dialog
shown without a button as a crash (tests/browser/monkey_core.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import flet as ft

from companion.app.views.widgets import notice

APP = Path(__file__).resolve().parents[1] / "companion"


def _dialogs_without_actions() -> list[str]:
    found = []
    for path in sorted(APP.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in (n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))):
            given_later = {t.value.id for n in ast.walk(function) if isinstance(n, ast.Assign)
                           for t in n.targets if isinstance(t, ast.Attribute) and t.attr == "actions"
                           and isinstance(t.value, ast.Name)}
            named = {id(n.value): {t.id for t in n.targets if isinstance(t, ast.Name)} for n in ast.walk(function)
                     if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)}
            for call in (n for n in ast.walk(function) if isinstance(n, ast.Call)):
                names = named.get(id(call), set())
                if getattr(call.func, "attr", None) != "AlertDialog":
                    continue
                actions = [k for k in call.keywords if k.arg == "actions"]
                empty = actions and isinstance(actions[0].value, ast.List) and not actions[0].value.elts
                if empty or not (actions or names & given_later):
                    found.append(f"{path.relative_to(APP.parent)}:{call.lineno}")
    return sorted(set(found))


def test_every_dialog_the_app_builds_has_its_buttons():
    assert _dialogs_without_actions() == []


def test_a_notice_has_an_ok_that_closes_it():
    class Page:
        def __init__(self):
            self.shown, self.popped = [], 0

        def show_dialog(self, dialog):
            self.shown.append(dialog)

        def pop_dialog(self):
            self.popped += 1

    page = Page()
    dialog = notice(page, "Not possible", "Only the host may do that.")
    assert page.shown == [dialog] and dialog.content.value == "Only the host may do that."
    ok = dialog.actions[0].content
    assert isinstance(ok, ft.TextButton) and ok.content == "OK"
    ok.on_click(None)
    assert page.popped == 1
