"""The photo is looked at again when the first look leaves doubt: for faint dividers, or
by the tile finder (small tiles, a photo taken at an angle); the tiles of the looks are
put together."""

from __future__ import annotations

import io
from collections import Counter

import numpy as np
import pytest
from PIL import Image

import vision
from tools.generators import harsh_photos
from tools.generators.synthetic_photos import make_photo
from vision import bodies, box_reading, classical_look, face_marks, finder_look, loading, network_look, pipeline
from vision.found import Found
from vision.pips import HalfReading, TileReading
from vision.result import LOW_CONFIDENCE


def _tile(cx: float, cy: float, score: float, pips=(3, 2)) -> box_reading.Candidate:
    box = bodies._box(cx, cy, 1.0, 0.0, 20.0, 40.0)
    reading = TileReading(HalfReading(pips[0]), HalfReading(pips[1]), 0.8, 60.0, score)
    return box_reading.Candidate(box, reading, score, box.corners())


def test_a_second_look_adds_the_tiles_it_read_clearly():
    first = [_tile(50, 50, 1.0), _tile(150, 50, 1.0), _tile(450, 50, 0.9)]
    second = [_tile(52, 51, 0.95, (6, 6)), _tile(250, 50, 1.0, (5, 4)), _tile(350, 50, 0.3, (1, 0))]
    # the look ranking higher in all keeps its tiles, and gains the other's clear tile
    # where it had none, not its doubtful one nor its reading of a tile it has; whichever
    # look came first
    assert classical_look._merged(first, second) == first + [second[1]]
    assert classical_look._merged(second, first) == first + [second[1]]


def _harsh(seed: int, index: int, fmt: str, quality: int = 90, centres: bool = False):
    """Photo `index` of the harsh generator's `seed`, saved as `fmt`, its tiles, and (when
    asked) the centres of its tiles on the photo."""
    img, truth, meta = harsh_photos.render(np.random.default_rng([seed, index]))
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, format=fmt, **({"compress_level": 1} if fmt == "PNG" else {"quality": quality}))
    tiles = sorted(tuple(sorted(map(int, t.split("-")), reverse=True)) for t in truth.split())
    if centres:
        return buf.getvalue(), tiles, np.array([[float(v) for v in c.split(",")] for c in meta["centres"].split()])
    return buf.getvalue(), tiles


def test_small_tiles_of_a_png_are_read_with_the_finder_s_boxes():
    """A PNG of 18 small double-twelve tiles from the harsh generator (no sharper decoding
    to look at): the first look finds them small, and its tiles are read with the
    finder's boxes. The [12|1] it reads clearly is kept (a classical look at 1.6 times
    the size misses it)."""
    data, truth = _harsh(2, 23, "PNG")
    hand = vision.read_hand(data)
    assert (12, 1) in truth
    assert (12, 1) in [t.halves for t in hand.tiles]


@pytest.mark.parametrize("seed, index", [(9, 2), (9, 21), (8, 18)])
def test_small_tiles_are_read_though_a_big_box_was_read(seed, index):
    """Small tiles under a box far bigger than they are, read first: a stack of nine
    tiles 15 working pixels wide on dark wood, the table read as a [0|0] 200 wide; eleven
    tiles on a dotted cloth, a box of cloth read doubtfully as an [8|7] 68 wide; twelve
    black tiles on a floral cloth whose flowers are read as [4|4]s at 0.5. The tiles'
    size is told only by tiles read with pips and a confidence over 0.55, so the quick
    look reads the photo (two of them are busy, the other a JPEG decoded at half its
    size whose tiles are small there), and every tile is read (none of them is where the
    big box tells the size)."""
    data, truth = _harsh(seed, index, "JPEG")
    assert sorted(t.halves for t in vision.read_hand(data).tiles) == truth


def test_small_tiles_on_a_busy_background_are_read():
    """Ten ivory tiles in chains on gingham, 17 working pixels wide, on a PNG: the quick
    look reads every one (the classical first look finds none)."""
    data, truth = _harsh(12, 9, "PNG")
    assert sorted(t.halves for t in vision.read_hand(data).tiles) == truth


@pytest.mark.parametrize("seed, index, quality", [(9, 8, 83), (12, 12, 77)])
def test_a_tile_read_doubtfully_by_both_readers_is_not_added(seed, index, quality):
    """Five tiles on a striped cloth, where a [4|0] is read that is not there; eight on
    white laminate, where a [0|0] is: each barely above 0.5 once the two readers' words
    are put together, below network_look.KEPT, so not kept: both hands read exactly."""
    data, truth = _harsh(seed, index, "JPEG", quality)
    assert sorted(t.halves for t in vision.read_hand(data).tiles) == truth


def _most_read_and_the_wrong_marked(truth: list[tuple[int, int]], read: list[tuple[tuple[int, int], float]]) -> None:
    """At least 60 % of the hand `truth` is `read` ((tile, confidence) pairs), and any
    tile read that is not in it is marked for checking."""
    right = Counter(truth) & Counter(tile for tile, _ in read)
    assert sum(right.values()) >= 0.6 * len(truth)
    left = right.copy()
    for tile, confidence in sorted(read, key=lambda r: -r[1]):
        if left[tile] > 0:
            left[tile] -= 1
        else:
            assert confidence < LOW_CONFIDENCE, (tile, confidence)


ON_LAMINATE, ON_DARK_WOOD = (15, 6, 80), (16, 33, 90)
BLACK_ON_DARK = [ON_LAMINATE, ON_DARK_WOOD]


@pytest.mark.parametrize("seed, index, quality", BLACK_ON_DARK)
def test_pips_are_looked_for_at_guessed_sizes_when_no_tile_was_found(seed, index, quality):
    """Sixteen black tiles in chains on dark laminate; eleven on dark wood, some touching:
    engraved dividers, no blob. Given no tile and no box (as when neither the classical
    looks nor the finder find one), the network looks about their white pips at a few
    guessed tile sizes: most tiles are read, and any tile read that is not in the hand is
    marked for checking (the network reads a [6|2] on the laminate that is not in the
    hand: without the boxes turned as a two or a three lies on its tile, about groups of
    two or three pips, at 0.97; with them, at 0.6, marked)."""
    data, truth = _harsh(seed, index, "JPEG", quality)
    tiles = network_look.put_together(loading.load_photo(data).bgr, [], [])
    _most_read_and_the_wrong_marked(truth, [(t.tile, t.confidence) for t in tiles])


@pytest.mark.parametrize("seed, index, quality", BLACK_ON_DARK)
def test_black_tiles_on_dark_tables_are_read_with_the_finder_s_boxes(seed, index, quality):
    """The same photos read whole: the first look finds no tile, so the finder's boxes are
    read (12 of the 16 tiles right, 9 of the 11), and any tile read that is not in the
    hand is marked for checking (a [6|1] read at 0.79 is: the mark is at 0.8)."""
    data, truth = _harsh(seed, index, "JPEG", quality)
    _most_read_and_the_wrong_marked(truth, [(t.halves, t.confidence) for t in vision.read_hand(data).tiles])


@pytest.mark.parametrize("seed, index, fmt", [(3, 15, "PNG"), (4, 18, "JPEG")])
def test_tiles_touching_in_one_blob_are_split_and_read(seed, index, fmt):
    """Two harsh photos whose tiles touch in one blob with no divider found: five
    white tiles 32 px wide side by side (split at the width of a tile read apart, 30),
    and a chain of five black tiles end to end whose shadow makes the blob look like
    four, under a box of wood grain read as a 0 | 0. Every tile is read."""
    data, truth = _harsh(seed, index, fmt)
    assert sorted(t.halves for t in vision.read_hand(data).tiles) == truth


@pytest.mark.parametrize("seed, index, double", [(6, 28, (7, 7)), (4, 27, (0, 0))])
def test_a_double_laid_across_the_end_of_a_chain_is_read(seed, index, double):
    """Two harsh chains end with a double laid across them, touching the last tile: the
    tile network looks for one there, turned across that tile's end."""
    data, truth = _harsh(seed, index, "JPEG")
    assert double in truth
    assert double in [t.halves for t in vision.read_hand(data).tiles]


def test_tiles_on_wood_as_light_as_they_are_are_found_by_their_faces_colour(monkeypatch):
    """Ten double-twelve tiles scattered on light grey wood: they make no blob of their own
    and their pips are lost among the grain's dots; the classical looks read four. The
    colour of those four faces finds five more, and nothing is read that is not there.
    The quick look, which reads this busy photo, reads nine of them. And a lone [7|1]
    among thirteen tiles on wood."""
    lone, lone_truth = _harsh(5, 34, "JPEG")
    assert sorted(t.halves for t in vision.read_hand(lone).tiles) == lone_truth
    data, truth = _harsh(5, 2, "JPEG")
    read = Counter(t.halves for t in vision.read_hand(data).tiles)
    assert read <= Counter(truth) and read.total() == 9
    quick_look_reads_nothing(monkeypatch)
    read = Counter(t.halves for t in vision.read_hand(data).tiles)
    assert Counter([(4, 2), (7, 4), (10, 3), (10, 4)]) <= read <= Counter(truth) and read.total() == 9


def test_the_faces_colour_is_matched_only_where_it_lies_outside_the_tiles_found(monkeypatch):
    """The rectangles of the faces' colour are matched only when that colour lies in
    patches outside every tile found (face_marks._free_face): on a tilted 12 MP photo
    whose two far tiles, touching, are missed by the other looks and searches (see the
    next test), they are matched. On ivory tiles all read on a dark table the faces'
    colour lies on the tiles only, and nothing is matched (up to 94 ms on 12 MP)."""
    matched = []
    best = face_marks._best_rectangle
    monkeypatch.setattr(face_marks, "_best_rectangle", lambda mask: matched.append(mask.shape) or best(mask))
    vision.read_hand(_harsh(12, 11, "JPEG")[0])
    assert matched
    matched.clear()
    photo = make_photo(np.random.default_rng(1000), n_tiles=6, size=(1000, 750), style="ivory", layout="scatter")
    assert sorted(t.halves for t in vision.read_hand(photo.encode("jpeg", quality=90)).tiles) == sorted(photo.tiles)
    assert not matched


def test_two_far_tiles_of_a_tilted_photo_are_found_by_their_faces_colour():
    """The two far tiles of that tilted photo, half as wide as the tiles read surely, are
    found at their faces' colour (the face_marks search matches it on the photo shrunk
    linearly, geometry.shrunk: a box there may otherwise lie across both)."""
    data, truth = _harsh(12, 11, "JPEG")
    assert {(6, 4), (12, 6)} <= set(truth)
    assert sorted(t.halves for t in vision.read_hand(data).tiles) == truth


def test_a_sure_tile_beside_a_less_sure_one_is_kept():
    """A row of three tiles side by side on wood under glare: the middle one, a [5|0], is
    read with an outline a little too wide and less surely; the network reads the
    [7|1] beside it surely, its outline overlapping the [5|0]'s by a third. It is kept."""
    data, truth = _harsh(6, 11, "PNG")
    assert (7, 1) in truth
    assert sorted(t.halves for t in vision.read_hand(data).tiles) == truth


def quick_look_reads_nothing(monkeypatch) -> None:
    """The quick look made to read no tile on the finder's boxes, so that the classical
    looks read the photo: what they do is tested so on photos the quick look reads."""
    monkeypatch.setattr(pipeline, "quick_look", lambda photo, sight, data, effort, **k: finder_look.QuickLook(
        [], None, photo))


def _decodings(monkeypatch) -> list[dict]:
    """A list that gains the keywords of every decoding of a photo: the first (the
    pipeline's load_photo) and the sharper ones (loading's, which sharper_photo calls)."""
    loads = []
    load = loading.load_photo
    spy = lambda *a, **k: loads.append(k) or load(*a, **k)  # noqa: E731
    monkeypatch.setattr(pipeline, "load_photo", spy)
    monkeypatch.setattr(loading, "load_photo", spy)
    return loads


def test_big_tiles_are_decoded_once(monkeypatch):
    """A JPEG decoded at half its size whose tiles are big there is not decoded again."""
    loads = _decodings(monkeypatch)
    photo = make_photo(np.random.default_rng(1000), n_tiles=6, size=(2000, 1500), style="ivory")
    hand = vision.read_hand(photo.encode("jpeg", quality=90))
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)
    assert len(loads) == 1


@pytest.mark.parametrize("seed", [1005, 1023])
def test_a_close_up_found_by_the_faint_look_is_decoded_once(seed, monkeypatch):
    """A JPEG of one big tile with a fine engraved divider: the first look finds nothing,
    and the quick look is given the photo (it reads this tile as well: here it is made to
    read nothing); the look for faint dividers then finds the tile, and the photo is not
    decoded again sharper (its tile is big)."""
    quick_look_reads_nothing(monkeypatch)
    faint = []
    look = classical_look.look
    monkeypatch.setattr(classical_look, "look", lambda *a, **k: faint.append(k.get("threshold")) or look(*a, **k))
    loads = _decodings(monkeypatch)
    photo = make_photo(np.random.default_rng(seed), n_tiles=1, size=(2000, 1500), style="ivory_spinner",
                       background="paper", divider="faint")
    hand = vision.read_hand(photo.encode("jpeg", quality=90))
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)
    assert len(loads) == 1 and faint[:2] == [None, classical_look.FAINT_THRESHOLD]


def test_a_tile_read_twice_is_marked_for_checking_both_times(monkeypatch):
    """A set holds each tile once: two sure readings of [0|0] (boxes of plain cloth
    between flowers) are both marked for checking, the surer one higher; a tile read
    once stays as it was read."""
    tiles = [Found(bodies._box(x, 100.0, 1.0, 0.0, 40.0, 80.0).corners(), *t, c)
             for x, t, c in ((100.0, (0, 0), 1.0), (300.0, (0, 0), 0.9), (500.0, (6, 2), 1.0))]
    monkeypatch.setattr(network_look, "put_together", lambda *a, **k: tiles)
    photo = make_photo(np.random.default_rng(1000), n_tiles=3, size=(800, 600), style="ivory")
    hand = vision.read_hand(photo.encode("jpeg", quality=90))
    sure = {t.halves: t.confidence for t in hand.tiles if t.halves == (6, 2)}
    blanks = sorted((t.confidence for t in hand.tiles if t.halves == (0, 0)), reverse=True)
    assert sure == {(6, 2): 1.0}
    assert len(blanks) == 2 and blanks[0] > blanks[1] and blanks[0] < LOW_CONFIDENCE

