"""Busy photos, and photos of small tiles decoded at a reduced size, are read by the
quick look (the tile finder's boxes read by the tile network); the others, and those it
reads no tile on, by the classical looks."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np
from PIL import Image

import vision
from synthetic_photos import make_photo
from vision import finder_look, reader, tile_finder
from vision.loading import load_photo

sys.path.append(str(Path(__file__).resolve().parents[1] / "bench"))
import harsh_photos  # noqa: E402  (tests/bench: the harsh generator, run by hand otherwise)


def _harsh(seed: int, index: int) -> tuple[bytes, list[tuple[int, int]]]:
    """Photo `index` of the harsh generator's `seed` as a JPEG, and its tiles."""
    img, truth, _ = harsh_photos.render(np.random.default_rng([seed, index]))
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, format="JPEG", quality=90)
    return buf.getvalue(), sorted(tuple(sorted(map(int, t.split("-")), reverse=True)) for t in truth.split())


def _gingham() -> tuple[bytes, list[tuple[int, int]]]:
    """Thirteen tiles with engraved dividers on gingham (harsh seed 9, photo 34): the
    classical looks fit hundreds of boxes to its checks."""
    return _harsh(9, 34)


def _on_paper():
    return make_photo(np.random.default_rng(3), n_tiles=6, size=(1200, 900), style="ivory", background="paper",
                      layout="scatter")


def _spy(monkeypatch, name: str) -> list[int]:
    """A list that gains an item each time reader's `name` is called."""
    calls = []
    fn = getattr(reader, name)
    monkeypatch.setattr(reader, name, lambda *a, **k: calls.append(1) or fn(*a, **k))
    return calls


def test_a_cloth_is_busy_and_paper_is_not():
    gingham, _ = _gingham()
    assert finder_look.busy(load_photo(gingham))
    assert not finder_look.busy(load_photo(_on_paper().encode("jpeg")))


def test_a_busy_photo_is_read_by_the_quick_look_alone(monkeypatch):
    classical = _spy(monkeypatch, "first_looks")
    data, truth = _gingham()
    hand = vision.read_hand(data)
    assert sorted(t.halves for t in hand.tiles) == truth
    assert classical == []


def test_a_plain_photo_is_read_by_the_classical_looks(monkeypatch):
    quick, later = _spy(monkeypatch, "quick_look"), _spy(monkeypatch, "later_looks")
    photo = _on_paper()
    hand = vision.read_hand(photo.encode("jpeg"))
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)
    assert (quick, later) == ([], [1])


def test_small_tiles_on_a_plain_table_are_read_by_the_quick_look(monkeypatch):
    """Sixteen small tiles on a 3 MP JPEG of a plain table (harsh seed 16, photo 35): the
    first look finds them narrower than SHARPER_TILE on the photo decoded at half its
    size. The quick look reads them, not the classical closer look."""
    quick, later = _spy(monkeypatch, "quick_look"), _spy(monkeypatch, "later_looks")
    data, truth = _harsh(16, 35)
    photo = load_photo(data)
    assert not finder_look.busy(photo) and photo.scale == 2
    hand = vision.read_hand(data)
    assert sorted(t.halves for t in hand.tiles) == truth
    assert (quick, later) == ([1], [])


def test_a_busy_photo_the_quick_look_reads_no_tile_on_is_read_by_the_classical_looks(monkeypatch):
    monkeypatch.setattr(reader, "quick_look", lambda photo, data: finder_look.QuickLook([], None, photo))
    classical = _spy(monkeypatch, "later_looks")
    data, truth = _gingham()
    hand = vision.read_hand(data)
    assert classical == [1]
    assert len(hand.tiles) >= len(truth) - 1 and set(t.halves for t in hand.tiles) <= set(truth)


def test_the_finder_finds_every_tile_of_a_photo_on_paper_at_its_size():
    photo = _on_paper()
    found = tile_finder.find(photo.bgr)
    for poly in photo.polygons:
        centre, width = np.mean(poly, axis=0), np.linalg.norm(np.subtract(poly[0], poly[1]))
        near = [c for c, _ in found if np.linalg.norm(c.mean(axis=0) - centre) < width / 3]
        assert near, f"no box at the tile centred at {centre}"
        assert any(0.7 < np.linalg.norm(c[0] - c[1]) / width < 1.4 or 0.7 < np.linalg.norm(c[1] - c[2]) / width < 1.4
                   for c in near)
