"""Entry point of the static web build: the archive's `main.py` (Flet's Pyodide worker runs it as
`__main__`; imported, it does nothing).

The same app as `companion`, over a store kept in the browser (`companion.web.browser`, `companion.web.start`).
"""

import flet as ft

from companion.web.start import browser_main

if __name__ == "__main__":
    ft.run(browser_main)
