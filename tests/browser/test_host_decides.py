"""What only the host decides, in real browsers (issue 25 part 8): a phone whose role request the
host refused is told so, and a guest is not offered 'Rule checks off' while the host's is noted on
every player's screen."""

from __future__ import annotations

import pytest

from .conftest import by_id, shoot, tap_until
from .test_sharing import host_game_and_british_phone, label, shared_server, wait_log, wait_words  # noqa: F401  (a fixture)

pytestmark = pytest.mark.browser

OFF_NOTE = "Rule checks are off for the whole game"


def tap_words(page, words: str, timeout: float = 10.0) -> None:
    """Tap the semantics node that says `words` (a menu item without an identifier)."""
    wait_words(page, words, timeout)
    page.locator(f"flt-semantics[aria-label*='{words}']").or_(
        page.locator("flt-semantics", has_text=words)).last.click()


def test_a_refused_phone_is_told_and_only_the_host_turns_rule_checks_off(shared_server, browser):
    server = shared_server
    host_ctx, host, game_path, phone_ctx, phone = host_game_and_british_phone(server, browser)

    # the phone asks for French; the host refuses; the phone is told, until it taps OK
    by_id(phone, "change-role").click()
    by_id(phone, "role-needs-host").wait_for(timeout=10000)
    tap_until(phone, "role-side-French", "role-asked")
    refuse = host.locator("[flt-semantics-identifier^='refuse-']")
    refuse.first.wait_for(timeout=10000)
    refuse.first.click()
    by_id(phone, "role-refused").wait_for(timeout=15000)
    said = label(by_id(phone, "role-refused"))
    assert "The host refused your request for French: this device still holds British." in said
    assert by_id(phone, "role-asked").count() == 0
    shoot(phone, "role-refused-phone")
    by_id(phone, "role-refused-ok").click()
    by_id(phone, "role-refused").wait_for(state="detached", timeout=15000)
    assert "This device: British" in label(by_id(phone, "my-role"))

    # a guest's menu has no 'Rule checks off' (issue 35: the host's switch, which the server refuses
    # any guest, tests/test_host_decides.py); the host's is noted on the phone too
    by_id(phone, "menu").click()
    wait_words(phone, "Theme: light, dark or high contrast")
    assert not phone.evaluate("""() => [...document.querySelectorAll('flt-semantics')].some(
        e => ((e.getAttribute('aria-label') || '') + (e.textContent || '')).includes('Rule checks off'))""")
    phone.keyboard.press("Escape")
    by_id(host, "menu").click()
    tap_words(host, "Rule checks off (bookkeeping)")
    wait_log(host, 1, timeout=15)  # the host's switch is taken (one log entry)
    wait_words(phone, OFF_NOTE, timeout=15)  # and the phone is told
    shoot(phone, "rule-checks-off-phone", settled=False)
    for ctx in (host_ctx, phone_ctx):
        ctx.close()
