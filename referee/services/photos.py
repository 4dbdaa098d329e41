"""The photo counter in the app: read a hand from one upload, never trust it unchecked.

`vision` is an optional extra; without OpenCV or ONNX Runtime the round page says what to
install. The reading only pre-selects tiles on the keypad: the player confirms or corrects
them by tapping before anything is saved. Photos are kept only when the game's owner says so.
"""

import base64
import importlib.util
import io
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from referee.rules.text import Message, N_, RulesError
from referee.rules.tiles import Tile

PREVIEW_WIDTH = 900


def available() -> bool:
    """Whether the vision extra's modules are installed (without importing them)."""
    import vision

    return all(importlib.util.find_spec(name.split(".")[0]) is not None for name in vision.REQUIRED)


@dataclass
class Reading:
    seat: int
    tiles: list                       # tiles of the game's set, as "a-b"
    pips: int
    unsure: list = field(default_factory=list)      # low-confidence tiles, "a-b"
    outside: list = field(default_factory=list)     # read tiles the game's set does not have
    image: Optional[str] = None       # data: URI of the annotated photo, for this page only
    double_blank: int = 0             # what the house rules count a [0-0] (the pips count it 0)

    @property
    def messages(self) -> list:
        notes = [Message(N_("Read %(count)d tiles, %(pips)d pips. Check them below and tap to correct before saving."),
                         {"count": len(self.tiles), "pips": self.pips})]
        if self.unsure:
            notes.append(Message(N_("Not sure about: %(tiles)s."), {"tiles": ", ".join(self.unsure)}))
        if self.outside:
            notes.append(Message(N_("Left out, not in this set: %(tiles)s."), {"tiles": ", ".join(self.outside)}))
        if self.double_blank and "0-0" in self.tiles:
            notes.append(Message(N_("The [0-0] has no pips, but this game's house rules count it %(points)d points."),
                                 {"points": self.double_blank}))
        return notes


#: What the player is told for each kind of photo the counter cannot read (its own
#: message is English, for the command line).
PHOTO_ERRORS = {
    "not_image": N_("This photo could not be read: the file is not an image (JPEG, PNG, WebP or HEIC)."),
    "too_large": N_("This photo could not be read: the image declares a size far too large to be a photo."),
    "too_small": N_("This photo could not be read: the image is too small to show the tiles."),
    "damaged": N_("This photo could not be read: the file is cut short or damaged. Send it again."),
    "unreadable": N_("This photo could not be read. Take it again, the hand face up and in focus."),
}
#: What the player is told of a photo over the app's MAX_PHOTO_BYTES.
TOO_MANY_BYTES = N_("This photo is larger than %(mb)d MB, the most this app reads. "
                    "Take it again at a lower resolution, or send a smaller copy.")


class TooLarge(RulesError):
    """A photo over the app's MAX_PHOTO_BYTES (answered 413, not 422)."""


def too_large(max_bytes: int) -> TooLarge:
    return TooLarge(TOO_MANY_BYTES, mb=max_bytes // (1024 * 1024))


class Unavailable(Exception):
    """The vision extra is installed but cannot be loaded (a broken OpenCV or ONNX Runtime):
    the app answers as when it is not installed."""


#: One photo is read at a time in each server process: a reading may take a few hundred
#: megabytes for a moment, and a flood of large photos must neither add those up nor take
#: every thread of a process, so the scoreboards keep being served meanwhile.
_READING = threading.BoundedSemaphore(1)
#: How long a photo waits for the one before it, in seconds, before the player is asked to
#: send it again.
WAIT_FOR_READER = 20


class Busy(Exception):
    """Another photo is being read in this process and did not finish in time (503)."""


def read(data: bytes, seat: int, top: int, max_bytes: int, double_blank: int = 0) -> Reading:
    """Read the photo; PhotoError (bad image) becomes a RulesError the page can show, and
    VisionUnavailable becomes Unavailable. `double_blank` is what the game's house rules
    count a [0-0], which the reading says when it holds one."""
    import vision

    if not data:
        raise RulesError(N_("Choose a photo first."))
    if len(data) > max_bytes:
        raise too_large(max_bytes)
    if not _READING.acquire(timeout=WAIT_FOR_READER):
        raise Busy()
    try:
        hand = vision.read_hand(data)
    except vision.PhotoError as err:
        raise RulesError(PHOTO_ERRORS.get(err.kind, PHOTO_ERRORS["unreadable"])) from None
    except vision.VisionUnavailable:
        raise Unavailable() from None
    finally:
        _READING.release()
    tiles, unsure, outside = [], [], []
    for tile in hand.tiles:
        name = f"{tile.a}-{tile.b}"
        if tile.a > top:
            outside.append(name)
            continue
        if name in tiles:
            unsure.append(name)
            continue
        tiles.append(name)
        if tile.low_confidence:
            unsure.append(name)
    pips = sum(Tile(*map(int, t.split("-"))).pips for t in tiles)
    return Reading(seat=seat, tiles=tiles, pips=pips, unsure=unsure, outside=outside,
                   image=_data_uri(hand.annotated()), double_blank=double_blank)


def _data_uri(jpeg: bytes) -> str:
    """The annotated photo scaled down for a phone screen, inlined so nothing is stored."""
    from PIL import Image

    picture = Image.open(io.BytesIO(jpeg))
    if picture.width > PREVIEW_WIDTH:
        picture = picture.resize((PREVIEW_WIDTH, round(picture.height * PREVIEW_WIDTH / picture.width)))
    out = io.BytesIO()
    picture.convert("RGB").save(out, "JPEG", quality=80)
    return "data:image/jpeg;base64," + base64.b64encode(out.getvalue()).decode()


def keep(folder: Path, game_id: str, number: int, seat: int, data: bytes, stamp: str) -> Path:
    """Store the original upload, for games whose owner switched keeping photos on."""
    target = folder / game_id
    target.mkdir(parents=True, exist_ok=True)
    path = target / f"round{number}-seat{seat}-{stamp}.img"
    path.write_bytes(data)
    return path
