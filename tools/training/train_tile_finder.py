#!/usr/bin/env python3
"""Train the tile finder (vision/tile_finder.py) on harvested photos and write its weights.

    python -m tools.training.harvest_finder /tmp/f200.npz 1400 200
    python -m tools.training.harvest_finder /tmp/f12.npz 500 12 --generator kind
    python -m tools.training.harvest_finder /tmp/f13.npz 1000 13 --generator kind
    python -m tools.training.train_tile_finder vision/tile_finder.onnx /tmp/f200.npz /tmp/f12.npz /tmp/f13.npz \
        --epochs 20 --crops 4800
    python -m tools.training.train_tile_finder --help

Run from the repository root. Needs PyTorch and onnx, as train_tile_net.py does. Each step shows the network crops of
CROP x CROP pixels cut about a tile (or anywhere, one in four), the photo shrunk so that
tile is 10 to 70 pixels wide, turned, mirrored and its light changed. A tile NARROWEST
to WIDEST pixels wide is to be found (the centre of a bump of chances at its centre, its
size and axis there); one a little outside that range is left to the network's choice
(it is found at another level); tiles farther outside, tiles face down and the table are
not tiles. The last twentieth of each file's photos is held out: the share of its tiles
found, and the boxes found where no tile is, are printed after each epoch.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from vision.tile_finder import FOUND, NARROWEST, OUTPUTS, STRIDE, WIDEST, prepared

CROP = 256
#: Tiles this much narrower or wider than the range are left to the network's choice.
MARGIN = 1.3
TRUNK = (16, 24, 32)
DILATIONS = (1, 2, 4, 8)


def block(c_in: int, c_out: int, stride: int = 1, dilation: int = 1) -> list[nn.Module]:
    return [nn.Conv2d(c_in, c_out, 3, stride, padding=dilation, dilation=dilation, bias=False),
            nn.BatchNorm2d(c_out), nn.ReLU()]


class TileFinder(nn.Module):
    """Three 3x3 convolutions of stride 2 (to the STRIDE of 8), four more dilated 1 to 8
    times (they see 255 pixels about each cell: a tile WIDEST wide, end to end, with the
    table about it), and a 1x1 convolution giving the OUTPUTS answers per cell."""

    def __init__(self) -> None:
        super().__init__()
        a, b, c = TRUNK
        layers = block(3, a, 2) + block(a, b, 2) + block(b, c, 2)
        for d in DILATIONS:
            layers += block(c, c, 1, d)
        self.body = nn.Sequential(*layers, nn.Conv2d(c, OUTPUTS, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)


def frames(tiles: np.ndarray) -> np.ndarray:
    """Per tile (corners top end first): centre x, y, width, length, axis angle."""
    if len(tiles) == 0:
        return np.zeros((0, 5), np.float32)
    c = tiles.mean(axis=1)
    along = (tiles[:, 2] + tiles[:, 3]) / 2 - (tiles[:, 0] + tiles[:, 1]) / 2
    length = np.hypot(*along.T)
    width = (np.hypot(*(tiles[:, 0] - tiles[:, 1]).T) + np.hypot(*(tiles[:, 2] - tiles[:, 3]).T)) / 2
    return np.column_stack([c, width, length, np.arctan2(along[:, 1], along[:, 0])]).astype(np.float32)


def targets(fr: np.ndarray, cells: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The heat wanted per cell, where it counts, the sizes and axes wanted, and where
    they count, for tiles `fr` (frames on the crop)."""
    heat = np.zeros((cells, cells), np.float32)
    mask = np.ones((cells, cells), np.float32)
    reg = np.zeros((OUTPUTS - 1, cells, cells), np.float32)
    reg_w = np.zeros((cells, cells), np.float32)
    ys, xs = np.mgrid[0:cells, 0:cells].astype(np.float32) + 0.5
    for cx, cy, w, ln, ang in fr:
        gx, gy = cx / STRIDE, cy / STRIDE
        if not (-2 <= gx < cells + 2 and -2 <= gy < cells + 2) or not (NARROWEST / MARGIN <= w <= WIDEST * MARGIN):
            continue
        d2 = (xs - gx) ** 2 + (ys - gy) ** 2
        if not NARROWEST <= w <= WIDEST:
            mask[d2 < (w / STRIDE) ** 2] = 0.0
            continue
        sigma = max(0.5, w / (5 * STRIDE))
        g = np.exp(-d2 / (2 * sigma ** 2))
        i, j = int(gy), int(gx)
        if 0 <= i < cells and 0 <= j < cells:
            g[i, j] = 1.0
        near = (g >= 0.3) & (g > reg_w)
        reg[:, near] = np.array([0, 0, math.log(w / (2 * STRIDE)), math.log(ln / w),
                                 math.cos(2 * ang), math.sin(2 * ang)], np.float32)[:, None]
        reg[0][near] = gx - xs[near]
        reg[1][near] = gy - ys[near]
        reg_w[near] = g[near]
        heat = np.maximum(heat, g)
    return heat, mask, reg, reg_w


def turned(image: np.ndarray, tiles: np.ndarray, k: int, flip: bool) -> tuple[np.ndarray, np.ndarray]:
    """The image and tiles' corners turned k quarter turns and mirrored."""
    h, w = image.shape[:2]
    t = tiles.copy()
    if flip:
        image = image[:, ::-1]
        t[..., 0] = w - t[..., 0]
    for _ in range(k):
        h, w = image.shape[:2]
        image = np.rot90(image)  # counter-clockwise: (x, y) -> (y, w - x)
        t = np.stack([t[..., 1], w - t[..., 0]], axis=-1)
    return np.ascontiguousarray(image), t


def sample(rng: np.random.Generator, image: np.ndarray, tiles: np.ndarray, backs: np.ndarray):
    """One training crop of a photo: (crop BGR, heat, mask, reg, reg_w)."""
    fr = frames(tiles)
    if len(fr) and rng.random() < 0.75:
        k = int(rng.integers(len(fr)))
        scale = math.exp(rng.uniform(math.log(10), math.log(70))) / max(fr[k, 2], 1.0)
        centre = fr[k, :2] * scale + rng.uniform(-0.4, 0.4, 2) * CROP
    else:
        scale = math.exp(rng.uniform(math.log(0.1), math.log(1.1)))
        centre = None
    scale = min(scale, 1.5)
    h, w = image.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    t = tiles * scale
    small, t = turned(small, t, int(rng.integers(4)), bool(rng.random() < 0.5))
    h, w = small.shape[:2]
    if centre is None:
        x0, y0 = rng.uniform(min(0, w - CROP), max(0, w - CROP)), rng.uniform(min(0, h - CROP), max(0, h - CROP))
    else:  # the tile's centre after turning: find it again
        c = frames(t[k:k + 1])[0, :2]
        x0, y0 = c - CROP / 2 + rng.uniform(-0.4, 0.4, 2) * CROP
    x0, y0 = int(x0), int(y0)
    crop = np.full((CROP, CROP, 3), 128, np.uint8)
    sx0, sy0, sx1, sy1 = max(0, x0), max(0, y0), min(w, x0 + CROP), min(h, y0 + CROP)
    cells = CROP // STRIDE
    if sx1 > sx0 and sy1 > sy0:
        crop[sy0 - y0:sy1 - y0, sx0 - x0:sx1 - x0] = small[sy0:sy1, sx0:sx1]
    heat, mask, reg, reg_w = targets(frames(t - np.float32([x0, y0])), cells)
    outside = np.ones((CROP, CROP), np.float32)
    if sx1 > sx0 and sy1 > sy0:
        outside[sy0 - y0:sy1 - y0, sx0 - x0:sx1 - x0] = 0
    mask *= cv2.resize(outside, (cells, cells), interpolation=cv2.INTER_AREA) < 0.5
    return lit(rng, crop), heat, mask, reg, reg_w


def lit(rng: np.random.Generator, crop: np.ndarray) -> np.ndarray:
    """The crop in another light, sometimes blurred or noisier."""
    x = crop.astype(np.float32)
    x = (x - x.mean()) * rng.uniform(0.6, 1.4) + x.mean() + rng.uniform(-35, 35)
    x = x * rng.uniform(0.8, 1.2, 3)
    if rng.random() < 0.2:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.5, 1.5))
    if rng.random() < 0.3:
        x = x + rng.normal(0, rng.uniform(2, 8), x.shape)
    return np.clip(x, 0, 255).astype(np.uint8)


def focal(logit: torch.Tensor, heat: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The centre heat's focal loss (as CenterNet's): sure misses cost most."""
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = (heat >= 1.0).float() * mask
    neg = (1 - pos) * mask
    loss = -(torch.log(p) * (1 - p) ** 2 * pos + torch.log(1 - p) * p ** 2 * (1 - heat) ** 4 * neg).sum()
    return loss / pos.sum().clamp(min=1)


def load(paths: list[Path]) -> tuple[list, list]:
    train, held = [], []
    for p in paths:
        d = np.load(p, allow_pickle=True)
        photos = [(cv2.imdecode(np.frombuffer(im, np.uint8), cv2.IMREAD_COLOR), t.astype(np.float32),
                   b.astype(np.float32)) for im, t, b in zip(d["images"], d["tiles"], d["backs"])]
        cut = len(photos) - max(1, len(photos) // 20)
        train += photos[:cut]
        held += photos[cut:]
    return train, held


def held_out(model: TileFinder, held: list) -> tuple[float, int]:
    """The share of the held-out photos' tiles found (a box within a third of its width of
    the tile's centre, at the level the tile is NARROWEST to WIDEST wide), and the boxes
    found far from any tile."""
    import vision.tile_finder as tf
    model.eval()
    hits = tiles = false = 0
    with torch.no_grad():
        for image, t, _ in held:
            fr = frames(t)
            h, w = image.shape[:2]
            for side in tf.LEVELS:
                f = side / max(h, w)
                seen = cv2.resize(image, (max(STRIDE, round(w * f)), max(STRIDE, round(h * f))),
                                  interpolation=cv2.INTER_AREA)
                out = model(torch.from_numpy(prepared(seen))).numpy()[0]
                boxes = [tf_frame(b) for b, _ in tf._peaks(out)]
                here = fr[(fr[:, 2] * f >= NARROWEST) & (fr[:, 2] * f <= WIDEST)]
                tiles += len(here)
                for cx, cy, wd, *_ in here:
                    hits += any(math.hypot(bx - cx * f, by - cy * f) < wd * f / 3 for bx, by in boxes)
                for bx, by in boxes:
                    false += not any(math.hypot(bx - cx * f, by - cy * f) < wd * f for cx, cy, wd, *_ in fr)
    model.train()
    return hits / max(tiles, 1), false


def tf_frame(corners: np.ndarray) -> tuple[float, float]:
    c = corners.mean(axis=0)
    return float(c[0]), float(c[1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("data", type=Path, nargs="+")
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--crops", type=int, default=6000, help="crops an epoch")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    train, held = load(args.data)
    print(f"{len(train)} photos to train on, {len(held)} held out", flush=True)
    model = TileFinder()
    steps = args.epochs * (args.crops // args.batch)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    for epoch in range(args.epochs):
        started, total = time.time(), 0.0
        for _ in range(args.crops // args.batch):
            batch = [sample(rng, *train[int(rng.integers(len(train)))]) for _ in range(args.batch)]
            x = torch.from_numpy(np.concatenate([prepared(b[0]) for b in batch]))
            heat, mask, reg, reg_w = (torch.from_numpy(np.stack([b[k] for b in batch])) for k in range(1, 5))
            out = model(x)
            loss_heat = focal(out[:, 0], heat, mask)
            diff = nn.functional.smooth_l1_loss(out[:, 1:], reg, reduction="none", beta=0.2).sum(dim=1)
            loss_reg = (diff * reg_w).sum() / reg_w.sum().clamp(min=1)
            loss = loss_heat + loss_reg
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss)
        found, false = held_out(model, held)
        print(f"epoch {epoch + 1}: loss {total / (args.crops // args.batch):.3f}, held out: "
              f"{found:.1%} of tiles found, {false} boxes off tiles ({time.time() - started:.0f} s)", flush=True)
    model.eval()
    torch.onnx.export(model, torch.zeros(1, 3, CROP, CROP), args.out, input_names=["photo"], output_names=["cells"],
                      dynamic_axes={"photo": {2: "h", 3: "w"}}, opset_version=13, dynamo=False)
    print(f"wrote {args.out} (found from {FOUND:.0%})")


if __name__ == "__main__":
    main()
