"""The shipped fleets against the printed ship cards (issue 12).

The reference is `../shared/reference/printed-cards.json` beside the checkout
(the printed cards' values, one record per card; its README says where they
were read).  Every card of Types 1 to 4 must be in a shipped fleet with every
value equal to the printed card; Types 5 and 8 must be named as left out, with
a reason.  The Quick-Start edition (seed 001, the Lieutenant's Manual) differs
from the printing only where the manual states another value, and says so.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.engine.quick_start import apply
from companion.engine.quick_start.actions import DeclareShot, ResolveShot, TableFaces
from companion.engine.cards import Card, Fleet
from companion.engine.quick_start.combat import firing_solution
from companion.engine.dice import parse_pool
from companion.engine.quick_start.state import SlotStatus
from companion.files import load_file, shipped_fleets_dir
from cards_for_tests import position, ship

REPO = Path(__file__).resolve().parent.parent
REFERENCE = REPO.parent / "shared" / "reference" / "printed-cards.json"
LOCATIONS = {"Bow": "bow", "Port": "port", "Starboard": "starboard", "Stern": "stern",
             "Fore-Port": "port_bow", "Aft-Port": "port_quarter",
             "Fore-Starboard": "starboard_bow", "Aft-Starboard": "starboard_quarter"}
QUICK_START_IDS = {"hml-hertfordshire": "HML Hertfordshire", "hml-raven": "HML Raven",
                   "pontbriand": "Pontbriand", "pelletier": "Pelletier"}


@pytest.fixture(scope="module")
def reference() -> list[dict]:
    if not REFERENCE.is_file():
        pytest.skip(f"the printed-card reference is not here ({REFERENCE})")
    return json.loads(REFERENCE.read_text(encoding="utf-8"))["ships"]


@pytest.fixture(scope="module")
def fleets() -> dict[str, Fleet]:
    out = {}
    for path in sorted(shipped_fleets_dir().glob("*.json")):
        loaded = load_file(path)
        if isinstance(loaded, Fleet):
            out[path.name] = loaded
    return out


@pytest.fixture(scope="module")
def printed_by_url(fleets) -> dict[str, Card]:
    return {card.sources.url: card for name, fleet in fleets.items() if name.startswith("printed-")
            for card in fleet.ships}


def dice(pool_text: str) -> list[str]:
    return sorted(d.name.capitalize() for d in parse_pool(pool_text))


def slot_values(slot) -> dict:
    """What the reference records of a slot, read from a card's slot."""
    kind = {"armor": "armour"}.get(slot.kind, slot.kind)
    out = {"kind": kind, "breach": None if slot.kind == "miss" else slot.breach}
    if slot.kind == "gun":
        out.update(label=slot.name, marks=slot.marks,
                   short=(slot.short.range, dice(slot.short.dice)), long=(slot.long.range, dice(slot.long.dice)))
    elif slot.kind == "crew":
        out["dice"] = dice(slot.dice)
    elif slot.kind == "engine":
        out["mp"] = slot.mp
    elif slot.kind == "armor":
        out["modifier"] = slot.breach_modifier
    elif slot.kind == "other":
        out.update(label=slot.label, text=slot.text)
    return out


def printed_values(slot: dict) -> dict:
    out = {"kind": slot["kind"], "breach": slot["breach"]}
    if slot["kind"] == "gun":
        out.update(label=slot["label"], marks=slot["marks"],
                   short=(slot["short"]["range"], sorted(slot["short"]["dice"])),
                   long=(slot["long"]["range"], sorted(slot["long"]["dice"])))
    elif slot["kind"] == "crew":
        out["dice"] = sorted(slot["dice"])
    elif slot["kind"] == "engine":
        out["mp"] = slot["mp"]
    elif slot["kind"] == "armour":
        out["modifier"] = slot["modifier"]
    elif slot["kind"] == "other":
        out.update(label=slot["label"], text=slot["text"])
    return out


def differences(card: Card, printed: dict) -> list[str]:
    """Every value of the printed card the shipped card does not hold, in words."""
    found = []

    def check(what, ours, theirs):
        if ours != theirs:
            found.append(f"{printed['name']}: {what} is {ours!r}, printed {theirs!r}")

    check("SI", card.structural_integrity, printed["structural_integrity"])
    check("type", card.type, printed["type"])
    check("starting MP", card.card_mp, printed["starting_mp"])
    check("enter hexes before turn", card.enter_hexes_before_turn, printed["enter_before_turn"])
    check("anti-air", dice(card.anti_air) if card.anti_air else [], sorted(printed["anti_air"]))
    check("points", card.points, printed["points"])
    check("locations", sorted(card.locations), sorted(LOCATIONS[n] for n in printed["locations"]))
    for name, loc in printed["locations"].items():
        ours = card.locations.get(LOCATIONS[name])
        if ours is None:
            continue
        check(f"{name} go dice", dice(ours.go), sorted(loc["go"]))
        check(f"{name} stop dice", dice(ours.stop), sorted(loc["stop"]))
        for n, (slot, theirs) in enumerate(zip(ours.slots, loc["slots"]), start=1):
            check(f"{name} slot {n}", slot_values(slot), printed_values(theirs))
    return found


def test_every_printed_card_of_types_1_to_4_is_shipped_with_its_printed_values(reference, printed_by_url):
    in_play = [p for p in reference if p["type"] in (1, 2, 3, 4)]
    assert len(in_play) == 146
    missing = [p["name"] for p in in_play if p["url"] not in printed_by_url]
    assert not missing
    problems = [d for p in in_play for d in differences(printed_by_url[p["url"]], p)]
    assert not problems, "\n".join(problems[:20])


def test_every_printed_card_is_verified_and_names_its_card_page(printed_by_url):
    for card in printed_by_url.values():
        assert card.sources.verified and card.sources.url.startswith("https://")


def test_turrets_are_the_printed_t_mark(printed_by_url):
    for card in printed_by_url.values():
        for loc in card.locations.values():
            for slot in loc.slots:
                if slot.kind == "gun":
                    assert ("turret" in slot.traits) == ("T" in slot.marks)


def test_types_5_and_8_are_left_out_with_a_reason_not_silently(reference, fleets):
    left_out = {item.url: item for fleet in fleets.values() for item in fleet.left_out}
    others = [p for p in reference if p["type"] not in (1, 2, 3, 4)]
    assert {p["type"] for p in others} == {5, 8}
    for p in others:
        assert p["url"] in left_out, p["name"]
        assert "not in play" in left_out[p["url"]].reason


def test_card_ids_are_unique_across_the_shipped_fleets(fleets):
    ids = [card.id for fleet in fleets.values() for card in fleet.ships]
    assert len(ids) == len(set(ids))


# --- the Lieutenant's Manual edition ---------------------------------------------------------

MANUAL = {  # what seed 001 states that the printed card does not
    "Pontbriand": ["Pontbriand: SI is 20, printed 22",
                   "Pontbriand: Port stop dice is ['Red', 'Red'], printed ['Blue', 'Red']",
                   "Pontbriand: Starboard stop dice is ['Red', 'Red'], printed ['Blue', 'Red']"],
}


def test_quick_start_cards_are_the_printed_cards_but_where_seed_001_states_otherwise(reference, fleets):
    by_name = {p["name"]: p for p in reference}
    for fleet_name in ("quick-start-british.json", "quick-start-french.json"):
        for card in fleets[fleet_name].ships:
            printed = by_name[QUICK_START_IDS[card.id]]
            assert card.sources.url == printed["url"]
            found = [d for d in differences(card, printed) if " slot " not in d]
            assert found == MANUAL.get(printed["name"], [])
            assert isinstance(card.sources.model_extra["from_manual"], list), card.id
            slot_changes = [d for d in differences(card, printed) if " slot " in d]
            for change in slot_changes:  # gun names as the manual writes them, the 138mm's 6/12
                assert "'label'" in change or "(12," in change, change


def test_quick_start_values_seed_001_states():
    british = {c.id: c for c in load_file(shipped_fleets_dir() / "quick-start-british.json").ships}
    french = {c.id: c for c in load_file(shipped_fleets_dir() / "quick-start-french.json").ships}
    pont = french["pontbriand"]
    assert pont.structural_integrity == 20
    assert (pont.locations["port"].go, pont.locations["port"].stop) == ("DBlack", "2DRed")
    for where in ("bow", "stern"):
        gun = next(s for s in pont.locations[where].slots if s.kind == "gun")
        assert (gun.name, gun.short.range, gun.long.range) == ("138mm", 6, 12)
    herts = british["hml-hertfordshire"]
    assert [s.name for s in herts.locations["starboard"].slots if s.kind == "gun"] == ["3 IN", "5 IN"]
    assert [s.breach for s in herts.locations["port"].slots] == [11, 12, 13, 15, 16, 15]


def _john_table_from_the_shipped_cards():
    """Seed 001's combat walk-through (John's shots) on the Quick-Start scenario's own cards:
    the Pontbriand has three destroyed slots outside its port and entered a new hex this turn;
    the Hertfordshire's bow crew was destroyed in an earlier turn."""
    british = {c.id: c for c in load_file(shipped_fleets_dir() / "quick-start-british.json").ships}
    french = {c.id: c for c in load_file(shipped_fleets_dir() / "quick-start-french.json").ships}
    herts_crew = next(n for n, s in enumerate(british["hml-hertfordshire"].locations["bow"].slots, 1)
                      if s.kind == "crew")
    pont = ship("pontbriand", "French", french["pontbriand"], "2010", "N", moved=True, damage={
        ("bow", 2): "destroyed", ("starboard", 6): "destroyed", ("stern", 3): "destroyed_this_turn"})
    herts = ship("hertfordshire", "British", british["hml-hertfordshire"], "1210", "NE",
                 damage={("bow", herts_crew): "destroyed"})
    rav = ship("raven", "British", british["hml-raven"], "1611", "NE")
    return position(herts, rav, pont)


def _bow_gun(card_ship):
    return next(n for n, s in enumerate(card_ship.card.locations["bow"].slots, 1) if s.kind == "gun")


def test_john_shots_and_keel_roll_on_the_quick_start_cards():
    """Hertfordshire 6 IN at 8 hexes, crew gone: DBlue & DBlack, 4 + 7 = 11 destroys the 65mm in
    port slot 1; Raven 3 IN at 4: DBlue & DGreen & DBlack, 11, slot 1 again: keel 16 + 5 = 21
    against SI 20."""
    state = _john_table_from_the_shipped_cards()
    herts_gun = _bow_gun(state.ship("hertfordshire"))
    raven_gun = _bow_gun(state.ship("raven"))
    solution = firing_solution(state.ship("hertfordshire"), "bow", herts_gun, state.ship("pontbriand"))
    assert (solution.range, solution.band, [s.location for s in solution.strikes]) == (8, "long", ["port"])
    assert solution.strikes[0].pool.expanded == "DBlue & DBlack"
    state = apply(state, DeclareShot(attacker="hertfordshire", location="bow", slot=herts_gun,
                                     target="pontbriand")).state
    state = apply(state, DeclareShot(attacker="raven", location="bow", slot=raven_gun, target="pontbriand")).state
    state = apply(state, ResolveShot(shot=1, table=TableFaces(pool=[4, 7], slot=[1]))).state
    assert state.shots[0].result.outcome == "slot_destroyed"
    raven_solution = firing_solution(state.ship("raven"), "bow", raven_gun, state.ship("pontbriand"))
    assert (raven_solution.range, raven_solution.band) == (4, "short")
    assert raven_solution.strikes[0].pool.expanded == "DBlue & DGreen & DBlack"
    outcome = apply(state, ResolveShot(shot=2, table=TableFaces(pool=[3, 4, 4], slot=[1, 1], keel=[8, 8])))
    result = outcome.state.shots[1].result
    assert (result.total, result.outcome) == (11, "keel_break")
    assert "16 + 5 = 21 against SI 20" in result.text


# --- slots without a Quick-Start rule ----------------------------------------------------------


def test_slots_without_a_quick_start_rule_count_like_any_slot(printed_by_url):
    """A Torpedo or Steering Gear slot can be destroyed by a shot, and counts for the keel
    roll, the every-slot-of-a-location check and the half-SI check (issue 12)."""
    from companion.engine.quick_start.combat import breach_odds
    from companion.engine.dice import parse_pool as pool
    ardent = next(c for c in printed_by_url.values() if c.name == "Ardent")
    port = ardent.locations["port"]
    others = [n for n, s in enumerate(port.slots, 1) if s.kind == "other"]
    assert [port.slot(n).label for n in others] == ["Torpedo", "Torpedo", "Steering Gear"]
    target = ship("ardent", "French", ardent, "1010")
    odds = breach_odds(pool("DBlack & DBlack"), 0, target, "port")
    assert all(odds.slot_destroyed[n] > 0 for n in others)
    hit = target
    for n in others:
        hit = hit.with_status("port", n, SlotStatus.DESTROYED)
    assert hit.destroyed_count() == 3 and hit.destroyed_count("port") == 3
    rest = [n for n in range(1, 7) if n not in others]
    wrecked = hit
    for n in rest:
        wrecked = wrecked.with_status("port", n, SlotStatus.DESTROYED)
    assert wrecked.destruction == "every slot of its port is destroyed"


def test_the_card_names_its_slots_without_a_rule_in_one_line(printed_by_url):
    from companion.app.viewmodels import card_view
    ardent = next(c for c in printed_by_url.values() if c.name == "Ardent")
    view = card_view(position(ship("ardent", "French", ardent, "1010")), "ardent")
    assert view.unruled == "Torpedo, Steering Gear: no Quick-Start rule: apply it at the table"
    port = next(loc for loc in view.locations if loc.key == "port")
    torpedo = port.slots[1]
    assert (torpedo.title, torpedo.detail) == ("Torpedo", "15 hex RRR")
    bow = next(loc for loc in view.locations if loc.key == "bow")
    assert bow.slots[1].title == "164mm" and bow.slots[1].detail == "■T 6/13 hex"
    raven = card_view(position(ship("r", "British", load_file(shipped_fleets_dir() / "quick-start-british.json")
                                    .ships[1], "1010")), "r")
    assert raven.unruled == ""


def test_a_printed_type_4_sheet_shows_six_locations_marks_and_slots_without_a_rule(printed_by_url):
    from companion import printing
    kamchatka = next(c for c in printed_by_url.values() if c.name == "Kamchatka")
    page = printing.render(kamchatka)
    assert page.count('class="loc"') == 6
    assert "fore side guns fire from hex 2, aft side guns from hex 3" in page
    assert "■T 7/13 Hex" in page and "▲ 4/8 Hex" in page
    assert "Precision Crew" in page and "Steering Gear" in page
    assert page.count("no Quick-Start rule: apply it at the table") == 1
    habsburg = next(c for c in printed_by_url.values() if c.name == "SML Habsburg")
    sheet = printing.render(habsburg)
    assert 'Starting MP</span><span class="value">11</span>' in sheet
    assert "engines 2 + 3 + 3 = 8 in play" in sheet


# --- the player's own cards, and cards not in play ------------------------------------------------


def test_a_players_copy_of_a_card_the_library_now_replaces_is_kept(tmp_path):
    """A copy made from the old estimated Raven (SI 18, unverified) and one of the War Fleet
    scenario's old 'hml-ardent' card, which no shipped fleet holds now: both are kept as they
    were saved, and play."""
    from companion.engine.cards import load_card
    from companion.store.library import CardLibrary, based_on, catalogue_of
    shipped = load_file(shipped_fleets_dir() / "quick-start-british.json").ships
    raven = shipped[1]
    old = raven.dump() | {"structural_integrity": 18, "sources": {"verified": False, "notes": "Estimated: SI 18"}}
    library = CardLibrary(tmp_path)
    mine = library.save(library.copy(load_card(old)))
    ardent = library.save(library.copy(load_card(raven.dump() | {"id": "hml-ardent", "name": "HML Ardent"})))
    cards = catalogue_of(CardLibrary(tmp_path)).cards()
    assert cards[mine.id] == mine and cards[mine.id].structural_integrity == 18 and not cards[mine.id].verified
    assert cards["hml-raven"].structural_integrity == 20, "the library's Raven is the printed one"
    assert cards[ardent.id] == ardent and based_on(ardent) == "hml-ardent" and "hml-ardent" not in cards
    state = position(ship("a", "British", cards[mine.id], "1010"), ship("b", "French", cards[ardent.id], "1006"))
    assert state.ship("a").card.structural_integrity == 18


def test_the_fleets_screen_names_each_card_left_out_and_why(fleets):
    from companion.app.views.fleets import left_out_line
    lines = [left_out_line(item) for fleet in fleets.values() for item in fleet.left_out]
    assert len(lines) == 3
    assert ("Not in play: Troop Transport (Hansa, Type 8). A troop transport (Type 8): the Quick-Start rules "
            "give no footprint, pivot or turn order for a Type 8 ship, so it is not in play.") in lines
    assert sum(line.startswith("Not in play: Aerial Fortress (") for line in lines) == 2


def test_companion_validate_names_the_cards_left_out(capsys):
    from companion.commands import main
    assert main(["validate", str(shipped_fleets_dir() / "printed-generic.json")]) == 0
    assert "0 ships; not in play: Troop Transport (Type 8)" in capsys.readouterr().out


def test_the_committed_fleets_are_what_the_converter_makes_of_the_reference(reference):
    """tools/printed_cards.py run on the reference gives the committed files, byte for byte."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("printed_cards", REPO / "tools" / "printed_cards.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    data = json.loads(REFERENCE.read_text(encoding="utf-8"))
    made = {**tool.faction_fleets(data), **tool.quick_start_fleets(data)}
    for name, fleet in made.items():
        on_disk = (shipped_fleets_dir() / name).read_text(encoding="utf-8")
        assert on_disk == json.dumps(fleet, indent=1, ensure_ascii=False) + "\n", name
