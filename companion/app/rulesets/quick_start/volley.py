"""A side's volley on the fire tab (issue 28.7): the declared shots a device may roll together.

"Roll all declared" rolls them with the app's dice, one action a shot in the order declared (the
server checks each as it checks one shot); "Table dice for all" puts every one of their dice on
one sheet, each shot's rows together, with one Resolve.  No flet here: the views read this.
"""

from __future__ import annotations

from ....engine.quick_start.state import GameState


def shots_to_roll(state: GameState, side: str | None) -> tuple[int, ...]:
    """The declared shots not yet rolled, in the order declared, of `side`'s ships (None: every
    side's, as a table device holds them all).  A shot whose location the target's side still
    picks (table rule two_locations "target") has nothing to roll yet and is left out."""
    if state.phase != "combat":
        return ()
    choosing = state.table_rules.two_locations == "target"
    return tuple(
        shot.id for shot in state.shots
        if shot.result is None
        and not (choosing and shot.target_location is None)
        and (side is None or state.ship(shot.attacker).side == side)
    )

