"""Count the pips on the two halves of one tile.

The tile is warped to a canonical upright rectangle (CW x 2CW, divider horizontal in the
middle). Marks are pixels far (in Lab colour) from the local face colour, so black pips on
ivory, coloured (even pale) pips on white and white pips on black tiles are all marks.
Blobs of pip size and shape are counted in each half; merged pips count by area.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

CW = 64  # canonical tile width in pixels; length is 2*CW
MAX_PIPS = 12
#: Least fraction of the box's inside that is face coloured for it to be a tile.
MIN_FACE_FRACTION = 0.45
#: Least colour contrast of the divider with the face.
MIN_DIVIDER_CONTRAST = 10.0
#: Pips run together make a solid blob (two discs touching fill 80 % of their hull); a
#: blob of two or three pips' area filling less of it is no pips: a thin arc of shading
#: along the box's outline made a [9|9] read [11|9].
RUN_TOGETHER = 0.6
#: The least a faint divider leaves of the confidence of a tile found by its body.
BODY_DIVIDER = 0.8
#: Largest fraction of the box covered by marks that are neither pips nor the divider.
MAX_JUNK = 0.04
#: Nearest a pip's centre comes to a corner of the tile, in tile widths (the corner pips
#: of the densest layouts are about 0.2 from it).
CORNER = 0.14


@dataclass
class HalfReading:
    count: int
    blobs: list = field(default_factory=list)  # (x, y, area) in canonical coords
    doubt: float = 0.0


@dataclass
class TileReading:
    top: HalfReading
    bottom: HalfReading
    face_fraction: float
    divider_contrast: float
    confidence: float
    #: Pips the box's outline cuts, at its top end, bottom end, left and right side (in
    #: the canonical image): the box is then short or narrow on that side.
    cut: tuple[int, int, int, int] = (0, 0, 0, 0)

    @property
    def pips(self) -> int:
        return self.top.count + self.bottom.count


def warp_tile(img: np.ndarray, corners: np.ndarray, out_h: int = 2 * CW, out_w: int = CW) -> np.ndarray:
    """corners: (+u,+n), (-u,+n), (-u,-n), (+u,-n) in `img` coordinates -> out_w x out_h
    image with the u axis horizontal and n vertical."""
    src = np.float32([corners[2], corners[3], corners[0]])  # (-u,-n) (+u,-n) (+u,+n)
    dst = np.float32([[0, 0], [out_w, 0], [out_w, out_h]])
    M = cv2.getAffineTransform(src, dst)
    shrinks = math.hypot(*(corners[0] - corners[1])) > out_w * 1.5
    return cv2.warpAffine(img, M, (out_w, out_h), flags=cv2.INTER_AREA if shrinks else cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


@lru_cache(maxsize=4)
def _terms(H: int, W: int, step: int) -> np.ndarray:
    """The terms of the face's lightness surface (1, x, y, x squared), x and y scaled to
    -0.5..0.5 across and along the tile, at every `step`th pixel: 4 x pixels."""
    gy, gx = np.mgrid[0:H:step, 0:W:step].astype(np.float32)
    gx = gx / W - 0.5
    gy = gy / H - 0.5
    return np.stack([np.ones_like(gx), gx, gy, gx * gx]).reshape(4, -1)


def median(values: np.ndarray) -> float:
    """np.median of a small 1-D array, without its overhead (it runs several times for
    every tile hypothesis)."""
    v = np.sort(values, axis=None)
    n = v.size
    return float(v[(n - 1) // 2] + v[n // 2]) / 2.0


def median_colour(pixels: np.ndarray) -> np.ndarray:
    """Per-channel median of N x 3 pixels (np.median's overhead counts here: it runs
    several times for every tile hypothesis)."""
    k = pixels.shape[0] // 2
    return np.partition(pixels, k, axis=0)[k]


#: The bins (Lab units: lightness, then each colour axis) in which a face's commonest
#: colour is counted.
COLOUR_BIN = np.array([8.0, 6.0, 6.0], np.float32)


def dominant_colour(pixels: np.ndarray) -> np.ndarray:
    """The median of the N x 3 Lab pixels in the commonest colour bin and its neighbours.
    Big pips of a double-nine's 9 cover more than half of a half: the median colour is
    then a pip's, while the bare face, all of one colour, still fills the commonest bin
    (the pips' shading and highlights spread them over many). `pixels` are lab_image's."""
    q = np.floor(pixels / COLOUR_BIN).astype(np.int32)
    # each bin numbered in the order of its (L, a, b), so that the first of the commonest
    # is the one a sort would find first: a count over one number is 8 times as fast as
    # np.unique over rows
    low = q.min(axis=0)
    span = q.max(axis=0) - low + 1
    r = q - low
    top = int(np.argmax(np.bincount((r[:, 0] * span[1] + r[:, 1]) * span[2] + r[:, 2])))
    commonest = low + np.array([top // (span[1] * span[2]), top // span[2] % span[1], top % span[2]])
    near = (np.abs(q - commonest) <= 1).all(axis=1)
    return median_colour(pixels[near])


#: Colour distance within which a pixel is taken as bare face for the first, flat fit of
#: the face's lightness...
FACE_NEAR = 12.0
#: ...and for the second, bent one, once that plane has taken out the light's slope.
FACE_FAR = 26.0
#: A pixel this much darker or lighter (L units) than the face around it, within a pip's
#: size, is a pip or a divider, not face, whatever its colour distance.
PIP_HAT = 8.0
_PIP_DISC = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))  # a pip at half size, and more
_DIL3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))


def lab_image(bgr: np.ndarray) -> np.ndarray:
    """The image in Lab as floats, lightness scaled to 0-100 so that a distance between
    two colours is about in CIE76 units."""
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[:, :, 0] *= 1.0 / 2.55
    return lab


_SUM3 = np.ones((1, 3), np.float32)


def colour_distance(diff: np.ndarray) -> np.ndarray:
    """The length of each Lab difference of an image of them (float32, H x W x 3). OpenCV
    sums the three squares several times faster than numpy does."""
    return cv2.sqrt(cv2.transform(diff * diff, _SUM3))


def delta_e_map(bgr: np.ndarray, dominant: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Colour distance (about CIE76 units) of each pixel to the tile's face colour, with
    the lightness of the face allowed to vary smoothly (shading, uneven light). The face
    colour is the median of the tile's inside or, when `dominant`, its commonest colour."""
    lab = lab_image(bgr)
    H, W = lab.shape[:2]
    inner = lab[int(0.06 * H):H - int(0.06 * H):2, int(0.08 * W):W - int(0.08 * W):2].reshape(-1, 3)
    face = dominant_colour(inner) if dominant else median_colour(inner)
    d = lab - face
    surface = _face_lightness(lab, d, W, H)
    if surface is not None:
        d[:, :, 0] = lab[:, :, 0] - surface
    return colour_distance(d), face


def _face_lightness(lab: np.ndarray, d: np.ndarray, W: int, H: int) -> np.ndarray | None:
    """The face's lightness at every pixel, fitted on every other pixel of bare face.
    First a plane, on the pixels close to the face colour: the light's slope across the
    tile. Then a surface that may also bend across the tile (a face lit from above is
    darker along its middle than at its bevelled sides, or the other way), on the pixels
    within a wider distance of that plane. Pips are kept out of that second fit by their
    shape, not their colour: a pale grey pip of a 12 is as far from the face as a shaded
    strip of it, but it is a small dark disc, and the strip is not."""
    sub = d[::2, ::2]
    chroma2 = sub[:, :, 1] ** 2 + sub[:, :, 2] ** 2
    sel = chroma2 + sub[:, :, 0] ** 2 < FACE_NEAR ** 2
    if sel.sum() <= 0.05 * H * W:
        return None
    sub_terms = _terms(H, W, 2)
    L = lab[::2, ::2, 0]
    plane = _fit(L, sel, sub_terms[:3])
    near = chroma2 + (L - (plane @ sub_terms[:3]).reshape(L.shape)) ** 2 < FACE_FAR ** 2
    L8 = L.astype(np.uint8)
    hat = np.maximum(cv2.morphologyEx(L8, cv2.MORPH_BLACKHAT, _PIP_DISC), cv2.morphologyEx(L8, cv2.MORPH_TOPHAT, _PIP_DISC))
    sel = near & (cv2.dilate((hat > PIP_HAT).astype(np.uint8), _DIL3) == 0)
    if sel.sum() <= 0.05 * H * W:
        return (plane @ _terms(H, W, 1)[:3]).reshape(H, W)
    bent = _fit(L, sel, sub_terms)
    return (bent @ _terms(H, W, 1)).reshape(H, W)


def _fit(values: np.ndarray, sel: np.ndarray, terms: np.ndarray) -> np.ndarray:
    """Least-squares coefficients of `terms` (one row per term, one column per pixel)
    for `values` where `sel`."""
    flat = sel.ravel()
    A = terms[:, flat]
    n = A.shape[0]
    _, coef = cv2.solve(A @ A.T + np.eye(n, dtype=np.float32) * 1e-3, (A @ values.ravel()[flat])[:, None],
                        flags=cv2.DECOMP_CHOLESKY)
    return coef.ravel()


def _otsu(values: np.ndarray) -> float:
    v = np.clip(values, 0, 255).astype(np.uint8).reshape(-1, 1)
    t, _ = cv2.threshold(v, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return float(t)


_DIL5 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


#: Lowest colour distance (about CIE76 units) that marks a pip in the first pass.
MIN_THRESHOLD = 12.0


def _half_thresholds(de: np.ndarray, mid: int, fallback: float) -> tuple[float, float]:
    """A colour distance threshold for each half. The pips of one half share a colour
    (coloured sets paint each number its own colour, pale grey 12s next to dark red 9s),
    so each half is split on its own: Otsu between the face and that half's pips, never
    below the face's own noise. A blank half keeps the tile's threshold."""
    H, W = de.shape
    mx, my = int(0.1 * W), int(0.06 * W)
    out = []
    for rows in (slice(my, mid - int(0.1 * W)), slice(mid + int(0.1 * W), H - my)):
        half = de[rows, mx:W - mx].ravel()
        noise = float(np.partition(half, half.size // 2)[half.size // 2])  # the median
        otsu = _otsu(half)
        if otsu < 3 * max(1.0, noise):
            out.append(fallback)  # nothing but face: no pip colour to split on
        else:
            out.append(float(np.clip(0.6 * otsu, max(MIN_THRESHOLD, 5 * noise), 26.0)))
    return out[0], out[1]


def _faint_pips(de, mask, thr_rows, pip_area, divider_rows, margins, top: HalfReading, bottom: HalfReading) -> None:
    """Pale pips (light blue, yellow, grey on white) can stay under the threshold: look
    again at a lower one for round blobs of pip size away from the pips already found."""
    H, W = de.shape
    low_rows = np.maximum(7.0, 0.45 * thr_rows)
    if (low_rows > thr_rows - 3).all():
        return
    lmask = (de > low_rows[:, None]).astype(np.uint8)
    lmask[cv2.dilate(mask, _DIL5) > 0] = 0
    r0, r1 = divider_rows
    mx, my = margins
    lmask[r0 - 2:r1 + 3] = 0
    lmask[:, :mx] = 0
    lmask[:, W - mx:] = 0
    lmask[:my] = 0
    lmask[H - my:] = 0
    if not lmask.any():
        return
    n, lab, st, cen = cv2.connectedComponentsWithStats(lmask, connectivity=4)
    w, h, a = st[:, cv2.CC_STAT_WIDTH], st[:, cv2.CC_STAT_HEIGHT], st[:, cv2.CC_STAT_AREA]
    cx, cy = cen[:, 0], cen[:, 1]
    r = a / pip_area
    # inside the face, of a pip's size, round and solid
    pip_like = ((np.minimum(np.minimum(cx, W - 1 - cx), np.minimum(cy, H - 1 - cy)) >= 0.08 * W)
                & (r > 0.45) & (r < 1.8)
                & (np.maximum(w, h) <= 1.5 * np.minimum(w, h)) & (a >= 0.6 * w * h))
    pip_like[0] = False  # the background
    if not pip_like.any():
        return
    sums = np.bincount(lab.ravel(), weights=de.ravel(), minlength=n)
    mid = H / 2
    rad = np.sqrt(pip_area / np.pi)
    for i in np.nonzero(pip_like)[0]:
        half = top if cy[i] < mid else bottom
        if any(np.hypot(bx - cx[i], by - cy[i]) < 1.6 * rad for bx, by, _ in half.blobs):
            continue
        mean = sums[i] / a[i]
        if mean > 1.35 * low_rows[int(cy[i])] and r[i] > 0.6:
            half.count += 1
            half.blobs.append((float(cx[i]), float(cy[i]), float(a[i])))
            half.doubt += 0.3
        else:
            half.doubt += 0.4


def _off_centre(hr: HalfReading, y0: float, W: int) -> float:
    """Every standard layout is centred in its half, so the pips' centroid is the half's
    centre. A centroid well off it (in tile widths) means the box cuts the tile (a row
    or column of pips lost) or reaches into a neighbour: the count is then doubtful."""
    if hr.count < 1 or len(hr.blobs) != hr.count:
        return 0.0
    cx = sum(x for x, _, _ in hr.blobs) / hr.count
    cy = sum(y for _, y, _ in hr.blobs) / hr.count
    return math.hypot(cx - W / 2, cy - (y0 + W / 2)) / W


def _asymmetry(hr: HalfReading, y0: float, W: int) -> float:
    """Standard pip layouts look the same turned half a turn about the half's centre:
    count the pips that have no partner (a missed or an invented pip shows up here)."""
    if hr.count <= 1 or len(hr.blobs) != hr.count:
        return 0.0
    pts = [(x / W, (y - y0) / W) for x, y, _ in hr.blobs]
    # centre: the pips' own centroid (the box may sit a little off the tile)
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    # a pip is matched when another (or itself, at the centre) lies where it would turned
    unmatched = sum(min(math.hypot(x - (2 * mx - px), y - (2 * my - py)) for px, py in pts) > 0.13 for x, y in pts)
    if hr.count == 11:  # some sets draw 11 lopsided
        unmatched = max(0, unmatched - 1)
    return float(unmatched)


#: Marks of at most this many pixels are too small to be counted (their contour's area
#: with half its boundary, as read_tile measures a blob, stays under 5 pixels).
SPECK = 4


def _drop_specks(mask: np.ndarray) -> None:
    """Clear the marks of at most SPECK pixels. Wood grain or cloth seen through a box
    that is not a tile makes a hundred of them, and each would cost a turn of read_tile's
    contour loop, which skips them anyway."""
    n, lab = cv2.connectedComponents(mask, connectivity=8)
    specks = np.bincount(lab.ravel(), minlength=n) <= SPECK
    specks[0] = False
    if specks.any():
        mask[specks[lab]] = 0


def _solidity(contour: np.ndarray, area: float) -> float:
    """How much of its convex hull a blob fills (a pip fills all of it). Measured only for
    the blobs whose count depends on it."""
    return (area + 1.0) / (cv2.contourArea(cv2.convexHull(contour)) + 1.0)


def _face_and_divider(de: np.ndarray) -> tuple[float, float, float, tuple[int, int]]:
    """On a tile's colour distance map: the threshold between face and marks, the share
    of the inside that is face, the divider's contrast with the face and its first and
    last rows (the rows about the middle marked across the central part; the box may sit
    a little off the tile's centre)."""
    H, W = de.shape
    mid = H // 2
    inner = de[3:-3, 3:-3]
    thr = float(np.clip(0.6 * _otsu(inner), 12.0, 26.0))
    cols = slice(int(W * 0.3), int(W * 0.7))
    rowfrac = (de[:, cols] > thr).mean(axis=1)
    lim = int(0.12 * W)
    near = rowfrac[mid - lim // 2:mid + lim // 2 + 1]
    centre = mid - lim // 2 + int(np.argmax(near)) if near.max() > 0.5 else mid
    divider_contrast = median(de[centre - 3:centre + 4, cols].max(axis=0))
    r0 = r1 = centre
    while r0 > mid - lim and rowfrac[r0 - 1] > 0.5:
        r0 -= 1
    while r1 < mid + lim and rowfrac[r1 + 1] > 0.5:
        r1 += 1
    return thr, float((inner < thr).mean()), divider_contrast, (r0, r1)


def read_tile(canon_bgr: np.ndarray, body: bool = False) -> TileReading | None:
    """The two halves' counts, or None when the box does not hold a tile: too little of
    it face coloured, no divider, a half of more than MAX_PIPS pips, or marks that are
    neither. Most boxes tried on a photo are not tiles (wood grain, seams, the gap
    between two tiles), so those are given up as soon as they show it. The divider is
    the best sign that a box holds a tile: a faint one makes the reading doubtful, and
    with none the box is not read, except for a box found by the tile's `body`
    (bodies.py), whose outline is that sign (set_consensus.doubtful_body still asks such a
    tile with no divider to read fairly surely)."""
    de, _ = delta_e_map(canon_bgr)
    thr, face_fraction, divider_contrast, (r0, r1) = _face_and_divider(de)
    if face_fraction < MIN_FACE_FRACTION:
        # too little face colour: maybe big pips outnumber the bare face (a 9 | 9)
        de, _ = delta_e_map(canon_bgr, dominant=True)
        thr, face_fraction, divider_contrast, (r0, r1) = _face_and_divider(de)
    if face_fraction < MIN_FACE_FRACTION or (divider_contrast < MIN_DIVIDER_CONTRAST and not body):
        return None
    H, W = de.shape
    mid = H // 2
    # the divider and the face were found on the tile's threshold; pips use their half's
    thr_top, thr_bottom = _half_thresholds(de, mid, thr)
    thr_rows = np.where(np.arange(H) < mid, thr_top, thr_bottom).astype(np.float32)
    mask = (de > thr_rows[:, None]).astype(np.uint8)

    margin_x = max(2, int(round(0.04 * W)))
    margin_y = max(2, int(round(0.03 * W)))
    work = mask.copy()
    work[r0 - 1:r1 + 2] = 0
    work[:, :margin_x] = 0
    work[:, W - margin_x:] = 0
    work[:margin_y] = 0
    work[H - margin_y:] = 0
    _drop_specks(work)
    contours, _ = cv2.findContours(work, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cands = []
    at_edge: list[tuple[int, float]] = []  # (which edge, area) of the marks at the outline
    for cnt in contours:
        m = cv2.moments(cnt)
        area = m["m00"]  # the contour's area
        a = area + 0.5 * cv2.arcLength(cnt, True)  # pixel area incl. boundary
        if a < 5:
            continue
        x, y, w, h = cv2.boundingRect(cnt)
        if area > 0:
            cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
        else:
            cx, cy = x + w / 2, y + h / 2
        if abs(cy - (r0 + r1) / 2) < 0.1 * W and abs(cx - W / 2) < 0.12 * W and max(w, h) < 0.25 * W:
            continue  # spinner rivet on the divider
        edges = (cy, H - 1 - cy, cx, W - 1 - cx)
        if min(edges) < 0.08 * W:
            at_edge.append((int(np.argmin(edges)), a))
            continue  # pips sit well inside the face: background at the box's edge, or a pip it cuts
        if math.hypot(min(cx, W - 1 - cx), min(cy, H - 1 - cy)) < CORNER * W:
            continue  # no layout has a pip in the very corner: a corner of table or shadow
        cands.append((float(cx), float(cy), float(a), int(w), int(h), cnt, area))
    good = [c for c in cands if 0.004 * W * W <= c[2] <= 0.07 * W * W and max(c[3], c[4]) <= 1.6 * min(c[3], c[4])]
    if good:
        areas = np.array([c[2] for c in good], np.float64)
        med = median(areas)
        sel = areas[(areas > 0.55 * med) & (areas < 1.6 * med)]
        pip_area = median(sel) if sel.size else med
    else:
        pip_area = 0.02 * W * W
    top = HalfReading(0)
    bottom = HalfReading(0)
    junk_area = 0.0
    # pips of one half are the same size (sizes may differ a little between halves)
    half_area = {}
    for is_top in (True, False):
        areas = np.array([c[2] for c in cands if (c[1] < mid) == is_top and 0.45 * pip_area < c[2] < 2.2 * pip_area])
        if areas.size >= 3:
            med = median(areas)
            if areas.max() < 1.45 * areas.min():
                half_area[is_top] = max(med, pip_area)
            else:
                half_area[is_top] = med if 0.7 * pip_area < med < 1.45 * pip_area else pip_area
        else:
            half_area[is_top] = pip_area
    for cx, cy, a, w, h, cnt, area in cands:
        r = a / half_area[cy < mid]
        half = top if cy < mid else bottom
        if r < 0.35:
            if r > 0.2:
                half.doubt += 0.5
            continue
        elong = max(w, h) / max(1, min(w, h))
        round_blob = elong < 1.45 and _solidity(cnt, area) > 0.85
        if round_blob and r < 3.0:
            k = 1  # one pip, maybe a bigger one (the single pip of a 1 often is)
        elif r <= 1.55:
            k = 1
        elif r <= 2.6 and elong <= 2.8 and _solidity(cnt, area) > RUN_TOGETHER:
            k = 2  # two pips run together
        elif r <= 3.5 and elong <= 3.8 and _solidity(cnt, area) > RUN_TOGETHER:
            k = 3
            half.doubt += 0.5
        else:
            k = 0
        if k == 0 or (k == 1 and elong > 2.2):
            junk_area += a
            if junk_area > MAX_JUNK * W * H:
                return None
            half.doubt += 1.0
            continue
        if k == 1 and round_blob:
            frac = 0.0 if r >= 0.6 else 0.6 - r
        else:
            frac = abs(r - round(r)) if r > 1.55 else (0.0 if r >= 0.6 else 0.6 - r)
        half.doubt += min(1.0, max(0.0, frac - 0.25) * 3)
        half.count += k
        half.blobs.append((cx, cy, a))
    if max(top.count, bottom.count) > MAX_PIPS:
        return None  # the faint pips' look below only adds pips
    cut = [0, 0, 0, 0]
    for edge, a in at_edge:
        if 0.3 * pip_area <= a <= 1.3 * pip_area:
            cut[edge] += 1
    # a pip cut at an end makes its half doubtful; one cut at a side may be a neighbour's
    # (tiles touching side by side), so it only asks for a wider look (box_reading._grown)
    top.doubt += 0.4 * min(2, cut[0])
    bottom.doubt += 0.4 * min(2, cut[1])
    for hr in (top, bottom):
        if hr.count == 2 and len(hr.blobs) == 1:
            hr.doubt += 1.0  # a 2's pips sit in opposite corners: they never run together
    _faint_pips(de, mask, thr_rows, pip_area, (r0, r1), (margin_x, margin_y), top, bottom)
    for hr, y0 in ((top, 0.0), (bottom, float(mid))):
        hr.doubt += 0.6 * _asymmetry(hr, y0, W)
        hr.doubt += float(np.clip((_off_centre(hr, y0, W) - 0.08) / 0.06, 0.0, 1.5))
    conf = 1.0
    for hr in (top, bottom):
        conf *= max(0.2, 1.0 - 0.35 * hr.doubt)
    conf *= max(BODY_DIVIDER if body else 0.2, min(1.0, (divider_contrast - 8) / 20))
    conf *= max(0.2, min(1.0, (face_fraction - 0.35) / 0.25))
    return TileReading(top, bottom, face_fraction, divider_contrast, float(conf), tuple(cut))
