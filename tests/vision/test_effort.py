"""The work a reading does is counted (vision/effort.py): the costliest photos give up
their later looks rather than take seconds, and a photo always reads the same way."""

from __future__ import annotations

import numpy as np
import pytest

import vision
from synthetic_photos import make_photo
from vision import effort, face_marks, network_look, pip_marks, reader
from vision.effort import Effort
from vision.network_look import Found

from .test_looks import _harsh, quick_look_reads_nothing
from .test_network_look import TABLE, _box


def test_a_look_counts_its_pixels_bars_and_boxes():
    e = Effort()
    e.look(pixels=1_000_000, bars=100, boxes=10)
    assert e.done == pytest.approx(effort.FIXED + effort.PER_MEGAPIXEL + 100 * effort.PER_BAR + 10 * effort.PER_BOX)


def test_a_later_look_is_afforded_while_the_work_done_leaves_room():
    e = Effort()
    assert e.affords_look(640 * 480)
    e.done = effort.LOOKS_LIMIT - 10
    assert not e.affords_look(640 * 480)


def test_a_busy_first_look_makes_later_looks_dearer():
    """A cloth whose marks made thousands of divider candidates at the first look makes
    as many at the next: that look is supposed to cost them too."""
    quiet, busy = Effort(), Effort()
    quiet.look(640 * 480, 40, 60)
    busy.look(640 * 480, 2458, 60)  # 8000 a megapixel, as the busiest cloths of the harsh seeds
    busy.done = quiet.done  # the same work done: only the candidates a megapixel differ
    assert quiet.affords_look(1600 * 1200)
    assert not busy.affords_look(1600 * 1200)


def test_the_network_searches_while_the_work_done_leaves_room():
    e = Effort()
    assert e.affords_crops(100)
    e.crops(int((effort.LIMIT - effort.FIXED) / effort.PER_CROP))
    assert not e.affords_crops(100)


def test_a_costly_gingham_photo_gives_up_the_view_from_above_and_reads_every_tile(monkeypatch):
    """Thirteen tiles with engraved dividers on gingham (harsh seed 9, photo 34): three
    looks leave no room for a fourth from above, which read no tile more and took the
    reading from 1.0 to 1.5 s on the development machine. (Such a busy photo is read by
    the quick look, test_finder_look; the classical looks read it when that reads no tile.)"""
    quick_look_reads_nothing(monkeypatch)
    views = []
    read_view = reader._read_view
    monkeypatch.setattr(reader, "_read_view",
                        lambda view, known, effort: views.append(1) or read_view(view, known, effort))
    data, truth = _harsh(9, 34, "JPEG", quality=75)
    hand = vision.read_hand(data)
    assert sorted(t.halves for t in hand.tiles) == truth
    assert views == []
    monkeypatch.setattr(effort, "LOOKS_LIMIT", float("inf"))  # unbounded, it is looked at from above
    vision.read_hand(data)
    assert views


def test_with_no_room_left_only_the_first_look_is_made_and_it_reads_the_same_each_time(monkeypatch):
    """Given no room for later looks nor searches, a photo of small tiles is looked at once
    (its closer look skipped), and read alike twice: the work is counted, not timed."""
    sides = []
    analyse = reader._analyse

    def spy(detail, long_side, *args, **kwargs):
        sides.append(long_side)
        return analyse(detail, long_side, *args, **kwargs)

    monkeypatch.setattr(reader, "_analyse", spy)
    photo = make_photo(np.random.default_rng(20), n_tiles=20, size=(2000, 1500), style="ivory")
    data = photo.encode("jpeg", quality=90)
    vision.read_hand(data)
    assert len(sides) > 1  # unbounded, it looks again
    monkeypatch.setattr(effort, "LOOKS_LIMIT", 0.0)
    sides.clear()
    first = [t.halves for t in vision.read_hand(data).tiles]
    assert sides == [reader.WORK_LONG_SIDE]
    assert first and [t.halves for t in vision.read_hand(data).tiles] == first


def test_with_no_room_left_the_network_makes_no_search_of_its_own(monkeypatch):
    """Past the limit, the network reads the boxes it is given but looks neither about
    loose pips, nor at the faces' colour, nor next to the tiles found."""
    asked = []
    monkeypatch.setattr(pip_marks, "boxes_at_loose_pips", lambda *a: asked.append("pips") or [])
    monkeypatch.setattr(face_marks, "boxes_at_faces", lambda *a: asked.append("faces") or [])
    read = network_look._read
    monkeypatch.setattr(network_look, "_read", lambda detail, boxes, e: asked.append(len(boxes)) or read(detail, boxes, e))
    sure = [Found(_box(100), 5, 3, 0.95), Found(_box(300), 6, 2, 0.95), Found(_box(500), 4, 1, 0.95)]
    spent = Effort(done=effort.LIMIT)
    network_look.put_together(TABLE, sure, [], spent)
    assert "pips" not in asked and "faces" not in asked
    assert sum(n for n in asked if isinstance(n, int)) == 3  # the three tiles given, read once
    asked.clear()
    network_look.put_together(TABLE, sure, [], Effort())
    assert "pips" in asked and "faces" in asked
    assert sum(n for n in asked if isinstance(n, int)) > 3  # and the places next to them
