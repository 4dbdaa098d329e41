#!/usr/bin/env python3
"""Photos with their tiles' outlines, to train the tile finder (vision/tile_finder.py) on.

    python -m tools.training.harvest_finder --help
    python -m tools.training.harvest_finder OUT.npz N SEED [--generator harsh|kind] [--jobs 2]

Run from the repository root. Renders N photos as harvest.py does (the same generators and refused seeds), shrinks each
to FINDER_SIDE pixels on its longer side, and keeps it as a JPEG with the corners of its
tiles lying face up (top end first) and of those lying face down, at that size. Nothing
here is shipped.
"""

from __future__ import annotations

from multiprocessing import Pool

import cv2
import numpy as np

from tools.training import harvest

#: The longer side the photos are kept at: the finder's finest working size.
FINDER_SIDE = 1024


def harvest_photo(args: tuple[str, int, int]) -> tuple[bytes, np.ndarray, np.ndarray]:
    generator, seed, i = args
    data, corners, _, backs = harvest.GENERATORS[generator](seed, i)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    f = FINDER_SIDE / max(image.shape[:2])
    small = cv2.resize(image, (round(image.shape[1] * f), round(image.shape[0] * f)), interpolation=cv2.INTER_AREA)
    ok, jpeg = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    as_array = lambda polys: np.array(polys, np.float32).reshape(-1, 4, 2) * f  # noqa: E731
    return jpeg.tobytes(), as_array(corners), as_array(backs)


def main() -> None:
    args = harvest.arguments(__doc__)
    with Pool(args.jobs) as pool:
        photos = pool.map(harvest_photo, [(args.generator, args.seed, i) for i in range(args.n)], chunksize=4)
    images, tiles, backs = zip(*photos)
    np.savez(args.out, images=np.array(images, dtype=object), tiles=np.array(tiles, dtype=object),
             backs=np.array(backs, dtype=object))
    print(f"{args.out}: {len(images)} photos, {sum(len(t) for t in tiles)} tiles")


if __name__ == "__main__":
    main()
