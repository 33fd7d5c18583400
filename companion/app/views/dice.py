"""Dice roller: any pool, its roll, and its exact distribution (chance of at least n)."""

from __future__ import annotations

import asyncio

import flet as ft

from ...engine.dice import parse_pool
from ...messages import sentence
from ...engine.roller import Roller, roll_pool
from ..setup import new_seed
from ..tasks import soon
from ..viewmodels import dice_view
from .frame import on
from .pages import page_width, titled
from .widgets import chips, faces, heading, inner, muted, settle, tag, tumble, tumbling

PRESETS = ("DBlue & DBlack", "DYellow & DGreen & 2DRed", "2DRed", "DRed & DBlue & DBlack", "D6")


def build(app) -> ft.Control:
    pool = ft.TextField(label="Dice pool", value="DBlue & DGreen & DBlack", expand=True,
                        hint_text="e.g. DBlue & DBlack, 2DRed")
    tumbler = tumble()  # each roll tumbles in (issue 18's motion)
    total = ft.Text("", size=22, weight=ft.FontWeight.BOLD)
    rolled = ft.Column([tumbler, total], spacing=6)
    table = ft.Column(spacing=2)
    message = tag("dice-message", ft.Text("", color=ft.Colors.ERROR))
    state = {"roller": Roller.from_seed(new_seed()), "text": None}  # the text shown: the last typed

    def clear_roll() -> None:
        """An error under the pool: the last roll's dice go with the pool they were (issue 35)."""
        tumbler.content, total.value = None, ""

    async def show(e=None):
        text = pool.value or ""
        state["text"] = text
        view = await asyncio.to_thread(dice_view, text)  # a big pool's exact distribution takes a while
        if state["text"] != text:  # typed on meanwhile: the newer text is shown instead
            return
        inner(message, ft.Text).value = sentence(view.error or "")
        if view.error:
            clear_roll()
        bar = min(300, page_width(app) - 200)  # the width less the columns beside the bar: a phone's fits
        table.controls = [] if view.error else [
            ft.Row([chips(view.chips), muted(f"{view.pool} · mean {view.mean}")], wrap=True),
            ft.Row([ft.Text(title, width=width, weight=ft.FontWeight.W_600)
                    for title, width in (("total", 48), ("exactly", 64), ("at least", None))]),
            *(ft.Row([
                ft.Text(str(row.total), width=48),
                ft.Text(row.exactly, width=64),
                ft.Container(width=max(2, bar * row.at_least_value), height=14, bgcolor=ft.Colors.PRIMARY, border_radius=3),
                ft.Text(row.at_least),
            ], spacing=8) for row in view.rows)]
        app.page.update()

    async def roll(e):
        try:
            dice = parse_pool(pool.value or "")
        except ValueError as exc:
            inner(message, ft.Text).value = sentence(str(exc))
            clear_roll()
            app.page.update()
            return
        results, state["roller"] = roll_pool(state["roller"], dice)
        tumbler.content = tag("rolled", faces([(d.colour.value, d.face) for d in results], 40))
        total.value = f"Total {sum(d.face for d in results)}"
        tumbling(tumbler)
        await show()
        await settle(tumbler)

    async def preset(text):
        pool.value = text
        await show()

    pool.on_submit = show
    pool.on_change = show
    soon(app.page, show)
    return titled(
        app, "Dice roller",
        ft.Row([tag("dice-pool", pool), tag("roll-dice", ft.FilledButton(content="Roll", icon=ft.Icons.CASINO, on_click=roll, height=52))]),
        ft.Row([ft.OutlinedButton(content=p, on_click=on(preset, p), height=48) for p in PRESETS], wrap=True),
        message, rolled, heading("Distribution"), table,
        muted("Green 1-4, Blue 1-6, Yellow 1-8, Red 1-10, Black 1-12 (d12s with their colour's numbers); D6 is the slot die."))
