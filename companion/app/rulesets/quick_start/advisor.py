"""The shot advisor on the fire tab (issue 17): each gun's options ranked with their four
figures and the best marked, and the fire plan of the selected ship or of its whole side.

Reads `advice_model.AdvisorView` (computed in the frame's worker thread by `compute`); a tap
on an option puts it in the plan as its gun's shot, or takes it out; Declare sends the
planned shot as the fire panel's Declare does (one shot, or all).
"""

from __future__ import annotations

import asyncio

import flet as ft

from ....engine.quick_start import actions as A
from .advice_model import (AdvisorView, Choices, GunAdviceView, OptionView, PlanCache, PlanShotView, PlanView,
                            TargetPlanView, advisor_view, toggled)
from ...viewmodels import percent as pct
from ...tasks import soon
from ...views.frame import on
from ...views.widgets import TOUCH, heading, muted, pill, put, tag


#: Runs of a first sampled plan (about 0.1 s a shot): its error is stated; the full plan follows.
QUICK_RUNS = 400


def _bare(figure: str) -> str:
    """A figure without its "sampled: " (the line below it says how the plan was sampled)."""
    return figure.removeprefix("sampled: ")


def _figure(text: str, tooltip: str, strong: bool = False) -> ft.Control:
    colour = ft.Colors.ERROR_CONTAINER if strong else ft.Colors.SURFACE_CONTAINER_HIGH
    return pill(ft.Text(text, size=11, weight=ft.FontWeight.BOLD if strong else None), colour, tooltip)


class AdvisorPanel:
    """The advisor's sections, kept by the Quick-Start body with the players' choices (which
    option each gun fires in the plan, and whether the plan is the ship's or its side's)."""

    def __init__(self, body):
        self.body = body
        self.choices: Choices = {}
        self.scope = "ship"
        self.cache = PlanCache()
        self.column = ft.Column(spacing=10, tight=True, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        self.control = tag("advisor", self.column)
        self._guns: dict[tuple, ft.Control] = {}
        self._plan: tuple[tuple, ft.Control] | None = None
        self._view: AdvisorView | None = None
        self._resample: tuple | None = None
        self.heading = heading("Shot advisor")

    def compute(self, state, ship_id: str | None) -> AdvisorView | None:
        """In the frame's worker thread.  A plan to sample is sampled with `QUICK_RUNS` first; the
        full runs are done in the background (`show` starts them) and shown when done."""
        if not ship_id:
            return None
        choices = dict(self.choices)
        self.cache.pending = False
        view = advisor_view(state, ship_id, self.scope, choices, self.cache, quick=QUICK_RUNS)
        self._resample = (state, ship_id, self.scope, choices) if self.cache.pending else None
        return view

    async def _sample(self, state, ship_id: str, scope: str, choices: Choices) -> None:
        await asyncio.to_thread(advisor_view, state, ship_id, scope, choices, self.cache)
        await self.body.frame.refresh(force=True)  # the full plan is in the cache now

    def show(self, view: AdvisorView | None, declaring: bool, plan_first: bool = False) -> ft.Control | None:
        """plan_first: the fire plan above the ranking (the Fire tab's "Fire plan" button)."""
        self._view = view
        if self._resample is not None:
            soon(self.body.app.page, self._sample, *self._resample)
            self._resample = None
        if view is None:
            return None
        parts: list[ft.Control] = [self.heading, muted(
            "Each gun's options, best first: the chance of destroying a slot, the slots expected, "
            "the keel breaking, the ship destroyed (exact). Tap Plan to choose the gun's shot.", 12)]
        if not view.guns:
            parts.append(muted("No gun has a target in arc and range.", 12))
        guns = {}
        for gun in view.guns:
            key = (gun, declaring)
            guns[key] = self._guns.get(key) or self._gun(gun)
            parts.append(guns[key])
        self._guns = guns
        plan_key = (view.plan, declaring)
        if self._plan is None or self._plan[0] != plan_key:
            self._plan = (plan_key, self._plan_control(view.plan, declaring))
        if plan_first:
            parts.insert(0, self._plan[1])
        else:
            parts.append(self._plan[1])
        put(self.column, parts)
        return self.control

    # --- the ranking ---------------------------------------------------------------------

    def _gun(self, gun: GunAdviceView) -> ft.Control:
        lines: list[ft.Control] = [ft.Row([
            ft.Icon(ft.Icons.ADJUST, size=18), ft.Text(gun.name, weight=ft.FontWeight.BOLD),
            muted(f"{gun.location.replace('_', ' ')} slot {gun.slot}", 12),
            *([ft.Text("declared", color=ft.Colors.PRIMARY, size=12)] if gun.declared else []),
        ], spacing=6, wrap=True)]
        lines += [self._option(gun, o) for o in gun.options]
        return tag(f"advice-{gun.ident}", ft.Container(content=ft.Column(
            lines, spacing=6, tight=True, horizontal_alignment=ft.CrossAxisAlignment.STRETCH), padding=10,
                                                       border_radius=10, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW))

    def _option(self, gun: GunAdviceView, o: OptionView) -> ft.Control:
        head: list[ft.Control] = [ft.Text(f"{o.rank}.", weight=ft.FontWeight.BOLD)]
        if o.best:
            head.append(tag(f"best-{gun.ident}", pill(ft.Text("Best", size=11, weight=ft.FontWeight.BOLD,
                                                              color=ft.Colors.ON_PRIMARY), ft.Colors.PRIMARY,
                                                      "the best option: ship destroyed first, then slots expected, "
                                                      "then the keel")))
        head += [ft.Text(f"{o.target_name} {o.where}", weight=ft.FontWeight.W_600), muted(f"{o.reach} · {o.pool}", 11)]
        figures = [
            _figure(f"slot {pct(o.slot)}", f"exactly {o.slot}: a slot destroyed"),
            _figure(f"{float(o.expected_slots):.2f} slots", f"exactly {o.expected_slots} slots expected"),
            _figure(f"keel {pct(o.keel_break)}", f"exactly {o.keel_break}: the keel breaks"),
            _figure(f"ship {pct(o.ship_destroyed)}", f"exactly {o.ship_destroyed}: the ship destroyed",
                    strong=bool(o.ship_destroyed)),
        ]
        row: list[ft.Control] = [ft.Row(head, spacing=6, wrap=True, run_spacing=2),
                                 ft.Row(figures, spacing=4, wrap=True, run_spacing=4)]
        if not gun.declared:
            words = "In plan" if o.planned else "Plan"
            kind = ft.FilledTonalButton if o.planned else ft.OutlinedButton
            row.append(tag(f"plan-toggle-{o.ident}", kind(
                content=words, icon=ft.Icons.CHECK if o.planned else ft.Icons.ADD, height=TOUCH,
                on_click=on(self._toggle, o)), label=f"{words}: {o.target_name} {o.where}"))
        return tag(f"option-{o.ident}", ft.Container(
            content=ft.Column(row, spacing=4, tight=True), padding=8, border_radius=8,
            bgcolor=ft.Colors.SECONDARY_CONTAINER if o.planned else ft.Colors.SURFACE),
            label=f"{o.rank}. {'Best: ' if o.best else ''}{o.target_name} {o.where}: {o.figures}")

    # --- the plan ------------------------------------------------------------------------

    def _plan_control(self, plan: PlanView, declaring: bool) -> ft.Control:
        scopes = ft.Row([tag(f"plan-scope-{scope}", ft.Chip(
            label=ft.Text(words), selected=plan.scope == scope, show_checkmark=False, height=TOUCH,
            on_click=on(self._scope, scope))) for scope, words in (("ship", "This ship"), ("side", "Whole side"))],
            spacing=6, wrap=True)
        lines: list[ft.Control] = [heading("Fire plan"), muted(plan.title, 12), scopes,
                                   *(self._target(t) for t in plan.targets)]
        if plan.refining:
            lines.append(tag("plan-refining", muted("Working out closer figures...", 12)))
        if not plan.shots:
            lines.append(muted("No shot planned: no gun can do anything at a ship in arc and range, "
                               "or every gun holds its fire.", 12))
        for shot in plan.shots:
            lines.append(self._shot(shot, declaring))
        if declaring and len(plan.to_declare) > 1:
            lines.append(tag("plan-declare-all", ft.FilledButton(
                content=f"Declare all {len(plan.to_declare)}", icon=ft.Icons.GPS_FIXED, height=TOUCH,
                on_click=on(self._declare_all, plan.to_declare))))
        if plan.problem:
            lines.append(tag("plan-problem", ft.Text(plan.problem, color=ft.Colors.ERROR, size=13)))
        return tag("plan", ft.Container(content=ft.Column(lines, spacing=8, tight=True,
                                                          horizontal_alignment=ft.CrossAxisAlignment.STRETCH), padding=10,
                                        border_radius=10, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW))

    def _shot(self, shot: PlanShotView, declaring: bool) -> ft.Control:
        if shot.declared:
            end: ft.Control = ft.Text("declared", color=ft.Colors.PRIMARY, size=12)
        elif declaring:
            end = tag(f"plan-declare-{shot.ident}", ft.FilledTonalButton(
                content="Declare", icon=ft.Icons.GPS_FIXED, height=TOUCH, on_click=on(self._declare, shot)))
        else:
            end = ft.Container()
        return tag(f"plan-shot-{shot.ident}", ft.Row([ft.Text(shot.text, size=13), end], wrap=True, spacing=8,
                                                     run_spacing=4))

    def _target(self, t: TargetPlanView) -> ft.Control:
        return tag(f"plan-target-{t.target}", ft.Container(content=ft.Column([
            ft.Row([ft.Text(t.name, weight=ft.FontWeight.BOLD),
                    muted(f"{t.shots} shot{'s' if t.shots != 1 else ''}", 12)], spacing=8, wrap=True),
            tag(f"plan-destroyed-{t.target}", ft.Text(f"destroyed {'' if t.exact else '· '}{t.destroyed}", size=15,
                                                       weight=ft.FontWeight.BOLD)),
            muted(f"keel {_bare(t.keel)} · any slot {_bare(t.any_slot)} · {_bare(t.expected_slots)}", 12),
            muted(t.how, 11),
        ], spacing=4, tight=True), padding=8, border_radius=8, bgcolor=ft.Colors.SURFACE))

    # --- handlers ------------------------------------------------------------------------

    async def _toggle(self, option: OptionView) -> None:
        self.choices = toggled(self.choices, option)
        await self.body.frame.refresh(force=True)

    async def _scope(self, scope: str) -> None:
        self.scope = scope
        await self.body.frame.refresh(force=True)

    async def _declare(self, shot: PlanShotView) -> None:
        await self.body.frame.act(A.DeclareShot(attacker=shot.attacker, location=shot.location, slot=shot.slot,
                                                target=shot.target, target_location=shot.declare_location))

    async def _declare_all(self, shots: tuple[PlanShotView, ...]) -> None:
        """Each planned shot in turn; the first refused stops the rest (its reason is shown)."""
        for shot in shots:
            outcome = await self.body.frame.act(A.DeclareShot(
                attacker=shot.attacker, location=shot.location, slot=shot.slot, target=shot.target,
                target_location=shot.declare_location))
            if not outcome.ok:
                return
