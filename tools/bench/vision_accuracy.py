"""Accuracy and speed of the photo pip counter (run by hand from the repository root, not
by pytest).

    .venv/bin/python -m tools.bench.vision_accuracy --help
    .venv/bin/python -m tools.bench.vision_accuracy                 # ../shared/photos
    .venv/bin/python -m tools.bench.vision_accuracy FOLDER          # any folder with a MANIFEST.tsv
    .venv/bin/python -m tools.bench.vision_accuracy --synthetic 60  # generated photos
    .venv/bin/python -m tools.bench.vision_accuracy --standing 40 --seed 7  # hands standing on edge
    .venv/bin/python -m tools.bench.vision_accuracy --augment 7     # the folder turned, resized, relit
    .venv/bin/python -m tools.bench.vision_accuracy --speed-only

A folder holds photos and a MANIFEST.tsv whose columns include `file` and `tiles`
(`a-b a-b ...`). A reading is right when the multiset of tiles matches exactly. Prints
tiles right / missed / invented (as % of the true tiles), hands right %, totals right %,
the fraction of wrong tiles that were flagged low-confidence, and the time to read a 12 MP
JPEG divided by the time cv2.imdecode takes to decode it at full size (one core), on a
synthetic photo and on photos of the folder enlarged to 12 MP.

`--augment SEED` scores copies of the folder's photos, each turned by a random angle,
resized (0.6 to 1.4 times), its light changed (gamma 0.75 to 1.33) and saved again as
JPEG: a counter tuned to these photos' exact framing does worse there, so it is a fairer
guess at photos never seen than the folder itself.
"""

from __future__ import annotations

import argparse
import csv
import tempfile
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

import vision
from vision.result import LOW_CONFIDENCE

ROOT = Path(__file__).resolve().parents[2]

DEFAULT_FOLDER = ROOT.parent / "shared" / "photos"


def parse_tiles(text: str) -> list[tuple[int, int]]:
    out = []
    for tok in text.split():
        a, b = tok.split("-")
        a, b = int(a), int(b)
        out.append((max(a, b), min(a, b)))
    return out


def read_manifest(folder: Path) -> list[tuple[str, list[tuple[int, int]]]]:
    with open(folder / "MANIFEST.tsv", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    return [(r["file"], parse_tiles(r["tiles"])) for r in rows]


def score(folder: Path, verbose: bool = False, out_dir: Path | None = None) -> dict:
    rows = read_manifest(folder)
    n_true = n_right = n_missed = n_invented = 0
    hands_right = totals_right = 0
    wrong_tiles = wrong_flagged = 0
    right_tiles = right_flagged = 0
    errors = 0
    seconds = []
    for name, truth in rows:
        path = folder / name
        try:
            hand = vision.read_hand(path.read_bytes())
        except vision.PhotoError as exc:
            errors += 1
            n_true += len(truth)
            n_missed += len(truth)
            print(f"ERROR {name}: {exc}")
            continue
        seconds.append(hand.seconds)
        got = [(t.a, t.b) for t in hand.tiles]
        tc, gc = Counter(truth), Counter(got)
        right = sum((tc & gc).values())
        n_true += len(truth)
        n_right += right
        n_missed += len(truth) - right
        n_invented += len(got) - right
        ok = tc == gc
        hands_right += ok
        totals_right += sum(a + b for a, b in truth) == hand.pips
        remaining = Counter(truth)
        for t in hand.tiles:
            key = (t.a, t.b)
            if remaining[key] > 0:
                remaining[key] -= 1
                right_tiles += 1
                right_flagged += t.low_confidence
            else:
                wrong_tiles += 1
                wrong_flagged += t.low_confidence
        if verbose and not ok:
            miss = sorted((tc - gc).elements())
            extra = [(t.a, t.b, t.confidence) for t in hand.tiles if (gc - tc)[(t.a, t.b)] > 0]
            print(f"WRONG {name}: missed {miss} invented {extra}")
        if out_dir is not None:
            out_dir.mkdir(parents=True, exist_ok=True)
            (out_dir / (name.replace("/", "__") + ".annotated.jpg")).write_bytes(hand.annotated())
    pct = lambda a, b: 100.0 * a / b if b else float("nan")  # noqa: E731
    res = {
        "photos": len(rows),
        "tiles": n_true,
        "tiles_right": n_right,
        "hands_right": hands_right,
        "tiles_right_pct": pct(n_right, n_true),
        "tiles_missed_pct": pct(n_missed, n_true),
        "tiles_invented_pct": pct(n_invented, n_true),
        "hands_right_pct": pct(hands_right, len(rows)),
        "totals_right_pct": pct(totals_right, len(rows)),
        "wrong_tiles": wrong_tiles,
        "wrong_low_conf_pct": pct(wrong_flagged, wrong_tiles),
        "right_low_conf_pct": pct(right_flagged, right_tiles),
        "unreadable": errors,
        "median_seconds": float(np.median(seconds)) if seconds else float("nan"),
    }
    return res


def twelve_megapixel_photos(folder: Path, n: int) -> list[tuple[str, bytes]]:
    """The speed goal's 12 MP JPEGs: two synthetic photos (12 tiles, and 20, the most a
    hand holds: small tiles, looked at twice), up to `n` of the folder's photos
    enlarged to 12 MP with a little sensor-like noise (their files then weigh 1 to 3 MB,
    a phone's 2.5 to 5, which takes longer to decode: the ratio is the harder here; and
    their scenes are real: wood grain, cloth, many boxes to try),
    and every JPEG of the folder that is 12 MP already, as it is (tools/generators/harsh_photos.py
    makes some: busy cloths, small tiles, the hardest scenes to read fast)."""
    from PIL import Image

    from tools.bench.speed_ratio import as_a_phone_stores_it
    from tools.generators.synthetic_photos import make_photo

    cv2.setNumThreads(1)
    rng = np.random.default_rng(12)
    photos = [("synthetic", make_photo(rng, n_tiles=12, size=(4000, 3000)).encode("jpeg", quality=92)),
              ("synthetic, 20 tiles",
               make_photo(np.random.default_rng(20), n_tiles=20, size=(4000, 3000)).encode("jpeg", quality=92))]
    rows = read_manifest(folder) if (folder / "MANIFEST.tsv").exists() else []
    for i in sorted(rng.choice(len(rows), min(n, len(rows)), replace=False)) if rows else []:
        img = cv2.imread(str(folder / rows[i][0]), cv2.IMREAD_COLOR)
        if img is None:
            continue
        k = np.sqrt(12e6 / (img.shape[0] * img.shape[1]))  # its own shape kept
        size = (round(img.shape[1] * k), round(img.shape[0] * k))
        photos.append((rows[i][0], as_a_phone_stores_it(img, size, rng)))
    for name, _ in rows:
        if Path(name).suffix.lower() in (".jpg", ".jpeg"):
            with Image.open(folder / name) as im:
                if im.width * im.height >= 11.5e6:
                    photos.append((f"{name} (12 MP as it is)", (folder / name).read_bytes()))
    return photos


def speed(photos: list[tuple[str, bytes]], repeats: int = 5) -> list[dict]:
    """For each photo, the best of `repeats` reads and of as many full-size decodes, and
    their ratio. Each decode is timed twice, alone in a loop before any read and just
    before each read: in one process the second is slower (its 36 MB output costs more
    page faults once a photo has been read), so both ratios are given."""
    cv2.setNumThreads(1)
    out = []
    for name, data in photos:
        buf = np.frombuffer(data, np.uint8)
        alone = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            cv2.imdecode(buf, cv2.IMREAD_COLOR)
            alone.append(time.perf_counter() - t0)
        vision.read_hand(data)  # warm up
        t_dec, t_read = [], []
        for _ in range(repeats):
            t0 = time.perf_counter()
            cv2.imdecode(buf, cv2.IMREAD_COLOR)
            t1 = time.perf_counter()
            vision.read_hand(data)
            t2 = time.perf_counter()
            t_dec.append(t1 - t0)
            t_read.append(t2 - t1)
        r = min(t_read)
        out.append({"photo": name, "jpeg_bytes": len(data), "read_s": r, "decode_alone_s": min(alone),
                    "decode_between_s": min(t_dec), "ratio_alone": r / min(alone), "ratio_between": r / min(t_dec)})
    return out


def augment_folder(src: Path, dst: Path, seed: int) -> None:
    """Copies of `src`'s photos, turned, resized and relit, with the same MANIFEST.tsv."""
    from tools.generators.synthetic_photos import turned_jpeg

    rng = np.random.default_rng(seed)
    rows = read_manifest(src)
    for name, _ in rows:
        angle = float(rng.uniform(0, 360))
        zoom = float(rng.uniform(0.6, 1.4))
        gamma = float(np.exp(rng.uniform(np.log(0.75), np.log(1.33))))
        target = dst / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.with_suffix(".jpg").write_bytes(turned_jpeg((src / name).read_bytes(), angle, zoom, gamma))
    with open(src / "MANIFEST.tsv", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    with open(dst / "MANIFEST.tsv", "w", newline="") as fh:
        out_rows = csv.DictWriter(fh, fieldnames=["file", "tiles"], delimiter="\t", extrasaction="ignore")
        out_rows.writeheader()
        for r in rows:
            out_rows.writerow({"file": str(Path(r["file"]).with_suffix(".jpg")), "tiles": r["tiles"]})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", nargs="?", type=Path, default=DEFAULT_FOLDER)
    ap.add_argument("--synthetic", type=int, metavar="N", help="generate N synthetic photos and score them")
    ap.add_argument("--standing", type=int, metavar="N",
                    help="render N hands standing on edge, seen from the seat (tools/generators/standing_hands.py)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--augment", type=int, metavar="SEED", help="score turned, resized, relit copies of the folder")
    ap.add_argument("--speed-only", action="store_true")
    ap.add_argument("--no-speed", action="store_true")
    ap.add_argument("--speed-photos", type=int, default=12, metavar="N",
                    help="how many of the folder's photos, enlarged to 12 MP, the speed is measured on (default 12)")
    ap.add_argument("--verbose", "-v", action="store_true", help="list every wrong hand")
    ap.add_argument("--annotated", type=Path, metavar="DIR", help="write annotated JPEGs here")
    args = ap.parse_args(argv)

    if not args.speed_only:
        if args.synthetic:
            from tools.generators.synthetic_photos import write_folder

            tmp = tempfile.TemporaryDirectory()
            folder = Path(tmp.name)
            write_folder(folder, args.synthetic, seed=args.seed)
        elif args.standing:
            from tools.generators.standing_hands import write_folder as write_standing

            tmp = tempfile.TemporaryDirectory()
            folder = Path(tmp.name)
            write_standing(folder, args.standing, args.seed)
        elif args.augment is not None:
            tmp = tempfile.TemporaryDirectory()
            folder = Path(tmp.name)
            augment_folder(args.folder, folder, args.augment)
        else:
            folder = args.folder
        if not (folder / "MANIFEST.tsv").exists():
            print(f"no MANIFEST.tsv in {folder}")
            return 2
        res = score(folder, verbose=args.verbose, out_dir=args.annotated)
        if args.synthetic:
            print(f"folder: synthetic ({args.synthetic} photos, seed {args.seed})")
        elif args.standing:
            print(f"folder: standing hands ({args.standing} renders, seed {args.seed})")
        elif args.augment is not None:
            print(f"folder: {args.folder} turned, resized and relit (seed {args.augment})")
        else:
            print(f"folder: {folder}")
        print(f"photos: {res['photos']}  tiles: {res['tiles']}  unreadable: {res['unreadable']}")
        print(f"tiles right:    {res['tiles_right_pct']:5.1f} %  ({res['tiles_right']} of {res['tiles']})")
        print(f"tiles missed:   {res['tiles_missed_pct']:5.1f} %")
        print(f"tiles invented: {res['tiles_invented_pct']:5.1f} %")
        print(f"hands right:    {res['hands_right_pct']:5.1f} %  ({res['hands_right']} of {res['photos']})")
        print(f"totals right:   {res['totals_right_pct']:5.1f} %")
        print(f"wrong tiles flagged low-confidence (< {LOW_CONFIDENCE}): {res['wrong_low_conf_pct']:5.1f} % "
              f"of {res['wrong_tiles']}  (right tiles flagged: {res['right_low_conf_pct']:.1f} %)")
        print(f"median seconds per photo: {res['median_seconds']:.3f}")
    if not args.no_speed:
        # for standing hands, their own 12 MP renders are timed as they are (a phone's EXIF turn included)
        speed_folder = folder if args.standing and not args.speed_only else args.folder
        runs = speed(twelve_megapixel_photos(speed_folder, args.speed_photos))
        for sp in runs:
            if args.verbose or len(runs) == 1:
                print(f"speed: {sp['photo'][-40:]:40s} {sp['jpeg_bytes'] / 1e6:4.1f} MB  read {sp['read_s'] * 1000:4.0f} ms  "
                      f"decode {sp['decode_alone_s'] * 1000:3.0f} ms alone, {sp['decode_between_s'] * 1000:3.0f} ms between "
                      f"reads  ratio {sp['ratio_alone']:.2f} / {sp['ratio_between']:.2f}")
        for key, label in (("ratio_alone", "decode timed alone"), ("ratio_between", "decode timed between reads")):
            ratios = np.array([sp[key] for sp in runs])
            print(f"speed, {len(runs)} JPEGs of 12 MP, read / cv2.imdecode at full size ({label}, one core): "
                  f"median {np.median(ratios):.2f}, worst {ratios.max():.2f}, synthetic {runs[0][key]:.2f}")
        print(f"slowest read: {max(sp['read_s'] for sp in runs):.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
