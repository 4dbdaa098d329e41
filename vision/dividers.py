"""Find the divider bars of face-up tiles.

Every face-up domino has one divider: a thin straight bar across the middle of the face,
contrasting with it (black on ivory, white on black, yellow on pink, ...). It is the anchor
of the detector: it gives the tile's centre, its orientation and its scale, and it keeps
touching tiles apart. Bars are found on a small image pyramid, so any tile size works:
marks (pixels that differ from their surroundings: morphological black-hat and top-hat of
the lightness, and top-hat of the yellow-blue channel) are thresholded, and in every connected
mark a small Hough transform finds the strongest thin straight band, which survives pips
touching the bar. Bars that are long, thin and solid enough are kept.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .components import components

KERNEL = 15  # morphological window at each pyramid level (pixels)
MARK_THRESHOLD = 55  # in 8-bit L units
MIN_LEN = 13  # shortest bar considered at a level (pixels)
#: Thickest bar considered at a level (pixels): a close-up's divider is about 12 at the
#: working size; thicker marks are found on the next pyramid level.
MAX_THICK = 14
#: Shortest half of a divider split by a brass spinner (pixels): such short bars are
#: kept only when joined to their other half.
HALF_LEN = 7


@dataclass
class Bar:
    cx: float
    cy: float
    ux: float  # unit vector along the bar
    uy: float
    length: float
    thickness: float
    level: int
    fill: float
    joined: bool = False  # made of two collinear halves (a spinner in the middle)
    #: Too short to be a divider (or joined from such): at best half of one split by a
    #: spinner. Leather and wood grain make many such short marks, so they come last.
    half: bool = False
    #: Not the strongest band of its mark but one crossing it (a divider meeting the seams
    #: between touching tiles); where another bar lies on it, that one is the better fit.
    crossing: bool = False
    #: How a divider it looks beside its flanks (geometry.measure_flatness): unmeasured yet
    #: when NaN.
    flatness: float = math.nan
    #: The share of its two ends that lie inside a face (geometry.ends_inside_face):
    #: unmeasured yet when NaN.
    ends: float = math.nan

    @property
    def angle(self) -> float:
        return math.atan2(self.uy, self.ux)


CHROMA_THRESHOLD = 30  # yellow-blue contrast (8-bit b units) for coloured dividers
MIN_YELLOW = 20  # and how yellow such a divider is at least (b above neutral)


def mark_maps(bgr: np.ndarray, k: int = KERNEL) -> list[np.ndarray]:
    """Contrast maps: dark marks (black-hat) and bright marks (top-hat) of the lightness,
    and yellow-blue marks (a yellow divider on a pink tile...). The first two are
    thresholded at the look's threshold (lower for a faint engraved divider), the last
    at CHROMA_THRESHOLD (bars_at_level)."""
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)
    L = lab[:, :, 0]
    b = lab[:, :, 2]
    ker = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    # yellower marks only: between yellow pips close to a yellow divider the pink face
    # is itself a bluer mark, which would join them all in one blob (a bluer divider is
    # a darker one too, and the lightness finds it). And only marks that are yellow, not
    # merely yellower: a white face between blue or green pips is yellower than they are.
    yellower = cv2.morphologyEx(b, cv2.MORPH_TOPHAT, ker)
    yellower[b < 128 + MIN_YELLOW] = 0
    return [cv2.morphologyEx(L, cv2.MORPH_BLACKHAT, ker), cv2.morphologyEx(L, cv2.MORPH_TOPHAT, ker), yellower]


#: The coarsest pyramid level looked at is at least this many pixels on its shorter side.
MIN_LEVEL_SIDE = 48


def map_pyramid(bgr: np.ndarray, levels: int = 4) -> list[list[np.ndarray]]:
    """The mark maps of `bgr` and of up to `levels` - 1 coarser levels of its pyramid (each
    half the one before, while MIN_LEVEL_SIDE or more). They do not depend on the marks'
    threshold: the looks at one photo at two thresholds share them (classical_look.Working)."""
    maps = []
    img = bgr
    for lev in range(levels):
        if lev:
            img = cv2.pyrDown(img)
            if min(img.shape[:2]) < MIN_LEVEL_SIDE:
                break
        maps.append(mark_maps(img))
    return maps


_ANGLES = np.deg2rad(np.arange(0, 180, 6.0))
_NX = -np.sin(_ANGLES)
_NY = np.cos(_ANGLES)
_NXY = np.stack([_NX, _NY])


#: Straight bands looked for in one mark. Where tiles touch, a divider runs into the dark
#: seams between them and makes one mark with them; the longest band is then a seam.
MAX_BANDS = 3
#: A further band is looked for only when this many of the mark's pixels lie off the
#: bands already found (fewer is a bar with pips touching it, not a junction of bars).
REST_FRACTION = 0.35
#: A divider meets a seam about square; a further band closer in direction to one
#: already found is a fringe of it, or a pip beside it, so it is not a bar of its own.
MIN_CROSSING = math.cos(math.radians(30))
#: At most this many of a mark's pixels vote in its Hough transform.
HOUGH_PIXELS = 4000
#: At most this many marks of one contrast map get a Hough transform, the straightest
#: first: creased leather or wood grain make hundreds of crease-sized marks at the finest
#: level, each costing a transform, while a divider is one of the straightest marks
#: around (a crease bends, a patch of grain is broad). Ordered by length instead, the cap
#: lost the small tiles of a busy photo to its long creases.
MAX_MARKS = 120


def _bands(xs: np.ndarray, ys: np.ndarray) -> list[tuple[tuple, bool]]:
    """The straight thin bars of one mark, each with whether it is a crossing band: the
    strongest band, then the strongest among the pixels off the bands found so far, while
    enough pixels are left; a further band counts only if it crosses every band found
    before it."""
    out: list[tuple] = []
    found: list[tuple] = []
    left = np.ones(xs.size, dtype=bool)
    for _ in range(MAX_BANDS):
        if left.sum() < MIN_LEN:
            break
        r = _best_bar(xs[left], ys[left])
        if r is None:
            break
        bar, on_band = r
        if all(abs(bar[2] * f[2] + bar[3] * f[3]) < MIN_CROSSING for f in found):
            out.append((bar, bool(found)))
        found.append(bar)
        idx = np.nonzero(left)[0]
        left[idx[on_band]] = False
        if left.sum() < REST_FRACTION * xs.size:
            break
    return out


def _best_bar(xs: np.ndarray, ys: np.ndarray) -> tuple | None:
    """The strongest straight thin bar among a component's pixels (a small Hough
    transform restricted to the component). Returns ((cx, cy, ux, uy, length, thickness,
    fill) in the component's pixel coordinates, which pixels lie on the band), or None."""
    n = xs.size
    mx, my = xs.sum() / n, ys.sum() / n
    x = xs - mx
    y = ys - my
    # a big mark (creased leather, a shadow) votes with every step-th pixel: its bands
    # are as clear in that sample, and its transform would cost milliseconds
    step = -(-n // HOUGH_PIXELS)
    proj = np.column_stack([x[::step], y[::step]]) @ _NXY  # N x A, offset along the normal
    off = np.rint(proj)
    lo = int(off.min())
    nb = int(off.max()) - lo + 3
    na = len(_ANGLES)
    # each angle's offsets in a histogram of its own: one bincount for them all
    idx = np.add(off, np.arange(na) * nb - lo, out=np.empty(off.shape, np.intp), casting="unsafe")
    hist = np.bincount(idx.ravel(), minlength=na * nb).reshape(na, nb)
    win = hist[:, :-2] + hist[:, 1:-1] + hist[:, 2:]
    j, b = divmod(int(np.argmax(win)), win.shape[1])
    d = b + 1 + lo  # centre offset of the band
    prof = hist[j].tolist()
    peak = max(prof[b:b + 3])
    # thickness: bins around the peak above half of it
    c = b + 1
    left = c
    while left - 1 >= 0 and prof[left - 1] >= 0.5 * peak:
        left -= 1
    right = c
    while right + 1 < len(prof) and prof[right + 1] >= 0.5 * peak:
        right += 1
    t = right - left + 1
    half = max(1.0, t / 2.0 + 0.5)
    along = proj[:, j] if step == 1 else x * _NX[j] + y * _NY[j]  # every pixel's offset
    sel = np.abs(along - d) <= half
    ux, uy = _NY[j], -_NX[j]
    u = x[sel] * ux + y[sel] * uy
    if u.size < 4:
        return None
    u = np.sort(u)
    gaps = np.diff(u)
    # longest run with gaps <= 2.5 px
    breaks = np.nonzero(gaps > 2.5)[0]
    starts = np.concatenate([[0], breaks + 1])
    ends = np.concatenate([breaks, [u.size - 1]])
    k = int(np.argmax(u[ends] - u[starts]))
    u0, u1 = u[starts[k]], u[ends[k]]
    length = u1 - u0 + 1
    npx = ends[k] - starts[k] + 1
    thick = npx / length
    um = (u0 + u1) / 2
    cx = mx + um * ux + d * _NX[j]
    cy = my + um * uy + d * _NY[j]
    # refine the direction (the angle search is coarse): principal axis of the run's pixels
    if npx >= 8 and length >= 8:
        bx = x[sel]
        by = y[sel]
        uu = bx * ux + by * uy
        run = (uu >= u0 - 0.5) & (uu <= u1 + 0.5)
        px, py = bx[run], by[run]
        if px.size >= 8:
            k = px.size
            px = px - px.sum() / k
            py = py - py.sum() / k
            cxx, cyy, cxy = np.dot(px, px) / k, np.dot(py, py) / k, np.dot(px, py) / k
            theta = 0.5 * np.arctan2(2 * cxy, cxx - cyy)
            vx, vy = float(np.cos(theta)), float(np.sin(theta))
            if vx * ux + vy * uy < 0:
                vx, vy = -vx, -vy
            if vx * ux + vy * uy > 0.985:  # within ~10 degrees: accept
                ux, uy = vx, vy
    on_band = np.abs(along - d) <= half + 1
    return (cx, cy, ux, uy, length, max(thick, 1.0), npx / (length * max(t, 1))), on_band


def bars_at_level(maps: list[np.ndarray], level: int, threshold: int = MARK_THRESHOLD) -> tuple[list[Bar], bool]:
    """The bars in one pyramid level's mark `maps` (mark_maps), and whether some map there
    held more marks than are examined (a busy background)."""
    out: list[Bar] = []
    busy = False
    for m, thr in zip(maps, (threshold, threshold, CHROMA_THRESHOLD)):
        mask = (m > thr).astype(np.uint8)
        bars, capped = _bars_in_mask(mask, level)
        out.extend(bars)
        busy |= capped
    return out, busy


def _bars_in_mask(mask: np.ndarray, level: int) -> tuple[list[Bar], bool]:
    if not cv2.countNonZero(mask):
        return [], False  # no yellow on most photos: labelling an empty mask costs 2 ms
    n, lab, st, _ = components(mask)  # OpenCV's numbers, sooner when the mask is sparse
    out: list[Bar] = []
    s = float(2 ** level)
    ws, hs, areas = st[:, cv2.CC_STAT_WIDTH], st[:, cv2.CC_STAT_HEIGHT], st[:, cv2.CC_STAT_AREA]
    longest, shortest = np.maximum(ws, hs), np.minimum(ws, hs)
    blob = (shortest > 0.6 * longest) & (areas > 0.5 * ws * hs)  # a pip, a patch: not a bar
    marks = (longest >= MIN_LEN) & (areas >= MIN_LEN) & (areas <= 40000) & ~blob
    marks[0] = False  # the background
    ids = np.nonzero(marks)[0]
    capped = ids.size > MAX_MARKS
    if capped:
        ids = np.sort(ids[np.argsort(-_straightness(lab, marks), kind="stable")[:MAX_MARKS]])
    for i in ids:
        x, y, w, h = st[i, :4]
        ys, xs = np.nonzero(lab[y:y + h, x:x + w] == i)
        for (cx, cy, ux, uy, lo, sh, fill), crossing in _bands(xs.astype(np.float64) + x, ys.astype(np.float64) + y):
            half = lo < MIN_LEN
            if lo < HALF_LEN or lo / sh < (3 if half else 4) or sh > MAX_THICK:
                continue
            out.append(Bar((cx + 0.5) * s - 0.5, (cy + 0.5) * s - 0.5, ux, uy, lo * s, sh * s, level, fill,
                           half=half, crossing=crossing))
    if level == 0:  # coarser levels blur a spinner's gap away
        out.extend(_half_bars(lab, st))
    return out, capped


def _straightness(lab: np.ndarray, marks: np.ndarray) -> np.ndarray:
    """For each mark (a boolean over the labels), how much it looks like one straight
    thin bar: the length its pixels' principal axis spans over the thickness across it
    (a crease in leather bends, a patch of grain is broad)."""
    _, _, _, major, minor, _ = _moments(lab, marks)
    return np.sqrt(major / (minor + 1.0))


def _moments(lab: np.ndarray, which: np.ndarray) -> tuple[np.ndarray, ...]:
    """For each label chosen by `which` (a boolean over the labels), all at once: its
    pixel count, centroid, variances along its principal axes and that axis's angle."""
    xs, ys = cv2.findNonZero(which[lab].view(np.uint8)).reshape(-1, 2).T  # np.nonzero's order, faster
    ids = lab[ys, xs]
    n = which.size
    xs = xs.astype(np.float64)
    ys = ys.astype(np.float64)
    cnt = np.bincount(ids, minlength=n)[which]
    mx = np.bincount(ids, xs, n)[which] / cnt
    my = np.bincount(ids, ys, n)[which] / cnt
    cxx = np.bincount(ids, xs * xs, n)[which] / cnt - mx * mx
    cyy = np.bincount(ids, ys * ys, n)[which] / cnt - my * my
    cxy = np.bincount(ids, xs * ys, n)[which] / cnt - mx * my
    spread = np.sqrt(((cxx - cyy) / 2) ** 2 + cxy ** 2)
    major = (cxx + cyy) / 2 + spread
    minor = np.maximum((cxx + cyy) / 2 - spread, 0.0)
    return cnt, mx, my, major, minor, 0.5 * np.arctan2(2 * cxy, cxx - cyy)


def _half_bars(lab: np.ndarray, st: np.ndarray) -> list[Bar]:
    """Short thin marks, at best half of a divider split by a spinner. Leather or wood
    grain make thousands of specks, so they are measured all at once from their moments
    (centroid, principal axis, extent) instead of one small Hough transform each."""
    w, h, a = st[:, 2], st[:, 3], st[:, 4]
    longest = np.maximum(w, h)
    small = (longest >= HALF_LEN) & (longest < MIN_LEN) & (a >= HALF_LEN) & (a <= 5 * longest)
    small[0] = False  # the background
    if not small.any():
        return []
    cnt, mx, my, major, _, theta = _moments(lab, small)
    length = np.sqrt(12 * major) + 1.0  # a uniform bar of length L has variance L^2 / 12
    thick = cnt / length
    keep = (length >= HALF_LEN) & (length / thick >= 3) & (thick <= 9)
    return [Bar(float(x), float(y), float(np.cos(t)), float(np.sin(t)), float(L), max(1.0, float(th)), 0, 1.0,
                half=True)
            for x, y, t, L, th in zip(mx[keep], my[keep], theta[keep], length[keep], thick[keep])]


def find_bars(bgr: np.ndarray, levels: int = 4, threshold: int = MARK_THRESHOLD,
              maps: list[list[np.ndarray]] | None = None) -> tuple[list[Bar], bool]:
    """All bar candidates on `levels` pyramid levels, in the coordinates of `bgr`, and
    whether the background is busy (more marks than are examined at some level). Marks
    of lightness stand out from their surroundings by more than `threshold`. `maps`: the
    map_pyramid of `bgr`, when made already (its first `levels` levels are looked at)."""
    bars: list[Bar] = []
    busy = False
    for lev, level_maps in enumerate(map_pyramid(bgr, levels) if maps is None else maps[:levels]):
        found, capped = bars_at_level(level_maps, lev, threshold)
        bars.extend(found)
        busy |= capped
    return bars, busy
