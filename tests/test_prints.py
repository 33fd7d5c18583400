"""Print pages handed out once at /print/<token> (issue 14.11): the print dialog added, unknown or
old tokens not found, at most KEPT pages kept."""

from __future__ import annotations

from companion.app import prints


def test_a_kept_print_page_opens_its_print_dialog_and_only_at_its_own_address(monkeypatch):
    address = prints.keep("<!DOCTYPE html><html><body><h1>Pelletier II</h1></body></html>")
    assert address.startswith(prints.PREFIX) and len(address) > len(prints.PREFIX) + 20
    page = prints.page_at(address)
    assert "Pelletier II" in page and page.index("window.print()") < page.index("</body>")
    assert prints.page_at(prints.PREFIX + "guess") is None
    later = prints.time.monotonic() + prints.PRINT_SECONDS + 1
    monkeypatch.setattr(prints.time, "monotonic", lambda: later)
    assert prints.page_at(address) is None  # out of date


def test_only_the_newest_pages_are_kept():
    addresses = [prints.keep(f"<body>{n}</body>") for n in range(prints.KEPT + 5)]
    assert all(prints.page_at(a) is None for a in addresses[:5])
    assert all(prints.page_at(a) is not None for a in addresses[5:])
