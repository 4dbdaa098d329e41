"""Photos taken at an angle: the tiles found show the tilt, and the tile finder's boxes are
read as well (pipeline.needs_finder)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

import vision
from tools.generators.synthetic_photos import leaning_camera, make_photo, seen_at_angle
from vision import classical_look, perspective, pipeline
from vision.effort import Effort
from vision.loading import load_photo
from vision.result import LOW_CONFIDENCE

from .test_finder_look import _finder_runs
from .test_looks import quick_look_reads_nothing


def _tiles_seen_at(degrees: float, focal: float, n: int = 9, size=(1600, 1200)):
    """Tiles 60 units wide scattered on a table seen by a phone leaning `degrees`: their
    centres, areas and vectors across the divider in the photo."""
    w, h = size
    H = leaning_camera(size, degrees, focal)
    rng = np.random.default_rng(7)
    centres, areas, across = [], [], []
    for _ in range(n):
        x, y, a = rng.uniform(300, w - 300), rng.uniform(250, h - 250), rng.uniform(0, math.pi)
        u, v = np.array([math.cos(a), math.sin(a)]) * 30, np.array([-math.sin(a), math.cos(a)]) * 60
        quad = np.array([[x, y] + u + v, [x, y] - u + v, [x, y] - u - v, [x, y] + u - v])
        seen = cv2.perspectiveTransform(quad.reshape(-1, 1, 2), H).reshape(-1, 2)
        centres.append(seen.mean(axis=0))
        areas.append(cv2.contourArea(seen.astype(np.float32)))
        across.append(seen[0] - seen[1])
    return np.array(centres), np.array(areas), np.array(across)


def _widths_after(turn, centres, across):
    ends = np.concatenate([centres - across / 2, centres + across / 2]).reshape(-1, 1, 2)
    moved = cv2.perspectiveTransform(ends, turn).reshape(2, -1, 2)
    return np.hypot(*(moved[1] - moved[0]).T)


def test_the_turn_makes_the_tiles_about_as_wide_as_each_other():
    """Seen from above, the near tiles are no longer a fifth to a half wider than the
    far ones: at most an eighth (the estimate is damped, so a little of the tilt stays)."""
    for degrees, focal in ((35, 0.6), (25, 0.9), (-30, 0.7), (40, 0.7)):
        centres, areas, across = _tiles_seen_at(degrees, focal)
        before = np.hypot(*across.T)
        assert before.max() / before.min() > 1.19
        turn = perspective.fit_turn(centres, areas, across, 1600, 1200)
        assert turn is not None
        after = _widths_after(turn, centres, across)
        assert after.max() / after.min() - 1 < 0.3 * (before.max() / before.min() - 1), (degrees, focal)


def test_a_photo_taken_from_above_is_read_as_it_is():
    centres, areas, across = _tiles_seen_at(0, 0.7)
    assert perspective.fit_turn(centres, areas, across, 1600, 1200) is None


def test_a_row_of_tiles_is_not_given_a_tilt_it_does_not_show():
    """Tiles all at one distance from the camera (a row across the photo) tell nothing
    of a tilt along it: none is made up."""
    centres = np.array([[400.0 + 90 * i, 600.0] for i in range(8)])
    across = np.tile([[60.0, 0.0]], (8, 1))
    areas = np.full(8, 7200.0) * np.random.default_rng(1).uniform(0.95, 1.05, 8)
    assert perspective.fit_turn(centres, areas, across, 1600, 1200) is None


def _read_exactly_leaning(seeds: range, n_tiles: int) -> int:
    """How many hands of `n_tiles` (a seed each, the styles in turn) are read exactly
    when a phone leaning 35 degrees photographs them."""
    exact = 0
    for seed in seeds:
        photo = make_photo(np.random.default_rng(seed), n_tiles=n_tiles, size=(1200, 900),
                           style=("ivory", "white_colour", "black", "ivory_spinner")[seed % 4])
        leaning = seen_at_angle(photo, 35)
        hand = vision.read_hand(leaning.encode("jpeg", quality=90))
        exact += sorted(t.halves for t in hand.tiles) == sorted(leaning.tiles)
    return exact


def test_hands_photographed_leaning_over_the_table():
    """A seated player photographs the hand at an angle: the far tiles are smaller and
    every tile is a squeezed trapezoid. Of 16 such hands of 8 tiles (every style), seen
    by a phone leaning 35 degrees, at least 14 are read exactly (15 are; turning such
    photos to the view from above and reading them again, in place of the finder's
    boxes, reads 14; neither, 12)."""
    assert _read_exactly_leaning(range(3000, 3016), n_tiles=8) >= 14


def test_outlines_stay_on_the_photo_when_read_at_an_angle():
    """The tiles read are outlined where they lie on the photo taken. (The warp that
    makes this photo draws the table on past the original frame by repeating its edge,
    which smears a tile near it into a streaked white shape: read as a blank, it is
    marked for checking.)"""
    photo = seen_at_angle(make_photo(np.random.default_rng(3001), n_tiles=8, size=(1200, 900), style="white_colour"), 35)
    hand = vision.read_hand(photo.encode("jpeg", quality=90))
    sure = [t for t in hand.tiles if t.confidence >= LOW_CONFIDENCE]
    assert sorted(t.halves for t in sure) == sorted(photo.tiles)
    assert all(t.halves == (0, 0) for t in hand.tiles if t not in sure)
    for tile in sure:  # each outline lies on its tile in the photo
        centre = np.mean(tile.polygon, axis=0)
        assert min(np.hypot(*(centre - p.mean(axis=0))) for p in photo.polygons) < 15


def test_close_ups_photographed_leaning_over_the_table():
    """Four big tiles seen by a phone leaning 35 degrees. Of 16 such hands, at least 15
    are read exactly (all 16 are)."""
    assert _read_exactly_leaning(range(4000, 4016), n_tiles=4) >= 15


def test_a_hand_seen_at_an_angle_is_given_the_finder_s_boxes(monkeypatch):
    """Eight tiles seen leaning 35 degrees, read by the classical looks (the quick look
    made to read nothing), some doubtfully at the first look: their sizes show the
    tilt, so the finder's boxes are read too, and every tile is read."""
    quick_look_reads_nothing(monkeypatch)
    runs = _finder_runs(monkeypatch)
    photo = seen_at_angle(make_photo(np.random.default_rng(3002), n_tiles=8, size=(1200, 900), style="black"), 35)
    data = photo.encode("jpeg", quality=90)
    detail = load_photo(data).bgr
    first, _ = classical_look.first_looks(detail, Effort())
    assert pipeline.needs_finder(detail, first)
    hand = vision.read_hand(data)
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)
    assert runs == [1]


@pytest.mark.parametrize("seed", [3004, 3005])
def test_tiles_all_read_surely_are_not_given_the_finder_s_boxes(seed, monkeypatch):
    """A hand seen leaning, read by the classical looks (the quick look made to read
    nothing), whose tiles all read surely at the first look is read without the finder:
    on the development sets further looks at such photos find no more tiles."""
    quick_look_reads_nothing(monkeypatch)
    runs = _finder_runs(monkeypatch)
    photo = make_photo(np.random.default_rng(seed), n_tiles=8, size=(1200, 900),
                       style=("ivory", "white_colour", "black", "ivory_spinner")[seed % 4])
    leaning = seen_at_angle(photo, 35)
    hand = vision.read_hand(leaning.encode("jpeg", quality=90))
    assert sorted(t.halves for t in hand.tiles) == sorted(leaning.tiles)
    assert runs == []
