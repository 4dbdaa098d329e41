#!/usr/bin/env python3
"""Harsh synthetic photos of face-up domino tiles with exact ground truth, run by hand.

    .venv/bin/python -m tools.generators.harsh_photos OUT_DIR N SEED   # N photos, MANIFEST.tsv, META.tsv
    .venv/bin/python -m tools.generators.harsh_photos --sheet OUT.png  # every tile 0-0 .. 12-12, three schemes
    .venv/bin/python -m tools.bench.vision_accuracy OUT_DIR --no-speed

Run from the repository root. A second generator, written apart from
tools/generators/synthetic_photos.py and without looking at the counter, as a stand-in
for photos never seen: harder than that one (chains end to end, engraved dividers, black
tiles, gingham and dark slate, steep tilts, motion blur). META.tsv
gives each photo's style, to break the accuracy down by it, and its tiles' centres on the
image (in MANIFEST.tsv's order), to tell a tile never found from one misread, their top
faces' corners (x,y four times: the two of the end with the first number of `halves`
first) and their halves, for training the tile network (tools/training/).

The table plane is rendered top-down (procedural texture, objects, soft shadows, 3-D tiles whose top
face is projected exactly for the chosen camera, so the near side wall shows as a darker band), then
warped with the homography of a tilted camera.  Light, blur, noise and compression act on the image.
"""
import math
import os
import sys

import cv2
import numpy as np
from PIL import Image

F32 = np.float32


def U(rng, a, b):
    return float(rng.uniform(a, b))


def pick(rng, items, weights=None):
    p = None if weights is None else np.asarray(weights, float) / np.sum(weights)
    return items[int(rng.choice(len(items), p=p))]


def persp(M, pts):
    p = np.asarray(pts, np.float64).reshape(-1, 2)
    q = np.c_[p, np.ones(len(p))] @ M.T
    return q[:, :2] / q[:, 2:3]


def noise2(rng, h, w, sy, sx):
    """Smooth noise (std ~0.5) with feature size sy x sx pixels."""
    a = rng.standard_normal((max(2, int(h / sy) + 2), max(2, int(w / sx) + 2))).astype(F32)
    return cv2.resize(a, (w, h), interpolation=cv2.INTER_CUBIC)


def fine(rng, h, w, sigma=0.7):
    return cv2.GaussianBlur(rng.standard_normal((h, w), dtype=F32), (0, 0), sigma)


# ----------------------------------------------------------------------------- pips and tile styles
def pip_layout(n, g, transpose=False, flip=False):
    """Pip centres (x across the tile, y along it) of one half-face: a unit square centred at 0."""
    if n >= 10:  # double-twelve numbers: 3 columns x 4 rows
        ys = (-g, -g / 3, g / 3, g)
        mid = {10: (-g, g), 11: (-g, 0.0, g), 12: ys}[n]
        pts = [(x, y) for x in (-g, g) for y in ys] + [(0.0, y) for y in mid]
    else:
        c, tl, tr, bl, br = (0, 0), (-g, -g), (g, -g), (-g, g), (g, g)
        six = [tl, (-g, 0), bl, tr, (g, 0), br]
        pts = {0: [], 1: [c], 2: [tr, bl], 3: [tr, c, bl], 4: [tl, tr, bl, br], 5: [tl, tr, bl, br, c],
               6: six, 7: six + [c], 8: six + [(0, -g), (0, g)], 9: six + [(0, -g), c, (0, g)]}[n]
    if flip and n in (2, 3):
        pts = [(-x, y) for x, y in pts]
    if transpose and 6 <= n <= 9:
        pts = [(y, x) for x, y in pts]
    return [(float(x), float(y)) for x, y in pts]


PIP_RGB = {1: (0.40, 0.70, 0.92), 2: (0.13, 0.58, 0.22), 3: (0.82, 0.12, 0.14), 4: (0.50, 0.28, 0.12),
           5: (0.10, 0.20, 0.62), 6: (0.96, 0.87, 0.38), 7: (0.50, 0.20, 0.62), 8: (0.05, 0.36, 0.20),
           9: (0.33, 0.33, 0.35), 10: (0.96, 0.50, 0.10), 11: (0.92, 0.40, 0.65), 12: (0.35, 0.76, 0.72)}
SCHEMES = ['ivory_black', 'white_black', 'white_colour', 'ivory_colour', 'black_white']


def make_style(rng, top, scheme=None):
    scheme = scheme or pick(rng, SCHEMES, [24, 18, 25, 8, 25])
    dark = scheme == 'black_white'
    if scheme.startswith('ivory'):
        face = np.array([0.93, 0.88, 0.77]) * U(rng, 0.94, 1.04) + rng.uniform(-0.02, 0.02, 3)
    elif dark:
        face = np.full(3, U(rng, 0.06, 0.14)) + rng.uniform(-0.01, 0.01, 3)
    else:
        face = np.array([0.95, 0.95, 0.93]) * U(rng, 0.95, 1.03) + rng.uniform(-0.01, 0.01, 3)
    if 'colour' in scheme:
        pips = {n: np.clip(np.array(c) * U(rng, 0.88, 1.08) + rng.uniform(-0.04, 0.04, 3), 0, 1)
                for n, c in PIP_RGB.items()}
        if rng.random() < 0.4:
            pips[9] = np.full(3, U(rng, 0.08, 0.2))
    else:
        pc = np.full(3, U(rng, 0.88, 0.96)) if dark else np.full(3, U(rng, 0.04, 0.16))
        pips = {n: pc + rng.uniform(-0.01, 0.01, 3) for n in range(1, 13)}
    st = dict(scheme=scheme, dark=dark, top=top, face=np.clip(face, 0, 1), pips=pips,
              rp=U(rng, 0.078, 0.10) if top == 9 else U(rng, 0.06, 0.075), g=U(rng, 0.27, 0.3) if top == 9 else U(rng, 0.28, 0.3),
              transpose=rng.random() < 0.3, flip=rng.random() < 0.5, gloss=U(rng, 0, 0.45),
              corner=U(rng, 0.06, 0.16), bevel=U(rng, 0.04, 0.09), bevel_k=U(rng, 0.12, 0.35),
              side=U(rng, 0.55, 0.8) if not dark else U(rng, 0.7, 1.6), thick=U(rng, 0.3, 0.42))
    st['divider'] = pick(rng, ['light', 'engraved'], [7, 3]) if dark else \
        pick(rng, ['dark', 'dark_thin', 'engraved'], [5, 2, 3])
    st['div_w'] = U(rng, 0.012, 0.025) if st['divider'] in ('engraved', 'dark_thin') else U(rng, 0.03, 0.06)
    st['div_len'] = U(rng, 0.62, 0.9)
    st['div_col'] = (np.full(3, U(rng, 0.75, 0.95)) if dark else np.full(3, U(rng, 0.03, 0.25)))
    st['spinner'] = None if rng.random() < 0.6 else pick(rng, [
        np.array([0.80, 0.64, 0.30]), np.array([0.74, 0.74, 0.78]), np.array([0.72, 0.45, 0.25])])
    if st['spinner'] is not None:
        st['spin_r'] = U(rng, 0.045, 0.075)
    return st


# ----------------------------------------------------------------------------- tile geometry / drawing
def rbox_poly(c, ang, hx, hy, r, n=5):
    pts = []
    for k, (sx, sy) in enumerate([(1, 1), (-1, 1), (-1, -1), (1, -1)]):
        for j in range(n + 1):
            a = (k + j / n) * math.pi / 2
            pts.append((sx * (hx - r) + r * math.cos(a), sy * (hy - r) + r * math.sin(a)))
    p = np.array(pts)
    cs, sn = math.cos(ang), math.sin(ang)
    return np.c_[p[:, 0] * cs - p[:, 1] * sn, p[:, 0] * sn + p[:, 1] * cs] + c


def rbox_sdf(u, v, hx, hy, r):
    """Signed distance to a rounded box and its outward normal."""
    qx, qy = np.abs(u) - (hx - r), np.abs(v) - (hy - r)
    mx, my = np.maximum(qx, 0), np.maximum(qy, 0)
    out = np.sqrt(mx * mx + my * my)
    sdf = out + np.minimum(np.maximum(qx, qy), 0) - r
    corner = (qx > 0) & (qy > 0)
    nx = np.where(corner, mx / (out + 1e-6), qx >= qy) * np.sign(u)
    ny = np.where(corner, my / (out + 1e-6), qx < qy) * np.sign(v)
    return sdf, nx.astype(F32), ny.astype(F32)


def tile_hull(t, st, foot, hc):
    """Footprint polygon and top-face polygon (as projected onto the table along camera rays)."""
    P = rbox_poly(t['c'], t['ang'], t['w'] / 2, t['w'], st['corner'] * t['w'])
    k = hc / (hc - st['thick'] * t['w']) if np.isfinite(hc) else 1.0
    return P, foot + (P - foot) * k, k


def mask_poly(shape, pts):
    """Anti-aliased mask of a polygon inside its clipped bounding box -> (mask, y0, x0) or None."""
    x0, y0 = np.floor(pts.min(0)).astype(int) - 1
    x1, y1 = np.ceil(pts.max(0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, shape[1]), min(y1, shape[0])
    if x1 <= x0 or y1 <= y0:
        return None
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(m, [np.round((pts - (x0, y0)) * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    return m.astype(F32)[..., None] / 255, y0, x0


def fill_poly(cv, pts, colour):
    r = mask_poly(cv.shape, np.asarray(pts, float))
    if r:
        a, y0, x0 = r
        roi = cv[y0:y0 + a.shape[0], x0:x0 + a.shape[1]]
        roi[:] = roi * (1 - a) + np.asarray(colour, F32) * a


def draw_tile(cv, t, st, light, foot, hc, glare=None):
    w, ang = t['w'], t['ang']
    P, Ptop, k = tile_hull(t, st, foot, hc)
    face = st['face'] * t['tint']
    if k > 1.0005:  # visible side walls: hull of footprint and projected top face
        fill_poly(cv, cv2.convexHull(np.vstack([P, Ptop]).astype(F32))[:, 0], np.clip(face * st['side'], 0, 1))
    ct = foot + (np.asarray(t['c']) - foot) * k
    s = k * w                                   # canvas pixels per tile unit (tile = 1 x 2 units)
    cs, sn = math.cos(ang), math.sin(ang)
    ex, ey = s * (0.5 * abs(cs) + abs(sn)) + 2, s * (0.5 * abs(sn) + abs(cs)) + 2
    x0, x1 = max(int(ct[0] - ex), 0), min(int(ct[0] + ex) + 2, cv.shape[1])
    y0, y1 = max(int(ct[1] - ey), 0), min(int(ct[1] + ey) + 2, cv.shape[0])
    X = (np.arange(x0, x1, dtype=F32) - ct[0])[None, :]
    Y = (np.arange(y0, y1, dtype=F32) - ct[1])[:, None]
    u, v = (X * cs + Y * sn) / s, (-X * sn + Y * cs) / s
    px = 1.0 / s
    lu, lv = light[0] * cs + light[1] * sn, -light[0] * sn + light[1] * cs   # towards the light
    sdf, nx, ny = rbox_sdf(u, v, 0.5, 1.0, st['corner'])
    prof = np.clip(1 + sdf / st['bevel'], 0, 1) ** 2
    lam = nx * lu + ny * lv
    shade = 1 + st['bevel_k'] * prof * lam - 0.08 * prof + 0.03 * (u * lu + v * lv)
    col = face.astype(F32) * shade[..., None]
    if st['dark']:
        col += (0.25 * st['bevel_k'] * prof * np.maximum(lam, 0))[..., None]
    # divider line across the middle
    qx, qy = np.abs(u) - st['div_len'] / 2, np.abs(v) - st['div_w'] / 2
    dsd = np.sqrt(np.maximum(qx, 0) ** 2 + np.maximum(qy, 0) ** 2) + np.minimum(np.maximum(qx, qy), 0)
    da = np.clip(0.5 - dsd / px, 0, 1)[..., None]
    if st['divider'] == 'engraved':
        dcol = col * (1.5 if st['dark'] else U(t['rng'], 0.72, 0.86))
        hq = np.abs(v - np.sign(lv + 1e-3) * st['div_w']) - st['div_w'] / 2
        ha = np.clip(0.5 - np.maximum(qx, hq) / px, 0, 1)[..., None] * 0.5
        col = col * (1 - ha) + np.minimum(col * 1.12 + 0.02, 1) * ha
    else:
        dcol = st['div_col'].astype(F32)
    col = col * (1 - da) + dcol * da

    def window(pu, pv, rad):
        cx, cy = ct[0] + s * (pu * cs - pv * sn) - x0, ct[1] + s * (pu * sn + pv * cs) - y0
        rr = s * rad + 2
        i0, i1 = max(int(cy - rr), 0), min(int(cy + rr) + 2, col.shape[0])
        j0, j1 = max(int(cx - rr), 0), min(int(cx + rr) + 2, col.shape[1])
        return (slice(i0, i1), slice(j0, j1)), u[i0:i1, j0:j1] - pu, v[i0:i1, j0:j1] - pv

    rp = st['rp']
    for half, n in ((-0.5, t['top']), (0.5, t['bot'])):        # pips: recessed glossy dots
        for (x, y) in pip_layout(n, st['g'], st['transpose'], st['flip']):
            sl, du, dv = window(x, y + half, rp * 1.35)
            d = np.sqrt(du * du + dv * dv) / rp
            a = np.clip((1 - d) * rp / px + 0.5, 0, 1)[..., None]
            o = (du * lu + dv * lv) / rp
            pc = st['pips'][n].astype(F32) * (1 - 0.3 * o * np.minimum(d, 1) ** 2)[..., None]
            hl = st['gloss'] * np.exp(-((du + 0.4 * rp * lu) ** 2 + (dv + 0.4 * rp * lv) ** 2) / (0.22 * rp) ** 2)
            pc = pc + hl[..., None] * (1 - pc)
            ring = (0.12 * np.exp(-((d - 1.05) / 0.15) ** 2))[..., None]
            sub = col[sl] * (1 - ring)
            col[sl] = sub * (1 - a) + pc * a
    if st['spinner'] is not None:                        # metal stud in the middle of the divider
        rs = st['spin_r']
        sl, du, dv = window(0.0, 0.0, rs * 1.3)
        d = np.sqrt(du * du + dv * dv) / rs
        a = np.clip((1 - d) * rs / px + 0.5, 0, 1)[..., None]
        o = (du * lu + dv * lv) / rs
        sc = (0.75 + 0.3 * (1 - d ** 2) + 0.25 * o) * np.where(d > 0.8, 0.7, 1.0)
        mc = st['spinner'].astype(F32) * sc[..., None]
        mc += (0.6 * np.exp(-((du - 0.35 * rs * lu) ** 2 + (dv - 0.35 * rs * lv) ** 2) / (0.3 * rs) ** 2))[..., None]
        col[sl] = col[sl] * (1 - a) + np.clip(mc, 0, 1) * a
    if glare is not None:                                # specular spot
        gu, gv, gs, ga = glare
        g = ga * np.exp(-((u - gu) ** 2 + ((v - gv) * 0.7) ** 2) / (2 * gs * gs))[..., None]
        col = col + g * (1 - col)
    a = np.clip(0.5 - sdf / px, 0, 1)[..., None]
    roi = cv[y0:y1, x0:x1]
    roi[:] = roi * (1 - a) + np.clip(col, 0, 1) * a


# ----------------------------------------------------------------------------- backgrounds
def weave(rng, h, w, p, amp):
    x = np.cos(2 * np.pi * np.arange(w, dtype=F32) / p)[None, :]
    y = np.cos(2 * np.pi * np.arange(h, dtype=F32) / p)[:, None]
    th = noise2(rng, h, w, p, p * 25) + noise2(rng, h, w, p * 25, p)
    return 1 + amp * (x * y) + 0.5 * amp * th


def wrinkles(rng, h, w, u, amp):
    lf = noise2(rng, h, w, u * 5, u * 5)
    return 1 + amp * (0.5 * lf - np.exp(-(lf / 0.06) ** 2))


def bg_wood(rng, h, w, u, dark):
    trans = rng.random() < 0.5
    if trans:
        h, w = w, h
    base = np.array(pick(rng, [(0.30, 0.20, 0.13), (0.20, 0.13, 0.09), (0.26, 0.22, 0.19)] if dark else
                         [(0.82, 0.64, 0.43), (0.72, 0.52, 0.33), (0.62, 0.40, 0.24), (0.56, 0.39, 0.26),
                          (0.78, 0.70, 0.60)])) * U(rng, 0.9, 1.1)
    P = u * U(rng, 2.5, 8)
    y = np.arange(h, dtype=F32)[:, None]
    off = U(rng, 0, P)
    idx = ((y + off) // P).astype(int)
    nplank = int(idx.max()) + 1
    yy = y + noise2(rng, h, w, u * 3, u * 14) * u * U(rng, 0.3, 1.5)
    phase = yy / (u * U(rng, 0.12, 0.5)) + rng.uniform(0, 50, nplank)[idx] + noise2(rng, h, w, u, u * 8)
    rings = (0.5 + 0.5 * np.cos(2 * np.pi * phase)) ** U(rng, 3, 10)
    streak = noise2(rng, h, w, max(1.5, u * 0.04), u * 5)
    val = (1 - U(rng, 0.1, 0.3) * rings + 0.12 * streak + 0.06 * noise2(rng, h, w, u * 4, u * 10)
           + rng.uniform(-0.08, 0.08, nplank)[idx])
    if rng.random() < 0.8:
        seam = np.exp(-(((y + off) % P) - 0.5) ** 2 / 1.2).astype(F32)
        val = val * (1 - 0.45 * seam)
    col = base.astype(F32) * val[..., None]
    col = col * (1 + 0.04 * fine(rng, h, w, 0.6)[..., None])
    return col.transpose(1, 0, 2).copy() if trans else col


def bg_pattern(rng, h, w, u, kind):
    ground = np.array(pick(rng, [(0.95, 0.93, 0.86), (0.85, 0.15, 0.15), (0.15, 0.25, 0.55),
                                 (0.95, 0.85, 0.55), (0.2, 0.45, 0.3), (0.1, 0.1, 0.12)]))
    cols = [rng.uniform(0.05, 0.95, 3) for _ in range(4)]
    if kind == 'stripes':
        T = u * U(rng, 1.5, 5)
        edges = np.sort(rng.uniform(0, 1, 6)) * T
        x = np.arange(max(h, w)) % T
        band = np.searchsorted(edges, x) % 4
        lut = np.array([ground] + cols[:3], F32)
        sx = lut[band[:w]][None, :, :]
        if rng.random() < 0.5:   # plaid
            sy = lut[band[:h]][:, None, :]
            return 0.5 * (sx + sy) * weave(rng, h, w, max(2.5, u * 0.06), 0.08)[..., None]
        return np.broadcast_to(sx, (h, w, 3)) * weave(rng, h, w, max(2.5, u * 0.06), 0.08)[..., None]
    T = int(u * (U(rng, 0.8, 2.5) if kind == 'dots' else U(rng, 3, 6))) + 4
    tile = np.empty((T, T, 3), np.uint8)
    tile[:] = (ground * 255).astype(np.uint8)
    sh = 4
    if kind == 'dots':
        r = U(rng, 0.12, 0.33) * T
        c = tuple(int(v) for v in (cols[0] * 255))
        for (px, py) in [(0.25, 0.25), (0.75, 0.75)]:
            cv2.circle(tile, (int(px * T * 16), int(py * T * 16)), int(r * 16), c, -1, cv2.LINE_AA, sh)
    else:  # floral: flowers and leaves, drawn with wrap-around so the tile repeats seamlessly
        for _ in range(int(rng.integers(2, 6))):
            fx, fy, R = U(rng, 0, T), U(rng, 0, T), U(rng, 0.12, 0.25) * T
            pc = tuple(int(v) for v in cols[int(rng.integers(0, 3))] * 255)
            np_ = int(rng.integers(5, 8))
            for dx in (-T, 0, T):
                for dy in (-T, 0, T):
                    cx, cy = fx + dx, fy + dy
                    for j in range(2):
                        a = U(rng, 0, 6.3)
                        lc = (cx + 1.4 * R * math.cos(a), cy + 1.4 * R * math.sin(a))
                        cv2.ellipse(tile, (int(lc[0]), int(lc[1])), (int(R * 0.7), int(R * 0.3)),
                                    math.degrees(a), 0, 360, (40, 110, 50), -1, cv2.LINE_AA)
                    for j in range(np_):
                        a = 2 * math.pi * j / np_
                        pcx, pcy = cx + 0.55 * R * math.cos(a), cy + 0.55 * R * math.sin(a)
                        cv2.ellipse(tile, (int(pcx), int(pcy)), (int(R * 0.5), int(R * 0.28)),
                                    math.degrees(a), 0, 360, pc, -1, cv2.LINE_AA)
                    cv2.circle(tile, (int(cx), int(cy)), int(R * 0.25), (230, 190, 40), -1, cv2.LINE_AA)
    big = np.tile(tile, (h // T + 1, w // T + 1, 1))[:h, :w].astype(F32) / 255
    return big * weave(rng, h, w, max(2.5, u * 0.06), 0.08)[..., None]


def background(rng, h, w, u, kind=None):
    kind = kind or pick(rng, ['wood', 'wood_dark', 'felt_green', 'felt_blue', 'cloth_plain', 'cloth_gingham',
                      'cloth_dots', 'cloth_floral', 'cloth_stripes', 'slate_dark', 'laminate_dark',
                      'white_laminate', 'paper', 'marble'],
                [20, 7, 9, 5, 7, 7, 3, 4, 3, 6, 4, 8, 9, 4])
    if kind.startswith('wood'):
        return kind, bg_wood(rng, h, w, u, kind == 'wood_dark')
    if kind.startswith('felt'):
        base = (np.array([0.10, 0.38, 0.20]) if kind == 'felt_green' else np.array([0.10, 0.22, 0.48]))
        val = 1 + 0.07 * fine(rng, h, w, 0.8) + 0.05 * noise2(rng, h, w, u * 0.3, u * 0.3) \
            + 0.05 * noise2(rng, h, w, u * 5, u * 5)
        return kind, (base * U(rng, 0.8, 1.2)).astype(F32) * val[..., None]
    if kind == 'cloth_plain' or kind == 'cloth_gingham':
        wv = weave(rng, h, w, max(2.5, u * U(rng, 0.04, 0.1)), U(rng, 0.05, 0.12)) * wrinkles(rng, h, w, u, 0.08)
        c = np.array(pick(rng, [(0.85, 0.80, 0.70), (0.70, 0.70, 0.72), (0.15, 0.20, 0.40), (0.50, 0.12, 0.15),
                                (0.45, 0.48, 0.30), (0.80, 0.12, 0.12), (0.15, 0.35, 0.70), (0.1, 0.1, 0.1)]))
        if kind == 'cloth_plain':
            return kind, c.astype(F32) * wv[..., None]
        G = u * U(rng, 0.3, 1.4)
        mx = ((np.arange(w) // G) % 2).astype(F32)[None, :]
        my = ((np.arange(h) // G) % 2).astype(F32)[:, None]
        m = (0.5 * (mx + my))[..., None]
        return kind, ((1 - m) * 0.95 + m * c.astype(F32)) * wv[..., None]
    if kind.startswith('cloth'):
        return kind, bg_pattern(rng, h, w, u, kind[6:]) * wrinkles(rng, h, w, u, 0.06)[..., None]
    if kind in ('slate_dark', 'laminate_dark'):
        g = U(rng, 0.12, 0.24)
        base = np.array([g, g * U(rng, 0.95, 1.05), g * U(rng, 0.95, 1.15)])
        if kind == 'slate_dark':
            val = 1 + 0.15 * noise2(rng, h, w, u * 2, u * 2) + 0.1 * noise2(rng, h, w, u * 0.3, u * 0.3) \
                + 0.05 * fine(rng, h, w)
        else:
            val = 1 + 0.04 * noise2(rng, h, w, u * 6, u * 6) + 0.03 * fine(rng, h, w)
        return kind, base.astype(F32) * val[..., None]
    base = np.array([0.93, 0.93, 0.91]) * U(rng, 0.92, 1.04)
    val = 1 + 0.015 * noise2(rng, h, w, u * 6, u * 6) + 0.012 * fine(rng, h, w)
    if kind == 'paper':
        val = val + 0.02 * noise2(rng, h, w, 1.5, 6)
    col = base.astype(F32) * val[..., None]
    if kind == 'paper' and rng.random() < 0.4:           # ruled notebook paper
        y = np.arange(h, dtype=F32)[:, None]
        L = u * U(rng, 0.28, 0.36)
        line = np.exp(-((y % L) - L / 2) ** 2 / max(0.5, (u * 0.012) ** 2))[..., None]
        col = col * (1 - 0.35 * line) + np.array([0.45, 0.6, 0.85], F32) * 0.35 * line
    if kind == 'marble':
        x = np.arange(w, dtype=F32)[None, :]
        t = (x / (u * U(rng, 3, 8)) + 3 * noise2(rng, h, w, u * 4, u * 4) + noise2(rng, h, w, u, u))
        vein = np.exp(-(np.sin(np.pi * t) / 0.06) ** 2)
        col = col * (1 - 0.35 * vein[..., None] * np.array([1, 1, 0.9], F32))
    return kind, col


# ----------------------------------------------------------------------------- objects on the table
def draw_object(cv, kind, c, ang, u, rng):
    cs, sn = math.cos(ang), math.sin(ang)
    tr = lambda pts: np.array([(c[0] + x * cs - y * sn, c[1] + x * sn + y * cs) for x, y in pts])
    if kind == 'pencil':
        L, wd = u * U(rng, 5.5, 7.5), u * U(rng, 0.27, 0.32)
        body = np.array(pick(rng, [(0.95, 0.75, 0.1), (0.8, 0.1, 0.1), (0.1, 0.4, 0.2), (0.15, 0.25, 0.6)]))
        xe, xb, xt = -L / 2, L / 2 - 0.1 * L, L / 2
        for (ya, yb, f) in ((-0.5, -1 / 6, 0.8), (-1 / 6, 1 / 6, 1.0), (1 / 6, 0.5, 0.62)):
            fill_poly(cv, tr([(xe + 0.09 * L, ya * wd), (xb, ya * wd), (xb, yb * wd), (xe + 0.09 * L, yb * wd)]), body * f)
        fill_poly(cv, tr([(xb, -wd / 2), (xt, 0), (xb, wd / 2)]), (0.85, 0.68, 0.48))
        fill_poly(cv, tr([(xt - 0.03 * L, -wd * 0.15), (xt, 0), (xt - 0.03 * L, wd * 0.15)]), (0.15, 0.15, 0.17))
        fill_poly(cv, tr([(xe + 0.04 * L, -wd / 2), (xe + 0.09 * L, -wd / 2), (xe + 0.09 * L, wd / 2),
                          (xe + 0.04 * L, wd / 2)]), (0.72, 0.72, 0.74))
        fill_poly(cv, rbox_poly(tr([(xe + 0.025 * L, 0)])[0], ang + math.pi / 2, wd / 2, 0.025 * L, wd * 0.15),
                  (0.9, 0.55, 0.6))
        return tr([(xe, -wd / 2), (xt, -wd / 2), (xt, wd / 2), (xe, wd / 2)])
    if kind == 'coin':
        R = u * U(rng, 0.35, 0.55)
        base = np.array(pick(rng, [(0.72, 0.45, 0.25), (0.75, 0.75, 0.78), (0.85, 0.70, 0.35)]))
        x0, y0 = int(max(c[0] - R - 2, 0)), int(max(c[1] - R - 2, 0))
        x1, y1 = int(min(c[0] + R + 3, cv.shape[1])), int(min(c[1] + R + 3, cv.shape[0]))
        if x1 > x0 and y1 > y0:
            X = np.arange(x0, x1, dtype=F32)[None, :] - c[0]
            Y = np.arange(y0, y1, dtype=F32)[:, None] - c[1]
            d = np.sqrt(X * X + Y * Y) / R
            val = 0.75 + 0.25 * (X * cs + Y * sn) / R + 0.15 * noise2(rng, y1 - y0, x1 - x0, R * 0.15, R * 0.15)
            val = val * np.where(np.abs(d - 0.9) < 0.05, 0.75, 1.0)
            a = np.clip((1 - d) * R + 0.5, 0, 1)[..., None]
            roi = cv[y0:y1, x0:x1]
            roi[:] = roi * (1 - a) + np.clip(base * val[..., None], 0, 1) * a
        return np.array([(c[0] + R * math.cos(t), c[1] + R * math.sin(t)) for t in np.linspace(0, 6.28, 16)])
    # card: business/index card, plain or with printed text lines
    cw, ch = u * U(rng, 3.2, 4.2), u * U(rng, 2.0, 2.6)
    P = rbox_poly(c, ang, cw / 2, ch / 2, u * 0.1)
    fill_poly(cv, P, pick(rng, [(0.96, 0.96, 0.94), (0.95, 0.9, 0.6), (0.7, 0.85, 0.95), (0.95, 0.75, 0.8)]))
    if rng.random() < 0.6:
        for i in range(int(rng.integers(2, 6))):
            y, ln = -ch * 0.3 + i * ch * 0.14, cw * U(rng, 0.3, 0.8)
            fill_poly(cv, tr([(-cw * 0.4, y), (-cw * 0.4 + ln, y), (-cw * 0.4 + ln, y + u * 0.05),
                              (-cw * 0.4, y + u * 0.05)]), (0.25, 0.25, 0.3))
    return P


# ----------------------------------------------------------------------------- camera and layout
def make_camera(W, H, f, tilt, roll, budget):
    K = np.array([[f, 0, W / 2], [0, f, H / 2], [0, 0, 1.0]])
    c, s = math.cos(tilt), math.sin(tilt)
    cr, sr = math.cos(roll), math.sin(roll)
    R = np.array([[cr, -sr, 0], [sr, cr, 0], [0, 0, 1.0]]) @ np.array([[1, 0, 0], [0, c, s], [0, -s, c]])
    corners = np.array([[0, 0], [W, 0], [W, H], [0, H]], float)

    def build(d):       # world = table plane (z into the table); camera at distance d from its target
        C = -d * R[2]
        return K @ np.column_stack([R[:, 0], R[:, 1], -R @ C]), C

    def mag(Hi, x, y):  # image pixels per table unit around image point (x, y)
        p = persp(Hi, [(x, y), (x + 1, y), (x, y + 1)])
        a, b = p[1] - p[0], p[2] - p[0]
        return 1 / math.sqrt(abs(a[0] * b[1] - a[1] * b[0]))

    Hw, _ = build(f)
    d = f * max(mag(np.linalg.inv(Hw), x, y) for x in (0, W / 2, W) for y in (0, H / 2, H))
    fp = persp(np.linalg.inv(build(d)[0]), corners)
    area = np.prod(fp.max(0) - fp.min(0))
    if area > budget:
        d *= math.sqrt(budget / area)
    Hw, C = build(d)
    fp = persp(np.linalg.inv(Hw), corners)
    lo, hi = fp.min(0) - 4, fp.max(0) + 4
    M = Hw @ np.array([[1, 0, lo[0]], [0, 1, lo[1]], [0, 0, 1.0]])
    Mi = np.linalg.inv(M)
    return dict(M=M, Mi=Mi, shape=(int(hi[1] - lo[1]) + 1, int(hi[0] - lo[0]) + 1), W=W, H=H,
                foot=C[:2] - lo, hc=-C[2], magc=mag(Mi, W / 2, H / 2), fp=fp - lo)


def make_groups(rng, hand, layout):
    """Split the hand into groups of local poses (x, y in tile widths, angle; angle 0 = long axis on y)."""
    def row(ts):
        out, x, jit = [], 0.0, rng.random() < 0.5
        for i, t in enumerate(ts):
            da = math.radians(U(rng, -1.5, 1.5)) if jit else 0.0
            out.append((x, U(rng, -0.12, 0.12), da, t))
            x += 1 + (0 if rng.random() < 0.5 else U(rng, 0, 0.05)) + 2.1 * abs(math.sin(math.radians(1.5))) * jit
        return out

    def chain(ts):
        out, x, cross = [], 0.0, rng.random() < 0.5
        for i, t in enumerate(ts):
            c = cross and t[0] == t[1]
            half = 0.5 if c else 1.0
            x += half if i else 0
            out.append((x, 0.0, 0.0 if c else math.pi / 2, t))
            x += half + (0 if rng.random() < 0.5 else U(rng, 0, 0.05))
        return out

    hand, groups = list(hand), []
    if layout == 'row':
        while hand:
            k = int(rng.integers(3, 11))
            groups.append(row(hand[:k])); hand = hand[k:]
    elif layout == 'chain':
        while hand:
            k = int(rng.integers(3, 8))
            groups.append(chain(hand[:k])); hand = hand[k:]
    elif layout == 'mixed':
        k = int(rng.integers(2, max(3, len(hand) // 2 + 1)))
        groups.append(row(hand[:k])); hand = hand[k:]
        if len(hand) >= 3 and rng.random() < 0.6:
            k = int(rng.integers(2, min(6, len(hand))))
            groups.append(chain(hand[:k])); hand = hand[k:]
    groups += [[(0.0, 0.0, 0.0, t)] for t in hand]
    return [[(x - np.mean([p[0] for p in g]), y, a, t) for x, y, a, t in g] for g in groups]


def place_hand(rng, groups, w, cam, st, gap, aligned, margin):
    q = max(1, int(w / 8))
    occ = np.zeros((cam['shape'][0] // q + 2, cam['shape'][1] // q + 2), np.uint8)
    W, H = cam['W'], cam['H']
    Mi, M = cam['Mi'], cam['M']
    img_x = persp(Mi, [(W / 2, H / 2), (W / 2 + 10, H / 2)])
    base = math.atan2(*(img_x[1] - img_x[0])[::-1])          # table direction of the image x axis
    queue, placed, hulls = list(groups), [], []
    while queue:
        g = queue.pop(0)
        for _ in range(150):
            phi = base + rng.integers(0, 4) * math.pi / 2 + math.radians(rng.normal(0, 6)) if \
                (aligned or len(g) > 1) and rng.random() < 0.7 else U(rng, 0, 2 * math.pi)
            cen = persp(Mi, [(U(rng, 0.1, 0.9) * W, U(rng, 0.1, 0.9) * H)])[0]
            cs, sn = math.cos(phi), math.sin(phi)
            ts, polys, ok = [], [], True
            for x, y, a, tl in g:
                t = dict(c=cen + w * np.array([x * cs - y * sn, x * sn + y * cs]), ang=phi + a, w=w,
                         top=tl[0], bot=tl[1])
                P, Pt, _ = tile_hull(t, st, cam['foot'], cam['hc'])
                pts = np.vstack([P, Pt])
                ip = persp(M, pts)
                if ip.min() < margin or (ip[:, 0] > W - 1 - margin).any() or (ip[:, 1] > H - 1 - margin).any():
                    ok = False
                    break
                ts.append(t)
                polys.append(cv2.convexHull(pts.astype(F32))[:, 0] / q)
            if not ok:
                continue
            allp = np.vstack(polys)
            x0, y0 = np.floor(allp.min(0) - gap / q - 2).astype(int)
            x1, y1 = np.ceil(allp.max(0) + gap / q + 3).astype(int)
            if x0 < 0 or y0 < 0 or x1 > occ.shape[1] or y1 > occ.shape[0]:
                continue
            tmp = np.zeros((y1 - y0, x1 - x0), np.uint8)
            for p in polys:
                pi = np.round(p - (x0, y0)).astype(np.int32)
                cv2.fillPoly(tmp, [pi], 1)
                cv2.polylines(tmp, [pi], True, 1, thickness=max(1, int(round(2 * gap / q))))
            if np.any(tmp & occ[y0:y1, x0:x1]):
                continue
            for p in polys:
                cv2.fillPoly(occ, [np.round(p).astype(np.int32)], 1)
            placed += ts
            hulls += [p * q for p in polys]
            break
        else:
            if len(g) == 1:
                return None
            queue[:0] = [g[:len(g) // 2], g[len(g) // 2:]]
    return placed, occ, q


# ----------------------------------------------------------------------------- one photo
SIZES = [(800, 600), (1024, 576), (1280, 960), (1280, 720), (1600, 1200), (1440, 1080), (1920, 1080),
         (2048, 1536), (2016, 1512), (2304, 1728), (3264, 2448), (4000, 3000)]
SIZE_P = [5, 3, 10, 6, 12, 8, 10, 12, 8, 6, 4, 9]


def shadow_layer(shape, polys, q, sigma, offset, op):
    m = np.zeros((shape[0] // q + 2, shape[1] // q + 2), F32)
    for P in polys:
        pts = np.vstack([P, P + offset]).astype(F32)
        cv2.fillPoly(m, [np.round(cv2.convexHull(pts)[:, 0] / q * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    return cv2.GaussianBlur(m, (0, 0), max(0.5, sigma / q)) * op


def render(rng):
    W, H = SIZES[int(rng.choice(len(SIZES), p=np.array(SIZE_P) / sum(SIZE_P)))]
    if rng.random() < 0.2:
        W, H = H, W
    top = 9 if rng.random() < 0.55 else 12
    st = make_style(rng, top)
    alltiles = [(a, b) for a in range(top + 1) for b in range(a + 1)]
    n = int(rng.choice(np.arange(1, 21), p=np.array([3] + [6] * 3 + [8] * 4 + [6] * 4 + [4] * 4 + [3] * 4) / 105))
    hand = [alltiles[i] for i in rng.choice(len(alltiles), n, replace=False)]
    layout = 'scattered' if n == 1 else pick(rng, ['scattered', 'row', 'chain', 'mixed'], [40, 25, 15, 20])
    tilt = pick(rng, [U(rng, 0, 8), U(rng, 8, 25), U(rng, 25, 45)], [30, 40, 30])
    roll = rng.normal(0, 6) if rng.random() < 0.75 else U(rng, -180, 180)
    f = max(W, H) * U(rng, 0.7, 1.4)
    half_diag = math.hypot(W, H) / 2
    f = max(f, half_diag / math.tan(math.radians(max(20.0, 75 - tilt))))
    cam = make_camera(W, H, f, math.radians(tilt), math.radians(roll), min(2.2 * W * H, 15e6))
    # tile size: as the image allows it
    mp = W * H / 1e6
    cap = min(300, math.sqrt(0.28 * W * H / (2.6 * n)), 0.4 * min(W, H))
    lo = 50 if mp > 7 else 30
    w_img = math.exp(U(rng, math.log(lo), math.log(max(lo, cap)))) if cap > lo else cap
    blur = pick(rng, ['none', 'gaussian', 'motion'], [50, 30, 20])
    margin = 3 + (3 if blur != 'none' else 0)
    groups = make_groups(rng, [(a, b) if rng.random() < 0.5 else (b, a) for a, b in hand], layout)
    gap_w = pick(rng, [U(rng, 0.05, 0.2), U(rng, 0.2, 0.7), U(rng, 0.7, 2)], [30, 45, 25])
    aligned = rng.random() < 0.35
    for attempt in range(20):
        w = w_img / cam['magc']
        res = place_hand(rng, groups, w, cam, st, max(gap_w * w, 2.0), aligned, margin)
        if res:
            break
        w_img *= 0.9
    else:
        raise RuntimeError('could not place tiles')
    tiles, occ, q = res
    ch, cw = cam['shape']
    bgkind, cv = background(rng, ch, cw, w)
    cv = np.ascontiguousarray(cv, dtype=F32)
    # light direction, shadows, objects
    az = U(rng, 0, 2 * math.pi)
    light = np.array([math.cos(az), math.sin(az)])
    elev = math.radians(U(rng, 35, 75))
    objs = []
    if bgkind.startswith('cloth_') and bgkind != 'cloth_plain' and rng.random() < 0.6 or rng.random() < 0.22:
        for kind in rng.choice(['pencil', 'coin', 'card', 'coin'], int(rng.integers(1, 4)), replace=False):
            for _ in range(40):
                c = persp(cam['Mi'], [(U(rng, 0, 1) * W, U(rng, 0, 1) * H)])[0]
                ang = U(rng, 0, 2 * math.pi)
                r = {'pencil': 3.8, 'coin': 0.6, 'card': 2.2}[kind] * w
                qx0, qy0 = int((c[0] - r) / q), int((c[1] - r) / q)
                qx1, qy1 = int((c[0] + r) / q) + 1, int((c[1] + r) / q) + 1
                if np.any(occ[max(qy0, 0):max(qy1, 0), max(qx0, 0):max(qx1, 0)]):
                    continue
                occ[max(qy0, 0):max(qy1, 0), max(qx0, 0):max(qx1, 0)] = 1
                objs.append((str(kind), c, ang))
                break
    sq = max(2, int(w / 6))
    shoff = -light * st['thick'] * w / math.tan(elev)
    sh_op = pick(rng, [U(rng, 0.05, 0.2), U(rng, 0.2, 0.45), U(rng, 0.45, 0.65)], [25, 50, 25])
    polys = [tile_hull(t, st, cam['foot'], cam['hc'])[0] for t in tiles]
    m1 = shadow_layer(cv.shape, polys, sq, U(rng, 0.05, 0.3) * w, shoff, sh_op)
    m2 = shadow_layer(cv.shape, polys, sq, 0.06 * w, shoff * 0.1, U(rng, 0.15, 0.35))
    m = cv2.resize(1 - (1 - m1) * (1 - m2), (cw, ch), interpolation=cv2.INTER_LINEAR)
    cv *= 1 - m[..., None] * np.array([1.0, 0.97, 0.9], F32)
    for kind, c, ang in objs:
        P = draw_object(cv, kind, c, ang, w, rng)
        if kind != 'card':
            ms = shadow_layer(cv.shape, [P], sq, 0.15 * w, shoff * 0.8, sh_op * 0.8)
            cv *= 1 - cv2.resize(ms, (cw, ch))[..., None] * 0.9
    light_kind = pick(rng, ['even', 'uneven', 'shadow', 'glare'], [33, 35, 16, 16])
    glare_ids = set(rng.choice(len(tiles), min(len(tiles), int(rng.integers(1, 3))), replace=False)) \
        if light_kind == 'glare' else set()
    tiles.sort(key=lambda t: -np.hypot(*(t['c'] - cam['foot'])))     # far tiles first
    for i, t in enumerate(tiles):
        t['tint'] = U(rng, 0.97, 1.03)
        t['rng'] = rng
        gl = (U(rng, -0.4, 0.4), U(rng, -0.9, 0.9), U(rng, 0.1, 0.3), U(rng, 0.5, 0.9)) if i in glare_ids else None
        draw_tile(cv, t, st, light, cam['foot'], cam['hc'], gl)
    img = cv2.warpPerspective(cv, cam['M'], (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    del cv
    # image-space light: gradient, vignetting, a big soft shadow, white balance and exposure
    xs = ((np.arange(W, dtype=F32) - W / 2) / max(W, H))[None, :]
    ys = ((np.arange(H, dtype=F32) - H / 2) / max(W, H))[:, None]
    gd = U(rng, 0, 2 * math.pi)
    amp, vig = (U(rng, 0, 0.08), U(rng, 0, 0.15)) if light_kind == 'even' else (U(rng, 0.15, 0.5), U(rng, 0.2, 0.8))
    gain = (1 + amp * (xs * math.cos(gd) + ys * math.sin(gd)) * 2) * (1 - vig * (xs * xs + ys * ys))
    if light_kind == 'uneven' and rng.random() < 0.5:
        sx, sy = U(rng, -0.4, 0.4), U(rng, -0.3, 0.3)
        gain = gain * (0.8 + 0.35 * np.exp(-((xs - sx) ** 2 + (ys - sy) ** 2) / (2 * U(rng, 0.1, 0.3) ** 2)))
    if light_kind == 'shadow':
        sm = np.zeros((H // 8 + 1, W // 8 + 1), F32)
        cx, cy = U(rng, -0.2, 1.2) * sm.shape[1], U(rng, -0.2, 1.2) * sm.shape[0]
        cv2.ellipse(sm, (int(cx), int(cy)), (int(U(rng, 0.3, 0.8) * sm.shape[1]), int(U(rng, 0.15, 0.4) * sm.shape[0])),
                    U(rng, 0, 180), 0, 360, 1.0, -1)
        sm = cv2.GaussianBlur(sm, (0, 0), U(rng, 0.01, 0.05) * sm.shape[1] + 1)
        gain = gain * (1 - U(rng, 0.3, 0.6) * cv2.resize(sm, (W, H)))
    tint = np.array(pick(rng, [(1, 1, 1), (1.06, 1.0, 0.88), (0.94, 0.98, 1.06), (1.03, 1.0, 0.95)]), F32)
    expo = U(rng, 0.82, 1.12)
    img *= (gain if gain.ndim == 3 else gain[..., None]) * (tint * expo)
    tw, centres, corners = [], [], []        # tile width on the image: across the top face centre
    for t in tiles:
        k = tile_hull(t, st, cam['foot'], cam['hc'])[2]
        ct, eu = cam['foot'] + (t['c'] - cam['foot']) * k, np.array([math.cos(t['ang']), math.sin(t['ang'])])
        p = persp(cam['M'], [ct - 0.5 * k * t['w'] * eu, ct + 0.5 * k * t['w'] * eu])
        tw.append(float(np.linalg.norm(p[1] - p[0])))
        centres.append('%.0f,%.0f' % tuple(p.mean(axis=0)))
        ev = np.array([-math.sin(t['ang']), math.cos(t['ang'])])  # along the tile, towards its 'bot' half
        face = [ct + k * t['w'] * (su * 0.5 * eu + sv * ev) for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        corners.append(','.join('%.1f' % x for x in persp(cam['M'], face).ravel()))
    tw_med = float(np.median(tw))
    if blur == 'gaussian':
        sg = min(U(rng, 0.5, 1.4) * max(1, math.sqrt(mp / 3)), 0.04 * tw_med)
        img = cv2.GaussianBlur(img, (0, 0), max(sg, 0.3))
        blur_s = f'gaussian:{sg:.2f}'
    elif blur == 'motion':
        L = max(2.0, min(U(rng, 2, 7) * max(1, math.sqrt(mp / 3)), 0.1 * tw_med))
        k = np.zeros((int(L) + 3, int(L) + 3), np.uint8)
        a, cc = U(rng, 0, math.pi), (int(L) + 2) / 2
        cv2.line(k, (int(round((cc - L / 2 * math.cos(a)) * 16)), int(round((cc - L / 2 * math.sin(a)) * 16))),
                 (int(round((cc + L / 2 * math.cos(a)) * 16)), int(round((cc + L / 2 * math.sin(a)) * 16))),
                 255, 1, cv2.LINE_AA, 4)
        k = k.astype(F32) / k.sum()
        img = cv2.filter2D(img, -1, k)
        blur_s = f'motion:{L:.1f}'
    else:
        blur_s = 'none'
        if rng.random() < 0.4:    # phone-style sharpening
            img = cv2.addWeighted(img, 1.5, cv2.GaussianBlur(img, (0, 0), 1.2), -0.5, 0)
    sig = U(rng, 0.004, 0.02)
    nh, nw = (H // 2 + 1, W // 2 + 1) if mp > 3 else (H, W)
    nz = rng.standard_normal((nh, nw, 3), dtype=F32)
    nz = 0.8 * nz[..., :1] + 0.45 * nz
    if (nh, nw) != (H, W):
        nz = cv2.resize(nz, (W, H), interpolation=cv2.INTER_LINEAR)
    img += nz * (sig * (0.4 + 0.8 * np.sqrt(np.clip(img, 0, 1))))
    out = (np.clip(img, 0, 1) * 255 + 0.5).astype(np.uint8)
    meta = dict(background=bgkind, objects=','.join(o[0] for o in objs) or 'none', scheme=st['scheme'],
                set='double-nine' if top == 9 else 'double-twelve', divider=st['divider'],
                spinner='yes' if st['spinner'] is not None else 'no', n_tiles=n, layout=layout,
                tilt_deg=f'{tilt:.1f}', roll_deg=f'{roll:.1f}', tile_w_px=f'{tw_med:.0f}',
                tile_w_range=f'{min(tw):.0f}-{max(tw):.0f}', width=W, height=H, megapixels=f'{mp:.2f}',
                light=light_kind, tile_shadow=f'{sh_op:.2f}', blur=blur_s, noise=f'{sig * 255:.1f}',
                centres=' '.join(centres), corners=' '.join(corners),
                halves=' '.join(f'{t["top"]}-{t["bot"]}' for t in tiles))
    gt = ' '.join(f'{max(t["top"], t["bot"])}-{min(t["top"], t["bot"])}' for t in tiles)
    return out, gt, meta


def save(img, path, fmt, q):
    im = Image.fromarray(img)
    if fmt == 'jpg':
        im.save(path, quality=q)
    elif fmt == 'png':
        im.save(path, compress_level=1)
    else:
        im.save(path, quality=q, method=3)


def sheet(path):
    """All tiles 0-0 .. 12-12, one panel per scheme, top-down, labelled."""
    rng = np.random.default_rng(0)
    w, panels = 40, []
    for scheme, spin in (('ivory_black', False), ('white_colour', True), ('black_white', False)):
        st = make_style(rng, 12, scheme)
        st.update(transpose=False, flip=False, spinner=np.array([0.8, 0.64, 0.3]) if spin else None, spin_r=0.06)
        cv = np.full((13 * 62 + 20, 13 * 92 + 20, 3), 0.45, F32)
        for a in range(13):
            for b in range(a + 1):
                t = dict(c=np.array([20 + b * 92 + w, 20 + a * 62 + w / 2]), ang=-math.pi / 2, w=w,
                         top=a, bot=b, tint=1.0, rng=rng)
                draw_tile(cv, t, st, np.array([-0.6, -0.8]), np.zeros(2), np.inf)
        cv = (np.clip(cv, 0, 1) * 255).astype(np.uint8)
        for a in range(13):
            for b in range(a + 1):
                cv2.putText(cv, f'{a}-{b}', (20 + b * 92 + w - 12, 20 + a * 62 + w // 2 + 33),
                            cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 255, 150), 1, cv2.LINE_AA)
        panels.append(cv)
    Image.fromarray(np.vstack(panels)).save(path)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == '--sheet':
        return sheet(sys.argv[2])
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    out, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    os.makedirs(out, exist_ok=True)
    man, meta_rows, keys = ['file\ttiles'], [], None
    for i in range(n):
        rng = np.random.default_rng([seed, i])
        img, gt, meta = render(rng)
        fmt = pick(rng, ['jpg', 'png', 'webp'], [86, 7, 7])
        if fmt != 'jpg' and img.shape[0] * img.shape[1] > 4.5e6:
            fmt = 'jpg'
        q = int(rng.integers(70, 96)) if fmt != 'png' else 0
        name = f'dom_{seed}_{i:04d}.{fmt}'
        save(img, os.path.join(out, name), fmt, q)
        meta = dict(format=fmt, quality=q, **meta)
        keys = keys or list(meta)
        man.append(f'{name}\t{gt}')
        meta_rows.append(name + '\t' + '\t'.join(str(meta[k]) for k in keys))
        print(name, meta['n_tiles'], meta['layout'], meta['background'], flush=True)
    with open(os.path.join(out, 'MANIFEST.tsv'), 'w') as fh:
        fh.write('\n'.join(man) + '\n')
    with open(os.path.join(out, 'META.tsv'), 'w') as fh:
        fh.write('file\t' + '\t'.join(keys) + '\n' + '\n'.join(meta_rows) + '\n')


if __name__ == '__main__':
    main()
