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


@dataclass(frozen=True)
class Tile:
    """One tile: pip counts of its two halves (`a` >= `b`), its outline as four (x, y)
    points in the original photo's pixel coordinates (EXIF orientation applied), and a
    confidence between 0 and 1."""

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

    def annotated(self, max_side: int = 1600) -> bytes:
        """A JPEG of the photo with every tile outlined and labelled; tiles with a low
        confidence are drawn in red with a '?'."""
        if self._render is None:
            raise RuntimeError("this reading has no photo attached")
        return self._render(self, max_side)
