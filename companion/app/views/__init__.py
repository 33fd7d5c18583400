"""Flet views: thin functions and classes that read view models and render."""
