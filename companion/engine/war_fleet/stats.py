"""War Fleet ship stats (seed 004 "Be Sure to Read Your Manual, Cadet! (Stats)").

Every War Fleet ship has a class, an SI, MP and, per location, an attack (the
same shape as a Quick-Start gun battery: a short and a long band, each a range
in War Fleet hexes and the dice rolled out to it, plus traits), a Resilience
(the location's breach value), the Resilience once destroyed, and the SI
modifier a destroyed location adds to SI tests (seed 004 "Destroyed Location
Stats").  These are plain data: the conversion (convert.py) fills them from a
Quick-Start card, and players may edit them by hand.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from ..arcs import ARC_DEGREES
from ..cards import MAX_BREACH, MAX_MODIFIER, MAX_MP, MAX_SATURATION, MAX_SI, Battery, RangeBand, StrictModel, validated
from ..names import ShipName
from .dialup import canonical

Trait = Literal["turret", "bracket", "saturation"]
REAR = "stern"
#: "Leviathan's core game has rules for four standard ship classes" (seed 004 "Scale").
MAX_CLASS = 4
#: The two sets of locations a ship can have (formats.md: Types 1-3, and Type 4).
FOUR_LOCATIONS = ("bow", "port", "starboard", "stern")
SIX_LOCATIONS = ("bow", "port_bow", "port_quarter", "starboard_bow", "starboard_quarter", "stern")


class Band(RangeBand):
    """One band of an attack: out to `range` War Fleet hexes, roll `dice` (coloured dice only: they dial up)."""

    @field_validator("dice")
    @classmethod
    def _coloured(cls, value: str) -> str:
        canonical(value)  # a ValueError naming a die that cannot be dialled
        return value


class AttackStat(Battery):
    """A location's attack (seed 004 "Attack"; seed 000 "Sight the Barrel")."""

    short: Band
    long: Band
    traits: list[Trait] = []
    name: str = Field(default="", description="The gun's name: bracket fire joins guns of one name")
    saturation: int = Field(default=0, ge=0, le=MAX_SATURATION, strict=True,
                            description="Saturation boxes: extra dice, each a separate hit")

    def as_json(self) -> dict[str, Any]:
        """The `attack` object of formats.md's `companion convert --json`."""
        return {
            "short": {"range": self.short.range, "dice": self.short.dice},
            "long": {"range": self.long.range, "dice": self.long.dice},
            "traits": list(self.traits),
            "name": self.name,
            "saturation": self.boxes,
        }


class LocationStats(StrictModel):
    """One location: its attack (or none), Resilience, destroyed Resilience, SI modifier."""

    resilience: int = Field(ge=1, le=MAX_BREACH, strict=True)
    destroyed_resilience: int = Field(ge=1, le=MAX_BREACH, strict=True)
    si_modifier: int = Field(ge=0, le=MAX_MODIFIER, strict=True)
    attack: AttackStat | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "resilience": self.resilience,
            "destroyed_resilience": self.destroyed_resilience,
            "si_modifier": self.si_modifier,
            "attack": self.attack.as_json() if self.attack else None,
        }


class WarFleetStats(StrictModel):
    """A ship's War Fleet stats.  `card` names the Quick-Start card it came from."""

    card: str = Field(default="", description="Id of the Quick-Start card these stats were converted from")
    name: ShipName = ""
    ship_class: int = Field(alias="class", ge=1, le=MAX_CLASS, strict=True,
                            description="Size class 1-4: higher places and moves first")
    faction: str = ""
    si: int = Field(ge=1, le=MAX_SI, strict=True)
    mp: int = Field(ge=0, le=MAX_MP, strict=True)
    locations: dict[str, LocationStats]

    @field_validator("locations")
    @classmethod
    def _known_locations(cls, locations: dict[str, LocationStats]) -> dict[str, LocationStats]:
        if not locations:
            raise ValueError("a ship needs at least one location")
        unknown = [name for name in locations if name not in ARC_DEGREES]
        if unknown:
            raise ValueError(
                f"unknown location {', '.join(unknown)}: use {', '.join(ARC_DEGREES)}"
            )
        if set(locations) not in (set(FOUR_LOCATIONS), set(SIX_LOCATIONS)):
            raise ValueError(
                f"a ship has the locations {', '.join(FOUR_LOCATIONS)}, or (a battleship) "
                f"{', '.join(SIX_LOCATIONS)}; these are {', '.join(locations)}"
            )
        return locations

    def as_json(self) -> dict[str, Any]:
        """formats.md's `companion convert CARD --to war-fleet --json` object."""
        return {
            "card": self.card,
            "name": self.name,
            "class": self.ship_class,
            "si": self.si,
            "mp": self.mp,
            "locations": {name: loc.as_json() for name, loc in self.locations.items()},
        }

    def dump(self) -> dict[str, Any]:
        return self.model_dump(by_alias=True, mode="json")


def load_stats(data: Any) -> WarFleetStats:
    """Validate War Fleet stats; FormatError naming the JSON path."""
    return validated(WarFleetStats, data)
