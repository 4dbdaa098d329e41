"""A small trained network that reads a tile box: is there a tile, how many pips has each
half, and where exactly is the tile (the box moved onto it).

The classical reader (pips.py) counts pips as blobs off the face colour and needs a box
that fits the tile; a box half a tile off, a black tile's engraved divider, pale pips
under glare defeat it where a person sees the tile at once. The network sees the box
with some of its surroundings, upright (the crop below), and answers from examples:
it was trained by tools/training/train_tile_net.py on boxes harvested from rendered
photos (tools/generators/harsh_photos.py), never on the real development photos. Its weights
(tile_net.onnx, under 1 MB) ship with the package and are run by ONNX Runtime.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import onnxruntime

#: The crop the network sees: the box grown by CONTEXT about its centre, warped upright
#: (the box's -n end at the top) to IN_W x IN_H pixels.
IN_W, IN_H = 32, 64
CONTEXT = 1.25
#: Pip counts the network tells apart per half (a double-twelve set's 0 to 12).
COUNTS = 13
WEIGHTS = Path(__file__).with_name("tile_net.onnx")


def crop(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The box with `corners` ((+u,+n), (-u,+n), (-u,-n), (+u,-n), as TileBox.corners)
    on `image` (BGR), grown by CONTEXT about its centre, upright, IN_H x IN_W x 3. A box
    much larger than the crop is warped at a multiple of its size first and then shrunk
    by area, so that pips are averaged rather than aliased away. (Worked out on Python's
    floats: a reading crops a few hundred boxes, and numpy's small arrays cost more in
    their making than in their arithmetic.)"""
    points = np.asarray(corners, np.float64).reshape(4, 2).tolist()
    cx, cy = _centre(points)
    grown = [(cx + (x - cx) * CONTEXT, cy + (y - cy) * CONTEXT) for x, y in points]
    # numpy's norm, not math.hypot: they differ in the last bit, which decides k for a box
    # exactly k crops wide
    width = float(np.linalg.norm(np.array([grown[0][0] - grown[1][0], grown[0][1] - grown[1][1]])))
    k = min(max(int(width / IN_W), 1), 4)
    w, h = IN_W * k, IN_H * k
    src = np.float32([grown[2], grown[3], grown[0]])  # (-u,-n) (+u,-n) (+u,+n)
    dst = np.float32([[0, 0], [w, 0], [w, h]])
    out = cv2.warpAffine(image, cv2.getAffineTransform(src, dst), (w, h), flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)
    return out if k == 1 else cv2.resize(out, (IN_W, IN_H), interpolation=cv2.INTER_AREA)


def _centre(points: list[list[float]]) -> tuple[float, float]:
    """The mean of four points, added up in numpy's order (the same float to the bit)."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = points
    return (((x0 + x1) + x2) + x3) / 4, (((y0 + y1) + y2) + y3) / 4


def normalise(x):
    """Crops as floats in 0..1, (N, 3, H, W) -> each crop's channels less their means,
    over the crop's spread: the network sees contrasts, not the light's level (a numpy
    array here; the training script passes torch tensors)."""
    if isinstance(x, np.ndarray):
        x = x - x.mean(axis=(2, 3), keepdims=True)
        return x / (x.std(axis=(1, 2, 3), keepdims=True) + 0.05)
    x = x - x.mean(dim=(2, 3), keepdim=True)
    return x / (x.std(dim=(1, 2, 3), keepdim=True) + 0.05)


class Answer:
    """The network's reading of one box: the chance that it holds a tile, the chance that
    a tile is near it, the pips of its top and bottom halves with their chances, and where
    the tile is (see `moved`)."""

    __slots__ = ("tile", "near", "top", "bottom", "top_p", "bottom_p", "place")

    def __init__(self, tile: float, near: float, top: int, bottom: int, top_p: float, bottom_p: float,
                 place: np.ndarray) -> None:
        self.tile, self.near, self.top, self.bottom = tile, near, top, bottom
        self.top_p, self.bottom_p, self.place = top_p, bottom_p, place

    @property
    def sure(self) -> float:
        """The chance that the box holds a tile and both halves read right."""
        return self.tile * self.top_p * self.bottom_p


_loading = threading.Lock()


def session(weights: Path) -> onnxruntime.InferenceSession:
    """The network in `weights`, loaded once (the first requests of the web server's
    threads may ask for it at the same time) and shared by every thread: a session may be
    run by several at once. ONNX Runtime runs the networks in half the time OpenCV's dnn
    module took (the finder's finest level on a 12 MP photo: 14 ms instead of 31). A run
    uses one thread: the server's threads read photos side by side, each on its core,
    rather than each spreading over every core."""
    with _loading:
        return _session(weights)


@lru_cache(maxsize=None)
def _session(weights: Path) -> onnxruntime.InferenceSession:
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    return onnxruntime.InferenceSession(str(weights), options, providers=["CPUExecutionProvider"])


def run(weights: Path, x: np.ndarray) -> np.ndarray:
    """The first output of the network in `weights` for the input `x` (float32)."""
    net = session(weights)
    return net.run(None, {net.get_inputs()[0].name: x})[0]


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def read_crops(crops: Sequence[np.ndarray]) -> list[Answer]:
    """The network's answers for crops (each IN_H x IN_W x 3, BGR uint8, from `crop`)."""
    if len(crops) == 0:
        return []
    if any(c.shape != (IN_H, IN_W, 3) for c in crops):
        raise ValueError(f"crops must be {IN_H} x {IN_W} x 3")
    # OpenCV's blob making lays the crops out channel by channel, as the network takes
    # them, with the same values as numpy's transposing; normalising the contiguous
    # result is three times as fast (its float sums round a little otherwise: 2e-6)
    x = normalise(cv2.dnn.blobFromImages(list(crops), 1 / 255.0))
    out = run(WEIGHTS, np.ascontiguousarray(x, np.float32))
    tile, near = 1.0 / (1.0 + np.exp(-out[:, 0])), 1.0 / (1.0 + np.exp(-out[:, 1]))
    top, bottom = _softmax(out[:, 2:2 + COUNTS]), _softmax(out[:, 2 + COUNTS:2 + 2 * COUNTS])
    t, b = top.argmax(axis=1), bottom.argmax(axis=1)
    return [Answer(float(tile[i]), float(near[i]), int(t[i]), int(b[i]), float(top[i, t[i]]), float(bottom[i, b[i]]),
                   out[i, -5:].copy()) for i in range(len(out))]


def frame(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
    """Centre, unit vectors across (u) and along (n, from the top end to the bottom end),
    width and length of a box given as TileBox.corners ((+u,+n), (-u,+n), (-u,-n), (+u,-n))."""
    points = np.asarray(corners, np.float64).reshape(4, 2).tolist()
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = points
    ax, ay = (x0 + x1) / 2 - (x2 + x3) / 2, (y0 + y1) / 2 - (y2 + y3) / 2
    length = math.hypot(ax, ay)
    along = max(length, 1e-9)
    nx, ny = ax / along, ay / along
    width = abs((x0 - x1) * ny - (y0 - y1) * nx)  # across: u = (n_y, -n_x)
    return np.array(_centre(points)), np.array([ny, -nx]), np.array([nx, ny]), width, length


def box_corners(centre: np.ndarray, n: np.ndarray, width: float, length: float) -> np.ndarray:
    """TileBox.corners of the rectangle with that centre, long axis n, width and length."""
    u = np.array([n[1], -n[0]])
    hw, hl = width / 2 * u, length / 2 * n
    return np.array([centre + hw + hl, centre - hw + hl, centre - hw - hl, centre + hw - hl])


def moved(corners: np.ndarray, place: np.ndarray) -> np.ndarray:
    """The box moved onto the tile where the network places it (`Answer.place`: the
    tile's centre across and along the box in its widths and lengths, the logarithms of
    its width and length over the box's, and its turn from the box's axis in radians)."""
    c, u, n, w, ln = frame(corners)
    du, dn, lw, ll, turn = (float(v) for v in place)
    cos, sin = np.cos(turn), np.sin(turn)
    n2 = np.array([cos * n[0] - sin * n[1], sin * n[0] + cos * n[1]])
    return box_corners(c + du * w * u + dn * ln * n, n2, w * np.exp(lw), ln * np.exp(ll))
