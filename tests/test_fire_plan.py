"""The fire plan (issue 17): exact figures equal a brute-force enumeration of every die face of
every shot; sampled figures lie within their stated error of the exact ones (seeded)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from cards_for_tests import armor, card, gun, location, miss, other, position, ship
from companion.engine.quick_start.combat import firing_solution, resolve_breach
from companion.engine.dice import FACES, Colour
from companion.engine.quick_start.fire_plan import (
    INTACT, CardState, FirePlan, PlannedShot, TargetPlan, aimed, card_of, fire_plan,
)
from companion.engine.kernel import Refusal
from companion.engine.roller import DieRoll, Roller
from companion.engine.quick_start.state import GameState, ShipState, SlotStatus
from companion.engine.quick_start.table_rules import TableRules

GREEN = (4, "DGreen")


def attacker_card(guns: int = 3):
    """A destroyer whose bow and starboard carry `guns` DGreen guns each and no crew: a pool of
    DGreen plus the target location's DGreen, sixteen rolls."""
    loc = location([gun(f"G{n}", GREEN, (8, "DGreen")) for n in range(1, guns + 1)] + [other()] * (6 - guns))
    return card("gunboat", ship_type=1, si=20, bow=loc, starboard=loc)


def target_card(si: int = 9):
    """A destroyer with low breach numbers, an armour slot, misses and a small SI: every outcome
    (slot, re-roll, keel, wrecked location, half the SI) can happen."""
    bow = location([other(5), other(6), armor(1, 7), other(4), miss(), miss()], go="DGreen", stop="DGreen")
    starboard = location([other(4), other(5), miss(), miss(), miss(), other(6)], go="DGreen", stop="DGreen")
    return card("target", ship_type=1, si=si, bow=bow, starboard=starboard)


def head_on(damage=None, si: int = 9, rules: TableRules | None = None) -> GameState:
    """The gunboat at 1010 facing N, the target at 1006 facing S: bow guns strike its bow."""
    state = position(ship("a", "A", attacker_card(), "1010", "N"),
                     ship("t", "B", target_card(si), "1006", "S", damage=damage))
    return state if rules is None else state.model_copy(update={"settings": state.settings.model_copy(
        update={"table_rules": rules})})


def abeam(damage=None, two_locations="attacker") -> GameState:
    """A spine through the firing hex (test_cli): the starboard guns strike the bow or the starboard."""
    state = position(ship("a", "A", attacker_card(), "2109", "S"),
                     ship("t", "B", target_card(), "2010", "N", damage=damage))
    return state.model_copy(update={"settings": state.settings.model_copy(
        update={"table_rules": TableRules(two_locations=two_locations)})})


# --- brute force --------------------------------------------------------------------------------


class _Branch(Exception):
    def __init__(self, colour: Colour, purpose: str):
        self.colour, self.purpose = colour, purpose


class _Scripted:
    """Faces in order; past them, ask the enumerator to branch on the next die."""

    def __init__(self, faces):
        self.faces, self.taken = list(faces), 0
        self.slot_dice = 0

    def take(self, colour, purpose):
        if purpose == "slot":
            self.slot_dice += 1
        if self.taken == len(self.faces):
            raise _Branch(Colour(colour), purpose)
        self.taken += 1
        return DieRoll(colour=colour, face=self.faces[self.taken - 1])


def _faces(colour: Colour, purpose: str, rerolls: bool, slots) -> list[tuple[int, Fraction]]:
    """Every face of a die with its chance.  A slot re-roll is re-rolled again on a miss slot
    (rules-notes 6), so its faces are the non-miss slots, each equally likely."""
    if purpose == "slot" and rerolls:
        real = [n for n, s in enumerate(slots, start=1) if s.kind != "miss"]
        return [(n, Fraction(1, len(real))) for n in real]
    counts = Counter(FACES[colour])
    return [(face, Fraction(n, len(FACES[colour]))) for face, n in sorted(counts.items())]


def every_roll(strike, ship_now: ShipState):
    """(result, chance) of every sequence of faces of one breach roll, through resolve_breach."""
    slots = ship_now.card.locations[strike.location].slots
    stack = [((), Fraction(1))]
    while stack:
        faces, chance = stack.pop()
        dice = _Scripted(faces)
        try:
            yield resolve_breach(strike.pool, strike.modifier, ship_now, strike.location, dice), chance
        except _Branch as need:
            rerolls = need.purpose == "slot" and dice.slot_dice > 1
            for face, p in _faces(need.colour, need.purpose, rerolls, slots):
                stack.append(((*faces, face), chance * p))


def brute_force(state: GameState, shots: list[PlannedShot]) -> dict[CardState, Fraction]:
    """Every die face of every shot, the location d6 included, each card marked as the game does;
    equal cards are merged between shots (a later shot's dice see only the card)."""
    base = state.ship(shots[0].target)
    cards = {INTACT: Fraction(1)}
    for shot in shots:
        solution = firing_solution(state.ship(shot.attacker), shot.location, shot.slot, base, state.table_rules)
        if shot.target_location is not None:
            choices = [(solution.strike(shot.target_location), Fraction(1))]
        else:  # a d6 at the roll: 1-3 the first, 4-6 the second (equal faces grouped, as for the d12s)
            picks = Counter(0 if face <= 3 else 1 for face in FACES[Colour.D6])
            choices = [(solution.strikes[i], Fraction(n, 6)) for i, n in sorted(picks.items())]
        after: dict[CardState, Fraction] = {}
        for card_state, chance in cards.items():
            now = card_of(base, card_state)
            for strike, share in choices:
                for result, p in every_roll(strike, now):
                    destroyed, keel = card_state
                    if result.outcome == "slot_destroyed":
                        destroyed = destroyed | {(strike.location, result.slot)}
                    elif result.outcome == "keel_break":
                        keel = True
                    key = (destroyed, keel)
                    after[key] = after.get(key, Fraction(0)) + chance * share * p
        cards = after
    return cards


def figures(base: ShipState, cards: dict[CardState, Fraction]) -> dict[str, Fraction]:
    """The plan's figures read from a distribution of cards, the brute force's way."""
    return {
        "ship_destroyed": sum((p for c, p in cards.items() if card_of(base, c).destruction), Fraction(0)),
        "keel_break": sum((p for c, p in cards.items() if c[1]), Fraction(0)),
        "any_slot": sum((p for c, p in cards.items() if c[0]), Fraction(0)),
        "expected_slots": sum((len(c[0]) * p for c, p in cards.items()), Fraction(0)),
    }


def assert_plan_is_brute_force(state: GameState, shots: list[PlannedShot]) -> TargetPlan:
    plan = fire_plan(state, shots).targets[0]
    assert plan.exact
    brute = brute_force(state, shots)
    assert sum(brute.values()) == 1
    expected = figures(state.ship(shots[0].target), brute)
    got = {name: getattr(plan, name).value for name in expected}
    assert got == expected
    by_count: dict[int, Fraction] = {}
    for c, p in brute.items():
        by_count[len(c[0])] = by_count.get(len(c[0]), Fraction(0)) + p
    assert plan.slots == dict(sorted(by_count.items()))
    return plan


def bow_guns(n: int, target_location: str | None = "bow") -> list[PlannedShot]:
    return [PlannedShot("a", "bow", slot, "t", target_location) for slot in range(1, n + 1)]


# --- exact equals brute force ---------------------------------------------------------------------


def test_one_shot_equals_brute_force_and_the_shots_own_odds():
    state = head_on()
    plan = assert_plan_is_brute_force(state, bow_guns(1))
    strike = aimed(state, bow_guns(1)[0])[0][1]
    assert plan.any_slot.value == sum(strike.odds.slot_destroyed.values())
    assert plan.keel_break.value == strike.odds.keel_break == 0  # nothing destroyed yet: no keel roll
    assert plan.ship_destroyed.value == strike.odds.ship_destroyed


def test_three_shots_at_one_location_equal_brute_force():
    """Each shot rolls on the card the earlier ones left: circled slots re-roll, keel rolls follow.
    Three slots can neither wreck the bow's four nor reach half the SI of 9: only the keel destroys."""
    plan = assert_plan_is_brute_force(head_on(), bow_guns(3))
    assert plan.keel_break.value > 0 and plan.ship_destroyed.value == plan.keel_break.value
    assert set(plan.slots) == {0, 1, 2, 3}


def test_three_shots_reaching_half_the_si_equal_brute_force():
    """SI 6: the third slot destroyed reaches half the SI, so the ship is destroyed without its keel."""
    plan = assert_plan_is_brute_force(head_on(si=6), bow_guns(3))
    assert plan.ship_destroyed.value == plan.keel_break.value + plan.slots[3] - _keel_and_three(head_on(si=6))


def _keel_and_three(state: GameState) -> Fraction:
    """The chance of the keel breaking and three slots destroyed (counted once in the test above)."""
    brute = brute_force(state, bow_guns(3))
    return sum((p for (slots, keel), p in brute.items() if keel and len(slots) == 3), Fraction(0))


def test_three_shots_at_a_damaged_ship_equal_brute_force():
    """A hashed slot (re-rolls and keel rolls from the first shot), a circled armour slot (its
    armour still counts), and two destroyed slots towards half the SI of 9."""
    damage = {("bow", 4): "destroyed", ("bow", 3): "destroyed_this_turn"}
    plan = assert_plan_is_brute_force(head_on(damage), bow_guns(3))
    assert plan.keel_break.value > 0


def test_a_single_shot_at_a_doomed_ship_agrees_with_combat():
    """Three destroyed slots of SI 8: one more reaches half the SI (combat._ship_destroyed)."""
    damage = {("starboard", 1): "destroyed", ("starboard", 2): "destroyed", ("bow", 4): "destroyed"}
    state = head_on(damage, si=8)
    plan = assert_plan_is_brute_force(state, bow_guns(1))
    assert plan.ship_destroyed.value == aimed(state, bow_guns(1)[0])[0][1].odds.ship_destroyed
    assert plan.ship_destroyed.value == plan.any_slot.value + plan.keel_break.value


def test_a_ship_already_destroyed_stays_destroyed():
    damage = {("starboard", 1): "destroyed", ("starboard", 2): "destroyed", ("starboard", 6): "destroyed"}
    plan = assert_plan_is_brute_force(head_on(damage), bow_guns(2))  # its starboard is wrecked
    assert plan.ship_destroyed.value == 1


def test_a_d6_picking_the_location_equals_brute_force():
    """two_locations "roll": the location d6 is enumerated too (1-3 the bow, 4-6 the starboard)."""
    state = abeam({("starboard", 1): "destroyed"}, two_locations="roll")
    shots = [PlannedShot("a", "starboard", slot, "t") for slot in (1, 2)]
    assert len(aimed(state, shots[0])) == 2
    plan = assert_plan_is_brute_force(state, shots)
    assert plan.expected_slots.value > 0


def test_shots_at_two_locations_named_by_the_attacker_equal_brute_force():
    state = abeam({("bow", 1): "destroyed"})
    shots = [PlannedShot("a", "starboard", 1, "t", "bow"), PlannedShot("a", "starboard", 2, "t", "starboard"),
             PlannedShot("a", "starboard", 3, "t", "bow")]
    assert_plan_is_brute_force(state, shots)


def alike_card(si: int = 10):
    """A target whose locations repeat breach numbers: slots alike to every roll (issue 30)."""
    bow = location([other(5), other(5), armor(1, 5), other(4), other(4), miss()], go="DGreen", stop="DGreen")
    starboard = location([other(4), other(4), miss(), other(4), miss(), other(6)], go="DGreen", stop="DGreen")
    return card("alike", ship_type=1, si=si, bow=bow, starboard=starboard)


@pytest.mark.parametrize("two_locations, damage, si", [
    ("attacker", None, 10), ("attacker", {("bow", 2): "destroyed"}, 7), ("roll", None, 10),
])
def test_alike_slots_tallied_together_equal_brute_force(two_locations, damage, si):
    """Slots of one location with one breach number are tallied together, and a location no later
    shot strikes by its losses only: fewer cards, the same figures as every die enumerated."""
    state = position(ship("a", "A", attacker_card(), "2109", "S"),
                     ship("t", "B", alike_card(si), "2010", "N", damage=damage))
    state = state.model_copy(update={"settings": state.settings.model_copy(
        update={"table_rules": TableRules(two_locations=two_locations)})})
    named = [None] * 2 if two_locations == "roll" else ["bow", "starboard"]
    shots = [PlannedShot("a", "starboard", n, "t", loc) for n, loc in zip((1, 2), named)]
    plan = assert_plan_is_brute_force(state, shots)
    assert plan.cards < len(brute_force(state, shots))


def test_shots_at_two_targets_are_planned_apart():
    other_target = ship("u", "B", target_card(), "1206", "S")
    state = head_on()
    state = state.model_copy(update={"ships": [*state.ships, other_target]})
    alone = fire_plan(state, bow_guns(2)).targets[0]
    both = fire_plan(state, [bow_guns(2)[0], PlannedShot("a", "bow", 3, "u", "bow"), bow_guns(2)[1]])
    assert [t.target for t in both.targets] == ["t", "u"]
    assert both.target("t") == alone
    assert both.target("u") == fire_plan(state, [PlannedShot("a", "bow", 3, "u", "bow")]).targets[0]


# --- sampled within its error --------------------------------------------------------------------


@pytest.mark.parametrize("make, shots", [
    (lambda: head_on(), bow_guns(3)),
    (lambda: head_on({("bow", 4): "destroyed", ("bow", 1): "destroyed"}), bow_guns(3)),
    (lambda: abeam(two_locations="roll"), [PlannedShot("a", "starboard", n, "t") for n in (1, 2, 3)]),
])
def test_sampled_figures_lie_within_their_stated_error(make, shots):
    state = make()
    exact = fire_plan(state, shots).targets[0]
    sampled = fire_plan(state, shots, roller=Roller.from_seed(17), bound=1, runs=3000).targets[0]
    assert exact.exact and not sampled.exact and sampled.samples == 3000
    for name in ("ship_destroyed", "keel_break", "any_slot", "expected_slots"):
        figure = getattr(sampled, name)
        assert not figure.exact and figure.error < 0.1
        true = float(getattr(exact, name).value)  # within the stated interval
        assert figure.low - 1e-12 <= true <= figure.high + 1e-12, (name, figure, true)


def test_sampling_is_seeded_and_never_uses_the_games_roller():
    state = head_on()
    one = fire_plan(state, bow_guns(3), roller=Roller.from_seed(5), bound=1, runs=200)
    two = fire_plan(state, bow_guns(3), roller=Roller.from_seed(5), bound=1, runs=200)
    assert one == two
    assert fire_plan(state, bow_guns(3), bound=1, runs=200) == fire_plan(state, bow_guns(3), bound=1, runs=200)


def test_past_the_bound_the_plan_is_sampled():
    """Exact while the tallies held after each shot fit the bound, sampled one tally past it
    (issue 30: cards are tallied by what matters, so this plan holds 10 at most, not 20-odd cards)."""
    state = abeam({("bow", 1): "destroyed"})
    shots = [PlannedShot("a", "starboard", n, "t", loc) for n, loc in ((1, "bow"), (2, "starboard"), (3, "bow"))]
    exact = fire_plan(state, shots).targets[0]
    assert exact.exact and exact.cards >= 8
    assert fire_plan(state, shots, bound=exact.cards).targets[0] == exact
    assert not fire_plan(state, shots, bound=exact.cards - 1, runs=50).targets[0].exact


def test_json_gives_exact_fractions_and_sampled_errors():
    state = head_on()
    exact = fire_plan(state, bow_guns(2)).as_json()[0]
    assert exact["exact"] and Fraction(exact["ship_destroyed"]["value"]) >= 0 and "cards" in exact
    assert sum(Fraction(p) for p in exact["slots"].values()) == 1
    sampled = fire_plan(state, bow_guns(2), bound=1, runs=100).as_json()[0]
    assert not sampled["exact"] and sampled["samples"] == 100
    assert {"value", "low", "high", "error"} <= set(sampled["any_slot"])


# --- refusals -------------------------------------------------------------------------------------


def test_refusals_in_plain_words():
    state = abeam()
    with pytest.raises(Refusal, match="may strike the bow or the starboard"):
        aimed(state, PlannedShot("a", "starboard", 1, "t"))
    with pytest.raises(Refusal, match="cannot strike the stern"):
        aimed(state, PlannedShot("a", "starboard", 1, "t", "stern"))
    with pytest.raises(Refusal, match="no working gun"):
        aimed(state, PlannedShot("a", "bow", 5, "t", "bow"))
    assert isinstance(fire_plan(state, []), FirePlan) and fire_plan(state, []).targets == ()


def test_a_gun_planned_twice_is_refused():
    with pytest.raises(Refusal, match="planned twice: one breach roll per gun"):
        fire_plan(head_on(), [*bow_guns(2), bow_guns(1)[0]])


@pytest.mark.parametrize("damage", [
    {},
    {("bow", 2): "destroyed", ("bow", 3): "destroyed_this_turn"},
    {("bow", 2): "destroyed", ("bow", 3): "destroyed", ("bow", 4): "destroyed", ("bow", 5): "destroyed_this_turn",
     ("starboard", 1): "destroyed"},  # the bow's last live slot (slot 1 is a miss): its loss wrecks the bow
])
def test_one_shot_plans_agree_with_every_option_of_the_advisor(damage):
    """Shipped cards: a plan of one shot gives the shot's own exact odds (combat.breach_odds and
    its ship-destroyed reading agree with ShipState.destruction)."""
    from cards_for_tests import shipped
    from companion.engine.quick_start.advice import advise

    state = position(ship("h", "A", shipped("hml-hertfordshire"), "1710", "N"),
                     ship("p", "B", shipped("pontbriand"), "1706", "S", damage=damage),
                     ship("l", "B", shipped("pelletier"), "2106", "SW", moved=True))
    options = [o for g in advise(state, "h") for o in g.options]
    assert len(options) >= 3
    for o in options:
        plan = fire_plan(state, [o.shot]).targets[0]
        assert plan.exact
        assert (plan.any_slot.value, plan.expected_slots.value, plan.keel_break.value, plan.ship_destroyed.value) == (
            o.value.slot, o.value.expected_slots, o.value.keel_break, o.value.ship_destroyed)
    if len(damage) == 5:
        assert any(o.value.ship_destroyed > o.value.keel_break for o in options if o.target == "p")
