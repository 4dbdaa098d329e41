"""A photo of the table: the desk's foot page ticks the tiles read, and the API reads it."""

import re
from io import BytesIO

import numpy as np
import pytest

from tests.web.helpers import as_scorer, new_game
from tools.generators.table_photos import make_table

SEED = 3  # 16 ivory tiles on paper from above; starts on [6-6] with three arms, [2-2] has three toes


@pytest.fixture(scope="module")
def table():
    return make_table(np.random.default_rng(SEED), n_tiles=16, size=(1000, 750), elevation=90,
                      background="paper", style="ivory")


@pytest.fixture(scope="module")
def photo(table):
    return table.encode()


def carrying(table, number, double):
    return sorted(f"{a}-{b}" for a, b in table.tiles if number in (a, b) and (a, b) != double)


def post_photo(client, url, data, **fields):
    return client.post(url, data={**fields, "photo": (BytesIO(data), "table.jpg")}, content_type="multipart/form-data")


def test_the_desk_ticks_the_tiles_of_the_double_and_its_toes(client, table, photo):
    assert table.doubles[(2, 2)] == 3
    page = post_photo(client, "/referee/foot/photo", photo, double="2-2", preset="pagat", players="4")
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert sorted(re.findall(r'name="on" value="([\d-]+)" checked', text)) == carrying(table, 2, (2, 2))
    assert len(re.findall(r'name="toe" value="[\d-]+" checked', text)) == 3
    assert 'src="data:image/jpeg;base64,' in text
    assert "and 3 toes against [2-2]" in text
    assert 'data-outcome="completable"' in text  # the ruling follows from the ticks, as today


def test_a_photo_without_a_double_keeps_the_tiles_for_the_double_tapped_next(client, table, photo):
    page = post_photo(client, "/referee/foot/photo", photo, preset="pagat")
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    seen = re.findall(r'name="seen" value="([\d-]+)"', text)
    assert sorted(seen) == sorted(f"{a}-{b}" for a, b in table.tiles)
    then = client.post("/referee/foot", data={"double": "6-6", "seen": seen, "preset": "pagat"})
    ticked = sorted(re.findall(r'name="on" value="([\d-]+)" checked', then.get_data(as_text=True)))
    assert ticked == carrying(table, 6, (6, 6))


def test_another_double_tapped_after_the_photo_gets_its_toes_ticked_too(client, table, photo):
    page = post_photo(client, "/referee/foot/photo", photo, double="2-2", preset="pagat", players="4")
    text = page.get_data(as_text=True)
    kept = {name: re.findall(rf'name="{name}" value="([^"]+)"', text) for name in ("seen", "seen_toe", "seen_arm")}
    then = client.post("/referee/foot", data={"double": "6-6", "starting": "1", "shown_double": "2-2",
                                              "shown_starting": "0", "preset": "pagat", "players": "4", **kept})
    arms = re.findall(r'name="toe" value="[\d-]+" checked', then.get_data(as_text=True))
    assert len(arms) == table.doubles[(6, 6)]
    back = client.post("/referee/foot", data={"double": "2-2", "shown_double": "6-6", "shown_starting": "1",
                                              "preset": "pagat", "players": "4", **kept})
    assert len(re.findall(r'name="toe" value="[\d-]+" checked', back.get_data(as_text=True))) == 3


def test_without_javascript_the_photo_stays_on_the_page_after_the_ruling(client, table, photo):
    page = post_photo(client, "/referee/foot/photo", photo, double="2-2", preset="pagat", players="4")
    text = page.get_data(as_text=True)
    kept = re.search(r'<noscript><input type="hidden" name="seen_photo" value="([^"]+)"></noscript>', text).group(1)
    on = re.findall(r'name="on" value="([\d-]+)" checked', text)
    toes = re.findall(r'name="toe" value="([\d-]+)" checked', text)
    ruled = client.post("/referee/foot", data={"double": "2-2", "shown_double": "2-2", "shown_starting": "0",
                                               "on": on, "toe": toes, "preset": "pagat", "players": "4",
                                               "seen_photo": kept}).get_data(as_text=True)
    assert f'<img src="{kept}"' in ruled and 'data-outcome="completable"' in ruled
    forged = client.post("/referee/foot", data={"double": "2-2", "preset": "pagat",
                                                "seen_photo": "data:text/html;base64,PHNjcmlwdD4="})
    assert "data:text/html" not in forged.get_data(as_text=True)


def test_a_game_desk_reads_the_photo_and_logs_the_ruling_when_asked(client, table, photo):
    game = new_game(client)
    as_scorer(client, game)
    url = f"/games/{game['id']}/referee/foot"
    page = post_photo(client, url + "/photo", photo, double="6-6", starting="1")
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "Saved in the game's log" not in text  # nothing logged from the photo alone
    on = re.findall(r'name="on" value="([\d-]+)" checked', text)
    toes = re.findall(r'name="toe" value="([\d-]+)" checked', text)
    assert len(toes) == table.doubles[(6, 6)]
    done = client.post(url, data={"double": "6-6", "starting": "1", "shown_double": "6-6", "shown_starting": "1",
                                  "on": on, "toe": toes, "boneyard": "0"})
    assert "Saved in the game's log" in done.get_data(as_text=True)


@pytest.mark.parametrize("data", [b"", b"this is not a picture", b"\xff\xd8\xff\xe0" + b"\0" * 20])
def test_the_desk_refuses_a_bad_photo_with_a_clear_message(client, data):
    page = post_photo(client, "/referee/foot/photo", data, double="2-2", preset="pagat")
    assert page.status_code == 422
    text = page.get_data(as_text=True)
    assert "Choose a photo first." in text or "could not be read" in text


def test_the_desk_answers_in_french(client):
    page = client.post("/referee/foot/photo", data={"photo": (BytesIO(b"x"), "t.jpg")},
                       content_type="multipart/form-data", headers={"Accept-Language": "fr"})
    assert page.status_code == 422
    assert "Impossible de lire cette photo" in page.get_data(as_text=True)


def test_the_api_reads_a_table(client, table, photo):
    response = client.post("/api/photos/read", data={"photo": (BytesIO(photo), "table.jpg")},
                           content_type="multipart/form-data")
    assert response.status_code == 200, response.json
    body = response.json
    assert sorted(t["tile"] for t in body["tiles"]) == sorted(f"{a}-{b}" for a, b in table.tiles)
    assert body["pips"] == sum(a + b for a, b in table.tiles)
    first = body["tiles"][0]
    assert 0 <= first["confidence"] <= 1 and len(first["polygon"]) == 4 and len(first["polygon"][0]) == 2
    # the foot ruling takes the tiles as read
    ruling = client.post("/api/rulings/foot", json={"rules": "pagat", "double": "2-2", "on_table": body["tiles"],
                                                    "toes_laid": 3})
    assert ruling.status_code == 200, ruling.json
    typed = client.post("/api/rulings/foot", json={"rules": "pagat", "double": "2-2", "toes_laid": 3,
                                                   "on_table": [t["tile"] for t in body["tiles"]]})
    assert ruling.json == typed.json


@pytest.mark.parametrize("data, lang, words", [
    (b"", "en", "Choose a photo first."),
    (b"this is not a picture", "en", "not an image"),
    (b"\xff\xd8\xff\xe0" + b"\0" * 20, "fr", "Impossible de lire cette photo"),
    (b"this is not a picture", "nl", "Deze foto"),
])
def test_the_api_refuses_a_bad_image_in_the_callers_language(client, data, lang, words):
    response = client.post("/api/photos/read", data={"photo": (BytesIO(data), "t.jpg")},
                           content_type="multipart/form-data", headers={"Accept-Language": lang})
    assert response.status_code == 422
    assert words in response.json["error"]


def test_the_api_refuses_a_photo_over_the_cap(make_app, database_url):
    client = make_app(database_url, MAX_PHOTO_BYTES=1024).test_client()
    response = client.post("/api/photos/read", data={"photo": (BytesIO(b"\xff\xd8" + b"\0" * 1500), "t.jpg")},
                           content_type="multipart/form-data")
    assert response.status_code == 413
    assert "larger than" in response.json["error"]


def test_the_api_limits_photos_per_client(client):
    from referee.services.rate_limits import LIMITS

    codes = [client.post("/api/photos/read", data={"photo": (BytesIO(b"x"), "t.jpg")},
                         content_type="multipart/form-data").status_code for _ in range(LIMITS["photo"] + 1)]
    assert codes[:-1] == [422] * LIMITS["photo"] and codes[-1] == 429


def test_a_foot_ruling_refuses_read_tiles_without_their_tile(client):
    response = client.post("/api/rulings/foot", json={"rules": "pagat", "double": "2-2",
                                                      "on_table": [{"confidence": 0.9}]})
    assert response.status_code == 422


class _Read:
    """A tile as the photo counter reads it: its numbers and its outline."""

    def __init__(self, a, b, centre, axis_degrees, width=50.0):
        u = np.array([np.cos(np.radians(axis_degrees)), np.sin(np.radians(axis_degrees))])
        v = np.array([-u[1], u[0]])
        c = np.array(centre, float)
        self.a, self.b, self.confidence, self.low_confidence = a, b, 0.99, False
        self.polygon = [tuple(c + s * width * u + t * width / 2 * v) for s, t in ((-1, -1), (-1, 1), (1, 1), (1, -1))]


class _Photo:
    """A table read: the tiles, every one touching the first (the double), and the
    drawings asked of it."""

    def __init__(self, tiles):
        self.tiles = tiles
        self.drawn = []

    def annotated(self, **how):
        from PIL import Image

        self.drawn.append(how)
        out = BytesIO()
        Image.new("RGB", (40, 30), "white").save(out, "JPEG")
        return out.getvalue()

    def touching(self, index):
        return [k for k in range(len(self.tiles)) if k != index] if index == 0 else [0]


def test_a_later_double_s_toes_are_the_tiles_against_it_but_the_one_it_was_laid_against():
    """A [5-5] laid across its line against a [5-2], with a toe straight on and two fanned
    out at 85 degrees near its ends (0.6 of a width past its middle), its outline read
    turned 25 degrees: three toes, the [5-2] not among them. With one tile on each side,
    one toe."""
    from referee.rules.tiles import Tile
    from referee.services.photos import TableReading

    w = 50.0
    double = _Read(5, 5, (0, 0), 90 + 25, w)  # long axis across the line, which runs along x
    laid = _Read(5, 2, (-1.5 * w, 0), 180, w)  # each tile's 5 towards the double
    straight = _Read(5, 1, (1.5 * w, 0), 0, w)
    fans = [_Read(8, 5, (0.6 * w, 1.9 * w), 85 - 180, w), _Read(5, 3, (0.6 * w, -1.9 * w), -85, w)]
    foot = TableReading(hand=_Photo([double, laid, straight, *fans]), top=9).foot(Tile(5, 5))
    assert sorted(foot.toes) == ["5-1", "5-3", "8-5"]
    one = TableReading(hand=_Photo([double, laid, straight]), top=9).foot(Tile(5, 5))
    assert len(one.toes) == 1


def test_a_foot_photographed_at_an_angle_keeps_its_toes():
    """From a seat the table is squeezed along the lean and slanted: each outline is a
    parallelogram. A [5-5] laid against a [5-2], a toe straight on and two fanned out at
    85 degrees, its line squeezed to 0.45 and slanted: still three toes."""
    from referee.rules.tiles import Tile
    from referee.services.photos import TableReading

    w = 50.0
    tiles = [_Read(5, 5, (0, 0), 90, w), _Read(5, 2, (-1.5 * w, 0), 180, w), _Read(5, 1, (1.5 * w, 0), 0, w),
             _Read(8, 5, (0.6 * w, 1.9 * w), 85 - 180, w), _Read(5, 3, (0.6 * w, -1.9 * w), -85, w)]
    for t in tiles:
        t.polygon = [(0.45 * x + 0.5 * y, y) for x, y in t.polygon]
    foot = TableReading(hand=_Photo(tiles), top=9).foot(Tile(5, 5))
    assert sorted(foot.toes) == ["5-1", "5-3", "8-5"]


def test_a_tile_of_the_doubles_number_touching_it_by_its_other_end_or_past_its_end_is_no_toe():
    """A [5-5] laid against a [5-2], no toe yet, on a crowded table: a [6-5] touches its far
    side with its 6, and a [5-3] lies along past its end. Neither is a toe, so the foot
    still lacks all three."""
    from referee.rules.tiles import Tile
    from referee.services.photos import TableReading

    w = 50.0
    double = _Read(5, 5, (0, 0), 90, w)
    laid = _Read(5, 2, (-1.5 * w, 0), 180, w)
    by_its_six = _Read(6, 5, (1.5 * w, 0), 0, w)
    past_the_end = _Read(5, 3, (0.3 * w, 1.8 * w), 0, w)
    foot = TableReading(hand=_Photo([double, laid, by_its_six, past_the_end]), top=9).foot(Tile(5, 5))
    assert foot.toes == []
    r = w / 2 ** 0.5  # two toes fanned out at 45 degrees, their 5 against the far side
    toes = [_Read(5, 4, (0.5 * w + r, 0.6 * w + r), 45, w), _Read(5, 1, (0.5 * w + r, -0.6 * w - r), -45, w)]
    foot = TableReading(hand=_Photo([double, laid, by_its_six, past_the_end, *toes]), top=9).foot(Tile(5, 5))
    assert sorted(foot.toes) == ["5-1", "5-4"]


def test_the_desk_s_photo_carries_no_total_of_its_own():
    """The photo counter writes "N tiles, M pips" in English in the photo's corner; the desk
    says what was read under the photo in the player's language, so it asks for the photo
    without it, a double's tiles highlighted or none."""
    from referee.services.photos import TableReading

    photo = _Photo([_Read(5, 5, (0, 0), 90), _Read(5, 2, (-75, 0), 0), _Read(3, 1, (300, 0), 0)])
    reading = TableReading(hand=photo, top=9)
    assert reading.image(5).startswith("data:image/jpeg;base64,") and reading.image()
    assert photo.drawn == [{"highlight": [0, 1], "total": False}, {"highlight": None, "total": False}]
