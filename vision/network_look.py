"""The tile network's look (tile_net.py) at the boxes the classical looks read, put
together with the tiles those looks kept; or, for the quick look (finder_look.py), at
the boxes the tile finder found, with no classical tile.

Every box a look read is a place where something looked like a tile. The network reads
each again; where it sees a tile near the box, the box is moved onto it (twice: a box
half a tile off first lands near the tile, then on it) and read there; two boxes of
about one size landing on one tile and reading it differently mark it for checking. Its
tiles and the classical ones are then put together: where both read a tile they agree (a
more sure tile) or disagree (the surer reading, marked for checking); a tile only the
network saw is kept when it is fairly sure of it (marked for checking when a half is
blank), one only the classical looks saw when they read it fairly cleanly and the network
does not see its box lying half off a tile, and no tile read less surely than KEPT. Then
the network looks about loose pips (pip_marks.py) and next to every tile kept for more,
and last where the colour of the faces read makes a tile (face_marks.py): for the
classical looks' tiles, only where they leave such pips or such a rectangle (not one
hugging a tile, where the network reads no other: a thick tile's side wall). A network tile
running off the photo is marked for checking; a doubtful tile whose face is not of the
hue of the faces read surely is dropped. Last, a reading the network made NETWORK_SURE
and marked only because another disagreed, or because a half is blank, is reported
unmarked (_reported): not a [0|0] or [1|0] only it read, one running off the photo, nor
one another box of its size read otherwise SURE_RIVAL.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from . import face_marks, pip_marks, tile_net
from .effort import Effort
from .found import Found
from .geometry import corners_overlap
from .result import LOW_CONFIDENCE

#: A box is followed (moved onto its tile) when the network gives it this chance of a
#: tile near it...
FOLLOW = 0.5
#: ...this many times...
MOVES = 2
#: (a box the network would move by less than this, in widths, lengths and radians,
#: is on its tile already and is not moved)...
SETTLED = 0.04
#: ...and the network's tile is taken when it gives it this chance at the end.
TILE = 0.5
#: Two outlines overlapping by this share of the smaller are on the same tile.
SAME_TILE = 0.3
#: A tile only the network read is kept from this confidence (the chance of a tile
#: times those of its two halves' readings).
NETWORK_ALONE = 0.6
#: ...or this one for a tile of one pip, which has little to show that it is a tile at
#: all (a smear, a card's corner)...
BLANK_ALONE = 0.95
#: ...and this one for a [0|0] (a tile's side read as one). The commonest tile missed on
#: the harsh photos is a [0|0], alone on the cloth or in a row; at 0.95, the network's
#: readings of 0.65 to 0.85 of some of them were dropped. From 0.75, 3 more tiles and 2
#: more hands were read right of the 860 development photos, and 1 and 1 of 320 harsh
#: photos of later seeds (41 to 48, whose misses were looked at too), no tile more
#: invented, and every other set alike. A [1|0] so kept took the place of the [3|0] it
#: was a crop of, on one photo of those 320.
DOUBLE_BLANK_ALONE = 0.75
#: Where the two read one tile differently, the surer reading is kept and marked for
#: checking: its confidence is at most this...
DISPUTED = 0.6
#: ...unless it is the network's, this sure. On the development sets (860 harsh and real
#: photos, and the real ones six times turned, resized and relit), the network's readings
#: this sure were right wherever another reading disagreed: 179 tiles the classical looks
#: read otherwise, 111 tiles with a blank half and two pips or more that only it read, 91
#: tiles another box read otherwise less surely than SURE_RIVAL; none was wrong (nor of
#: 21 such tiles of 160 further harsh photos). Marked for checking, they would make more
#: than half the right tiles a player is asked to check (on the 860 photos, 564 of the
#: 7,630 right tiles would be marked, where 215 are).
NETWORK_SURE = 0.99
#: A tile only the network read, with a blank half, is not marked for checking where the
#: tile finder found a tile and the network reads it this surely: the backs of the real
#: development set's tiles printed "RO", which the finder took for tiles, read 0.68 to 0.92.
VOUCHED_BLANK = 0.97
#: No tile read less surely than this is kept, however it was found (a tile only the
#: classical looks read too): on 480 harsh photos the tiles kept below it (two doubtful
#: readings alike, a classical tile the network saw a tile in) were ten invented ones (a
#: stripe, a flower, glare) and no right one. (set_consensus.MEASURES, the same number,
#: is chosen apart: what tells the tiles' size.)
KEPT = 0.55


def put_together(detail: np.ndarray, classical: list[Found], proposals: list[np.ndarray],
                 effort: Effort | None = None, vouched: list[np.ndarray] = (),
                 half: np.ndarray | None = None, light: bool = False) -> list[Found]:
    """The tiles of the photo `detail`: `classical` (the classical looks' tiles) put
    together with the network's reading of them and of `proposals` (the outlines of
    every box the looks read), and then with the tiles the network finds next to those,
    its searches made while `effort` (the work done reading the photo) affords them and,
    given classical tiles, while those (with the network's) leave pips, or their faces'
    colour in a tile-sized rectangle, unread (leaves_nothing_unread): where they leave
    neither, the searches found nothing on 960 development photos, and the search next
    to the 14 tiles of a real photo on white paper alone cost 10 ms. Given no classical
    tile on a `light` table (finder_look.quick_look's, where the classical looks read a
    photo the quick look leaves something unread on), where the searches may not make
    the network's tiles whole (may_complete), none is made and no tile is returned: the
    classical looks read the photo.
    A tile only the network read, with a blank half, is not marked for checking where
    the tile finder found a tile (`vouched`, the outlines of every box it found) and the
    network reads it at VOUCHED_BLANK or more, and a reading the network makes
    NETWORK_SURE is reported unmarked in the end (_reported). Its searches shrink `half`
    (the same view decoded at half the scale, when the photo was: geometry.shrunk) rather
    than `detail` where they can."""
    effort = Effort() if effort is None else effort
    # the first len(classical) boxes are the classical tiles' own (_distinct keeps them
    # all, in order), so first[i] is the network's answer for classical[i]'s box
    boxes = _distinct([f.corners for f in classical] + list(proposals), keep=len(classical))
    first = _read(detail, boxes, effort)
    network = _followed(detail, boxes, first, effort)
    out: list[Found] = []
    paired: set[int] = set()
    for f in network:
        mine = _same_spot(f.corners, [c.corners for c in classical])
        if not mine:
            if _sure_alone(f):
                out += _alone([f])
            continue
        paired.update(mine)
        c = max((classical[i] for i in mine), key=lambda c: c.confidence)
        surer = f if f.confidence >= c.confidence else c
        if c.tile == f.tile:
            sure = 1.0 - (1.0 - f.confidence) * (1.0 - c.confidence)  # two readers agree
            out.append(Found(surer.corners, surer.top, surer.bottom, round(sure, 3)))
        else:
            out.append(Found(surer.corners, surer.top, surer.bottom, min(surer.confidence, DISPUTED),
                             f.rival if surer is f else 0.0, sure_network=f.sure_network if surer is f else None))
    out += [c for i, c in enumerate(classical) if i not in paired and not _off_a_tile(first[i])]
    found = [f for f in out if f.confidence >= KEPT]
    if light and not classical and not may_complete(detail, found):
        return []
    if not (classical and effort.affords_crops(SEARCH) and leaves_nothing_unread(detail, found, in_rectangles=True)):
        found = _with_neighbours(detail, _with_loose_pips(detail, found, effort, half), effort)
        by_face = _at_faces(detail, found, effort, half)
        found = _with_neighbours(detail, found + by_face, effort, fresh=by_face)
    found = _of_one_size(found)
    vouched = list(vouched)
    return [_reported(f) for f in _of_faces_colour(detail, [
        replace(f, confidence=min(f.confidence, DISPUTED)) if f.rival >= RIVAL
        else replace(f, confidence=f.blank_alone) if (f.blank_alone or 0.0) >= VOUCHED_BLANK and _same_spot(f.corners, vouched)
        else f for f in found])]


def may_complete(detail: np.ndarray, found: list[Found]) -> bool:
    """Whether searches may make the tiles `found` on `detail` whole to the check of a
    quick look on a light table (finder_look.QuickLook.leaves_nothing_unread): some tile
    is read surely (read_surely), to tell the set's size and faces' colour, and that
    colour is not all about the tiles (face_marks.face_everywhere), where the check
    cannot tell a blank tile missed. Where they may not, the classical looks read the
    photo (put_together): a close-up of one big tile the finder does not see (jmherzog's 0_3.png
    enlarged to 12 MP, where the searches about its pips at every width guessed cost
    45 ms), five white tiles on cream paper (harsh seed 21, photo 37: 29 ms)."""
    sure, width = _sure_faces(found)
    return bool(sure) and not face_marks.face_everywhere(detail, width, sure, [f.corners for f in found])


def leaves_nothing_unread(detail: np.ndarray, found: list[Found], in_rectangles: bool = False,
                          on_a_table: bool = False) -> bool:
    """Whether the tiles `found` on `detail` leave no pips outside them (pip_marks.pips_left),
    nor the colour of their faces where a tile would fit (face_marks.face_left): no tile
    was missed then, the blank ones included. With `in_rectangles`, the faces' colour
    left counts only where it makes a tile-sized rectangle (face_marks.rectangles_left,
    the first step of the search at the faces' colour) that is no side wall of a tile
    read (_side_wall): the side walls and shadows of thick tiles seen at an angle leave
    patches of ivory along the outlines of a real photo on white paper, enough for
    face_left. `on_a_table` (its boneyard beside the layout), pips and rectangles count
    only where the network reads a tile about them that is not one of `found`
    (_no_tile_missed): face-down tiles make rectangles of the faces' colour and, with
    a maker's name printed on them, pip-like dots (2 of the 10 tables of seeds 1000 to
    1009 at 12 MP, read right by the quick look, were read again by the classical
    looks for that, at 8 and 10 times the decoding's time). A hand keeps the stricter
    check: a blank whose divider does not show is a plain rectangle, as a back is.
    Never true of tiles none of which is read surely with two pips or more."""
    sure, sure_width = _sure_faces(found)
    if not sure:
        return False
    covered = [f.corners for f in found]
    width = float(np.median([tile_net.frame(f.corners)[3] for f in found if f.pips > 1]))
    if on_a_table:
        groups = pip_marks.boxes_at_pips_left(detail, width, covered)
        return groups is not None and all(_read_already(detail, boxes, covered) for boxes in groups) and all(
            _no_tile_missed(detail, box, covered, sure_width, _hugged(box, covered, sure_width))
            for box in face_marks.rectangles_left(detail, sure_width, sure, covered))
    if pip_marks.pips_left(detail, width, covered):
        return False
    # the faces' colour at the width of the tiles read surely, as _at_faces looks for it
    if not in_rectangles:
        return not face_marks.face_left(detail, sure_width, sure, covered)
    return all(_side_wall(detail, box, covered, sure_width)
               for box in face_marks.rectangles_left(detail, sure_width, sure, covered))


#: A rectangle of the faces' colour whose middle lies within this many tile widths of a
#: tile read may be that tile's side wall and shadow, with a strip of its face the outline
#: read left out: jmherzog's 1.jpeg enlarged to 12 MP, on twelve draws of its noise, 0.14
#: to 0.17 off its [0|0], whose wall and the paper it tints yellow make one. A blank tile
#: lying flush against a tile read makes one as near (0.29 off, 0.24 where the tile's
#: outline is read 3 pixels too wide on its side): there the network's reading about the
#: rectangle tells it (_side_wall). Each tile read right on a light table of the
#: development sets taken out of the reading in turn (2,055), the check tells as many
#: with the rule as without it, 2,019.
HUG = 0.25
#: A tile the network reads about such a rectangle is the tile read beside it where its box
#: overlaps that tile's outline by this share (of the smaller) or more: 0.95 to 0.98 on
#: 1.jpeg's draws; a blank lying against a tile whose outline was read 3 pixels too wide
#: on its side, 0.42 (SAME_TILE, 0.3, would take it for that tile).
THE_TILE_BESIDE = 0.8


def _side_wall(detail: np.ndarray, box: np.ndarray, covered: list[np.ndarray], width: float) -> bool:
    """Whether the rectangle `box` of the faces' colour left (face_marks.rectangles_left)
    is the side wall of a tile `covered`: it hugs one (_hugged; `width`, the tiles read
    surely) and the network reads no tile there but those (_no_tile_missed). One further
    off counts even where the network reads nothing (a blank's rectangle drawn half on
    its end and half on its shadow, read as no tile at all)."""
    hugged = _hugged(box, covered, width)
    return hugged is not None and _no_tile_missed(detail, box, covered, width, hugged)


def _hugged(box: np.ndarray, covered: list[np.ndarray], width: float) -> np.ndarray | None:
    """The nearest outline of `covered` the middle of `box` lies within HUG of `width` of."""
    centre = box.mean(axis=0)
    off = [-cv2.pointPolygonTest(np.float32(c).reshape(-1, 1, 2), (float(centre[0]), float(centre[1])), True)
           for c in covered]
    return covered[int(np.argmin(off))] if min(off) <= HUG * width else None


def _no_tile_missed(detail: np.ndarray, box: np.ndarray, covered: list[np.ndarray], width: float,
                    hugged: np.ndarray | None) -> bool:
    """Whether the network reads no tile but those `covered` (_read_already) in a tile's
    box about the middle of the rectangle `box`, along or across, nor next to the tile
    it `hugged` (_hugged; None for none): a tile read there at TILE, however doubtful its
    halves (a tile kept alone needs NETWORK_ALONE), is one missed."""
    centre = box.mean(axis=0)
    _, u, n, _, _ = tile_net.frame(box)
    about = [tile_net.box_corners(centre, axis, width, 2 * width) for axis in (u, n)]
    if hugged is not None:
        h, w = detail.shape[:2]
        along, across = _next_to(hugged)
        about += [g for g in along + across if _inside(g, w, h) and not _same_spot(g, covered)]
    return _read_already(detail, about, covered)


def _read_already(detail: np.ndarray, about: list[np.ndarray], covered: list[np.ndarray]) -> bool:
    """Whether the network, reading the boxes `about` and following each onto its tile
    (_follow), reads no tile there but those `covered` (THE_TILE_BESIDE), each box weighed
    on its own (a reading over two tiles, one of them read, would hide a blank's beside
    it). Its crops (8 boxes, each moved twice at most, about a rectangle near a tile; 10
    about a group of pips) are not counted in the photo's effort."""
    effort = Effort()
    return all(max(corners_overlap(b, c) for c in covered) >= THE_TILE_BESIDE
               for b, a in _follow(detail, about, _read(detail, about, effort), effort) if a.tile >= TILE)


def _reported(f: Found) -> Found:
    """`f` with the confidence it is reported at: the network's own where it read the tile
    NETWORK_SURE (`sure_network`) unless a box read it otherwise SURE_RIVAL."""
    if f.sure_network is None or f.rival >= SURE_RIVAL or f.confidence == f.sure_network:
        return f
    return replace(f, confidence=f.sure_network)


#: With at least this many tiles read surely (SURE_SIZE, two pips or more), a tile read
#: with doubt (below LOW_CONFIDENCE) little of whose face has one of their faces' hues
#: (face_marks.FACE_SHARE) is a pattern of the table, not a tile: a flowered tray's dots
#: read as a [3|1] beside a pink set's [6|1] (a real photo turned and relit).
FACE_TILES = 2


def _of_faces_colour(detail: np.ndarray, found: list[Found]) -> list[Found]:
    """`found` without its doubtful tiles unlike the faces of the tiles read surely."""
    sure = [f.corners for f in found if read_surely(f)]
    doubtful = [f for f in found if f.confidence < LOW_CONFIDENCE]
    if len(sure) < FACE_TILES or not doubtful:
        return found
    shares = face_marks.face_shares(detail, sure, [f.corners for f in doubtful])
    unlike = {id(f) for f, share in zip(doubtful, shares) if share < face_marks.FACE_SHARE}
    return [f for f in found if id(f) not in unlike]


#: With at least this many tiles read surely (their confidence SURE_SIZE or more, pips
#: on both halves or one), the size of the set's tiles is known...
SIZE_TILES = 3
SURE_SIZE = 0.9
#: ...and a tile more than WIDER times as wide as the widest of them (those within ALIKE
#: of their median width) is not one of them: a box of plain cloth between big flowers,
#: read as a 3 | 0. A photo shows one set, and its perspective seldom makes the near
#: tiles twice as wide as the others read surely. (A width fitted as a plane over the
#: photo on three to five sure tiles, as the classical looks fit it, said too little
#: far from them: it lost four right tiles of the development sets.)
WIDER = 2.0
ALIKE = 2.0


def read_surely(f: Found) -> bool:
    """Whether `f` is read surely enough (SURE_SIZE) to tell the set's tiles' size and
    colour, with two pips or more (a [1|0] or [0|0] shows little that it is a tile)."""
    return f.confidence >= SURE_SIZE and f.pips > 1


def _sure_faces(found: list[Found]) -> tuple[list[np.ndarray], float]:
    """The outlines of the tiles of `found` read surely (read_surely), which tell the
    set's faces' colour, and their median width on the photo (0.0 with none)."""
    sure = [f.corners for f in found if read_surely(f)]
    return sure, float(np.median([tile_net.frame(c)[3] for c in sure])) if sure else 0.0


def _of_one_size(found: list[Found]) -> list[Found]:
    """`found` without the tiles far wider than the set's tiles read surely."""
    widths = {id(f): tile_net.frame(f.corners)[3] for f in found}
    sure = [widths[id(f)] for f in found if read_surely(f)]
    if len(sure) < SIZE_TILES:
        return found
    middle = float(np.median(sure))
    widest = max(w for w in sure if w <= ALIKE * middle)
    return [f for f in found if widths[id(f)] <= WIDER * widest]


#: With no tile found to tell how wide the set's tiles are, pips are looked for as those
#: of tiles this share of the photo's longer side wide, each in turn.
GUESSED_WIDTHS = (1 / 40, 1 / 26, 1 / 17, 1 / 11)


def _with_loose_pips(detail: np.ndarray, found: list[Found], effort: Effort,
                     half: np.ndarray | None = None) -> list[Found]:
    """`found` and the tiles the network finds about pips that none of them covers
    (pip_marks.py), at the width of the tiles found with two pips or more (a box of table
    read as a [0|0] may be far wider than the tiles); with none, at each of
    GUESSED_WIDTHS, keeping the one where it finds the most tiles (the smallest of equals).
    Each width is tried while `effort` affords reading a SEARCH of crops (`half`: see
    put_together)."""
    measuring = [tile_net.frame(f.corners)[3] for f in found if f.pips > 1]
    widths = [float(np.median(measuring))] if measuring else [k * max(detail.shape[:2]) for k in GUESSED_WIDTHS]
    covered = [f.corners for f in found]
    tries = [_more_tiles(detail, guesses, found, effort) for w in widths
             if effort.affords_crops(SEARCH) and (guesses := pip_marks.boxes_at_loose_pips(detail, w, covered, half))]
    return found + max(tries, key=len, default=[])


def _at_faces(detail: np.ndarray, found: list[Found], effort: Effort, half: np.ndarray | None = None) -> list[Found]:
    """The tiles the network finds where the colour of the faces of the tiles read surely
    makes a tile-sized rectangle (face_marks.py) away from every tile of `found`. Looked
    for after the tiles next to those found: a box of face colour over two tiles end to
    end may be moved by the network onto their two touching halves and read surely. Only
    while `effort` affords reading a SEARCH of crops (`half`: see put_together)."""
    sure, width = _sure_faces(found)
    if not sure or not effort.affords_crops(SEARCH):
        return []
    guesses = face_marks.boxes_at_faces(detail, width, sure, [f.corners for f in found], half)
    return _more_tiles(detail, guesses, found, effort) if guesses else []


#: Tiles are looked for next to the tiles found this many times over (a chain or a row
#: grows a tile each way a round).
NEIGHBOUR_ROUNDS = 4
#: The crops a search of the network (about loose pips, at the faces' colour) is supposed
#: to read: it is made only while the work done leaves room for that many.
SEARCH = 100


def _with_neighbours(detail: np.ndarray, found: list[Found], effort: Effort,
                     fresh: list[Found] | None = None) -> list[Found]:
    """`found` and the tiles the network sees next to those of them `fresh` (all by
    default) and next to the tiles it finds there: one length along each found
    tile and one width across it, and a tile turned across either end (a double laid
    across a chain), where no tile was found. Tiles touching end to end or side by side,
    a black set's engraved dividers unseen, are one blob to the classical looks; next to
    a tile read, the network finds the next one. A round is made while `effort` affords
    reading its guesses (three times over: each may be moved twice)."""
    h, w = detail.shape[:2]
    fresh = found if fresh is None else fresh
    for _ in range(NEIGHBOUR_ROUNDS):
        guesses: list[np.ndarray] = []
        # the outlines taken, and the guesses made this round: those turned across a
        # tile's end overlap the one along it, and are weighed apart from them
        taken = [o.corners for o in found]
        taken_across = list(taken)
        for f in fresh:
            along, across = _next_to(f.corners)
            for g, others in [(g, taken) for g in along] + [(g, taken_across) for g in across]:
                if _inside(g, w, h) and not _same_spot(g, others):
                    guesses.append(g)
                    others.append(g)
        if not guesses or not effort.affords_crops(3 * len(guesses)):
            break
        fresh = _more_tiles(detail, guesses, found, effort)
        found = found + fresh
    return found


def _next_to(corners: np.ndarray) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The boxes of the tiles that may lie next to the tile outlined by `corners`: one
    length along it and one width across it, and turned across either end."""
    c, u, n, wd, ln = tile_net.frame(corners)
    along = [corners + step for step in (ln * n, -ln * n, wd * u, -wd * u)]
    return along, [tile_net.box_corners(c + side * (ln + wd) / 2 * n, u, wd, ln) for side in (1, -1)]


#: A tile only the classical looks read is dropped when the network, reading its box, sees
#: no tile in it (a chance below TILE) but is at least this sure of one next to it: the
#: box lies half on a tile and half off it (a [11|11] lying across on white paper, its
#: divider unseen, read as two upright boxes half on the paper, a [7|0] at 0.87 and a
#: [3|0]). On the benchmark sets that dropped three invented tiles and no right one; with
#: any chance of a tile near, it also dropped a right [0|0] the network did not see.
OFF_TILE_NEAR = 0.9


def _off_a_tile(answer: tile_net.Answer) -> bool:
    """Whether the network's `answer` for a box says it lies off a tile next to it."""
    return answer.tile < TILE and answer.near >= OFF_TILE_NEAR


def _network_tiles(detail: np.ndarray, boxes: list[np.ndarray], effort: Effort) -> list[Found]:
    """The tiles the network reads near `boxes` (each box near a tile moved onto it
    MOVES times; the surest reading of each spot), its crops counted in `effort`."""
    return _followed(detail, boxes, _read(detail, boxes, effort), effort)


def _followed(detail: np.ndarray, boxes: list[np.ndarray], answers: list[tile_net.Answer],
              effort: Effort) -> list[Found]:
    """_network_tiles, given the network's `answers` for `boxes` where they are."""
    h, w = detail.shape[:2]
    return _strongest([Found(b, a.top, a.bottom, a.sure, sure_network=a.sure if a.sure >= NETWORK_SURE else None)
                       if _inside(b, w, h) else Found(b, a.top, a.bottom, min(a.sure, DISPUTED))
                       for b, a in _follow(detail, boxes, answers, effort) if a.tile >= TILE])


def _follow(detail: np.ndarray, boxes: list[np.ndarray], answers: list[tile_net.Answer],
            effort: Effort) -> list[tuple[np.ndarray, tile_net.Answer]]:
    """Those of `boxes` near a tile (their `answers` FOLLOW or more), each moved onto it as
    the network places it (MOVES times at most), with the network's answer there."""
    following = [(b, a) for b, a in zip(boxes, answers) if a.near >= FOLLOW]
    for _ in range(MOVES):
        going = [k for k, (_, a) in enumerate(following) if np.abs(a.place).max() > SETTLED]
        moved = [tile_net.moved(following[k][0], following[k][1].place) for k in going]
        for k, b, a in zip(going, moved, _read(detail, moved, effort)):
            following[k] = (b, a)
    return following


def _more_tiles(detail: np.ndarray, guesses: list[np.ndarray], found: list[Found], effort: Effort) -> list[Found]:
    """The tiles the network reads near `guesses` that are sure enough to be kept alone
    and lie where no tile of `found` does."""
    taken = [o.corners for o in found]
    return _alone([f for f in _network_tiles(detail, guesses, effort)
                   if _sure_alone(f) and not _crowded(f, found, taken)])


#: A tile the network reads this surely is kept beside tiles found less surely than
#: SURE_SIZE whose outlines it overlaps by less than PUSHED (of the smaller): in a row side
#: by side seen at a slant, a doubtful neighbour's outline a little too wide overlapped a
#: [7|1] read at 1.0 by a third, and hid it (SAME_TILE).
SURE_BESIDE = 0.95
PUSHED = 0.5


def _crowded(f: Found, found: list[Found], taken: list[np.ndarray]) -> bool:
    """Whether a tile of `found` (outlines `taken`) lies where `f` does (SAME_TILE; for a
    sure `f` beside tiles found less surely, PUSHED)."""
    spot = _same_spot(f.corners, taken)
    if not spot or f.confidence < SURE_BESIDE:
        return bool(spot)
    return any(found[i].confidence >= SURE_SIZE or corners_overlap(f.corners, taken[i]) >= PUSHED for i in spot)


def _sure_alone(f: Found) -> bool:
    """Whether a tile only the network read is sure enough to be kept."""
    return f.confidence >= (NETWORK_ALONE if f.pips > 1 else BLANK_ALONE if f.pips else DOUBLE_BLANK_ALONE)


def _alone(found: list[Found]) -> list[Found]:
    """Tiles only the network read, those with a blank half marked for checking: the
    network's mistakes are mostly there (the back of a tile lying face down, its printed
    logo read as pips and its plain end as the blank; a card's corner). Those it reads
    NETWORK_SURE with two pips or more are reported unmarked in the end (`sure_network`)
    unless a box of their size read them otherwise SURE_RIVAL; a [0|0] or a [1|0] shows
    too little that it is a tile (the streaked edge of a photo warped to a tilt has read
    as a [0|0] at 0.99)."""
    return [f if min(f.top, f.bottom) else replace(f, confidence=min(f.confidence, DISPUTED), blank_alone=f.confidence,
                                                 sure_network=f.sure_network if f.pips > 1 else None)
            for f in found]


#: A tile's outline may run off the photo by this share of its width; farther, the frame
#: may cut some of its pips off (the crop's border is the frame's edge repeated), and
#: the network's reading is marked for checking.
OFF_PHOTO = 0.15


def _inside(corners: np.ndarray, w: int, h: int) -> bool:
    m = OFF_PHOTO * tile_net.frame(corners)[3]
    return bool((corners[:, 0] > -m).all() and (corners[:, 0] < w + m).all()
                and (corners[:, 1] > -m).all() and (corners[:, 1] < h + m).all())


def _read(detail: np.ndarray, boxes: list[np.ndarray], effort: Effort) -> list[tile_net.Answer]:
    effort.crops(len(boxes))
    return tile_net.read_crops([tile_net.crop(detail, b) for b in boxes])


def _distinct(boxes: list[np.ndarray], keep: int) -> list[np.ndarray]:
    """`boxes` without those nearly the same as one before them (the looks read many
    boxes twice: at two sizes, two thresholds); the first `keep` are all kept."""
    if not boxes:
        return []
    frames = [tile_net.frame(b) for b in boxes]
    centres, axes = np.array([fr[0] for fr in frames]), np.array([fr[2] for fr in frames])
    widths, lengths = np.array([fr[3] for fr in frames]), np.array([fr[4] for fr in frames])
    kept = np.zeros(len(boxes), bool)
    for k in range(len(boxes)):
        kept[k] = k < keep or not (kept & (np.hypot(*(centres - centres[k]).T) < 0.1 * widths)
                                   & (np.abs(widths[k] / widths - 1) < 0.1) & (np.abs(lengths[k] / lengths - 1) < 0.1)
                                   & (np.abs(axes @ axes[k]) > 0.995)).any()
    return [b for b, k in zip(boxes, kept) if k]


#: A box that the network moved onto a tile already read there, and read as another
#: tile with this confidence, is a rival reading: the tile is marked for checking
#: unless the classical looks read it alike, or the network read it NETWORK_SURE and
#: the rival less surely than SURE_RIVAL. Such rivals from 0.8 to 0.9 were all beside
#: right tiles (37 on the development sets, 4 on 160 harsh photos made afterwards); from
#: 0.9 to 0.97 one was beside a wrong one (a [6|4] read at 0.995 on black tiles on dark
#: laminate, at a guessed size, its rival at 0.96)...
RIVAL = 0.5
SURE_RIVAL = 0.9
#: ...and the box is a crop of that tile when its area is within this factor of the tile's.
RIVAL_SIZE = 3.0


def _strongest(found: list[Found]) -> list[Found]:
    """The surest of the tiles read on each spot, each with the confidence of the surest
    other reading of it (`rival`) by another box of about its size (RIVAL_SIZE) on that
    spot read fairly surely (two crops of one tile should agree). A box over several
    tiles (the finder's coarsest level saw a whole hand lying close as one tile, read as
    a [7|2] at 0.6, capped so as it ran off the photo) is no crop of any."""
    kept: list[Found] = []
    for f in sorted(found, key=lambda f: -f.confidence):
        spot = _same_spot(f.corners, [k.corners for k in kept])
        if not spot:
            kept.append(f)
        elif f.confidence >= RIVAL:
            area = _area(f.corners)
            for i in spot:
                if kept[i].tile != f.tile and _alike_in_size(area, _area(kept[i].corners)):
                    kept[i].rival = max(kept[i].rival, f.confidence)
    return kept


def _area(corners: np.ndarray) -> float:
    _, _, _, width, length = tile_net.frame(corners)
    return width * length


def _alike_in_size(a: float, b: float) -> bool:
    return max(a, b) <= RIVAL_SIZE * min(a, b)


def _same_spot(outline: np.ndarray, others: list[np.ndarray]) -> list[int]:
    """The indices of the `others` on the same tile as `outline` (SAME_TILE)."""
    if not others:
        return []
    stack = np.array(others)
    near = ((stack.min(axis=1) <= outline.max(axis=0)) & (stack.max(axis=1) >= outline.min(axis=0))).all(axis=1)
    return [int(i) for i in np.flatnonzero(near) if corners_overlap(outline, others[i]) >= SAME_TILE]

