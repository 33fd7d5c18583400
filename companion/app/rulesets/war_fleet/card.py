"""A War Fleet ship's card in the app, without flet: its converted stats beside its source.

Each War Fleet location is shown beside the Quick-Start location it was
converted from (go/stop dice and six slots) and the working of the
conversion; `edited_stats` moves one number of the stats at a time, within
the rules' bounds, for the SetStats action that edits a ship's card.
"""

from __future__ import annotations

from dataclasses import dataclass

from ....engine.war_fleet.convert import convert_card, working
from ....engine.war_fleet.dialup import canonical, dial_up, ladder_step
from ....engine.war_fleet.state import WarFleetState
from ....engine.war_fleet.stats import WarFleetStats
from ...viewmodels import location_name


@dataclass(frozen=True)
class StatLine:
    location: str
    resilience: int
    destroyed_resilience: int
    si_modifier: int
    attack: str
    destroyed: bool
    source: tuple[str, ...]  # the Quick-Start location: go/stop dice and six slots
    working: tuple[str, ...]


@dataclass(frozen=True)
class ConvertedCard:
    ship: str
    name: str
    head: str
    source_head: str
    lines: tuple[StatLine, ...]
    edited: bool


def attack_text(stats: WarFleetStats, location: str) -> str:
    attack = stats.locations[location].attack
    if attack is None:
        return "no attack"
    traits = f" [{', '.join(attack.traits)}]" if attack.traits else ""
    boxes = f" +{attack.boxes} saturation" if attack.boxes else ""
    return (f"{attack.name} {attack.short.dice} ≤{attack.short.range}, "
            f"{attack.long.dice} ≤{attack.long.range}{traits}{boxes}").strip()


def _slot_text(slot) -> str:
    kind = slot.kind
    if kind == "gun":
        return f"{slot.name} {slot.short.dice} {slot.short.range}/{slot.long.dice} {slot.long.range} ({slot.breach})"
    if kind == "crew":
        return f"crew {slot.dice} ({slot.breach})"
    if kind == "armor":
        return f"armour +{slot.breach_modifier} ({slot.breach})"
    if kind == "engine":
        return f"engine {slot.mp} MP ({slot.breach})"
    if kind == "miss":
        return "miss"
    label = getattr(slot, "label", "") or kind.replace("_", " ")
    return f"{label} ({slot.breach})"


def converted_card(state: WarFleetState, ship_id: str) -> ConvertedCard:
    """The ship's War Fleet stats, each location beside the Quick-Start location it came from."""
    ship = state.ship(ship_id)
    stats, source = ship.stats, ship.source
    steps = {w.location: w for w in working(source)} if source else {}
    lines = []
    for name, loc in stats.locations.items():
        src = source.locations.get(name) if source else None
        lines.append(StatLine(
            location=location_name(name), resilience=loc.resilience, destroyed_resilience=loc.destroyed_resilience,
            si_modifier=loc.si_modifier, attack=attack_text(stats, name), destroyed=ship.is_destroyed(name),
            source=(f"go {src.go}, stop {src.stop}", *(_slot_text(s) for s in src.slots)) if src else (),
            working=tuple(steps[name].lines()) if name in steps else (),
        ))
    # MP as "0 of 4": this turn's of the card's, the card's figure always in view (issue 18)
    head = (f"class {stats.ship_class} · SI {stats.si} · MP {ship.mp} of {stats.mp}"
            + (" (rear destroyed)" if ship.rear_destroyed else ""))
    source_head = (f"{source.name}: Type {source.type}, SI {source.structural_integrity}, MP {source.card_mp}"
                   if source else "no Quick-Start card")
    return ConvertedCard(ship.id, ship.name, head, source_head, tuple(lines),
                         edited=source is not None and convert_card(source) != stats)


#: The numbers of a location that are edited one step at a time (with SI, MP and the bands' dice).
EDITABLE = ("resilience", "destroyed_resilience", "si_modifier")


def edited_stats(stats: WarFleetStats, field_name: str, delta: int, location: str | None = None) -> WarFleetStats | None:
    """The stats with one number moved by `delta` (SI, MP, or a location's resilience,
    destroyed resilience, SI modifier, or `short`/`long` dice one dial-up step), or None
    when that would leave the rules' bounds."""
    data = stats.model_dump(by_alias=True, mode="json")
    if location is None:
        key = {"si": "si", "mp": "mp"}[field_name]
        value = data[key] + delta
        if value < (1 if key == "si" else 0):
            return None
        data[key] = value
    elif field_name in EDITABLE:
        value = data["locations"][location][field_name] + delta
        if value < (0 if field_name == "si_modifier" else 1):
            return None
        data["locations"][location][field_name] = value
    else:  # a band's dice, one step along the dial-up ladder
        attack = data["locations"][location]["attack"]
        if attack is None:
            return None
        dice = canonical(attack[field_name]["dice"])
        if delta > 0:
            new = dial_up(dice)
        else:
            steps = [ladder_step(n) for n in range(12)]
            if dice not in steps or steps.index(dice) == 0:
                return None
            new = steps[steps.index(dice) - 1]
        attack[field_name]["dice"] = new.notation
    return WarFleetStats.model_validate(data)

