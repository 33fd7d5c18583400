"""Table 1, "2d6 Success Modifiers", as data, and the 2d6 test that reads it (spec §2.2).

"When rolling 2d6, a roll of 2 or 12 always results in a failure, while a roll
of a N7(natural seven) is always considered a success. ... For every +1
modifier the range of successful values grows by one. For example +1 allows
for all 7's to be counted as successes and a +2 allows for all 7 and 8's to
be counted as successes. A +3 gives 6-8, a +4 give 6-9. ... Modifiers cannot
be reduced below a 0 or above a 9." (`003:9`)

Table 1 itself is lost (`003:11`: its title only).  `RECONSTRUCTED` is the
spec's reading [R-5]: the band alternates upward and downward from 7.  The
bands the text states (0 to +4) are plain; +5 to +9 are marked `unverified`.
A group's printed table (a `decisive-victory-success-table/1` file, this
module's proposal: the spec gives Table 1 no file) replaces it.
"""

from __future__ import annotations

from typing import Any, Final, Literal, Self

from pydantic import Field, field_validator, model_validator

from ..cards import Sources, Whole, StrictModel
from .validate import dv_validated

TABLE_FORMAT: Final = "decisive-victory-success-table/1"
LOWEST, HIGHEST = 0, 9
NATURAL_SEVEN: Final = frozenset({(3, 4), (4, 3)})


class Band(StrictModel):
    """The totals that succeed at one modifier; `totals` null: only a N7 succeeds."""

    modifier: Whole = Field(ge=LOWEST, le=HIGHEST)
    totals: tuple[Whole, Whole] | None = Field(description="Lowest and highest successful total, or null for N7 only")
    unverified: bool = Field(default=False, description="Reconstructed, not read from a printed Table 1")

    @model_validator(mode="after")
    def _between_three_and_eleven(self) -> Self:
        if self.totals is not None:
            low, high = self.totals
            if not 3 <= low <= high <= 11:
                raise ValueError(f"totals {low}-{high}: a band runs from 3 to 11 (2 and 12 always fail), lowest first")
        return self

    def succeeds(self, total: int) -> bool:
        return self.totals is not None and self.totals[0] <= total <= self.totals[1]

    @property
    def text(self) -> str:
        if self.totals is None:
            return "N7 only"
        low, high = self.totals
        return str(low) if low == high else f"{low}-{high}"


class SuccessTable(StrictModel):
    """Table 1: one band per clamped modifier 0 to 9."""

    format: Literal["decisive-victory-success-table/1"] = TABLE_FORMAT
    name: str = ""
    bands: list[Band]
    sources: Sources | None = None

    @field_validator("bands")
    @classmethod
    def _one_band_per_modifier(cls, bands: list[Band]) -> list[Band]:
        found = [band.modifier for band in bands]
        if found != list(range(LOWEST, HIGHEST + 1)):
            raise ValueError(f"the bands' modifiers are {found}: they must be 0 to 9, each once, in order")
        return bands

    def band(self, modifier: int) -> Band:
        """The band of a sum of modifiers, clamped to 0..9 [R-6]."""
        return self.bands[clamp(modifier)]

    def succeeds(self, first: int, second: int, modifier: int) -> bool:
        """The 2d6 test on an ordered pair (§2.2): 2 and 12 fail, a N7 succeeds, else the band."""
        total = first + second
        if total in (2, 12):
            return False
        if (first, second) in NATURAL_SEVEN:
            return True
        return self.band(modifier).succeeds(total)

    @property
    def verified(self) -> bool:
        return not any(band.unverified for band in self.bands) and (self.sources is None or self.sources.verified)

    @property
    def unverified_modifiers(self) -> list[int]:
        return [band.modifier for band in self.bands if band.unverified]


def clamp(modifier: int) -> int:
    """"Modifiers cannot be reduced below a 0 or above a 9" (`003:9`)."""
    return max(LOWEST, min(HIGHEST, modifier))


def load_success_table(data: Any) -> SuccessTable:
    """A `decisive-victory-success-table/1` file, validated; FormatError naming the JSON path."""
    return dv_validated(SuccessTable, data, TABLE_FORMAT)


def _reconstructed() -> SuccessTable:
    bands = [Band(modifier=0, totals=None)]
    for m in range(1, HIGHEST + 1):
        bands.append(Band(modifier=m, totals=(7 - (m - 1) // 2, 7 + m // 2), unverified=m > 4))
    return SuccessTable(name="Reconstructed Table 1 (spec R-5)", bands=bands, sources=Sources(
        verified=False, notes="Table 1 is lost (003:11); 0 to +4 as the text states (003:9), "
                              "+5 to +9 reconstructed by the alternating band (spec R-5)"))


#: The spec's Table 1 [R-5]: 0 N7 only, +1 7, +2 7-8, +3 6-8, +4 6-9, ... +9 3-11.
RECONSTRUCTED: Final = _reconstructed()
