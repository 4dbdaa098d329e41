#!/usr/bin/env python3
"""Train the tile network (vision/tile_net.py) on harvested boxes and write its weights.

    python -m tools.training.harvest /tmp/boxes-100.npz 1200 100
    python -m tools.training.train_tile_net vision/tile_net.onnx /tmp/boxes-100.npz [...] [--epochs 12]
    python -m tools.training.train_tile_net --help

Run from the repository root. Needs PyTorch and onnx (CPU is enough: `pip install torch
onnx`), which the app does not: the network is written as ONNX and run by ONNX Runtime
(vision/tile_net.py). The last tenth of each file's photos is held out; their figures are
printed after each epoch. Deterministic for a given --seed (one thread).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from vision.tile_net import COUNTS, IN_H, IN_W, normalise

CHANNELS = (16, 32, 64, 64)
HIDDEN = 96


class TileNet(nn.Module):
    """Four 3x3 convolutions (batch norm, ReLU; the first three of stride 2), a hidden
    layer, and five answers: a tile in the box or not, a tile near it or not (a logit
    each), the top half's and the bottom half's pips (13 logits each), and where the tile
    is in the box (5 numbers)."""

    def __init__(self) -> None:
        super().__init__()
        layers, c_in = [], 3
        for k, c in enumerate(CHANNELS):
            layers += [nn.Conv2d(c_in, c, 3, stride=2 if k < 3 else 1, padding=1, bias=False),
                       nn.BatchNorm2d(c), nn.ReLU()]
            c_in = c
        self.trunk = nn.Sequential(*layers)
        flat = CHANNELS[-1] * (IN_H // 8) * (IN_W // 8)
        self.hidden = nn.Linear(flat, HIDDEN)
        self.head = nn.Linear(HIDDEN, 2 + 2 * COUNTS + 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(F.relu(self.hidden(self.trunk(x).flatten(1))))


#: A box is near a tile (worth moving onto it) when it overlaps one by this much (as
#: intersection over union) and lies along it; it is not near one under NOT_NEAR.
NEAR, NOT_NEAR = 0.15, 0.05


def load(paths: list[Path], held_out: float = 0.1) -> tuple[dict, dict]:
    """The boxes of the harvested files, the last `held_out` of each file's photos apart,
    with their 'near a tile' label (1, 0, or -1 for in between)."""
    train, test = [], []
    for p in paths:
        d = dict(np.load(p))
        if "iou" in d:
            d["near"] = np.where(d["reg_ok"] & (d["iou"] >= NEAR), 1, np.where(d["iou"] < NOT_NEAR, 0, -1))
        else:  # a harvest without the overlaps: near is not known
            d["iou"] = np.full(len(d["tile"]), np.nan, np.float32)
            d["near"] = np.full(len(d["tile"]), -1)
        d["near"] = d["near"].astype(np.int8)
        photos = d["photo"]
        cut = np.quantile(np.unique(photos), 1 - held_out)
        for part, sel in ((train, photos < cut), (test, photos >= cut)):
            part.append({k: v[sel] for k, v in d.items()})
    join = lambda parts: {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}  # noqa: E731
    return join(train), join(test)


def augment(x: torch.Tensor, top: torch.Tensor, bottom: torch.Tensor, reg: torch.Tensor, g: torch.Generator):
    """Batch x (N, H, W, 3 uint8) -> float (N, 3, H, W), with the labels it changes:
    turned end for end (halves swap, the tile's place turns), mirrored, colours
    permuted or inverted (black tiles, pink tiles), light and contrast changed, noise."""
    n = x.shape[0]
    x = x.float() / 255.0
    top, bottom, reg = top.clone(), bottom.clone(), reg.clone()
    turn = torch.rand(n, generator=g) < 0.5
    x[turn] = torch.flip(x[turn], dims=(1, 2))
    top[turn], bottom[turn] = bottom[turn], top[turn].clone()
    reg[turn, 0] *= -1
    reg[turn, 1] *= -1
    mirror = torch.rand(n, generator=g) < 0.5
    x[mirror] = torch.flip(x[mirror], dims=(2,))
    reg[mirror, 0] *= -1
    reg[mirror, 4] *= -1
    perm = torch.stack([torch.randperm(3, generator=g) for _ in range(n)])
    x = torch.gather(x, 3, perm[:, None, None, :].expand(-1, x.shape[1], x.shape[2], -1))
    invert = torch.rand(n, generator=g) < 0.15
    x[invert] = 1.0 - x[invert]
    gamma = torch.exp(torch.randn(n, 1, 1, 1, generator=g) * 0.25)
    x = x.clamp(1e-4, 1) ** gamma
    x = x * (1 + 0.25 * torch.randn(n, 1, 1, 1, generator=g)) + 0.1 * torch.randn(n, 1, 1, 1, generator=g)
    x = x + torch.randn(x.shape, generator=g) * (0.03 * torch.rand(n, 1, 1, 1, generator=g))
    return normalise(x.permute(0, 3, 1, 2)), top, bottom, reg


def losses(out: torch.Tensor, tile, near, top, bottom, reg, reg_ok):
    logit, near_logit = out[:, 0], out[:, 1]
    t_logits, b_logits, r = out[:, 2:2 + COUNTS], out[:, 2 + COUNTS:2 + 2 * COUNTS], out[:, -5:]
    known = tile >= 0
    l_tile = F.binary_cross_entropy_with_logits(logit[known], tile[known].float())
    known = near >= 0
    l_near = F.binary_cross_entropy_with_logits(near_logit[known], near[known].float())
    pos = tile == 1
    l_count = (F.cross_entropy(t_logits[pos], top[pos].long()) + F.cross_entropy(b_logits[pos], bottom[pos].long())
               if pos.any() else out.sum() * 0)
    l_reg = F.smooth_l1_loss(r[reg_ok], reg[reg_ok], beta=0.1) if reg_ok.any() else out.sum() * 0
    return l_tile, l_near, l_count, l_reg


def evaluate(model: TileNet, d: dict) -> str:
    model.eval()
    with torch.no_grad():
        x = torch.from_numpy(d["crops"]).float() / 255.0
        out = torch.cat([model(normalise(x[i:i + 2048].permute(0, 3, 1, 2))) for i in range(0, len(x), 2048)])
    model.train()
    p, near = torch.sigmoid(out[:, 0]).numpy(), torch.sigmoid(out[:, 1]).numpy()
    tile = d["tile"]
    pos, neg = tile == 1, tile == 0
    top = out[:, 2:2 + COUNTS].argmax(1).numpy()
    bottom = out[:, 2 + COUNTS:2 + 2 * COUNTS].argmax(1).numpy()
    both = (top == d["top"]) & (bottom == d["bottom"])
    exact = d["kind"] == 1
    reg_err = np.abs(out[:, -5:].numpy() - d["reg"])[d["reg_ok"]].mean(axis=0)
    return (f"tile: {100 * (p[pos] > 0.5).mean():.1f} % of tiles, {100 * (p[neg] > 0.5).mean():.2f} % of others; "
            f"near: {100 * (near[d['near'] == 1] > 0.5).mean():.1f} % of near, "
            f"{100 * (near[d['near'] == 0] > 0.5).mean():.2f} % of far; "
            f"both halves right: {100 * both[pos].mean():.1f} % of tiles, {100 * both[pos & exact].mean():.1f} % of "
            f"exact boxes; place error {np.round(reg_err, 3).tolist()}")


def export(model: TileNet, path: Path) -> None:
    """The network in evaluation mode as ONNX (batch norms folded into the convolutions),
    for ONNX Runtime (vision/tile_net.py), with any number of crops a batch."""
    model.eval()
    torch.onnx.export(model, torch.zeros(1, 3, IN_H, IN_W), str(path), dynamo=False, opset_version=13,
                      input_names=["crops"], output_names=["answers"],
                      dynamic_axes={"crops": {0: "n"}, "answers": {0: "n"}})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("data", type=Path, nargs="+")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    g = torch.Generator().manual_seed(args.seed)
    train, test = load(args.data)
    print(f"{len(train['tile'])} boxes to train on, {len(test['tile'])} held out", flush=True)
    model = TileNet()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = args.epochs * (len(train["tile"]) // args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.15)
    t = {k: torch.from_numpy(v) for k, v in train.items()}
    for epoch in range(args.epochs):
        started = time.time()
        order = torch.randperm(len(t["tile"]), generator=g)
        total = np.zeros(4)
        for s in range(len(order) // args.batch):
            idx = order[s * args.batch:(s + 1) * args.batch]
            x, top, bottom, reg = augment(t["crops"][idx], t["top"][idx], t["bottom"][idx], t["reg"][idx], g)
            parts = losses(model(x), t["tile"][idx], t["near"][idx], top, bottom, reg, t["reg_ok"][idx])
            loss = parts[0] + 0.5 * parts[1] + parts[2] + 2.0 * parts[3]
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += [float(p.detach()) for p in parts]
        total /= max(1, len(order) // args.batch)
        print(f"epoch {epoch + 1}: losses {np.round(total, 4).tolist()} ({time.time() - started:.0f} s)", flush=True)
        print("  held out:", evaluate(model, test), flush=True)
    export(model, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
