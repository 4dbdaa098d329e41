"""What read_hand returns: the tiles found and the hand's total, plus an annotated photo."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

#: Tiles whose confidence is below this are marked for the player to check (the readers
#: call them doubtful). On the development sets (860 harsh and real photos), tiles read at
#: 0.7 to 0.8 were as often wrong as right (9 and 8), and at 0.8 to 0.9 seldom wrong (2 of
#: 17): at 0.7, 16 wrong tiles were left unmarked; at 0.8, 7, for 8 more right tiles marked
#: (248 of 7,630), and two tiles invented fewer.
LOW_CONFIDENCE = 0.8
#: Tiles on a table lie against each other when their outlines, as read, are this share of a tile's
#: width apart or closer (Hand.touching).
TOUCH = 0.6


@dataclass(frozen=True)
class Tile:
    """One tile: pip counts of its two halves (`a` >= `b`), its outline as four (x, y)
    points in the original photo's pixel coordinates (EXIF orientation applied), the two
    at the `a` half's end first (on a table, which end of a toe meets the double tells it
    from a tile passing by), and a confidence between 0 and 1."""

    a: int
    b: int
    polygon: tuple[tuple[float, float], ...]
    confidence: float

    @property
    def halves(self) -> tuple[int, int]:
        return (self.a, self.b)

    @property
    def pips(self) -> int:
        return self.a + self.b

    @property
    def low_confidence(self) -> bool:
        return self.confidence < LOW_CONFIDENCE

    def as_list(self) -> list[int]:
        return [self.a, self.b]

    def __str__(self) -> str:
        return f"[{self.a}|{self.b}]"


@dataclass
class Hand:
    """The reading of one photo. `tiles` are ordered top to bottom, left to right."""

    tiles: list[Tile]
    width: int
    height: int
    seconds: float = 0.0
    _render: Callable[["Hand", int], bytes] | None = field(default=None, repr=False, compare=False)

    @property
    def pips(self) -> int:
        """Raw total of the pips on every tile ([0|0] counts 0)."""
        return sum(t.pips for t in self.tiles)

    @property
    def low_confidence(self) -> list[Tile]:
        return [t for t in self.tiles if t.low_confidence]

    def as_pairs(self) -> list[list[int]]:
        return [t.as_list() for t in self.tiles]

    def annotated(self, max_side: int = 1600, highlight=None, total: bool = True) -> bytes:
        """A JPEG of the photo with every tile outlined and labelled; tiles with a low
        confidence are drawn in red with a '?'. Given `highlight`, the tiles whose indices
        are in it stand out in yellow, the others in grey and, unless doubtful, unlabelled
        (all of them where it is empty). `total` False leaves out the tiles and pips read,
        written in its corner (for a page that shows a total of its own)."""
        if self._render is None:
            raise RuntimeError("this reading has no photo attached")
        if not total:
            return self._render(self, max_side, highlight, total)
        if highlight is not None:
            return self._render(self, max_side, highlight)
        return self._render(self, max_side)

    def touching(self, index: int, reach: float = TOUCH) -> list[int]:
        """The indices of the tiles lying against tile `index` on a table (end to end, or
        against a double's side): an outline within `reach` of the tile's width of its
        outline. A double's toes (or the starting double's arms) are the tiles of its
        number touching it, less the one it was laid against."""
        ref = self.tiles[index].polygon
        width = min(_dist(ref[0], ref[1]), _dist(ref[1], ref[2]))
        return [k for k, other in enumerate(self.tiles)
                if k != index and _gap(ref, other.polygon) <= reach * width]


def _dist(p, q) -> float:
    return ((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) ** 0.5


def _to_segment(p, a, b) -> float:
    ax, ay = b[0] - a[0], b[1] - a[1]
    length = ax * ax + ay * ay
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * ax + (p[1] - a[1]) * ay) / length))
    return _dist(p, (a[0] + t * ax, a[1] + t * ay))


def _gap(p, q) -> float:
    """The distance between two outlines (0 where a corner of one lies inside the other)."""
    if any(_inside(point, q) for point in p) or any(_inside(point, p) for point in q):
        return 0.0
    return min(min(_to_segment(point, b[i], b[(i + 1) % len(b)]) for i in range(len(b)))
               for a, b in ((p, q), (q, p)) for point in a)


def _inside(point, poly) -> bool:
    signs = set()
    for i in range(len(poly)):
        a, b = poly[i], poly[(i + 1) % len(poly)]
        cross = (b[0] - a[0]) * (point[1] - a[1]) - (b[1] - a[1]) * (point[0] - a[0])
        if cross:
            signs.add(cross > 0)
    return len(signs) < 2
