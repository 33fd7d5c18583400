"""The static build's copy of the games to IndexedDB (companion/web/browser.py, issue 37), with a
stand-in for Emscripten's FS: a copy that races the store's renames (ENOENT) is tried again and says
nothing; one that fails for good is said to the player in words, once, and the next write tries again."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from companion.web import browser


class FakeFS:
    """`syncfs(False, done)`: answers each copy with the next of `answers` (None: copied)."""

    def __init__(self, answers):
        self.answers, self.copies = list(answers), 0

    def syncfs(self, populate, done):
        assert populate is False
        self.copies += 1
        done(self.answers.pop(0) if self.answers else None)


@pytest.fixture(autouse=True)
def plain_callbacks(monkeypatch):
    monkeypatch.setattr(browser, "create_once_callable", lambda f: f, raising=False)


def enoent():
    return SimpleNamespace(name="ErrnoError", errno=44, message="FS error")


def test_a_copy_that_races_a_rename_is_tried_again_and_says_nothing(caplog):
    fs = FakeFS([enoent(), None])
    persister, said = browser._Persister(fs), []
    persister.say = said.append
    persister.request()
    assert fs.copies == 2 and said == [] and not persister.running
    assert "did not keep" not in caplog.text


def test_storage_full_is_said_in_words_after_the_tries(caplog):
    full = SimpleNamespace(name="QuotaExceededError", message="The quota has been exceeded.")
    fs = FakeFS([full] * browser.TRIES)
    persister, said = browser._Persister(fs), []
    persister.say = said.append
    persister.request()
    assert fs.copies == browser.TRIES
    assert said == ["This browser did not keep the game: storage is full"]
    assert "QuotaExceededError" in caplog.text  # the log names the browser's error, not [object Object]
    persister.request()  # the next write tries again, and is kept
    assert fs.copies == browser.TRIES + 1 and len(said) == 1


def test_an_unknown_failure_says_what_the_browser_said():
    odd = SimpleNamespace(name="NotReadableError", message="disk gone")
    persister, said = browser._Persister(FakeFS([odd] * browser.TRIES)), []
    persister.say = said.append
    persister.request()
    assert said and said[0].startswith("This browser did not keep the game: ") and "disk gone" in said[0]
