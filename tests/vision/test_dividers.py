"""The divider finder on a busy background: creased leather makes hundreds of marks, and
only the straightest are examined, so a divider among long creases is still found."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.dividers import MARK_THRESHOLD, find_bars, map_pyramid
from vision.classical_look import FAINT_THRESHOLD


def _creased(rng: np.random.Generator) -> np.ndarray:
    """A light table with a bent dark crease in each cell of a grid, each crease spanning a
    little more than the divider drawn in the middle cell."""
    img = np.full((720, 960, 3), 200, np.uint8)
    for y in range(24, 720, 48):
        for x in range(24, 960, 48):
            start = float(rng.uniform(0, 360))
            cv2.ellipse(img, (x, y), (20, 20), 0, start, start + 100, (60, 60, 60), 2)
    return img


def test_divider_among_long_creases_is_found():
    img = _creased(np.random.default_rng(3))
    # a tile's divider, 30 pixels long and 3 thick, on a clear patch of the table
    cv2.rectangle(img, (432, 336), (527, 383), (200, 200, 200), -1)
    cv2.line(img, (465, 360), (494, 360), (40, 40, 40), 3)
    bars, busy = find_bars(img, levels=1)  # the finest level, where the creases are
    assert busy  # more marks than are examined
    near = [b for b in bars if not b.half and math.hypot(b.cx - 479.5, b.cy - 360) < 4]
    assert near, "the divider was not among the marks examined"
    assert any(abs(b.length - 30) <= 4 and abs(b.uy) < 0.1 for b in near)


def test_plain_table_is_not_busy():
    img = np.full((480, 640, 3), 200, np.uint8)
    cv2.line(img, (300, 240), (339, 240), (40, 40, 40), 3)
    bars, busy = find_bars(img)
    assert not busy
    assert any(abs(b.length - 40) <= 4 for b in bars if not b.half)


@pytest.mark.parametrize("threshold", [MARK_THRESHOLD, FAINT_THRESHOLD])
def test_bars_found_on_contrast_maps_made_before_are_the_same(threshold):
    """The looks at two thresholds share the contrast maps (map_pyramid): the bars found
    on them are those found on the image, at either threshold and any number of levels."""
    img = _creased(np.random.default_rng(3))
    cv2.line(img, (465, 360), (494, 360), (40, 40, 40), 3)
    maps = map_pyramid(img)
    for levels in (1, 4):
        assert repr(find_bars(img, levels, threshold, maps=maps)) == repr(find_bars(img, levels, threshold))
