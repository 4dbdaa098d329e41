"""Photo pip counter for dominoes (OpenCV), independent of the web app.

    from vision import read_hand
    hand = read_hand(photo_bytes)
    hand.tiles        # [Tile(a, b, polygon, confidence), ...]
    hand.pips         # raw total, [0|0] counts 0
    hand.annotated()  # JPEG bytes with every tile outlined and labelled
    table = read_table(photo_bytes)   # a photo of a Chicken Foot table, read the same way
    table.touching(i)                 # the tiles lying against tile i (a double's toes)

Importing this package does not import OpenCV (the web app checks that the extra is
installed without loading it). Taking `read_hand` from it (`from vision import read_hand`)
loads the pipeline, OpenCV, ONNX Runtime and the three networks, and readies them on a blank
photo (pipeline.ready: about 0.2 s, once), so that the first photo is then read as fast as
the next; used as `vision.read_hand(data)`, the first call does that before reading.
`read_hand` raises VisionUnavailable (a RuntimeError) with an install hint when OpenCV,
numpy, Pillow or ONNX Runtime is missing, or a network cannot be loaded.
Unreadable input raises PhotoError (a ValueError) with a readable message.

The words the modules use:

- photo, decoding: the uploaded bytes turned into pixels (loading.Photo), upright, a JPEG
  decoded at a reduced size; a sharper decoding is the same JPEG decoded at twice that,
  for small tiles. `detail` is the decoded photo in BGR, on which the tiles' outlines
  are given.
- table: what lies under the tiles, judged once per photo (finder_look.table): busy (a
  cloth, wood grain: many edges) or light (white paper, laminate).
- divider: the bar across the middle of a tile's face; marks are the pixels that stand
  out from their surroundings, among which divider bars are looked for (dividers.py).
- body: a tile seen as a blob brighter or darker than the table, about 2:1; a block is a
  blob of tiles touching side by side, split into tiles (bodies.py).
- box: a supposed tile outline (geometry.TileBox on the working image, or four corners
  on the photo), read to see whether a tile lies there.
- look: one pass over the photo that proposes boxes and reads them. The classical looks
  (classical_look.py) find boxes by dividers and bodies on the working image (the photo
  shrunk to 640 pixels, classical_look.Working), and read each by counting its pips: the
  first look at the usual marks threshold, and a look for faint dividers (engraved
  lines) at a lower one. The quick look (finder_look.py) takes the tile finder's boxes
  instead, and the tile network reads them. A look's proposals are every box it read,
  which the tile network reads again.
- tile finder: a small network that sees the whole photo at a few sizes and answers
  where tiles lie (tile_finder.py); its sight is what it sees on one photo, looked for
  once and shared by the looks (finder_look.Sight).
- tile network: a small network that reads one box, upright with some of its
  surroundings: is there a tile, its two halves' pips, and where the tile lies, so that
  a box is moved onto its tile (tile_net.py; network_look.py puts its readings together
  with the classical ones).
- searches: the network's looks of its own, for tiles no look found: next to the tiles
  read (the next of a chain or row), about loose pips, dots of a pip's size no tile
  covers (pip_marks.py), and at the faces' colour, where the colour of the faces read
  surely makes a tile-sized rectangle (face_marks.py). Pips and faces' colour left
  outside the tiles read tell that a reading is not whole.
- the set: the tiles of one photo are of one set, one size and one faces' colour, so what
  the tiles read cleanly agree on is held against the rest (set_consensus.py).
- clean, sure, doubtful: a classical reading scored 0.5 or more is clean, 0.9 or more
  sure (box_reading.CLEAN, SURE); a tile the network reads at 0.9 or more is read surely
  (network_look.SURE_SIZE); a tile reported below 0.8 (result.LOW_CONFIDENCE) is
  doubtful, marked for the player to check.
- effort: the work done reading one photo, counted in units rather than timed, so that
  the network's searches stop where a photo would take too long (effort.py).

The pipeline, in order (pipeline.py chooses the way, in _read_tiles):

1. loading.py: the bytes decoded into a Photo, safely (PhotoError for bad input).
2. finder_look.table: the table busy, light or neither.
3. The quick look (finder_look.py, tile_finder.py, network_look.py, tile_net.py): the
   finder's boxes read by the network, with its searches. Its reading is the hand for
   a busy photo, for one whose tiles read leave no pips nor faces' colour unread, and
   for small tiles read on a sharper decoding. On a photo of a table taken from a seat,
   the tiles it read surely tell the camera's tilt, and the photo is read again, from
   stage 2, on its view from above (table_view.py).
4. Otherwise the classical looks (classical_look.py): divider bars (dividers.py) and
   bodies (bodies.py) give boxes (geometry.py), each box read (box_reading.py, pips.py)
   and held against the set (set_consensus.py); the look for faint dividers where the
   first finds nothing or faint ones.
5. The tile network reads every box those looks read, and the finder's too where the
   first look finds small tiles or a photo taken at an angle (pipeline.needs_finder,
   perspective.py), puts its tiles together with theirs and makes its searches
   (network_look.py, pip_marks.py, face_marks.py), as far as the effort allows.
6. The Hand (result.py): tiles in the photo's pixels, a tile read twice marked for
   checking, ordered top to bottom; annotate.py draws it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .errors import INSTALL_HINT, PhotoError, VisionUnavailable

if TYPE_CHECKING:  # handed out by __getattr__ (below), when first asked for
    from .result import Hand

__all__ = ["read_hand", "read_table", "read_file", "PhotoError", "VisionUnavailable", "INSTALL_HINT", "REQUIRED", "Hand", "Tile"]

#: The modules of the vision extra that reading needs (a caller such as the web app checks
#: they are installed before offering to read a photo).
REQUIRED = ("cv2", "numpy", "onnxruntime", "PIL.Image")


def _pipeline():
    try:
        for name in REQUIRED:
            importlib.import_module(name)
    except ImportError as exc:
        raise VisionUnavailable(str(exc)) from None
    from . import pipeline

    return pipeline


def _read_hand(data: bytes, on_a_table: bool = False):
    """Read the tiles in a photo of a hand laid face up. Returns a `Hand` with `.tiles`,
    `.pips` and `.annotated()`. Raises PhotoError for bytes that are not a readable photo
    and VisionUnavailable when OpenCV or ONNX Runtime is not installed."""
    pipeline = _pipeline()
    pipeline.ready()
    return pipeline.read_hand_bytes(data, on_a_table)


_read_hand.__name__ = _read_hand.__qualname__ = "read_hand"


def read_table(data: bytes) -> Hand:
    """Read every face-up tile in a photo of a table (a Chicken Foot layout: lines of
    tiles touching end to end, doubles across their line, feet): the same reading as
    read_hand, which reads touching chains and leaves face-down tiles out, but for the
    check that no tile was missed, which takes the boneyard's backs beside the layout
    into account (network_look.leaves_nothing_unread). Hand.touching(i) tells which
    tiles lie against tile i (a double's toes or arms). Raises as read_hand does."""
    return _read_hand(data, on_a_table=True)


def read_file(path) -> Hand:
    """read_hand on the contents of a file."""
    from pathlib import Path

    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise PhotoError(f"cannot open {path}: {exc.strerror or exc}") from None
    return _read_hand(data)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def __getattr__(name: str):
    if name == "read_hand":
        # handed out here, not defined above, so that taking it readies the pipeline; one
        # that cannot be readied says why when read_hand is called (it readies it first)
        try:
            _pipeline().ready()
        except Exception:
            pass
        globals()["read_hand"] = _read_hand
        return _read_hand
    if name in ("Hand", "Tile"):
        from . import result

        return getattr(result, name)
    raise AttributeError(name)
