"""Hands photographed as they are held at the end of a round: tiles standing on their long
edge, faces toward a phone held at the seat, 10 to 45 degrees above the table, with the
tiles' top and end walls in sight, face-down tiles of the boneyard and a coin or a card
nearby (tools/generators/standing_hands.py). The walls and the face-down tiles are never
read as tiles."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import vision
from tools.generators.standing_hands import render, save

#: (seed, scheme, table, degrees above the table, tiles): ivory tiles on pale tables, where
#: faces and walls blend into the table, low and high angles, rows and arcs, small to full hands.
SCENES = [
    (1, "ivory_colour", "marble", 15, 7),
    (2, "ivory_colour", "white_laminate", 25, 9),
    (3, "ivory_black", "marble", 40, 5),
    (11, "ivory_black", "wood", 12, 11),
    (5, "white_colour", "felt_green", 30, 8),
    (12, "black_white", "white_laminate", 20, 6),
    (7, "white_black", "cloth_gingham", 35, 10),
    (8, "ivory_colour", "wood_dark", 45, 4),
    (9, "ivory_colour", "paper", 18, 12),
    (13, "white_colour", "marble", 30, 16),
    (14, "ivory_colour", "marble", 30, 18),
]


def _tiles(truth: str) -> Counter:
    return Counter(tuple(int(n) for n in tile.split("-")) for tile in truth.split())


@pytest.mark.parametrize("seed, scheme, table, degrees, count", SCENES)
def test_a_standing_hand_is_read_exactly(tmp_path, seed, scheme, table, degrees, count):
    rng = np.random.default_rng([4242, seed])
    pixels, truth, meta = render(rng, size=(2016, 1512), scheme=scheme, table=table, elevation=degrees, tiles=count)
    path = tmp_path / "hand.jpg"
    save(pixels, path, rng)
    hand = vision.read_hand(path.read_bytes())
    assert Counter((t.a, t.b) for t in hand.tiles) == _tiles(truth), meta



def test_a_twelve_megapixel_photo_stored_turned_is_read_upright(tmp_path):
    """As a phone stores a photo: 12 MP, turned a quarter, with the EXIF tag that turns it
    back; the outlines are given on the upright photo."""
    rng = np.random.default_rng([4242, 20])
    pixels, truth, meta = render(rng, size=(4032, 3024), scheme="ivory_colour", table="marble", elevation=22,
                                 tiles=8)
    path = tmp_path / "hand.jpg"
    save(pixels, path, rng, turn=6)
    hand = vision.read_hand(path.read_bytes())
    assert Counter((t.a, t.b) for t in hand.tiles) == _tiles(truth), meta
    faces = [np.array([float(v) for v in quad.split(",")]).reshape(4, 2).mean(axis=0)
             for quad in meta["corners"].split()]
    for tile in hand.tiles:  # each outline lies on a face of the upright photo
        centre = np.array(tile.polygon, float).mean(axis=0)
        assert min(np.hypot(*(centre - face)) for face in faces) < 0.5 * float(meta["face_height_px"])
