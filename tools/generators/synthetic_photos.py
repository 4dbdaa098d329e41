"""Realistic synthetic photos of domino hands, with their ground truth.

    from tools.generators.synthetic_photos import make_photo, write_folder
    photo = make_photo(np.random.default_rng(1), n_tiles=8)
    photo.tiles          # [(a, b), ...] with a >= b
    photo.encode("jpeg") # bytes (also "png", "webp", "heic")
    write_folder(path, 40, seed=3)   # photos + MANIFEST.tsv (file, tiles, total_pips, style)

Tiles are drawn with the real pip layouts (3x3 grid up to 9, 3x4 up to 12), rounded corners,
a divider (sometimes with a brass spinner), in styles: ivory/black pips, white/coloured pips
(a colour per number, some pale), black/white pips, pink/yellow pips. They are laid scattered at any rotation,
in touching rows or in a grid, on wood, felt, cloth, paper, dark tables or streaked
floorboards, with a soft or a hard shadow, then the whole photo gets a perspective tilt, uneven light, glare, mild blur, noise.
Only numpy and OpenCV are used; everything is deterministic for a given rng.

A preview folder of N photos (12 by default) with their MANIFEST.tsv, from the repository
root:

    .venv/bin/python -m tools.generators.synthetic_photos OUT_DIR [N]
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

# pip positions inside a half (x, y in 0..1), 3x3 grid for 0-9 and 3x4 grid for 10-12
_G3 = [0.22, 0.5, 0.78]
_G4 = [0.16, 0.39, 0.61, 0.84]
LAYOUTS: dict[int, list[tuple[float, float]]] = {
    0: [],
    1: [(0.5, 0.5)],
    2: [(0.22, 0.22), (0.78, 0.78)],
    3: [(0.22, 0.22), (0.5, 0.5), (0.78, 0.78)],
    4: [(0.22, 0.22), (0.78, 0.22), (0.22, 0.78), (0.78, 0.78)],
    5: [(0.22, 0.22), (0.78, 0.22), (0.5, 0.5), (0.22, 0.78), (0.78, 0.78)],
    6: [(x, y) for x in (0.22, 0.78) for y in _G3],
    7: [(x, y) for x in (0.22, 0.78) for y in _G3] + [(0.5, 0.5)],
    8: [(x, y) for x in _G3 for y in _G3 if (x, y) != (0.5, 0.5)],
    9: [(x, y) for x in _G3 for y in _G3],
    10: [(x, y) for x in (0.2, 0.8) for y in _G4] + [(0.5, 0.16), (0.5, 0.84)],
    11: [(x, y) for x in (0.2, 0.8) for y in _G4] + [(0.5, 0.16), (0.5, 0.5), (0.5, 0.84)],
    12: [(x, y) for x in (0.2, 0.5, 0.8) for y in _G4],
}

# BGR colour per number for coloured-pip sets (some pale)
PIP_COLOURS = {
    1: (230, 190, 120), 2: (60, 150, 40), 3: (40, 40, 200), 4: (40, 70, 120), 5: (170, 80, 20),
    6: (40, 190, 230), 7: (170, 50, 190), 8: (140, 140, 20), 9: (140, 40, 100), 10: (30, 110, 240),
    11: (40, 30, 120), 12: (150, 150, 150),
}

STYLES = ("ivory", "white_colour", "black", "ivory_spinner")
BACKGROUNDS = ("wood", "felt", "cloth", "dark", "paper")


@dataclass
class SyntheticPhoto:
    bgr: np.ndarray
    tiles: list[tuple[int, int]]
    style: str = ""
    background: str = ""
    layout: str = ""
    polygons: list[np.ndarray] = field(default_factory=list)
    #: Each polygon's halves, its first two corners' end first (the tiles are sorted).
    halves: list[tuple[int, int]] = field(default_factory=list)
    #: The outlines of the tiles lying face down (none unless asked for).
    backs: list[np.ndarray] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(a + b for a, b in self.tiles)

    def encode(self, fmt: str = "jpeg", quality: int = 90, exif_orientation: int | None = None) -> bytes:
        from PIL import Image

        im = Image.fromarray(cv2.cvtColor(self.bgr, cv2.COLOR_BGR2RGB))
        fmt = fmt.lower()
        buf = io.BytesIO()
        kw = {}
        if exif_orientation:
            ex = Image.Exif()
            ex[0x0112] = exif_orientation
            kw["exif"] = ex.tobytes()
        if fmt in ("jpg", "jpeg"):
            im.save(buf, "JPEG", quality=quality, **kw)
        elif fmt == "png":
            im.save(buf, "PNG", compress_level=1, **kw)
        elif fmt == "webp":
            im.save(buf, "WEBP", quality=quality, **kw)
        elif fmt in ("heic", "heif"):
            import pillow_heif

            pillow_heif.register_heif_opener()
            im.save(buf, "HEIF", quality=quality, **kw)
        else:
            raise ValueError(fmt)
        return buf.getvalue()


def _background(rng: np.random.Generator, kind: str, h: int, w: int) -> np.ndarray:
    if kind == "wood":
        base = np.array(rng.choice([(60, 100, 150), (40, 70, 110), (90, 140, 190), (30, 50, 80)]), np.float32)
        y = np.arange(h, dtype=np.float32)[:, None]
        x = np.arange(w, dtype=np.float32)[None, :]
        freq = rng.uniform(0.01, 0.04)
        grain = np.sin(y * freq + 3 * np.sin(x * 0.003 + rng.uniform(0, 6)) + rng.uniform(0, 6)) * 0.5 + 0.5
        grain = grain * rng.uniform(0.15, 0.35) + cv2.resize(rng.random((max(2, h // 40), max(2, w // 8))).astype(np.float32),
                                                             (w, h)) * 0.15
        img = base[None, None, :] * (0.75 + grain[..., None])
    elif kind == "felt":
        base = np.array(rng.choice([(40, 110, 30), (90, 50, 20), (40, 40, 120), (60, 60, 60)]), np.float32)
        img = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
    elif kind == "cloth":
        base = np.array(rng.choice([(150, 160, 170), (120, 90, 180), (200, 190, 180), (80, 120, 160)]), np.float32)
        y, x = np.mgrid[0:h, 0:w].astype(np.float32)
        period = rng.uniform(6, 14)
        weave = (np.sin(x * 2 * np.pi / period) * np.sin(y * 2 * np.pi / period)) * 10
        img = base[None, None, :] + weave[..., None]
    elif kind == "dark":
        base = np.array(rng.choice([(25, 25, 30), (15, 20, 25), (35, 30, 28)]), np.float32)
        img = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
    elif kind == "planks":
        # dark floorboards streaked with sharp grain lines: hundreds of thin dark marks,
        # each as divider-like to a bar detector as a real divider
        base = np.array(rng.choice([(45, 60, 80), (35, 45, 60)]), np.float32)
        img = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
        img *= (0.85 + 0.3 * cv2.resize(rng.random((max(2, h // 60), 3)).astype(np.float32), (w, h)))[..., None]
        for _ in range(int(w * h / 2500)):
            x0, y0 = rng.uniform(0, w), rng.uniform(0, h)
            length = rng.uniform(0.02, 0.15) * w
            ang = rng.normal(0, 0.04)
            shade = float(rng.uniform(0.45, 0.8))
            cv2.line(img, (int(x0), int(y0)), (int(x0 + length * math.cos(ang)), int(y0 + length * math.sin(ang))),
                     tuple(float(v) * shade for v in base), int(rng.integers(1, 4)), cv2.LINE_AA)
        for y in np.arange(rng.uniform(0, h / 3), h, h / 3):  # the seams between boards
            cv2.line(img, (0, int(y)), (w, int(y + rng.uniform(-8, 8))), (10, 12, 15), 3, cv2.LINE_AA)
    else:  # paper / light table
        base = np.array(rng.choice([(235, 232, 240), (225, 235, 240), (245, 245, 245)]), np.float32)
        img = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
    img += rng.normal(0, 4, (h, w, 1)).astype(np.float32)
    return img


def _blank_tile(face: np.ndarray, Ws: int, Ls: int) -> tuple[np.ndarray, np.ndarray]:
    """A bare tile Ws x Ls in `face`'s colour, its rim darker (the bevel), and its mask
    with rounded corners."""
    img = np.empty((Ls, Ws, 3), np.float32)
    img[:] = face
    mask = np.zeros((Ls, Ws), np.uint8)
    r = int(0.12 * Ws)
    cv2.rectangle(mask, (r, 0), (Ws - 1 - r, Ls - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (Ws - 1, Ls - 1 - r), 255, -1)
    for cx, cy in ((r, r), (Ws - 1 - r, r), (r, Ls - 1 - r), (Ws - 1 - r, Ls - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    rim = cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), 0.04 * Ws)
    img *= (0.78 + 0.22 * rim)[..., None]
    return img, mask


def _draw_tile(rng: np.random.Generator, a: int, b: int, W: int, style: str, pale: bool,
               ratio: float = 0.75, divider: str = "painted") -> tuple[np.ndarray, np.ndarray]:
    """Tile image (W x 2W, BGR float) and alpha mask, the `a` half on top. A "faint"
    divider is a fine engraved line, a little darker than the face; with "none" there is
    none to be seen (worn off, or the face's colour)."""
    L = 2 * W
    ss = 4  # supersampling
    Ws, Ls = W * ss, L * ss
    if style == "pink":  # a pink set with yellow pips and divider
        face = np.array((175, 105, 240), np.float32) + rng.uniform(-8, 8)
        pip_col = lambda n: (20, 185, 245)  # noqa: E731
        div_col = (20, 185, 245)
    elif style == "black":
        face = np.array((30, 30, 32), np.float32) + rng.uniform(-8, 8)
        pip_col = lambda n: (235, 235, 235)  # noqa: E731
        div_col = (225, 225, 225)
    elif style == "white_colour":
        face = np.array((238, 240, 242), np.float32) + rng.uniform(-10, 5)
        pip_col = lambda n: PIP_COLOURS[n]  # noqa: E731
        div_col = (25, 25, 25)
    else:
        face = np.array(rng.choice([(195, 230, 240), (185, 222, 235), (210, 235, 242)]), np.float32)
        pip_col = lambda n: (20, 20, 22)  # noqa: E731
        div_col = (30, 30, 30)
    img, mask = _blank_tile(face, Ws, Ls)
    # divider
    th = max(2, int(rng.uniform(0.035, 0.06) * Ws))
    if divider == "faint":
        th = max(2, int(0.02 * Ws))
        div_col = tuple(float(v) for v in 0.55 * face + 0.45 * np.array(div_col, np.float32))
    x0 = int((1 - ratio) / 2 * Ws)
    if divider != "none":
        cv2.rectangle(img, (x0, Ls // 2 - th // 2), (Ws - x0, Ls // 2 + th // 2), div_col, -1)
    if style == "ivory_spinner":
        cv2.circle(img, (Ws // 2, Ls // 2), int(0.06 * Ws), (60, 160, 200), -1)
        cv2.circle(img, (Ws // 2 - int(0.015 * Ws), Ls // 2 - int(0.015 * Ws)), int(0.02 * Ws), (170, 230, 250), -1)
    for n, top in ((a, True), (b, False)):
        pos = LAYOUTS[n]
        big = n >= 10 or (n in (7, 8, 9) and False)
        d = (0.14 if big else 0.17) * Ws * rng.uniform(0.9, 1.1)
        if n == 1 and rng.random() < 0.5:
            d *= 1.3
        col = np.array(pip_col(n) if n else (0, 0, 0), np.float32)
        if pale and style == "white_colour" and n in (1, 6, 12):
            col = col * 0.55 + face * 0.45
        for px, py in pos:
            cx = px * Ws
            cy = py * Ws + (0 if top else Ws)
            cv2.circle(img, (int(cx), int(cy)), int(d / 2), tuple(float(v) for v in col), -1, cv2.LINE_AA)
            # specular dot
            cv2.circle(img, (int(cx - d * 0.15), int(cy - d * 0.15)), max(1, int(d * 0.08)),
                       tuple(float(min(255, v + 70)) for v in col), -1, cv2.LINE_AA)
    img = cv2.resize(img, (W, L), interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(mask.astype(np.float32) / 255.0, (W, L), interpolation=cv2.INTER_AREA)
    return img, alpha


def _draw_back(rng: np.random.Generator, W: int, style: str) -> tuple[np.ndarray, np.ndarray]:
    """A tile lying face down (W x 2W, BGR float, and its alpha mask): its back in the
    face's colour or another, plain or with a printed ring, star or word."""
    L, ss = 2 * W, 4
    Ws, Ls = W * ss, L * ss
    faces = {"pink": (175, 105, 240), "black": (30, 30, 32), "white_colour": (238, 240, 242)}
    face = np.array(faces.get(style, (195, 230, 240)), np.float32)
    if rng.random() < 0.5:
        face = rng.uniform(20, 240, 3).astype(np.float32)
    img, mask = _blank_tile(face, Ws, Ls)
    ink = tuple(float(v) for v in (255 - face if rng.random() < 0.5 else rng.uniform(0, 255, 3)))
    mark = rng.choice(["plain", "ring", "star", "word"])
    if mark == "ring":
        cv2.circle(img, (Ws // 2, Ls // 2), int(0.3 * Ws), ink, max(2, int(0.05 * Ws)), cv2.LINE_AA)
    elif mark == "star":
        pts = [(Ws / 2 + (0.35 if k % 2 == 0 else 0.15) * Ws * math.cos(k * math.pi / 5),
                Ls / 2 + (0.35 if k % 2 == 0 else 0.15) * Ws * math.sin(k * math.pi / 5)) for k in range(10)]
        cv2.fillPoly(img, [np.int32(pts)], ink, cv2.LINE_AA)
    elif mark == "word":
        word = str(rng.choice(["DOMINO", "DOUBLE 9", "PUREMCO", "CARDINAL"]))
        text = np.zeros((Ws, Ls), np.uint8)
        scale = Ls / (len(word) * 30.0)
        cv2.putText(text, word, (int(0.08 * Ls), int(0.6 * Ws)), cv2.FONT_HERSHEY_DUPLEX, scale, 255,
                    max(2, int(2 * scale)), cv2.LINE_AA)
        ta = np.rot90(text).astype(np.float32)[..., None] / 255.0  # the word along the tile
        img = img * (1 - ta) + np.array(ink, np.float32) * ta
    img = cv2.resize(np.ascontiguousarray(img), (W, L), interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(mask.astype(np.float32) / 255.0, (W, L), interpolation=cv2.INTER_AREA)
    return img, alpha


def _random_tiles(rng: np.random.Generator, n: int, max_value: int) -> list[tuple[int, int]]:
    pool = [(a, b) for a in range(max_value + 1) for b in range(a + 1)]
    idx = rng.choice(len(pool), size=n, replace=False)
    out = []
    for i in idx:
        a, b = pool[int(i)]
        out.append((a, b))
    return out


def _place(rng, layout, n, W, w, h):
    """Centres and angles (radians, of the tile's long axis) for n tiles of width W."""
    L = 2 * W
    if layout == "row":
        per_row = max(1, min(n, int((w * 0.9) // (W * 1.02))))
        rows = math.ceil(n / per_row)
        ang0 = rng.uniform(-0.25, 0.25)
        gap = rng.choice([0.0, 0.02, 0.15]) * W
        out = []
        x_start = w / 2 - (per_row * (W + gap)) / 2 + W / 2
        y_start = h / 2 - rows * (L * 1.1) / 2 + L / 2
        for i in range(n):
            r, c = divmod(i, per_row)
            x = x_start + c * (W + gap)
            y = y_start + r * L * 1.1
            # rotate the whole arrangement around the centre
            dx, dy = x - w / 2, y - h / 2
            xr = w / 2 + dx * math.cos(ang0) - dy * math.sin(ang0)
            yr = h / 2 + dx * math.sin(ang0) + dy * math.cos(ang0)
            out.append((xr, yr, ang0 + math.pi / 2))
        return out
    placed = []
    tries = 0
    while len(placed) < n and tries < 4000:
        tries += 1
        ang = rng.uniform(0, math.pi) if layout == "scatter" else rng.choice([0.0, math.pi / 2]) + rng.normal(0, 0.05)
        m = 0.03 * min(w, h) + 2
        x = rng.uniform(L * 0.5 + m, w - L * 0.5 - m)
        y = rng.uniform(L * 0.5 + m, h - L * 0.5 - m)
        ok = True
        for (px, py, pa) in placed:
            if math.hypot(px - x, py - y) < L * 1.15:
                ok = False
                break
        if ok:
            placed.append((x, y, ang))
    return placed


def _inside(x: float, y: float, ang: float, W: int, w: int, h: int) -> bool:
    hx = abs(math.cos(ang)) * W + abs(math.sin(ang)) * W / 2
    hy = abs(math.sin(ang)) * W + abs(math.cos(ang)) * W / 2
    m = 0.03 * min(w, h)
    return m + hx < x < w - m - hx and m + hy < y < h - m - hy


def paste_tile(img: np.ndarray, timg: np.ndarray, alpha: np.ndarray, centre, axis: float, light_dir: float,
               W: float, hard_shadow: bool = False, wall: float = 0.0, shadow: float = 0.45) -> bool:
    """Draw a tile picture (`timg`, its long axis down the image) onto `img` (float32) with
    its centre at `centre` and its long axis along `axis`, with the shadow it casts away from
    `light_dir`, and, `wall` tile widths deep, its near side wall. False where it falls
    outside the picture."""
    h, w = img.shape[:2]
    cx, cy = float(centre[0]), float(centre[1])
    th, tw = timg.shape[:2]
    # tile long axis is image y in timg; rotate so it points along `axis`
    M = cv2.getRotationMatrix2D((tw / 2, th / 2), math.degrees(math.pi / 2 - axis), 1.0)
    M[0, 2] += cx - tw / 2
    M[1, 2] += cy - th / 2
    sh_off = W * (0.14 if hard_shadow else 0.06)
    Ms = M.copy()
    Ms[0, 2] += sh_off * math.cos(light_dir)
    Ms[1, 2] += sh_off * math.sin(light_dir)
    x0, y0 = int(max(0, cx - th)), int(max(0, cy - th))
    x1, y1 = int(min(w, cx + th)), int(min(h, cy + th))
    if x1 <= x0 or y1 <= y0:
        return False
    Mo = M.copy()
    Mo[0, 2] -= x0
    Mo[1, 2] -= y0
    Mso = Ms.copy()
    Mso[0, 2] -= x0
    Mso[1, 2] -= y0
    roi = img[y0:y1, x0:x1]
    sa = cv2.warpAffine(alpha, Mso, (x1 - x0, y1 - y0))
    sa = cv2.GaussianBlur(sa, (0, 0), W * (0.01 if hard_shadow else 0.05))
    roi *= (1 - (0.6 if hard_shadow else shadow) * sa)[..., None]
    ti = cv2.warpAffine(timg, Mo, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    ta = cv2.warpAffine(alpha, Mo, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)[..., None]
    if wall > 0:  # the side wall: the face's outline swept down the image, a shade darker
        face = np.median(timg[alpha > 0.5], axis=0)
        depth = wall * W
        swept = np.max([np.roll(ta[..., 0], int(round(k)), axis=0) for k in np.linspace(1, depth, 8)], axis=0)
        wa = np.clip(swept - ta[..., 0], 0, 1)[..., None]
        roi[:] = roi * (1 - wa) + 0.75 * face * wa
    roi[:] = roi * (1 - ta) + ti * ta
    return True


def make_photo(rng: np.random.Generator, n_tiles: int | None = None, size: tuple[int, int] = (1600, 1200),
               style: str | None = None, background: str | None = None, layout: str | None = None,
               degrade: bool = True, pale: bool | None = None, hard_shadow: bool = False,
               divider: str = "painted", wall: float = 0.0, face_down: int = 0) -> SyntheticPhoto:
    """`style` and `background` also take "pink" and "planks", `hard_shadow` casts a
    sharp, dark shadow beside every tile (low sun, one lamp), `divider` "faint" draws
    every divider as a fine line a little darker than the face, "none" draws none, and
    `wall` shows each tile's near side wall below its face, that many tile widths deep
    (a photo taken at a steep angle), and the last `face_down` of the tiles placed lie
    face down (not in `tiles`: their outlines are `backs`): none of these is ever picked
    at random, so the photos of a given seed stay the same."""
    w, h = size
    n = int(n_tiles if n_tiles is not None else rng.integers(1, 13))
    style = style or str(rng.choice(STYLES))
    background = background or str(rng.choice(BACKGROUNDS))
    if style == "black" and background == "dark":
        background = "cloth"
    layout = layout or str(rng.choice(["scatter", "scatter", "row", "grid"]))
    max_value = 12 if (style == "white_colour" or rng.random() < 0.3) else 9
    tiles = _random_tiles(rng, n, max_value)
    short = min(w, h)
    W = int(short / (rng.uniform(2.6, 3.4) * math.sqrt(max(n, 2))) * (1.0 if layout != "row" else 1.3))
    W = max(34 * short // 1200, min(W, int(short * 0.28)))
    img = _background(rng, background, h, w)
    for _ in range(8):
        places = _place(rng, layout, n, W, w, h)
        if all(_inside(x, y, a, W, w, h) for x, y, a in places):
            break
        W = int(W * 0.85)  # a row too long for the frame: smaller tiles
    places = [p for p in places if _inside(*p, W, w, h)]
    tiles = tiles[:len(places)]
    pale = rng.random() < 0.5 if pale is None else pale
    ratio = rng.uniform(0.6, 0.85)  # divider length / tile width: one set, one ratio
    polys, halves, backs = [], [], []
    light_dir = rng.uniform(0, 2 * math.pi)
    for k, ((a, b), (cx, cy, ang)) in enumerate(zip(tiles, places)):
        if rng.random() < 0.5:
            a, b = b, a
        down = k >= len(places) - face_down
        timg, alpha = _draw_back(rng, W, style) if down else _draw_tile(rng, a, b, W, style, pale, ratio, divider)
        if not paste_tile(img, timg, alpha, (cx, cy), ang, light_dir, W, hard_shadow=hard_shadow, wall=wall):
            continue
        corners = np.array([[-W / 2, -W], [W / 2, -W], [W / 2, W], [-W / 2, W]], np.float64)
        rot = np.array([[math.cos(ang - math.pi / 2), -math.sin(ang - math.pi / 2)],
                        [math.sin(ang - math.pi / 2), math.cos(ang - math.pi / 2)]])
        if down:
            backs.append(corners @ rot.T + [cx, cy])
            continue
        polys.append(corners @ rot.T + [cx, cy])
        halves.append((a, b))
    if degrade:
        # uneven light
        y, x = np.mgrid[0:h, 0:w].astype(np.float32)
        gx, gy = rng.uniform(-1, 1, 2)
        light = 1.0 + rng.uniform(0.05, 0.3) * ((x / w - 0.5) * gx + (y / h - 0.5) * gy)
        img *= light[..., None]
        # glare spot
        if rng.random() < 0.4:
            gxc, gyc = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
            rad = rng.uniform(0.05, 0.15) * short
            glare = np.exp(-(((x - gxc) ** 2 + (y - gyc) ** 2) / (2 * rad * rad))) * rng.uniform(20, 60)
            img += glare[..., None]
        img = np.clip(img, 0, 255)
        # perspective tilt
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        for attempt in range(6):
            t = rng.uniform(0.0, 0.12) if attempt < 5 else 0.0
            dst = src + np.float32(rng.uniform(-t, t, (4, 2)) * [w, h])
            P = cv2.getPerspectiveTransform(src, dst)
            moved = [cv2.perspectiveTransform(p.reshape(-1, 1, 2).astype(np.float32), P).reshape(-1, 2)
                     for p in polys + backs]
            if all(p[:, 0].min() > 2 and p[:, 1].min() > 2 and p[:, 0].max() < w - 3 and p[:, 1].max() < h - 3
                   for p in moved):
                break
        img = cv2.warpPerspective(img, P, (w, h), borderMode=cv2.BORDER_REFLECT)
        polys = [cv2.perspectiveTransform(p.reshape(-1, 1, 2).astype(np.float32), P).reshape(-1, 2) for p in polys]
        backs = [cv2.perspectiveTransform(p.reshape(-1, 1, 2).astype(np.float32), P).reshape(-1, 2) for p in backs]
        s = rng.uniform(0.3, 1.2) * short / 1200
        img = cv2.GaussianBlur(img, (0, 0), s)
        img += rng.normal(0, rng.uniform(1, 5), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    truth = [(max(a, b), min(a, b)) for a, b in halves]
    return SyntheticPhoto(out, truth, style, background, layout, polys, halves, backs)


def write_folder(folder: Path, n: int, seed: int = 0, size: tuple[int, int] = (1600, 1200)) -> Path:
    """Write n synthetic photos (JPEG) and a MANIFEST.tsv into folder."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    lines = ["file\ttiles\ttotal_pips\tnotes"]
    for i in range(n):
        p = make_photo(rng, size=size)
        name = f"synthetic_{i:03d}.jpg"
        (folder / name).write_bytes(p.encode("jpeg", quality=int(rng.integers(75, 95))))
        tiles = " ".join(f"{a}-{b}" for a, b in p.tiles)
        lines.append(f"{name}\t{tiles}\t{p.total}\t{p.style} tiles, {p.background}, {p.layout}")
    (folder / "MANIFEST.tsv").write_text("\n".join(lines) + "\n")
    return folder


def leaning_camera(size: tuple[int, int], degrees: float, focal: float = 0.7) -> np.ndarray:
    """The homography from a table (one unit a pixel of a top-down photo of `size`) to
    the photo a phone takes of it leaning by `degrees` (positive: the table's far side
    at the top of the photo), with a focal length of `focal` times the diagonal (a
    phone's main camera is about 0.6), aimed at the table's centre from the distance
    that keeps things about their size there."""
    w, h = size
    f = focal * math.hypot(w, h)
    t = math.radians(degrees)
    camera = np.array([w / 2, h / 2 + 1.3 * f * math.sin(t), 1.3 * f * math.cos(t)])  # above the table z = 0
    forward = np.array([w / 2, h / 2, 0.0]) - camera
    forward /= np.linalg.norm(forward)
    right = np.array([-1.0, 0.0, 0.0])
    R = np.stack([right, np.cross(forward, right), forward])
    K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
    return K @ np.column_stack([R[:, 0], R[:, 1], -R @ camera])


def seen_at_angle(photo: SyntheticPhoto, degrees: float, focal: float = 0.7) -> SyntheticPhoto | None:
    """The table of a top-down synthetic photo as a phone leaning by `degrees` sees it
    (see leaning_camera); None when a tile would leave the frame."""
    h, w = photo.bgr.shape[:2]
    H = leaning_camera((w, h), degrees, focal)
    polys = [cv2.perspectiveTransform(p.reshape(-1, 1, 2).astype(np.float64), H).reshape(-1, 2) for p in photo.polygons]
    if any((p < 0).any() or (p[:, 0] >= w).any() or (p[:, 1] >= h).any() for p in polys):
        return None
    wide = cv2.copyMakeBorder(photo.bgr, h, h, w, w, cv2.BORDER_REPLICATE)  # the table goes on
    shift = np.array([[1.0, 0, -w], [0, 1, -h], [0, 0, 1]])
    bgr = cv2.warpPerspective(wide, H @ shift, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    backs = [cv2.perspectiveTransform(p.reshape(-1, 1, 2).astype(np.float64), H).reshape(-1, 2) for p in photo.backs]
    return SyntheticPhoto(bgr, photo.tiles, photo.style, photo.background, photo.layout, polys, photo.halves, backs)


def turn_photo(bgr: np.ndarray, angle: float, zoom: float = 1.0, gamma: float = 1.0) -> np.ndarray:
    """A photo turned by `angle` degrees on a canvas that holds all of it, resized by
    `zoom` and relit (`gamma`): the corners the turn uncovers take the median colour of
    the photo's own border."""
    h, w = bgr.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, zoom)
    cos, sin = abs(m[0, 0]), abs(m[0, 1])
    nw, nh = int(h * sin + w * cos), int(h * cos + w * sin)
    m[0, 2] += nw / 2 - w / 2
    m[1, 2] += nh / 2 - h / 2
    border = np.concatenate([bgr[0], bgr[-1], bgr[:, 0], bgr[:, -1]])
    fill = tuple(float(v) for v in np.median(border, axis=0))
    out = cv2.warpAffine(bgr, m, (nw, nh), flags=cv2.INTER_AREA if zoom < 1 else cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
    lut = np.clip(255.0 * (np.arange(256) / 255.0) ** gamma, 0, 255).astype(np.uint8)
    return cv2.LUT(out, lut)


def turned_jpeg(data: bytes, angle: float, zoom: float = 1.0, gamma: float = 1.0) -> bytes:
    """A photo file read as the counter reads it (EXIF orientation, size), turned, resized
    and relit by turn_photo, and saved again as a JPEG of quality 85."""
    from vision.loading import load_photo

    upright = load_photo(data).bgr
    ok, jpeg = cv2.imencode(".jpg", turn_photo(upright, angle, zoom, gamma), [cv2.IMWRITE_JPEG_QUALITY, 85])
    return jpeg.tobytes()


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] in (["-h"], ["--help"]):
        sys.exit(__doc__)
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "synthetic_preview")
    write_folder(out, int(sys.argv[2]) if len(sys.argv) > 2 else 12, seed=1)
    print(out)
