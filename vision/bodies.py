"""Tile boxes found by the tiles' bodies rather than their dividers.

The divider search (dividers.py) finds a tile by the line across its middle, and misses
it when that line cannot be seen: a fine engraved divider blurred away, glare over it, a
set whose divider is the face's own colour. Such a tile still shows as a rectangle twice
as long as wide, brighter (ivory, white) or darker (black) than the table all round. Cut
the lightness at a series of levels: at some level a tile that stands apart is a blob of
its own, and the blobs that fill their smallest enclosing rectangle and are about 2:1
become boxes. Tiles touching side by side make one blob, a block, whose sides are
whole tiles' sides: the classical looks split it (split_block) at the width of the tiles
they have read, or at half the block's depth. Tiles touching end to end are left to the dividers
and to the tile network, which is shown every way a block may be split (every_split).
"""

from __future__ import annotations

import cv2
import numpy as np

from .dividers import Bar
from .geometry import TileBox, overlap

#: Lightness levels (8-bit L) the photo is cut at, both ways (brighter and darker blobs).
LEVELS = range(40, 240, 12)
#: Blob sides (working pixels): the narrowest tile looked for, and the length / width range.
MIN_WIDTH = 10
MIN_RATIO, MAX_RATIO = 1.6, 2.5
#: A tile's blob covers at least this share of its enclosing rectangle (its pips are holes
#: inside the blob and do not count against it; rounded corners and blur do).
MIN_SOLIDITY = 0.85
#: Blocks (tiles touching side by side, or end to end) are looked for up to this many
#: widths long (a chain of five is ten; 8 missed such a chain, its blob widened by blur).
MAX_BLOCK = 10.0
#: A block is split when its sides are within this share of a tile's width of whole
#: tiles' sides.
BLOCK_SLACK = 0.3
#: ...or when the tiles it splits into are within this share of that width of it: the
#: width comes from the tiles read, and is often a few per cent short of the blob's (its
#: blur and bevel), which five tiles side by side add up to more than the slack above
#: (a row of five 32 px tiles read as none of them).
SPLIT_SLACK = 0.1
#: At most this many tiles are looked for in a block when their width is not known.
MAX_GUESSED = 6
#: More solid blobs than this that are not 2:1, over all the cuts, are the pattern of a
#: cloth (gingham makes thousands), not tiles side by side: the real photos make at most
#: 80, and sorting out thousands took half a second.
MAX_BLOCK_CUTS = 400
#: Blobs of two cuts overlapping by this much (of the smaller) are one blob...
SAME_BLOB = 0.5
#: ...and its cuts filling their rectangle within this of the best are as good.
ALIKE = 0.04
#: The divider supposed across a body box spans this share of its width (the reading
#: looks for the real one; the box only needs a bar to be built around).
BAR_SHARE = 0.6
#: Edge evidence given to a body box: a clear blob outline, but no divider found with it.
BODY_EDGE = 3.0


def find_bodies(work: np.ndarray) -> tuple[list[TileBox], list[TileBox]]:
    """Boxes of the tile-like blobs of `work` (BGR at the working size), one per blob,
    and of the blocks: blobs as solid but not 2:1, tiles touching side by side perhaps
    (see split_block). Where cuts at several levels give overlapping blobs, the one of
    median size of those that fill their rectangle about as well as the best."""
    L = cv2.GaussianBlur(cv2.cvtColor(work, cv2.COLOR_BGR2LAB)[:, :, 0], (0, 0), 1.0)
    h, w = L.shape
    largest = 0.25 * h * w
    tiles: list[tuple[float, TileBox]] = []
    blocks: list[tuple[float, TileBox]] = []
    for level in LEVELS:
        for kind in (cv2.THRESH_BINARY, cv2.THRESH_BINARY_INV):
            mask = cv2.threshold(L, level, 1, kind)[1]
            contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            for contour in contours:
                if len(contour) < 4:
                    continue
                _, _, bw, bh = cv2.boundingRect(contour)
                if max(bw, bh) < MIN_RATIO * MIN_WIDTH:
                    continue
                body = _body(contour, largest)
                if body is not None:
                    tile_like = MIN_RATIO <= body[1].length / body[1].width <= MAX_RATIO
                    (tiles if tile_like else blocks).append(body)
    return _one_per_blob(tiles), _one_per_blob(blocks) if len(blocks) <= MAX_BLOCK_CUTS else []


def _one_per_blob(found: list[tuple[float, TileBox]]) -> list[TileBox]:
    found.sort(key=lambda sb: -sb[0])
    everyone = _Grid([b for _, b in found])
    kept = _Grid([])
    for solidity, box in found:
        if all(overlap(box, k) < SAME_BLOB for k in kept.near(box)):
            kept.add(_middle_cut(box, solidity, found, everyone))
    return kept.boxes


def _middle_cut(best: TileBox, solidity: float, found: list[tuple[float, TileBox]], grid: "_Grid") -> TileBox:
    """Of the cuts of one blob that fill their rectangle about as well as the best, the
    one of median size: the cuts nearest the table's lightness take in the blur of the
    tile's outline, the farthest ones lose its bevel, the middle ones follow its edge.
    `grid` holds the boxes of `found`, in its order."""
    alike = sorted((found[i][1] for i in grid.near_indices(best)
                    if found[i][0] >= solidity - ALIKE and overlap(best, found[i][1]) >= SAME_BLOB),
                   key=lambda b: b.width * b.length)
    return alike[len(alike) // 2]


class _Grid:
    """Boxes filed by the cells of a coarse grid that their bounding squares cover, so
    that those which may overlap a box are found without measuring it against every
    other: a gingham cloth cut at every level makes thousands of solid blobs (4400 at
    1024 px on one photo), and comparing them all pairwise took seconds."""

    CELL = 32.0

    def __init__(self, boxes: list[TileBox]):
        self.boxes: list[TileBox] = []
        self.cells: dict[tuple[int, int], list[int]] = {}
        for box in boxes:
            self.add(box)

    def _cells(self, box: TileBox):
        r = box.radius()
        x0, x1 = int((box.cx - r) // self.CELL), int((box.cx + r) // self.CELL)
        y0, y1 = int((box.cy - r) // self.CELL), int((box.cy + r) // self.CELL)
        return ((i, j) for i in range(x0, x1 + 1) for j in range(y0, y1 + 1))

    def add(self, box: TileBox) -> None:
        for cell in self._cells(box):
            self.cells.setdefault(cell, []).append(len(self.boxes))
        self.boxes.append(box)

    def near_indices(self, box: TileBox) -> list[int]:
        """The indices, in filing order, of the boxes whose bounding squares may meet
        that of `box` (every box that overlaps it is among them)."""
        return sorted({i for cell in self._cells(box) for i in self.cells.get(cell, ())})

    def near(self, box: TileBox) -> list[TileBox]:
        return [self.boxes[i] for i in self.near_indices(box)]


def _body(contour: np.ndarray, largest: float) -> tuple[float, TileBox] | None:
    """(solidity, box) of a solid blob outline, or None: its box's u runs along the
    rectangle's short side (across the tile, along its divider, for a tile's blob)."""
    area = cv2.contourArea(contour)
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
    width, length = min(rw, rh), max(rw, rh)
    if width < MIN_WIDTH or length > MAX_BLOCK * width or area > largest:
        return None
    solidity = area / (rw * rh)
    if solidity < MIN_SOLIDITY:
        return None
    a = np.deg2rad(angle)
    ux, uy = (float(np.cos(a)), float(np.sin(a))) if rw <= rh else (float(-np.sin(a)), float(np.cos(a)))
    return solidity, _box(cx, cy, ux, uy, width, length)


def _box(cx: float, cy: float, ux: float, uy: float, width: float, length: float) -> TileBox:
    bar = Bar(cx, cy, ux, uy, BAR_SHARE * width, max(1.5, 0.05 * width), 0, 1.0)
    return TileBox(cx, cy, ux, uy, width, length, bar, edge=BODY_EDGE, ends=1.0, body=True)


def split_block(block: TileBox, width: float | None = None) -> list[TileBox]:
    """The tiles of `width` that make up `block` when it is two or more of them touching
    side by side (their lengths one side of it, their widths together the other), else
    none. With no width known, it is half the block's depth, and three to MAX_GUESSED
    tiles are looked for: a square blob is as often the half of a tile whose divider
    cuts it off from the other half, and two tiles end to end are as much eight narrow
    ones side by side."""
    fewest, most = (2, None) if width else (3, MAX_GUESSED)
    for across, span, depth in _sides(block):
        tiles = _side_by_side(block, across, span, depth, width or depth / 2, fewest, most)
        if tiles:
            return tiles
    return []


#: Tiles end to end in a chain are looked for up to this many in a block.
MAX_CHAIN = 5


def every_split(block: TileBox) -> list[TileBox]:
    """Every way `block` may be whole tiles, for the tile network to judge (it reads
    each box and keeps what it sees as a tile): two to MAX_GUESSED tiles side by side,
    and two to MAX_CHAIN tiles end to end, along either of its sides. A chain of tiles
    end to end is one long blob, and two tiles side by side a square one; read by
    the pips alone, either would as often be something else. A chain is split into as
    many tiles as its depth says, and one more: blur and shadow widen a blob of black
    tiles, and a chain of five 31 px tiles, its blob 45 px deep, looked like four."""
    out: list[TileBox] = []
    for across, span, depth in _sides(block):
        out += _side_by_side(block, across, span, depth, depth / 2, 2, MAX_GUESSED)
        k = int(round(span / (2 * depth)))
        for n in (k, k + 1):
            if 2 <= n <= MAX_CHAIN and depth >= MIN_WIDTH and abs(span / (2 * depth * n) - 1) <= BLOCK_SLACK:
                step = span / n
                out += [_box(block.cx + t * across[0], block.cy + t * across[1], -across[1], across[0], depth, step)
                        for t in (-span / 2 + (i + 0.5) * step for i in range(n))]
    return out


def _sides(block: TileBox):
    """(direction, length along it, length across it) for each of the block's two sides."""
    u, n = (block.ux, block.uy), (block.nx, block.ny)
    return ((u, block.width, block.length), (n, block.length, block.width))


def _side_by_side(block: TileBox, across: tuple[float, float], span: float, depth: float, w: float,
                  fewest: int, most: int | None) -> list[TileBox]:
    """The tiles `w` wide and `depth` long, side by side along `across` over `span`, that
    make up `block`, when they make it up within BLOCK_SLACK (or SPLIT_SLACK); else none."""
    k = int(round(span / w))
    if w < MIN_WIDTH or k < fewest or (most is not None and k > most):
        return []
    if abs(span / (k * w) - 1) > max(BLOCK_SLACK / k, SPLIT_SLACK) or abs(depth / (2 * w) - 1) > BLOCK_SLACK:
        return []  # the sides are not whole tiles' sides
    step = span / k
    return [_box(block.cx + t * across[0], block.cy + t * across[1], across[0], across[1], step, depth)
            for t in (-span / 2 + (i + 0.5) * step for i in range(k))]
