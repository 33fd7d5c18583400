"""The TV's labels over its map (views/screen.py, issue 28): large names and odds where they hide no
other label, the shots' odds before the names, so a crowded board reads as whole names."""

from __future__ import annotations

from companion.app.views.screen import label_box, unhidden


def test_a_label_is_centred_and_as_wide_as_its_words():
    left, top, width, height = label_box("Raven", 100, 50, 30)
    assert (left + width / 2, top + height / 2) == (100, 50)
    assert width > label_box("Ra", 100, 50, 30)[2] and height == 30 * 1.45


def test_labels_that_would_hide_an_earlier_one_are_left_out():
    boxes = [(0, 0, 100, 40), (50, 20, 100, 40), (100, 0, 50, 40), (0, 40, 100, 40)]
    assert unhidden(boxes) == [0, 2, 3]  # the second overlaps the first; touching edges do not overlap
    assert unhidden([]) == []


def test_twenty_names_two_hexes_apart_keep_only_whole_ones():
    """War Fleet's lines: twenty ships a side, two hexes apart; every kept name overlaps no other."""
    boxes = [label_box(f"Raven {n}", 100 + 60 * (n % 2), 40 * n, 30) for n in range(20)]
    kept = unhidden(boxes)
    assert 0 < len(kept) < 20 and kept[0] == 0
    for i in kept:
        for j in kept:
            if i < j:
                (ax, ay, aw, ah), (bx, by, bw, bh) = boxes[i], boxes[j]
                assert ax + aw <= bx or bx + bw <= ax or ay + ah <= by or by + bh <= ay
