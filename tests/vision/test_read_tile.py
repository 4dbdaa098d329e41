"""One tile, already warped upright, counted half by half (vision.pips.read_tile)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tools.generators.synthetic_photos import _draw_tile
from vision.pips import COLOUR_BIN, CW, dominant_colour, median_colour, read_tile


def _upright_tile(a: int, b: int, background=(200, 200, 205), style: str = "ivory", pale: bool = False,
                  seed: int = 3) -> np.ndarray:
    tile, alpha = _draw_tile(np.random.default_rng(seed), a, b, CW, style, pale)
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


@pytest.mark.parametrize("a, b", [(9, 9), (6, 4)])
def test_a_thin_arc_of_shading_is_not_two_pips(a, b):
    """A thin line of shade just inside the box's outline round one half (the bevel of a
    tile a little bigger than the box), of two pips' area but filling little of its hull:
    not pips run together."""
    img = _upright_tile(a, b)
    leg = CW // 2 - 2
    rim = np.array([[3, leg], [3, 3], [CW - 4, 3], [CW - 4, leg]], np.int32)
    cv2.polylines(img, [rim], False, (120, 120, 125), 2)
    reading = read_tile(img)
    assert (reading.top.count, reading.bottom.count) == (a, b)


def _shaded_across(img: np.ndarray, depth: float) -> np.ndarray:
    """The tile lit from above: darker along its middle than at its sides, by `depth`."""
    x = (np.arange(img.shape[1], dtype=np.float32) + 0.5) / img.shape[1] - 0.5
    gain = 1.0 - depth * (1.0 - 4.0 * x * x)
    return np.clip(img * gain[None, :, None], 0, 255).astype(np.uint8)


@pytest.mark.parametrize("a, b", [(6, 6), (6, 4), (9, 2), (4, 0)])
def test_a_face_darker_along_its_middle_has_no_extra_pip(a, b):
    """The strip between two columns of pips, in shade, is no pip (on a real photo, a
    [6|6] reads [7|6] where the face's lightness is fitted as a plane alone)."""
    reading = read_tile(_shaded_across(_upright_tile(a, b), 0.22))
    assert (reading.top.count, reading.bottom.count) == (a, b)


@pytest.mark.parametrize("a, b", [(12, 12), (12, 9), (11, 10)])
def test_pale_grey_pips_do_not_shape_the_face(a, b):
    """The face's shading is fitted without its pips: a pale grey 12, as far from the face
    as a shaded strip, must stay a pip."""
    img = _upright_tile(a, b, background=(90, 110, 130), style="white_colour", pale=True, seed=5)
    reading = read_tile(_shaded_across(img, 0.12))
    assert (reading.top.count, reading.bottom.count) == (a, b)


def _wood_grain(seed: int = 5) -> np.ndarray:
    """A box of wood grain: brown, with streaks along it and knots of every size."""
    rng = np.random.default_rng(seed)
    streaks = rng.normal(0, 1, (2 * CW, CW)).astype(np.float32)
    streaks = cv2.GaussianBlur(streaks, (0, 0), sigmaX=0.8, sigmaY=6.0)
    light = 120 + 90 * streaks / streaks.std()
    img = np.clip(np.stack([light * 0.45, light * 0.7, light], axis=2), 0, 255).astype(np.uint8)
    return img


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_wood_grain_is_not_a_tile(seed):
    """Most boxes tried on a photo hold no tile; read_tile gives them up (None), whatever
    their streaks would count as."""
    assert read_tile(_wood_grain(seed)) is None


def test_a_tile_with_a_thirteenth_pip_is_not_a_tile():
    """No half of a double-twelve set has more than twelve pips: a box whose half counts
    more is not a tile of the set (it takes in a neighbour's pips)."""
    img = _upright_tile(12, 0)
    whole = read_tile(img)
    assert (whole.top.count, whole.bottom.count) == (12, 0)
    for x, y in [(0.25, 0.75), (0.75, 0.75), (0.5, 0.6), (0.5, 0.9), (0.25, 0.6), (0.75, 0.9), (0.25, 0.9),
                 (0.75, 0.6), (0.5, 0.75), (0.38, 0.67), (0.62, 0.67), (0.38, 0.83), (0.62, 0.83)]:
        cv2.circle(img, (int(x * CW), int(y * 2 * CW)), 3, (20, 20, 20), -1)
    assert read_tile(img) is None


@pytest.mark.parametrize("face", [(82.0, 1.0, 9.0), (20.0, -30.0, -45.0), (60.0, 40.0, -5.0)])
def test_a_face_s_colour_is_its_bare_part_s_even_when_big_pips_cover_most_of_it(face):
    """A 9's big pips cover more than half of a half: the colour of the face is still the
    bare part's, all of one colour, not the pips' shaded spread (pips.dominant_colour)."""
    rng = np.random.default_rng(7)
    bare = np.float32(face) + rng.normal(0, 0.8, (400, 3)).astype(np.float32)
    pips = rng.uniform([5, -60, -60], [40, 60, 60], (600, 3)).astype(np.float32)
    colour = dominant_colour(np.concatenate([pips, bare]))
    assert np.abs(colour - np.float32(face)).max() < 1.0


def test_of_two_colours_as_common_the_face_s_is_the_first_in_lightness_then_hue_order():
    """Ties between colour bins are settled one way, the same on every read: the bin first
    in (L, a, b) order, as sorting the bins finds it (np.unique, which the count replaced)."""
    rng = np.random.default_rng(5)
    for _ in range(300):
        values = [-40.0, -7.0, 0.0, 5.9, 6.0, 30.0, 80.0]
        pixels = rng.choice(values, size=(int(rng.integers(2, 12)), 3)).astype(np.float32)
        q = np.floor(pixels / COLOUR_BIN).astype(np.int32)
        keys, counts = np.unique(q, axis=0, return_counts=True)
        near = (np.abs(q - keys[np.argmax(counts)]) <= 1).all(axis=1)
        assert np.array_equal(dominant_colour(pixels), median_colour(pixels[near]))
