"""One table, many screens: a game shared live by every device in the room.

No flet here: the views call this module, and its tests are plain pytest.

- `Sharing` is the hub of one server process: the join PIN, the devices that
  have connected (devices.py), and one `Table` per game id.
- A `Table` holds the one server-side `Game` of a game id (the store hands out
  one object per id) and tells every subscribed session about each change, in
  order, with a rising version number.  Every change made through the app goes
  through `Table.act`/`undo`/`redo`, which check the device's permission on
  the server (roles.py) before the game is touched, and remember which device
  made each log entry.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Callable

from ..engine.kernel import RefusalKind, Refused
from ..store.game import Game, GameState, LogEntry, undo_stacks
from .devices import WAITING, Device, PinGate, Seat, device_kind, is_local, named
from .follow_host import Offer, Started, offer_for
from .listeners import subscribe as _subscribe, tell as _tell
from .roles import (SIDE, TABLE, Role, action_data, ends_others_moves, host_ended_note, host_only, may, may_redo,
                    may_undo, others_unmoved, role_words)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Change:
    """A change told to the sessions of a table: `game` (a log entry) or `seats` (roles)."""

    version: int
    kind: str
    entry: LogEntry | None = None


Subscriber = Callable[[Change], None]

#: Said to a device that changed the game from a position it no longer shows (issue 25 part 6:
#: boardgame.io's stale-state refusal; two phones tapping Undo at once undo one action, not two).
MOVED_ON = "The game moved on: look again."


@dataclass
class Sight:
    """What the server last showed one screen of a game (`shown`, set by the screen on the server,
    never from the browser's word) and the state that screen's own last change left (`made`).

    A change is taken only if the game still stands where this screen saw it: at the state it
    showed, or at the one its own last change made (a screen sees its own change, so several steps
    in a row, such as rolling every attack, go on).  The states are the game's own objects, and
    every change makes a new one, so the state is the log position it stands for; one comes back
    only where an undo lands on a kept checkpoint, which is then exactly the position shown."""

    shown: GameState | None = None
    made: GameState | None = None

    def sees(self, state: GameState) -> bool:
        return state is not None and (state is self.shown or state is self.made)


class Table:
    """One shared game: the one `Game` object every session acts through, and who listens.

    `act`, `undo` and `redo` check the device's role first, on the server, and
    hold the table's lock around the change, so the device that made each log
    entry is known exactly (`actor_of`).  Given the screen's `Sight`, they also
    refuse a change made from a position the game has moved on from (`MOVED_ON`).  Subscribers hear every change in the
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
        self._notes: dict[int, str] = {}  # log entry -> what every screen is told of it (`note_of`)
        self._code: tuple[GameState, str] | None = None
        self._stop = game.listen(lambda game, entry: self._broadcast("game", entry))

    @property
    def id(self) -> str:
        return self.game.id

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        return _subscribe(self._lock, self._subscribers, subscriber)

    @property
    def listeners(self) -> int:
        with self._lock:
            return len(self._subscribers)

    def seats_changed(self) -> None:
        self._broadcast("seats")

    def _broadcast(self, kind: str, entry: LogEntry | None = None) -> None:
        with self._lock:
            self.version += 1
            _tell(list(self._subscribers), Change(self.version, kind, entry))

    # --- changes, checked -------------------------------------------------------------------

    def act(self, device: Device, action, sight: Sight | None = None):
        """The action, if this device may take it from where its screen saw the game (`sight`:
        None for a caller with no screen, such as a test); else a `Refused` saying why (nothing
        changes)."""
        with self.game.lock, self._act_lock:  # the game's lock first, as a pocket battle takes them
            role, state, ruleset = self.sharing.role(device, self.id), self.game.state, self.game.ruleset
            problem = (self.sharing.refusal(device) or self._moved_on(device, sight, "act")
                       or host_only(action, device.host) or may(role, action, state, ruleset)
                       or ends_others_moves(role, action, state, ruleset, device.host))
            before = len(self.game.entries)
            if not problem:
                self._note_ended_moves(device, role, action, before)
            outcome = Refused(problem, RefusalKind.SIDE) if problem else self.game.act(action)
            if isinstance(outcome, Refused):
                self._notes.pop(before, None)
            if isinstance(outcome, Refused):
                log.info("game %s refused %s from %s: %s", self.id, action_data(action).get("kind"),
                         device.name, outcome.reason)
            self._note_actor(device, before, sight)
            return outcome

    def _note_ended_moves(self, device: Device, role: Role | None, action, index: int) -> None:
        """The host ends movement while another side, held on another device, still has ships to move
        (issue 35): every screen is told so with the entry the action makes (`note_of`)."""
        left = others_unmoved(role, action, self.game.state, self.game.ruleset)
        if left and any(other is not device and self.id in other.roles for other in self.sharing.devices()):
            note = host_ended_note(left)
            self._notes[index] = note if device.host else note.replace("The host", device.name, 1)

    def note_of(self, entry: LogEntry | None) -> str | None:
        """What every screen showing the game says of a log entry (the host ended another side's
        moves), or None."""
        return self._notes.get(entry.index) if entry is not None and entry.kind == "action" else None

    def undo(self, device: Device, sight: Sight | None = None) -> str | None:
        """None if undone; otherwise why not (nothing to undo, another side's, or the game moved on)."""
        return self._change(device, may_undo, self.game.undo, "There is nothing to undo.", sight)

    def redo(self, device: Device, sight: Sight | None = None) -> str | None:
        return self._change(device, may_redo, self.game.redo, "There is nothing to redo.", sight)

    def _change(self, device: Device, check, change, nothing: str, sight: Sight | None) -> str | None:
        with self.game.lock, self._act_lock:  # the game's lock first, as a pocket battle takes them
            role = self.sharing.role(device, self.id)
            problem = self.sharing.refusal(device) or self._moved_on(device, sight, change.__name__) or check(
                role, self.game.entries, self.game.state, self.game.ruleset) or self._host_only_change(device, change)
            if problem:
                return problem
            before = len(self.game.entries)
            if not change():
                return self.game.save_problem or nothing
            self._note_actor(device, before, sight)
            return None

    def _host_only_change(self, device: Device, change) -> str | None:
        """Why this device may not undo or redo the last action (the host's rule-check switch), or None."""
        undo, redo = undo_stacks(self.game.entries)
        stack = undo if change.__name__ == "undo" else redo
        return host_only(stack[-1], device.host) if stack else None

    def _moved_on(self, device: Device, sight: Sight | None, what: str) -> str | None:
        """`MOVED_ON` if the game changed since this device's screen saw it (the locks held), or None."""
        if sight is None or sight.sees(self.game.state):
            return None
        log.info("game %s refused %s from %s: the game moved on (log %d)", self.id, what, device.name,
                 len(self.game.entries))
        return MOVED_ON

    def _note_actor(self, device: Device, before: int, sight: Sight | None = None) -> None:
        """Remember (and log, for the host's terminal) which device made each new log entry; the
        screen that made a change has seen the position it left."""
        if sight is not None and len(self.game.entries) > before:
            sight.made = self.game.state
        for index in range(before, len(self.game.entries)):
            self._actors[index] = device.name
            entry = self.game.entries[index]
            what = entry.action.get("kind") if entry.action else entry.kind
            log.info("game %s entry %d %s by %s", self.id, index, what, device.name)

    def check_code(self) -> str:
        """A short code of the position now: the same on every screen that shows the same game state.

        It is computed from the public view only (what the shared screen is shown:
        `Ruleset.view_for(state, None)`; the log position is shown beside it), never from the whole
        state: a code of the whole state let a side with a known dice seed try each place the other
        side's sealed H1 record could name until the code matched (issue 25 part 8).  So every
        device shows the same code, and it tells no one more than the shared screen does."""
        state = self.game.state
        with self._lock:
            if self._code is None or self._code[0] is not state:
                self._code = (state, public_code(self.game, state))
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
        self._started: Started | None = None  # the host's latest new game, offered to the devices

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Hear every change to the devices (joined, waiting, let in, forgotten, asking for a role):
        the host's lists and a waiting device's screen follow it.  Returns the way to stop."""
        return _subscribe(self._lock, self._listeners, listener)

    def _devices_changed(self) -> None:
        with self._lock:
            listeners = list(self._listeners)
        _tell(listeners)

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

    def rename(self, by: Device, token: str, name: str) -> str | None:
        """Name a device (issue 18: "Anna's phone"): the host any device, a device only itself, as
        the server knows `by` (the session's own record, never the browser's word).  None, or why not."""
        device = self.device(token)
        if device is None or not (by.host or by is device):
            return "That device has left." if device is None else "Only the host can rename another device."
        with self._lock:
            name, problem = named(name, [d.name for d in self._devices.values() if d is not device], device.host)
            if problem is None:
                device.name = name
        if problem is None:
            for game_id in set(device.roles) | _present(device.game):
                self._seats_changed(game_id)
            self._devices_changed()
        return problem

    def reconnect(self, device: Device) -> None:
        """A session of the device is back (a phone woke up)."""
        self._sessions(device, 1)

    def disconnect(self, device: Device) -> None:
        self._sessions(device, -1)

    def _sessions(self, device: Device, change: int) -> None:
        with self._lock:
            device.sessions = max(0, device.sessions + change)
        if device.game:
            self._seats_changed(device.game)
        if device.waiting is not None:  # on (or off) the host's list of devices asking to join
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
        return sorted(ask, key=lambda d: d.waiting or 0.0, reverse=True)  # (never None here)

    def _host_acts(self, by: Device, token: str, what: str) -> tuple[Device | None, str | None]:
        """The device the host acts on (`what`: "let a device in"), or None and why not."""
        if not by.host:
            return None, f"Only the host can {what}."
        device = self.device(token)
        return device, None if device is not None else "That device has left."

    def let_in(self, by: Device, token: str) -> str | None:
        """The host lets a waiting device in (no PIN needed): None, or why not."""
        device, problem = self._host_acts(by, token, "let a device in")
        if device is None:
            return problem
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
        device, problem = self._host_acts(by, token, "forget a device")
        if device is None:
            return problem
        if device.host:
            return "The host's own browser is always let in: it cannot be forgotten."
        self._forget(device)
        self._devices_changed()
        return None

    def _forget(self, device: Device) -> None:
        with self._lock:
            self._devices.pop(device.token, None)
            games = set(device.roles) | set(device.asks) | _present(device.game)
            device.admitted, device.waiting = False, None
            device.roles.clear()
            device.asks.clear()
            device.refused.clear()
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

    def refusal(self, device: Device) -> str | None:
        """Why this device may not see or change anything yet (no PIN given), or None."""
        return None if device.may_enter else "Enter the join PIN shown on the host's screen first."

    def may_start(self, device: Device) -> str | None:
        """Why this device may not start a game on the host (Quick-Start, New game, Load a
        scenario), or None: only the host's own browser starts games; the others join them."""
        return None if device.host else ("Only the host starts games, on the computer running the app: ask them "
                                         "to start one, then open it from the home screen.")

    def may_edit_cards(self, device: Device) -> str | None:
        """Why this device may not change the ship cards (new, edit, import, delete), or None: the
        card library is the host's, so only the host's own browser changes it (issue 11)."""
        return None if device.host else ("Only the host changes the ship cards, on the computer running the app: "
                                         "the fleets and the card editor open on the host's screen.")

    # --- roles --------------------------------------------------------------------------------

    def role(self, device: Device, game_id: str) -> Role | None:
        """The device's role in a game; the host plays the whole table until it picks another."""
        with self._lock:
            role = device.roles.get(game_id)
        return Role.table() if role is None and device.host else role

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
            return (f"This device holds {role_words(current)}: ask the host to change it "
                    "(they approve it on their screen).")
        return self._set_role(device, game, role)

    def ask_role(self, device: Device, game: Game, role: Role) -> str | None:
        """A device asks the host for another role in a game; asking for the role it holds takes
        the question back.  None, or why it cannot ask."""
        problem = self.refusal(device) or _no_side(game, role)
        if problem:
            return problem
        if role.kind == TABLE and not device.host:
            return "Only the host can give a device the whole table."
        with self._lock:
            device.refused.pop(game.id, None)
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
        device, problem = self._host_acts(by, token, "approve a change of role")
        if device is None:
            return problem
        with self._lock:
            role = device.asks.pop(game.id, None)
            if role is not None and not approve:
                device.refused[game.id] = role  # the device is told (`refused`) until it has seen it
        if role is None:
            return f"{device.name} is not asking for a change now."
        problem = self._set_role(device, game, role) if approve else None
        if not approve:
            self._seats_changed(game.id)
        self._devices_changed()
        return problem

    def refused(self, device: Device, game_id: str) -> Role | None:
        """The role change the host refused this device in a game, not yet dismissed (None: none)."""
        with self._lock:
            return device.refused.get(game_id)

    def seen_refusal(self, device: Device, game_id: str) -> None:
        """The device has read that the host refused its request."""
        with self._lock:
            device.refused.pop(game_id, None)
        self._seats_changed(game_id)

    def requests(self) -> list[tuple[Device, str, Role]]:
        """Every role change waiting for the host: (device, game id, role asked for)."""
        with self._lock:
            return [(d, game_id, role) for d in self._devices.values() for game_id, role in d.asks.items()]

    def hand_over(self, by: Device, token: str, game: Game, role: Role | None) -> str | None:
        """The host gives a device a role in a game (a side, the screen, the whole table), or none."""
        device, problem = self._host_acts(by, token, "hand a side over")
        if device is None:
            return problem
        with self._lock:
            device.asks.pop(game.id, None)  # the host's word answers any question
            device.refused.pop(game.id, None)
            if role is None:
                device.roles.pop(game.id, None)
        problem = self._set_role(device, game, role) if role is not None else None
        if role is None:
            self._seats_changed(game.id)
        self._devices_changed()
        return problem

    def _set_role(self, device: Device, game: Game, role: Role) -> str | None:
        problem = _no_side(game, role)
        if problem:
            return problem
        with self._lock:
            device.roles[game.id] = role
        self._seats_changed(game.id)
        return None

    def seats(self, game_id: str) -> list[Seat]:
        """Every device that has a role in, or shows, a game: for the host's hand-over list."""
        with self._lock:
            devices = [d for d in self._devices.values() if game_id in d.roles or d.game == game_id]
            return [Seat(d.token, d.name, self.role(d, game_id), d.sessions > 0, d.host, d.asks.get(game_id), d.ident)
                    for d in devices]

    def devices(self) -> list[Device]:
        with self._lock:
            return list(self._devices.values())

    # --- following the host (follow_host.py) -----------------------------------------------------

    def host_started(self, by: Device, game: Game) -> None:
        """The host started a game: every other device is offered it (a guest starts none)."""
        if not by.host:
            return
        with self._lock:
            number = (self._started.number if self._started else 0) + 1
            self._started = Started(number, game.id, game.ruleset.name, game.name, tuple(game.state.sides))
            by.seen_start = number
        self._devices_changed()

    def offer(self, device: Device) -> Offer | None:
        """The host's newest game, offered to this device as the side it holds where it plays now
        (else the side it took last), until it answers; None for the host and for a device that
        has not given the PIN."""
        if device.host or not device.may_enter:
            return None
        with self._lock:
            held = device.roles.get(device.game) if device.game else None
            held = held or next(reversed(device.roles.values()), None)
            joined = self._started is not None and self._started.game_id in device.roles
            return offer_for(self._started, device.seen_start, device.game, held, joined)

    def answered(self, device: Device, offer: Offer) -> None:
        """The device answered an offer (joined, or not now): it is not offered that game again."""
        with self._lock:
            device.seen_start = max(device.seen_start, offer.started.number)

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
        for changed in _present(old, game_id):
            self._seats_changed(changed)

    def _seats_changed(self, game_id: str) -> None:
        with self._lock:
            table = self._tables.get(game_id)
        if table is not None:
            table.seats_changed()


def _present(*game_ids: str | None) -> set[str]:
    """The ids given, without None (a device showing no game)."""
    return {game_id for game_id in game_ids if game_id is not None}


def public_code(game: Game, state: GameState) -> str:
    """Six hex digits of what the shared screen may see of `state`."""
    public = game.ruleset.view_for(state, None)
    return hashlib.sha256(public.model_dump_json().encode()).hexdigest()[:6]


def _no_side(game: Game, role: Role) -> str | None:
    """Why a game has no place for `role` (a side it does not have), or None."""
    if role.kind == SIDE and role.side not in game.state.sides:
        return f"There is no side '{role.side}' in this game (sides: {', '.join(game.state.sides)})."
    return None
