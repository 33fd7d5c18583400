"""Make the shipped fleets from the printed ship cards (issue 12).

    python tools/printed_cards.py [REFERENCE_JSON]

Reads `printed-cards.json` (default: ../shared/reference/ beside the checkout,
see its README) and writes, deterministically:

- `fleets/printed-<faction>.json`: one fleet per faction, every printed card of
  Types 1 to 4 in the card format (`leviathans-card/1`), each with its card
  page address and marked verified; Types 5 and 8 listed under `left_out`
  with the reason;
- `fleets/quick-start-british.json` and `fleets/quick-start-french.json`: the
  Lieutenant's Manual edition of the four Quick-Start cards: the printed card,
  with the values seed 001 states where it states them (so every worked example
  holds), each such value named in `sources.from_manual`.

The app never runs this: the generated JSON is committed, so the app works
without the reference.  Run it again when the reference changes.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_REFERENCE = ROOT.parent / "shared" / "reference" / "printed-cards.json"
FLEETS = ROOT / "fleets"

#: The printed location names and the card format's.
LOCATION_NAMES = {
    "Bow": "bow", "Port": "port", "Starboard": "starboard", "Stern": "stern",
    "Fore-Port": "port_bow", "Aft-Port": "port_quarter",
    "Fore-Starboard": "starboard_bow", "Aft-Starboard": "starboard_quarter",
}
#: The printed slot kinds and the card format's (armour is spelled `armor` there).
KINDS = {"armour": "armor"}
#: Printed labels every slot of a kind carries; a slot with another label keeps it.
DEFAULT_LABELS = {"crew": "Crew", "armor": "Armor", "engine": "Engine",
                  "tesla_coil": "Tesla Coil Trim Tank", "miss": "Miss"}
#: Card id suffix of the printed cards: the Quick-Start edition keeps the plain ids.
ID_SUFFIX = "-2025"
IN_PLAY_TYPES = (1, 2, 3, 4)
LEFT_OUT_REASONS = {
    5: "An aerial fortress (Type 5): its card has six sides (Side 1 to Side 6) and the "
       "Quick-Start rules give no footprint, arcs or movement for it, so it is not in play.",
    8: "A troop transport (Type 8): the Quick-Start rules give no footprint, pivot or turn "
       "order for a Type 8 ship, so it is not in play.",
}
CATALOGUE = ("the fan catalogue of printed cards, github.com/scottboehmer/fleet-builder "
             "(commit {commit})")


def slug(text: str) -> str:
    text = text.replace("ß", "ss")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def pool(colours: list[str]) -> str:
    """Printed dice letters (as colour names) in rulebook notation, printed order kept."""
    if len(colours) > 1 and len(set(colours)) == 1:
        return f"{len(colours)}D{colours[0]}"
    return " & ".join(f"D{c}" for c in colours)


def slot(printed: dict) -> dict:
    kind = KINDS.get(printed["kind"], printed["kind"])
    out: dict = {"kind": kind}
    if kind == "gun":
        out["name"] = printed["label"]
        out["short"] = {"range": printed["short"]["range"], "dice": pool(printed["short"]["dice"])}
        out["long"] = {"range": printed["long"]["range"], "dice": pool(printed["long"]["dice"])}
        if "T" in printed["marks"]:
            out["traits"] = ["turret"]
        if printed["marks"]:
            out["marks"] = printed["marks"]
    elif printed["label"] != DEFAULT_LABELS.get(kind):
        out["label"] = printed["label"]
    if kind == "crew":
        out["dice"] = pool(printed["dice"])
    elif kind == "armor":
        out["breach_modifier"] = printed["modifier"]
    elif kind == "engine":
        out["mp"] = printed["mp"]
    elif kind == "other" and printed["text"]:
        out["text"] = printed["text"]
    if printed["breach"] is not None:
        out["breach"] = printed["breach"]
    return out


def card(printed: dict, commit: str) -> dict:
    engines = sum(s.get("mp", 0) for loc in printed["locations"].values() for s in loc["slots"]
                  if s["kind"] == "engine")
    out: dict = {
        "format": "leviathans-card/1",
        "id": slug(printed["name"]) + ID_SUFFIX,
        "name": printed["name"],
        "class": printed["class"],
        "faction": printed["faction"],
        "type": printed["type"],
        "structural_integrity": printed["structural_integrity"],
        "enter_hexes_before_turn": printed["enter_before_turn"],
    }
    if printed["starting_mp"] != engines:
        out["starting_mp"] = printed["starting_mp"]
    if printed["structural_integrity_note"]:
        out["structural_integrity_note"] = printed["structural_integrity_note"]
    if printed["anti_air"]:
        out["anti_air"] = pool(printed["anti_air"])
    if printed["points"] is not None:
        out["points"] = printed["points"]
    out["locations"] = {
        LOCATION_NAMES[name]: {"go": pool(loc["go"]), "stop": pool(loc["stop"]),
                               "slots": [slot(s) for s in loc["slots"]]}
        for name, loc in printed["locations"].items()
    }
    notes = "Every value as printed on the card (the 2025 printing), read from " + CATALOGUE.format(commit=commit[:12]) + "."
    if printed["points"] is None:
        notes += " Fleet points: not known (the catalogue gives none), so none are given."
    if printed["starting_mp"] != engines:
        notes += (f" The card prints Starting MP {printed['starting_mp']}; its Engine slots add up to {engines}"
                  " (the rest comes from slots without a Quick-Start rule): play uses the engines.")
    out["sources"] = {"verified": True, "url": printed["url"], "products": printed["products"], "notes": notes}
    return out


def left_out(printed: dict) -> dict:
    return {"name": printed["name"], "class": printed["class"], "type": printed["type"],
            "reason": LEFT_OUT_REASONS[printed["type"]], "url": printed["url"]}


def faction_fleets(reference: dict) -> dict[str, dict]:
    """File name -> fleet, one per faction, cards in the catalogue's order."""
    fleets: dict[str, dict] = {}
    for printed in reference["ships"]:
        name = f"printed-{slug(printed['faction'])}.json"
        fleet = fleets.setdefault(name, {
            "format": "leviathans-fleet/1", "name": f"{printed['faction']} (printed cards)",
            "faction": printed["faction"], "ships": [], "left_out": [],
        })
        if printed["type"] in IN_PLAY_TYPES:
            fleet["ships"].append(card(printed, reference["commit"]))
        else:
            fleet["left_out"].append(left_out(printed))
    for fleet in fleets.values():
        if not fleet["left_out"]:
            del fleet["left_out"]
    return fleets


# --- the Lieutenant's Manual edition (seed 001) ------------------------------------------

#: The four Quick-Start cards: id, printed name, header words of seed 001's ship histories.
QUICK_START = {
    "quick-start-british.json": ("Quick-Start British", "British", [
        ("hml-hertfordshire", "HML Hertfordshire", "County-class Light Cruiser", '3 x 6", 2 x 5", 4 x 3"'),
        ("hml-raven", "HML Raven", "D-class Destroyer", '3 x 3", 2 x 4"'),
    ]),
    "quick-start-french.json": ("Quick-Start French", "French", [
        ("pontbriand", "Pontbriand", "Liberté-class Light Cruiser", "3 x 138mm, 8 x 65mm"),
        ("pelletier", "Pelletier", "Grenouille-class Destroyer", "5 x 75mm"),
    ]),
}
#: Gun names as seed 001 writes them (its "3 IN Gun Battery", "5 IN", "6 IN").
MANUAL_GUN_NAMES = {"HML Hertfordshire": {"3in": "3 IN", "4.7in": "5 IN", "6in": "6 IN"},
                    "HML Raven": {"3in": "3 IN"}}


def _manual_values(data: dict) -> list[str]:
    """Put seed 001's stated values on a printed card; return what was changed, in words."""
    changed = []
    name = data["name"]
    for loc in data["locations"].values():
        for s in loc["slots"]:
            if s["kind"] == "gun" and s["name"] in MANUAL_GUN_NAMES.get(name, {}):
                old = s["name"]
                s["name"] = MANUAL_GUN_NAMES[name][old]
                if (old, s["name"]) == ("4.7in", "5 IN"):
                    changed.append('the side guns\' name "5 IN" (Determining Range; the card prints 4.7in)')
    if name == "HML Hertfordshire":
        changed.append('gun names "3 IN" and "6 IN" as the manual writes them (the card prints 3in, 6in)')
    if name == "HML Raven":
        changed.append('the gun name "3 IN" as the manual writes it (the card prints 3in)')
    if name == "Pontbriand":
        data["structural_integrity"] = 20
        changed.append("SI 20 (Damage example, Ending the Game; the card prints 22)")
        for side in ("port", "starboard"):
            data["locations"][side]["stop"] = "2DRed"
        changed.append("port and starboard stop dice 2DRed (Damage example: two red dice on the stop "
                       "arrow; the card prints DRed & DBlue)")
        for where in ("bow", "stern"):
            for s in data["locations"][where]["slots"]:
                if s["kind"] == "gun" and s["name"] == "138mm":
                    s["long"]["range"] = 12
        changed.append('138mm long range 12 ("6/12 Hex", Determining Range; the card prints 6/11)')
    return changed


def quick_start_fleets(reference: dict) -> dict[str, dict]:
    by_name = {s["name"]: s for s in reference["ships"]}
    out = {}
    for file_name, (fleet_name, faction, ships) in QUICK_START.items():
        cards = []
        for card_id, printed_name, ship_class, armament in ships:
            data = card(by_name[printed_name], reference["commit"])
            data.update({"id": card_id, "class": ship_class, "faction": faction})
            data = {k: data[k] for k in ("format", "id", "name", "class", "faction")} | {"armament": armament} | {
                k: v for k, v in data.items() if k not in ("format", "id", "name", "class", "faction")}
            changed = _manual_values(data)
            sources = data["sources"]
            sources["edition"] = "Lieutenant's Manual (Quick-Start rules, seed 001)"
            sources["from_manual"] = changed
            sources["notes"] = (
                "The Quick-Start scenario's card: the values the Lieutenant's Manual (seed 001) states, "
                "listed in from_manual, so that its worked examples hold; every other value as printed on "
                f"the card ({by_name[printed_name]['class']} class; class line and armament as the manual's "
                "ship history gives them). " + sources["notes"]
            )
            cards.append(data)
        out[file_name] = {"format": "leviathans-fleet/1", "name": fleet_name, "faction": faction, "ships": cards}
    return out


def write(fleets: dict[str, dict]) -> None:
    for name, fleet in fleets.items():
        text = json.dumps(fleet, indent=1, ensure_ascii=False) + "\n"
        (FLEETS / name).write_text(text, encoding="utf-8")


def main(argv: list[str]) -> int:
    path = Path(argv[0]) if argv else DEFAULT_REFERENCE
    reference = json.loads(path.read_text(encoding="utf-8"))
    write(faction_fleets(reference))
    write(quick_start_fleets(reference))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
