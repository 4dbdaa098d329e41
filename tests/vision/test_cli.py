"""python -m vision count PHOTO ... --json"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

import vision

from tools.generators.synthetic_photos import make_photo

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vision", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def test_count_json(tmp_path):
    photo = make_photo(np.random.default_rng(7), n_tiles=4, size=(1000, 750), style="ivory", background="felt",
                       layout="scatter")
    good = tmp_path / "hand.jpg"
    good.write_bytes(photo.encode("jpeg"))
    r = _cli("count", str(good), "--json")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 1
    rec = json.loads(lines[0])
    assert rec["file"] == str(good)
    assert sorted(tuple(t) for t in rec["tiles"]) == sorted(photo.tiles)
    assert all(a >= b for a, b in rec["tiles"])
    assert rec["pips"] == photo.total
    assert rec["seconds"] >= 0


def test_count_reads_a_table_as_a_table(tmp_path, monkeypatch, capsys):
    """--table reads each photo as a table's (vision.read_table), every tile of a rendered
    layout with its boneyard beside it."""
    import vision.__main__ as cli
    from tools.generators.table_photos import make_table

    truth = make_table(np.random.default_rng(20), n_tiles=16, size=(1000, 750), elevation=90,
                       background="wood", style="ivory", face_down=4)
    photo = tmp_path / "table.jpg"
    photo.write_bytes(truth.encode())
    asked = []
    monkeypatch.setattr(cli, "read_table", lambda data: asked.append(1) or vision.read_table(data))
    assert cli.main(["count", str(photo), "--json", "--table"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert asked and sorted(tuple(t) for t in rec["tiles"]) == sorted((max(t), min(t)) for t in truth.tiles)


def test_count_json_with_a_bad_file(tmp_path):
    photo = make_photo(np.random.default_rng(7), n_tiles=4, size=(1000, 750), style="ivory", background="felt",
                       layout="scatter")
    good = tmp_path / "a.jpg"
    good.write_bytes(photo.encode("jpeg"))
    bad = tmp_path / "b.jpg"
    bad.write_text("not a photo")
    empty = tmp_path / "c.png"
    empty.write_bytes(b"")
    r = _cli("count", str(good), str(bad), str(empty), "--json")
    assert r.returncode == 1
    recs = [json.loads(line) for line in r.stdout.strip().splitlines()]
    assert [rec["file"] for rec in recs] == [str(good), str(bad), str(empty)]
    assert "tiles" in recs[0]
    assert recs[1]["error"] and recs[2]["error"]
    assert "Traceback" not in r.stderr


def test_count_plain_text(tmp_path):
    p = tmp_path / "blank.jpg"
    from PIL import Image

    Image.new("RGB", (300, 200), (90, 120, 60)).save(p)
    r = _cli("count", str(p))
    assert r.returncode == 0
    assert "0 tiles, 0 pips" in r.stdout
