"""Where the shared screen's labels go (issue 35): each ship's name beside its own token, never over
another label or token, and staying put while other ships move.  No flet: the TV draws the answer
(views/screen.py), tests read it as data.

A label is tried in a fixed order of places round its token (`candidates`): touching it first
(below, above, right, left, then the corners), then further out, joined to the token by a leader
line.  Each label first tries the place it had last time (`previous`), so a ship whose
neighbourhood did not change keeps its label where it was; those whose old place is taken (or that
are new) take the first free place in the order.  Where some name finds no place at the size asked
(War Fleet's twenty against twenty, two hexes apart), every ship gets a short mark on its token
instead (`short_marks`: "R3" for Raven 3) and the TV shows a legend of the marks beside the map.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Mapping, Sequence

Rect = tuple[float, float, float, float]  # left, top, width, height (px, on the map's drawing)
Segment = tuple[float, float, float, float]  # x1, y1, x2, y2

GAP = 4.0  # px between a token and a label touching it, and between two labels
EM = 0.6  # a bold face's width a letter, in ems (an over-estimate: a label never runs over its box)
RINGS = 6  # how far out (in label heights) a label may stand from its token, with a leader line


@dataclass(frozen=True)
class Item:
    """What to label: a ship (its token's rectangles, `body`) or a shot's odds (no body: `anchor`
    only).  `name` is what a mark is made from (None: the item is always labelled in words)."""

    key: str
    text: str
    body: tuple[Rect, ...]
    anchor: tuple[float, float]
    name: str | None = None
    side: str = ""


@dataclass(frozen=True)
class Placed:
    key: str
    text: str
    box: Rect
    leader: Segment | None  # from the token's edge to the label, where the label stands away
    slot: tuple  # which place of `candidates` (kept for the next layout)
    on_token: bool = False  # a mark drawn on its own token


@dataclass(frozen=True)
class LegendLine:
    """One line of the marks' legend: 'R1-R10  Raven 1-10' (marks, names, side)."""

    marks: str
    names: str
    side: str


@dataclass(frozen=True)
class Layout:
    labels: tuple[Placed, ...]
    size: float  # the type size the labels were placed at
    marks: bool = False  # names did not fit: each ship has a short mark on its token, see `legend`
    legend: tuple[LegendLine, ...] = ()
    missing: tuple[str, ...] = ()  # keys no place was found for (drawn on their anchor all the same)
    slots: Mapping[str, tuple] = field(default_factory=dict)

    def by_key(self) -> dict[str, Placed]:
        return {p.key: p for p in self.labels}


def text_size(text: str, size: float, mark: bool = False) -> tuple[float, float]:
    """The box a label of `text` in bold type of `size` px takes (padding included)."""
    pad = size * 0.5 if mark else 24
    return len(text) * size * EM + pad, size * 1.45


def overlaps(a: Rect, b: Rect, gap: float = 0.0) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw + gap and bx < ax + aw + gap and ay < by + bh + gap and by < ay + ah + gap


def inside(a: Rect, bounds: Rect) -> bool:
    x, y, w, h = a
    bx, by, bw, bh = bounds
    return x >= bx and y >= by and x + w <= bx + bw and y + h <= by + bh


def crosses(seg: Segment, rect: Rect) -> bool:
    """Whether a line segment passes through a rectangle (Liang-Barsky clipping)."""
    x1, y1, x2, y2 = seg
    left, top, w, h = rect
    dx, dy = x2 - x1, y2 - y1
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, x1 - left), (dx, left + w - x1), (-dy, y1 - top), (dy, top + h - y1)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo > hi:
            return False
    return True


def bounding(rects: Iterable[Rect]) -> Rect:
    rects = list(rects)
    left = min(r[0] for r in rects)
    top = min(r[1] for r in rects)
    right = max(r[0] + r[2] for r in rects)
    bottom = max(r[1] + r[3] for r in rects)
    return left, top, right - left, bottom - top


def candidates(item: Item, w: float, h: float, mark: bool) -> Iterator[tuple[tuple, Rect]]:
    """Every place a label of w x h may stand for this item, in the order tried: on the token (a
    mark only), touching it, then ring by ring further out (a leader line joins those)."""
    if item.body:
        bx, by, bw, bh = bounding(item.body)
    else:
        bx, by, bw, bh = item.anchor[0], item.anchor[1], 0.0, 0.0
    cx, cy = bx + bw / 2, by + bh / 2
    if mark or not item.body:
        yield ("on", 0, 0), (cx - w / 2, cy - h / 2, w, h)
    step_y, step_x = h + GAP, min(w, 3 * h) / 2 + GAP
    for ring in range(RINGS + 1):
        down, up = by + bh + GAP + ring * step_y, by - h - GAP - ring * step_y
        right, left = bx + bw + GAP + ring * step_x, bx - w - GAP - ring * step_x
        across = [("", cx - w / 2), ("-right", cx), ("-left", cx - w)] + [
            (f"-right{j}", bx + bw + GAP + j * step_x) for j in range(ring)] + [
            (f"-left{j}", bx - w - GAP - j * step_x) for j in range(ring)]
        along = [("", cy - h / 2), ("-down", cy), ("-up", cy - h)] + [
            (f"-down{j}", cy - h / 2 + (j + 1) * step_y) for j in range(ring)] + [
            (f"-up{j}", cy - h / 2 - (j + 1) * step_y) for j in range(ring)]
        places = [(f"below{name}", x, down) for name, x in across] + [(f"above{name}", x, up) for name, x in across] \
            + [(f"right{name}", right, y) for name, y in along] + [(f"left{name}", left, y) for name, y in along]
        for where, x, y in places:
            yield (where, ring, 0), (x, y, w, h)


def leader(item: Item, box: Rect) -> Segment:
    """A line from the token's edge to the nearest point of its label."""
    if item.body:
        bx, by, bw, bh = bounding(item.body)
    else:
        bx, by, bw, bh = item.anchor[0], item.anchor[1], 0.0, 0.0
    cx, cy = bx + bw / 2, by + bh / 2
    x, y, w, h = box
    ex, ey = min(max(cx, x), x + w), min(max(cy, y), y + h)
    sx, sy = min(max(ex, bx), bx + bw), min(max(ey, by), by + bh)
    return sx, sy, ex, ey


class _Grid:
    """Rectangles filed by the squares of a coarse grid they touch: what stands near a place is
    read from a few squares, not from every token and label on the map."""

    def __init__(self, cell: float = 96.0):
        self.cell = cell
        self.squares: dict[tuple[int, int], list[tuple[Rect, str]]] = {}

    def _touched(self, rect: Rect, pad: float) -> list[tuple[int, int]]:
        x, y, w, h = rect
        c = self.cell
        return [(i, j) for i in range(int((x - pad) // c), int((x + w + pad) // c) + 1)
                for j in range(int((y - pad) // c), int((y + h + pad) // c) + 1)]

    def add(self, rect: Rect, key: str) -> None:
        for square in self._touched(rect, 0.0):
            self.squares.setdefault(square, []).append((rect, key))

    def near(self, rect: Rect, pad: float = 0.0) -> list[tuple[Rect, str]]:
        found: dict[int, tuple[Rect, str]] = {}
        for square in self._touched(rect, pad):
            for entry in self.squares.get(square, ()):
                found[id(entry)] = entry
        return list(found.values())


def _span(seg: Segment) -> Rect:
    x1, y1, x2, y2 = seg
    return min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1)


class _Board:
    """The labels placed so far, the tokens, and whether a new place is free of them."""

    def __init__(self, items: Sequence[Item], bounds: Rect):
        self.bounds = bounds
        self.tokens, self.boxes = _Grid(), _Grid()
        for item in items:
            for rect in item.body:
                self.tokens.add(rect, item.key)
        self.leaders: list[Segment] = []

    def free(self, item: Item, slot: tuple, box: Rect) -> tuple[bool, Segment | None]:
        if not inside(box, self.bounds):
            return False, None
        on = slot[0] == "on"
        if any(overlaps(box, rect) for rect, key in self.tokens.near(box) if key != item.key or not on):
            return False, None
        if any(overlaps(box, other, GAP) for other, _ in self.boxes.near(box, GAP)):
            return False, None
        if any(crosses(seg, box) for seg in self.leaders):
            return False, None
        line = leader(item, box) if slot[1] > 0 else None
        # a ship's leader crosses no label nor token; a shot's odds (on its own line already) may
        # cross a label to reach a free place
        if line is not None and ((item.body and any(crosses(line, other) for other, _ in self.boxes.near(_span(line))))
                                 or any(crosses(line, rect) for rect, key in self.tokens.near(_span(line))
                                        if key != item.key)):
            return False, None
        return True, line

    def take(self, box: Rect, line: Segment | None) -> None:
        self.boxes.add(box, "")
        if line is not None:
            self.leaders.append(line)


def place(items: Sequence[Item], texts: Mapping[str, str], size: float, bounds: Rect,
          previous: Mapping[str, tuple] | None = None, mark: bool = False,
          give_up: bool = False) -> tuple[list[Placed], list[str]]:
    """Each item's label (`texts[key]`, in type of `size`) at a free place: first every label whose
    previous place (`previous[key]`) is still free, in the order given, then the rest, each at the
    first free place of `candidates`.  Returns the placed labels (in the items' order) and the keys
    no place was found for (`give_up`: stopping at the first ship without a place)."""
    previous = previous or {}
    board = _Board(items, bounds)
    chosen: dict[str, Placed] = {}
    def options(item: Item) -> Iterator[tuple[tuple, Rect]]:
        marked = mark and item.name is not None
        return candidates(item, *text_size(texts[item.key], size, marked), marked)

    for item in items:  # first pass: a label keeps its place while that place is free
        slot = previous.get(item.key)
        for candidate, box in options(item):
            if candidate == slot:
                ok, line = board.free(item, candidate, box)
                if ok:
                    board.take(box, line)
                    chosen[item.key] = Placed(item.key, texts[item.key], box, line, candidate, candidate[0] == "on")
                break
    missing = []
    for item in items:
        if item.key in chosen:
            continue
        for candidate, box in options(item):
            ok, line = board.free(item, candidate, box)
            if ok:
                board.take(box, line)
                chosen[item.key] = Placed(item.key, texts[item.key], box, line, candidate, candidate[0] == "on")
                break
        else:
            missing.append(item.key)
            if give_up and item.name is not None:
                break
    return [chosen[item.key] for item in items if item.key in chosen], missing


_NUMBER = re.compile(r"^(.*?)\s*(\d+)$")


def _base_and_number(name: str) -> tuple[str, str]:
    found = _NUMBER.match(name.strip())
    return (found.group(1), found.group(2)) if found else (name.strip(), "")


def _stem(base: str, length: int) -> str:
    words = [w for w in re.split(r"[\s\-]+", base) if w and w[0].isalnum()]
    if not words:
        return "?"
    first = words[0][:length]
    return first[0].upper() + first[1:].lower() + "".join(w[0].upper() for w in words[1:])


def short_marks(names: Mapping[str, str]) -> dict[str, str]:
    """A short mark for each ship from its name, the same whatever the ships' places: a class's
    first letter and the ship's number ("Raven 3" -> "R3", "Spion Kop" -> "SK"), more letters where
    two names would share a mark ("Pontbriand 2" -> "Po2" beside "Pelletier 2" -> "Pe2")."""
    bases = {key: _base_and_number(name) for key, name in names.items()}
    length = {base: 1 for base, _ in bases.values()}
    for _ in range(12):
        stems: dict[str, set[str]] = {}
        for base in length:
            stems.setdefault(_stem(base, length[base]), set()).add(base)
        shared = [base for group in stems.values() if len(group) > 1 for base in group]
        if not shared:
            break
        for base in shared:
            length[base] += 1
    marks: dict[str, str] = {}
    seen: dict[str, int] = {}
    for key, (base, number) in bases.items():
        mark = _stem(base, length[base]) + number
        seen[mark] = seen.get(mark, 0) + 1
        marks[key] = mark if seen[mark] == 1 else f"{mark}'{seen[mark]}"  # two ships of one name
    return marks


def _numbers(numbers: list[int]) -> str:
    numbers = sorted(numbers)
    if len(numbers) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}\u2013{numbers[-1]}"
    return ", ".join(map(str, numbers))


def legend(items: Sequence[Item], marks: Mapping[str, str]) -> tuple[LegendLine, ...]:
    """The marks' legend, a line a class of ship ("R1-R10 | Raven 1-10"), in the items' order."""
    groups: dict[tuple[str, str, str], list[str]] = {}
    for item in items:
        if item.name is None:
            continue
        base, number = _base_and_number(item.name)
        stem = marks[item.key][:len(marks[item.key]) - len(number)] if number else marks[item.key]
        groups.setdefault((stem, base, item.side), []).append(number)
    lines = []
    for (stem, base, side), numbers in groups.items():
        if numbers == [""]:
            lines.append(LegendLine(stem, base, side))
        elif all(numbers):
            values = [int(n) for n in numbers]
            marks_text = (f"{stem}{min(values)}\u2013{stem}{max(values)}" if "\u2013" in _numbers(values)
                          else ", ".join(f"{stem}{n}" for n in sorted(values)))
            lines.append(LegendLine(marks_text, f"{base} {_numbers(values)}", side))
        else:
            lines.extend(LegendLine(marks[i.key], i.name or "", side) for i in items
                         if i.name is not None and i.side == side and _base_and_number(i.name)[0] == base)
    return tuple(lines)


def lay_out(items: Sequence[Item], sizes: Sequence[float], mark_size: float, bounds: Rect,
            previous: Layout | None = None) -> Layout:
    """Every item labelled: in words at the first of `sizes` where every label finds a place (the
    previous layout's size tried first, so a label does not shrink and grow as ships move), else
    every ship by a short mark on (or beside) its token at `mark_size`, the shots' odds still in
    words, with the marks' legend."""
    slots = previous.slots if previous is not None else {}
    texts = {item.key: item.text for item in items}
    order = list(sizes)
    if previous is not None and not previous.marks and previous.size in order:
        order.remove(previous.size)
        order.insert(0, previous.size)
    for size in order:
        if previous is not None and (previous.marks or previous.size != size):
            kept = {}  # the places were for other boxes
        else:
            kept = {k: v for k, v in slots.items()}
        placed, missing = place(items, texts, size, bounds, kept, give_up=True)
        if not any(item.key in missing for item in items if item.name is not None):
            return _complete(items, texts, placed, missing, size, False, ())
    marks = short_marks({item.key: item.name for item in items if item.name is not None})
    texts.update(marks)
    kept = dict(slots) if previous is not None and previous.marks else {}
    placed, missing = place(items, texts, mark_size, bounds, kept, mark=True)
    return _complete(items, texts, placed, missing, mark_size, True, legend(items, marks))


def _complete(items: Sequence[Item], texts: Mapping[str, str], placed: list[Placed], missing: list[str],
              size: float, marks: bool, lines: tuple[LegendLine, ...]) -> Layout:
    """The layout, any label no place was found for drawn on its anchor all the same (every ship
    identifiable, every shot's odds shown), in the items' order."""
    for key in missing:
        item = next(i for i in items if i.key == key)
        w, h = text_size(texts[key], size, marks and item.name is not None)
        placed.append(Placed(key, texts[key], (item.anchor[0] - w / 2, item.anchor[1] - h / 2, w, h), None,
                             ("on", 0, 0), True))
    order = {item.key: n for n, item in enumerate(items)}
    placed.sort(key=lambda p: order[p.key])
    return Layout(tuple(placed), size, marks=marks, legend=lines, missing=tuple(missing),
                  slots={p.key: p.slot for p in placed})
