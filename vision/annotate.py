"""Draw the reading on the photo: every tile outlined and labelled, doubtful ones in red."""

from __future__ import annotations

import cv2
import numpy as np

from .result import Hand

OK_COLOUR = (60, 200, 60)  # BGR
DOUBT_COLOUR = (40, 40, 240)


def render(detail_bgr: np.ndarray, scale: float, hand: Hand, max_side: int = 1600) -> bytes:
    h, w = detail_bgr.shape[:2]
    f = min(1.0, max_side / max(h, w))
    img = cv2.resize(detail_bgr, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA) \
        if f < 1 else detail_bgr.copy()
    k = f / scale  # original coords -> drawing coords
    thick = max(2, round(max(img.shape[:2]) / 400))
    font_scale = max(0.5, max(img.shape[:2]) / 1400)
    for i, t in enumerate(hand.tiles, 1):
        pts = np.array(t.polygon, np.float64) * k
        colour = DOUBT_COLOUR if t.low_confidence else OK_COLOUR
        cv2.polylines(img, [np.round(pts).astype(np.int32)], True, colour, thick, cv2.LINE_AA)
        label = f"{i}: {t.a}|{t.b}" + (" ?" if t.low_confidence else "")
        cx, cy = pts.mean(axis=0)
        (tw, th), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thick)
        x0 = int(np.clip(cx - tw / 2, 0, max(0, img.shape[1] - tw)))
        y0 = int(np.clip(cy + th / 2, th, img.shape[0] - base))
        cv2.rectangle(img, (x0 - 3, y0 - th - 3), (x0 + tw + 3, y0 + base + 1), (255, 255, 255), -1)
        cv2.putText(img, label, (x0, y0), cv2.FONT_HERSHEY_SIMPLEX, font_scale, colour if t.low_confidence else (0, 0, 0),
                    thick, cv2.LINE_AA)
    total = f"{len(hand.tiles)} tiles, {hand.pips} pips"
    if hand.low_confidence:
        total += f" ({len(hand.low_confidence)} to check)"
    (tw, th), base = cv2.getTextSize(total, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thick)
    cv2.rectangle(img, (0, 0), (tw + 12, th + base + 12), (255, 255, 255), -1)
    cv2.putText(img, total, (6, th + 6), cv2.FONT_HERSHEY_SIMPLEX, font_scale, (0, 0, 0), thick, cv2.LINE_AA)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:  # pragma: no cover
        raise RuntimeError("could not encode the annotated photo")
    return buf.tobytes()
