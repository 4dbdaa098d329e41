"""Tile hypotheses built around divider bars: find the tile's long edges, check the shape."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .dividers import Bar
from .pips import colour_distance

#: Divider length / tile width: dividers span this much of the face (sets differ).
RATIO_MIN = 0.42
RATIO_MAX = 0.97


@dataclass
class TileBox:
    """A tile in work-image coordinates: centre, unit vector along the divider (u, across
    the tile) and along the tile (n), width (across) and length (along)."""

    cx: float
    cy: float
    ux: float
    uy: float
    width: float
    length: float
    bar: Bar
    edge: float = 0.0  # edge evidence (weaker of the two long sides)
    score: float = 0.0
    ends: float = 1.0  # fraction of the divider's ends that lie inside the face
    #: A photo taken at an angle shears the tile: its long sides are not square to the
    #: divider. Walking `length` along the tile moves `skew * length` along the divider.
    skew: float = 0.0
    #: Found by its body (bodies.py), not by its divider: its bar is supposed, not seen.
    body: bool = False

    @property
    def nx(self) -> float:
        return -self.uy

    @property
    def ny(self) -> float:
        return self.ux

    @property
    def axis(self) -> np.ndarray:
        """The tile's long axis (its long sides' direction), per unit of length along n."""
        return np.array([self.nx + self.skew * self.ux, self.ny + self.skew * self.uy])

    def corners(self) -> np.ndarray:
        """4x2 corners of the parallelogram: (+u,+n), (-u,+n), (-u,-n), (+u,-n) from the centre."""
        hw, hl = self.width / 2, self.length / 2
        cx, cy = self.cx, self.cy
        ux, uy = hw * self.ux, hw * self.uy  # plain floats: this runs thousands of times a photo
        ax, ay = hl * (self.nx + self.skew * self.ux), hl * (self.ny + self.skew * self.uy)
        return np.array([[cx + ux + ax, cy + uy + ay], [cx - ux + ax, cy - uy + ay],
                         [cx - ux - ax, cy - uy - ay], [cx + ux - ax, cy + uy - ay]])

    def radius(self) -> float:
        """Half the box's width plus length, each stretched by the shear: never less than
        the distance of a corner from the centre."""
        return 0.5 * (self.width + self.length) * (1.0 + abs(self.skew))

    def polygon_area(self) -> float:
        return self.width * self.length


class EdgeField:
    """Colour gradient of the work image, sampled along arbitrary directions."""

    def __init__(self, bgr: np.ndarray) -> None:
        lab = cv2.cvtColor(cv2.GaussianBlur(bgr, (0, 0), 1.0), cv2.COLOR_BGR2LAB).astype(np.float32)
        lab[:, :, 0] *= 1.0 / 2.55 * 1.4  # lightness counts a bit more than chroma
        self.lab = lab
        self.gx = cv2.Sobel(lab, cv2.CV_32F, 1, 0, ksize=3, scale=0.125)  # 3 channels each
        self.gy = cv2.Sobel(lab, cv2.CV_32F, 0, 1, ksize=3, scale=0.125)
        self.h, self.w = bgr.shape[:2]

    def directional(self, xs: np.ndarray, ys: np.ndarray, dx: float, dy: float) -> np.ndarray:
        """|d colour / d(direction)| at the points (bilinear); 0 outside the image."""
        mx = xs.astype(np.float32)
        my = ys.astype(np.float32)
        sx = cv2.remap(self.gx, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        sy = cv2.remap(self.gy, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        return colour_distance(sx * dx + sy * dy)

    def colour(self, x: float, y: float, r: float = 0.0) -> np.ndarray:
        """Lab colour (of the slightly blurred image) at the pixel nearest (x, y)."""
        xi, yi = int(round(x)), int(round(y))
        if not (0 <= xi < self.w and 0 <= yi < self.h):
            return np.full(3, np.nan, np.float32)
        return self.lab[yi, xi]

    def inside(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        return (xs >= 0) & (ys >= 0) & (xs <= self.w - 1) & (ys <= self.h - 1)


def _side_profiles(bar: Bar, field: EdgeField, ss: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Edge strength and the share of samples outside the photo at each distance `ss` out
    from the divider's centre, on its + side (first half of each array) then its - side:
    both sides are sampled in one pass."""
    Ld = bar.length
    ux, uy = bar.ux, bar.uy
    nx, ny = -uy, ux
    # sample just beside the divider: pips never come that close to it, so the only
    # edges crossed walking out along the divider are the tile's own long sides
    t0 = 0.5 * bar.thickness + 1.5
    t1 = max(t0 + 2.0, 0.14 * Ld)
    near = np.linspace(t0, t1, 5, dtype=np.float32)
    wide = np.linspace(-0.55 * Ld, 0.55 * Ld, 15, dtype=np.float32)
    taus = np.concatenate([-near[::-1], near, wide])
    S, T = np.meshgrid(np.concatenate([ss, -ss]), taus, indexing="ij")
    xs = bar.cx + S * ux + T * nx
    ys = bar.cy + S * uy + T * ny
    ins = field.inside(xs, ys)
    g = np.where(ins, field.directional(xs, ys, ux, uy), 0.0)
    beside = 2 * len(near)
    g = np.concatenate([g[:, :beside], g], axis=1)  # the band beside the divider counts double
    ins = np.concatenate([ins[:, :beside], ins], axis=1)
    k = int(0.4 * (g.shape[1] - 1))
    ev = np.partition(g, k, axis=1)[:, k]
    out_frac = 1.0 - ins.mean(axis=1)
    return ev, out_frac


def _first_peak(ev: np.ndarray, out_frac: np.ndarray, floor: float) -> tuple[int, float] | None:
    """Index of the first strong local maximum (or of the image border), and its strength."""
    n = len(ev)
    top = float(ev.max()) if n else 0.0
    for k in range(n):
        if out_frac[k] > 0.5:
            return k, max(float(ev[max(0, k - 1)]), floor)  # the frame cuts the tile here
        if ev[k] < max(floor, 0.45 * top):
            continue
        if (k == 0 or ev[k] >= ev[k - 1]) and (k == n - 1 or ev[k] >= ev[k + 1]):
            return k, float(ev[k])
    return None


def ends_inside_face(bar: Bar, field: EdgeField) -> float:
    """A divider ends inside the face: just past each end the colour is the face's again
    (a seam between two touching tiles ends in the gap at their corners, or at a pip).
    Returns the fraction of the two ends that pass (0, 0.5 or 1), measured once a bar."""
    if math.isnan(bar.ends):
        bar.ends = _ends_inside_face(bar, field)
    return bar.ends


def _ends_inside_face(bar: Bar, field: EdgeField) -> float:
    ux, uy = bar.ux, bar.uy
    nx, ny = -uy, ux
    off = 0.5 * bar.thickness + max(2.0, 0.12 * bar.length)
    r = max(1.0, 0.25 * bar.thickness)
    faces = [field.colour(bar.cx + sg * off * nx + a * ux * bar.length * 0.25,
                          bar.cy + sg * off * ny + a * uy * bar.length * 0.25, r)
             for sg in (1, -1) for a in (-1, 1)]
    faces = [f for f in faces if np.isfinite(f[0])]
    if not faces:
        return 0.0
    ranked = np.sort(np.array(faces), axis=0)
    face = (ranked[(len(faces) - 1) // 2] + ranked[len(faces) // 2]) / 2  # the median, without np.median's overhead
    line = field.colour(bar.cx, bar.cy, r)
    contrast = float(np.linalg.norm(line - face))
    if not np.isfinite(contrast) or contrast < 1e-3:
        return 0.0
    passed = 0
    e = 0.5 * bar.length + max(2.0, 0.6 * bar.thickness, 0.06 * bar.length)
    for sg in (1, -1):
        c = field.colour(bar.cx + sg * e * ux, bar.cy + sg * e * uy, r)
        d = float(np.linalg.norm(c - face))
        if np.isfinite(d) and d < max(8.0, 0.35 * contrast):
            passed += 1
    return passed / 2.0


def _bar_columns(bars: list[Bar], names: tuple[str, ...], dtype=np.float64) -> list[np.ndarray]:
    """One array per attribute named, over the bars: to measure them all at once."""
    return [np.array([getattr(b, name) for b in bars], dtype) for name in names]


def flank_flatness(bars: list[Bar], field: EdgeField) -> np.ndarray:
    """For each bar, how much it stands out from a plain surround: its contrast with the
    colour in the strips along both its sides, over the spread of that colour. Beside a
    divider lies the bare face (pips keep clear of it), so a divider scores high; wood
    grain, knitting or a printed pattern is a line among lines, and scores low."""
    cx, cy, ux, uy, L, t = (column[:, None] for column in
                            _bar_columns(bars, ("cx", "cy", "ux", "uy", "length", "thickness"), np.float32))
    along = np.linspace(-0.4, 0.4, 9, dtype=np.float32)[None, :] * L
    step = np.maximum(2.0, 0.12 * L)
    offs = [sg * (0.5 * t + 1.5 + k * step) for sg in (1.0, -1.0) for k in (0.0, 0.5, 1.0)]
    xs = np.concatenate([cx + along * ux - o * uy for o in offs], axis=1)
    ys = np.concatenate([cy + along * uy + o * ux for o in offs], axis=1)
    flank = cv2.remap(field.lab, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    line = cv2.remap(field.lab, cx + along * ux, cy + along * uy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    face = np.median(flank, axis=1)[:, None, :]
    spread = np.percentile(np.linalg.norm(flank - face, axis=2), 75, axis=1)
    contrast = np.median(np.linalg.norm(line - face, axis=2), axis=1)
    return contrast / (spread + 3.0)


def measure_flatness(bars: list[Bar], field: EdgeField) -> None:
    """Set the `flatness` of the bars that have none yet (see flank_flatness)."""
    todo = [b for b in bars if math.isnan(b.flatness)]
    if todo:
        for b, v in zip(todo, flank_flatness(todo, field)):
            b.flatness = float(v)


#: Above this flatness a bar is as divider-like as any: the longer of two such wins.
FLAT_ENOUGH = 3.0


def fit_tile(bar: Bar, field: EdgeField) -> TileBox | None:
    """Search the two long edges of the tile whose divider is `bar`."""
    Ld = bar.length
    ux, uy = bar.ux, bar.uy
    step = max(0.5, Ld / 80.0)
    s_min = 0.5 * Ld + max(1.5, 0.5 * bar.thickness)
    s_max = 0.5 * Ld / RATIO_MIN
    ss = np.arange(s_min, s_max + step, step, dtype=np.float32)
    sides = []
    ev, out_frac = _side_profiles(bar, field, ss)
    n = len(ss)
    for side in (slice(0, n), slice(n, 2 * n)):
        pk = _first_peak(ev[side], out_frac[side], 1.0)
        sides.append(None if pk is None else (float(ss[pk[0]]), pk[1]))
    if sides[0] is None and sides[1] is None:
        return None
    if sides[0] is None or sides[1] is None or min(sides[0][1], sides[1][1]) < 0.25 * max(sides[0][1], sides[1][1]):
        # one side has no usable edge (lit bevel on white paper...): the divider is centred
        strong = max((sd for sd in sides if sd is not None), key=lambda sd: sd[1])
        sp = sm = strong[0]
        edge = strong[1] * 0.5
    else:
        (sp, ep), (sm, em) = sides
        edge = min(ep, em)
    W = sp + sm
    ratio = Ld / W
    if not (RATIO_MIN <= ratio <= RATIO_MAX):
        return None
    shift = (sp - sm) / 2.0
    if abs(shift) > 0.12 * W:
        return None
    cx = bar.cx + shift * ux
    cy = bar.cy + shift * uy
    skew = side_skew(bar, field, sp, sm, W, edge)
    return TileBox(cx, cy, ux, uy, W, 2.0 * W, bar, edge=edge, ends=ends_inside_face(bar, field), skew=skew)


#: Shears tried for the long sides (u offset per unit along the tile): up to 17 degrees.
SKEWS = np.linspace(-0.3, 0.3, 13, dtype=np.float32)


#: Weakest edge (colour units per pixel, along a whole side) a shear is measured on:
#: faint sides (ivory on white paper) are taken square.
MIN_SKEW_EDGE = 3.0


def side_skew(bar: Bar, field: EdgeField, sp: float, sm: float, width: float, edge: float) -> float:
    """The shear of the tile's long sides. Each side is a straight edge through the point
    found beside the divider; a slant's strength is a low percentile of the edge along
    its line (so the line must be an edge over most of the tile's length, not just where
    it grazes a pip). Both sides must agree, so their strengths are added; the slant is
    kept only when it is clearly stronger than square, about as strong as the edge found
    beside the divider (`edge`) and an edge on each side: a close-up whose sides are out
    of the frame has no slant to measure, and a neighbour's edge passing one side is not
    ours."""
    ux, uy = bar.ux, bar.uy
    nx, ny = -uy, ux
    taus = np.linspace(-0.85 * width, 0.85 * width, 16, dtype=np.float32)
    # grid: side x skew x tau, both sides sampled in one pass
    s = np.float32([sp, -sm])[:, None, None] + SKEWS[None, :, None] * taus[None, None, :]
    t = np.broadcast_to(taus, s.shape)
    xs = bar.cx + s * ux + t * nx
    ys = bar.cy + s * uy + t * ny
    ins = field.inside(xs, ys)
    grid = field.directional(xs.reshape(-1, len(taus)), ys.reshape(-1, len(taus)), ux, uy).reshape(s.shape)
    g = np.where(ins, grid, 0.0)
    k = int(0.3 * (len(taus) - 1))  # the 30th percentile along the line
    # a side the frame cuts has no slant to measure
    per_side = [np.partition(g[i], k, axis=1)[:, k] for i in (0, 1) if ins[i].mean() >= 0.8]
    if not per_side:
        return 0.0
    total = np.sum(per_side, axis=0)
    best = int(np.argmax(total))
    # each side is an edge along that slant (not just a neighbour's edge passing by one)
    clear = (total[best] > 1.15 * total[len(SKEWS) // 2]
             and total[best] >= max(0.5 * edge, MIN_SKEW_EDGE) * len(per_side)
             and all(side[best] >= 0.5 * MIN_SKEW_EDGE for side in per_side))
    return float(SKEWS[best]) if clear else 0.0


def dedupe_bars(bars: list[Bar]) -> list[Bar]:
    """Merge the same bar found on several pyramid levels (keep the finer one; on one
    level, a strongest band before a crossing one, then the one standing out from plain
    flanks, then the longer). Beside a divider, the face strip between it and a row of
    pips is a bright mark too, and a divider with pips touching it is a thick one: such
    bands have the divider on one flank and pips on the other, so their flanks are not
    plain, and they lose to the divider itself."""
    bars = sorted(bars, key=lambda b: (b.level, b.crossing, -min(np.nan_to_num(b.flatness), FLAT_ENOUGH),
                                       -b.length))
    if not bars:
        return []
    cx, cy, ux, uy, length, level = _bar_columns(bars, ("cx", "cy", "ux", "uy", "length", "level"))
    # dup[i, k]: bar i is bar k found again
    d = np.hypot(cx[:, None] - cx[None, :], cy[:, None] - cy[None, :])
    cosang = np.abs(ux[:, None] * ux[None, :] + uy[:, None] * uy[None, :])
    ratio = length[:, None] / length[None, :]
    # on one level, a much longer band through a bar is not the same bar: it may
    # run on across a seam into the next tile's divider
    same = np.where(level[:, None] == level[None, :], (ratio > 0.8) & (ratio < 1.25), (ratio > 0.6) & (ratio < 1.6))
    dup = same & (d < 0.2 * np.maximum(length[:, None], length[None, :])) & (cosang > 0.97)
    kept = np.zeros(len(bars), dtype=bool)
    for i in range(len(bars)):
        kept[i] = not dup[i, :i][kept[:i]].any()
    return [b for b, keep in zip(bars, kept) if keep]


def join_split_bars(bars: list[Bar]) -> list[Bar]:
    """A brass spinner in the middle of the divider splits it in two collinear halves:
    add the joined bar for every such pair (the halves stay, and lose later)."""
    out = list(bars)
    if len(bars) < 2:
        return out
    cx, cy, ux, uy, length, thick = _bar_columns(bars, ("cx", "cy", "ux", "uy", "length", "thickness"))
    # every pair at once, a before b: parallel, of similar length, on one line, with a
    # gap between them no longer than a spinner
    dx = cx[None, :] - cx[:, None]
    dy = cy[None, :] - cy[:, None]
    along = dx * ux[:, None] + dy * uy[:, None]
    perp = np.abs(-dx * uy[:, None] + dy * ux[:, None])
    thickest = np.maximum(thick[:, None], thick[None, :])
    gap = np.abs(along) - (length[:, None] + length[None, :]) / 2
    ratio = length[:, None] / length[None, :]
    pair = (np.triu(np.ones((len(bars), len(bars)), dtype=bool), 1)
            & (np.abs(ux[:, None] * ux[None, :] + uy[:, None] * uy[None, :]) >= 0.985)
            & (ratio >= 0.5) & (ratio <= 2.0)
            & (perp <= 0.5 * thickest + 2.0)
            & (gap >= 0.0) & (gap <= np.minimum(0.6 * np.minimum(length[:, None], length[None, :]), 4.0 * thickest + 2.0)))
    for i, j in zip(*np.nonzero(pair)):
        a, b = bars[i], bars[j]
        sgn = 1.0 if along[i, j] >= 0 else -1.0
        # ends: far end of a and far end of b
        ax0 = a.cx - sgn * a.ux * a.length / 2
        ay0 = a.cy - sgn * a.uy * a.length / 2
        bx1 = b.cx + sgn * a.ux * b.length / 2
        by1 = b.cy + sgn * a.uy * b.length / 2
        joined = float(np.hypot(bx1 - ax0, by1 - ay0))
        out.append(Bar((ax0 + bx1) / 2, (ay0 + by1) / 2, a.ux, a.uy, joined,
                       (a.thickness + b.thickness) / 2, min(a.level, b.level),
                       min(a.fill, b.fill) * (a.length + b.length) / joined, joined=True,
                       half=a.half or b.half))
    return out


def overlap(a: TileBox, b: TileBox) -> float:
    """Intersection area / smaller area of two tile boxes."""
    reach = a.radius() + b.radius()
    if abs(a.cx - b.cx) > reach or abs(a.cy - b.cy) > reach:
        return 0.0  # too far apart to touch (most pairs in a photo)
    return outline_overlap(a.corners(), b.corners(), a.polygon_area(), b.polygon_area())


def outline_overlap(pa: np.ndarray, pb: np.ndarray, area_a: float, area_b: float) -> float:
    """Intersection area / smaller area of two convex outlines (4x2 corners) whose areas
    are given."""
    inter, _ = cv2.intersectConvexConvex(pa.astype(np.float32), pb.astype(np.float32))
    return float(inter) / max(1e-6, min(area_a, area_b))


def corners_overlap(a: np.ndarray, b: np.ndarray) -> float:
    """outline_overlap of two convex outlines (4x2 corners) whose areas are not known."""
    pa, pb = a.astype(np.float32), b.astype(np.float32)
    return outline_overlap(pa, pb, cv2.contourArea(pa), cv2.contourArea(pb))


def points_inside(points: np.ndarray, outline: np.ndarray) -> np.ndarray:
    """Which of `points` (N x 2) lie inside the convex `outline` (corners in either turn)."""
    edges = np.roll(outline, -1, axis=0) - outline
    rel = points[:, None, :] - outline[None, :, :]
    cross = edges[None, :, 0] * rel[:, :, 1] - edges[None, :, 1] * rel[:, :, 0]
    return (cross >= 0).all(axis=1) | (cross <= 0).all(axis=1)


def scaled_about_centre(outline: np.ndarray, k: float) -> np.ndarray:
    """`outline` (corners) grown (k > 1) or shrunk (k < 1) about its centre."""
    centre = outline.mean(axis=0)
    return centre + (outline - centre) * k


#: A point this close to a tile found (its outline grown by this much about its centre)
#: is on that tile: pips at its very edge, a place whose rectangle only grazes it.
COVER_MARGIN = 1.15


def uncovered(points: np.ndarray, covered: list[np.ndarray]) -> np.ndarray:
    """Which of `points` (N x 2) lie on none of the `covered` outlines (COVER_MARGIN)."""
    free = np.ones(len(points), bool)
    for outline in covered:
        free &= ~points_inside(points, scaled_about_centre(outline, COVER_MARGIN))
    return free


def shrunk(image: np.ndarray, f: float, half: np.ndarray | None = None, grey: bool = False) -> np.ndarray:
    """`image` (BGR) resized `f` times, in grey if asked (made grey first: a third of the
    pixels to resize), from `half` when `f` is a half or less. `half` is the same view
    decoded at half the scale, when the photo was: half the size of `image` (a quarter of
    the pixels to resize), or a little more when `image` was shrunk to the longest
    decoding read (loading's detail_long_side). Averaged by area where what is resized
    shrinks to half or less (AREA_BELOW); linearly otherwise."""
    h, w = image.shape[:2]
    size = (max(1, round(w * f)), max(1, round(h * f)))
    source = half if half is not None and f <= 0.5 else image
    if grey:
        source = cv2.cvtColor(source, cv2.COLOR_BGR2GRAY)
    by_area = size[0] <= AREA_BELOW * source.shape[1]
    return cv2.resize(source, size, interpolation=cv2.INTER_AREA if by_area else cv2.INTER_LINEAR)


#: The share of its size below which a picture is shrunk by area (shrunk): above it,
#: linear resizing (each pixel drawn from the four nearest) keeps a dark line two pixels
#: wide, wherever it lies, at least as dark as averaging by area does (a line one pixel
#: wide may keep a seventh of its contrast at 0.55), and takes a fifth to a tenth of the
#: time. The searches about loose pips and at the faces' colour resize a 3 MP decoding in
#: grey to 0.6 to 0.9 of its size and a 0.75 MP one in colour to about 0.56: 6 to 9 ms
#: and 4 ms by area, 1 to 2 ms and 0.5 linearly (one core). The development sets read
#: about as well either way (linearly, 2 more tiles right of 7,720 and 2 more invented;
#: 1 hand fewer of 320 harsh photos and 2 more invented; 240 further harsh photos and the
#: real photos, turned or not, the same), in 1.5 % less time over all and 7 % less at the
#: median 12 MP harsh photo.
AREA_BELOW = 0.5
