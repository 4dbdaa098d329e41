#!/usr/bin/env python3
"""Renders of a hand as it is held: tiles standing on their long edge, faces toward a camera
held at the seat, run by hand.

    .venv/bin/python -m tools.generators.standing_hands OUT_DIR N SEED   # N photos, MANIFEST.tsv, META.tsv
    .venv/bin/python -m tools.bench.vision_accuracy --standing 40 --seed SEED

Run from the repository root. The scene is built in centimetres: the table is the plane z = 0,
the hand stands around the origin, and a pinhole camera 25 to 60 cm away looks at it from 10
to 45 degrees above the table. Each tile is a box standing on a long edge, leaning back up to
20 degrees, in a row or an arc (two rows for more than twelve tiles); its face is drawn flat by
tools/generators/harsh_photos.py and warped onto the face's projection, and its top and end
walls are filled in the tile's colour, shaded by where they face. The table (harsh_photos'
textures, marble and light laminate more often, since ivory tiles blend into them), the
shadows, a coin or a card and the boneyard's face-down tiles are drawn on the table plane
first. A third of the photos are stored turned, with the EXIF orientation that turns them
back, as phones do.

META.tsv gives each photo's scene and, for every tile in MANIFEST.tsv's order, the four image
corners of its face (the end with the first number of `halves` first, as harsh_photos gives them),
and the corners of each face-down tile's back (`backs`), for training the tile network on them
(tools/training/harvest.py --generator standing).
"""
import math
import os
import sys

import cv2
import numpy as np
from PIL import Image

from tools.generators.harsh_photos import (F32, U, background, draw_object, draw_tile, fill_poly, fine, make_style,
                                           noise2, pick)

SIZES = [(4032, 3024), (4000, 3000), (3264, 2448), (2016, 1512), (1600, 1200), (1920, 1080)]
SIZE_P = [30, 10, 10, 20, 20, 10]
PALE_TABLES = ("marble", "white_laminate", "paper")
#: An arc's ends turn at most this far (radians) from its middle, so every face looks at the seat.
MOST_ARC = math.radians(35)


def look_at(target, distance, elevation, azimuth, roll):
    """Camera centre and rotation (rows: right, down, forward) looking at `target`."""
    ce, se = math.cos(elevation), math.sin(elevation)
    centre = target + distance * np.array([-math.sin(azimuth) * ce, -math.cos(azimuth) * ce, se])
    fwd = (target - centre) / distance
    right = np.cross(fwd, [0.0, 0.0, 1.0])
    right /= np.linalg.norm(right)
    down = np.cross(fwd, right)
    cr, sr = math.cos(roll), math.sin(roll)
    right, down = cr * right + sr * down, -sr * right + cr * down
    return centre, np.array([right, down, fwd])


def project(cam, pts):
    p = (np.asarray(pts, float).reshape(-1, 3) - cam["C"]) @ cam["R"].T
    z = np.maximum(p[:, 2], 1e-6)
    return np.c_[cam["f"] * p[:, 0] / z + cam["W"] / 2, cam["f"] * p[:, 1] / z + cam["H"] / 2]


def place_hand(rng, n, length):
    """Standing poses: (bottom-front centre, yaw, lean), nearest row first."""
    rows = [n] if n <= 12 else [n - n // 2, n // 2]
    poses, arc = [], rng.random() < 0.5
    for r, count in enumerate(rows):
        gaps = rng.uniform(-0.06, 0.35, count) * length * pick(rng, [0.15, 1.0], [35, 65])
        y0 = r * U(rng, 7, 10)
        span = count * length + gaps[1:].sum()
        radius = max(U(rng, 30, 70), span / 2 / MOST_ARC)
        s = -span / 2 + length / 2
        for i in range(count):
            if i:
                s += length + gaps[i]
            if arc:
                phi = s / radius
                pos = np.array([radius * math.sin(phi), y0 + radius * (1 - math.cos(phi)), 0.0])
                yaw = phi
            else:
                pos, yaw = np.array([s, y0, 0.0]), 0.0
            pos[1] += U(rng, -0.15, 0.15) * length * 0.2
            poses.append((pos, yaw + math.radians(rng.normal(0, 3)), math.radians(U(rng, 0, 20))))
    return poses, ("arc" if arc else "row") + (", two rows" if len(rows) > 1 else "")


def tile_box(pos, yaw, lean, length, width, thick):
    """The eight corners: the face's (bottom-left, bottom-right, top-right, top-left, as the
    camera sees it), then the back's in the same order; and the face's outward normal."""
    along = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    out = np.array([math.sin(yaw), -math.cos(yaw), 0.0])
    up = math.cos(lean) * np.array([0, 0, 1.0]) - math.sin(lean) * out
    normal = math.cos(lean) * out + math.sin(lean) * np.array([0, 0, 1.0])
    base = pos + normal * 0  # the bottom-front edge rests on the table
    face = [base - along * length / 2, base + along * length / 2,
            base + along * length / 2 + up * width, base - along * length / 2 + up * width]
    back = [p - normal * thick for p in face]
    return np.array(face + back), normal


#: Box faces by corner index, each with its outward normal's name.
BOX_SIDES = {"face": (0, 1, 2, 3), "top": (3, 2, 6, 7), "left": (0, 3, 7, 4), "right": (1, 5, 6, 2),
             "back": (4, 7, 6, 5)}


def side_normal(box, side, face_normal):
    a, b, c = (box[i] for i in BOX_SIDES[side][:3])
    n = np.cross(b - a, c - a)
    n /= np.linalg.norm(n) + 1e-12
    centre = box[list(BOX_SIDES[side])].mean(0)
    return n if np.dot(n, centre - box.mean(0)) > 0 else -n


def face_texture(rng, st, top, bot, px, light):
    """The flat face, `px` pixels across its short side, long side horizontal, `top` on the left."""
    h, w = int(px) + 4, int(2 * px) + 4
    cv = np.empty((h, w, 3), F32)
    cv[:] = st["face"] * st["side"]
    t = dict(c=np.array([w / 2, h / 2]), ang=-math.pi / 2, w=px, top=top, bot=bot, tint=U(rng, 0.97, 1.03), rng=rng)
    draw_tile(cv, t, st, light, np.zeros(2), np.inf)
    return cv, np.float32([[2, h - 2], [w - 2, h - 2], [w - 2, 2], [2, 2]])


def warp_into(img, tex, src, dst):
    """Paste `tex` so that its points `src` land on the image points `dst`, only inside `dst`."""
    x0, y0 = np.floor(dst.min(0)).astype(int) - 2
    x1, y1 = np.ceil(dst.max(0)).astype(int) + 3
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, img.shape[1]), min(y1, img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    M = cv2.getPerspectiveTransform(np.float32(src), np.float32(dst - (x0, y0)))
    patch = cv2.warpPerspective(tex, M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [np.round((dst - (x0, y0)) * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    a = mask.astype(F32)[..., None] / 255
    roi = img[y0:y1, x0:x1]
    roi[:] = roi * (1 - a) + patch * a


def table_canvas(rng, cam, x_range, y_range, unit, kind=None):
    """The table top over x_range by y_range (cm): its texture and the canvas -> image homography."""
    (x0, x1), (y0, y1) = x_range, y_range
    px = min(cam["f"] / cam["D"], 4500 / max(x1 - x0, y1 - y0))
    w, h = int((x1 - x0) * px) + 1, int((y1 - y0) * px) + 1
    kind, tex = background(rng, h, w, unit * px, kind)
    # canvas (col, row) -> plane (x, y): x = x0 + col / px, y = y1 - row / px (row 0 is the far edge)
    A = np.array([[1 / px, 0, x0], [0, -1 / px, y1], [0, 0, 1.0]])
    P = cam["K"] @ np.column_stack([cam["R"][:, 0], cam["R"][:, 1], -cam["R"] @ cam["C"]])
    return kind, np.ascontiguousarray(tex, dtype=F32), P @ A, px


def on_table(cam, uv):
    """Where the image points' rays meet the table (NaN for rays that never come down to it)."""
    rays = np.c_[(uv[:, 0] - cam["W"] / 2) / cam["f"], (uv[:, 1] - cam["H"] / 2) / cam["f"], np.ones(len(uv))]
    rays = rays @ cam["R"]
    t = -cam["C"][2] / np.where(rays[:, 2] < -1e-6, rays[:, 2], np.nan)
    return cam["C"][:2] + rays[:, :2] * t[:, None]


def render(rng, size=None, scheme=None, table=None, elevation=None, tiles=None, top=None):
    """One photo: (RGB array, the tiles as MANIFEST.tsv has them, META.tsv's row). Each keyword
    fixes what is otherwise drawn at random: size (W, H), scheme (harsh_photos.SCHEMES), table
    (a harsh_photos background kind), elevation (degrees above the table), tiles (how many),
    top (the set: 9 or 12)."""
    W, H = size or SIZES[int(rng.choice(len(SIZES), p=np.array(SIZE_P) / sum(SIZE_P)))]
    top = top or (12 if rng.random() < 0.6 else 9)
    st = make_style(rng, top, scheme or pick(rng, ["ivory_colour", "ivory_black", "white_black", "white_colour",
                                                   "black_white"], [30, 25, 15, 15, 15]))
    st["side"] = U(rng, 0.8, 0.97) if not st["dark"] else U(rng, 1.0, 1.6)
    n = tiles or (int(rng.integers(3, 13)) if rng.random() < 0.85 else int(rng.integers(13, 22)))
    alltiles = [(a, b) for a in range(top + 1) for b in range(a + 1)]
    hand = [alltiles[i] for i in rng.choice(len(alltiles), n, replace=False)]
    halves = [(a, b) if rng.random() < 0.5 else (b, a) for a, b in hand]
    length = U(rng, 4.4, 5.2)
    width, thick = length / 2, length / 2 * st["thick"] * U(rng, 0.85, 1.0)
    poses, layout = place_hand(rng, n, length)
    elevation = math.radians(elevation if elevation is not None else U(rng, 25 if n > 12 else 10, 45))
    f = W * U(rng, 0.75, 0.95)  # a phone's main camera: about 65 to 75 degrees across
    pts = np.vstack([tile_box(p, y, l, length, width, thick)[0] for p, y, l in poses])
    target = np.array([*(pts[:, :2].mean(0) + rng.normal(0, 1.0, 2)), width * 0.5])
    distance = U(rng, 25, 60)
    azimuth, roll = math.radians(rng.normal(0, 8)), math.radians(rng.normal(0, 3))
    for _ in range(40):   # back away until the whole hand is in the frame
        C, R = look_at(target, distance, elevation, azimuth, roll)
        cam = dict(C=C, R=R, f=f, W=W, H=H, D=distance, K=np.array([[f, 0, W / 2], [0, f, H / 2], [0, 0, 1.0]]))
        uv = project(cam, pts)
        if uv[:, 0].min() > 0.05 * W and uv[:, 0].max() < 0.95 * W and uv[:, 1].min() > 0.06 * H \
                and uv[:, 1].max() < 0.94 * H:
            break
        distance *= 1.08
    # the table, drawn on its plane: texture, boneyard, objects, shadows. Its near edge is a
    # little in front of the hand, its far edge 40 to 80 cm behind; past them, the room.
    front, behind = pts[:, 1].min(), pts[:, 1].max()
    border = np.array([(x, y) for x in np.linspace(0, W, 17) for y in (0, H)] +
                      [(x, y) for y in np.linspace(0, H, 13) for x in (0, W)], float)
    seen_xy = on_table(cam, border)
    y_range = (front - U(rng, 8, 20), behind + U(rng, 40, 80))
    xs_seen = seen_xy[:, 0][np.isfinite(seen_xy[:, 0])]
    x_lo = max(-70.0, min(xs_seen.min() if len(xs_seen) else -70.0, pts[:, 0].min() - 10))
    x_hi = min(70.0, max(xs_seen.max() if len(xs_seen) else 70.0, pts[:, 0].max() + 10))
    if table is None and rng.random() < 0.45:
        table = pick(rng, PALE_TABLES, [3, 2, 1])
    kind, tex, M, px = table_canvas(rng, cam, (x_lo, x_hi), y_range, length / 2, table)
    half_x, far_y = -x_lo, y_range[1]
    to_canvas = lambda xy: np.c_[(np.asarray(xy)[:, 0] + half_x) * px, (far_y - np.asarray(xy)[:, 1]) * px]  # noqa: E731
    sun = np.array([U(rng, -0.6, 0.6), U(rng, -0.2, 0.7), -1.0])
    shade = np.zeros(tex.shape[:2], F32)
    boxes = []
    back_colour = st["face"] * U(rng, 0.9, 1.0) if rng.random() < 0.6 else \
        np.array(pick(rng, [(0.1, 0.1, 0.12), (0.55, 0.1, 0.1), (0.1, 0.2, 0.45)]))
    faces_down = int(rng.integers(0, 9)) if rng.random() < 0.75 else 0
    for _ in range(faces_down):
        c = np.array([U(rng, max(x_lo + 4, -30), min(x_hi - 4, 30)), U(rng, behind + 3, min(behind + 25, far_y - 4)), 0.0])
        yaw = U(rng, 0, math.pi)
        a, b = np.array([math.cos(yaw), math.sin(yaw), 0]), np.array([-math.sin(yaw), math.cos(yaw), 0])
        foot = [c - a * length / 2 - b * width / 2, c + a * length / 2 - b * width / 2,
                c + a * length / 2 + b * width / 2, c - a * length / 2 + b * width / 2]
        up = np.array([0, 0, thick])
        boxes.append(("down", np.array([p + up for p in foot] + foot), None))
    objs = []
    if rng.random() < 0.6:
        for kind_o in rng.choice(["coin", "coin", "card", "pencil"], int(rng.integers(1, 3)), replace=False):
            side = pick(rng, [-1, 1])
            where = np.array([side * U(rng, 4, 25) + pts[:, 0].mean(), U(rng, pts[:, 1].min() - 8, behind + 20)])
            if abs(where[0] - pts[:, 0].mean()) < (pts[:, 0].max() - pts[:, 0].min()) / 2 + 3 and \
                    pts[:, 1].min() - 3 < where[1] < behind + 3:
                continue
            objs.append((str(kind_o), where))
    for pos, yaw, lean in poses:
        box, normal = tile_box(pos, yaw, lean, length, width, thick)
        boxes.append(("standing", box, normal))
    for _, box, _ in boxes:  # cast shadows, and a darker contact line under each box
        ground = box - np.outer(box[:, 2] / sun[2], sun)
        hull = cv2.convexHull(to_canvas(ground[:, :2]).astype(np.float32))[:, 0]
        cv2.fillPoly(shade, [np.round(hull * 4).astype(np.int32)], 1.0, cv2.LINE_AA, shift=2)
    op = U(rng, 0.2, 0.55)
    shade = cv2.GaussianBlur(shade, (0, 0), max(1.0, U(rng, 0.1, 0.5) * px)) * op
    tex *= 1 - shade[..., None]
    for kind_o, where in objs:
        draw_object(tex, kind_o, to_canvas([where])[0], U(rng, 0, math.pi), width * px, rng)
    img = np.empty((H, W, 3), F32)
    room = np.array(pick(rng, [(0.35, 0.3, 0.25), (0.75, 0.74, 0.7), (0.2, 0.22, 0.25), (0.6, 0.55, 0.45)]))
    img[:] = room * (1 + 0.25 * noise2(rng, H, W, H / 3, W / 3)[..., None])
    table = cv2.warpPerspective(tex, M, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                borderValue=(-1, -1, -1))
    seen = table[..., 0] >= 0
    img[seen] = table[seen]
    del table, tex
    # the boxes, far ones first: the hand's faces warped on, walls filled
    light = np.array([-sun[0], sun[1]]) / (np.linalg.norm(sun[:2]) + 1e-6)
    order = sorted(range(len(boxes)), key=lambda i: -np.linalg.norm(boxes[i][1].mean(0) - C))
    face_poly = {}
    halves_by_box = {}
    k = 0
    for i, (kind_b, _, _) in enumerate(boxes):
        if kind_b == "standing":
            halves_by_box[i] = k
            k += 1
    to_sun = -sun / np.linalg.norm(sun)
    for i in order:
        kind_b, box, normal = boxes[i]
        colour = back_colour if kind_b == "down" else st["face"]
        for side in ("top", "left", "right", "back", "face"):
            corners = BOX_SIDES[side]
            sn = side_normal(box, side, normal)
            if np.dot(sn, C - box[list(corners)].mean(0)) <= 0:
                continue
            quad = project(cam, box[list(corners)])
            bright = 0.7 + 0.35 * max(0.0, float(np.dot(sn, to_sun)))
            if kind_b == "standing" and side == "face":
                t = halves[halves_by_box[i]]
                side_px = max(np.linalg.norm(quad[3] - quad[0]), np.linalg.norm(quad[2] - quad[1]))
                tex_f, src = face_texture(rng, st, t[0], t[1], min(400, max(40, 1.3 * side_px)), light)
                warp_into(img, tex_f * bright, src, quad)
                face_poly[halves_by_box[i]] = quad[[0, 3, 2, 1]]  # the first number's end first
            elif kind_b == "down" and side == "top":
                fill_poly(img, quad, np.clip(colour * bright * (1 + 0.02 * rng.normal()), 0, 1))
            else:
                wall = colour * (st["side"] if side != "top" else U(rng, 0.92, 1.02))
                fill_poly(img, quad, np.clip(wall * bright, 0, 1))
    # light over the whole photo, a little blur, noise
    xs = ((np.arange(W, dtype=F32) - W / 2) / W)[None, :]
    ys = ((np.arange(H, dtype=F32) - H / 2) / W)[:, None]
    gd = U(rng, 0, 2 * math.pi)
    gain = (1 + U(rng, 0, 0.35) * (xs * math.cos(gd) + ys * math.sin(gd))) * (1 - U(rng, 0, 0.5) * (xs * xs + ys * ys))
    img *= gain[..., None] * np.array(pick(rng, [(1, 1, 1), (1.06, 1.0, 0.88), (0.95, 0.98, 1.05)]), F32) \
        * U(rng, 0.85, 1.1)
    bright = float(np.percentile(img[::8, ::8], 99.5))
    if bright > 0.95:  # a phone's exposure keeps a white table from burning out
        img *= 0.95 / bright
    side_px = np.median([np.linalg.norm(q[1] - q[0]) for q in face_poly.values()])
    img = cv2.GaussianBlur(img, (0, 0), U(rng, 0.4, 1.2) * max(1.0, W / 2000))
    # a phone sensor's grain, at full size, in light and colour: its JPEGs weigh 2 to 5 MB
    sig = U(rng, 0.006, 0.014)
    img += cv2.resize(rng.standard_normal((H // 2, W // 2), dtype=F32), (W, H))[..., None] * sig * 0.5 \
        + fine(rng, H, W, 0.5)[..., None] * sig + rng.standard_normal((H, W, 3), dtype=F32) * sig * 0.5
    out = (np.clip(img, 0, 1) * 255 + 0.5).astype(np.uint8)
    # a face turned away from the camera cannot be read by anyone: such a tile is not in the truth
    seen = [j for j in range(n) if j in face_poly]
    hand, halves = [hand[j] for j in seen], [halves[j] for j in seen]
    corners = [",".join("%.1f" % v for v in face_poly[j].ravel()) for j in seen]
    backs = [",".join("%.1f" % v for v in project(cam, box[:4]).ravel()) for kind_b, box, _ in boxes
             if kind_b == "down"]
    meta = dict(background=kind, scheme=st["scheme"], set="double-nine" if top == 9 else "double-twelve",
                n_tiles=len(seen), layout=layout, elevation_deg=f"{math.degrees(elevation):.0f}",
                distance_cm=f"{distance:.0f}", face_height_px=f"{side_px:.0f}", faces_down=faces_down,
                objects=",".join(o[0] for o in objs) or "none", width=W, height=H,
                corners=" ".join(corners), backs=" ".join(backs) or "none", halves=" ".join(f"{a}-{b}" for a, b in halves))
    truth = " ".join(f"{max(a, b)}-{min(a, b)}" for a, b in hand)
    return out, truth, meta


def save(img, path, rng, turn=None):
    """As a phone stores it: JPEG, a third of them turned with the EXIF tag (`turn`, the
    orientation: 1 upright, 6 and 8 a quarter turn, 3 a half) that turns them back."""
    im = Image.fromarray(img)
    exif = Image.Exif()
    turn = turn or pick(rng, [1, 6, 8, 3], [67, 15, 12, 6])
    if turn != 1:
        im = im.transpose({6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270,
                           3: Image.Transpose.ROTATE_180}[turn])
        exif[0x0112] = turn
    im.save(path, "JPEG", quality=int(rng.integers(86, 96)), exif=exif.tobytes())
    return turn


def write_folder(out, n, seed):
    os.makedirs(out, exist_ok=True)
    manifest, rows, keys = ["file\ttiles"], [], None
    for i in range(n):
        rng = np.random.default_rng([seed, i])
        img, truth, meta = render(rng)
        name = f"standing_{seed}_{i:04d}.jpg"
        meta["exif_orientation"] = save(img, os.path.join(out, name), rng)
        keys = keys or list(meta)
        manifest.append(f"{name}\t{truth}")
        rows.append(name + "\t" + "\t".join(str(meta[k]) for k in keys))
    with open(os.path.join(out, "MANIFEST.tsv"), "w") as fh:
        fh.write("\n".join(manifest) + "\n")
    with open(os.path.join(out, "META.tsv"), "w") as fh:
        fh.write("file\t" + "\t".join(keys) + "\n" + "\n".join(rows) + "\n")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    write_folder(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))


if __name__ == "__main__":
    main()
