"""The work a reading does is counted (vision/effort.py): the costliest photos give up
the network's searches rather than take seconds, and a photo always reads the same way."""

from __future__ import annotations

import numpy as np
import pytest

import vision
from tools.generators.synthetic_photos import make_photo
from vision import effort, face_marks, network_look, pip_marks
from vision.effort import Effort
from vision.found import Found

from .test_network_look import TABLE, _box


def test_a_look_counts_its_pixels_bars_and_boxes():
    e = Effort()
    e.look(pixels=1_000_000, bars=100, boxes=10)
    assert e.done == pytest.approx(effort.FIXED + effort.PER_MEGAPIXEL + 100 * effort.PER_BAR + 10 * effort.PER_BOX)


def test_the_network_searches_while_the_work_done_leaves_room():
    e = Effort()
    assert e.affords_crops(100)
    e.crops(int((effort.LIMIT - effort.FIXED) / effort.PER_CROP))
    assert not e.affords_crops(100)


def test_with_no_room_left_the_network_makes_no_search_of_its_own(monkeypatch):
    """Past the limit, the network reads the boxes it is given but looks neither about
    loose pips, nor at the faces' colour, nor next to the tiles found."""
    asked = []
    # tiles that leave pips or their faces' colour unread, which the searches look for
    # (and with no room left, not even that is asked)
    monkeypatch.setattr(network_look, "leaves_nothing_unread", lambda *a, **k: asked.append("unread") or False)
    monkeypatch.setattr(pip_marks, "boxes_at_loose_pips", lambda *a: asked.append("pips") or [])
    monkeypatch.setattr(face_marks, "boxes_at_faces", lambda *a: asked.append("faces") or [])
    read = network_look._read
    monkeypatch.setattr(network_look, "_read", lambda detail, boxes, e: asked.append(len(boxes)) or read(detail, boxes, e))
    sure = [Found(_box(100), 5, 3, 0.95), Found(_box(300), 6, 2, 0.95), Found(_box(500), 4, 1, 0.95)]
    spent = Effort(done=effort.LIMIT)
    network_look.put_together(TABLE, sure, [], spent)
    assert "pips" not in asked and "faces" not in asked and "unread" not in asked
    assert sum(n for n in asked if isinstance(n, int)) == 3  # the three tiles given, read once
    asked.clear()
    network_look.put_together(TABLE, sure, [], Effort())
    assert "pips" in asked and "faces" in asked
    assert sum(n for n in asked if isinstance(n, int)) > 3  # and the places next to them


def test_with_no_room_left_a_photo_reads_the_same_each_time(monkeypatch):
    """The work is counted, not timed: given no room for the network's searches, a photo
    of twenty small tiles is read with none of them, and alike twice."""
    searched = []
    monkeypatch.setattr(pip_marks, "boxes_at_loose_pips", lambda *a: searched.append(1) or [])
    monkeypatch.setattr(effort, "LIMIT", 0.0)
    photo = make_photo(np.random.default_rng(20), n_tiles=20, size=(2000, 1500), style="ivory")
    data = photo.encode("jpeg", quality=90)
    first = [(t.halves, t.polygon) for t in vision.read_hand(data).tiles]
    assert first and [(t.halves, t.polygon) for t in vision.read_hand(data).tiles] == first
    assert searched == []
