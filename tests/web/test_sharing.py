"""More phones on one game: scorer and watch links, QR codes, token rotation, live polling."""

import re
from pathlib import Path

import numpy as np

from referee.web.game import routes as game_routes
from tests.qr import read_qr
from tests.web.helpers import as_scorer, bearer, new_game, pips_round


def decode_qr(svg: str) -> str:
    """Draw the SVG path's unit squares into a bitmap and read it back with OpenCV."""
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))
    scale = 8
    image = np.full((size * scale, size * scale), 255, np.uint8)
    for x, y in re.findall(r"M(\d+),(\d+)H", svg):
        x, y = int(x), int(y)
        image[y * scale:(y + 1) * scale, x * scale:(x + 1) * scale] = 0
    return read_qr(image)


def test_scorer_sees_both_links_and_watchers_only_the_watch_link(client, app):
    game = new_game(client)
    watcher = app.test_client()
    watch_page = watcher.get(f"/games/{game['id']}").get_data(as_text=True)
    assert game["edit_token"] not in watch_page
    assert 'data-kind="watch"' in watch_page and 'data-kind="scorer"' not in watch_page
    as_scorer(client, game)
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    svgs = dict(re.findall(r'<div class="qr" data-kind="(\w+)">(<svg.*?</svg>)', page, re.S))
    assert decode_qr(svgs["scorer"]) == f"http://localhost/games/{game['id']}/join/{game['edit_token']}"
    assert decode_qr(svgs["watch"]) == f"http://localhost/games/{game['id']}"


def test_rotating_the_token_cuts_off_old_scorer_links(client, app):
    game = new_game(client)
    as_scorer(client, game)
    other_phone = app.test_client()
    as_scorer(other_phone, game)
    assert client.post(f"/games/{game['id']}/token").status_code == 303
    assert other_phone.get(f"/games/{game['id']}/join/{game['edit_token']}").status_code == 403
    assert other_phone.get(f"/games/{game['id']}/rounds/new").status_code == 403
    assert client.get(f"/games/{game['id']}/rounds/new").status_code == 200
    assert pips_round(client, game, {"Ann": 1, "Bob": 1, "Cy": 1}, went_out="Di").status_code == 403
    assert app.test_client().post(f"/games/{game['id']}/token").status_code == 403


def test_scoreboard_poll_answers_304_until_a_round_is_saved(client):
    game = new_game(client)
    first = client.get(f"/games/{game['id']}/scoreboard")
    assert first.status_code == 200 and first.headers["ETag"]
    etag = first.headers["ETag"]
    again = client.get(f"/games/{game['id']}/scoreboard", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    pips_round(client, game, {"Ann": 1, "Bob": 2, "Cy": 3}, went_out="Di")
    changed = client.get(f"/games/{game['id']}/scoreboard", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert "Round 2" in changed.get_data(as_text=True)


def two_processes(make_app, database_url):
    """Two apps on one database and one instance folder, as two workers of `referee serve` are."""
    return make_app(database_url), make_app(database_url)


def test_a_watchers_scoreboard_is_rendered_once_for_every_process(make_app, database_url, monkeypatch):
    first, second = two_processes(make_app, database_url)
    game = new_game(first.test_client())
    rendered = []
    real = game_routes._render_live
    monkeypatch.setattr(game_routes, "_render_live", lambda *args: rendered.append(args) or real(*args))
    seen = [app.test_client().get(f"/games/{game['id']}/scoreboard").get_data(as_text=True)
            for app in (first, second, first, second)]
    assert len(rendered) == 1 and len(set(seen)) == 1
    # A round saved through the other process is on the very next poll of either.
    pips_round(second.test_client(), game, {"Ann": 7, "Bob": 2, "Cy": 3}, went_out="Di")
    for app in (first, second):
        fresh = app.test_client().get(f"/games/{game['id']}/scoreboard").get_data(as_text=True)
        assert "Round 2" in fresh and '<span class="total">7<' in fresh
    assert len(rendered) == 2
    # Each language is its own fragment.
    dutch = first.test_client().get(f"/games/{game['id']}/scoreboard", headers={"Accept-Language": "nl"})
    assert "Ronde 2" in dutch.get_data(as_text=True) and len(rendered) == 3


def test_the_scoreboard_is_served_when_its_cache_cannot_be_written(app, client):
    (Path(app.instance_path) / "fragments").write_text("not a folder")
    game = new_game(client)
    pips_round(client, game, {"Ann": 7, "Bob": 2, "Cy": 3}, went_out="Di")
    for _ in range(2):
        poll = client.get(f"/games/{game['id']}/scoreboard")
        assert poll.status_code == 200 and '<span class="total">7<' in poll.get_data(as_text=True)


def test_two_phones_saving_the_same_round_do_not_overwrite_each_other(client):
    game = new_game(client)
    body = {"hands": {"Ann": {"pips": 1}, "Bob": {"pips": 2}, "Cy": {"pips": 3}}, "went_out": "Di", "number": 1}
    assert client.post(f"/api/games/{game['id']}/rounds", json=body, headers=bearer(game)).status_code == 201
    body["hands"]["Ann"] = {"pips": 40}
    second = client.post(f"/api/games/{game['id']}/rounds", json=body, headers=bearer(game))
    assert second.status_code == 409
    assert "just saved from another phone" in second.json["error"]
    assert second.json["game"]["rounds"][0]["scores"]["Ann"] == 1
    assert second.json["game"]["rounds"][1]["scores"] is None


def test_the_second_phone_on_the_round_page_gets_the_saved_version(client, app):
    game = new_game(client)
    as_scorer(client, game)
    fields = {"action": "save", "number": "1", "pips-0": "1", "pips-1": "2", "pips-2": "3", "went_out": "3"}
    assert client.post(f"/games/{game['id']}/rounds/new", data=fields).status_code == 303
    late = client.post(f"/games/{game['id']}/rounds/new", data={**fields, "pips-0": "44"})
    assert late.status_code == 409
    text = late.get_data(as_text=True)
    assert "just saved from another phone" in text and "Correct round 1" in text
    assert 'value="1"' in text
