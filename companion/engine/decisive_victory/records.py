"""Ship and flight records, and fleets of them, as data files (spec §3, §17.1, §17.2).

The seed prints no ship data (§3.1): a record holds every value the rules
read, each field citing the rule that reads it.  Shipped sample records say
`"sources": {"verified": false}`.  Errors name the JSON path and the problem
in plain words (`weapons.2: a torpedo system needs "salvoes"`); the edge adds
the file name.
"""

from __future__ import annotations

from typing import Any, Final, Literal, Self

from pydantic import Field, model_validator

from ..cards import Sources, Whole, StrictModel
from ..names import ShipName
from .grid import HitGrid, ShipClass
from .inches import Inches
from .validate import dv_validated

SHIP_FORMAT: Final = "decisive-victory-ship/1"
FLEET_FORMAT: Final = "decisive-victory-fleet/1"
#: Bounds on a record's numbers: far above any ship, low enough that no arithmetic overflows.
MAX_VALUE: Final = 99
ID_PATTERN: Final = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"
Rank = Literal["fleet_admiral", "admiral", "captain", "commander", "lieutenant"]
#: "Command Scores: Fleet Admiral : 5 / Admiral: 3 / Captain: 2 / Commander: 1 / Lieutenant: 0" (`003:29-34`).
COMMAND_SCORE: Final[dict[str, int]] = {"fleet_admiral": 5, "admiral": 3, "captain": 2, "commander": 1, "lieutenant": 0}
FlightType = Literal["fighter", "dive_bomber", "torpedo_bomber", "float_plane", "patrol_bomber"]
Arc = Literal["fore", "aft", "port", "starboard", "all"]


_REQUIRED: Final = object()


def _value(default: Any = _REQUIRED, low: int = 0, high: int = MAX_VALUE, **kw: Any) -> Any:
    """A bounded whole number field: required unless given a default (None allowed)."""
    if default is _REQUIRED:
        return Field(ge=low, le=high, **kw)
    return Field(default=default, ge=low, le=high, **kw)


class ShipArmor(StrictModel):
    """Armour by row of the grid: deck (row 1), belt (2-5), underwater (6) [R-35] (`003:60`)."""

    deck: Whole = _value()
    belt: Whole = _value()
    underwater: Whole = _value()


class Weapon(StrictModel):
    """A weapon system (§3.2): a gun battery or torpedo tubes, fired once a turn (`003:52`)."""

    id: str = Field(min_length=1, pattern=ID_PATTERN)
    name: str = ""
    kind: Literal["gun", "torpedo"]
    fire_control: Whole = _value(description="FC bonus to the attack roll (003:52)")
    strength: Whole = _value(description="Attack strength against armour (003:60)")
    damage: Whole = _value(description="Damage dice; 0 allowed (003:65)")
    salvoes: Whole | None = _value(default=None, description="Torpedoes only: salvoes carried (003:91)")
    radar: Whole | None = Field(default=None, ge=0, le=MAX_VALUE, description="Gunnery radar bonus (003:81)")
    dual_purpose_aa: Whole = _value(0, description="AA points the battery adds (003:112, 003:215)")
    mounts: Whole = _value(1, low=1, description="Separately aimed weapons: split fire at most this many ways [R-7]")
    arcs: list[Arc] = Field(default=[], description="Informational: the seed defines no arc (003:55)")
    max_range: Inches | None = Field(default=None, description="Inches, or null: the seed gives no range (spec 18)")

    @model_validator(mode="after")
    def _kind_fields(self) -> Self:
        if self.kind == "torpedo":
            if self.salvoes is None:
                raise ValueError('a torpedo system needs "salvoes" (003:91)')
            if self.radar is not None:
                raise ValueError('"radar" helps gun batteries only: "Radar ... cannot assist with torpedo attacks" (003:93)')
            if self.dual_purpose_aa:
                raise ValueError('"dual_purpose_aa" is for gun batteries, not torpedoes')
        elif self.salvoes is not None:
            raise ValueError('"salvoes" is for torpedo systems only; a gun fires once every turn (003:52)')
        return self


class FlightRecord(StrictModel):
    """A flight of aircraft (§3.4, §17.2)."""

    id: str = Field(min_length=1, pattern=ID_PATTERN)
    name: str = ""
    type: FlightType
    quality: Whole = _value(description="Quality score (003:204)")
    slow: bool = Field(default=False, strict=True, description="Slow aircraft (003:176, 003:184)")
    radar: bool = Field(default=False, strict=True, description="May fly at night or in bad weather (003:171)")
    naval: bool = Field(default=True, strict=True, description="May land on carriers (003:200)")


class FlightDeck(StrictModel):
    """A carrier's flight deck (§3.5): "Carriers and bases can launch 1 flight a turn" (`003:198`)."""

    launch_per_turn: Whole = _value(1)
    lands_in_combat: bool = Field(default=True, strict=True, description="False: cannot land aircraft in combat (003:193)")


class ShipRecord(StrictModel):
    """A ship's data file (`decisive-victory-ship/1`, §17.1)."""

    format: Literal["decisive-victory-ship/1"] = SHIP_FORMAT
    id: str = Field(min_length=1, pattern=ID_PATTERN)
    name: ShipName = Field(min_length=1)
    nation: str = Field(default="", description="Japanese and British matter (003:74, 003:171)")
    ship_class: ShipClass = Field(alias="class", description="Boxes to damage a system (003:107)")
    speed: Whole = _value(description="Full speed in inches (003:44)")
    turning_class: Whole = _value(low=1, high=4, description="1-4 (003:45)")
    armor: ShipArmor
    critical_damage_threshold: Whole = _value(description="CDT (003:137, 003:150, 003:160)")
    collision_rating: Whole | None = _value(default=None, description="CR (003:161); asked at a collision if null [R-22]")
    aa: Whole = _value(0, description="AA points a turn (003:214)")
    spotter_planes: Whole = _value(0, description="Float planes for gunnery ranging (003:83)")
    weapons: list[Weapon]
    flight_deck: FlightDeck | None = None
    flights: list[FlightRecord] = Field(default=[], description="Flights embarked at the start (003:114)")
    hit_grid: HitGrid | None = Field(default=None, description="The ship's own grid; null: the game's grid")
    sources: Sources | None = None

    @model_validator(mode="after")
    def _unique_ids(self) -> Self:
        _unique([w.id for w in self.weapons], "weapon")
        _unique([f.id for f in self.flights], "flight")
        return self

    @property
    def verified(self) -> bool:
        return self.sources is None or self.sources.verified

    def weapon(self, weapon_id: str) -> Weapon:
        for weapon in self.weapons:
            if weapon.id == weapon_id:
                return weapon
        raise KeyError(weapon_id)

    @property
    def torpedo_salvoes(self) -> dict[str, int]:
        """Salvoes carried by each torpedo system, by id."""
        return {w.id: w.salvoes or 0 for w in self.weapons if w.kind == "torpedo"}

    def dump(self) -> dict[str, Any]:
        return self.model_dump(by_alias=True, mode="json")


class ShipFleet(StrictModel):
    """A fleet file (`decisive-victory-fleet/1`, §17.1): ships a scenario may name by id."""

    format: Literal["decisive-victory-fleet/1"] = FLEET_FORMAT
    name: str = ""
    nation: str = ""
    ships: list[ShipRecord]

    @model_validator(mode="after")
    def _unique_ids(self) -> Self:
        _unique([s.id for s in self.ships], "ship")
        return self

    def dump(self) -> dict[str, Any]:
        return self.model_dump(by_alias=True, mode="json")


def _unique(ids: list[str], noun: str) -> None:
    seen: set[str] = set()
    for item in ids:
        if item in seen:
            raise ValueError(f"two {noun}s share the id '{item}'")
        seen.add(item)


def load_ship(data: Any) -> ShipRecord:
    """A `decisive-victory-ship/1` file, validated; FormatError naming the JSON path."""
    return dv_validated(ShipRecord, data, SHIP_FORMAT)


def load_ship_fleet(data: Any) -> ShipFleet:
    return dv_validated(ShipFleet, data, FLEET_FORMAT)


def load_flight(data: Any) -> FlightRecord:
    return dv_validated(FlightRecord, data)
