"""Command line: count the pips in photos.

    python -m vision count PHOTO [PHOTO ...] [--json] [--annotated DIR] [--table]

With --json, prints one JSON object per photo per line:
    {"file": ..., "tiles": [[a, b], ...], "pips": N, "seconds": S}   (a >= b)
    {"file": ..., "error": "<readable message>"}                       (not a readable image)
With --table, each photo is read as a photo of a Chicken Foot table (vision.read_table).
Exits 0 when every file could be read, 1 otherwise, 2 on bad usage or missing OpenCV.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import PhotoError, VisionUnavailable, read_hand, read_table


def _count(args: argparse.Namespace) -> int:
    status = 0
    for name in args.photos:
        path = Path(name)
        try:
            data = path.read_bytes()
        except OSError as exc:
            record = {"file": name, "error": f"cannot open the file: {exc.strerror or exc}"}
            status = 1
        else:
            try:
                hand = (read_table if args.table else read_hand)(data)
            except PhotoError as exc:
                record = {"file": name, "error": str(exc)}
                status = 1
            else:
                record = {"file": name, "tiles": hand.as_pairs(), "pips": hand.pips,
                          "seconds": round(hand.seconds, 3)}
                if args.annotated:
                    out = Path(args.annotated)
                    out.mkdir(parents=True, exist_ok=True)
                    (out / (path.stem + ".annotated.jpg")).write_bytes(hand.annotated())
                if not args.json:
                    tiles = " ".join(f"{t.a}-{t.b}{'?' if t.low_confidence else ''}" for t in hand.tiles)
                    print(f"{name}: {len(hand.tiles)} tiles, {hand.pips} pips  [{tiles}]  ({hand.seconds:.2f} s)")
                    continue
        if args.json:
            print(json.dumps(record), flush=True)
        else:
            print(f"{name}: error: {record['error']}")
    return status


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision", description="Count domino pips in photos.")
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("count", help="read the tiles and the pip total of each photo")
    c.add_argument("photos", nargs="+", metavar="PHOTO")
    c.add_argument("--json", action="store_true", help="one JSON object per photo per line")
    c.add_argument("--annotated", metavar="DIR", help="also write an annotated JPEG of each photo here")
    c.add_argument("--table", action="store_true", help="read each photo as a photo of a Chicken Foot table")
    args = ap.parse_args(argv)
    try:
        return _count(args)
    except VisionUnavailable as exc:
        print(str(exc), file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
