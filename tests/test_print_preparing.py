"""A print says "Preparing" while its page builds (issue 35: Print all of a big fleet showed nothing
until the new tab opened)."""

from __future__ import annotations

import asyncio

from companion.app.views import fleets
from companion.store.library import CardLibrary, catalogue_of


class Page:
    web = False  # the desktop window: the page is saved where the player chooses


def test_a_print_says_preparing_before_the_page_is_built(monkeypatch):
    said: list[str] = []
    built: list[int] = []
    view = object.__new__(fleets.FleetsView)
    view.app = type("App", (), {"page": Page()})()
    view._say = lambda text, error=False: said.append(text)

    def render(cards, title):
        built.append(len(said))  # what had been said when the building began
        return "<html></html>"

    async def deliver(app, name, data, what):
        return (f"Saved {name}.",)

    monkeypatch.setattr(fleets, "render", render)
    monkeypatch.setattr(fleets, "deliver", deliver)
    cards = list(catalogue_of(CardLibrary(None)).cards().values())[:12]
    asyncio.run(view._print(cards, "British Empire"))
    assert said[0] == "Preparing the print page (12 cards)..." and built == [1]
    assert said[-1].startswith("Saved ")
