"""The pipeline, from the bytes of a photo to the Hand read on it.

bytes -> pixels (loading.py) -> the table (finder_look.table) -> the quick look
(finder_look.py: the tile finder's boxes read by the tile network) -> Hand, for a busy
photo, for one on any other table whose tiles read leave no pips nor faces' colour
unread, and for small tiles on a big JPEG. For the others: the classical looks
(classical_look.py: divider bars and bodies -> tile boxes -> pips) -> the tile
network's reading of every box they read, put together with their tiles
(network_look.py), with the tile finder's boxes too where the first look finds small
tiles or a photo taken at an angle (needs_finder) -> Hand. _read_tiles chooses.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from dataclasses import replace

import cv2
import numpy as np

from . import (annotate, classical_look, finder_look, network_look, perspective, set_consensus, table_view, tile_finder,
               tile_net)
from .box_reading import CLEAN, SURE, Candidate, confidence
from .classical_look import Look
from .effort import Effort
from .errors import PhotoError, VisionUnavailable
from .finder_look import QuickLook, quick_look
from .loading import Photo, load_photo, sharper_decoding
from .found import Found
from .result import LOW_CONFIDENCE, Hand, Tile

#: Tiles narrower than this (working pixels) are small: the tile finder's boxes are read too
#: (needs_finder).
SMALL_TILE = 30
#: The confidence of a tile read twice is this share of its own.
TWICE = 0.6


#: Whether ready() has run (taken by one thread at a time: a web server's threads may
#: take read_hand at once).
_readied = False
_readying = threading.Lock()


def ready() -> None:
    """Do once, before the first photo, what its reading would otherwise pay for (0.1 s):
    load the three networks and run each once, read a small blank photo, on which OpenCV
    builds its tables for the Lab colour space (40 ms on their first use) and Pillow
    loads its JPEG plugins, and take a median along an axis (numpy then imports its
    masked arrays, 6 ms). Unreadied, a fresh process reads its first 12 MP photo in 0.22 s
    and the next ones in 0.08 s; readied, the first takes about as long as the next. A
    network that cannot be loaded (a damaged file) raises VisionUnavailable: the photo
    is not at fault, and the next call tries again."""
    global _readied
    with _readying:
        if _readied:
            return
        try:
            tile_net.session(tile_net.WEIGHTS)
            tile_net.session(tile_finder.WEIGHTS)
            tile_net.session(tile_finder.TABLE_WEIGHTS)
        except Exception as exc:
            raise VisionUnavailable(f"its networks could not be loaded: {exc}") from None
        tile_net.read_crops([np.zeros((tile_net.IN_H, tile_net.IN_W, 3), np.uint8)])
        tile_finder.answers(np.zeros((64, 64, 3), np.uint8))
        tile_finder.answers(np.zeros((64, 64, 3), np.uint8), tile_finder.TABLE_WEIGHTS)
        _, blank = cv2.imencode(".jpg", np.full((48, 64, 3), 128, np.uint8))
        read_hand_bytes(blank.tobytes())
        np.median(np.zeros((1, 2)), axis=1)
        _readied = True


def read_hand_bytes(data: bytes, on_a_table: bool = False) -> Hand:
    """The Hand read on the photo `data` (of a Chicken Foot table, `on_a_table`: see
    _read_tiles): PhotoError where it cannot be decoded or read."""
    started = time.perf_counter()
    photo = load_photo(data)
    try:
        return read_photo(photo, started, data, on_a_table)
    except (MemoryError, KeyboardInterrupt):
        raise
    except Exception as exc:  # never let an odd photo crash the caller
        raise PhotoError(f"the photo could not be analysed ({exc.__class__.__name__})") from exc


def read_photo(photo: Photo, started: float | None = None, data: bytes | None = None,
               on_a_table: bool = False) -> Hand:
    """The Hand read on `photo` (decoded from `data`, which a sharper decoding needs; of a
    table, `on_a_table`), its time counted from `started`."""
    started = time.perf_counter() if started is None else started
    found, detail, photo = _read_tiles(photo, data, on_a_table)
    tiles: list[Tile] = []
    for f in found:
        # the `a` half's end first: a table's reading tells a toe by the end its number is on
        poly = (np.roll(f.corners, -2, axis=0) if f.top >= f.bottom else f.corners) * photo.scale
        tiles.append(Tile(*f.tile, tuple((float(x), float(y)) for x, y in poly), round(f.confidence, 3)))
    # a set holds each tile once: the same tile read twice means one reading is wrong,
    # and each is marked for checking (the surer keeping the higher confidence)
    seen = Counter((t.a, t.b) for t in tiles)
    tiles = [t if seen[(t.a, t.b)] == 1 else Tile(t.a, t.b, t.polygon, round(TWICE * t.confidence, 3))
             for t in tiles]
    row = max(1.0, _row_height(tiles))
    tiles.sort(key=lambda t: (round(np.mean([p[1] for p in t.polygon]) / row), np.mean([p[0] for p in t.polygon])))
    scale = photo.scale  # the hand keeps the pixels it shows, not the photo's other decoding
    hand = Hand(tiles=tiles, width=photo.width, height=photo.height,
                _render=lambda hd, side, highlight=None, total=True: annotate.render(detail, scale, hd, side, highlight,
                                                                                   total))
    hand.seconds = time.perf_counter() - started
    return hand


def _read_from_above(quick: QuickLook) -> list[Found] | None:
    """The tiles of a table photographed from a seat, read on its view from above
    (table_view), which the tiles the quick look read surely tell, and put back on its
    photo; None where they show no tilt, or where the view reads fewer tiles than the
    quick look did (a tilt told wrong: the photo's own reading stands)."""
    found = quick.found
    view = table_view.from_above(quick.detail, [f.corners for f in found], [f.confidence >= table_view.SURE for f in found])
    if view is None:
        return None
    h, w = view.bgr.shape[:2]
    above, _, _ = _read_tiles(Photo(bgr=view.bgr, scale=1.0, width=w, height=h, format="view"), None, True,
                              turned=True)
    if len(above) < len(found):
        return None
    return [replace(f, corners=view.on_photo(f.corners)) for f in above]


def _read_tiles(photo: Photo, data: bytes | None, on_a_table: bool = False, turned: bool = False
                ) -> tuple[list[Found], np.ndarray, Photo]:
    """The tiles read on `photo` (decoded from `data`), the photo in BGR they were read on
    and that photo. The quick look (finder_look) reads a busy photo, and one on any other
    table where its tiles leave no pips nor faces' colour outside them
    (QuickLook.leaves_nothing_unread; on a light table, see finder_look.table, as
    quick_look says). The classical looks read the others, and those the quick look
    reads no tile on; their tiles are put together with the network's reading of every
    box they read, and of the finder's boxes when the first look needs them
    (needs_finder). Where the first look finds small tiles (or none) on a JPEG decoded at
    a reduced size, the quick look's tiles are taken after all: it reads those as well as
    the classical looks, in about half their time. On a photo of a table (`on_a_table`),
    the finder trained on tables gives the boxes (finder_look.Sight), and pips and the
    faces' colour left count only where the network reads a tile there
    (network_look.leaves_nothing_unread): its boneyard's face-down tiles lie beside the
    layout; and where the quick look's tiles show the table photographed from a seat, the
    tiles are read on its view from above instead (_read_from_above; `turned`: this is
    that view)."""
    detail = photo.bgr
    table = finder_look.table(photo)
    sight = finder_look.Sight(detail, on_a_table)  # what the finder sees, looked for once, where first needed
    effort = Effort()  # the quick look's work and the classical looks' after it, together
    quick = quick_look(photo, sight, data, effort, light=table.light)
    above = _read_from_above(quick) if on_a_table and not turned else None
    if above is not None:
        return above, quick.detail, quick.photo
    if quick.found and (table.busy or quick.leaves_nothing_unread(on_a_table)):
        return quick.found, quick.detail, quick.photo
    finder_seen = table.busy  # a busy photo: the quick look found nothing on the finder's boxes
    if table.busy or not sharper_decoding(photo, data):
        first, faint_looked = classical_look.first_looks(detail, effort)
    else:
        # The quick look's tiles are taken if they are small (or none is seen): the first
        # look stops as soon as it sees them small, and the look for faint dividers waits
        # for the quick look to have found nothing.
        first = classical_look.look(detail, effort=effort, until_small=True)
        finder_seen = small_tiles(photo, data, first.kept)
        if finder_seen and quick.found:
            return quick.found, quick.detail, quick.photo
        if first.cut_short:  # made whole again for the classical looks (the same Working)
            first = classical_look.look(detail, working=first.working, effort=effort)
        first, faint_looked = classical_look.first_looks(detail, effort, first)
    # its photo may be a sharper decoding (9 MB for a 3 MP JPEG; a bigger JPEG's photo
    # keeps that decoding anyway, Photo.twice)
    del quick
    if not finder_seen and needs_finder(detail, first):
        widths = [set_consensus.detail_width(c) for c in set_consensus.measuring(first.kept)]
        look, boxes = first, sight.boxes_of_tiles(widths)
    else:
        look, boxes = classical_look.classical_end(detail, first, faint_looked, effort), []
    classical = [Found(c.corners_detail, c.reading.top.count, c.reading.bottom.count, confidence(c)) for c in look.kept]
    proposals = look.proposals + boxes
    del first, look  # their Working (an edge field and contrast maps, 11 MB) is of no use to the network
    return network_look.put_together(detail, classical, proposals, effort), detail, photo


def small_tiles(photo: Photo, data: bytes | None, kept: list[Candidate]) -> bool:
    """Whether the tiles `kept` by the first look (or none) are small on `photo`, a JPEG
    decoded at a reduced size from `data`: a tile 30 pixels wide there has pips of 3 or
    4 pixels, found at the working size by their bodies at best."""
    measuring = set_consensus.measuring(kept)
    return sharper_decoding(photo, data) and (not measuring or set_consensus.seen_small(measuring))


def needs_finder(detail: np.ndarray, first: Look) -> bool:
    """Whether the first look at `detail` leaves tiles that the classical looks would
    miss, and the tile finder sees: small ones (_small_at_work) or a photo taken at an
    angle (_taken_at_an_angle). The finder's boxes, read by the network with the first
    look's, read as many tiles right on the development sets (860 harsh and real photos,
    and the real ones turned and relit) as further classical looks (at 1.6 times the
    size, at twice the decoding, from above: up to three more) would, in a fifth less
    time."""
    return _small_at_work(detail, first) or _taken_at_an_angle(detail, first.kept)


def _small_at_work(detail: np.ndarray, first: Look) -> bool:
    """Whether the first look's tiles are small at the working size (narrower than
    SMALL_TILE; or than 1.4 times that when a quarter of them are doubtful), or it found
    none that tell, on a photo big enough to show them larger. Not on a busy background
    (leather, a floral tray) where the first look found a tile: there more would mostly
    be texture. Where it found none, a photo read as no tile is no use."""
    kept = first.kept
    widths = [c.box.width for c in set_consensus.measuring(kept)]
    small = (not widths) or float(np.median(widths)) < SMALL_TILE or (
        _doubtful(kept) and float(np.median(widths)) < 1.4 * SMALL_TILE)
    return small and (not first.busy or not kept) and max(detail.shape[:2]) >= 1.5 * classical_look.WORK_LONG_SIDE


def _taken_at_an_angle(detail: np.ndarray, kept: list[Candidate]) -> bool:
    """Whether the tiles found show that the photo was taken at an angle (see
    perspective.py): the tilt is measured on the sizes of the tiles read cleanly, or
    guessed from their shapes when there are too few of them and one is doubtful (none
    clean: a usual tilt is supposed). Not when no tile was found, nor when every tile
    reads surely (confidence 0.9 and up), nor when the few tiles found read cleanly and
    none doubtfully: on the development sets a view from above found no more tiles on
    such photos."""
    if _all_sure(kept) or not kept:
        return False
    h, w = detail.shape[:2]
    good = [c for c in kept if c.score >= CLEAN]
    if len(good) >= perspective.MIN_TILES:
        return perspective.fit_turn(*perspective.measures([c.corners_detail for c in good]), w, h) is not None
    if not good:
        return True
    if not any(confidence(c) < LOW_CONFIDENCE for c in kept):
        return False
    return perspective.tilt_from_shapes([c.corners_detail for c in good]) >= perspective.MIN_TILT


def _all_sure(kept: list[Candidate]) -> bool:
    """Whether tiles were found and every one of them reads surely (confidence SURE)."""
    return bool(kept) and all(confidence(c) >= SURE for c in kept)


def _doubtful(kept: list[Candidate]) -> bool:
    """No tile found, or a quarter or more of those found are doubtful."""
    return not kept or sum(confidence(c) < LOW_CONFIDENCE for c in kept) >= max(1, 0.25 * len(kept))


def _row_height(tiles: list[Tile]) -> float:
    if not tiles:
        return 1.0
    sizes = []
    for t in tiles:
        p = np.array(t.polygon)
        sizes.append(min(np.linalg.norm(p[0] - p[1]), np.linalg.norm(p[1] - p[2])))
    return float(np.median(sizes)) * 1.5
