"""Leviathans table companion: rules engine, store, app and command line."""

__version__ = "0.1.0"
