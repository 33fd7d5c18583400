"""The player's card library: kept in the data folder, never clashing with shipped cards.

Issue 3: "Shipped fleets are never edited in place: an edit makes the
player's copy, and a newer shipped fleet never replaces or wipes a player's
card."
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from companion.app.editor_model import CardEditor
from companion.engine.cards import FormatError, load_card
from companion.files import shipped_fleets_dir
from companion.store import MemoryStore, TinyDBStore
from companion.store.library import (
    CardLibrary, LibraryError, based_on, catalogue_loader, catalogue_of, export_document, export_file_name,
    is_player_id, library_for, load_shipped, new_player_id, player_copy,
)


@pytest.fixture
def shipped():
    return catalogue_of(CardLibrary(None)).cards()


@pytest.fixture
def fleets_folder(tmp_path) -> Path:
    """A copy of the shipped Quick-Start fleets that a test may change (a 'newer' release).
    The printed-card fleets are left out: these tests are about how any fleet is read."""
    folder = tmp_path / "fleets"
    folder.mkdir()
    for name in ("quick-start-british.json", "quick-start-french.json", "war-fleet-20v20.json"):
        shutil.copy(shipped_fleets_dir() / name, folder / name)
    return folder


def rewrite_fleet(folder: Path, name: str, change) -> None:
    path = folder / name
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


# --- ids ---------------------------------------------------------------------------------


def test_no_shipped_card_uses_a_player_id(shipped):
    assert shipped and not [cid for cid in shipped if is_player_id(cid)]


def test_new_ids_come_from_the_name_and_never_repeat():
    assert new_player_id("HML Raven", []) == "my-hml-raven"
    assert new_player_id("HML Raven", ["my-hml-raven"]) == "my-hml-raven-2"
    assert new_player_id("my-hml-raven", ["my-hml-raven", "my-hml-raven-2"]) == "my-hml-raven-3"
    assert new_player_id("Ça va!", []) == "my-a-va"
    assert new_player_id("???", []) == "my-card"


def test_a_players_copy_has_its_own_id_and_says_what_it_is_based_on(shipped):
    raven = shipped["hml-raven"]
    copy = player_copy(raven, taken=["my-hml-raven"])
    assert copy.id == "my-hml-raven-2"
    assert based_on(copy) == "hml-raven"
    assert copy.verified is True, "the shipped Raven is checked against the printed card"
    estimated = raven.model_copy(update={"sources": raven.sources.model_copy(update={"verified": False})})
    assert player_copy(estimated, taken=[]).verified is False, \
        "a copy of an estimated card stays unverified until checked"
    assert copy.locations == raven.locations
    again = player_copy(copy, taken=["my-hml-raven", "my-hml-raven-2"])
    assert based_on(again) == "hml-raven", "a copy of a copy still names the shipped card"


# --- saving ------------------------------------------------------------------------------


def test_shipped_ids_are_refused(shipped):
    library = CardLibrary(None)
    with pytest.raises(LibraryError, match="never edited in place"):
        library.save(shipped["pontbriand"])
    assert library.cards() == {}


def test_saved_cards_survive_a_restart(tmp_path, shipped):
    library = CardLibrary(tmp_path)
    card = library.save(library.copy(shipped["pelletier"], name="Pelletier (ours)"))
    assert (tmp_path / "cards" / "library.json").exists()
    again = CardLibrary(tmp_path)
    assert again.cards() == {card.id: card}
    assert again.entries()[0].based_on == "pelletier"


def test_the_library_file_is_a_versioned_atomic_save_file(tmp_path, shipped):
    library = CardLibrary(tmp_path)
    library.save(library.copy(shipped["hml-raven"]))
    data = json.loads((tmp_path / "cards" / "library.json").read_text())
    assert data["format"] == "leviathans-save/1" and data["kind"] == "cards"
    (doc,) = data["tables"]["cards"].values()
    assert doc["id"] == "my-hml-raven" and doc["card"]["format"] == "leviathans-card/1"
    assert not list((tmp_path / "cards").glob(".*.tmp")), "no temporary file left behind"


def test_saving_the_same_id_replaces_and_delete_removes(shipped):
    library = CardLibrary(None)
    card = library.save(library.copy(shipped["hml-raven"]))
    changed = load_card({**card.dump(), "structural_integrity": 19})
    library.save(changed)
    assert library.get(card.id).structural_integrity == 19 and len(library.entries()) == 1
    assert library.delete(card.id) and library.cards() == {}
    assert not library.delete(card.id)


def test_a_change_by_another_process_is_seen(tmp_path, shipped):
    mine, theirs = CardLibrary(tmp_path), CardLibrary(tmp_path)
    assert mine.cards() == {}
    card = theirs.save(theirs.copy(shipped["hml-raven"]))
    assert card.id in mine.cards()


def test_a_damaged_library_file_is_set_aside_and_named(tmp_path, shipped):
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "library.json").write_text('{"format": "leviathans-save/1", "kind": "cards", "tab')
    library = CardLibrary(tmp_path)
    assert library.cards() == {}
    assert len(library.problems) == 1 and "damaged or cut short" in library.problems[0]
    kept = list(folder.glob("library.json.bad-*"))
    assert len(kept) == 1 and kept[0].read_text().endswith('"tab'), "the damaged file is kept untouched"
    library.save(library.copy(shipped["hml-raven"]))
    assert list(library.cards()) == ["my-hml-raven"]


def test_a_newer_version_library_file_is_not_overwritten(tmp_path):
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "library.json").write_text('{"format": "leviathans-save/2", "kind": "cards", "tables": {}}')
    library = CardLibrary(tmp_path)
    assert library.cards() == {}
    assert "leviathans-save/2" in library.problems[0] and "newer version" in library.problems[0]
    assert list(folder.glob("library.json.bad-*"))


def test_a_stored_card_that_no_longer_validates_is_kept_in_the_file(tmp_path, shipped):
    library = CardLibrary(tmp_path)
    good = library.save(library.copy(shipped["hml-raven"]))
    path = tmp_path / "cards" / "library.json"
    data = json.loads(path.read_text())
    data["tables"]["cards"]["2"] = {"id": "my-future", "saved": 0,
                                    "card": {"format": "leviathans-card/9", "id": "my-future"}}
    path.write_text(json.dumps(data))
    again = CardLibrary(tmp_path)
    assert list(again.cards()) == [good.id]
    assert "my-future" in again.problems[0] and "newer than this app" in again.problems[0]
    again.save(again.copy(shipped["pelletier"]))
    assert "my-future" in json.loads(path.read_text())["tables"]["cards"]["2"]["id"], "never wiped"
    assert again.new_id("future") == "my-future-2", "its id is not given to another card"


# --- the catalogue, and a newer shipped fleet ----------------------------------------------


def test_the_catalogue_is_the_shipped_cards_and_the_players(shipped):
    library = CardLibrary(None)
    card = library.save(library.copy(shipped["hml-raven"], name="Raven, as printed"))
    catalogue = catalogue_of(library)
    cards = catalogue.cards()
    assert set(cards) == set(shipped) | {card.id}
    assert cards["hml-raven"] == shipped["hml-raven"]
    shipped_ids = {c.id for fleet in catalogue.fleets for c in fleet.ships}
    assert "hml-raven" in shipped_ids and card.id not in shipped_ids
    assert [entry.card.id for entry in catalogue.mine] == [card.id]


def test_a_store_and_its_library_share_the_data_folder(tmp_path, shipped):
    store = TinyDBStore(tmp_path)
    library = library_for(store)
    assert library is library_for(store) and library.path == tmp_path.resolve() / "cards" / "library.json"
    card = library.save(library.copy(shipped["pontbriand"]))
    assert card.id in catalogue_loader(store)()
    memory = MemoryStore()
    assert library_for(memory).path is None and card.id not in catalogue_loader(memory)()


def test_editing_a_shipped_card_then_a_newer_shipped_fleet_leaves_the_players_copy_intact(tmp_path, fleets_folder):
    library = CardLibrary(tmp_path)
    raven = catalogue_of(library, fleets_folder).cards()["hml-raven"]

    # the player edits the shipped Raven: the editor makes and saves the player's copy
    editor = CardEditor.edit(raven)
    editor.set_number(("structural_integrity",), "17")
    editor.set(("locations", "bow", "slots", 2, "name"), "3 IN (as printed)")  # the bow gun: slot 3
    editor.set_verified(True)
    mine = editor.save(library)
    assert mine.id == "my-hml-raven" and based_on(mine) == "hml-raven"
    saved = mine.dump()

    # a newer release changes the shipped Raven and drops the Hertfordshire
    def newer(data):
        data["ships"] = [s for s in data["ships"] if s["id"] == "hml-raven"]
        data["ships"][0]["structural_integrity"] = 21
        data["ships"][0]["locations"]["bow"]["slots"][2]["breach"] = 13
    rewrite_fleet(fleets_folder, "quick-start-british.json", newer)
    (fleets_folder / "quick-start-french.json").unlink()

    restarted = CardLibrary(tmp_path)
    cards = catalogue_of(restarted, fleets_folder).cards()
    assert cards["hml-raven"].structural_integrity == 21, "the newer shipped card is loaded"
    assert "hml-hertfordshire" not in cards and "pontbriand" not in cards
    assert cards["my-hml-raven"].dump() == saved, "the player's copy is untouched"
    assert cards["my-hml-raven"].structural_integrity == 17 and cards["my-hml-raven"].verified


def test_a_shipped_card_with_a_player_id_does_not_hide_the_players_card(tmp_path, fleets_folder, shipped):
    library = CardLibrary(tmp_path)
    mine = library.save(library.copy(shipped["hml-raven"]))

    def clash(data):
        data["ships"][0]["id"] = mine.id
    rewrite_fleet(fleets_folder, "quick-start-british.json", clash)
    catalogue = catalogue_of(library, fleets_folder)
    assert catalogue.cards()[mine.id] == mine
    assert any("starts with 'my-'" in p and "the player's card of that id is used" in p for p in catalogue.problems)


def test_a_broken_shipped_file_is_named_and_the_others_still_load(fleets_folder):
    (fleets_folder / "broken.json").write_text("{")
    shipped = load_shipped(fleets_folder)
    assert [f.name for f in shipped.fleets] == ["Quick-Start British", "Quick-Start French"]
    (problem,) = shipped.problems
    assert problem == f"{fleets_folder / 'broken.json'}: not valid JSON: Expecting property name enclosed in " \
                      "double quotes at line 1 column 2"


def test_shipped_fleets_are_read_again_only_when_a_file_changes(fleets_folder):
    first = load_shipped(fleets_folder)
    assert load_shipped(fleets_folder) is first
    rewrite_fleet(fleets_folder, "quick-start-french.json", lambda d: d.update(name="Newer French"))
    assert [f.name for f in load_shipped(fleets_folder).fleets] == ["Quick-Start British", "Newer French"]


# --- import and export ------------------------------------------------------------------------


def test_export_then_import_round_trips(tmp_path, shipped):
    library = CardLibrary(None)
    a = library.save(library.copy(shipped["hml-raven"]))
    b = library.save(library.copy(shipped["pelletier"]))
    document = export_document([a, b])
    assert document["format"] == "leviathans-fleet/1" and export_file_name([a, b]) == "my-cards.json"
    assert export_document([a]) == a.dump() and export_file_name([a]) == "my-hml-raven.json"

    elsewhere = CardLibrary(tmp_path)
    result = elsewhere.import_data(json.loads(json.dumps(document)), "my-cards.json")
    assert [c.id for c in result.added] == [a.id, b.id] and elsewhere.cards() == {a.id: a, b.id: b}
    again = elsewhere.import_data(document)
    assert again.added == () and len(again.unchanged) == 2
    assert "Already in your cards, unchanged" in again.message


def test_importing_a_shipped_card_makes_a_players_copy(shipped):
    library = CardLibrary(None)
    result = library.import_data(shipped["pontbriand"].dump())
    (card,) = result.added
    assert card.id == "my-pontbriand" and based_on(card) == "pontbriand"
    assert result.message == "Imported 1 card: Pontbriand (my-pontbriand)."


def test_an_imported_card_whose_id_is_taken_gets_a_new_one(shipped):
    library = CardLibrary(None)
    mine = library.save(library.copy(shipped["hml-raven"]))
    other = load_card({**mine.dump(), "structural_integrity": 30})
    (card,) = library.import_data(other.dump()).added
    assert card.id == "my-hml-raven-2" and library.get(mine.id) == mine


def test_a_bad_import_is_one_plain_line_and_adds_nothing(shipped):
    library = CardLibrary(None)
    fleet = {"format": "leviathans-fleet/1", "name": "Mine", "ships": [
        shipped["hml-raven"].dump(),
        {**shipped["pelletier"].dump(), "locations": {**shipped["pelletier"].dump()["locations"],
                                                      "port": {"go": "DBlack", "stop": "2DRed", "slots": []}}},
    ]}
    with pytest.raises(FormatError) as caught:
        library.import_data(fleet, "mine.json")
    assert str(caught.value) == "mine.json: ships.1.locations.port.slots: 0 slots, a location needs exactly 6"
    assert library.cards() == {}
    with pytest.raises(FormatError, match="is a scenario"):
        library.import_data({"format": "leviathans-scenario/1", "ships": []})
    with pytest.raises(FormatError, match="newer than this app"):
        library.import_data({"format": "leviathans-card/7"})


def test_scenario_files_beside_the_fleets_are_passed_over(fleets_folder, shipped):
    (fleets_folder / "battle.json").write_text(json.dumps({"format": "leviathans-scenario/1", "ships": []}))
    (fleets_folder / "wf.json").write_text(json.dumps({"format": "leviathans-warfleet-scenario/1"}))
    (fleets_folder / "one.json").write_text(json.dumps({**shipped["hml-raven"].dump(), "id": "hms-one"}))
    loaded = load_shipped(fleets_folder)
    assert loaded.problems == ()
    assert [f.name for f in loaded.fleets] == ["HML Raven", "Quick-Start British", "Quick-Start French"]


# --- issue 11: two processes on one data folder --------------------------------------------------


def test_two_libraries_on_one_folder_saving_in_turn_keep_every_card(tmp_path, shipped):
    """Issue 11: 'Document with ID 20 already exists' - each process kept its own next id."""
    mine, theirs = CardLibrary(tmp_path), CardLibrary(tmp_path)
    saved = []
    for n in range(6):
        library = (mine, theirs)[n % 2]
        saved.append(library.save(library.copy(shipped["hml-raven"], name=f"Raven {n}")).id)
    assert sorted(CardLibrary(tmp_path).cards()) == sorted(saved)


SAVER = """
import sys
from companion.engine.cards import load_card
from companion.store.library import CardLibrary, catalogue_of
raven = catalogue_of(CardLibrary(None)).cards()["hml-raven"]
library = CardLibrary(sys.argv[1])
for n in range(int(sys.argv[3])):
    data = {**raven.dump(), "id": f"my-{sys.argv[2]}-{n}", "name": f"{sys.argv[2]} {n}"}
    library.save(load_card(data))
    print(data["id"], flush=True)
"""


def test_two_processes_saving_cards_at_once_lose_none(tmp_path):
    """Issue 11: 30 of 74 acknowledged card saves were lost with two processes on one folder."""
    import subprocess
    import sys

    runs = [subprocess.Popen([sys.executable, "-c", SAVER, str(tmp_path), who, "30"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for who in ("a", "b")]
    acknowledged = []
    for run in runs:
        out, err = run.communicate(timeout=300)
        assert run.returncode == 0, err
        acknowledged += out.split()
    assert len(acknowledged) == 60
    assert sorted(CardLibrary(tmp_path).cards()) == sorted(acknowledged)


def test_a_full_disk_is_a_plain_refusal_and_the_saved_cards_stay(tmp_path, shipped, monkeypatch):
    from companion.store import atomic
    from companion.store.atomic import StoreError
    from test_store_disk_full import FullDisk

    library = CardLibrary(tmp_path)
    kept = library.save(library.copy(shipped["hml-raven"]))
    for fail_at in (1, 2, 3, 4):
        monkeypatch.setattr(atomic, "os", FullDisk(fail_at))
        with pytest.raises(StoreError, match="No space left") as refused:
            library.save(library.copy(shipped["pelletier"]))
        monkeypatch.undo()
        assert "\n" not in str(refused.value)
        assert CardLibrary(tmp_path).cards() == {kept.id: kept} == library.cards()
