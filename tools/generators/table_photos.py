"""Rendered photos of a Chicken Foot table, with their exact truth.

    from tools.generators.table_photos import make_table
    table = make_table(np.random.default_rng(1), n_tiles=30, elevation=60)
    table.tiles        # every face-up tile, (a, b) with a >= b
    table.polygons     # their outlines in the photo's pixels, in the same order
    table.doubles      # {(n, n): number of toes (arms, for the starting double) laid}
    table.start        # the starting double
    table.encode()     # JPEG bytes

A layout as a game leaves it: the starting double in the centre, arms of tiles touching
end to end running out from it at every angle (bending where the table's edge or another
line is in the way), every later double lying across its line with a foot of up to three
toes fanned out from its far side, and lines going on from the toes. The numbers match
where tiles touch, from one double-nine set (no tile twice). A few tiles lie face down
beside it (the boneyard: `backs`), which are not tiles on the table. The table is drawn
from above and then seen from a seat: `elevation` is the camera's angle over the table,
90 from straight above, 30 from a low seat. Tiles are drawn by
tools.generators.synthetic_photos (its styles and tables).

A preview folder of N photos with a MANIFEST.tsv, from the repository root:

    .venv/bin/python -m tools.generators.table_photos OUT_DIR [N] [SEED]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from tools.generators import synthetic_photos as sp

TABLES = ("wood", "felt", "cloth", "dark", "paper", "planks")
STYLES = ("ivory", "white_colour", "black", "ivory_spinner", "pink")
TOP = 9  # a double-nine set, as the pagat preset plays


@dataclass
class TablePhoto:
    bgr: np.ndarray
    tiles: list[tuple[int, int]]
    polygons: list[np.ndarray]
    start: tuple[int, int]
    doubles: dict = field(default_factory=dict)
    backs: list[np.ndarray] = field(default_factory=list)
    halves: list[tuple[int, int]] = field(default_factory=list)  # (a, b): the polygon's first end, a
    style: str = ""
    background: str = ""
    elevation: float = 90.0

    def encode(self, fmt: str = "jpeg", quality: int = 90) -> bytes:
        return sp.SyntheticPhoto(self.bgr, self.tiles).encode(fmt, quality)


@dataclass
class _Laid:
    centre: np.ndarray
    axis: float          # radians, the tile's long axis, from its `a` end to its `b` end
    a: int
    b: int
    W: float

    def corners(self, shrink: float = 1.0) -> np.ndarray:
        u = np.array([math.cos(self.axis), math.sin(self.axis)])
        v = np.array([-u[1], u[0]])
        hw, hl = self.W / 2 * shrink, self.W * shrink
        c = self.centre
        # the `a` end's two corners first, as synthetic_photos gives its polygons
        return np.array([c - hl * u - hw * v, c - hl * u + hw * v, c + hl * u + hw * v, c + hl * u - hw * v])


def _overlap(p: np.ndarray, q: np.ndarray) -> bool:
    """Whether two convex quadrilaterals overlap (separating axes)."""
    for poly in (p, q):
        for i in range(4):
            edge = poly[(i + 1) % 4] - poly[i]
            normal = np.array([-edge[1], edge[0]])
            a, b = p @ normal, q @ normal
            if a.max() <= b.min() or b.max() <= a.min():
                return False
    return True


class _Layout:
    def __init__(self, rng: np.random.Generator, size: tuple[int, int], W: float, target: int):
        self.rng, self.size, self.W, self.target = rng, size, W, target
        self.pool = {(a, b) for a in range(TOP + 1) for b in range(a + 1)}
        self.laid: list[_Laid] = []
        self.doubles: dict = {}

    def fits(self, tile: _Laid) -> bool:
        w, h = self.size
        body = tile.corners(0.93)  # touching tiles may share an edge, not overlap
        margin = 0.6 * self.W
        if body[:, 0].min() < margin or body[:, 1].min() < margin or body[:, 0].max() > w - margin \
                or body[:, 1].max() > h - margin:
            return False
        return not any(_overlap(body, other.corners(0.93)) for other in self.laid
                       if np.linalg.norm(other.centre - tile.centre) < 3 * self.W)

    def take(self, number: int):
        """A tile of the pool carrying `number`, a double rarely first."""
        choices = sorted(t for t in self.pool if number in t)
        if not choices:
            return None
        doubles = [t for t in choices if t[0] == t[1]]
        if doubles and self.rng.random() < 0.22:
            return doubles[0]
        plain = [t for t in choices if t[0] != t[1]] or choices
        return plain[int(self.rng.integers(len(plain)))]

    def full(self) -> bool:
        return len(self.laid) >= self.target

    def lay(self, tile: _Laid, pair) -> None:
        self.laid.append(tile)
        self.pool.discard(pair)

    def grow(self, ends: list) -> None:
        """Lay tiles at the open ends, one end after the other, until the table holds its
        tiles or nothing more fits: each end is (point, heading, number, depth)."""
        while ends and not self.full():
            end, angle, number, depth = ends.pop(int(self.rng.integers(len(ends))))
            pair = self.take(number)
            if pair is None:
                continue
            placed = None
            turns = (0.0, *self.rng.permutation([math.pi / 2, -math.pi / 2]), *self.rng.permutation([0.5, -0.5]))
            for turn in turns:
                heading = angle + turn
                u = np.array([math.cos(heading), math.sin(heading)])
                if pair[0] == pair[1]:
                    # a double lies across its line, its middle on the line
                    tile = _Laid(end + self.W / 2 * u, heading + math.pi / 2, number, number, self.W)
                else:
                    other = pair[0] if pair[1] == number else pair[1]
                    tile = _Laid(end + self.W * u, heading, number, other, self.W)
                if self.fits(tile):
                    placed = tile
                    break
            if placed is None:
                continue
            self.lay(placed, pair)
            if pair[0] == pair[1]:
                ends.extend(self.foot(placed, heading, number, depth))
            else:
                ends.append((end + 2 * self.W * u, heading, placed.b, depth))

    def foot(self, double: _Laid, heading: float, number: int, depth: int) -> list:
        """Up to three toes fanned out from a double's far side; their open ends."""
        u = np.array([math.cos(heading), math.sin(heading)])
        v = np.array([-u[1], u[0]])
        far = double.centre + self.W / 2 * u
        toes = 0
        ends = []
        for side in (0, -1, 1):
            if self.full():
                break
            pair = self.take(number)
            while pair is not None and pair[0] == pair[1]:
                self.pool.discard(pair)  # a double is no toe: put it aside (never drawn)
                pair = self.take(number)
            if pair is None:
                break
            other = pair[0] if pair[1] == number else pair[1]
            fans = [(0.0, 0.0)] if side == 0 else [(0.62, 45), (0.75, 55), (0.8, 70), (0.5, 60), (0.9, 85)]
            for offset, degrees in fans:
                h = heading + side * math.radians(degrees)
                w = np.array([math.cos(h), math.sin(h)])
                start = far + side * offset * self.W * v
                tile = _Laid(start + self.W * w, h, number, other, self.W)
                if self.fits(tile):
                    self.lay(tile, pair)
                    toes += 1
                    ends.append((start + 2 * self.W * w, h, other, depth + 1))
                    break
        self.doubles[(number, number)] = toes
        return ends


def layout(rng: np.random.Generator, size: tuple[int, int], W: float, target: int):
    """The tiles of a Chicken Foot table, top down: a _Layout with its laid tiles."""
    lay = _Layout(rng, size, W, target)
    w, h = size
    start = int(rng.integers(TOP + 1))
    centre = np.array([w / 2, h / 2]) + rng.uniform(-0.08, 0.08, 2) * [w, h]
    hub = _Laid(centre, rng.uniform(0, math.pi), start, start, W)
    lay.lay(hub, (start, start))
    arms = int(rng.integers(2, 5))  # the pagat preset's starting double takes four
    first = rng.uniform(0, 2 * math.pi)
    laid_arms = 0
    ends = []
    for k in range(arms):
        angle = first + k * 2 * math.pi / arms + rng.normal(0, 0.1)
        d = np.array([math.cos(angle), math.sin(angle)])
        # the arm starts where the ray from the double's centre leaves it
        u = np.array([math.cos(hub.axis), math.sin(hub.axis)])
        v = np.array([-u[1], u[0]])
        t = min(W / max(abs(d @ u), 1e-6), W / 2 / max(abs(d @ v), 1e-6))
        pair = lay.take(start)
        while pair is not None and pair[0] == pair[1]:
            lay.pool.discard(pair)
            pair = lay.take(start)
        if pair is None:
            break
        other = pair[0] if pair[1] == start else pair[1]
        for push in np.linspace(0, 0.8 * W, 9):  # a slanting arm touches the double at a corner
            tile = _Laid(centre + (t + push + W) * d, angle, start, other, W)
            if lay.fits(tile):
                break
        else:
            continue
        lay.lay(tile, pair)
        laid_arms += 1
        ends.append((centre + (t + push + 2 * W) * d, angle, other, 0))
    lay.doubles[(start, start)] = laid_arms
    lay.grow(ends)
    return lay, (start, start)


def make_table(rng: np.random.Generator, n_tiles: int | None = None, size: tuple[int, int] = (1600, 1200),
               elevation: float | None = None, style: str | None = None, background: str | None = None,
               face_down: int | None = None, degrade: bool = True) -> TablePhoto:
    w, h = size
    target = int(n_tiles if n_tiles is not None else rng.integers(10, 56))
    style = style or str(rng.choice(STYLES))
    background = background or str(rng.choice(TABLES))
    if style == "black" and background == "dark":
        background = "cloth"
    elevation = float(elevation if elevation is not None else rng.choice([90.0, rng.uniform(30, 90)]))
    short = min(w, h)
    # tiles small enough for the layout to hold its tiles, large enough to be read
    W = short / (9.0 + 0.22 * target) * rng.uniform(0.85, 1.05)
    W = max(W, 0.026 * short)
    lay, start = None, None
    for _ in range(6):
        lay, start = layout(rng, size, W, target)
        if len(lay.laid) >= min(target, 10):
            break
        W *= 0.9
    img = sp._background(rng, background, h, w)
    table = img.copy()  # the bare table, which goes on beyond the frame when seen from a seat
    pale = bool(rng.random() < 0.5)
    ratio = rng.uniform(0.6, 0.85)
    light = rng.uniform(0, 2 * math.pi)
    Wi = int(round(W))
    polys, tiles, halves = [], [], []
    for tile in lay.laid:
        timg, alpha = sp._draw_tile(rng, tile.a, tile.b, Wi, style, pale, ratio)
        sp.paste_tile(img, timg, alpha, tile.centre, tile.axis, light, timg.shape[1], shadow=0.4)
        polys.append(tile.corners())
        tiles.append((max(tile.a, tile.b), min(tile.a, tile.b)))
        halves.append((tile.a, tile.b))
    backs = []
    for k in range(int(face_down if face_down is not None else rng.integers(0, 6))):
        for _ in range(40):
            c = np.array([rng.uniform(0.05, 0.95) * w, rng.uniform(0.05, 0.95) * h])
            back = _Laid(c, rng.uniform(0, math.pi), 0, 0, W)
            if lay.fits(back):
                lay.laid.append(back)
                timg, alpha = sp._draw_back(rng, Wi, style)
                sp.paste_tile(img, timg, alpha, c, back.axis, light, timg.shape[1], shadow=0.4)
                backs.append(back.corners())
                break
    bgr = np.clip(img, 0, 255).astype(np.uint8)
    if elevation < 89.5:
        bgr, polys, backs = _seen_from(bgr, np.clip(table, 0, 255).astype(np.uint8), polys, backs, 90.0 - elevation)
    if degrade:  # uneven light, a little blur and noise
        f = bgr.astype(np.float32)
        y, x = np.mgrid[0:h, 0:w].astype(np.float32)
        gx, gy = rng.uniform(-1, 1, 2)
        f *= (1.0 + rng.uniform(0.05, 0.25) * ((x / w - 0.5) * gx + (y / h - 0.5) * gy))[..., None]
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.3, 1.0) * short / 1200)
        f += rng.normal(0, rng.uniform(1, 4), f.shape).astype(np.float32)
        bgr = np.clip(f, 0, 255).astype(np.uint8)
    return TablePhoto(bgr, tiles, polys, start, dict(lay.doubles), backs, halves, style, background, elevation)


def _seen_from(bgr, table, polys, backs, lean: float):
    h, w = bgr.shape[:2]
    for degrees in (lean, lean * 0.8, lean * 0.6, lean * 0.4, 0.0):
        H = sp.leaning_camera((w, h), degrees)
        moved = [cv2.perspectiveTransform(p.reshape(-1, 1, 2).astype(np.float64), H).reshape(-1, 2) for p in polys]
        if all(p[:, 0].min() > 2 and p[:, 1].min() > 2 and p[:, 0].max() < w - 3 and p[:, 1].max() < h - 3
               for p in moved):
            break
    wide = cv2.copyMakeBorder(table, h, h, w, w, cv2.BORDER_REFLECT)
    wide[h:2 * h, w:2 * w] = bgr
    shift = np.array([[1.0, 0, -w], [0, 1, -h], [0, 0, 1]])
    out = cv2.warpPerspective(wide, H @ shift, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT)
    backs = [cv2.perspectiveTransform(p.reshape(-1, 1, 2).astype(np.float64), H).reshape(-1, 2) for p in backs]
    return out, moved, backs


def write_folder(folder: Path, n: int, seed: int = 0, size: tuple[int, int] = (1600, 1200)) -> Path:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    lines = ["file\ttiles\tstart\tnotes"]
    for i in range(n):
        t = make_table(rng, size=size)
        name = f"table_{i:03d}.jpg"
        (folder / name).write_bytes(t.encode("jpeg", 88))
        lines.append(f"{name}\t{' '.join(f'{a}-{b}' for a, b in t.tiles)}\t{t.start[0]}-{t.start[1]}\t"
                     f"{t.style} tiles, {t.background}, seen at {t.elevation:.0f} degrees, {len(t.backs)} face down")
    (folder / "MANIFEST.tsv").write_text("\n".join(lines) + "\n")
    return folder


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] in (["-h"], ["--help"]) or not sys.argv[1:]:
        sys.exit(__doc__)
    print(write_folder(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 8,
                       seed=int(sys.argv[3]) if len(sys.argv) > 3 else 1))
