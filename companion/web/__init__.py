"""The static web build (issue 29): the whole app running in the browser, with no server.

`build.py` writes the folder (`companion build-web OUT`) on the building computer: Flet's
web client in Pyodide mode, the Pyodide runtime, the app and its wheels, the fonts, the
icons, the manifest and a service worker.  `browser.py` runs inside the page (Pyodide):
the one switch for what a browser cannot do (threads, a data folder that survives the
tab), then the same `create_app` as `companion`.
"""
