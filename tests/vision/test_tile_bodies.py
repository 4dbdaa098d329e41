"""Tiles found by their bodies (vision/bodies.py): a tile whose divider is too faint for
the divider search still stands out from the table as a rectangle twice as long as wide."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision
from synthetic_photos import make_photo
from vision import bodies, dividers, reader

CASES = [("ivory", "felt", 1000), ("ivory", "dark", 1000), ("white_colour", "wood", 1000),
         ("ivory_spinner", "felt", 1000), ("white_colour", "dark", 1000)]


@pytest.fixture
def no_faint_look(monkeypatch):
    """The look for faint dividers off: what is found is found by the bodies."""
    monkeypatch.setattr(reader, "FAINT_THRESHOLD", dividers.MARK_THRESHOLD)


def _photo_bytes(style: str, background: str, seed: int):
    photo = make_photo(np.random.default_rng(seed), n_tiles=6, size=(1000, 750), style=style,
                       background=background, layout="scatter", divider="faint")
    return photo, photo.encode("jpeg", quality=90)


@pytest.mark.parametrize("style, background, seed", CASES)
def test_faint_dividers_on_a_table_read_by_the_bodies(style, background, seed, no_faint_look):
    photo, data = _photo_bytes(style, background, seed)
    hand = vision.read_hand(data)
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)


@pytest.mark.parametrize("style, background, seed", CASES)
def test_the_dividers_alone_miss_them(style, background, seed, no_faint_look, monkeypatch):
    photo, data = _photo_bytes(style, background, seed)
    monkeypatch.setattr(reader, "find_bodies", lambda work: [])
    hand = vision.read_hand(data)
    assert len(set(t.halves for t in hand.tiles) & set(photo.tiles)) < len(photo.tiles)


@pytest.mark.parametrize("style, background, seed", [("ivory", "wood", 1000), ("black", "cloth", 1000),
                                                      ("white_colour", "dark", 1002), ("ivory_spinner", "felt", 1000)])
def test_tiles_with_no_divider_to_be_seen(style, background, seed):
    """Worn off, or the face's colour: the body says it is a tile, and the halves are
    split at its middle."""
    photo = make_photo(np.random.default_rng(seed), n_tiles=6, size=(1000, 750), style=style,
                       background=background, layout="scatter", divider="none")
    hand = vision.read_hand(photo.encode("jpeg", quality=90))
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)


def _table_with(rects: list[tuple[tuple[float, float], tuple[float, float], float]], face=(225, 235, 240)):
    img = np.full((480, 640, 3), (40, 60, 90), np.uint8)
    for rect in rects:
        cv2.fillPoly(img, [cv2.boxPoints(rect).astype(np.int32)], face)
    return img


def test_a_lone_tile_gives_one_box_across_it():
    found = bodies.find_bodies(_table_with([((300, 200), (40, 80), 30)]))
    assert len(found) == 1
    box = found[0]
    assert box.width == pytest.approx(40, abs=2) and box.length == pytest.approx(80, abs=2)
    assert (box.cx, box.cy) == (pytest.approx(300, abs=1), pytest.approx(200, abs=1))
    # u runs across the tile: along the rectangle's 40 px side, turned 30 degrees
    across = np.array([np.cos(np.radians(30)), np.sin(np.radians(30))])
    assert abs(float(np.dot([box.ux, box.uy], across))) == pytest.approx(1, abs=0.02)


def test_blobs_that_are_not_tile_shaped_give_none():
    square, long_strip = ((150, 150), (80, 80), 0), ((400, 300), (30, 150), 0)
    img = _table_with([square, long_strip])
    cv2.circle(img, (500, 100), 40, (225, 235, 240), -1)
    assert bodies.find_bodies(img) == []


def test_two_tiles_touching_end_to_end_are_not_one_tile():
    """Together they are 4:1, not 2:1: the dividers are left to find them."""
    img = _table_with([((300, 200), (40, 80), 0), ((300, 280), (40, 80), 0)])
    assert all(b.length < 100 for b in bodies.find_bodies(img))
