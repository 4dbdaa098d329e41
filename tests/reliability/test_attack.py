"""The holes an attack on the live server found, each closed: players of other people's
games, an overflowing cookie, redirects off the site, hostile JSON, a restart after the
master was killed, secrets in the log, the API against its own document, lock-out, and
names made of emoji sequences."""

import logging
import os
import signal
import time

import pytest
import requests
from flask import session

from referee.web.security import KEPT_TOKENS, remember_token, scorer_tokens
from tests.reliability.server import Server
from tests.web.helpers import as_scorer, bearer, new_game, pips_round

PIPS = {"Ann": 3, "Bob": 4, "Cy": 5}


# -- players of other people's games ----------------------------------------------------------


def test_a_stranger_cannot_rename_a_player_of_a_game_they_do_not_score(app, client):
    theirs = new_game(client, players=["Vera", "Wim"])
    stranger = app.test_client()
    mine = new_game(stranger, players=["Vera", "Xan"])
    as_scorer(stranger, mine)
    vera = client.get(f"/api/games/{theirs['id']}").json  # the player's id comes from the players page
    page = stranger.get("/players").get_data(as_text=True)
    vera_id = int(page.split('href="/players/')[1].split('"')[0]) if "Vera" in page else None
    assert vera_id is not None and vera["players"][0] == "Vera"
    renamed = stranger.post(f"/players/{vera_id}/rename", data={"name": "Cheater"})
    assert renamed.status_code == 403
    merged = stranger.post(f"/players/{vera_id}/merge", data={"into": "Xan"})
    assert merged.status_code == 403
    assert pips_round(client, theirs, {"Vera": 5}, went_out="Wim").status_code == 201
    assert "only a phone that scores all of them" in stranger.get(f"/players/{vera_id}").get_data(as_text=True)


def test_the_scorer_of_every_game_a_player_sat_at_may_rename_them(client):
    first = new_game(client, players=["Vera", "Wim"])
    second = new_game(client, players=["Vera", "Xan"])
    as_scorer(client, first)
    page = client.get("/players").get_data(as_text=True)
    vera_id = int(page.split('href="/players/')[1].split('"')[0])
    assert client.post(f"/players/{vera_id}/rename", data={"name": "Vee"}).status_code == 403
    as_scorer(client, second)
    assert client.post(f"/players/{vera_id}/rename", data={"name": "Vee"}).status_code == 303
    assert client.get(f"/api/games/{first['id']}").json["players"][0] == "Vee"


# -- the cookie --------------------------------------------------------------------------------


def test_the_cookie_stays_small_whatever_the_number_of_games(app):
    with app.test_request_context("/"):
        for number in range(1000):
            remember_token(f"game{number:012d}", "t" * 24)
        cookie = app.session_interface.get_signing_serializer(app).dumps(dict(session))
        assert len(cookie) < 4096
        held = scorer_tokens()
        assert len(held) == KEPT_TOKENS and "game000000000999" in held and "game000000000969" not in held


def test_the_newest_game_can_be_scored_after_many_and_an_old_one_says_how(app, client):
    created = []
    for _ in range(KEPT_TOKENS + 5):
        response = client.post("/games/new", data={"player-0": "Ann", "player-1": "Bob", "preset": "pagat"})
        assert response.status_code == 303
        created.append(response.headers["Location"].rstrip("/").split("/")[-1])
    assert "Enter the hands of round 1" in client.get(f"/games/{created[-1]}").get_data(as_text=True)
    oldest = client.get(f"/games/{created[0]}").get_data(as_text=True)
    assert "Enter the hands of round 1" not in oldest and "scorer link" in oldest


# -- redirects ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("target", ["/%09/evil.example/x", "//evil.example", "/%5Cevil.example", "https://evil.example",
                                    "/%0d/x", "/%0a%0dSet-Cookie:x=1", "/\x7f/x"])
def test_the_language_switch_stays_on_this_site(client, target):
    response = client.get(f"/lang/fr?next={target}")
    assert response.status_code == 302
    assert response.headers["Location"] == "/"


def test_the_language_switch_goes_back_to_a_page_of_this_site(client):
    assert client.get("/lang/nl?next=/games/new%3Fx=1").headers["Location"] == "/games/new?x=1"


# -- hostile JSON ----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/games", "/api/rulings/foot"])
def test_deeply_nested_json_is_a_clear_400(client, path):
    body = "[" * 100000 + "]" * 100000
    response = client.post(path, data=body, content_type="application/json")
    assert response.status_code in (400, 413)
    assert response.json["error"]


def test_nested_json_on_the_rounds_routes_is_a_clear_400(client):
    game = new_game(client)
    body = '{"hands": ' + "[" * 5000 + "]" * 5000 + "}"
    for method in (client.post, client.put):
        path = f"/api/games/{game['id']}/rounds" + ("/1" if method == client.put else "")
        response = method(path, data=body, content_type="application/json", headers=bearer(game))
        assert response.status_code == 400 and "nests deeper" in response.json["error"]


def test_malformed_json_is_400_and_wrong_values_are_422(client):
    bad = client.post("/api/games", data='{"players": ["Ann",', content_type="application/json")
    assert bad.status_code == 400 and "not valid JSON" in bad.json["error"]
    wrong = client.post("/api/games", json={"players": "Ann"})
    assert wrong.status_code == 422
    huge = client.post("/api/games", data='{"players": ["' + "a" * 70000 + '"]}', content_type="application/json")
    assert huge.status_code == 400 and "larger than" in huge.json["error"]


# -- the API as its document says ------------------------------------------------------------------


def test_a_wrong_method_is_405_with_allow(client):
    response = client.put("/api/games")
    assert response.status_code == 405
    assert "POST" in response.headers["Allow"]
    game = new_game(client)
    rounds = client.get(f"/api/games/{game['id']}/rounds")
    assert rounds.status_code == 405 and "POST" in rounds.headers["Allow"]
    assert client.put("/api/nothing-here").status_code == 404


def test_missing_credentials_are_401_and_a_wrong_token_403(client):
    game = new_game(client)
    body = {"hands": {name: {"pips": 1} for name in PIPS}, "went_out": "Di"}
    missing = client.post(f"/api/games/{game['id']}/rounds", json=body)
    assert missing.status_code == 401 and missing.headers["WWW-Authenticate"].startswith("Bearer")
    wrong = client.post(f"/api/games/{game['id']}/rounds", json=body, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 403


def test_the_api_takes_what_its_schema_allows_and_refuses_what_it_forbids(client):
    assert client.post("/api/games", json={"players": ["", "Ann", "Bob"]}).status_code == 422
    game = new_game(client)
    whole = pips_round(client, game, {"Ann": 3.0, "Bob": 4, "Cy": 5}, went_out="Di")
    assert whole.status_code == 201 and whole.json["scores"]["Ann"] == 3
    assert client.delete(f"/api/games/{game['id']}/rounds/0", headers=bearer(game)).status_code in (404, 409)


def test_the_form_refuses_a_seat_that_is_not_at_the_table(client):
    game = new_game(client)
    as_scorer(client, game)
    response = client.post(f"/games/{game['id']}/rounds/new",
                           data={"action": "save", "went_out": "-1", "pips-0": "3", "pips-1": "4", "pips-2": "5"})
    assert response.status_code == 422
    assert client.get(f"/api/games/{game['id']}").json["rounds"][0]["scores"] is None


# -- secrets in the log ------------------------------------------------------------------------------


def test_an_unexpected_error_logs_the_route_not_the_token(app, caplog, monkeypatch):
    client = app.test_client()
    game = new_game(client)
    app.config["TESTING"] = False
    from referee.web.game import routes

    monkeypatch.setattr(routes, "remember_token", lambda *args: (_ for _ in ()).throw(RuntimeError("boom")))
    with caplog.at_level(logging.ERROR):
        response = client.get(f"/games/{game['id']}/join/{game['edit_token']}")
    assert response.status_code == 500
    assert game["edit_token"] not in caplog.text
    assert "/games/<game_id>/join/<token>" in caplog.text


# -- names -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["👨‍👩‍👧‍👦", "🏳️‍🌈 Sam", "Zoë", "李雷", "Ana\u00adMaria", "Moose \U0001face"])
def test_names_take_any_printable_text_emoji_sequences_included(client, name):
    game = new_game(client, players=[name, "Other"])
    assert game["players"][0] == name


@pytest.mark.parametrize("name", ["Ann\u202eevil", "Bob\u2066x", "Cy\u200f", "Di\x07", "E\uf8ffF"])
def test_names_refuse_control_and_direction_characters(client, name):
    assert client.post("/api/games", json={"players": [name, "Other"]}).status_code == 422


# -- restart ---------------------------------------------------------------------------------------


@pytest.mark.slow
def test_serve_starts_right_after_its_master_was_killed(database_url):
    first = Server(database_url, workers=2).start()
    workers = [int(pid) for pid in os.popen(f"pgrep -P {first.process.pid}").read().split()]
    assert workers
    os.kill(first.process.pid, signal.SIGKILL)  # the master alone, as a crash or the OOM killer would
    first.process.wait(timeout=10)
    second = Server(database_url, workers=2)
    second.port, second.url = first.port, first.url
    started = time.monotonic()
    second.start(timeout=20)
    try:
        assert time.monotonic() - started < 15
        assert requests.get(second.url + "/health", timeout=5).text == "ok"
        time.sleep(1)
        for pid in workers:  # the orphans died with their master
            assert not os.path.exists(f"/proc/{pid}") or "zombie" in open(f"/proc/{pid}/status").read().lower()
    finally:
        second.stop()
        first.kill()
