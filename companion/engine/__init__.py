"""The Leviathans rules as a library: plain data, pure functions, no UI, no I/O.

Each concept has its module (`dice`, `board`, `cards`, `state`, `combat`,
`movement`, `turn`, ...); `apply`, the one door for change, is also here::

    from companion.engine import apply
    from companion.engine.dice import distribution, parse_pool
"""

from .game import apply as apply
