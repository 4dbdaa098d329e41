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

from referee.rules.text import Message, N_, NP_, RulesError
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
    unsure: list = field(default_factory=list)      # tiles to check: read doubtfully, or twice
    outside: list = field(default_factory=list)     # read tiles the game's set does not have
    image: Optional[str] = None       # data: URI of the annotated photo, for this page only
    double_blank: int = 0             # what the house rules count a [0-0] (the pips count it 0)
    twice: list = field(default_factory=list)       # tiles read on two places of the photo, "a-b"
    numbers: dict = field(default_factory=dict)     # each tile counted: its number on the photo

    @property
    def outlined(self) -> int:
        """How many tiles the photo shows outlined: those counted, each read twice once
        more, and those left out of the set."""
        return len(self.tiles) + len(self.twice) + len(self.outside)

    @property
    def messages(self) -> list:
        """What the page says under the photo. The tiles and pips are not among them: the
        strip of the tiles read totals them, and follows every correction; these say why
        that total may count fewer tiles than the photo has outlines."""
        notes = []
        if self.outlined != len(self.tiles):
            notes.append(Message(NP_("%(outlined)d tile is outlined on the photo; %(counted)d are counted below.",
                                     "%(outlined)d tiles are outlined on the photo; %(counted)d are counted below.",
                                     "outlined"),
                                 {"outlined": self.outlined, "counted": len(self.tiles)}))
        if self.twice:
            notes.append(Message(N_("Read twice, counted once: %(tiles)s. One of the two is probably another tile."),
                                 {"tiles": ", ".join(self.twice)}))
        doubtful = [t for t in self.unsure if t not in self.twice]
        if doubtful:
            notes.append(Message(N_("Not sure about: %(tiles)s."), {"tiles": ", ".join(doubtful)}))
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


def _read_photo(data: bytes, max_bytes: int, table: bool = False):
    """The vision reading of one upload, one at a time in this process; PhotoError (bad
    image) becomes a RulesError the page can show, and VisionUnavailable Unavailable."""
    import vision

    if not data:
        raise RulesError(N_("Choose a photo first."))
    if len(data) > max_bytes:
        raise too_large(max_bytes)
    if not _READING.acquire(timeout=WAIT_FOR_READER):
        raise Busy()
    try:
        return vision.read_table(data) if table else vision.read_hand(data)
    except vision.PhotoError as err:
        raise RulesError(PHOTO_ERRORS.get(err.kind, PHOTO_ERRORS["unreadable"])) from None
    except vision.VisionUnavailable:
        raise Unavailable() from None
    finally:
        _READING.release()


def read(data: bytes, seat: int, top: int, max_bytes: int, double_blank: int = 0) -> Reading:
    """Read the photo; PhotoError (bad image) becomes a RulesError the page can show, and
    VisionUnavailable becomes Unavailable. `double_blank` is what the game's house rules
    count a [0-0], which the reading says when it holds one."""
    hand = _read_photo(data, max_bytes)
    tiles, unsure, outside, twice, numbers = [], [], [], [], {}
    for number, tile in enumerate(hand.tiles, 1):  # as the photo numbers them (annotate.label_for)
        name = f"{tile.a}-{tile.b}"
        if tile.a > top:
            outside.append(name)
            continue
        if name in tiles:
            # a set holds each tile once: counted once, and checked
            twice.append(name)
            if name not in unsure:
                unsure.append(name)
            continue
        tiles.append(name)
        numbers[name] = number
        if tile.low_confidence and name not in unsure:
            unsure.append(name)
    pips = sum(Tile(*map(int, t.split("-"))).pips for t in tiles)
    # The photo is drawn without its own total (every tile it outlines): the page totals the
    # tiles counted, and follows the player's corrections.
    return Reading(seat=seat, tiles=tiles, pips=pips, unsure=unsure, outside=outside, twice=twice, numbers=numbers,
                   image=_data_uri(hand.annotated(total=False)), double_blank=double_blank)


@dataclass
class TableReading:
    """The face-up tiles read in a photo of the table, for the referee desk and the API."""

    hand: object                      # the vision Hand, for its outlines and its annotated photo
    top: int                          # the set's highest number: tiles above it are left out

    @property
    def tiles(self) -> list:
        """Every tile read, as the API shows it: "a-b", confidence, outline in the photo's pixels."""
        return [{"tile": f"{t.a}-{t.b}", "confidence": t.confidence,
                 "polygon": [[round(x, 1), round(y, 1)] for x, y in t.polygon]} for t in self.hand.tiles]

    @property
    def pips(self) -> int:
        return self.hand.pips

    @property
    def names(self) -> list:
        """The tiles of the set read, each once, as "a-b"."""
        return list(dict.fromkeys(f"{t.a}-{t.b}" for t in self.hand.tiles if t.a <= self.top))

    @property
    def unsure(self) -> list:
        """The tiles read that the player should check: doubtful, or read twice."""
        return list(dict.fromkeys(f"{t.a}-{t.b}" for t in self.hand.tiles if t.low_confidence and t.a <= self.top))

    def toes_of_doubles(self, starting: bool = False) -> list:
        """Every double read with the toes the photo shows against it, as "double:toe"
        pairs, so that the desk can tick a double's toes when the player picks another one
        after the photo (the photo itself is not kept)."""
        pairs = []
        for name in self.names:
            double = Tile(*map(int, name.split("-")))
            if double.is_double:
                pairs += [f"{name}:{toe}" for toe in self.foot(double, starting).toes]
        return pairs

    def foot(self, double: Tile, starting: bool = False) -> "TableFoot":
        """What the photo shows of `double`'s foot: the tiles of its number read, and the
        ones lying against it as its toes (the starting double's arms). A later double was
        laid against one tile of its number, on the other side from its toes; where the
        tiles against it lie one on each side, that one cannot be told from a toe, and the
        reading leaves the player to tap the toe."""
        number = double.high
        tiles = self.hand.tiles
        carrying = [name for name in self.names if Tile(*map(int, name.split("-"))).has(number)
                    and name != str(double)]
        index = next((k for k, t in enumerate(tiles) if (t.a, t.b) == (double.high, double.low)), None)
        toes = []
        if index is not None:
            against = [k for k in self.hand.touching(index) if number in (tiles[k].a, tiles[k].b)
                       and tiles[k].a != tiles[k].b]
            if starting:
                toes = against
            else:
                toes = _toes_of_a_later_double(tiles[index].polygon, [tiles[k] for k in against], number, against)
        names = list(dict.fromkeys(f"{tiles[k].a}-{tiles[k].b}" for k in toes))
        return TableFoot(double=double, laid=carrying, toes=[n for n in names if n in carrying],
                         unsure=[n for n in self.unsure if n in carrying or n == str(double)],
                         found=index is not None)

    def image(self, number=None) -> str:
        """The annotated photo as a data: URI, the tiles carrying `number` standing out
        (none where no tile read carries it: every tile is then grey and unlabelled, but
        the doubtful ones). Without the photo counter's own total in its corner, written
        in English: the desk says what was read under the photo, in the player's
        language."""
        tiles = self.hand.tiles
        highlight = None if number is None else [k for k, t in enumerate(tiles) if number in (t.a, t.b)]
        return _data_uri(self.hand.annotated(highlight=highlight, total=False))


@dataclass
class TableFoot:
    double: Tile
    laid: list
    toes: list
    unsure: list
    found: bool


def _centre(polygon) -> tuple:
    return (sum(p[0] for p in polygon) / len(polygon), sum(p[1] for p in polygon) / len(polygon))


def _toes_of_a_later_double(double_polygon, tiles, number: int, indices: list) -> list:
    """The toes of a later double among the tiles of its number touching it (`tiles`, at
    `indices`). The tile the double was laid against and its toes lie with their
    number's end against its long sides, that tile on one side and the toes on the
    other. A tile touching the double otherwise (by its other end, or past the double's
    end: a line passing close on a crowded table) is neither. Where one tile lies so on
    each side, which is the toe cannot be told, but there is one: the count, which the
    ruling takes, is right, and the player may move the mark."""
    near, far = sorted(_against_its_sides(double_polygon, tiles, number, indices), key=len)
    if len(near) == 1:
        return far
    if not near and len(far) <= 1:
        return []  # the tile it was laid against, or nothing: no toe yet
    against = near + far
    return _furthest_apart(double_polygon, [tiles[indices.index(k)] for k in against], against)


#: A tile's number end lies against a double's long side when it is at most this share of
#: a tile's width past the side's end, and at most END_OFF of it off the side's line.
#: Read outlines lie a little off their tiles: on the development tables a toe's end was
#: read up to 0.4 of a width past the side's end and 0.4 off its line, and tiles passing
#: by 0.6 past its end or 0.9 off its line (0.4 to 0.6, and 0.45 to 0.75, read every foot
#: alike there).
END_PAST = 0.5
END_OFF = 0.6


def _against_its_sides(double_polygon, tiles, number: int, indices: list) -> tuple[list, list]:
    """Those of `tiles` (at `indices`) whose `number` end lies against the double's
    long sides, nearer the double than their other end: those on one side, and those on
    the other. Measured in the double's own frame, in tile widths (the double two long
    and one wide), which a photo taken at an angle squeezes alike: a tile's outline is a
    parallelogram there, its sides still the frame's axes."""
    frame = _frame(double_polygon)
    sides: tuple[list, list] = ([], [])
    for tile, k in zip(tiles, indices):
        p = tile.polygon  # its `a` half's end first (vision's Tile)
        end, other = (_middle(p[0], p[1]), _middle(p[2], p[3]))[:: 1 if tile.a == number else -1]
        (x, y), (ox, oy) = _in_frame(frame, end), _in_frame(frame, other)
        if x * x + y * y < ox * ox + oy * oy and abs(x) <= 1 + END_PAST and abs(y) <= 0.5 + END_OFF:
            sides[int(y > 0)].append(k)
    return sides


def _frame(polygon) -> tuple:
    """A tile's centre, and half its long side and half its short side, as vectors."""
    one, two = _minus(polygon[1], polygon[0]), _minus(polygon[2], polygon[1])
    if _dot(one, one) < _dot(two, two):
        one, two = two, one
    return _centre(polygon), (one[0] / 2, one[1] / 2), (two[0] / 2, two[1] / 2)


def _in_frame(frame, point) -> tuple:
    """`point` in a double's frame (_frame), in tile widths: along its long axis (its ends at
    -1 and 1) and across it (its long sides at -0.5 and 0.5)."""
    centre, half_long, half_wide = frame
    dx, dy = _minus(point, centre)
    det = half_long[0] * half_wide[1] - half_long[1] * half_wide[0]
    if det == 0:
        return (float("inf"), float("inf"))
    return ((dx * half_wide[1] - dy * half_wide[0]) / det, 0.5 * (half_long[0] * dy - half_long[1] * dx) / det)


def _middle(p, q) -> tuple:
    return ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)


def _minus(p, q) -> tuple:
    return (p[0] - q[0], p[1] - q[1])


def _dot(p, q) -> float:
    return p[0] * q[0] + p[1] * q[1]


def _furthest_apart(double_polygon, tiles, indices: list) -> list:
    """Where their ends do not tell them (all on one side, or several on each), the tile
    the double was laid against is taken to lie on the double's line, across its short
    axis from its toes: of the tiles' centres measured along that axis, the one furthest
    from the mean of the others (the straight toe lies as far out on the other side, and
    the fanned toes, near the double's ends, lean that way too)."""
    centre, _, across = _frame(double_polygon)  # the double's short side: its line runs this way
    along = [_dot(_minus(_centre(t.polygon), centre), across) for t in tiles]
    total = sum(along)
    apart = [abs(a - (total - a) / (len(along) - 1)) for a in along]
    laid = apart.index(max(apart))
    return [k for n, k in enumerate(indices) if n != laid]


def read_table(data: bytes, top: int, max_bytes: int) -> TableReading:
    """Read a photo of the table: every face-up tile, with its outline and confidence."""
    return TableReading(hand=_read_photo(data, max_bytes, table=True), top=top)


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
