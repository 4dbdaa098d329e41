"""Counting a hand from a photo on the round page: read, pre-select, let the player check."""

import re

import numpy as np
import pytest

from referee.services import photos
from tests.web.helpers import as_scorer, new_game, pips_round
from tools.generators.standing_hands import render as render_standing, save as save_standing
from tools.generators.synthetic_photos import make_photo

PHOTO_SEED = 1  # four ivory tiles in a row, none of them [9-9]


@pytest.fixture(scope="module")
def picture():
    return make_photo(np.random.default_rng(PHOTO_SEED), n_tiles=4, size=(1200, 900), style="ivory",
                      background="wood", layout="row", degrade=False)


@pytest.fixture(scope="module")
def photo(picture):
    return picture.encode()


def true_tiles(picture):
    """The tiles the generator laid, written as the keypad writes them (high number first)."""
    return sorted(f"{max(a, b)}-{min(a, b)}" for a, b in picture.tiles)


def upload(client, game, seat, data, headers=None, **fields):
    from io import BytesIO

    form = {"number": "1", **fields, f"photo-{seat}": (BytesIO(data), "hand.jpg")}
    return client.post(f"/games/{game['id']}/rounds/photo/{seat}", data=form, content_type="multipart/form-data",
                       headers=headers)


def strip_total(text: str, seat: int) -> str:
    """The total shown over a hand's strip of tiles read (its words, tags and hidden parts left out)."""
    strip = text.split(f'data-strip="{seat}"')[1]
    total = re.search(r'<p class="strip-total"[^>]*>(.*?)</p>', strip, re.S).group(1)
    total = re.sub(r'<span[^>]*hidden>.*?</span>', "", total, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", total).split())


def test_a_photo_preselects_the_tiles_read_and_keeps_what_was_typed(client, picture, photo):
    game = new_game(client)
    as_scorer(client, game)
    expected = true_tiles(picture)
    assert len(expected) == 4
    page = upload(client, game, 0, photo, **{"pips-1": "5", "pips-0": "99"})
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    checked = sorted(re.findall(r'name="tiles-0" value="([\d-]+)" checked', text))
    assert checked == expected
    assert 'name="pips-1" inputmode="numeric" min="0" max="9999" value="5"' in text
    assert 'name="pips-0" inputmode="numeric" min="0" max="9999" value=""' in text
    pips = sum(int(a) + int(b) for a, b in (t.split("-") for t in expected))
    # one total, over the strip of the tiles read (the photo has none of its own)
    assert strip_total(text, 0) == f"{len(expected)} tiles · {pips} pips"
    assert 'src="data:image/jpeg;base64,' in text
    assert client.get(f"/api/games/{game['id']}").json["rounds"][0]["scores"] is None


def test_a_hand_photographed_standing_from_the_seat_is_read_as_a_flat_one(client, tmp_path):
    """The photo a player takes at the end of a round: the hand still standing on edge."""
    rng = np.random.default_rng([4242, 30])
    pixels, truth, _ = render_standing(rng, size=(2016, 1512), scheme="ivory_black", table="marble", elevation=20,
                                       tiles=7, top=9)
    save_standing(pixels, tmp_path / "hand.jpg", rng, turn=6)
    game = new_game(client)
    as_scorer(client, game)
    text = upload(client, game, 0, (tmp_path / "hand.jpg").read_bytes()).get_data(as_text=True)
    assert sorted(re.findall(r'name="tiles-0" value="([\d-]+)" checked', text)) == sorted(truth.split())
    assert 'src="data:image/jpeg;base64,' in text


def test_an_unreadable_upload_gets_a_clear_message(client):
    game = new_game(client)
    as_scorer(client, game)
    for data in (b"", b"this is not a picture", b"\xff\xd8\xff\xe0" + b"\0" * 20):
        page = upload(client, game, 0, data)
        assert page.status_code == 422
        text = page.get_data(as_text=True)
        assert "Choose a photo first" in text or "could not be read" in text


def _bomb() -> bytes:
    from io import BytesIO

    from PIL import Image

    buf = BytesIO()
    Image.new("L", (20000, 20000)).save(buf, "PNG")  # 400 MP declared in a few hundred kB
    return buf.getvalue()


@pytest.mark.parametrize("lang, said", [
    ("fr", {"text": "pas une image", "bomb": "bien trop grande", "small": "trop petite"}),
    ("nl", {"text": "geen afbeelding", "bomb": "veel te groot", "small": "te klein"}),
])
def test_an_unreadable_upload_is_explained_in_the_players_language(client, lang, said):
    """The counter's own reasons are English (for the command line): the page says what
    is wrong in the player's language, whole, and nothing is saved."""
    from io import BytesIO

    from PIL import Image

    game = new_game(client)
    as_scorer(client, game)
    small = BytesIO()
    Image.new("RGB", (20, 10), "white").save(small, "PNG")
    for kind, data in (("text", b"this is not a picture"), ("bomb", _bomb()), ("small", small.getvalue())):
        page = upload(client, game, 0, data, headers={"Accept-Language": lang})
        text = page.get_data(as_text=True)
        assert page.status_code == 422
        assert said[kind] in text
        assert "could not" not in text and "image this counter" not in text
    assert client.get(f"/api/games/{game['id']}").json["rounds"][0]["scores"] is None


def test_only_a_scorer_can_upload(client, app, photo):
    game = new_game(client)
    assert upload(app.test_client(), game, 0, photo).status_code == 403


def test_uploads_are_rate_limited(client):
    game = new_game(client)
    as_scorer(client, game)
    statuses = [upload(client, game, 0, b"junk").status_code for _ in range(14)]
    assert statuses[:12] == [422] * 12 and statuses[12:] == [429, 429]


def test_photos_are_kept_only_when_the_owner_says_so(client, app, photo, tmp_path):
    game = new_game(client)
    as_scorer(client, game)
    kept = tmp_path / "photos" / game["id"]
    upload(client, game, 0, photo)
    assert not kept.exists()
    assert "read, then thrown away" in client.get(f"/games/{game['id']}").get_data(as_text=True)
    client.post(f"/games/{game['id']}/photos", data={"keep": "on"})
    upload(client, game, 1, photo)
    assert [p.read_bytes() for p in kept.iterdir()] == [photo]


def test_without_opencv_the_button_says_what_to_install(client, monkeypatch, photo):
    game = new_game(client)
    as_scorer(client, game)
    monkeypatch.setattr(photos, "available", lambda: False)
    page = client.get(f"/games/{game['id']}/rounds/new").get_data(as_text=True)
    assert "pip install -e '.[vision]'" in page and 'type="file"' not in page
    refused = upload(client, game, 0, photo)
    assert refused.status_code == 503 and "vision extra" in refused.get_data(as_text=True)


def test_a_vision_extra_that_cannot_be_loaded_is_answered_as_a_missing_one(client, monkeypatch, photo):
    """An OpenCV or ONNX Runtime that is installed but fails to load: the upload says what
    to install (503), as when the extra is missing, and no round is saved."""
    import vision

    game = new_game(client)
    as_scorer(client, game)

    def broken(_data):
        raise vision.VisionUnavailable("libonnxruntime.so: cannot open shared object file")

    monkeypatch.setattr(vision, "read_hand", broken)
    refused = upload(client, game, 0, photo)
    assert refused.status_code == 503 and "needs the vision extra" in refused.get_data(as_text=True)
    assert client.get(f"/api/games/{game['id']}").json["rounds"][0]["scores"] is None


@pytest.mark.parametrize("missing", ["cv2", "onnxruntime"])
def test_the_photo_counter_is_available_only_with_opencv_and_onnx_runtime(monkeypatch, missing):
    """The vision extra's OpenCV and ONNX Runtime (which runs its networks) must both be
    there for the round page to offer the photo button."""
    import importlib.util

    assert photos.available()
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == missing else find_spec(name, *a))
    assert not photos.available()


@pytest.mark.parametrize("lang, said", [("en", "larger than 1 MB"), ("fr", "dépasse 1 Mo"), ("nl", "groter dan 1 MB")])
def test_a_photo_over_the_cap_is_refused_on_the_round_page_keeping_what_was_typed(app, client, lang, said):
    """With CSRF on, as in use: a photo up to twice the cap still lets the form be read, so
    the round page comes back with the typed entries and says why; a larger request gets
    the same reason on the error page. Nothing is read or saved either way."""
    app.config.update(WTF_CSRF_ENABLED=True, MAX_PHOTO_BYTES=1024 * 1024, MAX_CONTENT_LENGTH=1024 * 1024)
    game = new_game(client)
    as_scorer(client, game)
    page = client.get(f"/games/{game['id']}/rounds/new", headers={"Accept-Language": lang}).get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    assert 'data-max-bytes="1048576"' in page and said in page  # for the page's own check, before sending
    over = b"\xff\xd8\xff\xe0" + b"\0" * (1024 * 1024 + 100)
    refused = upload(client, game, 0, over, headers={"Accept-Language": lang}, csrf_token=token, **{"pips-1": "17"})
    text = refused.get_data(as_text=True)
    assert refused.status_code == 413
    assert said in text and 'id="round-form"' in text
    assert 'name="pips-1" inputmode="numeric" min="0" max="9999" value="17"' in text
    far_over = over + b"\0" * (1024 * 1024)
    refused = upload(client, game, 0, far_over, headers={"Accept-Language": lang}, csrf_token=token)
    assert refused.status_code == 413 and said in refused.get_data(as_text=True)
    assert client.get(f"/api/games/{game['id']}").json["rounds"][0]["scores"] is None


def test_a_photo_of_one_hand_shows_no_error_for_the_hands_not_entered_yet(client, photo):
    """A player photographs their hand before anyone else has entered one: the page shows
    the reading, not the errors of a round nobody has tried to save, and the browser lands
    on the reading (the photo's address ends in #photo-result)."""
    game = new_game(client)
    as_scorer(client, game)
    text = upload(client, game, 0, photo).get_data(as_text=True)
    assert 'id="photo-result"' in text
    assert "Nothing is entered for" not in text and "Nothing entered yet for" not in text
    assert 'role="alert"' not in text.split('id="round-form"')[0]
    assert f'data-photo-url="/games/{game["id"]}/rounds/photo/1#photo-result"' in text
    assert f'formaction="/games/{game["id"]}/rounds/photo/1#photo-result"' in text


def _reading_of(tiles: list[tuple[int, int, float]]):
    """A fake vision.read_hand that reads every photo as `tiles` (a, b, confidence)."""
    from io import BytesIO

    from PIL import Image

    from vision.result import Hand, Tile

    jpeg = BytesIO()
    Image.new("RGB", (40, 30), "white").save(jpeg, "JPEG")
    square = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    hand = Hand([Tile(a, b, square, c) for a, b, c in tiles], 40, 30, _render=lambda *_: jpeg.getvalue())
    return lambda data: hand


@pytest.mark.parametrize("rules, read, note", [
    ("pagat", [(0, 0, 0.99), (5, 3, 0.6), (4, 1, 0.97)], True),
    ("gamerules", [(0, 0, 0.99), (5, 3, 0.6), (4, 1, 0.97)], False),
    ("pagat", [(5, 3, 0.6), (4, 1, 0.97)], False)], ids=["pagat", "gamerules", "no [0-0]"])
def test_a_double_blank_read_says_what_the_house_rules_count_it(client, monkeypatch, rules, read, note):
    """A [0-0] read from a photo: the pips say 0, and where the house rules count it 50
    (Pagat's), the reading says so, or the points shown would not add up to the pips
    read. A tile read doubtfully is marked on the keypad of the hand photographed, not
    only on the photo."""
    import vision

    monkeypatch.setattr(vision, "read_hand", _reading_of(read))
    game = new_game(client, rules=rules)
    as_scorer(client, game)
    text = upload(client, game, 0, b"a photo").get_data(as_text=True)
    assert strip_total(text, 0) == f"{len(read)} tiles · 13 pips · 1 to check"
    assert ("this game&#39;s house rules count it 50 points" in text) is note
    for seat, unsure in ((0, ["5-3"]), (1, [])):
        hand = text.split(f'id="hand-{seat}"')[1].split(f'id="hand-{seat + 1}"')[0]
        keys = re.findall(r'<label class="key([^"]*)" title="([\d-]+)">', hand)
        assert [t for cls, t in keys if "unsure" in cls] == unsure


def test_no_double_blank_note_in_the_round_it_opens(client, monkeypatch):
    """In Pagat's last round the [0-0] opens: no hand holds it, and a photo reading one is
    told so, not that the house rules count it 50."""
    import vision

    monkeypatch.setattr(vision, "read_hand", _reading_of([(0, 0, 0.99), (5, 3, 0.97)]))
    game = new_game(client, rules="pagat")
    for _ in range(9):
        assert pips_round(client, game, {"Bob": 5, "Cy": 7, "Di": 9}, went_out="Ann").status_code == 201
    as_scorer(client, game)
    text = upload(client, game, 1, b"a photo", number="10").get_data(as_text=True)
    assert "house rules count it" not in text
    assert "opened this round, so Bob cannot still hold it" in text


@pytest.mark.parametrize("tapped, said", [
    ({}, "[9-9] opened this round, so Bob cannot still hold it"),
    ({"tiles-0": "5-3"}, "[5-3] is in the hands of both Ann and Bob"),
])
def test_what_a_photo_of_one_hand_gets_wrong_is_told_before_the_others_are_entered(client, monkeypatch,
                                                                                   tapped, said):
    """A photo of Bob's hand reads the round's opening double, or a tile already tapped
    for Ann, while the other hands are empty: that is told at once, not left for after
    everyone is entered (a disabled key would drop the double from the save unsaid)."""
    import vision

    monkeypatch.setattr(vision, "read_hand", _reading_of([(9, 9, 0.99), (5, 3, 0.97)] if not tapped
                                                         else [(5, 3, 0.97)]))
    game = new_game(client)
    as_scorer(client, game)
    text = upload(client, game, 1, b"a photo", **tapped).get_data(as_text=True)
    assert said in text.replace("&#39;", "'")


def test_a_photo_waits_for_the_one_before_it_and_is_told_when_it_waited_too_long(client, monkeypatch, photo):
    """One photo is read at a time in each server process; a flood gets a clear 503."""
    game = new_game(client)
    as_scorer(client, game)
    monkeypatch.setattr(photos, "WAIT_FOR_READER", 0.01)
    assert photos._READING.acquire(timeout=1)
    try:
        response = upload(client, game, 0, photo)
    finally:
        photos._READING.release()
    assert response.status_code == 503
    assert "busy with another photo" in response.get_data(as_text=True)
    assert upload(client, game, 0, photo).status_code == 200
