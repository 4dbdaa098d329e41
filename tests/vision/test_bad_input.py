"""Bad input gets a clear PhotoError, never a crash or a hang."""

from __future__ import annotations

import io
import struct
import time
import zlib

import numpy as np
import pytest
from PIL import Image

import vision
from vision import PhotoError


def _jpeg(w=640, h=480, colour=(200, 180, 150)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (w, h), colour).save(buf, "JPEG", quality=85)
    return buf.getvalue()


def _png_declaring(w: int, h: int) -> bytes:
    """A valid-looking PNG header that declares w x h pixels, with almost no data."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00" * 64)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


@pytest.mark.parametrize("data, words", [
    (b"", "empty"),
    (b"hello, this is not a photo\n" * 10, "not an image"),
    (b"\xff\xd8\xff\xe0" + b"\x00" * 20, ""),
])
def test_not_an_image(data, words):
    with pytest.raises(PhotoError) as ei:
        vision.read_hand(data)
    assert words in str(ei.value)
    assert str(ei.value)  # readable message


def test_truncated_jpeg():
    data = _jpeg(1200, 900)
    rng = np.random.default_rng(0)
    arr = rng.integers(0, 255, (900, 1200, 3), dtype=np.uint8)
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, "JPEG", quality=90)
    data = buf.getvalue()
    with pytest.raises(PhotoError) as ei:
        vision.read_hand(data[: len(data) // 2])
    assert "truncated" in str(ei.value) or "damaged" in str(ei.value)


@pytest.mark.parametrize("fmt", ["PNG", "WEBP"])
@pytest.mark.parametrize("kept", [0.5, 0.99])
def test_truncated_png_or_webp(fmt, kept, capfd):
    """A PNG or WebP cut short is refused with a message, and no decoder prints anything."""
    arr = np.random.default_rng(1).integers(0, 255, (600, 800, 3), dtype=np.uint8)
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, fmt, quality=90)
    data = buf.getvalue()
    with pytest.raises(PhotoError) as ei:
        vision.read_hand(data[: int(len(data) * kept)])
    assert ei.value.kind in ("damaged", "not_image") and str(ei.value)
    assert capfd.readouterr().err == ""


@pytest.mark.parametrize("size", [(1600, 1200), (4000, 3000)])
def test_a_jpeg_damaged_inside_is_refused(size):
    """A stray marker in the middle of a JPEG's image data, its end marker still there:
    the rows after it cannot be decoded (OpenCV's decoder would fill them in grey), so
    the photo is refused as damaged, at full size and at the reduced size big ones are
    decoded at."""
    rng = np.random.default_rng(0)
    small = rng.integers(0, 256, (60, 80, 3), np.uint8)
    buf = io.BytesIO()
    Image.fromarray(small).resize(size, Image.Resampling.BICUBIC).save(buf, "JPEG", quality=90)
    data = buf.getvalue()
    middle = (data.find(b"\xff\xda") + len(data)) // 2
    with pytest.raises(PhotoError) as ei:
        vision.read_hand(data[:middle] + b"\xff\xc0" + data[middle:])
    assert "truncated or damaged" in str(ei.value)


def test_text_file_named_jpg(tmp_path):
    p = tmp_path / "hand.jpg"
    p.write_text("I am not a JPEG at all")
    with pytest.raises(PhotoError):
        vision.read_file(p)


def test_image_bomb_is_refused_before_decoding():
    data = _png_declaring(60000, 60000)
    assert len(data) < 200
    t = time.perf_counter()
    with pytest.raises(PhotoError) as ei:
        vision.read_hand(data)
    assert time.perf_counter() - t < 1.0
    assert "too large" in str(ei.value) or "bomb" in str(ei.value)


def test_huge_jpeg_dimensions_declared_is_refused():
    # a JPEG header declaring 65000 x 65000 (SOF0 patched), the rest a tiny image
    data = bytearray(_jpeg(64, 48))
    i = data.find(b"\xff\xc0")
    assert i > 0
    data[i + 5:i + 9] = struct.pack(">HH", 65000, 65000)
    with pytest.raises(PhotoError):
        vision.read_hand(bytes(data))


def test_sixty_megapixel_photo_is_downscaled_not_refused():
    w, h = 9000, 6700  # 60.3 MP
    rng = np.random.default_rng(1)
    small = rng.integers(90, 110, (67, 90, 3), dtype=np.uint8)
    im = Image.fromarray(small).resize((w, h), Image.Resampling.NEAREST)
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=70)
    t = time.perf_counter()
    hand = vision.read_hand(buf.getvalue())
    assert time.perf_counter() - t < 5.0
    assert (hand.width, hand.height) == (w, h)
    assert hand.tiles == [] and hand.pips == 0


def test_tiny_image():
    buf = io.BytesIO()
    Image.new("RGB", (4, 4)).save(buf, "PNG")
    with pytest.raises(PhotoError):
        vision.read_hand(buf.getvalue())


def test_blank_photo_has_no_tiles():
    hand = vision.read_hand(_jpeg(800, 600))
    assert hand.tiles == []
    assert hand.pips == 0
    assert hand.annotated()[:2] == b"\xff\xd8"


def test_not_bytes():
    with pytest.raises(PhotoError):
        vision.read_hand("photo.jpg")  # type: ignore[arg-type]


def test_small_file_declaring_a_large_photo_is_refused():
    # 100 MP declared (under the hard limit) in a few hundred bytes
    data = _png_declaring(10000, 10000)
    t = time.perf_counter()
    with pytest.raises(PhotoError) as ei:
        vision.read_hand(data)
    assert time.perf_counter() - t < 1.0
    assert "bomb" in str(ei.value)
