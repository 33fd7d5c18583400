"""Compare a card with the printed card it is (a copy of), value by value (issue 12).

The printed cards are the shipped cards of the printed-card fleets; a
player's card is compared with the card it was based on, else the printed
card read from the same source page, else the printed card of the same name
and type.  No flet here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.cards import Card, FormatError
from ..engine.words import counted
from ..store.library import based_on, is_players_card
from .editor_model import CardEditor
from .viewmodels import location_name

#: Card fields in the editor's words; `id`, `format` and `sources` are not values of play.
FIELD_NAMES = {
    "name": "Ship name", "class": "Class", "faction": "Faction", "armament": "Armament line", "type": "Type",
    "structural_integrity": "Structural Integrity", "enter_hexes_before_turn": "Hexes before a turn",
    "structural_integrity_note": "Second SI value", "anti_air": "Anti-air dice", "points": "Fleet points",
    "starting_mp": "Starting MP as printed", "go": "go dice", "stop": "stop dice",
}
_NOT_COMPARED = {"id", "format", "sources"}


def is_printed(card: Card) -> bool:
    """A shipped card of the printed-card fleets: a source page and no other edition (the Quick-Start
    cards are the Lieutenant's Manual edition, docs/formats.md)."""
    sources = card.sources
    return (not is_players_card(card) and sources is not None and bool(getattr(sources, "url", None))
            and not (sources.model_extra or {}).get("edition"))


def printed_card(card: Card, catalogue: dict[str, Card]) -> Card | None:
    """The printed card a card is (a copy of): the card it was based on if that is printed, else the
    printed card read from the same source page, else the printed card of the same name and type."""
    origin = catalogue.get(based_on(card) or "") or card
    if is_printed(origin) and origin.id != card.id:
        return origin
    printed = [c for c in catalogue.values() if is_printed(c) and c.id != card.id]
    url = getattr(origin.sources, "url", None) or getattr(card.sources, "url", None)
    for candidate in printed:
        if url and candidate.sources is not None and candidate.sources.url == url:  # printed: it has sources
            return candidate
    return next((c for c in printed if c.name.casefold() == card.name.casefold() and c.type == card.type), None)


def _flat(data: Any, path: tuple = ()) -> dict[tuple, Any]:
    """Every value of a card's data by its path (a location's slots by number), `_NOT_COMPARED` left out."""
    if isinstance(data, dict):
        items: Any = ((key, value) for key, value in data.items() if path or key not in _NOT_COMPARED)
    elif isinstance(data, list) and path and path[-1] == "slots":
        items = enumerate(data)
    else:
        return {path: data}
    out: dict[tuple, Any] = {}
    for key, value in items:
        out.update(_flat(value, (*path, key)))
    return out


def _field_label(path: tuple) -> str:
    if path[0] != "locations":
        return FIELD_NAMES.get(path[0], path[0].replace("_", " ").capitalize())
    words = [location_name(path[1])]
    rest = list(path[2:])
    if rest[:1] == ["slots"] and len(rest) > 1:
        words.append(f"slot {rest[1] + 1}")
        rest = rest[2:]
    words += [FIELD_NAMES.get(str(part), str(part).replace("_", " ")) for part in rest]
    return " ".join(words)


def _shown(value: Any) -> str:
    if value is None or value == "" or value == []:
        return "—"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def differences(card: Card, printed: Card) -> list[tuple[str, str, str]]:
    """Every value where `card` differs from `printed`: (the field in words, this card's, the
    printed card's), in the card's order; empty when they agree."""
    mine, theirs = _flat(card.dump()), _flat(printed.dump())
    paths = list(mine) + [p for p in theirs if p not in mine]
    return [(_field_label(p), _shown(mine.get(p)), _shown(theirs.get(p)))
            for p in paths if mine.get(p) != theirs.get(p)]


@dataclass(frozen=True)
class Comparison:
    """The editor's "compare with the printed card": the printed card and the differing values,
    or why there is nothing to compare (`problem`, in plain words)."""

    printed: Card | None = None
    rows: tuple[tuple[str, str, str], ...] = ()
    problem: str | None = None

    @property
    def summary(self) -> str:
        """"1 value differs from the printed card of HML Raven:" (issue 35: "1 value differ")."""
        n, name = len(self.rows), self.printed.name if self.printed is not None else ""
        if not n:
            return f"Every value is as on the printed card of {name}."
        return f"{counted(n, 'value')} {'differs' if n == 1 else 'differ'} from the printed card of {name}:"


def compare_with_printed(editor: CardEditor, catalogue: dict[str, Card]) -> Comparison:
    """The draft beside its printed card (issue 12), value by value."""
    try:
        card = editor.card()
    except FormatError as exc:
        return Comparison(problem=f"Fix the card first: {exc}")
    printed = printed_card(card, catalogue)
    if printed is None:
        return Comparison(problem=f"No printed card of {card.name} is in the fleets to compare with.")
    return Comparison(printed, tuple(differences(card, printed)))
