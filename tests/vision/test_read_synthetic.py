"""Whole hands read exactly from realistic synthetic photos (every tile style and layout).

The generator (tools/generators/synthetic_photos.py) draws real pip layouts with
perspective, uneven light, glare, shadows, blur and noise; the seeds below are hands the
counter reads exactly, so a regression shows up here."""

from __future__ import annotations

import numpy as np
import pytest

import vision
from tools.generators.synthetic_photos import make_photo
from vision.result import LOW_CONFIDENCE

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


def _photographed_at_an_angle(photo):
    """The same hand seen by a phone tilted towards the table: the far side of the photo
    is a quarter narrower, so tiles turned at an angle are sheared, not rectangles."""
    import cv2

    h, w = photo.bgr.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[0.12 * w, 0], [0.88 * w, 0], [w, h], [0, h]])
    matrix = cv2.getPerspectiveTransform(src, dst)
    photo.bgr = cv2.warpPerspective(photo.bgr, matrix, (w, h), borderMode=cv2.BORDER_REPLICATE)
    return photo


@pytest.mark.parametrize("seed", [2000, 2001, 2003])
def test_hand_photographed_at_an_angle(seed):
    photo = make_photo(np.random.default_rng(seed), n_tiles=6, size=(1000, 750), style="ivory", layout="scatter",
                       degrade=False)
    photo = _photographed_at_an_angle(photo)
    hand = vision.read_hand(photo.encode("jpeg", quality=90))
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)


@pytest.mark.parametrize("seed", [2000, 2001, 2003])
def test_pale_pips_beside_dark_ones(seed):
    """Pale grey twelves and light blue ones on the same tiles as dark red nines. (The
    generator's tilt mirrors the photo at its frame, and a tile near it shows as a tile
    cut by the frame: read, it is marked for checking.)"""
    photo = make_photo(np.random.default_rng(seed), n_tiles=8, size=(1000, 750), style="white_colour", layout="grid",
                       pale=True)
    hand = vision.read_hand(photo.encode("jpeg", quality=90))
    assert sorted(t.halves for t in hand.tiles if t.confidence >= LOW_CONFIDENCE) == sorted(photo.tiles)


@pytest.mark.parametrize("seed", [2003, 2011])
def test_spinner_tiles_at_any_angle(seed):
    """A brass spinner splits the divider into two short halves, read as one divider."""
    photo = make_photo(np.random.default_rng(seed), n_tiles=8, size=(1000, 750), style="ivory_spinner",
                       layout="scatter")
    hand = vision.read_hand(photo.encode("jpeg", quality=90))
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)


@pytest.mark.parametrize("seed", range(6))
def test_pink_tiles_on_streaked_floorboards(seed):
    """Floorboards streaked with grain make hundreds of divider-like marks, and the pink
    face between yellow pips and a yellow divider must not join them in one blob: every
    tile is read, and no streak in a patch of bare wood is read as a blank tile."""
    rng = np.random.default_rng(seed)
    photo = make_photo(rng, n_tiles=int(rng.integers(2, 5)), style="pink", background="planks")
    hand = vision.read_hand(photo.encode("jpeg", quality=90))
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)


@pytest.mark.parametrize("style, background, seed", [("ivory", "wood", 2000), ("white_colour", "wood", 2001),
                                                      ("ivory", "felt", 2007)])
def test_blank_with_a_fine_divider_among_tiles_read_surely(style, background, seed):
    """A [1|0] or [0|0] whose divider is a fine engraved line (it stands out from the
    face by 20 to 40, as a streak of wood grain does) is kept when it is the size of the
    tiles read surely and nearly all of it their faces' colour: a streak is the table's."""
    photo = make_photo(np.random.default_rng(seed), n_tiles=6, size=(1000, 750), style=style,
                       background=background, layout="scatter", divider="faint")
    assert any(a + b <= 1 for a, b in photo.tiles)
    hand = vision.read_hand(photo.encode("jpeg", quality=90))
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)


@pytest.mark.parametrize("style, background, seed", [("ivory", "felt", 3008), ("white_colour", "wood", 3000),
                                                      ("black", "wood", 3009)])
def test_blank_of_a_set_whose_dividers_cannot_be_seen(style, background, seed):
    """With no divider to be seen on any tile, every tile is found by its body and none
    reads surely; a [1|0] or [0|0] is then kept when it is like the tiles with pips read
    cleanly that way: their size, and nearly all of it their faces' colour."""
    photo = make_photo(np.random.default_rng(seed), n_tiles=6, size=(1000, 750), style=style,
                       background=background, layout="scatter", divider="none")
    assert any(a + b <= 1 for a, b in photo.tiles)
    hand = vision.read_hand(photo.encode("jpeg", quality=90))
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)


@pytest.mark.parametrize("style, seed", [("black", 4002), ("ivory", 4004)])
def test_tiles_whose_near_side_wall_shows(style, seed):
    """Photographed at a steep angle, a thick tile shows its near side wall below its
    face, in the face's colour a shade darker; with no divider to be seen, the tile is
    found by its body, which takes the wall in, and is read on its face without it."""
    photo = make_photo(np.random.default_rng(seed), n_tiles=6, size=(1000, 750), style=style, background="felt",
                       layout="scatter", divider="none", wall=0.2)
    hand = vision.read_hand(photo.encode("jpeg", quality=90))
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)
