"""Print pages the server hands out once: a card's print-ready page opened in a new browser tab at
`/print/<token>`, where the browser's print dialog opens by itself (and offers Save as PDF).

A page is kept for PRINT_SECONDS under a token nobody can guess, and at most KEPT of them: a
print page is the cards' public values, but a device gets only the page it asked for.
"""

from __future__ import annotations

import secrets
import threading
import time

PRINT_SECONDS = 600
KEPT = 20
PREFIX = "/print/"
#: Run by the page once it has loaded: the browser's print dialog, as if the player pressed Ctrl+P.
#: Before it, on a screen narrower than a card (277 mm landscape, about 1,060 px), the page is zoomed
#: to the screen's width, so a phone shows the whole card before its print dialog (issue 37); the
#: printed page is not zoomed.  (A phone widens its layout to a page's content: the screen's own
#: width is the one to fit.)
PRINT_DIALOG = ("<style>@media print { body { zoom: 1 !important; } }</style>"
                "<script>(() => { const fit = () => { const width = Math.min(innerWidth, screen.width || innerWidth);"
                " document.body.style.zoom = width < 1070 ? String(width / 1070) : ''; }; fit();"
                " addEventListener('resize', fit); })();"
                "window.addEventListener('load', () => setTimeout(() => window.print(), 300));</script>")

_pages: dict[str, tuple[float, str]] = {}
_lock = threading.Lock()


def keep(html: str) -> str:
    """Keep a print page (its print dialog added); the address to open it at."""
    token = secrets.token_urlsafe(18)
    page = html.replace("</body>", f"{PRINT_DIALOG}\n</body>", 1)
    with _lock:
        _pages[token] = (time.monotonic() + PRINT_SECONDS, page)
        for old in sorted(_pages, key=lambda t: _pages[t][0])[:-KEPT]:
            del _pages[old]
    return PREFIX + token


def page_at(path: str) -> str | None:
    """The print page kept at this address, or None (unknown, or out of date)."""
    with _lock:
        kept = _pages.get(path.removeprefix(PREFIX))
    return kept[1] if kept and kept[0] > time.monotonic() else None
