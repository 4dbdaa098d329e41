"""The classical looks: tiles found by their dividers and by their bodies on a working
copy of the photo, and read box by box.

A look is made on the photo shrunk to WORK_LONG_SIDE pixels (Working: that image, its
edge field, its marks' contrast maps and the tiles' bodies found on it, each made once
and shared by every look at the photo). Divider bars are found among the marks
(dividers.find_bars) and each is fitted with a tile box (geometry.fit_tile); the
tiles' bodies (bodies.find_bodies) add boxes of their own. The boxes are read the most
promising first (box_reading), held against what the tiles read cleanly agree on
(set_consensus), and overlapping readings are resolved: a Look keeps the tiles that
rank highest and the outlines of every box it read (its proposals, which the tile
network reads again: network_look.py). The first look is made at the usual marks
threshold; a look for faint dividers, at a lower one, follows where the first finds
nothing on a quiet photo or tiles whose dividers are faint (first_looks, classical_end).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from . import box_reading
from .bodies import every_split, find_bodies
from .box_reading import CLEAN, OVERLAPPING, SURE, Candidate, confidence, mostly_inside, prerank, rank
from .dividers import MARK_THRESHOLD, find_bars, map_pyramid
from .effort import Effort
from .geometry import (EdgeField, TileBox, corners_overlap, dedupe_bars, ends_inside_face, fit_tile, join_split_bars,
                       measure_flatness, overlap)
from .loading import Photo
from .result import LOW_CONFIDENCE
from .set_consensus import (SizeModel, at_consensus, doubtful_blank, doubtful_body, measuring, retry_at_width,
                            second_looks, seen_small, split_blocks, unlike_set)

#: The longer side, in pixels, of the working copy of the photo every look is made on.
WORK_LONG_SIDE = 640
#: A reading that ranks lower than this (box_reading.rank) is no tile.
MIN_SCORE = 0.15
#: At most this many divider candidates are examined (busy backgrounds make hundreds).
MAX_BARS = 100
#: At most this many tile boxes are read.
MAX_READS = 60
#: At most this many boxes of blocks split every way are shown to the tile network.
MAX_SPLITS = 48
#: A look told to stop once its tiles are small stops when this many tell.
SMALL_SEEN = 2
#: The marks threshold of the look for faint dividers (see classical_end; the first
#: look's is dividers.MARK_THRESHOLD). Used on every photo, it found more tiles on
#: rendered photos of such sets but lost as many on turned copies of the real ones:
#: fainter marks are also wood grain, shadows and pip halos.
FAINT_THRESHOLD = 30
#: That look is taken when the tiles found differ from the face along their divider by
#: less than this (colour units, the median over the tiles): the real development sets'
#: dividers stand out by 55 to 95, the faint engraved ones of rendered sets by 25 to 50.
FAINT_DIVIDER = 55.0


class Working:
    """The photo `detail` (BGR) at the working size (WORK_LONG_SIDE), scaled by `f`:
    every look at one photo is made at that size (the first, the one for faint dividers,
    the first made whole again once it was cut short), and they share this image, its
    edge field, its marks' contrast maps and the tiles' bodies and blocks found on it
    (each made once, when first asked for: shrinking a 12 MP photo decoded at a quarter
    to it takes 4 ms, its edge field 3 to 4, its contrast maps 5)."""

    def __init__(self, detail: np.ndarray) -> None:
        self.f = WORK_LONG_SIDE / max(detail.shape[:2])
        self.image = cv2.resize(detail, _work_size(detail.shape),
                                interpolation=cv2.INTER_AREA if self.f < 1 else cv2.INTER_LINEAR)
        # kept here, not by functools.cached_property: on Python 3.11 that holds one lock
        # for every instance, and the web server's threads would wait for each other's
        self._field: EdgeField | None = None
        self._maps: list[list[np.ndarray]] | None = None
        self._bodies: tuple[list[TileBox], list[TileBox]] | None = None

    @property
    def field(self) -> EdgeField:
        if self._field is None:
            self._field = EdgeField(self.image)
        return self._field

    @property
    def maps(self) -> list[list[np.ndarray]]:
        """The marks' contrast maps at every pyramid level (dividers.map_pyramid)."""
        if self._maps is None:
            self._maps = map_pyramid(self.image)
        return self._maps

    @property
    def bodies(self) -> tuple[list[TileBox], list[TileBox]]:
        """The tiles' bodies and blocks found on the image (bodies.find_bodies)."""
        if self._bodies is None:
            self._bodies = find_bodies(self.image)
        return self._bodies


def _work_size(shape: tuple) -> tuple[int, int]:
    """The width and height of the working image of an image of `shape` (WORK_LONG_SIDE long)."""
    h, w = shape[:2]
    f = WORK_LONG_SIDE / max(h, w)
    return max(1, round(w * f)), max(1, round(h * f))


@dataclass
class Look:
    """What one look at the photo found: its tiles (`kept`), whether the background was
    busy, the photo at the size it was made at (Working: the tiles' bodies and blocks
    found there, among others), and the outlines on the photo of every box it read
    (`proposals`: the tile network reads them again, network_look.py)."""

    kept: list[Candidate]
    busy: bool
    working: Working
    proposals: list[np.ndarray] = field(default_factory=list)
    #: Stopped once its tiles were seen to be small (look's `until_small`): `kept`
    #: holds only those that tell, and `busy` is False when it stopped before it looked
    #: for dividers (not known then).
    cut_short: bool = False


def analyse(photo: Photo) -> list[Candidate]:
    """The tiles the classical looks alone find on `photo`: the first look, and the look
    for faint dividers when that one asks for it (first_looks, classical_end), whether or
    not the pipeline would give the photo to the quick look, or the finder's boxes in place
    of the look for faint dividers (pipeline.needs_finder). The tests measure those looks so."""
    effort = Effort()
    first, faint_looked = first_looks(photo.bgr, effort)
    return classical_end(photo.bgr, first, faint_looked, effort).kept


def first_looks(detail: np.ndarray, effort: Effort, first: Look | None = None) -> tuple[Look, bool]:
    """The first look at `detail` (the photo in BGR; `first`, when it was made already),
    and whether it found nothing on a quiet photo, so that it was looked at again for
    faint dividers (whose look is then the one returned, with the first's Working and the
    proposals of both)."""
    if first is None:
        first = look(detail, effort=effort)
    if first.kept or first.busy:
        return first, False
    # a set whose dividers are fine engraved lines may show none to the usual threshold
    return _with_faint_look(detail, first, effort), True


def classical_end(detail: np.ndarray, first: Look, faint_looked: bool, effort: Effort) -> Look:
    """The `first` look at `detail` put together with the look for faint dividers, when
    the tiles found have faint ones (_faint) on a quiet photo not looked at so already
    (`faint_looked`), its work counted in `effort`. Some sets' dividers are a fine engraved
    line, barely darker than the face: at the working size it is a pixel wide and stands
    out by less than the marks threshold. Looked for even when every tile found reads
    surely: a photo of such a set may show only some of its dividers. It is at the first
    look's size, so what was made there (its Working) is passed on."""
    if not _faint(first.kept) or first.busy or faint_looked:
        return first
    return _with_faint_look(detail, first, effort)


def _faint(kept: list[Candidate]) -> bool:
    """Whether the tiles found have faint dividers (or there are none): a sign that the
    set's dividers are fine engraved lines, some of them missed by the first look."""
    return not kept or float(np.median([c.reading.divider_contrast for c in kept])) < FAINT_DIVIDER


def _with_faint_look(detail: np.ndarray, first: Look, effort: Effort) -> Look:
    """The `first` look at `detail` put together with the look for faint dividers at its
    size (its Working: the same image, edge field, contrast maps and bodies), the work
    counted in `effort`: the tiles of both (_merged: where the first found none, the
    faint look's), and the proposals of both."""
    faint = look(detail, threshold=FAINT_THRESHOLD, working=first.working, effort=effort)
    return Look(_merged(first.kept, faint.kept), first.busy, first.working, first.proposals + faint.proposals)


def _merged(kept: list[Candidate], found: list[Candidate]) -> list[Candidate]:
    """The tiles of the look whose tiles rank higher in all, and those of the other look
    read clearly (not marked for checking) where the first has none: a second look at
    another threshold finds the tiles the first one missed, and may lose a few of those
    it found. Its doubtful tiles are left out: where the first look found nothing, they
    are more often texture read as a tile."""
    base, other = (found, kept) if _outranks(found, kept) else (kept, found)
    out = list(base)
    for c in sorted(other, key=lambda c: -rank(c)):
        if confidence(c) >= LOW_CONFIDENCE and all(_overlap_on_photo(c, k) < OVERLAPPING for k in out):
            out.append(c)
    return out


def _overlap_on_photo(a: Candidate, b: Candidate) -> float:
    """Intersection area / smaller area of two tiles' outlines on the photo."""
    return corners_overlap(a.corners_detail, b.corners_detail)


def _outranks(found: list[Candidate], kept: list[Candidate]) -> bool:
    """Whether another look's tiles rank higher in all than those kept so far."""
    return sum(rank(c) for c in found) > sum(rank(c) for c in kept)


def look(detail: np.ndarray, threshold: int = MARK_THRESHOLD, working: Working | None = None, *,
         effort: Effort, until_small: bool = False) -> Look:
    """The look at `detail` at the working size (`working`: the Working an earlier look at
    `detail` made, or a new one, which the Look returned carries): the tiles found,
    whether the background was busy (more marks or divider candidates than are
    examined), and the outlines on `detail` of the boxes read. Its work is counted in
    `effort` (the work done reading the photo). With `until_small` it stops as soon as
    SMALL_SEEN of the tiles read tell that they are small (seen_small): such a photo is
    read by the quick look (pipeline._read_tiles), which has no use for the rest of this
    look. Those tiles are the look's only ones then (`cut_short`). The two most
    promising tiles read fairly surely tell nearly always what all of them do: of 720
    harsh photos (18 seeds from 5 to 34), 213 are quiet JPEGs decoded at a reduced size;
    on 50 of them the first look stopped so, and the whole look would have found one of
    those 50 not small (that photo reads alike either way). Small tiles are found by
    their bodies, so those boxes are read first, before any divider is looked for."""
    working = Working(detail) if working is None else working
    work, f = working.image, working.f
    hw, hh = work.shape[1], work.shape[0]
    readings: dict[int, tuple[TileBox, Candidate | None]] = {}  # id(box): the box and its reading, made once
    if until_small:
        # small tiles are found by their bodies (their dividers are a pixel or two wide
        # here): when the bodies' tiles tell that they are small, the look stops before
        # it has searched for dividers at all
        _, read, _, telling = _read_boxes(detail, working.bodies[0], f, readings, until_sized=True)
        if telling is not None:
            effort.look(hw * hh, None, len(read))
            return Look(telling, False, working, [b.corners() / f for b in read], cut_short=True)
    field = working.field
    bars, capped = find_bars(work, threshold=threshold, maps=working.maps)
    marked = len(bars)
    busy = capped or sum(not b.half for b in bars) > 2 * MAX_BARS
    if len(bars) > 2 * MAX_BARS:
        bars = _most_divider_like(bars, field, 2 * MAX_BARS)
    measure_flatness(bars, field)
    bars = [b for b in join_split_bars(dedupe_bars(bars)) if b.joined or not b.half]
    if len(bars) > MAX_BARS:
        bars = _most_divider_like(bars, field, MAX_BARS)
    seen: list[TileBox] = []
    boxes = []
    unfitted: list = []  # bars with no tile edges found beside them
    for bar in bars:
        box = fit_tile(bar, field)
        if box is None:
            unfitted.append(bar)
            continue
        if not mostly_inside(box, hw, hh):
            continue
        if any(_same_box(box, o) for o in seen):
            continue  # the same bar found twice (two pyramid levels, two contrast maps)
        seen.append(box)
        boxes.append(box)
    # and the tiles that stand out from the table by their bodies: their dividers may
    # be too faint or blurred to be found
    bodies, blocks = working.bodies
    boxes += [b for b in bodies if not any(_same_box(b, o) for o in seen)]
    cands, read, rejected, telling = _read_boxes(detail, boxes, f, readings, until_small=until_small)
    read_first = len(readings) - len(read)  # bodies' boxes read first, and not again since
    if telling is not None:
        effort.look(hw * hh, marked, len(readings))
        return Look(telling, busy, working, [b.corners() / f for b in read], cut_short=True)
    # One set per photo: the divider spans the same fraction of the width on every tile.
    # Tiles whose measured width disagrees with that are re-read at the consensus width.
    good = [c for c in cands if c.score >= CLEAN and not c.box.body]  # bodies' bars are supposed
    if len(good) >= 2:
        rho = float(np.median([c.box.bar.length / c.box.width for c in good]))
        if len(good) >= 3:
            cands = [at_consensus(detail, c, rho, f) for c in cands]
        lengths = SizeModel([(c.box.bar.cx, c.box.bar.cy, c.box.bar.length) for c in good])
        again = second_looks(rejected, unfitted, lengths, field)
        cands = cands + retry_at_width(detail, again, cands, rho, f, (hw, hh), read)
    good = [c for c in cands if c.score >= CLEAN]  # with the second looks' tiles
    if blocks or (good and bodies):
        cands = cands + split_blocks(detail, blocks, bodies, cands, good, f, read)
        good = [c for c in cands if c.score >= CLEAN]
    if len(good) >= 3:
        # and tiles are about the size of their neighbours (the table's perspective allowing)
        widths = SizeModel([(c.box.cx, c.box.cy, c.box.width) for c in good])
        cands = [c for c in cands if 0.6 <= c.box.width / widths.at(c.box.cx, c.box.cy) <= 1.6]
    cands = [c for c in cands
             if rank(c) >= MIN_SCORE and not doubtful_blank(c, cands, detail, f) and not doubtful_body(c)]
    cands.sort(key=lambda c: -rank(c))
    # A clean box that contains a smaller one wins over it unless clearly worse: boxes
    # built on a pip's edge or on a tile's border sit inside real tiles.
    for c in cands:
        c.score_rank = rank(c)
    for c in cands:
        for o in cands:
            if o is c or o.box.polygon_area() >= 0.7 * c.box.polygon_area():
                continue
            if c.score_rank >= 0.8 * o.score_rank and overlap(c.box, o.box) > 0.6:
                o.score_rank = min(o.score_rank, 0.99 * c.score_rank)
    cands.sort(key=lambda c: -c.score_rank)
    kept: list[Candidate] = []
    for c in cands:
        if all(overlap(c.box, k.box) < OVERLAPPING for k in kept):
            kept.append(c)
    # and every way the blocks where no tile was kept may be split into tiles (chains end
    # to end, two side by side), for the tile network alone to judge. A blank kept over a
    # block but much larger than it does not account for it: a box of wood grain about
    # a chain of black tiles, read as a 0 | 0, hid the whole chain.
    splits = [b for block in blocks if all(overlap(block, k.box) < OVERLAPPING or _blank_about(k, block) for k in kept)
              for b in every_split(block)]
    proposals = read + splits[:MAX_SPLITS]
    effort.look(hw * hh, marked, len(proposals) + read_first)
    return Look(kept, busy, working, [b.corners() / f for b in proposals])


def _read_boxes(detail: np.ndarray, boxes: list[TileBox], f: float,
                readings: dict[int, tuple[TileBox, Candidate | None]], *, until_small: bool = False,
                until_sized: bool = False
                ) -> tuple[list[Candidate], list[TileBox], list[TileBox], list[Candidate] | None]:
    """The tiles read in `boxes` (on the working image, `f` times `detail`), the most
    promising first, each box read once over calls (`readings`); the boxes read; those
    read as no tile (bodies' boxes aside); and, with `until_small`, the tiles that tell
    that the set's tiles are small (seen_small) as soon as SMALL_SEEN of them do, when
    reading stops. With `until_sized` it stops as soon as SMALL_SEEN tiles tell the
    set's size, small or not. A box overlapping a tile already read surely is not read when
    that tile's box was more promising (a row of pips, or half of that tile and half of
    its neighbour, makes such boxes), nor when it is much wider than that tile (tiles
    of a set are one size, so it spans that tile and a neighbour): it would lose to
    that tile at the end."""
    cands: list[Candidate] = []
    read: list[TileBox] = []
    rejected: list[TileBox] = []
    for box in sorted(boxes, key=lambda b: -prerank(b))[:MAX_READS]:
        pr = prerank(box)
        if any(c.score >= SURE and overlap(box, c.box) > OVERLAPPING
               and (box.width / c.box.width >= 1.15 or prerank(c.box) >= pr) for c in cands):
            continue
        if _inside_a_tile_read(box, cands):
            continue
        c = None
        if not unlike_set(box, cands, detail, f):
            read.append(box)
            if readings.get(id(box), (None,))[0] is not box:
                readings[id(box)] = (box, box_reading.read_candidate(detail, box, f))
            c = readings[id(box)][1]
        if c is not None:
            cands.append(c)
            if (until_small or until_sized) and len(telling := measuring(cands)) >= SMALL_SEEN:
                if seen_small(telling):
                    return cands, read, rejected, telling
                if until_sized:
                    break
        elif not box.body:
            rejected.append(box)
    return cands, read, rejected, None


def _same_box(a: TileBox, b: TileBox) -> bool:
    return (abs(a.cx - b.cx) + abs(a.cy - b.cy) < 0.15 * a.width and abs(a.width / b.width - 1) < 0.15
            and abs(a.ux * b.ux + a.uy * b.uy) > 0.97)


def _most_divider_like(bars: list, field: EdgeField, n: int) -> list:
    """A busy background (wood grain, leather) makes hundreds of bars: keep the n that
    look most like dividers (ends inside a face, solid, long). Short half-dividers come
    after every whole one, longest first (such specks are the most numerous, and a half
    has one end at the spinner, not inside the face)."""
    whole = [b for b in bars if not b.half]
    measure_flatness(whole, field)
    q = [(ends_inside_face(b, field) + 0.5 * min(1.0, b.fill) + (0.5 if b.joined else 0.0)
          + 0.5 * min(4.0, b.flatness), b.length) for b in whole]
    order = sorted(range(len(whole)), key=lambda i: (-q[i][0], -q[i][1]))
    halves = sorted((b for b in bars if b.half), key=lambda b: -b.length)
    return ([whole[i] for i in order] + halves)[:n]


#: A blank kept over a block with more than this many times its area does not stand for it.
COVERS = 2.0


#: A box at most this share of a tile's width, lying this much inside it (a share of its
#: own area), is part of that tile (below a half: a box over four tiles, two by two, read
#: cleanly would otherwise hide each of them)...
PART_WIDTH = 0.4
PART_INSIDE = 0.9


def _inside_a_tile_read(box: TileBox, cands: list[Candidate]) -> bool:
    """Whether `box` is part of a tile read cleanly with two pips or more: a row of its
    pips, an edge of its face. On a close-up of one tile enlarged to 12 MP, read at 0.89
    (short of SURE), those were 17 of the 22 boxes read, about a millisecond each, and
    none was a tile. Such a box is not read, nor proposed to the tile network, nor looked
    at again at the set's width. A tile read with no pip or one is left out: a box of
    plain table read as a [0|0] may be much larger than the tiles on it."""
    return any(c.score >= CLEAN and c.reading.pips > 1 and box.width <= PART_WIDTH * c.box.width
               and overlap(box, c.box) > PART_INSIDE for c in cands)


def _blank_about(c: Candidate, block: TileBox) -> bool:
    """Whether `c` is a blank tile much larger than `block`: the block is then not a part of it."""
    return c.reading.pips == 0 and c.box.polygon_area() > COVERS * block.polygon_area()
