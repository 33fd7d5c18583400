"""A side's volley (issue 28.7): the declared shots a device rolls together, in the order declared."""

from __future__ import annotations

from companion.app.rulesets.quick_start.volley import shots_to_roll
from companion.engine.quick_start import actions as A
from companion.engine.quick_start.game import apply

from random_games import close_battle

#: Three British shots and one French, in the close battle (each pool four dice).
SHOTS = [("hertfordshire", "bow", 1, "pontbriand", "bow"), ("pontbriand", "bow", 1, "raven", "bow"),
         ("hertfordshire", "starboard", 1, "pelletier", "starboard"), ("raven", "bow", 1, "pelletier", "bow")]


def act(state, action):
    outcome = apply(state, action)
    assert outcome.ok, outcome.reason
    return outcome.state


def volley():
    state = close_battle()
    for attacker, location, slot, target, where in SHOTS:
        state = act(state, A.DeclareShot(attacker=attacker, location=location, slot=slot, target=target,
                                         target_location=where))
    return state


def test_a_side_rolls_its_own_declared_shots_in_the_order_declared():
    state = volley()
    ids = [s.id for s in state.shots]
    assert shots_to_roll(state, "British") == (ids[0], ids[2], ids[3])
    assert shots_to_roll(state, "French") == (ids[1],)
    assert shots_to_roll(state, None) == tuple(ids)  # a table device holds every side


def test_a_rolled_shot_leaves_the_volley_and_every_shot_of_it_rolls():
    state = volley()
    first, *rest = shots_to_roll(state, "British")
    state = act(state, A.ResolveShot(shot=first))
    assert shots_to_roll(state, "British") == tuple(rest)
    for shot in rest:  # what "Roll all declared" sends: one action a shot, each checked
        state = act(state, A.ResolveShot(shot=shot))
    assert shots_to_roll(state, "British") == ()
    assert all(s.result is not None for s in state.shots if state.ship(s.attacker).side == "British")


def test_a_shot_whose_location_the_target_still_picks_is_not_rolled_yet():
    state = close_battle()
    rules = state.table_rules.model_copy(update={"two_locations": "target"})
    state = state.model_copy(update={"settings": state.settings.model_copy(update={"table_rules": rules})})
    state = act(state, A.DeclareShot(attacker="hertfordshire", location="bow", slot=1, target="pontbriand",
                                     target_location="bow"))
    shot = state.shots[0]
    assert shot.target_location == "bow" and shots_to_roll(state, "British") == (shot.id,)
    pending = state.model_copy(update={"shots": [shot.model_copy(update={"target_location": None})]})
    assert shots_to_roll(pending, "British") == ()


def test_nothing_to_roll_outside_the_fire_phase():
    state = volley()
    assert shots_to_roll(state.model_copy(update={"phase": "movement"}), None) == ()



def test_a_volleys_stop_names_its_shot_and_what_to_tap():
    """Issue 35: "the slot die needs another roll" named no shot (the browser test,
    tests/browser/test_fire_tab.py, shows the row brought into view and counts the taps)."""
    from companion.app.panels import shot_views
    from companion.app.rulesets.quick_start.fire import TableDiceEntry
    from companion.app.rulesets.quick_start.table import QuickStartBody
    from companion.engine.quick_start import actions as A
    from random_games import close_battle
    from companion.engine.quick_start.game import apply

    state = apply(close_battle(), A.DeclareShot(attacker="raven", location="bow", slot=1, target="pelletier",
                                                target_location="bow")).state
    view = shot_views(state)[0]
    entry = TableDiceEntry(view, (), None, None, buttons=False)
    said = QuickStartBody._stop_words(entry, "the slot die needs another roll (a re-roll): roll D6 and enter its face")
    assert said.startswith(f"Shot {view.id}, HML Raven ") and " at Pelletier bow" in said
    assert said.endswith(f"Tap its face in Shot {view.id}'s new row, then Resolve again.")
