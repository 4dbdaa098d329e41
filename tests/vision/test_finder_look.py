"""Busy photos, photos whose tiles the quick look reads all (the tile finder's boxes read
by the tile network), on any table, and photos of small tiles decoded at a reduced size
are read by the quick look; the others, and those it reads no tile on, by the classical
looks, and by the finder too where those need it."""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from PIL import Image

import vision
from tools.generators.enlarged_photos import enlarged
from tools.generators.synthetic_photos import make_photo
from vision import box_reading, classical_look, finder_look, pipeline, tile_finder
from vision.effort import Effort
from vision.found import Found
from vision.loading import load_photo

from .test_looks import _harsh, quick_look_reads_nothing


def _gingham() -> tuple[bytes, list[tuple[int, int]]]:
    """Thirteen tiles with engraved dividers on gingham (harsh seed 9, photo 34): the
    classical looks fit hundreds of boxes to its checks."""
    return _harsh(9, 34, "JPEG")


def _on_paper(seed: int = 3, style: str = "ivory", size: tuple[int, int] = (1200, 900)):
    """Six tiles scattered on paper: seed 3's paper is ivory, the faces' colour; seed 1's
    light grey, seed 2's white."""
    return make_photo(np.random.default_rng(seed), n_tiles=6, size=size, style=style, background="paper",
                      layout="scatter")


def _spy(monkeypatch, module, name: str) -> list[int]:
    """A list that gains an item each time `module`'s `name` is called."""
    calls = []
    fn = getattr(module, name)
    monkeypatch.setattr(module, name, lambda *a, **k: calls.append(1) or fn(*a, **k))
    return calls


def _on_felt():
    return make_photo(np.random.default_rng(3), n_tiles=6, size=(1200, 900), style="ivory", background="felt",
                      layout="scatter")


def test_a_cloth_is_busy_paper_is_light_and_felt_is_neither():
    gingham, _ = _gingham()
    assert finder_look.table(load_photo(gingham)).busy
    assert finder_look.table(load_photo(_on_paper().encode("jpeg"))) == finder_look.Table(busy=False, light=True)
    assert finder_look.table(load_photo(_on_felt().encode("jpeg"))) == finder_look.Table(busy=False, light=False)


def test_a_busy_photo_is_read_by_the_quick_look_alone(monkeypatch):
    classical = _spy(monkeypatch, classical_look, "first_looks")
    data, truth = _gingham()
    hand = vision.read_hand(data)
    assert sorted(t.halves for t in hand.tiles) == truth
    assert classical == []


def test_a_hand_on_felt_is_read_by_the_quick_look_alone(monkeypatch):
    quick, classical = _spy(monkeypatch, pipeline, "quick_look"), _spy(monkeypatch, classical_look, "first_looks")
    photo = _on_felt()
    hand = vision.read_hand(photo.encode("jpeg"))
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)
    assert (quick, classical) == ([1], [])


@pytest.mark.parametrize("missed", [(12, 9), (5, 0)])
def test_a_tile_the_quick_look_misses_sends_the_photo_to_the_classical_looks(missed, monkeypatch):
    """The quick look made to miss one tile of a hand on felt: its pips ([12|9]), or the
    faces' colour where its blank half lies ([5|0]), are left where no tile was read, and
    the classical looks read the photo, every tile of it."""
    classical = _spy(monkeypatch, classical_look, "first_looks")
    quick_look = pipeline.quick_look
    monkeypatch.setattr(pipeline, "quick_look", lambda *a, **k: replace(
        look := quick_look(*a, **k), found=[f for f in look.found if f.tile != missed]))
    photo = _on_felt()
    assert missed in photo.tiles
    hand = vision.read_hand(photo.encode("jpeg"))
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)
    assert classical == [1]


def _finder_runs(monkeypatch) -> list[int]:
    """A list that gains an item each time the tile finder looks at a photo (at its coarse
    levels first, whether for its boxes or to tell whether the tiles are small)."""
    runs = []
    coarse_levels = tile_finder.coarse_levels
    monkeypatch.setattr(tile_finder, "coarse_levels", lambda *a: runs.append(1) or coarse_levels(*a))
    return runs


def test_a_hand_on_paper_is_read_by_the_quick_look_alone(monkeypatch):
    """Ivory tiles on light grey paper, a light table: the quick look reads them all, the finder
    looking at the photo once."""
    quick, classical = _spy(monkeypatch, pipeline, "quick_look"), _spy(monkeypatch, classical_look, "first_looks")
    finder = _finder_runs(monkeypatch)
    photo = _on_paper(1)
    hand = vision.read_hand(photo.encode("jpeg"))
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)
    assert (quick, classical, finder) == ([1], [], [1])


@pytest.mark.parametrize("seed, style", [(3, "ivory"), (2, "white_colour")])
def test_a_hand_on_paper_of_its_faces_colour_is_read_by_the_classical_looks(seed, style, monkeypatch):
    """Ivory tiles on ivory paper, white ones on white paper: the faces' colour lies all
    about the tiles the network reads on the finder's boxes (network_look.may_complete),
    where a blank tile missed would not be told, so the quick look reads none, and the
    classical looks read the photo after it."""
    looks, classical = [], _spy(monkeypatch, classical_look, "first_looks")
    quick_look = pipeline.quick_look
    monkeypatch.setattr(pipeline, "quick_look", lambda *a, **k: looks.append(quick_look(*a, **k)) or looks[-1])
    photo = _on_paper(seed, style)
    hand = vision.read_hand(photo.encode("jpeg"))
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)
    assert [look.found for look in looks] == [[]] and classical == [1]


def test_small_tiles_on_a_png_are_read_with_the_finder_s_boxes(monkeypatch):
    """Sixteen small tiles on a plain table (harsh seed 16, photo 35) as a PNG, which has
    no sharper decoding to be looked at closer: the first look finds them narrower than
    SMALL_TILE at the working size, and the finder's boxes are read with its own, not
    those of the look for faint dividers."""
    classical, finder = _spy(monkeypatch, classical_look, "classical_end"), _finder_runs(monkeypatch)
    data, truth = _harsh(16, 35, "PNG")
    photo = load_photo(data)
    first, _ = classical_look.first_looks(photo.bgr, Effort())
    assert pipeline._small_at_work(photo.bgr, first)
    hand = vision.read_hand(data)
    assert sorted(t.halves for t in hand.tiles) == truth
    assert (classical, finder) == ([], [1])


def test_small_tiles_on_a_plain_table_are_read_by_the_quick_look(monkeypatch):
    """Sixteen small tiles on a 3 MP JPEG of a plain table (harsh seed 16, photo 35): the
    first look finds them narrower than SHARPER_TILE on the photo decoded at half its
    size. The quick look reads them, not the rest of the classical looks, on the photo
    decoded again at full size; every tile is outlined where it lies on the photo."""
    quick, classical = _spy(monkeypatch, pipeline, "quick_look"), _spy(monkeypatch, classical_look, "classical_end")
    decoded = []
    sharper = finder_look.sharper_photo
    monkeypatch.setattr(finder_look, "sharper_photo", lambda *a: decoded.append(sharper(*a)) or decoded[-1])
    data, truth, centres = _harsh(16, 35, "JPEG", centres=True)
    photo = load_photo(data)
    assert not finder_look.table(photo).busy and photo.scale == 2
    hand = vision.read_hand(data)
    assert sorted(t.halves for t in hand.tiles) == truth
    assert (quick, classical) == ([1], [])
    assert len(decoded) == 1 and decoded[0].bgr.shape[:2] == (2 * photo.bgr.shape[0], 2 * photo.bgr.shape[1])
    read = np.array([np.mean(t.polygon, axis=0) for t in hand.tiles])
    assert np.linalg.norm(read[:, None] - centres[None], axis=2).min(axis=0).max() < 15


def _levels(monkeypatch) -> list[float]:
    """A list that gains the side of every level the tile finder looks at a photo at."""
    sides = []
    at_level = tile_finder._at_level
    monkeypatch.setattr(tile_finder, "_at_level",
                        lambda image, side, *a, **k: sides.append(side) or at_level(image, side, *a, **k))
    return sides


def _light_table(monkeypatch) -> None:
    """Every photo's table taken for a light, plain one (finder_look.table)."""
    monkeypatch.setattr(finder_look, "table", lambda photo: finder_look.Table(busy=False, light=True))


def _quick_look_leaves_something_unread(monkeypatch) -> None:
    """The quick look's tiles, whatever they are, taken to leave something unread, so that
    the classical looks follow it."""
    monkeypatch.setattr(finder_look.QuickLook, "leaves_nothing_unread", lambda look, on_a_table=False: False)


def test_small_tiles_on_a_light_table_are_read_by_the_quick_look_alone(monkeypatch):
    """The sixteen small tiles of harsh seed 16, photo 35, their table taken for a light
    one, are read by the quick look on a sharper decoding, as on any table, and no
    classical look is made. The finder looks at each of its levels once."""
    _light_table(monkeypatch)
    calls, sides = _looks(monkeypatch), _levels(monkeypatch)
    data, truth = _harsh(16, 35, "JPEG")
    hand = vision.read_hand(data)
    assert sorted(t.halves for t in hand.tiles) == truth
    assert calls == ["quick"]
    assert sorted(sides) == sorted(tile_finder.LEVELS)


def test_big_tiles_on_a_light_table_cost_the_finder_its_coarse_levels_alone(monkeypatch):
    """Six big ivory tiles on paper, a JPEG decoded at half its size: the finder's coarse
    levels find them surely, so its finest level, which finds small tiles only, is not
    looked at, and the quick look reads them all (no classical look is made)."""
    photo = _on_paper(2, size=(2000, 1500))
    data = photo.encode("jpeg")
    assert finder_look.table(load_photo(data)).light
    classical, sides = _spy(monkeypatch, classical_look, "first_looks"), _levels(monkeypatch)
    hand = vision.read_hand(data)
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)
    assert classical == [] and sides == list(tile_finder.LEVELS[1:])


def test_big_tiles_at_an_angle_the_classical_looks_read_cost_the_finder_its_coarse_levels_alone(monkeypatch,
                                                                                               photos_dir):
    """Five big ivory tiles on white paper, taken at an angle, in a 12 MP JPEG (a real
    photo enlarged), read by the classical looks (the quick look made to read nothing):
    they read them doubtfully and take the finder's boxes (the photo was taken at an
    angle), those of its coarse levels alone: the tiles they measured are far too wide
    for its finest level. They are read right."""
    data = enlarged(photos_dir / "MikeyGBG__BETR-" / "domino.jpg")
    assert finder_look.table(load_photo(data)).light
    quick_look_reads_nothing(monkeypatch)
    needed, sides = [], _levels(monkeypatch)
    needs = pipeline.needs_finder
    monkeypatch.setattr(pipeline, "needs_finder", lambda *a: needed.append(needs(*a)) or needed[-1])
    hand = vision.read_hand(data)
    assert sorted(t.halves for t in hand.tiles) == sorted([(6, 5), (6, 6), (6, 3), (3, 3), (3, 2)])
    assert needed == [True] and sides == list(tile_finder.LEVELS[1:])


def _looks(monkeypatch) -> list:
    """A list that gains, for each classical look (classical_look.look), its marks threshold (None
    for the usual one) and the Look it returned; and "quick" for each quick look."""
    calls = []
    analyse, quick = classical_look.look, pipeline.quick_look

    def look(*a, **k):
        calls.append((k.get("threshold"), analyse(*a, **k)))
        return calls[-1][1]

    monkeypatch.setattr(classical_look, "look", look)
    monkeypatch.setattr(pipeline, "quick_look", lambda *a, **k: calls.append("quick") or quick(*a, **k))
    return calls


def test_the_first_look_stops_once_it_sees_small_tiles(monkeypatch):
    """Where the quick look leaves something unread, the first classical look at small
    tiles on a JPEG decoded at a reduced size stops as soon as two tiles read fairly
    surely show them small: the quick look's tiles are taken, and the rest of the first
    look would be thrown away. The tiles found by their bodies tell it here, so no
    divider is even looked for."""
    _quick_look_leaves_something_unread(monkeypatch)
    data, truth = _harsh(16, 35, "JPEG")
    calls, dividers = _looks(monkeypatch), _spy(monkeypatch, classical_look, "find_bars")
    hand = vision.read_hand(data)
    assert sorted(t.halves for t in hand.tiles) == truth
    quick, (threshold, first) = calls
    assert threshold is None and first.cut_short and len(first.kept) == classical_look.SMALL_SEEN and quick == "quick"
    assert dividers == [] and all(c.box.body for c in first.kept)
    monkeypatch.undo()
    whole = classical_look.look(load_photo(data).bgr, effort=Effort())
    assert not whole.cut_short and len(whole.proposals) > len(first.proposals) + 2


def test_a_look_told_to_stop_at_small_tiles_reads_big_ones_as_a_whole_look_does(monkeypatch):
    """Told to stop once it sees small tiles, a look at big ones reads the boxes of the
    tiles' bodies first, then every box: it keeps the same tiles and reads the same boxes
    as a whole look, and reads no box twice (with no divider to be seen, the bodies' boxes
    are read again after the search for dividers)."""
    photo = make_photo(np.random.default_rng(3), n_tiles=6, size=(1200, 900), style="ivory", background="felt",
                       layout="scatter", divider="none")
    detail = load_photo(photo.encode("jpeg")).bgr
    whole_effort, told_effort = Effort(), Effort()
    whole = classical_look.look(detail, effort=whole_effort)
    boxes = []
    candidate = box_reading.read_candidate
    monkeypatch.setattr(box_reading, "read_candidate", lambda d, box, f: boxes.append(box) or candidate(d, box, f))
    told = classical_look.look(detail, effort=told_effort, until_small=True)
    assert not told.cut_short and len({id(b) for b in boxes}) == len(boxes) >= len(photo.tiles)
    assert told_effort == whole_effort  # the same work counted
    assert [c.corners_detail.tolist() for c in told.kept] == [c.corners_detail.tolist() for c in whole.kept]
    assert [p.tolist() for p in told.proposals] == [p.tolist() for p in whole.proposals]


def test_small_tiles_the_quick_look_reads_none_of_are_read_by_the_classical_looks(monkeypatch):
    """...and when the quick look reads none, the first look is made whole again for the
    classical looks (not given the finder's boxes again: the quick look read those)."""
    quick_look_reads_nothing(monkeypatch)
    given = []
    classical_end = classical_look.classical_end
    monkeypatch.setattr(classical_look, "classical_end", lambda *a: given.append(a[1]) or classical_end(*a))
    data, truth = _harsh(16, 35, "JPEG")
    hand = vision.read_hand(data)
    assert len(given) == 1 and not given[0].cut_short and len(given[0].kept) > classical_look.SMALL_SEEN
    assert len(hand.tiles) >= len(truth) - 2 and Counter(t.halves for t in hand.tiles) <= Counter(truth)


@pytest.mark.parametrize("quick_reads", [True, False])
def test_the_look_for_faint_dividers_waits_for_the_quick_look(quick_reads, monkeypatch):
    """Where the quick look leaves something unread, a first classical look that finds no
    tile on a JPEG decoded at a reduced size takes the quick look's tiles; the look for
    faint dividers is made only if that read nothing."""
    _quick_look_leaves_something_unread(monkeypatch)
    buf = io.BytesIO()
    Image.new("RGB", (2400, 1800), (150, 120, 90)).save(buf, "JPEG", quality=90)
    calls = _looks(monkeypatch)
    tile = Found(np.array([[60.0, 40], [40, 40], [40, 80], [60, 80]]), 3, 2, 0.9)
    # the network's reading (the quick look's) is made to read one tile, or none
    monkeypatch.setattr(finder_look.network_look, "put_together",
                        lambda *a, **k: [tile] if quick_reads and not a[1] else [])
    hand = vision.read_hand(buf.getvalue())
    order = [c if c == "quick" else c[0] for c in calls]
    assert order[:2] == ["quick", None]
    assert (classical_look.FAINT_THRESHOLD in order) is not quick_reads
    assert [t.halves for t in hand.tiles] == ([(3, 2)] if quick_reads else [])


def test_a_chain_on_wood_is_read_exactly():
    """Eleven small tiles in a chain on wood (harsh seed 3, photo 30, a busy 4 MP JPEG),
    read by the quick look, every one, as the classical looks read them (test_looks)."""
    data, truth = _harsh(3, 30, "JPEG")
    assert sorted(t.halves for t in vision.read_hand(data).tiles) == truth


@pytest.mark.parametrize("width, height", [(60000, 16), (16, 9000), (16, 16)])
def test_photos_of_odd_shapes_are_read_without_error(width, height):
    """A strip or a speck (the smallest photo taken, MIN_SIDE) is no hand, but it is no
    crash either: no tile is read."""
    buf = io.BytesIO()
    Image.new("RGB", (width, height), (200, 180, 150)).save(buf, format="PNG")
    assert vision.read_hand(buf.getvalue()).tiles == []


def test_a_busy_photo_the_quick_look_reads_no_tile_on_is_read_by_the_classical_looks(monkeypatch):
    quick_look_reads_nothing(monkeypatch)
    classical = _spy(monkeypatch, classical_look, "classical_end")
    data, truth = _gingham()
    hand = vision.read_hand(data)
    assert classical == [1]
    assert sorted(t.halves for t in hand.tiles) == truth


def test_the_finder_finds_every_tile_of_a_photo_on_paper_at_its_size():
    photo = _on_paper()
    found = tile_finder.find(photo.bgr)
    for poly in photo.polygons:
        centre, width = np.mean(poly, axis=0), np.linalg.norm(np.subtract(poly[0], poly[1]))
        near = [c for c, _ in found if np.linalg.norm(c.mean(axis=0) - centre) < width / 3]
        assert near, f"no box at the tile centred at {centre}"
        assert any(0.7 < np.linalg.norm(c[0] - c[1]) / width < 1.4 or 0.7 < np.linalg.norm(c[1] - c[2]) / width < 1.4
                   for c in near)


def test_the_finder_looks_at_its_finest_level_only_where_the_tiles_may_be_small(monkeypatch):
    """Three quarters of the finder's work is its finest level, which finds small tiles only:
    it is skipped when the coarser levels find big tiles surely (six on paper, found all
    the same above; two close up, found at the next coarser level only), not when the
    tiles are small (sixteen on a 3 MP JPEG), which it finds."""
    sides = _levels(monkeypatch)
    tile_finder.find(_on_paper().bgr)
    assert tile_finder.LEVELS[0] not in sides and tile_finder.LEVELS[1] in sides
    sides.clear()
    close = make_photo(np.random.default_rng(4), n_tiles=2, size=(1000, 750), style="ivory", background="wood",
                       layout="scatter")
    found = tile_finder.find(close.bgr)
    assert tile_finder.LEVELS[0] not in sides
    for poly in close.polygons:
        assert min(np.linalg.norm(c.mean(axis=0) - np.mean(poly, axis=0)) for c, _ in found) < 30
    sides.clear()
    data, _, centres = _harsh(16, 35, "JPEG", centres=True)
    photo = load_photo(data)
    found = tile_finder.find(photo.bgr)
    assert tile_finder.LEVELS[0] in sides
    boxes = np.array([c.mean(axis=0) for c, _ in found]) * photo.scale
    # within half a tile (they touch side by side 55 pixels apart): the network moves the box on
    assert np.linalg.norm(boxes[:, None] - centres[None], axis=2).min(axis=0).max() < 28


def test_the_finder_s_input_is_opencv_s_blob_bit_for_bit():
    """The finder is shown each level as OpenCV's blob making would lay it out, whether
    the values are written into a fresh array or into one kept for the next photo."""
    import cv2

    rng = np.random.default_rng(5)
    for shape in ((768, 1024, 3), (85, 114, 3), (8, 9, 3)):
        image = rng.integers(0, 256, shape, dtype=np.uint8)
        blob = cv2.dnn.blobFromImage(image, 1 / 64.0, mean=(128.0, 128.0, 128.0))
        assert np.array_equal(tile_finder.prepared(image), blob)
        kept = np.full((1, 3, *shape[:2]), np.nan, np.float32)
        assert tile_finder.prepared(image, kept) is kept and np.array_equal(kept, blob)
    with pytest.raises(ValueError):
        tile_finder.prepared(image[:, :, 0])  # grey
    with pytest.raises(ValueError):
        tile_finder.prepared(image, np.empty((1, 3, 9, 8), np.float32))  # not its size


def test_threads_find_tiles_at_once():
    """The web server reads photos on several threads, each with its own kept input
    arrays for the finder (one thread's for the next photo, not another's): each thread
    finds what the finder finds alone."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    shape = (768, 1024)
    mine = tile_finder._kept(shape)
    other = []
    thread = threading.Thread(target=lambda: other.append(tile_finder._kept(shape)))
    thread.start()
    thread.join()
    assert tile_finder._kept(shape) is mine and other[0] is not mine
    assert tile_finder._kept((85, 114)) is None  # a coarse level's input is not worth keeping

    images = [load_photo(_harsh(16, 35, "JPEG")[0]).bgr, _on_paper().bgr, _gingham_photo_bgr()]

    def found(image):
        return [(corners.round(3).tolist(), round(chance, 4)) for corners, chance in tile_finder.find(image)]

    alone = [found(image) for image in images]
    with ThreadPoolExecutor(3) as pool:
        for _ in range(3):
            assert list(pool.map(found, images * 2)) == alone * 2


def _gingham_photo_bgr() -> np.ndarray:
    return load_photo(_gingham()[0]).bgr


@pytest.mark.parametrize("what", ["the finder's coarse levels", "the tiles' bodies"])
def test_threads_look_at_their_photos_side_by_side(what, monkeypatch):
    """What is looked for once per photo and kept (what the finder sees, Sight; the working
    image's bodies, Working) is looked for on two threads' photos at the same time: one
    thread does not wait for the other's (functools.cached_property, on Python 3.11, would
    make it, holding one lock for every photo). Each of the two looks waits here until
    the other has begun, which only looks made side by side can do."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    both_begun = threading.Barrier(2, timeout=10)

    def begun(*a):
        both_begun.wait()
        return [[], [], []] if what.startswith("the finder") else ([], [])

    image = np.zeros((300, 400, 3), np.uint8)
    if what.startswith("the finder"):
        monkeypatch.setattr(tile_finder, "coarse_levels", begun)
        look = lambda: finder_look.Sight(image).coarse  # noqa: E731
    else:
        monkeypatch.setattr(classical_look, "find_bodies", begun)
        look = lambda: classical_look.Working(image).bodies  # noqa: E731
    with ThreadPoolExecutor(2) as pool:
        assert all(r is not None for r in pool.map(lambda _: look(), range(2)))
