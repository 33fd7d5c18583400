"""Reading card, fleet and scenario files, and the shipped fleets.

The engine reads no files; this module does, and turns every problem into a
FormatError that names the file, the JSON path and the problem.
"""

from __future__ import annotations

import json
import math
import os
import stat
from pathlib import Path
from typing import Any, Callable, Sequence

from .engine.cards import Card, Fleet, FormatError, load_card, load_fleet
from .engine.registry import RULESETS, ruleset_for_format
from .engine.quick_start.scenario import Scenario

PACKAGE_DIR = Path(__file__).resolve().parent


def shipped_fleets_dir() -> Path:
    """`fleets/` inside an installed wheel, or at the top of a source checkout."""
    for candidate in (PACKAGE_DIR / "fleets", PACKAGE_DIR.parent / "fleets"):
        if candidate.is_dir():
            return candidate
    return PACKAGE_DIR.parent / "fleets"


#: The largest card, fleet or scenario file the companion reads (the biggest shipped fleet is 0.12 MB).
MAX_FILE_BYTES = 2 * 1024 * 1024
#: The largest exported game `companion import` reads: its log grows with the game (0.47 KB an action in a
#: measured 93-action random game, so some 70,000 actions).
MAX_EXPORT_BYTES = 32 * 1024 * 1024
#: Levels of nesting a file may have (a scenario with inline cards has about 10).
MAX_DEPTH = 32
#: The largest whole number a file may hold: no game value comes near it (issue 11: 1e4000, 5,000 digits).
MAX_NUMBER = 2 ** 53


def read_bytes(path: str | Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file the user named, at most `limit` of them.

    A folder, a device (/dev/zero), a FIFO or a socket is refused by what
    `os.stat` says it is, before it is opened; the file is then opened
    without blocking and looked at again, so a name swapped in between is
    refused too.  Every problem is a FormatError naming the file.
    """
    source = str(path)
    if not source.strip():
        raise FormatError("no file named (the name is empty)")
    try:
        _check_regular(os.stat(path), limit, source)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
                     | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0))
    except FormatError:
        raise
    except (OSError, ValueError) as exc:
        raise FormatError(_unreadable(exc), source=source) from None
    try:
        _check_regular(os.fstat(fd), limit, source)
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise FormatError(_unreadable(exc), source=source) from None
    finally:
        os.close(fd)
    if size > limit:  # a file that grew, or one (in /proc) whose size says 0
        raise FormatError(f"is over {_megabytes(limit)}: the companion reads files of at most that", source=source)
    return b"".join(chunks)


def _check_regular(info: os.stat_result, limit: int, source: str) -> None:
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        raise FormatError("is a folder, not a file", source=source)
    if not stat.S_ISREG(mode):
        kind = ("a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else
                "a pipe (FIFO)" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "not a file")
        raise FormatError(f"is {kind}, not a plain file: give a saved .json file", source=source)
    if info.st_size > limit:
        raise FormatError(f"is {info.st_size:,} bytes: the companion reads files of at most {_megabytes(limit)}",
                          source=source)


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB".replace(".0 MB", " MB")


def _unreadable(exc: Exception) -> str:
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    if isinstance(exc, NotADirectoryError):
        return "no such file (a part of the path is a file, not a folder)"
    if isinstance(exc, IsADirectoryError):
        return "is a folder, not a file"
    if isinstance(exc, PermissionError):
        return "cannot be read (permission denied)"
    if isinstance(exc, ValueError):  # a NUL character in the name
        return "is not a file name"
    return f"cannot be read ({getattr(exc, 'strerror', None) or exc.__class__.__name__})"


def read_text(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """A regular file's text (UTF-8, a byte-order mark allowed), by `read_bytes`."""
    raw = read_bytes(path, limit)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FormatError(f"is not UTF-8 text (byte 0x{raw[exc.start]:02x} at position {exc.start})",
                          source=str(path)) from None


def read_json(path: str | Path, limit: int = MAX_FILE_BYTES, first: Callable[[Any, str], None] | None = None) -> Any:
    """A file the user named, read by `read_text` and parsed by `parse_json`."""
    return parse_json(read_text(path, limit), str(path), limit, first)


def parse_json(text: str, source: str = "", limit: int = MAX_FILE_BYTES,
               first: Callable[[Any, str], None] | None = None) -> Any:
    """JSON text as data, or one FormatError: over 2 MB, not JSON, NaN or Infinity, a number too
    large, nesting deeper than MAX_DEPTH (Python's reader would raise RecursionError).  For files
    (read_json) and for JSON pasted or uploaded in the app.  `first(data, source)`, if given, checks
    the data before the walk over every value (an exported game's counts: a 150,000-entry log is
    refused at once, issue 36)."""
    if len(text) > limit:  # pasted text: read files are cut at the same size
        raise FormatError(f"is over {_megabytes(limit)}: the companion reads files of at most that", source=source)
    if not text.strip():
        raise FormatError("the file is empty", source=source)
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise FormatError(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", source=source) from None
    except RecursionError:
        raise FormatError(f"nested too deeply to read (more than {MAX_DEPTH} levels)", source=source) from None
    except ValueError as exc:  # a whole number of more than 4,300 digits, or NaN
        problem = "a number too long to be a game value" if "digits" in str(exc) else str(exc)
        raise FormatError(f"not valid JSON: {problem}", source=source) from None
    if first is not None:
        first(data, source)
    check_nesting_and_numbers(data, source)
    return data


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def check_nesting_and_numbers(data: Any, source: str = "") -> None:
    """FormatError unless every value is nested at most MAX_DEPTH levels and every number is finite
    and at most MAX_NUMBER (1e4000 reads as infinity).  Walks without recursion."""
    stack: list[tuple[Any, int, str]] = [(data, 1, "")]
    while stack:
        value, depth, where = stack.pop()
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if abs(value) > MAX_NUMBER or not math.isfinite(value):  # an int past 1e308 cannot be a float
                raise FormatError("the number is too large to be a game value", where, source)
            continue
        if not isinstance(value, (dict, list)):
            continue
        if depth > MAX_DEPTH:
            raise FormatError(f"nested more than {MAX_DEPTH} levels deep", where, source)
        items = value.items() if isinstance(value, dict) else enumerate(value)
        stack.extend((item, depth + 1, f"{where}.{key}" if where else str(key)) for key, item in items)


def kind_of(data: Any) -> str:
    """`card`, `fleet`, or a scenario's kind from the file's format tag: the format without `leviathans-`
    and the version (`scenario`, `warfleet-scenario`), for the ruleset the format names."""
    tag = data.get("format", "") if isinstance(data, dict) else ""
    for kind in ("card", "fleet"):
        if str(tag).startswith(f"leviathans-{kind}/"):
            return kind
    ruleset = ruleset_for_format(tag)
    if ruleset is not None:
        return ruleset.scenario_format.split("/", 1)[0].removeprefix("leviathans-")
    formats = ["leviathans-card/1", "leviathans-fleet/1", *(r.scenario_format for r in RULESETS.values())]
    raise FormatError(
        f"no known \"format\" tag: expected {', '.join(formats[:-1])} or {formats[-1]}",
        "format",
    )


def load_file(path: str | Path) -> Card | Fleet | Scenario:
    """Any of the three formats, validated; FormatError names file and path."""
    data = read_json(path)
    try:
        kind = kind_of(data)
        if kind not in ("card", "fleet"):  # a scenario of some ruleset (docs/formats.md)
            ruleset = ruleset_for_format(data["format"])
            assert ruleset is not None  # kind_of found it
            scenario: Scenario = ruleset.load_scenario(data)
            return scenario
        return load_card(data) if kind == "card" else load_fleet(data)
    except FormatError as exc:
        raise exc.in_file(Path(path).name) from None


def load_catalogue(extra: Sequence[str | Path] = ()) -> dict[str, Card]:
    """Every card of the shipped fleets, plus cards and fleets from `extra` files."""
    catalogue: dict[str, Card] = {}
    paths = sorted(shipped_fleets_dir().glob("*.json")) + [Path(p) for p in extra]
    for path in paths:
        loaded = load_file(path)
        if isinstance(loaded, Fleet):
            catalogue.update({card.id: card for card in loaded.ships})
        elif isinstance(loaded, Card):
            catalogue[loaded.id] = loaded
    return catalogue
