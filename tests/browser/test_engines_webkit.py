"""The app in WebKit (Safari's engine, every iPhone browser's), as test_engines.py plays it in Firefox
(issue 37): the server app under a POSIX locale (LANG=C) and the static build, each to one shot
with its odds and a card printed from the tap; a module of its own so the suite's other worker takes it."""

from __future__ import annotations

import pytest

from .test_engines import expected, other_engines, play_in_an_engine, static_site  # noqa: F401  (the fixtures)

pytestmark = pytest.mark.browser


@other_engines
@pytest.mark.parametrize("build", ["server", "static"])
def test_the_app_in_webkit(build, expected, request, tmp_path):  # noqa: F811
    play_in_an_engine("webkit", build, request, expected, tmp_path)
