"""The `referee` console script: the LAN address and QR code that `serve` prints."""

import gc
import io
from pathlib import Path

from referee import cli


def test_lan_address_is_preferred_over_loopback(monkeypatch):
    monkeypatch.setattr(cli, "lan_addresses", lambda: ["192.0.2.7"])
    assert cli.public_url("0.0.0.0", 8000) == "http://192.0.2.7:8000/"
    monkeypatch.setattr(cli, "lan_addresses", lambda: [])
    assert cli.public_url("0.0.0.0", 8000) == "http://127.0.0.1:8000/"
    assert cli.public_url("10.1.2.3", 9000) == "http://10.1.2.3:9000/"


def test_lan_addresses_never_include_loopback():
    assert all(not address.startswith("127.") for address in cli.lan_addresses())


def test_terminal_qr_code_encodes_the_url():
    import numpy as np

    from tests.qr import read_qr

    out = io.StringIO()
    cli.print_qr("http://192.0.2.7:8000/", out=out)
    rows = out.getvalue().splitlines()
    # Each character is one module wide and two modules tall (upper and lower half blocks).
    scale = 8
    image = np.full((len(rows) * 2 * scale, max(map(len, rows)) * scale), 255, np.uint8)
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            top = char in "█▀"
            bottom = char in "█▄"
            if top:
                image[2 * y * scale:(2 * y + 1) * scale, x * scale:(x + 1) * scale] = 0
            if bottom:
                image[(2 * y + 1) * scale:(2 * y + 2) * scale, x * scale:(x + 1) * scale] = 0
    assert read_qr(255 - image) == "http://192.0.2.7:8000/"


def test_serve_prepares_the_workers_before_forking(app):
    """Templates compiled once in the master, its objects kept out of the workers' collections,
    and no fragment rendered by an earlier server (perhaps an older version) served again."""
    stale = Path(app.instance_path) / "fragments" / "game.en.html"
    stale.parent.mkdir()
    stale.write_text("1\n<div>rendered by yesterday's templates</div>")
    assert not app.jinja_env.cache
    try:
        cli.prepare_workers(app)
        assert not stale.exists()
        assert set(app.jinja_env.list_templates()) <= {key[1] for key in app.jinja_env.cache}
        assert gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()

