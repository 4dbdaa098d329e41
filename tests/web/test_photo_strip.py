"""The photo's reading on the round page has one total, over the strip of the tiles read:
the photo is drawn without its own (it counted every outline, a tile read twice and a tile
of another set too), and what is said under it explains the difference."""

import re
from io import BytesIO

import pytest

from referee.services import photos
from tests.web.helpers import as_scorer, new_game
from tests.web.test_photos import strip_total, upload


def fake_reading(monkeypatch, tiles):
    """vision.read_hand reads every photo as `tiles` (a, b, confidence); the renders asked
    of it are recorded as their arguments."""
    import vision
    from PIL import Image

    from vision.result import Hand, Tile

    jpeg = BytesIO()
    Image.new("RGB", (40, 30), "white").save(jpeg, "JPEG")
    square = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    renders = []
    hand = Hand([Tile(a, b, square, c) for a, b, c in tiles], 40, 30,
                _render=lambda *args: renders.append(args[1:]) or jpeg.getvalue())
    monkeypatch.setattr(vision, "read_hand", lambda data: hand)
    return renders


def test_a_tile_read_twice_and_one_of_another_set_are_explained_and_counted_once(client, monkeypatch):
    renders = fake_reading(monkeypatch, [(6, 5, 0.7), (4, 1, 0.97), (6, 5, 0.7), (11, 2, 0.95), (3, 3, 0.6)])
    game = new_game(client)
    as_scorer(client, game)
    text = upload(client, game, 0, b"a photo").get_data(as_text=True)
    assert strip_total(text, 0) == "3 tiles · 22 pips · 2 to check"
    caption = re.search(r"<figcaption>(.*?)</figcaption>", text, re.S).group(1)
    assert "5 tiles are outlined on the photo; 3 are counted below." in caption
    assert "Read twice, counted once: 6-5." in caption
    assert "Not sure about: 3-3." in caption  # 6-5 is said once, as read twice
    assert "Left out, not in this set: 11-2." in caption
    assert not re.search(r"\d+ tiles, \d+ pips", caption)
    # the photo is drawn without its own total (every outline, 75 pips here)
    assert renders and all(args[-1] is False for args in renders)
    # the strip, in the order read, with the tiles to check marked
    strip = text.split('data-strip="0"')[1].split("</ul>")[0]
    assert re.findall(r'<label class="strip-tile([^"]*)" for="key-0-([\d-]+)"', strip) == [
        (" unsure", "6-5"), ("", "4-1"), (" unsure", "3-3")]


def test_a_reading_says_nothing_of_outlines_when_every_one_is_counted():
    reading = photos.Reading(seat=0, tiles=["6-5", "4-1"], pips=16)
    assert reading.outlined == 2 and reading.messages == []


@pytest.mark.parametrize("lang, total", [("fr", "3 pièces · 22 points · 2 à vérifier"),
                                         ("nl", "3 stenen · 22 ogen · 2 te controleren")])
def test_the_total_in_french_and_dutch(client, monkeypatch, lang, total):
    fake_reading(monkeypatch, [(6, 5, 0.7), (4, 1, 0.97), (6, 5, 0.7), (3, 3, 0.6)])
    game = new_game(client)
    as_scorer(client, game)
    text = upload(client, game, 0, b"a photo", headers={"Accept-Language": lang}).get_data(as_text=True)
    assert strip_total(text, 0) == total


def test_tiles_tapped_on_the_keypad_have_their_strip_too(client):
    """Without a photo the strip shows the tiles tapped (a page shown again, say after
    Check points), and the hands with none have it hidden."""
    game = new_game(client)
    as_scorer(client, game)
    text = client.post(f"/games/{game['id']}/rounds/new",
                       data={"action": "preview", "tiles-1": ["9-8", "0-0"]}).get_data(as_text=True)
    assert strip_total(text, 1) == "2 tiles · 17 pips"
    assert re.search(r'<div class="strip" data-strip="0" hidden', text)
    assert re.search(r'<div class="strip" data-strip="1"\s', text)
