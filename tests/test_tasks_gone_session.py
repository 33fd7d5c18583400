"""A listener of a game hears a change after Flet destroyed its session (found by the monkey,
issue 25.4): Flet's `page.session` raises then; run_soon says no instead of raising into the
listener (which logged a traceback for every change to the game)."""

from __future__ import annotations

from companion.app.tasks import run_soon, session_of


class DestroyedPage:
    @property
    def session(self):
        raise RuntimeError("An attempt to fetch destroyed session.")


async def nothing() -> None:
    raise AssertionError("never run")


def test_a_destroyed_session_runs_nothing_and_raises_nothing():
    assert session_of(DestroyedPage()) is None
    assert run_soon(DestroyedPage(), nothing) is False
