"""Table dice for unit initiative (house rule H1): each ship's d10 as the players rolled it.

A d10 showing 0 is typed as 0 (it means 10: the engine reads it so).  A tied ship needs its re-roll
too: the engine's refusal names the ships to roll again, shown in the dialog, which stays open.
"""

from __future__ import annotations

import flet as ft

from ....engine.quick_start import actions as A
from ...views.widgets import inner, muted, tag


def faces_typed(text: str) -> list[int] | None:
    """"4" or "4 8" (the first d10, then the re-roll): the faces, or None if not whole numbers."""
    parts = text.replace(",", " ").split()
    return [int(p) for p in parts] if parts and all(p.isdigit() for p in parts) else None


async def unit_initiative_dialog(body) -> None:
    """A field per ship in play; Roll takes the faces typed, the engine checks them."""
    state = body.game.state
    fields = {ship.id: tag(f"d10-{ship.id}", ft.TextField(label=f"{ship.card.name} d10", width=150, dense=True,
                                                         keyboard_type=ft.KeyboardType.NUMBER))
              for ship in state.active_ships}
    problem = tag("d10-problem", ft.Text("", color=ft.Colors.ERROR))

    async def submit(ev) -> None:
        faces, bad = {}, []
        for ship_id, field in fields.items():
            typed = faces_typed(inner(field, ft.TextField).value or "")
            if typed is None:
                bad.append(state.ship(ship_id).card.name)
            else:
                faces[ship_id] = typed
        if bad:
            inner(problem, ft.Text).value = f"Type the d10 of {', '.join(bad)} (0 means 10)."
            problem.update()
            return
        outcome = await body.frame.act(A.RollUnitInitiative(faces=faces))
        if outcome.ok:
            body.app.page.pop_dialog()
        else:
            inner(problem, ft.Text).value = outcome.reason
            problem.update()

    body.app.page.show_dialog(ft.AlertDialog(
        title=ft.Text("Initiative: each ship's d10"),
        content=ft.Column([muted("A d10 showing 0 is 10. A tied ship rolls again: type both faces, "
                                 "the first and then the re-roll (4 8)."), *fields.values(), problem],
                          tight=True, spacing=8, scroll=ft.ScrollMode.AUTO),
        actions=[tag("d10-roll", ft.FilledButton(content="Roll with these dice", on_click=submit))],
    ))
