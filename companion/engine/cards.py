"""Ship cards and fleets as data (formats.md, "Ship card").

A card has four locations (six on a Type 4), each with `go` and `stop`
location dice and exactly six slots; slot number = position in the list.
Validation errors carry the JSON path and the problem in plain words; the
edge (CLI, app) adds the file name.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal, Self, TypeVar, Union

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, Strict, ValidationError, field_validator, model_validator
from pydantic_core import ErrorDetails

from .dice import Pool, PoolError, parse_pool
from .footprint import LOCATION_HEX
from .hexes import PositionError, parse_facing
from .format_error import FormatError as FormatError  # re-exported: the readers of cards catch it here
from .migrations import migrate_card, migrate_fleet
from .names import ShipName

CARD_FORMAT: Final = "leviathans-card/1"
FLEET_FORMAT: Final = "leviathans-fleet/1"
SLOTS_PER_LOCATION = 6
#: Bounds on a card's numbers (docs/formats.md "Limits"): far above any printed
#: card, low enough that no number overflows the arithmetic built on it.
MAX_SI = 999
MAX_BREACH = 999
MAX_RANGE = 999
MAX_MP = 99
MAX_MODIFIER = 99
MAX_SATURATION = 20
#: A whole number in a file: `true` is not 1 (booleans never coerce to numbers).
Whole = Annotated[int, Strict()]


def facing_value(value: object) -> object:
    """A pydantic "before" check of a facing (N ... NW or 0-5), so that `true` is not NE."""
    if isinstance(value, bool):
        raise ValueError(f"{str(value).lower()} is not a facing: use N, NE, SE, S, SW or NW (or 0-5)")
    try:
        parse_facing(value if isinstance(value, (str, int)) else str(value))
    except PositionError as exc:
        raise ValueError(str(exc)) from None
    return value


#: A facing in a file or an action: N ... NW or 0-5 (`facing_value`).
Facing = Annotated[str | int, BeforeValidator(facing_value)]
M = TypeVar("M", bound=BaseModel)


def _check_pool(value: str) -> str:
    problem = _pool_problem(value)
    if problem:
        raise ValueError(problem)
    return value


@lru_cache(maxsize=1024)
def _pool_problem(value: str) -> str:
    """Why a pool text is not a pool ('' if it is); cached: a fleet repeats a few pools often."""
    try:
        parse_pool(value)
    except PoolError as exc:
        return str(exc)
    return ""


PoolText = Annotated[
    str,
    AfterValidator(_check_pool),
    Field(description="Dice in rulebook notation, e.g. 'DBlue' or '2DRed'"),
]


class StrictModel(BaseModel):
    """A frozen model that refuses unknown fields: the base of the printed data's and the rules' records."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class RangeBand(StrictModel):
    """One of a gun's two range bands: up to `range` hexes, roll `dice`."""

    range: int = Field(ge=0, le=MAX_RANGE, strict=True)
    dice: PoolText

    @property
    def pool(self) -> Pool:
        return parse_pool(self.dice)


class _Slot(StrictModel):
    breach: Whole | None = Field(default=None, ge=1, le=MAX_BREACH, description="Breach number printed on the slot")
    label: str = Field(default="", description="The slot's label as printed on the card, e.g. 'Armor', 'Crew'")
    text: str = Field(default="", description="What the card prints after the label, when the slot's fields do not say it")


class _Breached(_Slot):  # every kind of slot but a miss slot prints its breach number
    breach: int = Field(ge=1, le=MAX_BREACH, strict=True)


class Battery(StrictModel):
    """What a Quick-Start gun and a War Fleet location's attack share (seed 004 "Attack": the
    same shape as a gun battery): a short and a long band, traits and saturation boxes."""

    if TYPE_CHECKING:  # the fields, declared by each kind of battery
        short: RangeBand
        long: RangeBand
        traits: list[Literal["turret", "bracket", "saturation"]]
        saturation: int

    @model_validator(mode="after")
    def _bands_in_order(self) -> Self:
        if self.long.range < self.short.range:
            raise ValueError(f"long range {self.long.range} is shorter than short range {self.short.range}")
        return self

    @property
    def boxes(self) -> int:
        """Saturation boxes; a saturation trait with no count is one box."""
        if self.saturation:
            return self.saturation
        return 1 if "saturation" in self.traits else 0

    @property
    def turret(self) -> bool:
        return "turret" in self.traits

    @property
    def bracket(self) -> bool:
        return "bracket" in self.traits

    def band(self, range_: int | None) -> Literal["short", "long", "out"]:
        """`short` out to the short range, `long` out to the long range, else `out` (seed 001 "Range")."""
        if range_ is None:
            return "out"
        if range_ <= self.short.range:
            return "short"
        if range_ <= self.long.range:
            return "long"
        return "out"


class GunSlot(_Breached, Battery):
    kind: Literal["gun"] = "gun"
    name: str
    short: RangeBand
    long: RangeBand
    traits: list[Literal["turret", "bracket", "saturation"]] = []
    saturation: int = Field(default=0, ge=0, le=MAX_SATURATION, strict=True, description="Saturation boxes (War Fleet)")
    marks: str = Field(default="", description="Symbols printed before the ranges: 'T' turret; '▲', '■' shown as printed")


class CrewSlot(_Breached):
    kind: Literal["crew"] = "crew"
    dice: PoolText

    @property
    def pool(self) -> Pool:
        return parse_pool(self.dice)


class ArmorSlot(_Breached):
    kind: Literal["armor"] = "armor"
    breach_modifier: int = Field(ge=0, le=MAX_MODIFIER, strict=True)


class EngineSlot(_Breached):
    kind: Literal["engine"] = "engine"
    mp: int = Field(ge=0, le=MAX_MP, strict=True)


class TeslaCoilSlot(_Breached):
    kind: Literal["tesla_coil"] = "tesla_coil"


class MissSlot(_Slot):
    kind: Literal["miss"] = "miss"


class OtherSlot(_Breached):
    """A slot the Quick-Start rules do not define (Torpedo, Steering Gear, ...): it can be
    destroyed and counts for the keel, location and half-SI checks; no rule of its own."""

    kind: Literal["other"] = "other"


Slot = Annotated[
    Union[GunSlot, CrewSlot, ArmorSlot, EngineSlot, TeslaCoilSlot, MissSlot, OtherSlot],
    Field(discriminator="kind"),
]
SLOT_KINDS = ("gun", "crew", "armor", "engine", "tesla_coil", "miss", "other")
#: The one line a card shows beside a slot the Quick-Start rules do not define.
NO_QUICK_START_RULE = "no Quick-Start rule: apply it at the table"


class Location(StrictModel):
    """One location of a card: location dice and six slots."""

    go: PoolText = Field(description="Location dice when the ship entered a new hex this turn")
    stop: PoolText = Field(description="Location dice when the ship did not move")
    slots: list[Slot]

    @field_validator("slots")
    @classmethod
    def _six_slots(cls, slots: list[Slot]) -> list[Slot]:
        if len(slots) != SLOTS_PER_LOCATION:
            raise ValueError(f"{len(slots)} slots, a location needs exactly {SLOTS_PER_LOCATION}")
        return slots

    def dice(self, moved: bool) -> Pool:
        return parse_pool(self.go if moved else self.stop)

    def slot(self, number: int) -> Slot:
        return self.slots[number - 1]

    def gun(self, number: int) -> GunSlot:
        """Slot `number`, which the caller knows to be a gun (a shot, a firing solution)."""
        slot = self.slot(number)
        if not isinstance(slot, GunSlot):
            raise ValueError(f"slot {number} is a {slot.kind.replace('_', ' ')} slot, not a gun")
        return slot


class Sources(BaseModel):
    model_config = ConfigDict(extra="allow")

    verified: bool = False
    notes: str = ""
    url: str = Field(default="", description="Where the printed card's values were read (its card page)")


class Card(StrictModel):
    """A ship card (formats.md)."""

    format: Literal["leviathans-card/1"] = CARD_FORMAT
    id: str = Field(min_length=1, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    name: ShipName = Field(min_length=1)
    ship_class: str = Field(default="", alias="class")
    faction: str = ""
    armament: str = Field(default="", description="The card's armament line, e.g. '3 x 138mm, 8 x 65mm'")
    type: int = Field(ge=1, le=4, strict=True)
    structural_integrity: int = Field(ge=1, le=MAX_SI, strict=True)
    enter_hexes_before_turn: int = Field(ge=0, le=MAX_MP, strict=True)
    printed_mp: Whole | None = Field(
        default=None, ge=0, alias="starting_mp",
        description="Starting MP as printed, where it differs from the engines' sum; play uses the engines",
    )
    structural_integrity_note: str = Field(default="", description="A second SI value the card prints in brackets")
    anti_air: PoolText | None = Field(default=None, description="Anti-air dice (a 2025 stat; no Quick-Start rule)")
    points: Whole | None = Field(default=None, ge=0, description="Fleet points (a 2025 stat; no Quick-Start rule)")
    locations: dict[str, Location]
    sources: Sources | None = None

    @model_validator(mode="after")
    def _locations_match_type(self) -> Self:
        wanted = list(LOCATION_HEX[self.type])
        missing = [name for name in wanted if name not in self.locations]
        extra = [name for name in self.locations if name not in wanted]
        parts = [f"{word} {', '.join(names)}" for word, names in (("missing", missing), ("unknown", extra)) if names]
        if parts:
            raise ValueError(f"a Type {self.type} ship has locations {', '.join(wanted)} ({'; '.join(parts)})")
        return self

    @property
    def starting_mp(self) -> int:
        """Starting MP: the sum of every engine slot's MP (seed 001, Movement)."""
        return sum(
            slot.mp for loc in self.locations.values() for slot in loc.slots if slot.kind == "engine"
        )

    @property
    def card_mp(self) -> int:
        """Starting MP as the card prints it (the engines' sum when it prints no other)."""
        return self.starting_mp if self.printed_mp is None else self.printed_mp

    @property
    def verified(self) -> bool:
        return self.sources is None or self.sources.verified

    def dump(self) -> dict[str, Any]:
        return self.model_dump(by_alias=True, exclude_none=True, mode="json")


class LeftOut(StrictModel):
    """A printed card the fleet does not bring into play, and why (a plain sentence)."""

    name: str
    ship_class: str = Field(default="", alias="class")
    type: int = Field(strict=True)
    reason: str = Field(min_length=1)
    url: str = ""


class Fleet(StrictModel):
    format: Literal["leviathans-fleet/1"] = FLEET_FORMAT
    name: str
    faction: str = ""
    ships: list[Card]
    left_out: list[LeftOut] = Field(default=[], description="Printed cards not in play, each with the reason")

    @model_validator(mode="after")
    def _unique_ids(self) -> Self:
        seen: set[str] = set()
        for card in self.ships:
            if card.id in seen:
                raise ValueError(f"two cards share the id '{card.id}'")
            seen.add(card.id)
        return self


# --- turning pydantic errors into plain words -----------------------------


def _json_path(loc: tuple[int | str, ...]) -> str:
    parts: list[str] = []
    for i, item in enumerate(loc):
        if isinstance(item, str) and item in SLOT_KINDS and i > 0 and isinstance(loc[i - 1], int):
            continue  # the discriminator tag pydantic inserts for slot kinds
        if isinstance(item, int):
            parts.append(str(item + 1) if i > 0 and loc[i - 1] == "slots" else str(item))  # slots count from 1
        else:
            parts.append(item)
    return ".".join(parts)


def _plain(error: ErrorDetails) -> str:
    kind, msg = error["type"], error["msg"]
    if isinstance(error.get("input"), bool) and kind.endswith("_type"):
        return f"{str(error['input']).lower()} is not {_WANTED.get(kind, 'allowed here')}"
    if kind == "bool_type":
        return f"{_shown(error.get('input'))} is not true or false"
    if kind in ("int_type", "int_from_float", "int_parsing", "finite_number") and "input" in error:
        return f"{_shown(error['input'])} is not a whole number"
    if kind == "missing":
        return "missing"
    if kind == "extra_forbidden":
        return _unknown_rule(error["loc"]) or "unknown field"
    if kind == "literal_error" and error["loc"] and error["loc"][-1] == "format":
        return f"unknown format {error.get('input')!r}: this app reads {msg.split('Input should be ')[-1]}"
    if kind == "union_tag_invalid":
        if "'gun'" not in str(error["ctx"].get("expected_tags", "'gun'")):  # not a slot: an action
            return f"unknown kind {error['ctx'].get('tag')!r}: use one of {error['ctx'].get('expected_tags')}"
        return f"unknown slot kind {error['ctx'].get('tag')!r}: use one of {', '.join(SLOT_KINDS)}"
    if kind == "union_tag_not_found":
        return "a slot needs a 'kind'" if error["ctx"].get("discriminator") == "'kind'" and "slots" in map(str, error["loc"]) else \
            f"needs a {error['ctx'].get('discriminator')}"
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            return msg[len(prefix):]
    return msg[0].lower() + msg[1:]


#: A scenario's sections of rules by key ("house_rules", "table_rules"), for `_unknown_rule`: the
#: module defining them adds them as it loads (quick_start/table_rules.py), so cards need not import
#: Quick-Start's package, which imports cards (issue 27: no import cycle); a file with such a section
#: is read by a model that holds them, so they are here whenever the message is wanted.
RULE_SECTIONS: dict[str, type[BaseModel]] = {}


def _unknown_rule(loc: tuple[int | str, ...]) -> str | None:
    """An unknown key of a scenario's house_rules or table_rules, with the rules there are."""
    known = RULE_SECTIONS.get(str(loc[-2])) if len(loc) > 1 else None
    if known is None:
        return None
    noun = "house rule" if loc[-2] == "house_rules" else "table rule"
    return f"unknown {noun} {loc[-1]!r}: the {noun}s are {', '.join(known.model_fields)}"


_WANTED = {"int_type": "a whole number", "bool_type": "true or false", "string_type": "text",
           "float_type": "a number", "model_type": "an object", "dict_type": "an object", "list_type": "a list"}


def _shown(value: object) -> str:
    """A bad value as the file wrote it, cut short."""
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 24 else text[:20] + "..."


def format_error(exc: ValidationError) -> FormatError:
    """The first problem of a pydantic error, as a FormatError."""
    error = exc.errors()[0]
    more = len(exc.errors()) - 1
    problem = _plain(error) + (f" (and {more} more problem{'s' if more > 1 else ''})" if more else "")
    return FormatError(problem, _json_path(tuple(error["loc"])))


def validated(model: type[M], data: Any, expected: str | None = None) -> M:
    """`data` (in the format `expected`, when it has a format tag) as a `model`; FormatError naming the JSON path."""
    if expected is not None:
        _check_format(data, expected)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise format_error(exc) from None


def load_card(data: Any) -> Card:
    """Validate card data; raises FormatError naming the JSON path."""
    return validated(Card, migrate_card(data), CARD_FORMAT)


def load_fleet(data: Any) -> Fleet:
    return validated(Fleet, migrate_fleet(data), FLEET_FORMAT)


def _check_format(data: Any, expected: str) -> None:
    if not isinstance(data, dict):
        raise FormatError(f"expected a JSON object with \"format\": \"{expected}\"")
    tag = data.get("format")
    if tag is None:
        raise FormatError(f"missing; expected \"{expected}\"", "format")
    if tag != expected:
        family, _, version = str(tag).partition("/")
        want_family, _, want_version = expected.partition("/")
        if family == want_family and version.isdigit() and int(version) > int(want_version):
            raise FormatError(
                f"'{tag}' is newer than this app understands ({expected}); update the app",
                "format",
            )
        raise FormatError(f"'{tag}' is not '{expected}'", "format")
