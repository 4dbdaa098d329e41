"""One tile, already warped upright, counted half by half (vision.pips.read_tile)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from synthetic_photos import _draw_tile
from vision.pips import CW, read_tile


def _upright_tile(a: int, b: int, background=(200, 200, 205)) -> np.ndarray:
    tile, alpha = _draw_tile(np.random.default_rng(3), a, b, CW, "ivory", False)
    img = tile * alpha[..., None] + np.float32(background) * (1 - alpha[..., None])
    return img.astype(np.uint8)


@pytest.mark.parametrize("corner", [(0, 2 * CW - 1), (CW - 1, 0), (0, 0), (CW - 1, 2 * CW - 1)])
def test_shadow_in_a_corner_is_not_a_pip(corner):
    """A box a little too big takes in a corner of a neighbour's shadow; no layout puts a
    pip in the very corner, so the count is the same as without it."""
    img = _upright_tile(3, 0)
    cv2.circle(img, corner, 11, (60, 60, 65), -1)
    reading = read_tile(img)
    assert (reading.top.count, reading.bottom.count) == (3, 0)
    assert reading.confidence > 0.7


@pytest.mark.parametrize("a, b", [(12, 10), (9, 2), (6, 6), (2, 0)])
def test_corner_pips_of_every_layout_still_count(a, b):
    reading = read_tile(_upright_tile(a, b))
    assert (reading.top.count, reading.bottom.count) == (a, b)
