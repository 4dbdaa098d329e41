"""Whole hands read exactly from realistic synthetic photos (every tile style and layout).

The generator (tests/synthetic_photos.py) draws real pip layouts with perspective, uneven
light, glare, shadows, blur and noise; the seeds below are hands the counter reads exactly
today, so a regression shows up here."""

from __future__ import annotations

import numpy as np
import pytest

import vision
from synthetic_photos import make_photo

CASES = [
    ("ivory", "scatter", 1000), ("ivory", "row", 1000), ("ivory", "grid", 1001),
    ("white_colour", "scatter", 1001), ("white_colour", "row", 1000), ("white_colour", "grid", 1002),
    ("black", "scatter", 1002), ("black", "row", 1001), ("black", "grid", 1000),
    ("ivory_spinner", "scatter", 1000), ("ivory_spinner", "row", 1002), ("ivory_spinner", "grid", 1001),
]


@pytest.mark.parametrize("style, layout, seed", CASES)
def test_synthetic_hand(style, layout, seed):
    photo = make_photo(np.random.default_rng(seed), n_tiles=6, size=(1000, 750), style=style, layout=layout)
    hand = vision.read_hand(photo.encode("jpeg", quality=90))
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)
    assert hand.pips == photo.total
    assert all(t.a >= t.b for t in hand.tiles)


def test_double_twelve_values():
    photo = make_photo(np.random.default_rng(1000), n_tiles=6, size=(1000, 750), style="white_colour",
                       layout="scatter")
    assert max(a for a, _ in photo.tiles) >= 10  # this seed has halves above nine
    hand = vision.read_hand(photo.encode("jpeg", quality=90))
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)


def test_bigger_photo_same_reading():
    """A 12 MP photo (decoded at reduced size) reads like its smaller version."""
    import cv2

    rng = np.random.default_rng(1000)
    photo = make_photo(rng, n_tiles=6, size=(1000, 750), style="ivory", layout="scatter")
    small = vision.read_hand(photo.encode("jpeg", quality=90))
    photo.bgr = cv2.resize(photo.bgr, (4000, 3000), interpolation=cv2.INTER_CUBIC)  # a 12 MP photo
    hand = vision.read_hand(photo.encode("jpeg", quality=85))
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles) == sorted(t.halves for t in small.tiles)
    assert (hand.width, hand.height) == (4000, 3000)
    for t in hand.tiles:  # outlines are in the original photo's pixels
        xs = [p[0] for p in t.polygon]
        assert max(xs) > 200 and max(xs) <= 4010
