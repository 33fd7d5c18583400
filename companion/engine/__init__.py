"""The game systems as a library: plain data, pure functions, no UI, no I/O.

At the root, the kernel every ruleset shares: `kernel` (one action through
its handlers), `ruleset` (the `Ruleset` type), `roller` and `dice`, `hexes`,
`board`, `footprint` and `arcs` (the hex map), `cards` (the printed card
format and its checks), `common` (actions every system has), `names`,
`report` (the after-action report); `registry` names every ruleset.  Each
game system is a package: `quick_start` (with the house rules), `war_fleet`,
`decisive_victory`::

    from companion.engine.quick_start import apply
    from companion.engine.dice import distribution, parse_pool
"""
