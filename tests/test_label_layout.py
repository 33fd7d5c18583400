"""Where the shared screen's labels go (companion/app/label_layout.py, issue 35): every ship named
(or marked, with a legend) beside its own token, no label over another label or a token, the same
places for the same input, and a label kept where it stood when another ship moves."""

from __future__ import annotations

from companion.app import label_layout as L
from companion.app.geometry import HexLayout
from companion.app.rulesets.war_fleet import model as M
from companion.files import load_catalogue, shipped_fleets_dir

BOUNDS = (0.0, 0.0, 1400.0, 900.0)


def token(key: str, x: float, y: float, name: str, side: str = "British", r: float = 20.0) -> L.Item:
    return L.Item(key, name, ((x - r, y - r, 2 * r, 2 * r),), (x, y), name, side)


def clean(layout: L.Layout, items: list[L.Item], bounds=BOUNDS) -> None:
    """Every item labelled once, inside the bounds, no label over another or over a token (a mark
    on its own token aside), every leader line from its own token."""
    boxes = layout.by_key()
    assert sorted(boxes) == sorted(i.key for i in items) and not layout.missing
    labels = list(layout.labels)
    for n, a in enumerate(labels):
        assert L.inside(a.box, bounds), a
        for b in labels[n + 1:]:
            assert not L.overlaps(a.box, b.box), (a, b)
        for item in items:
            for rect in item.body:
                if item.key != a.key or not a.on_token:
                    assert not L.overlaps(a.box, rect), (a.key, item.key)


def twenty_against_twenty(moved: str | None = None) -> list[L.Item]:
    """The shipped War Fleet battle's forty tokens as the 1920 x 1080 TV draws them (39.75 px hexes);
    `moved` one hex up the board."""
    from companion.engine.hexes import Hex
    state = M.twenty_against_twenty(load_catalogue(), shipped_fleets_dir(), seed="labels")
    layout, items = HexLayout(state.board, 39.75), []
    taken = {ship.hex for ship in state.active_ships}
    for ship in M.map_ships(state, None):
        if ship.id == moved:  # two hexes towards the enemy, to a hex of its own
            ship = M.MapShip(**{**ship.__dict__, "cell": Hex(ship.cell.q + 2, ship.cell.r - 1)})
            assert ship.cell not in taken
        cx, cy, r = M.token_spot(layout, ship)
        items.append(token(ship.id, cx, cy - 160, ship.label, state.ship(ship.id).side, r * 1.25))
    return items


def test_a_few_ships_apart_are_named_in_words_beside_their_tokens():
    items = [token("a", 200, 200, "Raven"), token("b", 600, 300, "Hertfordshire"), token("c", 900, 600, "Pelletier")]
    layout = L.lay_out(items, (30, 24), 26, BOUNDS)
    assert not layout.marks and layout.size == 30 and not layout.legend
    clean(layout, items)
    assert [p.text for p in layout.labels] == ["Raven", "Hertfordshire", "Pelletier"]
    assert all(p.leader is None for p in layout.labels)  # touching its token: no line needed


def test_a_crowd_takes_places_further_out_with_a_leader_line():
    """Six ships in a tight knot: some names stand away from their tokens, each joined by a line."""
    items = [token(f"s{n}", 500 + 45 * (n % 3), 400 + 45 * (n // 3), f"Pontbriand {n}") for n in range(6)]
    layout = L.lay_out(items, (30, 24), 26, BOUNDS)
    assert not layout.marks
    clean(layout, items)
    assert any(p.leader is not None for p in layout.labels)
    for p in layout.labels:
        if p.leader is not None:
            x1, y1, x2, y2 = p.leader
            own = next(i for i in items if i.key == p.key).body[0]
            assert L.overlaps((x1 - 1, y1 - 1, 2, 2), own)  # starts at its own token's edge
            assert L.overlaps((x2 - 1, y2 - 1, 2, 2), p.box)  # ends at its label


def test_forty_ships_two_hexes_apart_are_each_marked_with_a_legend():
    items = twenty_against_twenty()
    layout = L.lay_out(items, (30, 24), 26, BOUNDS)
    assert layout.marks
    clean(layout, items)
    texts = {p.key: p.text for p in layout.labels}
    assert texts["hml-raven-3"] == "R3" and texts["pontbriand-2"] == "Po2" and texts["pelletier-2"] == "Pe2"
    assert len(set(texts.values())) == 40  # every mark names one ship
    legend = {(line.marks, line.names, line.side) for line in layout.legend}
    assert ("R1\u2013R10", "Raven 1\u201310", "British") in legend
    assert ("SK", "Spion Kop", "British") in legend and ("Pe1\u2013Pe10", "Pelletier 1\u201310", "French") in legend


def test_the_same_input_gives_the_same_places():
    items = twenty_against_twenty()
    assert L.lay_out(items, (30, 24), 26, BOUNDS) == L.lay_out(items, (30, 24), 26, BOUNDS)


def test_another_ship_moving_leaves_the_other_labels_where_they_stood():
    before = L.lay_out(twenty_against_twenty(), (30, 24), 26, BOUNDS)
    after = L.lay_out(twenty_against_twenty(moved="hml-leviathan"), (30, 24), 26, BOUNDS, before)
    clean(after, twenty_against_twenty(moved="hml-leviathan"))
    was, now = before.by_key(), after.by_key()
    assert [k for k in was if k != "hml-leviathan" and was[k].box != now[k].box] == []


def test_a_name_whose_place_is_taken_moves_and_only_it():
    """Three names in words; a ship moves onto where the first one's name stood: that name moves, the
    others stay."""
    items = [token("a", 300, 300, "Raven"), token("b", 800, 300, "Tiger"), token("c", 300, 700, "Leviathan")]
    before = L.lay_out(items, (30, 24), 26, BOUNDS)
    below_a = before.by_key()["a"].box
    moved = [items[0], items[1], token("c", below_a[0] + below_a[2] / 2, below_a[1] + 10, "Leviathan")]
    after = L.lay_out(moved, (30, 24), 26, BOUNDS, before)
    clean(after, moved)
    assert after.by_key()["b"].box == before.by_key()["b"].box
    assert after.by_key()["a"].box != below_a


def test_odds_are_placed_with_the_names_and_never_over_them():
    ships = [token("a", 400, 400, "Hertfordshire"), token("b", 700, 400, "Pelletier")]
    odds = [L.Item(f"odds-{n}", "34% to damage · 3% to destroy", (), (550, 380 + 10 * n), None, "British")
            for n in range(5)]  # five guns of one ship at another: the lines' middles a few px apart
    layout = L.lay_out(ships + odds, (30, 24), 26, BOUNDS)
    clean(layout, ships + odds)
    assert len(layout.labels) == 7


def test_short_marks_are_unique_and_read_from_the_names():
    marks = L.short_marks({"1": "Raven 1", "2": "Raven 10", "3": "Montpellier 2", "4": "Mafeking",
                           "5": "Spion Kop", "6": "Pelletier 2", "7": "Pontbriand 2", "8": "Raven 1"})
    assert marks["1"] == "R1" and marks["2"] == "R10" and marks["5"] == "SK"
    assert marks["3"] == "Mo2" and marks["4"] == "Ma" and marks["6"] == "Pe2" and marks["7"] == "Po2"
    assert len(set(marks.values())) == 8  # two ships of one name still told apart
