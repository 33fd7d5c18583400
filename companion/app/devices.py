"""Devices at a shared table: the join PIN and its attempt limits, and who a browser is.

A device is a browser, known by a random token it keeps in its local
storage, so a phone that slept or reloaded comes back with its role.  The
host is a browser on the computer running the server (a loopback address);
every other device must give the join PIN first.  No flet here.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from ..engine.names import ANSI_REST, blank_problem, cleaned, looks_alike, name_forms
from .roles import SCREEN, TABLE, Role


def new_pin(digits: int = 6) -> str:
    """A fresh PIN from `secrets`: `digits` decimal digits, leading zeros kept."""
    return f"{secrets.randbelow(10 ** digits):0{digits}d}"


class PinGate:
    """Checks join PINs, with attempt limiting.

    Per address: `free_tries` wrong PINs in a row, then a wait that doubles
    with every further wrong PIN (30 s, 60 s, ... at most 15 minutes).  For the
    whole network: more than `network_limit` wrong PINs within
    `network_window` seconds pause the checking of PINs until the window has
    passed, so trying many addresses does not help either (a 6-digit PIN then
    takes months to guess).  A right PIN clears its address's count.

    A pause or a wait never locks the table out: `held` says a device is
    kept waiting, and `Sharing` then lists it for the host, who lets it in
    with one tap (`Sharing.let_in`).
    """

    def __init__(self, pin: str | None = None, clock: Callable[[], float] = time.monotonic,
                 free_tries: int = 5, first_wait: float = 30.0, longest_wait: float = 900.0,
                 network_limit: int = 30, network_window: float = 600.0):
        self.pin = pin or new_pin()
        self.clock = clock
        self.free_tries, self.first_wait, self.longest_wait = free_tries, first_wait, longest_wait
        self.network_limit, self.network_window = network_limit, network_window
        self._failures: dict[str, int] = {}
        self._locked_until: dict[str, float] = {}
        self._recent: list[float] = []
        self._lock = threading.Lock()

    def check(self, address: str, attempt: str) -> str | None:
        """None if `attempt` is the PIN; otherwise why not, and how long to wait if it comes to that."""
        now = self.clock()
        with self._lock:
            self._recent = [t for t in self._recent if now - t < self.network_window]
            wait = self._locked_until.get(address, 0.0) - now
            if wait > 0:
                return f"Too many wrong PINs from this device: try again in {_seconds(wait)}."
            if len(self._recent) >= self.network_limit:
                wait = self._recent[0] + self.network_window - now
                return f"Too many wrong PINs on this network: PINs are not checked for {_seconds(wait)}."
            given = "".join(ch for ch in (attempt or "") if not ch.isspace())
            if not given:
                return "Type the PIN shown on the host's screen."
            if hmac.compare_digest(given.encode(), self.pin.encode()):
                self._failures.pop(address, None)
                self._locked_until.pop(address, None)
                return None
            self._recent.append(now)
            count = self._failures.get(address, 0) + 1
            self._failures[address] = count
            if count < self.free_tries:
                left = self.free_tries - count
                return f"That PIN is not right: {left} more {'try' if left == 1 else 'tries'} before a wait."
            wait = min(self.longest_wait, self.first_wait * 2 ** (count - self.free_tries))
            self._locked_until[address] = now + wait
            return f"That PIN is not right. Too many wrong PINs from this device: try again in {_seconds(wait)}."

    def held(self, address: str) -> bool:
        """Whether a PIN from `address` would not be checked now (its own wait, or the network's pause)."""
        with self._lock:
            return self._locked_until.get(address, 0.0) > self.clock() or self._count() >= self.network_limit

    def renew(self) -> str:
        """A new PIN (the old one no longer admits), every count cleared."""
        with self._lock:
            self.pin = new_pin(len(self.pin))
            self._failures.clear()
            self._locked_until.clear()
            self._recent.clear()
            return self.pin

    def _count(self) -> int:
        """Wrong PINs on the network within the window (the lock held)."""
        now = self.clock()
        return sum(1 for t in self._recent if now - t < self.network_window)


#: Said to a device whose PIN is not checked now: the host lets it in.
WAITING = "The host can let this device in: it is listed on their screen."


def _seconds(wait: float) -> str:
    wait = max(1, round(wait))
    if wait < 90:
        return f"{wait} second{'s' if wait != 1 else ''}"
    return f"{round(wait / 60)} minutes"


def is_local(address: str | None) -> bool:
    """A loopback address: a browser on the computer that runs the server (the host)."""
    if not address:
        return False
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address == "localhost"
    mapped = getattr(ip, "ipv4_mapped", None)
    return (mapped or ip).is_loopback


def device_kind(user_agent: str | None) -> str:
    """'Phone', 'Tablet' or 'Computer', from the browser's user agent (for the host's list)."""
    agent = (user_agent or "").lower()
    if "ipad" in agent or "tablet" in agent or ("android" in agent and "mobile" not in agent):
        return "Tablet"
    if "mobi" in agent or "iphone" in agent:
        return "Phone"
    return "Computer"


#: The longest name a device may be given (issue 18: "Anna's phone").
NAME_LIMIT = 40


#: The name of the host's own browser: no other device may take it, nor a name that looks like it.
HOST_NAME = "This computer"


def named(text: str | None, taken: list[str], local: bool = False) -> tuple[str, str | None]:
    """A device's new name, tidied (`names.cleaned`: spaces run together, no control, bidi or
    zero-width characters), and why it may not have it (None: it may): empty, longer than
    `NAME_LIMIT`, what is left of a terminal escape ("[31m"), looking like the host's own
    "This computer" on a device that is not on the host (a Cyrillic о, an Armenian օ, a Cherokee Ꭲ:
    Unicode TR39's skeletons, `names.looks_alike`), showing nothing (U+3164, the Braille blank, accents
    only), or looking like another device's name (any case, any lookalike letters, blanks ignored)."""
    name = cleaned(text or "")
    if not name:
        return name, "Give the device a name."
    if len(name) > NAME_LIMIT:
        return name, f"A device's name is at most {NAME_LIMIT} characters ({len(name)} given)."
    code = ANSI_REST.search(name)
    if code:
        return name, f"'{code.group()}' is part of a terminal code: leave it out of the name."
    if blank_problem(name, "name"):
        return name, "The name shows nothing (only blanks or accents): give it letters or digits."
    host_looks = name_forms(HOST_NAME)
    if not local and any(form.startswith(host) for form in name_forms(name) for host in host_looks):
        return name, f"Only the host's own browser is called {HOST_NAME}: pick another name."
    if name.casefold() in {other.casefold() for other in taken}:
        return name, f"Another device is already called {name}: pick another name."
    alike = next((other for other in taken if looks_alike(other, name)), None)
    if alike is not None:
        return name, f"{name} looks like the name of another device, {alike}: pick another name."
    return name, None


@dataclass
class Device:
    """One browser: its token, whether it gave the PIN, its role in each game.

    `name` is what people see, and the host (or the device itself) may change it; `ident` is the
    name it was first given ("Phone 2"), never changed: the stable id of its controls."""

    token: str
    name: str
    address: str
    host: bool
    admitted: bool = False
    roles: dict[str, Role] = field(default_factory=dict)
    sessions: int = 0  # connected browser sessions (tabs) of this device
    game: str | None = None  # the game it shows now
    asks: dict[str, Role] = field(default_factory=dict)  # role changes waiting for the host, by game
    refused: dict[str, Role] = field(default_factory=dict)  # role changes the host refused, until seen
    waiting: float | None = None  # when it asked the host to let it in (None: not waiting)
    ident: str = ""
    seen_start: int = 0  # the host's games started up to this one have been offered to it (follow_host.py)

    def __post_init__(self) -> None:
        self.ident = self.ident or self.name

    @property
    def may_enter(self) -> bool:
        return self.host or self.admitted


@dataclass(frozen=True)
class Seat:
    """A device at a game, for the host's list."""

    token: str
    name: str
    role: Role | None
    online: bool
    host: bool
    asks: Role | None = None  # the role it asked the host for, if any
    ident: str = ""  # the device's stable id (its first name)

    @property
    def holds(self) -> str:
        """What the device does at this game, for the host's list: a side, 'shared screen', 'whole
        table', or 'watching' (it shows the game and holds no role yet)."""
        if self.role is None:
            return "watching"
        return {TABLE: "whole table", SCREEN: "shared screen"}.get(self.role.kind, self.role.side or "")
