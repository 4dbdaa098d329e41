"""Tiles found by their bodies (vision/bodies.py): a tile whose divider is too faint for
the divider search still stands out from the table as a rectangle twice as long as wide,
and a row of them touching side by side as a block of such."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vision
from tools.generators.synthetic_photos import make_photo
from vision import bodies, classical_look, dividers, set_consensus
from vision.loading import load_photo
from vision.result import LOW_CONFIDENCE

CASES = [("ivory", "felt", 1000), ("ivory", "dark", 1000), ("white_colour", "wood", 1000),
         ("ivory_spinner", "felt", 1000), ("white_colour", "dark", 1000)]


@pytest.fixture
def no_faint_look(monkeypatch):
    """The look for faint dividers off: what is found is found by the bodies."""
    monkeypatch.setattr(classical_look, "FAINT_THRESHOLD", dividers.MARK_THRESHOLD)


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
    """Of the classical looks (the tile network may find them from other boxes)."""
    photo, data = _photo_bytes(style, background, seed)
    monkeypatch.setattr(classical_look, "find_bodies", lambda work: ([], []))
    assert len(set(_classical_tiles(data)) & set(photo.tiles)) < len(photo.tiles)


def _classical_tiles(data: bytes) -> list[tuple[int, int]]:
    """The tiles the classical looks read, before the tile network's reading."""
    kept = classical_look.analyse(load_photo(data))
    return [tuple(sorted((c.reading.top.count, c.reading.bottom.count), reverse=True)) for c in kept]


@pytest.mark.parametrize("style, background, seed", [("ivory", "wood", 1000), ("black", "cloth", 1000),
                                                      ("white_colour", "dark", 1002), ("ivory_spinner", "felt", 1000)])
def test_tiles_with_no_divider_to_be_seen(style, background, seed):
    """Worn off, or the face's colour: the body says it is a tile, and the halves are
    split at its middle. (The generator leaves tiles of no hand half off the photo: the
    finder, given this photo when its tiles' sizes showed a tilt, finds one of them, and
    the network's reading of it is marked for checking, its pips cut off by the frame.)"""
    photo = make_photo(np.random.default_rng(seed), n_tiles=6, size=(1000, 750), style=style,
                       background=background, layout="scatter", divider="none")
    hand = vision.read_hand(photo.encode("jpeg", quality=90))
    sure = [t for t in hand.tiles if t.confidence >= LOW_CONFIDENCE]
    assert sorted(t.halves for t in sure) == sorted(photo.tiles)
    for t in hand.tiles:
        if t not in sure:  # off the photo by more than network_look.OFF_PHOTO of its width
            assert min(min(x, y, 1000 - x, 750 - y) for x, y in t.polygon) < 0


def _table_with(rects: list[tuple[tuple[float, float], tuple[float, float], float]], face=(225, 235, 240)):
    img = np.full((480, 640, 3), (40, 60, 90), np.uint8)
    for rect in rects:
        cv2.fillPoly(img, [cv2.boxPoints(rect).astype(np.int32)], face)
    return img


def test_a_lone_tile_gives_one_box_across_it():
    found, _ = bodies.find_bodies(_table_with([((300, 200), (40, 80), 30)]))
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
    tiles, _ = bodies.find_bodies(img)
    assert tiles == []


def test_two_tiles_touching_end_to_end_are_not_one_tile():
    """Together they are 4:1, not 2:1: the dividers are left to find them."""
    img = _table_with([((300, 200), (40, 80), 0), ((300, 280), (40, 80), 0)])
    tiles, blocks = bodies.find_bodies(img)
    assert all(b.length < 100 for b in tiles)
    assert all(bodies.split_block(b) == [] for b in blocks)


def test_a_row_of_touching_tiles_is_split_into_them():
    img = _table_with([((320, 240), (240, 80), 20)])  # six tiles 40 wide, 80 long, side by side
    tiles, blocks = bodies.find_bodies(img)
    assert tiles == [] and len(blocks) == 1
    for width in (None, 40.0, 42.0):  # half the depth, or the width the tiles read say
        split = bodies.split_block(blocks[0], width)
        assert len(split) == 6
        assert all(b.width == pytest.approx(40, abs=2) and b.length == pytest.approx(80, abs=2) for b in split)
        # side by side along the row, turned as it is (u, across each tile, runs along the row)
        along = np.array([np.cos(np.radians(20)), np.sin(np.radians(20))])
        steps = np.diff([[b.cx, b.cy] for b in split], axis=0)
        assert np.allclose(np.abs(steps @ along), 40, atol=2)
        assert all(abs(float(np.dot([b.ux, b.uy], along))) > 0.98 for b in split)


def test_four_tiles_side_by_side_look_like_one_tile_until_the_width_is_known():
    """Four tiles 40 wide side by side are a 160 x 80 blob, 2:1 like one tile: it is found
    as a tile, and split once tiles read elsewhere say how wide the set's tiles are."""
    tiles, blocks = bodies.find_bodies(_table_with([((320, 240), (160, 80), 10), ((100, 100), (40, 80), 10)]))
    assert blocks == [] and len(tiles) == 2
    row, lone = sorted(tiles, key=lambda b: -b.width)
    assert len(bodies.split_block(row, lone.width)) == 4
    assert bodies.split_block(lone, lone.width) == []


def test_a_row_of_five_is_split_at_a_width_read_a_little_short():
    """The width comes from a tile read elsewhere, often a few per cent short of its blob:
    five tiles 32 wide side by side are still split at 30 (a 160 px row is 5.3 of those),
    but not at 36, the width of another set."""
    tiles, blocks = bodies.find_bodies(_table_with([((320, 240), (160, 64), 15)]))
    row = (tiles + blocks)[0]
    split = bodies.split_block(row, 30.0)
    assert len(split) == 5 and all(b.width == pytest.approx(32, abs=2) for b in split)
    assert bodies.split_block(row, 36.0) == []


def test_a_block_of_another_size_is_not_split():
    """Tiles read 60 wide elsewhere: a 200 x 80 block is not made of them (a book, a
    tray); with no width known, a square is not split either: it is as often half a tile."""
    tiles, blocks = bodies.find_bodies(_table_with([((320, 240), (200, 80), 0), ((100, 100), (60, 60), 0)]))
    row = max(blocks, key=lambda b: b.length)
    assert bodies.split_block(row, 60.0) == []
    square = min(blocks, key=lambda b: b.length)
    assert bodies.split_block(square) == []


@pytest.mark.parametrize("style, background, seed", [("ivory", "felt", 1000), ("ivory_spinner", "dark", 1000)])
def test_rows_of_touching_tiles_with_no_divider(style, background, seed, monkeypatch):
    """A row of tiles touching side by side, no divider to be seen: its blob is split (by
    the classical looks; the tile network judges every split of it as well)."""
    photo = make_photo(np.random.default_rng(seed), n_tiles=5, size=(1000, 750), style=style,
                       background=background, layout="row", divider="none")
    data = photo.encode("jpeg", quality=90)
    assert sorted(t.halves for t in vision.read_hand(data).tiles) == sorted(photo.tiles)
    right = len(set(_classical_tiles(data)) & set(photo.tiles))
    monkeypatch.setattr(set_consensus, "split_block", lambda block, width=None: [])
    unsplit = len(set(_classical_tiles(data)) & set(photo.tiles))
    assert right >= 3 and unsplit <= 1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 640), st.floats(0, 480), st.floats(0, math.pi), st.floats(10, 120),
                          st.floats(1.0, 2.6)), min_size=2, max_size=30))
def test_the_grid_finds_every_box_that_overlaps(rects):
    """bodies._Grid looks for overlapping blobs only in nearby cells (gingham makes
    thousands of them): no overlapping pair may be missed, or one tile is kept twice."""
    boxes = [bodies._box(x, y, math.cos(a), math.sin(a), w, w * r) for x, y, a, w, r in rects]
    grid = bodies._Grid(boxes[1:])
    near = grid.near(boxes[0])
    for other in boxes[1:]:
        if bodies.overlap(boxes[0], other) > 0:
            assert other in near


def test_a_gingham_cloth_makes_no_blocks():
    """Gingham's squares are solid blobs that are not 2:1, hundreds at every cut: they
    are the cloth, not tiles side by side, and sorting them out took half a second."""
    img = np.full((480, 640, 3), 235, np.uint8)
    for k in range(0, 640, 24):
        img[:, k:k + 12] //= 2
    for k in range(0, 480, 24):
        img[k:k + 12] //= 2
    _, blocks = bodies.find_bodies(img)
    assert blocks == []


def test_every_split_of_a_chain_and_of_a_square_is_shown_to_the_network():
    """Three tiles 40 x 80 end to end make a 240 x 40 blob: among its splits are the three
    tiles, each across the chain's line; a 80 x 80 square is split as two tiles side by side."""
    _, blocks = bodies.find_bodies(_table_with([((320, 120), (240, 40), 0), ((200, 330), (80, 80), 0)]))
    chain = max(blocks, key=lambda b: b.length)
    tiles = [b for b in bodies.every_split(chain) if abs(b.width - 40) < 4 and abs(b.length - 80) < 4]
    assert sorted(round(b.cx / 10) for b in tiles) == [24, 32, 40]
    assert all(abs(b.ux) < 0.1 for b in tiles)  # the divider runs across the chain's line
    square = min(blocks, key=lambda b: b.length)
    pairs = [b for b in bodies.every_split(square) if abs(b.width - 40) < 4 and abs(b.length - 80) < 4]
    assert len(pairs) == 4  # two side by side, one way or the other


def test_a_chain_of_five_widened_by_its_shadow_is_split_into_five():
    """Five black tiles 30 x 60 end to end, with a shadow that makes their blob 42 deep:
    the blob is 7 depths long, which says four tiles of 84 (a real photo's chain of five
    read as none); the split into five is shown to the network as well."""
    img = np.full((480, 640, 3), (150, 180, 200), np.uint8)
    cv2.fillPoly(img, [cv2.boxPoints(((320, 246), (300, 42), 0)).astype(np.int32)], (70, 80, 90))  # shadow
    cv2.fillPoly(img, [cv2.boxPoints(((320, 240), (300, 30), 0)).astype(np.int32)], (20, 20, 20))
    _, blocks = bodies.find_bodies(img)
    chain = max(blocks, key=lambda b: b.length)
    assert chain.width > 38  # the shadow is in the blob
    tiles = [b for b in bodies.every_split(chain) if abs(b.length - 60) < 4]
    assert sorted(round(b.cx / 10) for b in tiles) == [20, 26, 32, 38, 44]
