"""Whether a photo was taken at an angle, measured on the tiles found.

A phone held over a table at an angle sees the near tiles larger than the far ones, and
every tile as a trapezoid, squeezed along the direction the camera leans. The classical
looks' tile model (a box centred on its divider, twice as long as wide, tiles of one
size) holds on a photo taken from above; when the tiles found show a tilt, the tile
finder's boxes are read as well (pipeline.needs_finder), which the finder sees whatever
the tilt.

The tilt is that of the turn of the camera about its centre that makes the table face
the lens: a homography K R K^-1 set by the camera's focal length (K) and the turn (R: a
tilt about an axis in the photo's plane). Every tile of a set is as wide as every other
on the table, so the turn is the one under which the tiles found, each measured across
its divider where it lies, come out of one width: a search over the turn's axis, its
tilt and the focal length. The tiles' positions tell the tilt (the far ones are
smaller) and their directions tell the focal length (a tile lying across the lean keeps
its width, one lying along it loses some). With too few tiles, their shapes tell it.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

#: Below this tilt the photo is taken to be seen from above.
MIN_TILT = math.radians(15)
#: The steepest tilt looked for (the table's far side then nears the horizon).
MAX_TILT = math.radians(50)
#: Fewest tiles the tilt is measured on.
MIN_TILES = 4
#: A spread of the tiles' centres (a standard deviation, over the photo's diagonal)
#: across which the slope of their sizes is damped by half.
SPREAD = 0.03
#: Focal lengths tried, over the photo's diagonal: a phone's main camera (about 26 mm
#: in 35 mm film terms) is 0.6, its zoom lenses 1 and more; cropping lengthens them.
FOCALS = (0.45, 0.55, 0.65, 0.8, 1.0, 1.25)
#: The focal length taken when the tiles cannot tell it...
FOCAL = 0.7
#: ...and how much a spread of log widths one other focal length must save, per unit of
#: log focal length away from it.
FOCAL_PRIOR = 0.02


def _camera(width: int, height: int, focal: float) -> np.ndarray:
    f = focal * math.hypot(width, height)
    return np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1.0]])


def _rotations(axes: np.ndarray, tilts: np.ndarray) -> np.ndarray:
    """Rotations by each tilt about each axis in the photo's plane (angle from x):
    Rodrigues' formula, for every pair at once (A x T x 3 x 3)."""
    kx, ky = np.cos(axes)[:, None], np.sin(axes)[:, None]
    c, s = np.cos(tilts)[None, :], np.sin(tilts)[None, :]
    v = 1 - c
    R = np.empty(kx.shape[:1] + tilts.shape + (3, 3))
    R[..., 0, 0] = c + kx * kx * v
    R[..., 0, 1] = kx * ky * v
    R[..., 0, 2] = ky * s
    R[..., 1, 0] = kx * ky * v
    R[..., 1, 1] = c + ky * ky * v
    R[..., 1, 2] = -kx * s
    R[..., 2, 0] = -ky * s
    R[..., 2, 1] = kx * s
    R[..., 2, 2] = c + 0 * kx
    return R


def _mapped_lengths(H: np.ndarray, points: np.ndarray, vectors: np.ndarray) -> np.ndarray:
    """|J_H(p) v| for homographies H (... x 3 x 3) at points p with small vectors v
    (n x 2 each): the length each vector has once mapped by H (... x n)."""
    ph = np.column_stack([points, np.ones(len(points))])  # n x 3
    hp = np.einsum("...ij,nj->...ni", H, ph)  # ... x n x 3
    z = hp[..., 2]
    q = hp[..., :2] / z[..., None]
    hv = np.einsum("...ij,nj->...ni", H[..., :, :2], vectors)  # H applied to (v, 0)
    mapped = (hv[..., :2] - q * hv[..., 2:3]) / z[..., None]
    return np.where(z > 0, np.hypot(mapped[..., 0], mapped[..., 1]), np.nan)


def measures(outlines: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What fit_turn is found on, from tiles' outlines (n x 4 x 2, in TileBox order, on
    the photo): their centres, areas, and vectors across the divider."""
    corners = np.asarray(outlines, np.float64).reshape(-1, 4, 2)
    areas = np.array([cv2.contourArea(q.astype(np.float32)) for q in corners])
    return corners.mean(axis=1), areas, corners[:, 0] - corners[:, 1]


def fit_turn(centres: np.ndarray, areas: np.ndarray, across: np.ndarray, width: int,
             height: int) -> np.ndarray | None:
    """The homography that turns the photo into the view from above (whose tilt tells
    that it was taken at an angle), found on the tiles' centres, areas and
    vectors across the divider (as wide as the tile), in the photo's pixels; None when
    the tiles are too few or show no tilt that matters. The areas give the horizon (see
    area_plane); the focal length is the one under which the tiles come out of one width
    whatever their direction, a little in favour of a phone's usual one."""
    diagonal = math.hypot(width, height)
    g = area_plane(centres - [width / 2, height / 2], areas, diagonal)
    if g is None:
        return None
    best = None
    for focal in FOCALS:
        turn = _turn(g, width, height, focal)
        if turn is None:
            continue
        K = _camera(width, height, focal)
        H = K @ turn @ np.linalg.inv(K)
        with np.errstate(invalid="ignore", divide="ignore"):
            spread = float(_spread(np.log(_mapped_lengths(H, centres, across))))
        cost = spread + FOCAL_PRIOR * abs(math.log(focal / FOCAL))
        if np.isfinite(cost) and (best is None or cost < best[0]):
            best = (cost, H, turn)
    if best is None or math.acos(min(1.0, best[2][2, 2])) < MIN_TILT:
        return None
    return best[1]


def area_plane(centres: np.ndarray, areas: np.ndarray, diagonal: float) -> np.ndarray | None:
    """The plane g with area^(1/3) = g . (x, y, 1), fitted on the tiles' centres (in
    coordinates centred on the photo's middle) and areas: in the image of a plane the
    cube root of a small patch's area is linear in the image coordinates (the Jacobian
    of the plane's homography is the cube of a linear function), and zero on the plane's
    vanishing line, the table's horizon. Fitted once more without the tiles the first
    fit misses by far; None when too few tiles agree. The slope is damped where the
    tiles hardly spread (a row of tiles tells nothing of the slope across it): a tilt
    unseen is read as none, never as a steep one."""
    if len(areas) < MIN_TILES:
        return None
    A = np.column_stack([centres / diagonal, np.ones(len(areas))])
    target = np.cbrt(areas)
    keep = np.ones(len(areas), bool)
    damp = np.diag([SPREAD ** 2, SPREAD ** 2, 0.0])
    g = None
    for _ in range(3):
        Ak = A[keep]
        g = np.linalg.solve(Ak.T @ Ak + keep.sum() * damp, Ak.T @ target[keep])
        fitted = A @ g
        if (fitted <= 0).any():
            return None
        keep = np.abs(target / fitted - 1.0) < 0.08  # 8 % in the cube root, 25 % in area
        if keep.sum() < MIN_TILES:
            return None
    return np.array([g[0] / diagonal, g[1] / diagonal, g[2]])


def _turn(g: np.ndarray, width: int, height: int, focal: float) -> np.ndarray | None:
    """The camera's turn that makes the plane whose area plane is `g` (in coordinates
    centred on the photo's middle) face it; None when the horizon crosses the photo (no
    table looks like that) or the tilt is beyond MAX_TILT."""
    corners = np.array([[-width / 2, -height / 2, 1], [width / 2, -height / 2, 1],
                        [width / 2, height / 2, 1], [-width / 2, height / 2, 1]])
    if ((corners @ g) <= 0).any():
        return None
    # The vanishing line l = g; the plane's normal in the camera's frame is K^T l.
    f = focal * math.hypot(width, height)
    normal = np.array([f * g[0], f * g[1], g[2]])
    normal /= np.linalg.norm(normal)
    tilt = math.acos(min(1.0, abs(normal[2])))
    if tilt > MAX_TILT:
        return None
    # the rotation taking the normal onto the optical axis, about the axis square to both
    axis = math.atan2(-normal[0], normal[1])
    R = _rotations(np.array([axis]), np.array([tilt]))[0, 0]
    if (R @ normal)[2] < 0.999:
        R = _rotations(np.array([axis + math.pi]), np.array([tilt]))[0, 0]
    return R


def _spread(logs: np.ndarray) -> np.ndarray:
    """The spread of log widths over the last axis, without its worst one."""
    dev = np.abs(logs - np.median(logs, axis=-1, keepdims=True))
    worst = np.nanargmax(np.where(np.isfinite(dev), dev, np.inf), axis=-1)
    keep = np.ones(logs.shape, bool)
    np.put_along_axis(keep, worst[..., None], False, axis=-1)
    kept = np.where(keep, logs, np.nan)
    return np.sqrt(np.nanmean((kept - np.nanmean(kept, axis=-1, keepdims=True)) ** 2, axis=-1))


def tilt_from_shapes(quads: list[np.ndarray]) -> float:
    """The tilt a few tiles' outlines show (four corners each, in the order of
    TileBox.corners), supposing the table's far side is at the top of the photo: seen at
    an angle, a tile is squeezed along the photo's height, so a tile lying across the
    photo looks longer than 2:1 and one lying along it shorter. The squeeze c is the one
    that makes each tile's across and half-along sides square and of one length again
    (least squares over the tiles); the tilt is acos(c), 0 when there is no squeeze."""
    rows = []
    for q in quads:
        a = q[0] - q[1]  # across the tile: its width
        b = (q[0] - q[3]) / 2  # half of its length: as long as its width, on the table
        n = float(a @ a)
        # with y divided by c: a.b = 0 and |a| = |b|, linear in k = 1 / c^2
        rows.append(((a[0] * b[0]) / n, (a[1] * b[1]) / n))
        rows.append(((a[0] ** 2 - b[0] ** 2) / n, (a[1] ** 2 - b[1] ** 2) / n))
    e, f = np.array(rows).T
    k = -float(e @ f) / max(1e-9, float(f @ f))
    return math.acos(min(1.0, 1.0 / math.sqrt(k))) if k > 1.0 else 0.0
