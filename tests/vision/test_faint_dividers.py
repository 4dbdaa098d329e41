"""Sets whose divider is a fine engraved line, barely darker than the face: at the
working size it is a pixel wide, and the usual marks threshold does not see it. The
classical looks then look again with a lower threshold (classical_look.FAINT_THRESHOLD),
or, where the first look's tiles are small or show a tilt, the tile finder's boxes are
read (pipeline.needs_finder: two of these photos)."""

from __future__ import annotations

import numpy as np
import pytest

import vision
from tools.generators.synthetic_photos import make_photo
from vision import classical_look, dividers
from vision.loading import load_photo

from .test_looks import quick_look_reads_nothing

CASES = [("ivory_spinner", 1000), ("ivory_spinner", 1002), ("ivory", 1000), ("ivory", 1003), ("white_colour", 1003)]


def _faint_photo(style: str, seed: int):
    return make_photo(np.random.default_rng(seed), n_tiles=6, size=(1000, 750), style=style, background="paper",
                      divider="faint")


@pytest.mark.parametrize("style, seed", CASES)
def test_faint_dividers_read_exactly(style, seed):
    photo = _faint_photo(style, seed)
    hand = vision.read_hand(photo.encode("jpeg", quality=90))
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)


@pytest.mark.parametrize("style, seed", CASES)
def test_the_usual_threshold_alone_misses_them(style, seed, monkeypatch):
    """Of the classical looks alone (classical_look.analyse), the one with the lower threshold is
    what finds these tiles (the tile network, reading their boxes and the finder's after,
    may find them too)."""
    photo = _faint_photo(style, seed)
    monkeypatch.setattr(classical_look, "FAINT_THRESHOLD", dividers.MARK_THRESHOLD)
    data = photo.encode("jpeg", quality=90)
    kept = classical_look.analyse(load_photo(data))
    assert len(kept) < len(photo.tiles)


def _thresholds_looked_at(monkeypatch) -> list[int]:
    """A list that gains the marks threshold of every classical look made."""
    thresholds = []
    look = classical_look.look

    def spy(detail, threshold=dividers.MARK_THRESHOLD, working=None, *, effort, until_small=False):
        thresholds.append(threshold)
        return look(detail, threshold, working, effort=effort, until_small=until_small)

    monkeypatch.setattr(classical_look, "look", spy)
    return thresholds


def test_painted_dividers_are_looked_at_once(monkeypatch):
    """Clear dividers do not pay for the second look (the classical looks reading the
    photo: the quick look made to read nothing)."""
    quick_look_reads_nothing(monkeypatch)
    thresholds = _thresholds_looked_at(monkeypatch)
    photo = make_photo(np.random.default_rng(1000), n_tiles=6, size=(1000, 750), style="ivory", layout="scatter")
    hand = vision.read_hand(photo.encode("jpeg", quality=90))
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)
    assert classical_look.FAINT_THRESHOLD not in thresholds


def test_the_look_for_faint_dividers_shares_the_first_look_s_working_image(monkeypatch):
    """Both looks are at the working size: its image, edge field and marks' contrast maps
    are made once for the two (classical_look.Working), and the tiles are read as before (the
    classical looks reading the photo: the quick look made to read nothing)."""
    quick_look_reads_nothing(monkeypatch)
    thresholds, maps, fields = _thresholds_looked_at(monkeypatch), [], []
    pyramid, field = classical_look.map_pyramid, classical_look.EdgeField
    monkeypatch.setattr(classical_look, "map_pyramid", lambda image: maps.append(image.shape) or pyramid(image))
    monkeypatch.setattr(classical_look, "EdgeField", lambda image: fields.append(image.shape) or field(image))
    photo = _faint_photo("ivory", 1000)
    hand = vision.read_hand(photo.encode("jpeg", quality=90))
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)
    assert thresholds == [dividers.MARK_THRESHOLD, classical_look.FAINT_THRESHOLD]
    assert len(maps) == len(fields) == 1
