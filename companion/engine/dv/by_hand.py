"""Decisive Victory: by hand actions and their handlers (spec §16).  Being written."""

from __future__ import annotations

from ..common import _Action
from ..kernel import Handler

ACTIONS: tuple[type[_Action], ...] = ()
HANDLERS: dict[str, Handler] = {}
