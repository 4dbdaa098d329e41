"""Who may write, and what leaks: token guessing is rate-limited, cookies are locked down,
the token stays out of logs, and a crash shows no stack trace."""

import re

import pytest
import requests

from tests.reliability.server import Server
from tests.web.helpers import new_game, pips_round


def guess(client, game, token, addr="192.0.2.10"):
    return client.post(f"/api/games/{game['id']}/rounds", environ_base={"REMOTE_ADDR": addr},
                       headers={"Authorization": f"Bearer {token}"},
                       json={"hands": {"Ann": {"pips": 1}, "Bob": {"pips": 1}, "Cy": {"pips": 1}}, "went_out": "Di"})


def test_token_guessing_is_rate_limited_per_game_and_client(client):
    game = new_game(client)
    for attempt in range(10):
        assert guess(client, game, f"wrong-{attempt}").status_code == 403
    blocked = guess(client, game, "wrong-again")
    assert blocked.status_code == 429
    assert "Too many attempts" in blocked.json["error"]
    # The guesser cannot lock the scorer out: the right token is never refused, even from the
    # guesser's own address (one Wi-Fi, one public address), and other games are not touched.
    assert guess(client, game, game["edit_token"]).status_code == 201
    other = new_game(client)
    assert guess(client, other, "wrong").status_code == 403
    assert guess(client, game, game["edit_token"], addr="192.0.2.11").status_code == 201


def test_a_scorer_without_a_token_is_asked_for_one_and_not_counted_as_guessing(client):
    game = new_game(client)
    for _ in range(15):
        missing = client.post(f"/api/games/{game['id']}/rounds", json={"hands": {}})
        assert missing.status_code == 401
        assert missing.headers["WWW-Authenticate"].startswith("Bearer")
    assert pips_round(client, game, {"Ann": 1, "Bob": 1, "Cy": 1}, went_out="Di").status_code == 201


def test_cookies_are_http_only_and_same_site(client):
    game = new_game(client)
    joined = client.get(f"/games/{game['id']}/join/{game['edit_token']}")
    cookie = joined.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert game["edit_token"] not in cookie  # the session is signed, but holds the token only inside
    lang = client.get("/lang/fr").headers["Set-Cookie"]
    assert "HttpOnly" in lang and "SameSite=Lax" in lang


def test_a_crash_shows_no_stack_trace_or_sql(app):
    def explode():
        raise RuntimeError("SELECT secret FROM game -- internal detail")

    app.add_url_rule("/explode", view_func=explode)
    app.config["TESTING"] = False
    page = app.test_client().get("/explode")
    text = page.get_data(as_text=True)
    assert page.status_code == 500
    assert "Something went wrong" in text
    assert "Traceback" not in text and "SELECT" not in text


@pytest.mark.slow
def test_the_edit_token_never_reaches_the_server_log(database_url, tmp_path):
    server = Server(database_url)
    log = tmp_path / "server.log"
    with open(log, "w") as sink:
        server.start_logging_to(sink)
        try:
            game = requests.post(server.url + "/api/games", json={"players": ["Ann", "Bob"]}, timeout=10).json()
            session = requests.Session()
            assert session.get(f"{server.url}/games/{game['id']}/join/{game['edit_token']}", timeout=10).ok
            assert session.get(f"{server.url}/games/{game['id']}/join/not-it", timeout=10).status_code == 403
            requests.post(f"{server.url}/api/games/{game['id']}/rounds", timeout=10,
                          headers={"Authorization": "Bearer " + game["edit_token"]}, json={"hands": "x"})
        finally:
            server.stop()
    text = log.read_text()
    assert "Listening at" in text  # the log was captured
    assert game["edit_token"] not in text
    assert not re.search(r"/join/\S+", text)
