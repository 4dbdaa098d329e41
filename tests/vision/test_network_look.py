"""The tile network reads boxes again, moves them onto their tiles, and its tiles are put
together with the classical looks' (vision/tile_net.py, vision/network_look.py)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tools.generators.synthetic_photos import make_photo
from vision import face_marks, network_look, pip_marks, tile_net
from vision.effort import Effort
from vision.geometry import points_inside, shrunk
from vision.found import Found
from vision.result import LOW_CONFIDENCE

from .test_finder_look import _on_felt

#: Photos of tools/generators/synthetic_photos.py the network was never trained on (it
#: was trained on other seeds, see tools/training/harvest.py), one a style of set.
STYLES = [("ivory", "wood", 31), ("white_colour", "felt", 32), ("black", "cloth", 33), ("pink", "planks", 34),
          ("ivory_spinner", "paper", 35)]


def _photos():
    for style, background, seed in STYLES:
        yield make_photo(np.random.default_rng(seed), n_tiles=8, size=(1600, 1200), style=style, background=background)


def _truth_box(polygon: np.ndarray) -> np.ndarray:
    """A true tile's polygon (its first half's end first) as a box in TileBox.corners
    order, its top at that end."""
    g0, g1, g2, g3 = np.asarray(polygon, np.float64)
    c = (g0 + g1 + g2 + g3) / 4
    along = (g2 + g3) / 2 - (g0 + g1) / 2
    return tile_net.box_corners(c, along / np.linalg.norm(along), float(np.linalg.norm(g1 - g0)),
                                float(np.linalg.norm(along)))


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    pa, pb = a.astype(np.float32), b.astype(np.float32)
    inter, _ = cv2.intersectConvexConvex(pa, pb)
    return inter / (cv2.contourArea(pa) + cv2.contourArea(pb) - inter)


def test_a_box_round_trips_through_its_frame():
    box = tile_net.box_corners(np.array([100.0, 50.0]), np.array([0.6, 0.8]), 20.0, 40.0)
    c, u, n, w, ln = tile_net.frame(box)
    assert np.allclose(c, [100, 50]) and np.allclose(n, [0.6, 0.8]) and math.isclose(w, 20) and math.isclose(ln, 40)
    assert np.allclose(tile_net.moved(box, np.zeros(5)), box)
    # half a width across, a quarter of the length along, twice as wide, a quarter turn
    c2, _, n2, w2, l2 = tile_net.frame(tile_net.moved(box, np.array([0.5, 0.25, math.log(2), 0, math.pi / 2])))
    assert np.allclose(c2, c + 10 * u + 10 * n) and math.isclose(w2, 40) and math.isclose(l2, 40)
    assert np.allclose(n2, [-0.8, 0.6])


def test_the_network_reads_the_tiles_in_their_boxes():
    """Given each tile's own box, the network sees a tile and reads both halves, the top
    one at the top, on sets of every style it was not trained on."""
    right = seen = total = 0
    for photo in _photos():
        boxes = [_truth_box(p) for p in photo.polygons]
        answers = tile_net.read_crops(np.array([tile_net.crop(photo.bgr, b) for b in boxes]))
        for a, halves in zip(answers, photo.halves):
            total += 1
            seen += a.tile >= 0.5
            right += (a.top, a.bottom) == halves
    assert total == 40
    assert seen >= 39 and right >= 38


def test_a_box_off_its_tile_is_moved_onto_a_tile():
    """A box half a tile wide across and a fifth of its length along off a tile, a tenth
    too small and turned by 8 degrees (where the classical looks' boxes often sit: on a
    tile and its neighbour), is near a tile, and lies on one after the network's two
    moves (its own, or the neighbour it reached into)."""
    landed = near = total = 0
    for photo in _photos():
        truths = [_truth_box(p) for p in photo.polygons]
        for truth in truths:
            c, u, n, w, ln = tile_net.frame(truth)
            turn = math.radians(8)
            n2 = np.array([math.cos(turn) * n[0] - math.sin(turn) * n[1], math.sin(turn) * n[0] + math.cos(turn) * n[1]])
            box = tile_net.box_corners(c + 0.5 * w * u + 0.2 * ln * n, n2, 0.9 * w, 0.9 * ln)
            assert max(_iou(box, t) for t in truths) < 0.5
            answer = tile_net.read_crops(tile_net.crop(photo.bgr, box)[None])[0]
            near += answer.near >= network_look.FOLLOW
            for _ in range(network_look.MOVES):
                box = tile_net.moved(box, answer.place)
                answer = tile_net.read_crops(tile_net.crop(photo.bgr, box)[None])[0]
            total += 1
            landed += max(_iou(box, t) for t in truths) >= 0.7
    assert near >= 0.95 * total and landed >= 0.9 * total


def test_the_bare_table_and_tiles_face_down_are_not_tiles():
    """Tile-sized boxes on the table, and tiles lying face down (a plain back, a printed
    ring, star or word), get a low chance of being a tile."""
    rng = np.random.default_rng(5)
    not_tiles = []
    for seed in (41, 42, 43):
        photo = make_photo(np.random.default_rng(seed), n_tiles=6, size=(1600, 1200), face_down=3)
        not_tiles += [(photo.bgr, _truth_box(b)) for b in photo.backs]
        w = float(np.linalg.norm(photo.polygons[0][1] - photo.polygons[0][0]))
        for _ in range(20):
            box = tile_net.box_corners(rng.uniform([2 * w, 2 * w], [1600 - 2 * w, 1200 - 2 * w]),
                                       np.array([1.0, 0.0]), w, 2 * w)
            if all(_iou(box, _truth_box(p)) < 0.05 for p in photo.polygons + photo.backs):
                not_tiles.append((photo.bgr, box))
    answers = [tile_net.read_crops(tile_net.crop(img, box)[None])[0] for img, box in not_tiles]
    assert len(answers) >= 20
    assert sum(a.tile < 0.5 for a in answers) >= 0.9 * len(answers)


def _scripted(monkeypatch, script: dict[tuple[int, int], tile_net.Answer]) -> None:
    """network_look reads each box with the answer scripted for its centre, and bare
    table anywhere else (the next tiles of a row are looked for beside every tile)."""
    table = tile_net.Answer(0.0, 0.0, 0, 0, 0.0, 0.0, np.zeros(5))

    def read(detail, boxes, effort):
        return [script.get(tuple(int(round(v)) for v in tile_net.frame(b)[0]), table) for b in boxes]

    monkeypatch.setattr(network_look, "_read", read)


TABLE = np.zeros((200, 600, 3), np.uint8)


def _box(x: int) -> np.ndarray:
    return tile_net.box_corners(np.array([float(x), 100.0]), np.array([0.0, 1.0]), 20.0, 40.0)


def _answer(tile: float, top: int, bottom: int, p: float = 0.95) -> tile_net.Answer:
    return tile_net.Answer(tile, tile, top, bottom, p, p, np.zeros(5))


def test_two_readers_that_agree_make_a_surer_tile(monkeypatch):
    _scripted(monkeypatch, {(100, 100): _answer(0.9, 5, 3, 0.9)})
    [tile] = network_look.put_together(TABLE, [Found(_box(100), 3, 5, 0.75)], [])
    assert tile.tile == (5, 3) and tile.confidence > 0.9  # each alone: 0.75 and 0.73


@pytest.mark.parametrize("classical, network, kept", [(0.95, 0.7, (6, 2)), (0.55, 0.97, (6, 4))])
def test_two_readers_that_disagree_keep_the_surer_reading_marked_for_checking(monkeypatch, classical, network, kept):
    _scripted(monkeypatch, {(100, 100): _answer(0.99, 6, 4, math.sqrt(network / 0.99))})
    [tile] = network_look.put_together(TABLE, [Found(_box(100), 6, 2, classical)], [])
    assert tile.tile == kept
    assert tile.confidence <= network_look.DISPUTED < LOW_CONFIDENCE


def test_a_tile_only_the_network_sees_is_kept_when_it_is_fairly_sure(monkeypatch):
    _scripted(monkeypatch, {(100, 100): _answer(0.95, 4, 4), (300, 100): _answer(0.6, 2, 1, 0.8)})
    tiles = network_look.put_together(TABLE, [], [_box(100), _box(300)])
    assert [t.tile for t in tiles] == [(4, 4)]


@pytest.mark.parametrize("sure, kept", [(0.8, [(0, 0)]), (0.7, [])])
def test_a_double_blank_only_the_network_sees_is_kept_from_three_quarters_marked(monkeypatch, sure, kept):
    """A [0|0] read at 0.8 only by the network is kept, marked for checking (it is the
    tile most missed on the harsh photos); a [1|0] as sure is not, nor a [0|0] at 0.7."""
    p = math.sqrt(sure / 0.99)
    _scripted(monkeypatch, {(100, 100): _answer(0.99, 0, 0, p), (300, 100): _answer(0.99, 1, 0, p)})
    tiles = network_look.put_together(TABLE, [], [_box(100), _box(300)])
    assert [t.tile for t in tiles] == kept
    assert all(t.confidence < LOW_CONFIDENCE for t in tiles)


def test_a_tile_only_the_network_sees_with_a_blank_half_is_marked_for_checking(monkeypatch):
    """The back of a tile lying face down, its logo taken for pips, has read as a [9|0]."""
    _scripted(monkeypatch, {(100, 100): _answer(0.99, 9, 0), (300, 100): _answer(0.99, 6, 2)})
    tiles = network_look.put_together(TABLE, [], [_box(100), _box(300)])
    assert {t.tile: t.confidence < LOW_CONFIDENCE for t in tiles} == {(9, 0): True, (6, 2): False}


def test_two_crops_of_one_tile_read_differently_mark_it_for_checking(monkeypatch):
    """Two boxes on one tile, read [5|3] and [6|3]: the surer reading is kept, marked for
    checking, unless the classical looks read that tile alike."""
    _scripted(monkeypatch, {(100, 100): _answer(0.99, 5, 3), (104, 100): _answer(0.99, 6, 3, 0.9)})
    [tile] = network_look.put_together(TABLE, [], [_box(100), _box(104)])
    assert tile.tile == (5, 3) and tile.confidence < LOW_CONFIDENCE
    [tile] = network_look.put_together(TABLE, [Found(_box(100), 5, 3, 0.75)], [_box(104)])
    assert tile.tile == (5, 3) and tile.confidence > 0.9


def test_a_box_over_several_tiles_does_not_mark_them_for_checking(monkeypatch):
    """A box over a whole hand, running off the photo and read as a [7|2], is no crop of
    any tile under it: it marked every tile of twelve read surely for checking. A box
    about the tile's size reading another tile does (above)."""
    hand = tile_net.box_corners(np.array([200.0, 100.0]), np.array([0.0, 1.0]), 300.0, 600.0)
    _scripted(monkeypatch, {(100, 100): _answer(0.99, 5, 3), (300, 100): _answer(0.99, 6, 2),
                            (200, 100): _answer(0.99, 7, 2, 0.9)})
    tiles = network_look.put_together(TABLE, [], [_box(100), _box(300), hand])
    assert {t.tile: t.confidence >= LOW_CONFIDENCE for t in tiles} == {(5, 3): True, (6, 2): True}


#: A reading the network makes NETWORK_SURE: the chance of a tile and each half's, 0.999.
VERY_SURE = 0.999


def test_a_reading_the_network_is_very_sure_of_is_not_marked_when_the_classical_looks_disagree(monkeypatch):
    """The classical looks read a [6|2] (a blurred pip missed), the network a [6|4] at
    0.997: on the development sets the network, that sure, was right every time."""
    _scripted(monkeypatch, {(100, 100): _answer(VERY_SURE, 6, 4, VERY_SURE)})
    [tile] = network_look.put_together(TABLE, [Found(_box(100), 6, 2, 0.95)], [])
    assert tile.tile == (6, 4) and tile.confidence >= network_look.NETWORK_SURE


def test_a_blank_half_tile_the_network_is_very_sure_of_is_not_marked(monkeypatch):
    """Where the finder found no tile (it did not look, or missed it), a [4|0] only the
    network read is marked for checking unless it reads it NETWORK_SURE."""
    _scripted(monkeypatch, {(100, 100): _answer(VERY_SURE, 4, 0, VERY_SURE), (300, 100): _answer(0.99, 4, 0, 0.995)})
    tiles = network_look.put_together(TABLE, [], [_box(100), _box(300)])
    marked = {round(tile_net.frame(t.corners)[0][0]): t.confidence < LOW_CONFIDENCE for t in tiles}
    assert marked == {100: False, 300: True}


@pytest.mark.parametrize("halves, marked", [(0.92, False), (0.995, True)])
def test_a_rival_reading_marks_a_very_sure_tile_only_when_very_sure_itself(monkeypatch, halves, marked):
    """A [5|3] read at 0.997, and another box on it read as a [6|3], each half read at
    0.92 (0.84 in all: it does not mark the tile) or at 0.995 (0.98, above SURE_RIVAL:
    it does)."""
    _scripted(monkeypatch, {(100, 100): _answer(VERY_SURE, 5, 3, VERY_SURE), (104, 100): _answer(0.99, 6, 3, halves)})
    [tile] = network_look.put_together(TABLE, [], [_box(100), _box(104)])
    assert tile.tile == (5, 3) and (tile.confidence < LOW_CONFIDENCE) == marked


@pytest.mark.parametrize("classical", [(6, 2), (6, 1)])
def test_a_very_sure_reading_is_marked_when_a_box_of_its_size_reads_the_tile_otherwise_too(monkeypatch, classical):
    """The network reads a [6|4] at 0.997; the classical looks read a [6|2] or a [6|1],
    and another box of the tile's size a [6|2] at 0.98: the tile stays marked."""
    _scripted(monkeypatch, {(100, 100): _answer(VERY_SURE, 6, 4, VERY_SURE), (104, 100): _answer(0.99, 6, 2, 0.995)})
    [tile] = network_look.put_together(TABLE, [Found(_box(100), *classical, 0.95)], [_box(104)])
    assert tile.tile == (6, 4) and tile.confidence < LOW_CONFIDENCE


@pytest.mark.parametrize("area, marked", [(2.5, True), (4.0, False)])
def test_a_rival_reading_comes_from_a_box_up_to_three_times_the_tile_s_area(monkeypatch, area, marked):
    """A [5|3] read at 0.89, and a box about it 2.5 times its area read as a [6|3] at 0.8
    (it marks the tile: a box a little too big is still a crop of it), or 4 times."""
    k = math.sqrt(area)
    big = tile_net.box_corners(np.array([104.0, 100.0]), np.array([0.0, 1.0]), 20.0 * k, 40.0 * k)
    _scripted(monkeypatch, {(100, 100): _answer(0.99, 5, 3), (104, 100): _answer(0.99, 6, 3, 0.9)})
    [tile] = network_look.put_together(TABLE, [], [_box(100), big])
    assert tile.tile == (5, 3) and (tile.confidence < LOW_CONFIDENCE) == marked


def test_a_very_sure_reading_running_off_the_photo_stays_marked(monkeypatch):
    """Past the frame, the crop's border is the frame's edge repeated: a [6|4] read there
    at 0.997, against the classical looks' [6|2], is marked however sure."""
    edge = tile_net.box_corners(np.array([595.0, 100.0]), np.array([0.0, 1.0]), 20.0, 40.0)
    _scripted(monkeypatch, {(595, 100): _answer(VERY_SURE, 6, 4, VERY_SURE)})
    tiles = network_look.put_together(TABLE, [Found(edge, 6, 2, 0.95)], [])
    assert tiles and all(t.confidence < LOW_CONFIDENCE for t in tiles)


def test_a_very_sure_one_or_no_pip_tile_only_the_network_read_stays_marked(monkeypatch):
    _scripted(monkeypatch, {(100, 100): _answer(VERY_SURE, 1, 0, VERY_SURE), (300, 100): _answer(VERY_SURE, 6, 2, VERY_SURE)})
    tiles = network_look.put_together(TABLE, [], [_box(100), _box(300)])
    assert {t.tile: t.confidence < LOW_CONFIDENCE for t in tiles} == {(1, 0): True, (6, 2): False}


def test_a_tile_only_the_classical_looks_read_needs_a_fairly_clean_reading(monkeypatch):
    _scripted(monkeypatch, {(100, 100): _answer(0.1, 0, 0), (300, 100): _answer(0.1, 0, 0),
                            (500, 100): _answer(0.3, 0, 0)})
    classical = [Found(_box(100), 3, 1, 0.8), Found(_box(300), 2, 0, 0.5), Found(_box(500), 5, 5, 0.3)]
    tiles = network_look.put_together(TABLE, classical, [])
    assert [t.tile for t in tiles] == [(3, 1)]


def test_a_tile_only_the_classical_looks_read_is_dropped_where_the_network_sees_its_box_off_a_tile(monkeypatch):
    """A [11|11] lying across on white paper, its divider unseen, was read as two upright
    boxes each half on it and half on the paper ([7|0] at 0.87, [3|0]): in each box the
    network saw no tile, and was sure of one next to it. Such a tile is dropped; one in
    whose box the network sees nothing at all, near or not, is kept (a [0|0] the network
    did not believe in was right)."""
    off_a_tile = tile_net.Answer(0.02, 0.99, 7, 0, 0.5, 0.5, np.zeros(5))
    nothing = tile_net.Answer(0.02, 0.1, 0, 0, 0.5, 0.5, np.zeros(5))
    unsure = tile_net.Answer(0.02, 0.8, 0, 0, 0.5, 0.5, np.zeros(5))
    _scripted(monkeypatch, {(100, 100): off_a_tile, (300, 100): nothing, (500, 100): unsure})
    classical = [Found(_box(100), 7, 0, 0.87), Found(_box(300), 0, 0, 0.87), Found(_box(500), 2, 0, 0.87)]
    # the looks' other boxes come after the tiles' own: each tile is judged on its own box
    tiles = network_look.put_together(TABLE, classical, [_box(200), _box(400)])
    assert sorted(t.tile for t in tiles) == [(0, 0), (2, 0)]


def _table_read_as_blank(x: float) -> Found:
    """A box of bare table 200 wide, read as a [0|0] fairly surely."""
    return Found(tile_net.box_corners(np.array([x, 100.0]), np.array([0.0, 1.0]), 200.0, 400.0), 0, 0, 0.6)


@pytest.mark.parametrize("found, asked", [
    ([], "guessed"),
    ([_table_read_as_blank(300)], "guessed"),
    ([Found(_box(100), 5, 3, 0.9), _table_read_as_blank(400)], [20.0]),
])
def test_loose_pips_are_looked_for_at_the_width_of_tiles_read_with_pips(monkeypatch, found, asked):
    """A box of table read as a [0|0] 200 wide tells nothing of the tiles' size: with no
    tile of two pips or more found, the loose pips are looked for at each guessed width;
    with some, at their width (20), not the blank box's."""
    widths = []
    monkeypatch.setattr(pip_marks, "boxes_at_loose_pips",
                        lambda detail, width, covered, half=None: widths.append(width) or [])
    network_look._with_loose_pips(TABLE, found, Effort())
    guessed = [k * max(TABLE.shape[:2]) for k in network_look.GUESSED_WIDTHS]
    assert widths == (guessed if asked == "guessed" else asked)


def test_two_doubtful_readings_alike_do_not_make_a_tile(monkeypatch):
    """A box of patterned cloth read as a [4|0] at 0.45 by the classical looks and, barely
    taken for a tile, alike by the network: together 0.53, too little to keep it. A tile
    read at 0.75 with the same faint word of the network is kept."""
    _scripted(monkeypatch, {(100, 100): _answer(0.6, 4, 0, 0.5), (300, 100): _answer(0.6, 5, 2, 0.5)})
    tiles = network_look.put_together(TABLE, [Found(_box(100), 4, 0, 0.45), Found(_box(300), 5, 2, 0.75)], [])
    assert [t.tile for t in tiles] == [(5, 2)]


def test_a_tile_far_wider_than_the_sure_ones_is_not_kept(monkeypatch):
    """Three tiles 20 wide read surely, and a box of plain cloth 80 wide read, by both
    readers, as a [3|0]: a photo shows one set, so that box is not a tile. A tile 30
    wide (nearer the camera) is kept."""
    wide = tile_net.box_corners(np.array([430.0, 100.0]), np.array([0.0, 1.0]), 80.0, 160.0)
    near = tile_net.box_corners(np.array([540.0, 100.0]), np.array([0.0, 1.0]), 30.0, 60.0)
    _scripted(monkeypatch, {(100, 100): _answer(0.99, 5, 3), (200, 100): _answer(0.99, 6, 2),
                            (300, 100): _answer(0.99, 4, 4), (430, 100): _answer(0.99, 3, 0),
                            (540, 100): _answer(0.99, 2, 1)})
    classical = [Found(_box(x), *t, 0.95) for x, t in ((100, (5, 3)), (200, (6, 2)), (300, (4, 4)))]
    tiles = network_look.put_together(TABLE, classical + [Found(wide, 3, 0, 0.9), Found(near, 2, 1, 0.9)], [])
    assert sorted(t.tile for t in tiles) == [(2, 1), (4, 4), (5, 3), (6, 2)]


def test_a_blank_half_tile_the_finder_found_and_the_network_reads_surely_is_not_marked(monkeypatch):
    """A [4|0] only the network read is marked for checking (a tile's back reads so), unless
    the tile finder found a tile there and the network reads it at VOUCHED_BLANK or more."""
    _scripted(monkeypatch, {(100, 100): _answer(0.99, 4, 0, 0.995), (200, 100): _answer(0.99, 4, 0, 0.995),
                            (300, 100): _answer(0.99, 4, 0, 0.95)})
    boxes = [_box(100), _box(200), _box(300)]
    tiles = network_look.put_together(TABLE, [], boxes, vouched=[_box(100), _box(300)])
    marked = {round(tile_net.frame(t.corners)[0][0]): t.confidence < LOW_CONFIDENCE for t in tiles}
    assert marked == {100: False, 200: True, 300: True}


def test_a_doubtful_tile_unlike_the_faces_read_surely_is_not_kept(monkeypatch):
    """Two pink tiles read surely; two more boxes read with doubt as a [3|1] by the network
    alone: one on a pink face is kept (marked for checking), one on an orange tray's dots
    is a pattern of the table, not a tile of this set."""
    table = np.full((200, 600, 3), 60, np.uint8)
    for x, colour in ((100, (180, 105, 255)), (200, (180, 105, 255)), (300, (185, 110, 250)), (450, (40, 120, 230))):
        cv2.fillPoly(table, [np.rint(_box(x)).astype(np.int32)], colour)
    _scripted(monkeypatch, {(100, 100): _answer(0.99, 5, 3), (200, 100): _answer(0.99, 6, 2),
                            (300, 100): _answer(0.99, 3, 1, 0.81), (450, 100): _answer(0.99, 3, 1, 0.81)})
    classical = [Found(_box(100), 5, 3, 0.95), Found(_box(200), 6, 2, 0.95)]
    tiles = network_look.put_together(table, classical, [_box(300), _box(450)])
    assert sorted((t.tile, t.confidence < LOW_CONFIDENCE) for t in tiles) == [
        ((3, 1), True), ((5, 3), False), ((6, 2), False)]
    assert tile_net.frame([t for t in tiles if t.tile == (3, 1)][0].corners)[0][0] == pytest.approx(300)


def _black_tile_on_wood(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A photo of dark wood with one black tile 60 px wide, white pips, no divider: no
    blob stands out and no divider shows, only its pips."""
    photo = make_photo(rng, n_tiles=1, size=(800, 600), style="black", background="wood", divider="none",
                       degrade=False)
    return photo.bgr, _truth_box(photo.polygons[0])


def test_boxes_are_proposed_about_loose_pips():
    img, truth = _black_tile_on_wood(np.random.default_rng(7))
    width = tile_net.frame(truth)[3]
    boxes = pip_marks.boxes_at_loose_pips(img, width, [])
    assert boxes and max(_iou(b, truth) for b in boxes) >= 0.3  # near enough to be moved onto it
    # pips inside a tile already found are not loose
    assert pip_marks.boxes_at_loose_pips(img, width, [truth]) == []


@pytest.mark.parametrize("pips", [2, 3])
@pytest.mark.parametrize("turn", [0.0, 20.0, 70.0])
def test_a_two_or_three_alone_gets_a_box_on_its_tile(pips, turn):
    """A two or a three lies on a diagonal of its half, turned 45 degrees from the tile:
    where its other half is blank, its pips alone get a box lying on the tile, turned so
    (a [3|0] on white paper the finder misses is found so)."""
    width = 60.0
    along = np.array([math.cos(math.radians(turn)), math.sin(math.radians(turn))])
    across = np.array([-along[1], along[0]])
    centre = np.array([400.0, 300.0])
    tile = tile_net.box_corners(centre, along, width, 2 * width)
    half = centre + 0.5 * width * along
    steps = {2: (-0.25, 0.25), 3: (-0.25, 0.0, 0.25)}
    diagonal = np.array([half + k * width * (along + across) for k in steps[pips]])
    assert max(_iou(b, tile) for b in pip_marks._turned_boxes(diagonal, width)) > 0.9
    # the boxes along the pips and across them are turned 45 degrees from the tile
    assert max(_iou(b, tile) for b in pip_marks._boxes_about(diagonal, width)) < 0.6


def test_the_turned_boxes_come_after_every_group_s_usual_ones():
    """Boxes turned as a two or a three is on its tile follow the boxes along and across
    every group of loose pips, and crowd out none of those where there are many groups."""
    img = np.full((600, 800, 3), 60, np.uint8)
    groups = [((100 + 120 * i, 100 + 150 * j), (120 + 120 * i, 120 + 150 * j)) for i in range(6) for j in range(3)]
    for pair in groups:
        for x, y in pair:
            cv2.circle(img, (x, y), 5, (235, 235, 235), -1)
    boxes = pip_marks.boxes_at_loose_pips(img, 60.0, [])
    assert len(boxes) == pip_marks.MAX_BOXES < 6 * len(groups)  # six along and across each pair
    # each pair lies at 45 degrees: the boxes along and across it too, the turned ones not
    turns = [math.degrees(math.atan2(*tile_net.frame(b)[2][::-1])) % 90 for b in boxes]
    assert all(abs(t - 45) < 5 for t in turns)
    few = pip_marks.boxes_at_loose_pips(np.ascontiguousarray(img[:, :300]), 60.0, [])  # six pairs: room for more
    turned = [abs(math.degrees(math.atan2(*tile_net.frame(b)[2][::-1])) % 90 - 45) > 40 for b in few]
    assert len(few) == 6 * (6 + 4) and turned == [False] * 36 + [True] * 24


def test_a_group_of_pips_gets_boxes_before_lone_dots():
    """Lone dots (knots in the wood, crumbs) above a tile's pips do not use up the boxes."""
    img, truth = _black_tile_on_wood(np.random.default_rng(7))
    img, truth = np.ascontiguousarray(img[::-1]), truth * [1, -1] + [0, img.shape[0] - 1]  # the tile low
    width = tile_net.frame(truth)[3]
    low = int(truth[:, 1].min() - 0.5 * width)
    assert low > width  # room above the tile for the crumbs
    step = int(0.6 * width)  # each a group of its own
    for y in range(step // 2, low - step // 2, step):
        for x in range(step // 2, img.shape[1], step):
            cv2.circle(img, (x, y), max(2, int(0.08 * width)), (235, 235, 235), -1)
    boxes = pip_marks.boxes_at_loose_pips(img, width, [])
    assert len(boxes) == pip_marks.MAX_BOXES
    assert max(_iou(b, truth) for b in boxes) >= 0.3


def _polka_dot_cloth() -> np.ndarray:
    """A light cloth with a red dot of a pip's size every 22 pixels, over two thousand."""
    cloth = np.full((900, 1200, 3), 200, np.uint8)
    for y in range(10, 900, 22):
        for x in range(10 + (y // 22 % 2) * 11, 1200, 22):
            cv2.circle(cloth, (x, y), 4, (40, 40, 160), -1)
    return cloth


def test_a_polka_dot_cloth_is_not_taken_for_loose_pips():
    """Thousands of pip-sized dots are the table's pattern: no box is proposed about them
    (grouping them all would take 8 s on a gingham photo)."""
    cloth = _polka_dot_cloth()
    assert pip_marks.boxes_at_loose_pips(cloth, 60.0, []) == []
    few = np.full_like(cloth, 200)
    few[:100, :100] = cloth[:100, :100]  # a score of dots left: they are looked at
    assert pip_marks.boxes_at_loose_pips(few, 60.0, [])


def test_pips_on_a_gingham_cloth_are_looked_at():
    """Where a gingham's squares meet, two light and two dark quadrants make a dot of a
    pip's size, over a thousand of them; those dots are told from pips by the uneven
    ring about them, and a tile's loose pips still get boxes (of a harsh photo's ten
    tiles on gingham, all ten are read so, seven without)."""
    cloth = np.full((900, 1200, 3), 235, np.uint8)
    for k in range(0, 1200, 60):
        cloth[:, k:k + 30] = cloth[:, k:k + 30] // 2
    for k in range(0, 900, 60):
        cloth[k:k + 30] = cloth[k:k + 30] // 2
    rng = np.random.default_rng(3)
    cloth = np.clip(cloth + rng.normal(0, 4, cloth.shape), 0, 255).astype(np.uint8)
    cv2.GaussianBlur(cloth, (0, 0), 1.0, dst=cloth)
    truth = tile_net.box_corners(np.array([615.0, 445.0]), np.array([0.0, 1.0]), 50.0, 100.0)
    cv2.fillPoly(cloth, [truth.astype(np.int32)], (200, 225, 235))
    for x, y in [(600, 410), (630, 410), (615, 425), (600, 465), (630, 465), (600, 480), (630, 480)]:
        cv2.circle(cloth, (x, y), 4, (25, 25, 25), -1)
    lightness = cv2.LUT(shrunk(cloth, pip_marks.TILE_PX / 50.0, grey=True), pip_marks._GREY_LIGHTNESS)
    assert len(pip_marks._dots(lightness)) > pip_marks.MAX_DOTS
    boxes = pip_marks.boxes_at_loose_pips(cloth, 50.0, [])
    assert boxes and max(_iou(b, truth) for b in boxes) >= 0.3
    assert all(np.hypot(*(b.mean(axis=0) - truth.mean(axis=0))) < 150 for b in boxes)  # none on the cloth


def _halved(image: np.ndarray) -> np.ndarray:
    return cv2.resize(image, (image.shape[1] // 2, image.shape[0] // 2), interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize("f", [0.51, 0.6, 0.75, 0.87, 0.95])
def test_a_picture_shrunk_a_little_keeps_its_thin_lines(f):
    """Shrunk to more than half its size (linearly: AREA_BELOW), a picture keeps a dark
    line two pixels wide, wherever it lies, at least half as dark against the face about
    it: a small pip's edge is not lost between two samples."""
    for row in range(20, 60):
        image = np.full((100, 120, 3), 220, np.uint8)
        image[row:row + 2] = 20
        assert shrunk(image, f, grey=True).min() <= 120, (f, row)


def test_a_picture_shrunk_to_half_or_less_is_averaged_by_area_and_else_resized_linearly():
    rng = np.random.default_rng(2)
    image = rng.integers(0, 256, (300, 400, 3), dtype=np.uint8)
    for f in (0.5, 0.3, 0.6, 0.9):
        size = (round(400 * f), round(300 * f))
        way = cv2.INTER_AREA if f <= 0.5 else cv2.INTER_LINEAR
        assert np.array_equal(shrunk(image, f), cv2.resize(image, size, interpolation=way))


def test_loose_pips_are_looked_for_on_the_half_size_copy_when_given():
    """A photo decoded at twice the size is shrunk from its half-size copy (a quarter of
    the pixels to average): the tile's pips get boxes there as well, and it is that copy
    that is looked at (a blank one shows no pip)."""
    img, truth = _black_tile_on_wood(np.random.default_rng(7))
    width = tile_net.frame(truth)[3]
    assert pip_marks.TILE_PX / width <= 0.5
    boxes = pip_marks.boxes_at_loose_pips(img, width, [], half=_halved(img))
    assert boxes and max(_iou(b, truth) for b in boxes) >= 0.3
    assert pip_marks.boxes_at_loose_pips(img, width, [], half=np.zeros_like(_halved(img))) == []


def test_a_tile_the_colour_of_the_faces_read_gets_a_box():
    """On wood streaked with the faces' own colour, a rectangle of a tile's size in that
    colour with something else all round is where a tile lies: it gets a box, turned as
    it is; the streaks, a card of another colour and the tile already read get none."""
    face, wood, card = (200, 225, 235), (120, 135, 150), (200, 140, 90)
    table = np.full((600, 900, 3), wood, np.uint8)
    for y in range(-300, 900, 12):
        cv2.line(table, (0, y), (900, y + 300), face, 3)
    read = tile_net.box_corners(np.array([150.0, 150.0]), np.array([0.0, 1.0]), 40.0, 80.0)
    lying = tile_net.box_corners(np.array([520.0, 380.0]), np.array([math.cos(0.5), math.sin(0.5)]), 40.0, 80.0)
    other = tile_net.box_corners(np.array([760.0, 130.0]), np.array([0.0, 1.0]), 40.0, 80.0)
    for box, colour in ((read, face), (lying, face), (other, card)):
        cv2.fillPoly(table, [np.rint(box * 1.3 - box.mean(axis=0) * 0.3).astype(np.int32)], wood)
        cv2.fillPoly(table, [np.rint(box).astype(np.int32)], colour)
    for dx, dy in ((-10, -20), (10, -20), (0, 20)):
        cv2.circle(table, (150 + dx, 150 + dy), 4, (30, 30, 30), -1)
        cv2.circle(table, (520 + dx, 380 + dy), 4, (30, 30, 30), -1)
    boxes = face_marks.boxes_at_faces(table, 40.0, [read], [read])
    assert len(boxes) == 1 and _iou(boxes[0], lying) >= 0.6
    assert face_marks.boxes_at_faces(table, 40.0, [], []) == []
    # the same from the table's half-size copy, when the photo was decoded at twice the size
    boxes = face_marks.boxes_at_faces(table, 40.0, [read], [read], half=_halved(table))
    assert len(boxes) == 1 and _iou(boxes[0], lying) >= 0.6
    hidden = table.copy()  # it is that copy which is looked at: without the tile there, no box
    cv2.fillPoly(hidden, [np.rint(lying * 1.3 - lying.mean(axis=0) * 0.3).astype(np.int32)], wood)
    assert face_marks.boxes_at_faces(table, 40.0, [read], [read], half=_halved(hidden)) == []


def test_a_face_colour_is_read_inside_its_outline_even_past_the_photo_s_edge():
    """The faces' colour is the median inside the middle of a tile's outline (its pips are
    fewer): of the part on the photo when the tile runs off it, of the pixel nearest its
    centre when the whole middle is off it."""
    lab = np.full((100, 160, 3), (50, 128, 128), np.float32)
    on_photo = tile_net.box_corners(np.array([40.0, 50.0]), np.array([0.0, 1.0]), 30.0, 60.0)
    half_off = tile_net.box_corners(np.array([150.0, 95.0]), np.array([1.0, 0.0]), 20.0, 40.0)
    far_off = tile_net.box_corners(np.array([400.0, 30.0]), np.array([0.0, 1.0]), 10.0, 20.0)
    cv2.fillConvexPoly(lab, np.rint(on_photo).astype(np.int32), (200, 130, 140))
    cv2.fillConvexPoly(lab, np.rint(half_off).astype(np.int32), (90, 110, 100))
    for x, y in ((40, 50), (150, 95), (149, 95)):   # a pip at each tile's centre
        cv2.circle(lab, (x, y), 3, (20, 128, 128), -1)
    lab[30, 159] = (70, 150, 90)   # the pixel nearest the far tile's centre
    assert face_marks._face_colour(lab, on_photo).tolist() == [200, 130, 140]
    assert face_marks._face_colour(lab, half_off).tolist() == [90, 110, 100]
    assert face_marks._face_colour(lab, far_off).tolist() == [70, 150, 90]


@pytest.mark.parametrize("shape", [(1, 1), (5, 200), (30, 17), (241, 333), (597, 445)])
def test_the_faces_rectangles_are_matched_as_a_filter_would(shape):
    """The rectangles of face colour are matched by multiplying spectra: the same shares
    as filtering the mask with each turn's kernel (zero beyond its edges), and the same
    best turn, on masks smaller than a kernel, thin, odd-sized, or padded to a size
    other than the smallest one OpenCV's DFT takes fast (625, odd, made 640)."""
    assert face_marks._dft_size(597 + 2 * (face_marks._kernel(0).shape[0] // 2)) == 640
    mask = (np.random.default_rng(sum(shape)).random(shape) < 0.4).astype(np.float32)
    filtered = np.array([cv2.filter2D(mask, -1, face_marks._kernel(k), borderType=cv2.BORDER_CONSTANT)
                         for k in range(face_marks.TURNS)])
    best, turn = face_marks._best_rectangle(mask)
    assert best.shape == turn.shape == shape
    assert np.allclose(best, filtered.max(axis=0), atol=1e-5)
    chosen = np.take_along_axis(filtered, turn[None], axis=0)[0]
    assert np.allclose(chosen, filtered.max(axis=0), atol=1e-5)


@pytest.mark.parametrize("about", [(140, 90, 30, 20), (0, 0, 12, 300), (280, 190, 20, 10), (0, 0, 320, 200)])
def test_the_faces_rectangles_are_looked_for_about_the_colour_left_as_on_the_whole_mask(about):
    """Matched about a part of the mask only (where the faces' colour lies outside the
    tiles found), the places found are those found on the whole mask whose kernels
    reach that part, each with its share and a turn giving it, at the mask's edges too:
    none is weighed only against its neighbours inside the part."""
    rng = np.random.default_rng(sum(about))
    mask = (rng.random((200, 320)) < 0.05).astype(np.float32)  # specks of the table
    for _ in range(40):  # faces, 11 pixels wide
        centre, turn = rng.random(2) * (320, 200), rng.random() * np.pi
        face = tile_net.box_corners(centre, np.array([np.cos(turn), np.sin(turn)]), 11.0, 22.0)
        cv2.fillConvexPoly(mask, np.rint(face).astype(np.int32), 1.0)
    filtered = np.array([cv2.filter2D(mask, -1, face_marks._kernel(k), borderType=cv2.BORDER_CONSTANT)
                         for k in range(face_marks.TURNS)])
    whole = filtered.max(axis=0)
    square = np.ones((face_marks.TILE_PX, face_marks.TILE_PX), np.uint8)
    peaks = (whole >= face_marks.CONTRAST) & (whole >= cv2.dilate(whole, square))
    x, y, w, h = about
    c = face_marks._kernel(0).shape[0] // 2
    reaching = np.zeros(whole.shape, bool)
    reaching[max(0, y - c):y + h + c + 1, max(0, x - c):x + w + c + 1] = True
    places = face_marks._places_about(mask, np.array(about, np.float64))
    found = {(px, py): (share, turn) for share, px, py, turn in places}
    expected = {(int(px), int(py)) for py, px in zip(*np.nonzero(peaks & reaching))}
    every_peak = {(int(px), int(py)) for py, px in zip(*np.nonzero(peaks))}
    assert expected
    # the spectra round a little otherwise than the filter: a tie of two places may fall
    # either way, and nothing else differs
    ring = square.copy()
    ring[face_marks.TILE_PX // 2, face_marks.TILE_PX // 2] = 0  # the square's anchor: each place itself
    others = cv2.dilate(whole, ring)  # the best of its neighbours
    ties = {p for p in (expected | every_peak) ^ set(found) if abs(whole[p[1], p[0]] - others[p[1], p[0]]) < 1e-5}
    assert expected - ties <= set(found) and set(found) - ties <= every_peak
    for (px, py), (share, turn) in found.items():
        assert share == pytest.approx(whole[py, px], abs=1e-5)
        assert filtered[turn, py, px] == pytest.approx(share, abs=1e-5)


def test_tiles_the_colour_of_the_faces_in_far_corners_of_a_big_photo_get_boxes(monkeypatch):
    """Two tiles the looks missed, in opposite corners of a big photo of small tiles, one
    running off its edge, each get a box; with one missed alone, in the far corner, only
    the part of the photo about it is matched."""
    face, wood = (200, 225, 235), (110, 125, 140)
    table = np.full((1500, 2000, 3), wood, np.uint8)
    boxes = {name: tile_net.box_corners(np.array(centre), np.array([0.0, 1.0]), 30.0, 60.0)
             for name, centre in (("read", (1000.0, 750.0)), ("near", (45.0, 60.0)), ("far", (1985.0, 1440.0)))}
    for box in boxes.values():
        cv2.fillPoly(table, [np.rint(box).astype(np.int32)], face)
    cv2.circle(table, (1000, 735), 4, (30, 30, 30), -1)
    found = face_marks.boxes_at_faces(table, 30.0, [boxes["read"]], [boxes["read"]])
    assert len(found) == 2
    for name in ("near", "far"):
        assert max(_iou(b, boxes[name]) for b in found) >= 0.6, name
    matched = []
    best = face_marks._best_rectangle
    monkeypatch.setattr(face_marks, "_best_rectangle", lambda mask: matched.append(mask.size) or best(mask))
    found = face_marks.boxes_at_faces(table, 30.0, [boxes["read"]], [boxes["read"], boxes["near"]])
    assert len(found) == 1 and _iou(found[0], boxes["far"]) >= 0.6
    f = face_marks.TILE_PX / (30.0 * min(face_marks.SCALES))
    assert max(matched) < 0.05 * (1500 * f) * (2000 * f)


def test_a_sure_tile_is_kept_beside_a_less_sure_one_it_overlaps_a_little():
    """Tiles side by side: a surely read tile is not dropped for overlapping, by a third,
    a tile found less surely; it is for a tile found surely, or for one it overlaps by
    half or more (then it is that tile read again), and a tile it reads less surely is
    dropped."""
    def tile(x: float, confidence: float) -> Found:
        return Found(tile_net.box_corners(np.array([x, 100.0]), np.array([0.0, 1.0]), 40.0, 80.0), 7, 1, confidence)

    doubtful, sure = tile(100, 0.6), tile(100, 1.0)
    beside, on_top = tile(127, 1.0), tile(115, 1.0)
    assert not network_look._crowded(beside, [doubtful], [doubtful.corners])
    fair = tile(100, 0.85)
    assert not network_look._crowded(beside, [fair], [fair.corners])
    assert network_look._crowded(beside, [sure], [sure.corners])
    assert network_look._crowded(on_top, [doubtful], [doubtful.corners])
    assert network_look._crowded(tile(127, 0.9), [doubtful], [doubtful.corners])


def test_threads_read_with_the_network_at_once():
    """The web server reads photos on several threads, which share one session of the
    network: each thread's readings are its own, as when read alone."""
    from concurrent.futures import ThreadPoolExecutor

    photos = list(_photos())[:4]
    crops = [np.array([tile_net.crop(p.bgr, _truth_box(q)) for q in p.polygons]) for p in photos]
    alone = [[(a.top, a.bottom) for a in tile_net.read_crops(c)] for c in crops]
    with ThreadPoolExecutor(4) as pool:
        for _ in range(5):
            together = list(pool.map(lambda c: [(a.top, a.bottom) for a in tile_net.read_crops(c)], crops))
            assert together == alone


def _ivory_on_felt() -> tuple[np.ndarray, list[np.ndarray], list[tuple[int, int]]]:
    """Six ivory tiles on felt (test_finder_look's hand read by the quick look): the
    photo, its tiles' boxes and their halves."""
    photo = _on_felt()
    return photo.bgr, [_truth_box(p) for p in photo.polygons], list(photo.tiles)


def test_pips_no_tile_covers_tell_a_tile_missed():
    """The quick look's reading is checked for pips it leaves outside its tiles: none when
    every tile is covered, some when any one is not."""
    img, boxes, tiles = _ivory_on_felt()
    width = float(np.median([tile_net.frame(b)[3] for b in boxes]))
    assert not pip_marks.pips_left(img, width, boxes)
    for k in range(len(boxes)):
        assert pip_marks.pips_left(img, width, boxes[:k] + boxes[k + 1:]), tiles[k]


def test_dots_at_a_tile_s_edge_are_not_pips_left():
    """A tile's side and its shadow on a dark table make dark dots at the edge of its face,
    which the search about loose pips looks at; with table on one side of them, their
    ring is not a face's, and they are no tile missed. The same dots on the face are."""
    table = np.full((600, 800, 3), (60, 60, 60), np.uint8)
    tile = tile_net.box_corners(np.array([400.0, 300.0]), np.array([0.0, 1.0]), 60.0, 120.0)
    cv2.fillPoly(table, [np.rint(tile).astype(np.int32)], (225, 230, 235))
    at_edge, on_face = table.copy(), table.copy()
    for y in (270, 290):
        cv2.circle(at_edge, (370, y), 5, (20, 20, 20), -1)  # on the face's left edge (x = 370)
        cv2.circle(on_face, (400, y), 5, (20, 20, 20), -1)
    assert pip_marks.boxes_at_loose_pips(at_edge, 60.0, [])  # dots, looked at
    assert not pip_marks.pips_left(at_edge, 60.0, [])
    assert pip_marks.pips_left(on_face, 60.0, [])


def test_pips_may_hide_in_a_dotted_cloth():
    """Among more pip-like dots than MAX_DOTS, each on a plain ring (a polka-dot cloth),
    a missed tile's pips cannot be told: they are taken to be left."""
    cloth = _polka_dot_cloth()
    assert pip_marks.pips_left(cloth, 60.0, [])
    assert not pip_marks.pips_left(np.full_like(cloth, 200), 60.0, [])


def test_the_faces_colour_where_no_tile_is_read_tells_a_blank_tile_missed():
    """A blank half shows no pip to be left over; the faces' colour, where no tile read
    covers it, shows it: none left when every tile is covered, some when a tile with a
    blank half is not (so a [0|0] on felt the quick look misses is told)."""
    img, boxes, tiles = _ivory_on_felt()
    width = float(np.median([tile_net.frame(b)[3] for b in boxes]))
    sure = [b for b, t in zip(boxes, tiles) if sum(t) > 1]
    assert not face_marks.face_left(img, width, sure, boxes)
    blank = [k for k, t in enumerate(tiles) if min(t) == 0]
    assert len(blank) == 2
    for k in blank:
        assert face_marks.face_left(img, width, sure, boxes[:k] + boxes[k + 1:])


def test_a_strip_of_face_an_outline_falls_short_of_is_no_tile_missed():
    """An outline read a fifth of a tile's width short at one end (as those of tiles end to
    end in a chain may be) leaves a strip of face uncovered: too narrow to be a tile's
    face (face_marks.LEFT_ACROSS), it is not taken for one missed."""
    img, boxes, tiles = _ivory_on_felt()
    width = float(np.median([tile_net.frame(b)[3] for b in boxes]))
    sure = [b for b, t in zip(boxes, tiles) if sum(t) > 1]
    for k, box in enumerate(boxes):
        centre, across, along, w, length = tile_net.frame(box)
        short = tile_net.box_corners(centre + along * 0.1 * w, across, w, length - 0.2 * w)
        assert not face_marks.face_left(img, width, sure, boxes[:k] + [short] + boxes[k + 1:]), tiles[k]


def test_a_strip_of_face_along_an_outline_is_no_tile_missed():
    """An outline read half a tile's width narrow on one side leaves a strip of face
    uncovered along it, as the side wall of a thick tile seen at an angle does (ivory,
    as its face, and outside the outline of the face read): the outlines grown by
    LEFT_MARGIN, it is not taken for a tile missed (ungrown, two such strips are)."""
    img, boxes, tiles = _ivory_on_felt()
    width = float(np.median([tile_net.frame(b)[3] for b in boxes]))
    sure = [b for b, t in zip(boxes, tiles) if sum(t) > 1]
    for k, box in enumerate(boxes):
        centre, across, along, w, length = tile_net.frame(box)
        narrow = tile_net.box_corners(centre + across * 0.25 * w, along, 0.5 * w, length)
        assert not face_marks.face_left(img, width, sure, boxes[:k] + [narrow] + boxes[k + 1:]), tiles[k]


def test_the_network_searches_only_where_the_classical_tiles_leave_something_unread(monkeypatch):
    """Where the classical looks' tiles leave no pips and none of their faces' colour
    outside them, the network makes none of its searches (next to the tiles, about loose
    pips, at the faces' colour): those tiles are the hand. Where they missed one, it
    searches, and the hand is whole again."""
    img, boxes, tiles = _ivory_on_felt()
    searched = _searches(monkeypatch)
    classical = [Found(b, *t, 0.95) for b, t in zip(boxes, tiles)]
    hand = sorted((max(t), min(t)) for t in tiles)
    read = network_look.put_together(img, classical, [])
    assert sorted(f.tile for f in read) == hand
    assert not searched
    for k in range(len(tiles)):
        read = network_look.put_together(img, classical[:k] + classical[k + 1:], [])
        assert searched, tiles[k]
        assert sorted(f.tile for f in read) == hand, tiles[k]
        searched.clear()


def _ivory_tiles_on_felt(patch: np.ndarray | None) -> tuple[np.ndarray, list[Found]]:
    """Three ivory tiles 60 pixels wide on green felt, each with a pip a half and a divider,
    and `patch` (a polygon) painted ivory too: the photo and the tiles, read surely."""
    img = np.full((480, 640, 3), (40, 90, 30), np.uint8)
    tiles = []
    for x in (150, 320, 490):
        box = tile_net.box_corners(np.array([float(x), 240.0]), np.array([0.0, 1.0]), 60.0, 120.0)
        cv2.fillPoly(img, [np.rint(box).astype(np.int32)], (200, 225, 235))
        cv2.line(img, (x - 25, 240), (x + 25, 240), (30, 30, 30), 3)
        for y in (210, 270):
            cv2.circle(img, (x, y), 6, (30, 30, 30), -1)
        tiles.append(Found(box, 1, 1, 0.95))
    if patch is not None:
        cv2.fillPoly(img, [np.rint(patch).astype(np.int32)], (200, 225, 235))
    return img, tiles


def test_the_faces_colour_in_no_tile_sized_rectangle_leaves_the_searches_nothing():
    """Ivory left beside a tile in a patch too short to be a tile (a thick tile's side wall
    and its shadow on a photo taken at an angle) is the faces' colour left unread, but in
    no rectangle of a tile's size: the classical looks' tiles leave the network's searches
    nothing to look at there. A blank tile missed is a tile-sized rectangle."""
    wall = np.array([[180.0, 200.0], [216.0, 200.0], [216.0, 236.0], [180.0, 236.0]])
    img, tiles = _ivory_tiles_on_felt(wall)
    assert not network_look.leaves_nothing_unread(img, tiles)
    assert network_look.leaves_nothing_unread(img, tiles, in_rectangles=True)
    blank = tile_net.box_corners(np.array([320.0, 400.0]), np.array([1.0, 0.0]), 60.0, 120.0)
    img, tiles = _ivory_tiles_on_felt(blank)
    assert not network_look.leaves_nothing_unread(img, tiles, in_rectangles=True)
    img, tiles = _ivory_tiles_on_felt(None)
    assert network_look.leaves_nothing_unread(img, tiles)


def test_the_classical_tiles_beside_a_side_wall_make_no_search(monkeypatch):
    """The classical looks' tiles read beside ivory in no tile-sized rectangle (a side
    wall) are the hand, and the network makes no search about them."""
    wall = np.array([[180.0, 200.0], [216.0, 200.0], [216.0, 236.0], [180.0, 236.0]])
    img, tiles = _ivory_tiles_on_felt(wall)
    searched = _searches(monkeypatch)
    read = network_look.put_together(img, tiles, [])
    assert sorted(f.tile for f in read) == [(1, 1)] * 3
    assert not searched


def test_the_faces_colour_mask_is_every_pixel_near_a_face_s_colour():
    """The mask of the faces' colours, taken in one pass per colour, marks exactly the
    pixels within FACE_DISTANCE of one of them, as measured colour by colour (Lab values
    are whole numbers, a face's colour a median: a half at times)."""
    rng = np.random.default_rng(11)
    lab = rng.integers(0, 256, (120, 160, 3)).astype(np.float32)
    colours = [lab[10, 10] + [0.5, 0.0, 0.5], lab[60, 80].copy(), lab[100, 150] + [0.0, 0.5, 0.0]]
    # about the second colour, pixels at the threshold (a squared distance of 100: not
    # near) and just inside it (98, 97)
    for k, step in enumerate([(0, 10, 0), (0, 6, 8), (20, 0, 0), (2, 9, 4), (18, 4, 0)]):
        lab[0, k] = colours[1] + step
    near = np.min([face_marks._distance(lab, c) for c in colours], axis=0) < face_marks.FACE_DISTANCE ** 2
    mask = face_marks._face_mask(lab, colours)
    assert mask.dtype == np.float32 and near[0, :5].tolist() == [False, False, False, True, True]
    assert np.array_equal(mask > 0, near)


def _ivory_tiles_on_cream(rng: np.random.Generator) -> tuple[np.ndarray, list[Found]]:
    """_ivory_tiles_on_felt's three tiles on a cream table of their faces' hue, a little
    darker, with some grain."""
    img, tiles = _ivory_tiles_on_felt(None)
    felt = (img == (40, 90, 30)).all(axis=2)
    img[felt] = np.clip(np.array([185, 210, 220]) + rng.normal(0, 3, (int(felt.sum()), 3)), 0, 255).astype(np.uint8)
    return img, tiles


def test_a_table_of_the_faces_colour_is_told():
    """Tiles on a table of their faces' colour leave it all about them
    (face_marks.face_everywhere); on felt, or with a blank tile missed on felt, they do not."""
    img, tiles = _ivory_tiles_on_cream(np.random.default_rng(1))
    width, outlines = 60.0, [f.corners for f in tiles]
    assert face_marks.face_everywhere(img, width, outlines, outlines)
    img, tiles = _ivory_tiles_on_felt(None)
    assert not face_marks.face_everywhere(img, width, outlines, outlines)
    blank = tile_net.box_corners(np.array([320.0, 400.0]), np.array([1.0, 0.0]), 60.0, 120.0)
    img, tiles = _ivory_tiles_on_felt(blank)
    assert not face_marks.face_everywhere(img, width, outlines, outlines)


def test_the_search_at_the_faces_colour_matches_no_rectangle_on_a_table_of_that_colour(monkeypatch):
    """On a table of the faces' colour no rectangle of it stands out where a blank tile was
    missed, and the search there, 20 to 40 ms of a 12 MP photo's read, is not made: no
    rectangle is matched and no box given. On felt a blank tile missed is looked for."""
    matched = []
    places_about = face_marks._places_about
    monkeypatch.setattr(face_marks, "_places_about", lambda *a: matched.append(1) or places_about(*a))
    img, tiles = _ivory_tiles_on_cream(np.random.default_rng(1))
    outlines = [f.corners for f in tiles]
    assert face_marks.boxes_at_faces(img, 60.0, outlines, outlines) == [] and not matched
    blank = tile_net.box_corners(np.array([320.0, 400.0]), np.array([1.0, 0.0]), 60.0, 120.0)
    img, tiles = _ivory_tiles_on_felt(blank)
    boxes = face_marks.boxes_at_faces(img, 60.0, outlines, outlines)
    assert matched and any(points_inside(blank.mean(axis=0)[None], box)[0] for box in boxes)


def _searches(monkeypatch) -> list[str]:
    """A list that gains the name of each of the network's searches as it is made."""
    searched = []
    for name in ("_with_loose_pips", "_with_neighbours", "_at_faces"):
        search = getattr(network_look, name)
        monkeypatch.setattr(network_look, name, lambda *a, _s=search, _n=name, **k: searched.append(_n) or _s(*a, **k))
    return searched


def test_the_quick_look_on_a_light_table_searches_only_where_it_may_be_made_whole(monkeypatch):
    """Given the finder's boxes alone (no classical tile), the network searches about the
    tiles it reads; on a light table (the classical looks follow a quick look that leaves
    something unread there) only where that may make them whole (may_complete), and
    elsewhere it reads no tile at all: not on a table of the faces' colour, where a blank
    tile missed cannot be told, nor where it reads no tile surely."""
    from vision.finder_look import QuickLook

    searched = _searches(monkeypatch)
    img, tiles = _ivory_tiles_on_felt(None)
    boxes = [f.corners for f in tiles]
    network_look.put_together(img, [], boxes[:2], light=True)
    assert searched
    searched.clear()
    found = network_look.put_together(img, [], boxes, light=True)
    assert sorted(f.tile for f in found) == [(1, 1)] * 3
    assert QuickLook(found, img, None, light=True).leaves_nothing_unread()
    searched.clear()
    cream, _ = _ivory_tiles_on_cream(np.random.default_rng(1))
    assert sorted(f.tile for f in network_look.put_together(cream, [], boxes)) == [(1, 1)] * 3
    searched.clear()
    assert network_look.put_together(cream, [], boxes, light=True) == [] and not searched
    bare = np.full((480, 640, 3), (40, 90, 30), np.uint8)
    assert network_look.put_together(bare, [], boxes, light=True) == [] and not searched
    network_look.put_together(bare, [], boxes)
    assert searched


def test_the_quick_look_on_a_light_table_counts_the_faces_colour_in_rectangles_only():
    """On a light table the quick look takes the faces' colour left beside its tiles in
    no tile-sized rectangle (a thick tile's side wall) for none; elsewhere it counts it.
    A blank tile missed is told on either."""
    from vision.finder_look import QuickLook

    wall = np.array([[180.0, 200.0], [216.0, 200.0], [216.0, 236.0], [180.0, 236.0]])
    img, tiles = _ivory_tiles_on_felt(wall)
    assert QuickLook(tiles, img, None, light=True).leaves_nothing_unread()
    assert not QuickLook(tiles, img, None).leaves_nothing_unread()
    blank = tile_net.box_corners(np.array([320.0, 400.0]), np.array([1.0, 0.0]), 60.0, 120.0)
    img, tiles = _ivory_tiles_on_felt(blank)
    assert not QuickLook(tiles, img, None, light=True).leaves_nothing_unread()


def _blank_beside_the_middle_tile(centre: tuple[float, float], turn: float = 0.0) -> tuple[np.ndarray, list[Found]]:
    """_ivory_tiles_on_felt with a [0|0] (its divider drawn) centred at `centre`, its long
    axis turned `turn` degrees from the tiles' (upright)."""
    a = math.radians(turn)
    along = np.array([math.sin(a), math.cos(a)])
    across = np.array([along[1], -along[0]])
    c = np.array(centre)
    img, tiles = _ivory_tiles_on_felt(tile_net.box_corners(c, along, 60.0, 120.0))
    cv2.line(img, tuple(np.int32(c - 25 * across)), tuple(np.int32(c + 25 * across)), (30, 30, 30), 3)
    return img, tiles


def test_a_tile_sized_rectangle_hugging_a_tile_read_counts_only_where_the_network_reads_a_tile(monkeypatch):
    """A thick tile's side wall and the shadow it casts across its end, of the faces'
    colour, make a tile-sized rectangle a sixth of a tile's width off the tile read: the
    network, reading a tile's box about it, finds only that tile, and on a light table the
    rectangle is no tile missed. A [0|0] lying flush against a tile whose outline was read
    3 pixels too wide on its side makes one as near: the network reads the blank there
    (its box overlapping the tile's outline by 0.42, THE_TILE_BESIDE), and it is counted;
    had the network read nothing there, it would not be. A blank further off is counted
    whatever the network reads."""
    wall = np.array([[108.0, 296.0], [192.0, 296.0], [192.0, 332.0], [108.0, 332.0]])
    img, tiles = _ivory_tiles_on_felt(wall)
    outlines = [f.corners for f in tiles]
    assert face_marks.rectangles_left(img, 60.0, outlines, outlines)
    assert not network_look.leaves_nothing_unread(img, tiles)
    assert network_look.leaves_nothing_unread(img, tiles, in_rectangles=True)

    img, tiles = _blank_beside_the_middle_tile((380.0, 240.0))
    tiles[1] = Found(tile_net.box_corners(np.array([321.5, 240.0]), np.array([0.0, 1.0]), 63.0, 120.0), 1, 1, 0.95)
    assert not network_look.leaves_nothing_unread(img, tiles, in_rectangles=True)
    monkeypatch.setattr(network_look, "_follow", lambda *a: [])
    assert network_look.leaves_nothing_unread(img, tiles, in_rectangles=True)
    far = tile_net.box_corners(np.array([320.0, 400.0]), np.array([1.0, 0.0]), 60.0, 120.0)
    img, tiles = _ivory_tiles_on_felt(far)
    assert not network_look.leaves_nothing_unread(img, tiles, in_rectangles=True)


@pytest.mark.parametrize("centre, turn", [((390.0, 200.0), 30.0), ((385.0, 240.0), 15.0)],
                         ids=["about the rectangle", "next to the tile"])
def test_the_network_reads_a_blank_about_a_rectangle_and_next_to_the_tile_it_hugs(centre, turn, monkeypatch):
    """Every rectangle of the faces' colour weighed by the network (HUG widened), a [0|0]
    lying at a slant against the middle tile is read and counted: on the first, only by a
    tile's box about the rectangle's middle; on the second, only next to the tile, where
    the search next to tiles looks."""
    monkeypatch.setattr(network_look, "HUG", 10.0)
    img, tiles = _blank_beside_the_middle_tile(centre, turn)
    assert not network_look.leaves_nothing_unread(img, tiles, in_rectangles=True)


def test_on_a_table_a_face_down_tile_is_no_tile_missed():
    """On a photo of a table, the boneyard's face-down tiles lie beside the layout: a back
    of the faces' colour (a plain rectangle with a maker's name, no divider) is no tile
    missed there, nor are pip-like crumbs on the cloth, where the network reads no tile
    about them; on a hand's photo each sends the photo on to the classical looks. A
    [0|0] missed, its divider showing, and a tile whose pips are left, are told on
    either."""
    back = tile_net.box_corners(np.array([320.0, 400.0]), np.array([1.0, 0.0]), 60.0, 120.0)
    img, tiles = _ivory_tiles_on_felt(back)
    cv2.putText(img, "ROMA", (282, 408), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (140, 60, 20), 2)
    assert network_look.leaves_nothing_unread(img, tiles, on_a_table=True)
    assert not network_look.leaves_nothing_unread(img, tiles, in_rectangles=True)

    img, tiles = _ivory_tiles_on_felt(None)
    for x in (300, 320, 340):
        cv2.circle(img, (x, 420), 6, (225, 230, 235), -1)
    assert pip_marks.boxes_at_pips_left(img, 60.0, [f.corners for f in tiles])
    assert network_look.leaves_nothing_unread(img, tiles, on_a_table=True)
    assert not network_look.leaves_nothing_unread(img, tiles, in_rectangles=True)

    img, tiles = _ivory_tiles_on_felt(back)
    cv2.line(img, (320, 375), (320, 425), (30, 30, 30), 3)
    assert not network_look.leaves_nothing_unread(img, tiles, on_a_table=True)

    img, tiles = _ivory_tiles_on_felt(None)
    assert network_look.leaves_nothing_unread(img, tiles, on_a_table=True)
    assert not network_look.leaves_nothing_unread(img, tiles[:1] + tiles[2:], on_a_table=True)
