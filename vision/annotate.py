"""Draw the reading on the photo: every tile outlined and labelled, doubtful ones in red."""

from __future__ import annotations

import cv2
import numpy as np

from .result import Hand

OK_COLOUR = (60, 200, 60)  # BGR
DOUBT_COLOUR = (40, 40, 240)
#: Tiles asked to stand out (a table's tiles of one number), and the others beside them.
HIGHLIGHT_COLOUR = (0, 200, 255)
DIM_COLOUR = (170, 170, 170)


#: A label is at most this many times as wide as its tile is long...
LABEL_SPAN = 1.1
#: ...down to this font scale (smaller is not legible on a phone's photo).
SMALLEST_FONT = 0.35
#: The photo is looked at on a phone, about this many pixels wide (CSS pixels: a 390 px
#: screen less the page's margins), so its labels are drawn to read LABEL_HEIGHT pixels
#: tall there, whatever the photo's own size; FONT_HEIGHT is the height of
#: FONT_HERSHEY_SIMPLEX's capitals at font scale 1.
SHOWN_WIDTH, LABEL_HEIGHT, FONT_HEIGHT = 336, 11, 22
#: How much of a label's box the photo shows through (the pips under it stay visible).
SHOW_THROUGH = 0.3


def label_font(width: int) -> float:
    """The labels' font scale on an image `width` pixels wide: LABEL_HEIGHT on the phone."""
    return max(0.5, LABEL_HEIGHT * width / (SHOWN_WIDTH * FONT_HEIGHT))


def label_for(i: int, a: int, b: int, doubtful: bool, tile_length: float, font_scale: float,
              thick: int) -> tuple[str, float, int]:
    """The label of tile `i` (text, font scale, stroke) drawn over a tile `tile_length`
    long: its number and halves, or, where that would spill over the tiles next to it
    (small tiles touching in a row or a chain), its halves alone in a smaller font."""
    label = f"{i}: {a}|{b}" + (" ?" if doubtful else "")
    if cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thick)[0][0] <= LABEL_SPAN * tile_length:
        return label, font_scale, thick
    label = f"{a}|{b}" + ("?" if doubtful else "")
    thick = max(1, thick // 2)
    scale = font_scale
    while scale > SMALLEST_FONT and cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)[0][0] > \
            LABEL_SPAN * tile_length:
        scale = max(SMALLEST_FONT, 0.9 * scale)
    return label, scale, thick


def _long_side(pts: np.ndarray) -> float:
    return float(max(np.linalg.norm(pts[0] - pts[1]), np.linalg.norm(pts[1] - pts[2])))


def render(detail_bgr: np.ndarray, scale: float, hand: Hand, max_side: int = 1600, highlight=None,
           total: bool = True) -> bytes:
    """The photo with every tile outlined and labelled. With `highlight` (indices into
    hand.tiles), those tiles are drawn thick in yellow and labelled, and the others thin
    in grey without a label (on a table of 40 tiles and more, seen on a phone, a label on
    every tile hides the next); doubtful tiles stay red and labelled. An empty
    `highlight` (a number no tile read carries) leaves every tile grey. With `total`, the
    tiles and pips read are written in the top left corner (a caller that shows its own
    total, one that follows corrections, leaves it out)."""
    choosing = highlight is not None
    highlight = set(highlight or ())
    h, w = detail_bgr.shape[:2]
    f = min(1.0, max_side / max(h, w))
    img = cv2.resize(detail_bgr, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA) \
        if f < 1 else detail_bgr.copy()
    k = f / scale  # original coords -> drawing coords
    thick = max(2, round(max(img.shape[:2]) / 400))
    font_scale = label_font(img.shape[1])
    label_thick = max(2, round(1.5 * font_scale))
    for i, t in enumerate(hand.tiles, 1):
        pts = np.array(t.polygon, np.float64) * k
        colour = DOUBT_COLOUR if t.low_confidence else OK_COLOUR
        line = thick
        if choosing:
            stands_out = i - 1 in highlight
            colour = DOUBT_COLOUR if t.low_confidence else HIGHLIGHT_COLOUR if stands_out else DIM_COLOUR
            line = 2 * thick if stands_out else max(1, thick // 2)
        cv2.polylines(img, [np.round(pts).astype(np.int32)], True, colour, line, cv2.LINE_AA)
        if choosing and not stands_out and not t.low_confidence:
            continue
        label, scale_i, thick_i = label_for(i, t.a, t.b, t.low_confidence, _long_side(pts), font_scale, label_thick)
        cx, cy = pts.mean(axis=0)
        (tw, th), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale_i, thick_i)
        x0 = int(np.clip(cx - tw / 2, 0, max(0, img.shape[1] - tw)))
        y0 = int(np.clip(cy + th / 2, th, img.shape[0] - base))
        box = img[max(0, y0 - th - 3):y0 + base + 2, max(0, x0 - 3):x0 + tw + 3]
        box[:] = cv2.addWeighted(box, SHOW_THROUGH, np.full_like(box, 255), 1 - SHOW_THROUGH, 0)
        cv2.putText(img, label, (x0, y0), cv2.FONT_HERSHEY_SIMPLEX, scale_i, colour if t.low_confidence else (0, 0, 0),
                    thick_i, cv2.LINE_AA)
    if total:
        said = f"{len(hand.tiles)} tiles, {hand.pips} pips"
        if hand.low_confidence:
            said += f" ({len(hand.low_confidence)} to check)"
        (tw, th), base = cv2.getTextSize(said, cv2.FONT_HERSHEY_SIMPLEX, font_scale, label_thick)
        cv2.rectangle(img, (0, 0), (tw + 12, th + base + 12), (255, 255, 255), -1)
        cv2.putText(img, said, (6, th + 6), cv2.FONT_HERSHEY_SIMPLEX, font_scale, (0, 0, 0), label_thick, cv2.LINE_AA)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:  # pragma: no cover
        raise RuntimeError("could not encode the annotated photo")
    return buf.tobytes()
