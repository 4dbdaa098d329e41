"""JPEG, PNG, WebP and HEIC read alike; EXIF orientation is honoured; polygons are in the
original (upright) photo's coordinates."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image, ImageOps

import vision
from tools.generators.synthetic_photos import make_photo

SEED = 7  # an easy synthetic hand (ivory tiles, black pips) read exactly


@pytest.fixture(scope="module")
def photo():
    return make_photo(np.random.default_rng(SEED), n_tiles=4, size=(1000, 750), style="ivory", background="felt",
                      layout="scatter")


def _match_polygons(hand, truth_polys, tol):
    """Every true tile outline has a read tile whose centre is within tol pixels."""
    centres = [np.mean(np.array(t.polygon), axis=0) for t in hand.tiles]
    for poly in truth_polys:
        c = np.mean(poly, axis=0)
        assert min(np.linalg.norm(c - d) for d in centres) < tol


def test_jpeg_reference(photo):
    hand = vision.read_hand(photo.encode("jpeg", quality=92))
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)
    assert hand.pips == photo.total
    _match_polygons(hand, photo.polygons, tol=15)


@pytest.mark.parametrize("fmt", ["png", "webp", "heic"])
def test_other_formats(photo, fmt):
    if fmt == "heic":
        pytest.importorskip("pillow_heif")
    data = photo.encode(fmt, quality=92)
    hand = vision.read_hand(data)
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)
    assert (hand.width, hand.height) == (1000, 750)


@pytest.mark.parametrize("orientation, stored", [
    (3, Image.Transpose.ROTATE_180),
    (6, Image.Transpose.ROTATE_90),   # stored turned a quarter anticlockwise
    (8, Image.Transpose.ROTATE_270),  # stored turned a quarter clockwise
])
def test_exif_orientation(photo, orientation, stored):
    upright = Image.fromarray(photo.bgr[:, :, ::-1].copy())
    raw = upright.transpose(stored)
    ex = Image.Exif()
    ex[0x0112] = orientation
    buf = io.BytesIO()
    raw.save(buf, "JPEG", quality=92, exif=ex.tobytes())
    data = buf.getvalue()
    # Pillow's own idea of upright must be our upright
    shown = ImageOps.exif_transpose(Image.open(io.BytesIO(data)))
    assert shown.size == upright.size
    hand = vision.read_hand(data)
    assert (hand.width, hand.height) == upright.size
    assert sorted(t.halves for t in hand.tiles) == sorted(photo.tiles)
    _match_polygons(hand, photo.polygons, tol=15)


def test_annotated_is_a_jpeg_of_the_photo(photo):
    hand = vision.read_hand(photo.encode("jpeg"))
    out = hand.annotated()
    im = Image.open(io.BytesIO(out))
    assert im.format == "JPEG"
    assert abs(im.size[0] / im.size[1] - 1000 / 750) < 0.01
    for t in hand.tiles:
        assert 0.0 <= t.confidence <= 1.0
        assert len(t.polygon) == 4
        for x, y in t.polygon:
            assert -5 <= x <= 1005 and -5 <= y <= 755


@pytest.mark.parametrize("length, whole", [(200.0, True), (60.0, False), (25.0, False)])
def test_a_label_fits_over_its_tile(length, whole):
    """A tile's label on the annotated photo is its number and halves; over small tiles
    touching in a row it would cover the next ones (they read as a smear of numbers on a
    phone), so it is the halves alone, in a font as small as is still legible."""
    import cv2

    from vision.annotate import LABEL_SPAN, SMALLEST_FONT, label_for

    label, scale, thick = label_for(12, 10, 7, True, length, font_scale=1.2, thick=3)
    width = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)[0][0]
    assert label == ("12: 10|7 ?" if whole else "10|7?")
    assert width <= LABEL_SPAN * length or scale == SMALLEST_FONT
    assert scale >= SMALLEST_FONT


@pytest.mark.parametrize("mode", ["RGB", "L", "CMYK"])
@pytest.mark.parametrize("orientation", [1, 6])
def test_a_big_jpeg_is_decoded_reduced_and_upright_as_pillow_does(photo, mode, orientation):
    """A big JPEG is decoded at a reduced size (OpenCV's decoder for colour ones, which is
    faster; at twice that size, then halved, for a quarter): its pixels, upright, are
    those Pillow decodes at that size, within a level or two, and a grey or CMYK JPEG is
    decoded too."""
    from vision.loading import DRAFT_LONG_SIDE, load_photo

    big = Image.fromarray(photo.bgr[:, :, ::-1].copy()).resize((4 * DRAFT_LONG_SIDE, 3 * DRAFT_LONG_SIDE)).convert(mode)
    ex = Image.Exif()
    ex[0x0112] = orientation
    buf = io.BytesIO()
    big.save(buf, "JPEG", quality=90, exif=ex.tobytes())
    data = buf.getvalue()
    pillow = Image.open(io.BytesIO(data))
    pillow.draft("RGB", (DRAFT_LONG_SIDE, DRAFT_LONG_SIDE * 3 // 4))
    pillow = ImageOps.exif_transpose(pillow.convert("RGB"))
    loaded = load_photo(data)
    assert loaded.bgr.shape == (pillow.height, pillow.width, 3) == ((638, 850, 3) if orientation == 1 else (850, 638, 3))
    assert (loaded.width, loaded.height) == ((3400, 2550) if orientation == 1 else (2550, 3400))
    assert loaded.scale == pytest.approx(4.0, rel=0.01)
    diff = np.abs(loaded.bgr[:, :, ::-1].astype(int) - np.asarray(pillow))
    assert diff.mean() < 0.5 and diff.max() <= (4 if mode == "RGB" else 2)


@pytest.mark.parametrize("orientation", [1, 6])
def test_a_jpeg_decoded_at_a_half_has_pillows_very_pixels(photo, orientation):
    """A JPEG decoded at half its size (a 3 to 5 MP photo) by OpenCV's decoder has, upright,
    exactly the pixels Pillow decodes at that size."""
    from vision.loading import load_photo

    ex = Image.Exif()
    ex[0x0112] = orientation
    buf = io.BytesIO()
    Image.fromarray(photo.bgr[:, :, ::-1].copy()).resize((2400, 1800)).save(buf, "JPEG", quality=90, exif=ex.tobytes())
    data = buf.getvalue()
    pillow = Image.open(io.BytesIO(data))
    pillow.draft("RGB", (1200, 900))
    pillow = ImageOps.exif_transpose(pillow.convert("RGB"))
    loaded = load_photo(data)
    assert loaded.scale == pytest.approx(2.0) and loaded.twice is None
    assert np.array_equal(loaded.bgr[:, :, ::-1], np.asarray(pillow))


@pytest.mark.parametrize("orientation", [1, 6])
def test_a_jpeg_decoded_at_a_quarter_is_decoded_once_for_its_sharper_decoding_too(photo, orientation, monkeypatch):
    """A 12 MP JPEG is decoded at a half and halved: its sharper decoding (for small
    tiles) is then at hand, upright, the very pixels a second decoding would give, and
    costs no second decoding."""
    import cv2

    from vision.loading import load_photo, sharper_photo

    ex = Image.Exif()
    ex[0x0112] = orientation
    buf = io.BytesIO()
    Image.fromarray(photo.bgr[:, :, ::-1].copy()).resize((4000, 3000)).save(buf, "JPEG", quality=90, exif=ex.tobytes())
    data = buf.getvalue()
    half = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_REDUCED_COLOR_2 | cv2.IMREAD_IGNORE_ORIENTATION)
    decodings = []
    imdecode = cv2.imdecode
    monkeypatch.setattr(cv2, "imdecode", lambda *a: decodings.append(a[1]) or imdecode(*a))
    first = load_photo(data)
    sharper = sharper_photo(first, data)
    assert len(decodings) == 1
    assert first.bgr.shape[:2] == ((750, 1000) if orientation == 1 else (1000, 750))
    assert sharper.scale == pytest.approx(2.0) and first.scale == pytest.approx(4.0)
    assert np.array_equal(sharper.bgr, half if orientation == 1 else np.rot90(half, -1))


def test_a_phone_photo_with_a_second_picture_is_read_as_a_jpeg(photo):
    """Phones may write a second picture (a depth map, a preview) after the photo, which
    Pillow then calls an MPO: it is decoded at a reduced size as a JPEG is (not at full
    size, five times slower), and read alike."""
    from vision.loading import DRAFT_LONG_SIDE, load_photo

    big = Image.fromarray(photo.bgr[:, :, ::-1].copy()).resize((4 * DRAFT_LONG_SIDE, 3 * DRAFT_LONG_SIDE))
    jpeg, mpo = io.BytesIO(), io.BytesIO()
    big.save(jpeg, "JPEG", quality=90)
    big.save(mpo, "MPO", quality=90, save_all=True, append_images=[big.resize((400, 300))])
    assert Image.open(io.BytesIO(mpo.getvalue())).format == "MPO"
    as_jpeg, as_mpo = load_photo(jpeg.getvalue()), load_photo(mpo.getvalue())
    assert as_mpo.bgr.shape == as_jpeg.bgr.shape == (638, 850, 3) and (as_mpo.bgr == as_jpeg.bgr).all()
    assert sorted(t.halves for t in vision.read_hand(mpo.getvalue()).tiles) == sorted(photo.tiles)


@pytest.mark.parametrize("size", [(3400, 2550), (3401, 2551), (3403, 2553)])
def test_a_jpeg_is_decoded_again_at_twice_the_size_whatever_its_size(photo, size):
    """Small tiles are read on the JPEG decoded again at twice the reduced size: at half
    its size, whether or not its sides divide by four (3401 is 851 at a quarter; asking
    for twice that, 1702, would decode it whole, three times slower)."""
    from vision.loading import load_photo, sharper_decoding, sharper_photo

    buf = io.BytesIO()
    Image.fromarray(photo.bgr[:, :, ::-1].copy()).resize(size).save(buf, "JPEG", quality=90)
    data = buf.getvalue()
    first = load_photo(data)
    assert first.bgr.shape[:2] == (-(-size[1] // 4), -(-size[0] // 4)) and sharper_decoding(first, data)
    sharper = sharper_photo(first, data)
    assert sharper.bgr.shape[:2] == (-(-size[1] // 2), -(-size[0] // 2))
    assert sharper.scale == pytest.approx(2.0, rel=0.01)


@pytest.mark.parametrize("orientation", [1, 6])
def test_a_webp_is_decoded_by_opencv_to_pillows_very_pixels(photo, orientation, monkeypatch):
    """A colour WebP is decoded by OpenCV (a 12 MP one in less than half Pillow's time),
    to exactly the pixels Pillow decodes, turned upright by its EXIF orientation."""
    import cv2

    from vision.loading import load_photo

    ex = Image.Exif()
    ex[0x0112] = orientation
    buf = io.BytesIO()
    Image.fromarray(photo.bgr[:, :, ::-1].copy()).save(buf, "WEBP", quality=90, exif=ex.tobytes())
    data = buf.getvalue()
    pillow = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(data)).convert("RGB")))
    decoded = []
    imdecode = cv2.imdecode
    monkeypatch.setattr(cv2, "imdecode", lambda *a: decoded.append(imdecode(*a)) or decoded[-1])
    loaded = load_photo(data)
    assert len(decoded) == 1 and decoded[0].shape == (750, 1000, 3)  # as stored, not turned
    assert (loaded.width, loaded.height) == ((1000, 750) if orientation == 1 else (750, 1000))
    assert np.array_equal(loaded.bgr[:, :, ::-1], pillow)


def test_a_damaged_webp_is_refused_as_pillow_refuses_it():
    """One byte of a WebP's image changed, EXIF and XMP after it (as phones and Pillow
    write them): wherever Pillow refuses the file, so does the counter, rather than decode
    into the metadata a picture with some of its pixels wrong; wherever Pillow decodes
    it, the counter has its pixels."""
    from vision.loading import load_photo

    rng = np.random.default_rng(7)
    picture = rng.integers(0, 256, (300, 400, 3), dtype=np.uint8)
    ex = Image.Exif()
    ex[0x0112] = 1
    buf = io.BytesIO()
    Image.fromarray(picture).save(buf, "WEBP", quality=85, exif=ex.tobytes(), xmp=b"<x/>" + b" " * 5000)
    whole = buf.getvalue()
    refused = 0
    for _ in range(120):
        data = bytearray(whole)
        data[38 + int(rng.integers(0, len(whole) - 5200))] ^= int(rng.integers(1, 256))
        try:
            pillow = np.asarray(Image.open(io.BytesIO(bytes(data))).convert("RGB"))[:, :, ::-1]
        except Exception:
            refused += 1
            with pytest.raises(vision.PhotoError):
                load_photo(bytes(data))
            continue
        assert np.array_equal(load_photo(bytes(data)).bgr, pillow)
    assert refused >= 10


@pytest.mark.parametrize("fmt", ["PNG", "WEBP"])
def test_a_transparent_png_or_webp_is_put_over_grey(photo, fmt, monkeypatch):
    """OpenCV would drop a transparent photo's alpha and show what lies under it: Pillow
    decodes it, and it is put over grey."""
    import cv2

    from vision.loading import load_photo

    rgba = np.dstack([photo.bgr[:, :, ::-1], np.full(photo.bgr.shape[:2], 255, np.uint8)])
    rgba[:100, :100] = (255, 0, 0, 0)  # a transparent corner, red underneath
    buf = io.BytesIO()
    Image.fromarray(rgba).save(buf, fmt, lossless=True)
    monkeypatch.setattr(cv2, "imdecode", lambda *a: pytest.fail("OpenCV decoded a transparent photo"))
    loaded = load_photo(buf.getvalue())
    assert tuple(loaded.bgr[50, 50]) == (128, 128, 128)
    assert np.array_equal(loaded.bgr[200:, 200:], photo.bgr[200:, 200:])
