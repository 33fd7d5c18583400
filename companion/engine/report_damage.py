"""The marks of the after-action report (issue 17) and the ruleset-neutral helpers its rulesets' capabilities use.

A ruleset tells the report what differs through plain functions on its `Ruleset` value
(`rated_rolls`, `expected_damage`, `ships_lost`, `ship_name`, `report_words`); each gives
back the marks defined here, so the report never asks a ruleset for its field or action names:

- `RollMark`: one luck-bearing roll, rated by its outcome's mid-rank percentile
  P(worse) + P(this) / 2 in the roll's own exact distribution (`rated`; `dice_mark` for a
  pool of Leviathans dice rated by its total, `dice.distribution`);
- `ShotMark`: one resolved shot or attack, the damage it dealt against its exact expectation,
  in the two measures the ruleset names in `ReportWords` (Quick-Start: slots and keels).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ConfigDict

from .dice import Colour, Pool, distribution
from .kernel import Event

#: What the report's page says of whose rolls count, for a ruleset that does not say (Quick-Start's words).
LUCK_NOTE = ("Each roll's percentile is its place in its own pool's exact distribution: P(lower total) + half "
             "P(this total). Breach and keel rolls count for the firing side, initiative rolls for the rolling side.")


class Frozen(BaseModel):
    """A mark or figure of the report, frozen once made."""

    model_config = ConfigDict(frozen=True)


class RollMark(Frozen):
    """One roll: whose, when, of what pool, its total of faces and its outcome's mid-rank percentile."""

    turn: int
    side: str
    what: str  # "breach", "keel", "initiative", "attack" (War Fleet, Decisive Victory), "save", "damage", ...
    pool: str
    total: int
    percentile: Fraction


class ShotMark(Frozen):
    """One resolved shot (or attack): who fired which gun at whom, what it did in the ruleset's two
    measures (`slots`: Quick-Start's slots destroyed; `keel`: its keels broken) and what it was expected to."""

    turn: int
    side: str
    attacker: str
    location: str
    slot: int
    gun: str
    target: str
    target_location: str
    slots: int
    keel: int
    slots_expected: Fraction = Fraction(0)
    keel_expected: Fraction = Fraction(0)


class ReportWords(Frozen):
    """The report's words for a ruleset's two damage measures, its shots, and whose rolls count;
    plain words by default, each ruleset its own (Quick-Start's `SLOTS_AND_KEELS`)."""

    dealt: str = "damage dealt"
    dealt_short: str = "damage"
    second: str = "ships lost"
    second_short: str = "lost"
    shots: str = "attacks resolved"
    luck_note: str = LUCK_NOTE


#: Quick-Start's and War Fleet's measures: slots destroyed and keels broken (seed 001, seed 004)
SLOTS_AND_KEELS = ReportWords(dealt="slots destroyed", dealt_short="slots", second="keels broken",
                              second_short="keels", shots="shots resolved")


# --- rating a roll -------------------------------------------------------------------------------


def mid_rank(odds: Mapping[int, Fraction], outcome: int) -> Fraction:
    """P(X < outcome) + P(X = outcome) / 2 in an exact distribution of outcomes ranked worst to best;
    ValueError for an outcome the distribution does not hold."""
    if outcome not in odds:
        raise ValueError(f"no chance of {outcome}")
    below = sum((p for t, p in odds.items() if t < outcome), Fraction(0))
    return below + odds[outcome] / 2


def percentile(pool: Pool, total: int) -> Fraction:
    """Mid-rank percentile of a total in its pool's exact distribution: P(X < x) + P(X = x) / 2
    (a die's middle face is 1/2 on a fair die; the luckiest total is just under 1)."""
    odds = distribution(pool)
    if total not in odds:
        raise ValueError(f"{pool.notation} cannot total {total}")
    return mid_rank(odds, total)


def rated(turn: int, side: str, what: str, pool: str, total: int, odds: Mapping[int, Fraction],
          outcome: int) -> RollMark:
    """A roll whose luck is its `outcome` (a rank, worst lowest) in `odds`, shown as `pool` = `total`."""
    return RollMark(turn=turn, side=side, what=what, pool=pool, total=total, percentile=mid_rank(odds, outcome))


def dice_mark(turn: int, side: str, what: str, dice: Sequence[Mapping[str, Any]]) -> RollMark | None:
    """A roll of Leviathans dice as events carry them ({colour, face}), rated by its total; None for no dice."""
    if not dice:
        return None
    pool = Pool(Colour(d["colour"]) for d in dice)
    total = sum(int(d["face"]) for d in dice)
    return RollMark(turn=turn, side=side, what=what, pool=pool.notation, total=total,
                    percentile=percentile(pool, total))


def initiative_marks(turn: int, event: Event) -> list[RollMark]:
    """The rolls of an initiative event in the shape the three rulesets share (`rolls`: each side's
    {side, dice}): each counts for the rolling side; nothing for any other event."""
    rolls = event.data.get("rolls")
    if event.kind not in ("initiative", "initiative_tie") or not isinstance(rolls, list):
        return []
    return kept(dice_mark(turn, r["side"], "initiative", r.get("dice", [])) for r in rolls)


def kept(marks: Iterable[RollMark | None]) -> list[RollMark]:
    return [m for m in marks if m is not None]


def event_result(events: Sequence[Event], kind: str, key: str, record_id: Any) -> dict[str, Any] | None:
    """The `result` of the event of `kind` whose `key` names `record_id`, or None."""
    for event in events:
        if event.kind == kind and event.data.get(key) == record_id:
            result: dict[str, Any] = event.data["result"]
            return result
    return None

