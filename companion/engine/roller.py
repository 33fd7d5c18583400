"""Seedable, verifiable dice: every roll is derived from a secret seed and a counter.

The roller is plain data (seed + counter), so it lives inside the game state:
a replay rolls the same dice, and `verify` can re-derive every roll once the
seed is revealed.  Each die is HMAC-SHA256(seed, counter) read with rejection
sampling, so every face index is exactly equally likely.
"""

from __future__ import annotations

import hashlib
import hmac

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from .dice import FACES, Colour, Pool, table_face


class DieRoll(BaseModel):
    """One die as rolled: its colour and the number on its face."""

    model_config = ConfigDict(frozen=True)

    colour: Colour
    face: int


class Roller(BaseModel):
    """Roller state: a hex seed and how many dice it has rolled so far."""

    model_config = ConfigDict(frozen=True)

    seed: str
    counter: int = 0

    @classmethod
    def from_seed(cls, seed: int | str) -> "Roller":
        """A roller for a player-given seed (a number or any text)."""
        return cls(seed=str(seed).encode().hex())

    @property
    def commitment(self) -> str:
        """SHA-256 of the seed, shown at the start so players can check later."""
        return hashlib.sha256(bytes.fromhex(self.seed)).hexdigest()


def face_index(seed_hex: str, counter: int, sides: int) -> int:
    """The face index (0-based) of die number `counter`, uniform by rejection."""
    key = bytes.fromhex(seed_hex)
    limit = (2**32 // sides) * sides
    attempt = 0
    while True:
        digest = hmac.new(key, f"{counter}:{attempt}".encode(), hashlib.sha256).digest()
        for i in range(0, len(digest), 4):
            value = int.from_bytes(digest[i : i + 4], "big")
            if value < limit:
                return value % sides
        attempt += 1


def roll_pool(roller: Roller, pool: Pool) -> tuple[list[DieRoll], Roller]:
    """Roll every die of a pool in order; returns the rolls and the advanced roller."""
    dice = RollerDice(roller)
    return [dice.take(colour, "pool") for colour in pool], dice.roller


def check_face(colour: Colour, face: int) -> None:
    """Refuse a face that the die does not carry (table dice typed by players)."""
    colour = Colour(colour)
    if face not in FACES[colour]:
        faces = sorted(set(FACES[colour]))
        raise ValueError(
            f"{colour.label} has no face {face}: its faces are {faces[0]} to {faces[-1]}"
            + ("" if len(faces) == faces[-1] else f" ({', '.join(map(str, faces))})")
        )


class NeedDice(ValueError):
    """Table dice ran out: the players must roll and enter another die."""


class DiceSource(Protocol):
    def take(self, colour: Colour, purpose: str) -> DieRoll: ...


@dataclass
class RollerDice:
    """Dice from the game's seeded roller; `roller` advances as dice are taken."""

    roller: Roller

    def take(self, colour: Colour, purpose: str) -> DieRoll:
        """Roll one die: the face numbered `counter` of the seed; the roller moves on."""
        faces, roller = FACES[Colour(colour)], self.roller
        self.roller = roller.model_copy(update={"counter": roller.counter + 1})
        return DieRoll(colour=colour, face=faces[face_index(roller.seed, roller.counter, len(faces))])


class TableDice:
    """Faces the players rolled at the table, taken in order per purpose (`faces`: purpose ->
    faces); `needs`: purpose -> what a missing face is for, in words."""

    def __init__(self, faces: Mapping[str, Sequence[int]], needs: Mapping[str, str]):
        self.faces = {purpose: list(rolled) for purpose, rolled in faces.items()}
        self.needs = needs

    def take(self, colour: Colour, purpose: str) -> DieRoll:
        faces = self.faces.get(purpose)
        if not faces:
            raise NeedDice(f"{self.needs[purpose]}: roll {colour.label} and enter its face")
        face = table_face(colour, faces.pop(0))
        check_face(colour, face)
        return DieRoll(colour=colour, face=face)
