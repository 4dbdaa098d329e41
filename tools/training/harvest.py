#!/usr/bin/env python3
"""Boxes with their truth, harvested from rendered photos, to train the tile network on.

    python -m tools.training.harvest --help
    python -m tools.training.harvest OUT.npz N SEED [--generator harsh|kind|standing|table] [--jobs 2]

Run from the repository root, with a Python that has PyTorch's companions installed
(see docs/vision.md, "Training"). Renders N photos with tools/generators/harsh_photos.py
or, with `--generator kind`, tools/generators/synthetic_photos.py with its options picked
at random, including tiles lying face down, or with `--generator standing`,
tools/generators/standing_hands.py (hands standing on edge, seen from the seat), or with
`--generator table`, tools/generators/table_photos.py (Chicken Foot tables) (the benchmarks' seeds are refused, so that
they stay photos the network never saw), saves each as a phone would, and reads it with
the counter, recording every box the counter reads (divider boxes, body boxes, second
looks) and up to NETWORK_BOXES of those the tile network reads (those, where it moved
them, next to the tiles found, about loose pips: its own mistakes there teach it most).
A busy photo, or one of small tiles on a big JPEG, is read by the quick look
(vision/finder_look.py): its boxes are the tile finder's and the network's, not the
classical looks'; a photo whose first look finds small tiles or a tilt adds the finder's
boxes to its own. The boxes depend on the counter in place (its classical looks and its
network), so a harvest made after a change to either differs from the one before.
Each box is labelled against the tiles' true outlines: a tile (it overlaps one by 55 % or
more, as intersection over union, and lies along it), no tile (under 35 %), or in between
(not used for the tile/no-tile answer), with that overlap; for a box over a tile the pips
of the half at the box's top and bottom, and for a box near one (10 % and more) where the
tile is in the box's frame. Every true tile is also added exact and moved about (as a box
the counter could have found), with boxes straddling two tiles and boxes on the bare table.

The crops are what the network sees (vision.tile_net.crop). Nothing here is shipped.
"""

from __future__ import annotations

import argparse
import io
import math
import sys
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from tools.generators import harsh_photos, standing_hands, synthetic_photos, table_photos
from vision import box_reading, network_look, pipeline, tile_net
from vision.loading import load_photo

#: Seeds the benchmarks and tests score on, so never trained on (the harsh generator's
#: seeds 1 to 24, tools/generators/harsh_photos.py).
BENCH_SEEDS = {"harsh": set(range(1, 25)), "kind": {777, 2024, 2027, 5150, 9001},
               "standing": {901, 902, 7301, 7302, 7303}, "table": set()}
TILE_IOU, NO_TILE_IOU = 0.55, 0.35
#: At most this many of the boxes the tile network reads are kept a photo.
NETWORK_BOXES = 150
NEAR_IOU = 0.1  # a box overlapping a tile this much is near it: where the tile is, is known
ALONG = math.radians(20)  # a tile box lies along its tile within this angle


def encoded(rgb: np.ndarray, fmt: str, q: int) -> bytes:
    buf = io.BytesIO()
    im = Image.fromarray(rgb)
    if fmt == "jpg":
        im.save(buf, "JPEG", quality=q)
    elif fmt == "png":
        im.save(buf, "PNG", compress_level=1)
    else:
        im.save(buf, "WEBP", quality=q, method=3)
    return buf.getvalue()


def render_harsh(seed: int, i: int):
    """Photo i of `seed` as harsh_photos.main saves it, its tiles' top faces' corners
    (the first number's end first), their halves, and no tile face down."""
    rng = np.random.default_rng([seed, i])
    img, _, meta = harsh_photos.render(rng)
    fmt = harsh_photos.pick(rng, ["jpg", "png", "webp"], [86, 7, 7])
    if fmt != "jpg" and img.shape[0] * img.shape[1] > 4.5e6:
        fmt = "jpg"
    q = int(rng.integers(70, 96)) if fmt != "png" else 0
    corners = [np.array([float(v) for v in c.split(",")]).reshape(4, 2) for c in meta["corners"].split()]
    halves = [tuple(int(v) for v in h.split("-")) for h in meta["halves"].split()]
    return encoded(img, fmt, q), corners, halves, []


KIND_SIZES = [(1600, 1200), (1200, 1600), (1280, 720), (2000, 1500), (1024, 768), (3000, 2000)]


def render_kind(seed: int, i: int):
    """Photo i of `seed` from tools/generators/synthetic_photos.py, its options picked at random
    (faint or no dividers, hard shadows, side walls, pink sets, floorboards, tiles face
    down, a leaning camera), with the same four answers as render_harsh."""
    rng = np.random.default_rng([seed, i])
    size = KIND_SIZES[int(rng.integers(len(KIND_SIZES)))]
    photo = synthetic_photos.make_photo(
        rng, n_tiles=int(rng.integers(1, 15)), size=size,
        style=str(rng.choice(list(synthetic_photos.STYLES) + ["pink"])),
        background=str(rng.choice(list(synthetic_photos.BACKGROUNDS) + ["planks"])),
        divider=str(rng.choice(["painted", "painted", "faint", "none"], p=[0.35, 0.35, 0.2, 0.1])),
        hard_shadow=bool(rng.random() < 0.3), wall=float(rng.uniform(0.1, 0.25)) if rng.random() < 0.2 else 0.0,
        face_down=int(rng.integers(1, 7)) if rng.random() < 0.5 else 0)
    if rng.random() < 0.3:
        photo = synthetic_photos.seen_at_angle(photo, float(rng.uniform(15, 40))) or photo
    fmt = str(rng.choice(["jpg", "png", "webp"], p=[0.8, 0.1, 0.1]))
    rgb = cv2.cvtColor(photo.bgr, cv2.COLOR_BGR2RGB)
    return encoded(rgb, fmt, int(rng.integers(70, 96))), list(photo.polygons), list(photo.halves), list(photo.backs)


def render_standing(seed: int, i: int):
    """Photo i of `seed` from tools/generators/standing_hands.py, stored as a phone stores it
    (EXIF turns included: the truth is on the upright photo), with its face-down tiles."""
    rng = np.random.default_rng([seed, i])
    img, _, meta = standing_hands.render(rng)
    buf = io.BytesIO()
    standing_hands.save(img, buf, rng)
    quads = lambda text: [np.array([float(v) for v in c.split(",")]).reshape(4, 2)  # noqa: E731
                          for c in text.split() if text != "none"]
    halves = [tuple(int(v) for v in h.split("-")) for h in meta["halves"].split()]
    return buf.getvalue(), quads(meta["corners"]), halves, quads(meta["backs"])


def render_table(seed: int, i: int):
    """Photo i of `seed` from tools/generators/table_photos.py: a Chicken Foot table, doubles
    crowded by their toes, from above or from a seat, with the boneyard's face-down tiles."""
    rng = np.random.default_rng([seed, i])
    table = table_photos.make_table(rng, size=KIND_SIZES[int(rng.integers(len(KIND_SIZES)))])
    return table.encode("jpeg", int(rng.integers(75, 95))), list(table.polygons), list(table.halves), list(table.backs)


GENERATORS = {"harsh": render_harsh, "kind": render_kind, "standing": render_standing, "table": render_table}


def as_box(truth: np.ndarray) -> np.ndarray:
    """A true tile's corners (top end first: g0 g1 at the top, g2 g3 at the bottom) in
    TileBox order, so that the box's top is the tile's first half."""
    g0, g1, g2, g3 = truth
    # (+u,+n), (-u,+n), (-u,-n), (+u,-n): the -n end is the top end (g0, g1)
    centre, u, n, _, _ = tile_net.frame(np.array([g2, g3, g0, g1]))
    ends = [g0, g1, g2, g3]
    plus_u = lambda p: float(np.dot(p - centre, u)) > 0  # noqa: E731
    top = sorted(ends[:2], key=plus_u)  # (-u, +u)
    bottom = sorted(ends[2:], key=plus_u)
    return np.array([bottom[1], bottom[0], top[0], top[1]])


def iou(a: np.ndarray, b: np.ndarray) -> float:
    pa, pb = a.astype(np.float32), b.astype(np.float32)
    inter, _ = cv2.intersectConvexConvex(pa, pb)
    union = abs(cv2.contourArea(pa)) + abs(cv2.contourArea(pb)) - inter
    return float(inter / union) if union > 0 else 0.0


def label(box: np.ndarray, truths: list[np.ndarray], halves: list[tuple[int, int]]):
    """(the largest overlap of `box` with a tile, as intersection over union; tile: 1, 0
    or -1 for in between; that tile's top and bottom pips as seen from the box; where
    the tile is in the box's frame: centre across and along in widths and lengths, log
    width and length ratios, turn; whether that is known: the box overlaps the tile by
    NEAR_IOU and lies along it within twice ALONG)."""
    best, k = 0.0, -1
    for j, t in enumerate(truths):
        v = iou(box, t)
        if v > best:
            best, k = v, j
    reg = np.zeros(5, np.float32)
    if k < 0 or best < NEAR_IOU:
        return best, 0, -1, -1, reg, False
    c, u, n, w, ln = tile_net.frame(box)
    tc, _, tn, tw, tl = tile_net.frame(truths[k])
    flipped = float(np.dot(n, tn)) < 0  # the box's top is the tile's second half
    if flipped:
        tn = -tn
    angle = math.atan2(float(n[0] * tn[1] - n[1] * tn[0]), float(np.dot(n, tn)))
    top, bottom = halves[k][::-1] if flipped else halves[k]
    d = tc - c
    reg[:] = [np.dot(d, u) / w, np.dot(d, n) / ln, math.log(tw / w), math.log(tl / ln), angle]
    tile = 1 if best >= TILE_IOU and abs(angle) <= ALONG else (0 if best < NO_TILE_IOU else -1)
    return best, tile, top, bottom, reg, abs(angle) <= 2 * ALONG


def moved(rng: np.random.Generator, box: np.ndarray, spread: float) -> np.ndarray:
    """`box` shifted, resized, turned and maybe flipped end for end, by up to `spread`."""
    c, u, n, w, ln = tile_net.frame(box)
    a = rng.normal(0, 0.15 * spread)
    n2 = np.array([math.cos(a) * n[0] - math.sin(a) * n[1], math.sin(a) * n[0] + math.cos(a) * n[1]])
    if rng.random() < 0.5:
        n2 = -n2
    c2 = c + rng.normal(0, 0.25 * spread) * w * u + rng.normal(0, 0.15 * spread) * ln * n
    return tile_net.box_corners(c2, n2, w * math.exp(rng.normal(0, 0.15 * spread)),
                                ln * math.exp(rng.normal(0, 0.12 * spread)))


def harvest_photo(args: tuple[str, int, int]) -> dict:
    generator, seed, i = args
    data, truth_photo, halves, backs = GENERATORS[generator](seed, i)
    photo = load_photo(data)
    records: list[tuple[np.ndarray, np.ndarray, int]] = []
    read_box, network_read = box_reading._read_box, network_look._read

    def recording_read_box(detail, box, f):
        records.append((detail, box.corners() / f, 0))
        return read_box(detail, box, f)

    def recording_network_read(detail, boxes, effort):
        records.extend((detail, b, 5) for b in boxes)
        return network_read(detail, boxes, effort)

    box_reading._read_box, network_look._read = recording_read_box, recording_network_read
    try:
        pipeline.read_photo(photo, data=data)
    finally:
        box_reading._read_box, network_look._read = read_box, network_read
    rng = np.random.default_rng([seed, i, 7])
    detail = photo.bgr
    truths = [as_box(t / photo.scale) for t in truth_photo]
    mine = [r for r in records if r[2] == 5]
    keep = set(rng.choice(len(mine), min(len(mine), NETWORK_BOXES), replace=False).tolist()) if mine else set()
    boxes = [r for r in records if r[2] != 5] + [r for k, r in enumerate(mine) if k in keep]
    for t in truths:
        boxes.append((detail, t, 1))
        boxes += [(detail, moved(rng, t, s), 1) for s in (0.5, 1.0, 1.0, 2.0, 3.0)]
        c, u, n, w, ln = tile_net.frame(t)
        for shift in (u * w, n * ln * 0.5, -n * ln * 0.5, u * w * 0.6):  # straddling a neighbour's place
            boxes.append((detail, t + shift * rng.uniform(0.8, 1.2), 2))
    for back in backs:  # tiles face down: a plain or printed back is no tile, nor is half of it and half
        t = as_box(np.asarray(back) / photo.scale)  # of what lies next to it (a face-up tile's end, in a row)
        boxes += [(detail, t, 4)] + [(detail, moved(rng, t, s), 4) for s in (0.5, 1.0)]
        c, u, n, w, ln = tile_net.frame(t)
        boxes += [(detail, t + shift * rng.uniform(0.8, 1.2), 4)
                  for shift in (u * w, -u * w, n * ln * 0.5, -n * ln * 0.5)]
    h, w = detail.shape[:2]
    if truths:
        tw = float(np.median([tile_net.frame(t)[3] for t in truths]))
        for _ in range(6):  # the bare table, tile-sized
            a = rng.uniform(0, math.pi)
            s = tw * math.exp(rng.normal(0, 0.3))
            boxes.append((detail, tile_net.box_corners(rng.uniform([0, 0], [w, h]), np.array([math.cos(a), math.sin(a)]),
                                                       s, 2 * s), 3))
    crops, ious, tiles, tops, bottoms, regs, reg_ok, kinds = [], [], [], [], [], [], [], []
    for img, box, kind in boxes:
        scale = photo.width / img.shape[1]
        ts = [t * photo.scale / scale for t in truths]
        overlap, tile, top, bottom, reg, ok = label(box, ts, halves)
        crops.append(tile_net.crop(img, box))
        ious.append(overlap)
        tiles.append(tile)
        tops.append(top)
        bottoms.append(bottom)
        regs.append(reg)
        reg_ok.append(ok)
        kinds.append(kind)
    return dict(crops=np.array(crops, np.uint8).reshape(-1, tile_net.IN_H, tile_net.IN_W, 3),
                iou=np.array(ious, np.float32), tile=np.array(tiles, np.int8),
                top=np.array(tops, np.int8), bottom=np.array(bottoms, np.int8),
                reg=np.array(regs, np.float32).reshape(-1, 5), reg_ok=np.array(reg_ok, bool),
                kind=np.array(kinds, np.int8), photo=np.full(len(boxes), i, np.int32))


def arguments(doc: str) -> argparse.Namespace:
    """The command line of a harvest (OUT N SEED [--jobs] [--generator]), described by
    `doc`; a seed of the benchmarks' is refused: their photos must stay unseen."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("n", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--generator", choices=sorted(GENERATORS), default="harsh")
    args = ap.parse_args()
    if args.seed in BENCH_SEEDS[args.generator]:
        sys.exit(f"seeds {sorted(BENCH_SEEDS[args.generator])} are the benchmark's: pick another")
    return args


def main() -> None:
    args = arguments(__doc__)
    parts = []
    with Pool(args.jobs) as pool:
        for k, part in enumerate(pool.imap(harvest_photo, [(args.generator, args.seed, i) for i in range(args.n)])):
            parts.append(part)
            if k % 20 == 0:
                print(f"{k + 1}/{args.n} photos, {sum(len(p['tile']) for p in parts)} boxes", flush=True)
    out = {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
    np.savez_compressed(args.out, **out)
    t = out["tile"]
    print(f"{len(t)} boxes: {int((t == 1).sum())} tiles, {int((t == 0).sum())} not, {int((t == -1).sum())} between")


if __name__ == "__main__":
    main()
