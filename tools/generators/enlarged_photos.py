"""Photos of a folder enlarged to 12 MP, as a phone's main camera takes them: the photos the
speed figures of docs/vision.md are measured on.

    .venv/bin/python -m tools.generators.enlarged_photos OUT_DIR [FOLDER] [--draws N]

Run from the repository root. Every photo listed in FOLDER's MANIFEST.tsv (../shared/photos
by default) is enlarged by cubic interpolation to 12 megapixels, its shape kept, and saved
in OUT_DIR as a JPEG of quality 92, with a MANIFEST.tsv of the same tiles. With --draws N,
each photo is saved N times instead, each copy with its own draw of a camera's noise
(Gaussian, 3 levels of 255, seeds 0 to N-1): the counter must read every draw in time, not
only the smooth enlargement. Enlarged, the real photos' scenes (wood grain, cloth, packed
blocks of tiles) are timed at the size a phone sends.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_FOLDER = ROOT.parent / "shared" / "photos"


def enlarged(path: Path, megapixels: float = 12.0, noise: int | None = None) -> bytes:
    """The photo at `path` enlarged (cubic) to `megapixels`, a JPEG of quality 92; with a
    `noise` seed, a draw of the camera's noise added (3 levels of 255)."""
    image = cv2.imread(str(path))
    k = (megapixels * 1e6 / (image.shape[0] * image.shape[1])) ** 0.5
    big = cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC)
    if noise is not None:
        big = np.clip(big + np.random.default_rng(noise).normal(0, 3, big.shape), 0, 255).astype(np.uint8)
    return cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("folder", nargs="?", type=Path, default=DEFAULT_FOLDER)
    ap.add_argument("--draws", type=int, metavar="N", help="N copies of each photo, each with a draw of noise")
    args = ap.parse_args(argv)
    with open(args.folder / "MANIFEST.tsv", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    args.out.mkdir(parents=True, exist_ok=True)
    manifest = []
    for row in rows:
        stem = row["file"].replace("/", "__").rsplit(".", 1)[0]
        for noise in range(args.draws) if args.draws else [None]:
            name = f"{stem}.jpg" if noise is None else f"{stem}_noise{noise}.jpg"
            (args.out / name).write_bytes(enlarged(args.folder / row["file"], noise=noise))
            manifest.append({"file": name, "tiles": row["tiles"]})
    with open(args.out / "MANIFEST.tsv", "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=["file", "tiles"], delimiter="\t")
        writer.writeheader()
        writer.writerows(manifest)
    print(f"{args.out}: {len(manifest)} photos of 12 MP")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
