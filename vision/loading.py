"""Turn the bytes of an uploaded photo into pixels, safely.

Everything that can go wrong with untrusted input is turned into a PhotoError with a
readable message: empty or truncated files, files that are not images, image bombs
(a tiny file declaring a huge size). The declared size is checked with Pillow before any
pixel is decoded. JPEGs are decoded at a reduced size (DCT scaling, Pillow's draft mode),
which is most of the speed of the counter; at a quarter or less, by decoding at twice
that and halving, so that the sharper decoding small tiles need is at hand (_halved).
Colour JPEGs (at that reduced size) and WebPs (whole) are decoded by OpenCV, faster than
by Pillow, to Pillow's very pixels.
EXIF orientation is honoured.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from PIL import Image, ImageFile, UnidentifiedImageError

from .errors import PhotoError

#: Largest declared size accepted. A 48 MP phone photo is 48e6; bigger than this is
#: refused as a likely decompression bomb (a 60 MP photo is accepted and downscaled).
MAX_PIXELS = 120_000_000
#: JPEGs are decoded at the smallest DCT scale (1/1, 1/2, 1/4, 1/8) whose long side is at
#: least this; other formats are decoded whole. Pips are counted at that resolution. At
#: 1000, a square 12 MP photo (3464 px, 866 at a quarter) was worked on at half its size,
#: which cost twice the time of a quarter, and read no better (measured on the
#: development photos enlarged to 12 MP: one more hand right at 850, as many on the
#: turned copies).
DRAFT_LONG_SIDE = 850
#: Longest side of the pixels kept (bigger decodes are downscaled to this).
DETAIL_LONG_SIDE = 2048
#: A photo above 20 MP holding less than this many bytes per declared pixel is refused
#: (real photos of that size are megabytes; a bomb is a few kilobytes).
MIN_BYTES_PER_PIXEL = 0.002
#: Smallest accepted side.
MIN_SIDE = 16
#: Memory a picture decoded whole may cost. Only a JPEG can be decoded at a reduced size;
#: any other format (PNG, WebP, HEIC) is decoded whole and made colour before it is shrunk,
#: so a picture whose decoding would cost more than this is refused from its header, before
#: a pixel is decoded: the worst file accepted costs under 400 MB over the idle process
#: (tests/vision/test_memory.py). A 16-bit grey PNG of 11,000 x 11,000 pixels packs into
#: half a megabyte and would decode into 240 MB, then 2 GB of float copies: refused here.
MAX_DECODE_BYTES = 360_000_000
#: Peak bytes a pixel costs while decoded and made colour, by Pillow's mode (measured as
#: the reading process's peak memory on 36 to 59 MP pictures): the decoded picture (Pillow
#: keeps colour in 4 bytes a pixel), the array made of it, and for a transparent one its
#: colour copy and Pillow's premultiplied copy when it is shrunk. A colour PNG, WebP or
#: HEIC is read whole up to 45 MP, a transparent one up to 36 MP, a JPEG up to MAX_PIXELS.
_PEAK_BYTES = {"1": 2, "L": 2, "P": 5, "RGB": 8, "YCbCr": 8, "CMYK": 8, "I;16": 6, "I;16B": 6, "I;16L": 6,
               "I": 9, "F": 9}
_TRANSPARENT_PEAK_BYTES = 10
#: Pillow's names for a JPEG: a phone's photo with a second picture after it (a depth map,
#: a preview: the Multi-Picture Format) is an "MPO", whose first picture is the photo.
JPEG_FORMATS = ("JPEG", "MPO")

_heif_registered = False

# Pillow refuses (raises) above 2x this value; our own check below comes first.
Image.MAX_IMAGE_PIXELS = MAX_PIXELS
ImageFile.LOAD_TRUNCATED_IMAGES = False


def _register_heif() -> None:
    global _heif_registered
    if _heif_registered:
        return
    _heif_registered = True
    try:
        import pillow_heif  # type: ignore

        pillow_heif.register_heif_opener()
    except Exception:  # pragma: no cover - pillow-heif missing: HEIC is then unreadable
        pass


@dataclass
class Photo:
    """Decoded photo: `bgr` is an upright (EXIF applied) array, possibly reduced, its
    channels in OpenCV's order (blue, green, red), which every look works in.

    `scale` maps `bgr` pixel coordinates to the original (upright) image: original =
    bgr * scale. `width`/`height` are the original upright size.
    """

    bgr: np.ndarray
    scale: float
    width: int
    height: int
    format: str
    #: The photo decoded at twice the size, when it was decoded so to make `bgr` (see
    #: load_photo): sharper_photo then costs no second decoding.
    twice: Callable[[], "Photo"] | None = field(default=None, repr=False, compare=False)


_ORIENTATIONS = {
    2: [Image.Transpose.FLIP_LEFT_RIGHT],
    3: [Image.Transpose.ROTATE_180],
    4: [Image.Transpose.FLIP_TOP_BOTTOM],
    5: [Image.Transpose.TRANSPOSE],
    6: [Image.Transpose.ROTATE_270],
    7: [Image.Transpose.TRANSVERSE],
    8: [Image.Transpose.ROTATE_90],
}


def _orientation(im: Image.Image) -> int:
    try:
        value = im.getexif().get(0x0112, 1)
        value = int(value)
    except Exception:
        return 1
    return value if value in _ORIENTATIONS else 1


def _orient(pixels: np.ndarray, orientation: int) -> np.ndarray:
    """Apply an EXIF orientation (1-8) to an array, as ImageOps.exif_transpose does."""
    if orientation == 2:
        return pixels[:, ::-1]
    if orientation == 3:
        return pixels[::-1, ::-1]
    if orientation == 4:
        return pixels[::-1]
    if orientation == 5:
        return pixels.transpose(1, 0, 2)
    if orientation == 6:
        return pixels.transpose(1, 0, 2)[:, ::-1]
    if orientation == 7:
        return pixels.transpose(1, 0, 2)[::-1, ::-1]
    if orientation == 8:
        return pixels.transpose(1, 0, 2)[::-1]
    return pixels


def load_photo(data: bytes, detail_long_side: int = DETAIL_LONG_SIDE, draft_long_side: int = DRAFT_LONG_SIDE) -> Photo:
    """Decode `data` (JPEG, PNG, WebP, HEIC, ...) into an upright array (BGR) whose long side
    is at most about `detail_long_side` (never upscaled); a JPEG is decoded at the
    smallest DCT scale whose long side is at least `draft_long_side`. Raises PhotoError."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise PhotoError("expected the bytes of a photo", "not_image")
    data = bytes(data)
    if not data:
        raise PhotoError("the file is empty", "not_image")
    if data[:4] == b"\x00\x00\x00\x18" or b"ftyp" in data[4:12]:
        _register_heif()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            im = Image.open(io.BytesIO(data))
    except UnidentifiedImageError:
        _register_heif()
        try:
            im = Image.open(io.BytesIO(data))
        except Exception:
            raise PhotoError("the file is not an image this counter can read "
                             "(JPEG, PNG, WebP or HEIC)", "not_image") from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PhotoError("the image declares a size far too large to be a photo", "too_large") from None
    except Exception as exc:
        raise PhotoError(f"the file could not be read as an image ({exc.__class__.__name__})", "not_image") from None

    w, h = im.size
    if w <= 0 or h <= 0:
        raise PhotoError("the image has no pixels", "not_image")
    if w * h > MAX_PIXELS:
        raise PhotoError(
            f"the image declares {w}x{h} pixels ({w * h / 1e6:.0f} MP); photos above "
            f"{MAX_PIXELS / 1e6:.0f} MP are refused as a likely decompression bomb", "too_large")
    if w * h > 20_000_000 and len(data) < w * h * MIN_BYTES_PER_PIXEL:
        raise PhotoError(
            f"the image declares {w}x{h} pixels but holds only {len(data)} bytes: refused as a likely "
            "decompression bomb", "too_large")
    if min(w, h) < MIN_SIDE:
        raise PhotoError(f"the image is too small ({w}x{h} pixels)", "too_small")
    fmt = (im.format or "").upper()
    if fmt not in JPEG_FORMATS and (cost := w * h * _peak_bytes(im)) > MAX_DECODE_BYTES:
        raise PhotoError(
            f"the image ({w}x{h} pixels, {im.mode}) would take {cost / 1e6:.0f} MB to decode whole; a "
            f"{fmt or 'picture'} is decoded whole, so only up to {MAX_DECODE_BYTES / 1e6:.0f} MB of it is read "
            f"(a JPEG is decoded at a reduced size)", "too_large")
    orientation = _orientation(im)

    try:
        if getattr(im, "n_frames", 1) > 1:
            im.seek(0)
        if fmt in JPEG_FORMATS:
            scale = 1
            # DCT-domain downscale: decode directly at 1/2, 1/4 or 1/8 when big.
            if max(w, h) >= 2 * draft_long_side:
                k = draft_long_side / max(w, h)
                drafted = im.draft("RGB", (max(1, int(w * k)), max(1, int(h * k))))
                scale = round(w / drafted[1][2]) if drafted else 1
            if scale >= HALVED_SCALE:  # else Pillow decodes it: OpenCV could not (see _jpeg_pixels)
                photo = _halved(data, im, scale, w, h, orientation, detail_long_side, fmt)
                if photo is not None:
                    return photo
            elif (bgr := _jpeg_pixels(data, im, scale)) is not None:
                return _upright(bgr, w, h, orientation, detail_long_side, fmt)
        elif fmt in OPENCV_FORMATS and (bgr := _opencv_pixels(data, im)) is not None:
            return _upright(bgr, w, h, orientation, detail_long_side, fmt)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            im.load()
        im = _small_colour(im, detail_long_side)
    except PhotoError:
        raise
    except Exception as exc:
        msg = str(exc).lower()
        if "truncated" in msg or isinstance(exc, (EOFError,)) or "broken" in msg:
            raise PhotoError("the image file is truncated or damaged", "damaged") from None
        raise PhotoError(f"the image could not be decoded ({exc.__class__.__name__})", "damaged") from None

    rgb = np.asarray(im)
    if rgb.ndim != 3 or rgb.shape[2] != 3:
        raise PhotoError("the image could not be decoded as colour pixels", "not_image")
    import cv2

    # shrunk before its channels are swapped: the same pixels as the other way round, and
    # no second full-size copy
    return _upright(cv2.cvtColor(_fit(rgb, detail_long_side), cv2.COLOR_RGB2BGR), w, h, orientation,
                    detail_long_side, fmt)


def _transparent(im: Image.Image) -> bool:
    return im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info)


def _peak_bytes(im: Image.Image) -> int:
    return _TRANSPARENT_PEAK_BYTES if _transparent(im) else _PEAK_BYTES.get(im.mode, _TRANSPARENT_PEAK_BYTES)


def _small_colour(im: Image.Image, long_side: int) -> Image.Image:
    """A decoded picture as colour (RGB); any but an RGB one shrunk to `long_side` on the
    way, so that no more than one full-size copy is made of it. A transparent picture is
    laid over grey."""
    if im.mode == "RGB":
        return im
    if _transparent(im):
        if im.mode in ("P", "PA"):  # a palette cannot be shrunk by area
            im = im.convert("RGBA")
        small = _shrunk(im, long_side)
        small = small if small.mode == "RGBA" else small.convert("RGBA")
        grey = Image.new("RGBA", small.size, (128, 128, 128, 255))
        grey.alpha_composite(small)
        return grey.convert("RGB")
    if im.mode in ("I;16", "I;16B", "I;16L", "I"):
        im = Image.fromarray(_to_bytes(np.asarray(im)))
    if im.mode not in ("L", "RGB", "CMYK", "YCbCr"):
        im = im.convert("RGB")
    small = _shrunk(im, long_side)
    return small if small.mode == "RGB" else small.convert("RGB")


def _to_bytes(grey: np.ndarray) -> np.ndarray:
    """16- or 32-bit grey levels scaled to 0-255 (the brightest to 255), a band of rows at a
    time: no float copy of the whole picture (eight bytes a pixel) is ever made."""
    top = float(grey.max()) or 1.0
    out = np.empty(grey.shape, np.uint8)
    for start in range(0, grey.shape[0], 512):
        band = np.clip(grey[start:start + 512].astype(np.float32) * (255.0 / top), 0, 255)
        out[start:start + 512] = band
    return out


def _shrunk(im: Image.Image, long_side: int) -> Image.Image:
    """`im` shrunk (by area) so its long side is at most `long_side`."""
    if max(im.size) <= long_side:
        return im
    f = long_side / max(im.size)
    return im.resize((max(1, round(im.size[0] * f)), max(1, round(im.size[1] * f))), Image.Resampling.BOX)


#: The grey libjpeg fills in the rows of a JPEG it could not decode.
_FILLED = 128


#: A JPEG decoded at a quarter of its size or less is decoded at twice that and halved.
HALVED_SCALE = 4


def _halved(data: bytes, im: Image.Image, scale: int, w: int, h: int, orientation: int, detail_long_side: int,
            fmt: str) -> Photo | None:
    """The Photo of a JPEG decoded at 1 / `scale` of its size by decoding it at twice that
    and halving (by area) what was decoded, which is then kept as the photo's `twice`:
    the libjpeg decoder spends most of its time on the file's entropy coding, whatever
    the scale. On a 12 MP photo the decoding at a half takes about 10 ms more than at a
    quarter (26 ms against 16, one core, OpenCV 5.1; an earlier build's differed by 4 or
    5), paid on every photo, and a photo of small tiles, decoded again at a half
    (sharper_photo), saves a whole decoding (26 ms). The halving differs from the decoder's own
    quarter by a third of a level on average (at most a few). None where the JPEG cannot
    be decoded so (see _jpeg_pixels)."""
    big = _jpeg_pixels(data, im, scale // 2, (-(-h * 2 // scale), -(-w * 2 // scale)))
    if big is None:
        return None
    small = _halve(big, (im.size[1], im.size[0]))
    photo = _upright(small, w, h, orientation, detail_long_side, fmt)
    photo.twice = lambda: _upright(big, w, h, orientation, detail_long_side, fmt)
    return photo


def _halve(bgr: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """`bgr` shrunk by area to `shape`, half its size rounded up (the decoder's sizes): a
    last odd row or column is halved along the other side only."""
    import cv2

    rows, cols = bgr.shape[0] // 2, bgr.shape[1] // 2
    even = cv2.resize(bgr[:2 * rows, :2 * cols], (cols, rows), interpolation=cv2.INTER_AREA)
    if (rows, cols) == shape:
        return even
    out = np.empty((*shape, 3), np.uint8)
    out[:rows, :cols] = even
    if shape[0] > rows:
        out[rows, :cols] = cv2.resize(bgr[-1:, :2 * cols], (cols, 1), interpolation=cv2.INTER_AREA)
    if shape[1] > cols:
        out[:rows, cols] = cv2.resize(bgr[:2 * rows, -1:], (1, rows), interpolation=cv2.INTER_AREA)[:, 0]
    if shape[0] > rows and shape[1] > cols:
        out[rows, cols] = bgr[-1, -1]
    return out


def _jpeg_pixels(data: bytes, im: Image.Image, scale: int, shape: tuple[int, int] | None = None) -> np.ndarray | None:
    """The pixels (BGR) of a colour JPEG whole to its end marker, decoded by OpenCV at 1 /
    `scale` of its size: the same pixels as Pillow's (both run libjpeg-turbo), in up to a
    quarter less time (Pillow feeds its decoder in chunks and copies the result), checked
    to be of `shape` (rows, columns; by default Pillow's size for the image). None
    for any other JPEG, which Pillow decodes: a grey or CMYK one, and a truncated or
    damaged one, which Pillow refuses and OpenCV decodes with the rows after the damage
    filled in grey (its last row all grey is taken for that)."""
    import cv2

    flags = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
             8: cv2.IMREAD_REDUCED_COLOR_8}.get(scale)
    if im.mode != "RGB" or flags is None or not data.rstrip(b"\x00").endswith(b"\xff\xd9"):
        return None
    bgr = cv2.imdecode(np.frombuffer(data, np.uint8), flags | cv2.IMREAD_IGNORE_ORIENTATION)
    if bgr is None or bgr.shape[:2] != (shape or (im.size[1], im.size[0])) or (bgr[-1] == _FILLED).all():
        return None
    return bgr


#: Formats OpenCV decodes to the pixels Pillow gives, in less time: a 12 MP WebP in 0.11 s
#: against 0.27 (Pillow's WebP plugin decodes to RGBA and converts), a 48 MP one in 0.36
#: against 1.12 (one core; the same pixels, checked on the 48 WebP development photos).
#: Not PNG: OpenCV decodes it in about Pillow's time, and Pillow has decoded it already to
#: look for its EXIF orientation, which a PNG may store after the pixels.
OPENCV_FORMATS = ("WEBP",)


def _opencv_pixels(data: bytes, im: Image.Image) -> np.ndarray | None:
    """The pixels (BGR) of a WebP that Pillow opens as one colour picture (mode RGB, a
    single frame), decoded by OpenCV from its image chunk alone (_image_chunk), checked
    to be of Pillow's size. None for any other, which Pillow decodes: a transparent one
    (its alpha is put over grey, where OpenCV would drop it), an animated one, one whose
    image chunk is missing or cut short; and None where OpenCV cannot decode it, for
    Pillow to refuse with a message."""
    import cv2

    if im.mode != "RGB" or getattr(im, "n_frames", 1) > 1 or (alone := _image_chunk(data)) is None:
        return None
    bgr = cv2.imdecode(np.frombuffer(alone, np.uint8), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    if bgr is None or bgr.shape != (im.size[1], im.size[0], 3):
        return None
    return bgr


def _image_chunk(data: bytes) -> bytes | None:
    """The WebP `data`'s image chunk (VP8 or VP8L) as a WebP file of its own, or None for
    a file with none, or with an animation or alpha chunk before it. Given the whole file,
    libwebp decodes a damaged image into the bytes after it (the EXIF and XMP chunks a
    phone or Pillow writes there): a one-byte damage that Pillow, which hands libwebp the
    chunk alone, refuses, came out as a photo with a twentieth of its pixels wrong."""
    end = min(len(data), 8 + int.from_bytes(data[4:8], "little"))  # the RIFF's declared end
    at = 12  # after "RIFF", its size and "WEBP"
    while at + 8 <= end:
        kind, size = data[at:at + 4], int.from_bytes(data[at + 4:at + 8], "little")
        if kind in (b"ANIM", b"ANMF", b"ALPH"):
            return None
        if kind in (b"VP8 ", b"VP8L"):
            if at + 8 + size > end:
                return None
            chunk = data[at:at + 8 + size] + b"\0" * (size & 1)  # a chunk is padded to an even size
            return b"RIFF" + (4 + len(chunk)).to_bytes(4, "little") + b"WEBP" + chunk
        at += 8 + size + (size & 1)
    return None


def _fit(pixels: np.ndarray, long_side: int) -> np.ndarray:
    """`pixels` shrunk by area so that their long side is at most `long_side`."""
    dh, dw = pixels.shape[:2]
    if max(dw, dh) <= long_side:
        return pixels
    import cv2

    f = long_side / max(dw, dh)
    return cv2.resize(pixels, (max(1, round(dw * f)), max(1, round(dh * f))), interpolation=cv2.INTER_AREA)


def _upright(bgr: np.ndarray, w: int, h: int, orientation: int, detail_long_side: int, fmt: str) -> Photo:
    """The Photo of decoded pixels `bgr` of an image `w` x `h` with that EXIF
    `orientation`, shrunk to `detail_long_side` at most."""
    bgr = _fit(bgr, detail_long_side)
    dh, dw = bgr.shape[:2]
    bgr = _orient(bgr, orientation)
    if orientation in (5, 6, 7, 8):
        w, h = h, w
        dw, dh = dh, dw
    scale = w / dw
    return Photo(bgr=np.ascontiguousarray(bgr), scale=scale, width=w, height=h, format=fmt)


#: A JPEG decoded at this fraction of its size or less can be decoded again sharper...
SHARPER_SCALE = 1.9
#: ...which its tiles narrower than this, in pixels of the decoded photo, need: their pips
#: are 3 or 4 pixels wide there (a closer classical look at 30 and 36 found fewer tiles,
#: at 44 as many).
SHARPER_TILE = 40


def sharper_decoding(photo: Photo, data: bytes | None) -> bool:
    """Whether `photo`, decoded from `data`, is a JPEG decoded at a reduced size (its DCT
    scale), so that decoding it at twice that size shows its small tiles sharper."""
    return data is not None and photo.format in JPEG_FORMATS and photo.scale >= SHARPER_SCALE


def sharper_photo(photo: Photo, data: bytes) -> Photo:
    """`data` at twice the size `photo` was decoded from it at (see sharper_decoding):
    the decoding `photo` was halved from (Photo.twice), or else `data` decoded again. The
    size asked for then is rounded down: a JPEG 4001 pixels wide is 1001 at a quarter, and
    asking for twice that, 2002, would have decoded it whole."""
    if photo.twice is not None:
        return photo.twice()
    return load_photo(data, draft_long_side=max(photo.width, photo.height) // round(photo.scale / 2))
