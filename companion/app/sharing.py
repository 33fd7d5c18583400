"""One table, many screens: a game shared live by every device in the room.

No flet here: the views call this module, and its tests are plain pytest.

- `Sharing` is the hub of one server process: the join PIN, the devices that
  have connected, and one `Table` per game id.
- A `Table` holds the one server-side `Game` of a game id (the store hands out
  one object per id) and tells every subscribed session about each change, in
  order, with a rising version number.  Every change made through the app goes
  through `Table.act`/`undo`/`redo`, which check the device's permission on
  the server before the game is touched, and remember which device made each
  log entry.
- A device is a browser, known by a random token it keeps in its local
  storage, so a phone that slept or reloaded comes back with its role.  The
  host is a browser on the computer running the server (a loopback address);
  every other device must give the join PIN first.
- Roles: a device holds one side, or is the shared screen (read-only, for a
  TV), or the whole table (every side: the one-device game, the host's
  default).  `may(role, action, state)` says in plain words why a role may not
  take an action, or None.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import logging
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..engine.game import Refused
from ..engine.kernel import RefusalKind
from ..engine.quick_start import QUICK_START
from ..engine.ruleset import Ruleset
from ..engine.state import GameState
from ..store.game import Game, LogEntry, undo_stacks

log = logging.getLogger(__name__)

# --- roles -----------------------------------------------------------------------------

TABLE, SIDE, SCREEN = "table", "side", "screen"

#: What an action of a side does, in words: "only a device holding British can <verb> it".  Who
#: each action belongs to is the game's ruleset's (`Ruleset.side_of`, `table_actions`).
_VERBS = {
    "step": "move", "place": "move", "end_move": "move", "pivot": "move", "declare_shot": "fire its guns",
    "declare_attack": "fire its guns", "resolve_shot": "roll its shots", "cancel_shot": "cancel its shots",
    "roll_attack": "roll its attacks", "cancel_attack": "cancel its attacks",
    "mark_slot": "mark its ship card", "set_keel": "mark its ship card", "mark_location": "mark its ship card",
    "set_stats": "change its stats", "set_casualty": "mark its ship card",
}


@dataclass(frozen=True)
class Role:
    """What one device may do in one game: `table` (every side), one `side`, or `screen`."""

    kind: str
    side: str | None = None

    @classmethod
    def table(cls) -> "Role":
        return cls(TABLE)

    @classmethod
    def screen(cls) -> "Role":
        return cls(SCREEN)

    @classmethod
    def holding(cls, side: str) -> "Role":
        return cls(SIDE, side)

    @property
    def key(self) -> str:
        """A stable string id: `table`, `screen` or `side:British`."""
        return f"{SIDE}:{self.side}" if self.kind == SIDE else self.kind

    @classmethod
    def from_key(cls, key: str) -> "Role":
        if key in (TABLE, SCREEN):
            return cls(key)
        if key.startswith(f"{SIDE}:") and len(key) > len(SIDE) + 1:
            return cls.holding(key[len(SIDE) + 1:])
        raise ValueError(f"not a role: {key!r} (table, screen or side:NAME)")

    @property
    def label(self) -> str:
        if self.kind == TABLE:
            return "Whole table (every side)"
        if self.kind == SCREEN:
            return "Shared screen (watch only)"
        return f"{self.side}"

    @property
    def read_only(self) -> bool:
        return self.kind == SCREEN


def _action_data(action) -> dict[str, Any]:
    if isinstance(action, dict):
        return action
    return action.model_dump(mode="json")


def action_side(action, state: GameState, ruleset: Ruleset = QUICK_START) -> str | None:
    """The side an action belongs to, or None for a table action, a shot no longer in play or an unknown kind."""
    data = _action_data(action)
    if data.get("kind") not in ruleset.side_of:
        return None
    return ruleset.side(data, state)


def _subject(data: dict[str, Any], state: GameState, side: str) -> str:
    """'HML Raven is a British ship' / 'shot 3 is a British shot': what the action touches."""
    kind = data.get("kind")
    ship = data.get("attacker") if kind in ("declare_shot", "declare_attack") else data.get("ship")
    if kind in ("resolve_shot", "cancel_shot"):
        shot = next((s for s in state.shots if s.id == data.get("shot")), None)
        ship = shot.attacker if shot else None
    if isinstance(ship, str) and state.has_ship(ship):
        found = state.ship(ship)
        return f"{found.card.name if hasattr(found, 'card') else found.name} is a {side} ship"
    return f"that belongs to {side}"


def may(role: Role | None, action, state: GameState, ruleset: Ruleset = QUICK_START) -> str | None:
    """Why `role` may not take `action` now, in plain words; None if it may.

    Only who may act is decided here; whether the rules allow the action is
    `engine.apply`'s business.  Table actions (initiative, starting the game,
    ending movement or the turn, the rule-check switch) are anyone's who holds
    a side: every player takes those steps together.  A side may concede only
    for itself.
    """
    if role is None:
        return "This device has not joined this game yet: pick a side or the shared screen first."
    if role.kind == SCREEN:
        return "This is the shared screen: it shows the game to everyone and cannot change it."
    if role.kind == TABLE:
        return None
    data = _action_data(action)
    kind = data.get("kind")
    if kind in ruleset.table_actions:
        return None
    if kind not in ruleset.side_of:  # fail closed: a kind the rules give to no side and not to the table
        return f"This device holds {role.side}: {kind!r} is not an action of {ruleset.name} it can take."
    side = action_side(data, state, ruleset)
    if side is None or side == role.side:
        return None
    if kind == "concede":
        return f"Only a device holding {side} can concede for {side}; this device holds {role.side}."
    verb = _VERBS.get(kind, "act for it")
    return f"{_subject(data, state, side)}: only a device holding {side} can {verb}. This device holds {role.side}."


def may_undo(role: Role | None, entries: list[LogEntry], state: GameState,
             ruleset: Ruleset = QUICK_START) -> str | None:
    """You may undo what you may do: the last action in effect must be one `role` could take."""
    done, _ = undo_stacks(entries)
    if role is not None and role.kind == SCREEN:
        return may(role, {}, state)
    if not done:
        return None  # nothing to undo: the game says so
    problem = may(role, done[-1], state, ruleset)
    return None if problem is None else f"Not undone. {problem}"


def may_redo(role: Role | None, entries: list[LogEntry], state: GameState,
             ruleset: Ruleset = QUICK_START) -> str | None:
    _, undone = undo_stacks(entries)
    if role is not None and role.kind == SCREEN:
        return may(role, {}, state)
    if not undone:
        return None
    problem = may(role, undone[-1], state, ruleset)
    return None if problem is None else f"Not redone. {problem}"


# --- the join PIN ------------------------------------------------------------------------


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
        now = self.clock()
        with self._lock:
            if self._locked_until.get(address, 0.0) > now:
                return True
            return sum(1 for t in self._recent if now - t < self.network_window) >= self.network_limit

    def renew(self) -> str:
        """A new PIN (the old one no longer admits), every count cleared."""
        with self._lock:
            self.pin = new_pin(len(self.pin))
            self._failures.clear()
            self._locked_until.clear()
            self._recent.clear()
            return self.pin

    @property
    def recent_failures(self) -> int:
        now = self.clock()
        with self._lock:
            return sum(1 for t in self._recent if now - t < self.network_window)


#: Said to a device whose PIN is not checked now: the host lets it in.
WAITING = "The host can let this device in: it is listed on their screen."


def _role_words(role: Role) -> str:
    return {TABLE: "the whole table", SCREEN: "the shared screen"}.get(role.kind, role.side or "")


def _seconds(wait: float) -> str:
    wait = max(1, round(wait))
    if wait < 90:
        return f"{wait} second{'s' if wait != 1 else ''}"
    return f"{round(wait / 60)} minutes"


# --- devices ---------------------------------------------------------------------------------


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


@dataclass
class Device:
    """One browser: its token, whether it gave the PIN, its role in each game."""

    token: str
    name: str
    address: str
    host: bool
    admitted: bool = False
    roles: dict[str, Role] = field(default_factory=dict)
    sessions: int = 0  # connected browser sessions (tabs) of this device
    game: str | None = None  # the game it shows now
    asks: dict[str, Role] = field(default_factory=dict)  # role changes waiting for the host, by game
    waiting: float | None = None  # when it asked the host to let it in (None: not waiting)

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


@dataclass(frozen=True)
class Change:
    """A change told to the sessions of a table: `game` (a log entry) or `seats` (roles)."""

    version: int
    kind: str
    entry: LogEntry | None = None


Subscriber = Callable[[Change], None]


class Table:
    """One shared game: the one `Game` object every session acts through, and who listens.

    `act`, `undo` and `redo` check the device's role first, on the server, and
    hold the table's lock around the change, so the device that made each log
    entry is known exactly (`actor_of`).  Subscribers hear every change in the
    order it happened (the version rises by one each time), on the thread that
    made it: a subscriber only schedules work on its own session's loop.
    """

    def __init__(self, game: Game, sharing: "Sharing"):
        self.game = game
        self.sharing = sharing
        self.version = 0
        self._subscribers: list[Subscriber] = []
        self._lock = threading.RLock()
        self._act_lock = threading.Lock()
        self._actors: dict[int, str] = {}
        self._code: tuple[GameState, str] | None = None
        self._stop = game.listen(self._game_changed)

    @property
    def id(self) -> str:
        return self.game.id

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        with self._lock:
            self._subscribers.append(subscriber)

        def stop() -> None:
            with self._lock:
                if subscriber in self._subscribers:
                    self._subscribers.remove(subscriber)

        return stop

    @property
    def listeners(self) -> int:
        with self._lock:
            return len(self._subscribers)

    def _game_changed(self, game: Game, entry: LogEntry) -> None:
        self._broadcast("game", entry)

    def seats_changed(self) -> None:
        self._broadcast("seats")

    def _broadcast(self, kind: str, entry: LogEntry | None = None) -> None:
        with self._lock:
            self.version += 1
            change = Change(self.version, kind, entry)
            for subscriber in list(self._subscribers):
                try:
                    subscriber(change)
                except Exception:  # a closed session must not stop the others hearing
                    pass

    # --- changes, checked -------------------------------------------------------------------

    def act(self, device: Device, action):
        """The action, if this device may take it; else a `Refused` saying why (nothing changes)."""
        with self._act_lock:
            problem = self.sharing.refusal(device, self.id) or may(
                self.sharing.role(device, self.id), action, self.game.state, self.game.ruleset)
            if problem:
                log.info("game %s refused %s from %s: %s", self.id, _action_data(action).get("kind"), device.name, problem)
                return Refused(problem, RefusalKind.SIDE)
            before = len(self.game.entries)
            outcome = self.game.act(action)
            if not outcome.ok:
                log.info("game %s refused %s from %s: %s", self.id, _action_data(action).get("kind"),
                         device.name, outcome.reason)
            self._note_actor(device, before)
            return outcome

    def undo(self, device: Device) -> str | None:
        """None if undone; otherwise why not."""
        return self._change(device, may_undo, self.game.undo, "There is nothing to undo.")

    def redo(self, device: Device) -> str | None:
        return self._change(device, may_redo, self.game.redo, "There is nothing to redo.")

    def _change(self, device: Device, check, change, nothing: str) -> str | None:
        with self._act_lock:
            role = self.sharing.role(device, self.id)
            problem = self.sharing.refusal(device, self.id) or check(role, self.game.entries, self.game.state,
                                                                     self.game.ruleset)
            if problem:
                return problem
            before = len(self.game.entries)
            if not change():
                return self.game.save_problem or nothing
            self._note_actor(device, before)
            return None

    def _note_actor(self, device: Device, before: int) -> None:
        """Remember (and log, for the host's terminal) which device made each new log entry."""
        for index in range(before, len(self.game.entries)):
            self._actors[index] = device.name
            entry = self.game.entries[index]
            what = entry.action.get("kind") if entry.action else entry.kind
            log.info("game %s entry %d %s by %s", self.id, index, what, device.name)

    def check_code(self) -> str:
        """A short code of the position now: the same on every screen that shows the same game state."""
        state = self.game.state
        with self._lock:
            if self._code is None or self._code[0] is not state:
                digest = hashlib.sha256(state.model_dump_json().encode()).hexdigest()[:6]
                self._code = (state, digest)
            return self._code[1]

    def actor_of(self, index: int) -> str | None:
        """The device that made log entry `index` (None: before this server started)."""
        return self._actors.get(index)


class Sharing:
    """The hub of one server process: the PIN, the devices, one `Table` per game.

    `address` is the join address for phones (None when the server listens on
    loopback only: then no other device can reach it).
    """

    def __init__(self, gate: PinGate | None = None, address: str | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.gate = gate or PinGate()
        self.address = address
        self.clock = clock
        self._devices: dict[str, Device] = {}
        self._tables: dict[str, Table] = {}
        self._counts: dict[str, int] = {}
        self._listeners: list[Callable[[], None]] = []
        self._lock = threading.RLock()

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Hear every change to the devices (joined, waiting, let in, forgotten, asking for a role):
        the host's lists and a waiting device's screen follow it.  Returns the way to stop."""
        with self._lock:
            self._listeners.append(listener)

        def stop() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return stop

    def _devices_changed(self) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener()
            except Exception:  # a closed session must not stop the others hearing
                pass

    @property
    def pin(self) -> str:
        return self.gate.pin

    # --- devices -----------------------------------------------------------------------------

    def connect(self, token: str | None, address: str | None, user_agent: str | None = None) -> Device:
        """The device of a browser session: known by its token, or new (with a new token)."""
        local = is_local(address)
        with self._lock:
            device = self._devices.get(token or "")
            if device is None:
                kind = "This computer" if local else device_kind(user_agent)
                self._counts[kind] = self._counts.get(kind, 0) + 1
                name = kind if local and self._counts[kind] == 1 else f"{kind} {self._counts[kind]}"
                device = Device(secrets.token_urlsafe(18), name, address or "", local)
                self._devices[device.token] = device
            device.host = local  # hosting follows where the browser is, never the token alone
            device.address = address or device.address
            device.sessions += 1
        self._devices_changed()
        return device

    def reconnect(self, device: Device) -> None:
        """A session of the device is back (a phone woke up)."""
        with self._lock:
            device.sessions += 1
        if device.game:
            self._seats_changed(device.game)
        if device.waiting is not None:  # back on the host's list
            self._devices_changed()

    def disconnect(self, device: Device) -> None:
        with self._lock:
            device.sessions = max(0, device.sessions - 1)
        if device.game:
            self._seats_changed(device.game)
        if device.waiting is not None:  # off the host's list of devices asking to join
            self._devices_changed()

    def device(self, token: str) -> Device | None:
        with self._lock:
            return self._devices.get(token)

    def admit(self, device: Device, attempt: str) -> str | None:
        """Check a join PIN on the server: None (the device may enter) or why not.

        A device whose PIN is not checked now (its own wait, or the network's pause after many
        wrong PINs) is listed for the host, who can let it in with one tap: guessing stays slow,
        and the table is never locked out.
        """
        if device.may_enter:
            return None
        problem = self.gate.check(device.address, attempt)
        if problem is None:
            self._let_in(device)
            return None
        if self.gate.held(device.address):
            self.ask_in(device)
            return f"{problem} {WAITING}"
        return problem

    def ask_in(self, device: Device) -> None:
        """The device asks the host to let it in without the PIN (listed on the host's screen)."""
        if device.may_enter:
            return
        with self._lock:
            if device.waiting is None:
                device.waiting = self.clock()
        self._devices_changed()

    def waiting(self) -> list[Device]:
        """Devices asking to be let in and still connected, the latest first (for the host's screen)."""
        with self._lock:
            ask = [d for d in self._devices.values() if d.waiting is not None and not d.may_enter and d.sessions > 0]
        return sorted(ask, key=lambda d: d.waiting, reverse=True)

    def let_in(self, by: Device, token: str) -> str | None:
        """The host lets a waiting device in (no PIN needed): None, or why not."""
        if not by.host:
            return "Only the host can let a device in."
        device = self.device(token)
        if device is None:
            return "That device has left."
        self._let_in(device)
        return None

    def turn_away(self, by: Device, token: str) -> str | None:
        """The host takes a device off the waiting list (it stays out until it gives the PIN)."""
        if not by.host:
            return "Only the host can turn a device away."
        device = self.device(token)
        if device is not None:
            with self._lock:
                device.waiting = None
            self._devices_changed()
        return None

    def _let_in(self, device: Device) -> None:
        with self._lock:
            device.admitted = True
            device.waiting = None
            if self._devices.get(device.token) is not device:  # forgotten meanwhile: a new token
                device.token = secrets.token_urlsafe(18)
                self._devices[device.token] = device
        self._devices_changed()

    def forget(self, by: Device, token: str) -> str | None:
        """The host forgets a device: its token no longer admits, its roles are gone, its screens
        go back to the PIN.  The host's own browsers are not forgotten."""
        if not by.host:
            return "Only the host can forget a device."
        device = self.device(token)
        if device is None:
            return "That device has left."
        if device.host:
            return "The host's own browser is always let in: it cannot be forgotten."
        self._forget(device)
        self._devices_changed()
        return None

    def _forget(self, device: Device) -> None:
        with self._lock:
            self._devices.pop(device.token, None)
            games = set(device.roles) | set(device.asks) | ({device.game} - {None})
            device.admitted, device.waiting = False, None
            device.roles.clear()
            device.asks.clear()
        for game_id in games:
            self._seats_changed(game_id)

    def renew_pin(self, by: Device) -> str | None:
        """The host draws a new PIN: every other device's token ends with the old one (each gives
        the new PIN to come back).  A restart draws a new PIN and knows no old token either."""
        if not by.host:
            return "Only the host can change the PIN."
        self.gate.renew()
        for device in [d for d in self.devices() if not d.host]:
            self._forget(device)
        self._devices_changed()
        return None

    def refusal(self, device: Device, game_id: str | None = None) -> str | None:
        """Why this device may not see or change anything yet (no PIN given), or None."""
        if not device.may_enter:
            return "Enter the join PIN shown on the host's screen first."
        return None

    def may_start(self, device: Device) -> str | None:
        """Why this device may not start a game on the host (Quick-Start, New game, Load a
        scenario), or None: only the host's own browser starts games; the others join them."""
        if device.host:
            return None
        return ("Only the host starts games, on the computer running the app: ask them to start one, "
                "then open it from the home screen.")

    def may_edit_cards(self, device: Device) -> str | None:
        """Why this device may not change the ship cards (new, edit, import, delete), or None: the
        card library is the host's, so only the host's own browser changes it (issue 11)."""
        if device.host:
            return None
        return ("Only the host changes the ship cards, on the computer running the app: "
                "the fleets and the card editor open on the host's screen.")

    # --- roles --------------------------------------------------------------------------------

    def role(self, device: Device, game_id: str) -> Role | None:
        """The device's role in a game; the host plays the whole table until it picks another."""
        with self._lock:
            role = device.roles.get(game_id)
        if role is None and device.host:
            return Role.table()
        return role

    def choices(self, device: Device, state: GameState) -> list[Role]:
        """The roles a device may pick: each side and the shared screen (the host: the whole table too)."""
        roles = [Role.holding(side) for side in state.sides] + [Role.screen()]
        return ([Role.table()] if device.host else []) + roles

    def choose(self, device: Device, game: Game, role: Role) -> str | None:
        """A device picks its first role in a game (the whole table is the host's to give); once it
        holds one, another device's change waits for the host (`ask_role`).  The host picks freely."""
        problem = self.refusal(device)
        if problem:
            return problem
        if role.kind == TABLE and not device.host:
            return "Only the host can give a device the whole table."
        with self._lock:
            current = device.roles.get(game.id)
        if current is not None and current != role and not device.host:
            return (f"This device holds {_role_words(current)}: ask the host to change it "
                    "(they approve it on their screen).")
        return self._set_role(device, game, role)

    def ask_role(self, device: Device, game: Game, role: Role) -> str | None:
        """A device asks the host for another role in a game; asking for the role it holds takes
        the question back.  None, or why it cannot ask."""
        problem = self.refusal(device)
        if problem:
            return problem
        if role.kind == TABLE and not device.host:
            return "Only the host can give a device the whole table."
        if role.kind == SIDE and role.side not in game.state.sides:
            return f"There is no side '{role.side}' in this game (sides: {', '.join(game.state.sides)})."
        with self._lock:
            if device.roles.get(game.id) in (None, role):
                device.asks.pop(game.id, None)
            else:
                device.asks[game.id] = role
        self._seats_changed(game.id)
        self._devices_changed()
        return None

    def asked(self, device: Device, game_id: str) -> Role | None:
        """The role this device asked the host for in a game, waiting for an answer."""
        with self._lock:
            return device.asks.get(game_id)

    def answer(self, by: Device, token: str, game: Game, approve: bool) -> str | None:
        """The host approves (the device takes the role it asked for) or refuses a role change."""
        if not by.host:
            return "Only the host can approve a change of role."
        device = self.device(token)
        if device is None:
            return "That device has left."
        with self._lock:
            role = device.asks.pop(game.id, None)
        if role is None:
            return f"{device.name} is not asking for a change now."
        problem = self._set_role(device, game, role) if approve else None
        if not approve:
            self._seats_changed(game.id)
        self._devices_changed()
        return problem

    def requests(self) -> list[tuple[Device, str, Role]]:
        """Every role change waiting for the host: (device, game id, role asked for)."""
        with self._lock:
            return [(d, game_id, role) for d in self._devices.values() for game_id, role in d.asks.items()]

    def hand_over(self, by: Device, token: str, game: Game, role: Role | None) -> str | None:
        """The host gives a device a role in a game (a side, the screen, the whole table), or none."""
        if not by.host:
            return "Only the host can hand a side over."
        device = self.device(token)
        if device is None:
            return "That device has left."
        with self._lock:
            device.asks.pop(game.id, None)  # the host's word answers any question
        if role is None:
            with self._lock:
                device.roles.pop(game.id, None)
            self._seats_changed(game.id)
            self._devices_changed()
            return None
        problem = self._set_role(device, game, role)
        self._devices_changed()
        return problem

    def _set_role(self, device: Device, game: Game, role: Role) -> str | None:
        if role.kind == SIDE and role.side not in game.state.sides:
            sides = ", ".join(game.state.sides)
            return f"There is no side '{role.side}' in this game (sides: {sides})."
        with self._lock:
            device.roles[game.id] = role
        self._seats_changed(game.id)
        return None

    def seats(self, game_id: str) -> list[Seat]:
        """Every device that has a role in, or shows, a game: for the host's hand-over list."""
        with self._lock:
            devices = [d for d in self._devices.values() if game_id in d.roles or d.game == game_id]
            return [Seat(d.token, d.name, self.role(d, game_id), d.sessions > 0, d.host, d.asks.get(game_id))
                    for d in devices]

    def devices(self) -> list[Device]:
        with self._lock:
            return list(self._devices.values())

    # --- tables ---------------------------------------------------------------------------------

    def table(self, game: Game) -> Table:
        """The table of a game: one per game id (a new one if the store opened the game anew)."""
        with self._lock:
            table = self._tables.get(game.id)
            if table is None or table.game is not game:
                table = self._tables[game.id] = Table(game, self)
            return table

    def game(self, game_id: str) -> Game | None:
        """The game of an open table (None: no device has opened it since the server started)."""
        with self._lock:
            table = self._tables.get(game_id)
        return table.game if table is not None else None

    def showing(self, device: Device, game_id: str | None) -> None:
        """The device now shows this game (or none)."""
        old = device.game
        device.game = game_id
        for changed in {old, game_id} - {None}:
            self._seats_changed(changed)

    def _seats_changed(self, game_id: str) -> None:
        with self._lock:
            table = self._tables.get(game_id)
        if table is not None:
            table.seats_changed()
