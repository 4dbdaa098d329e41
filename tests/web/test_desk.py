"""The referee desk: the foot ruling through the JSON API and through the pages, the short
rulings, the game's log of rulings, and settling an open rule for the rest of the match."""

import json
import re

import pytest
from sqlmodel import select

from referee.services import referee_desk
from referee.services.games import Conflict
from referee.storage.models import Game, Ruling
from tests.web.helpers import database

# docs/rules.md: [1-1] laid late against [9-1]; with 7 of the 10 ones on the table 3 remain,
# exactly enough toes; with 8 on the table 2 remain and the foot can never be completed.
SEVEN = ["1-1", "9-1", "2-1", "3-1", "4-1", "6-1", "7-1"]
EIGHT = SEVEN + ["1-0"]
ELSEWHERE = ["9-9", "9-5", "5-5"]
PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def api(client, body, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    return client.post("/api/rulings/foot", json=body, headers=headers)


def new_game(client, rules="pagat"):
    response = client.post("/api/games", json={"players": PLAYERS, "rules": rules})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return body["id"], body["edit_token"]


def become_scorer(client, game_id, token):
    assert client.get(f"/games/{game_id}/join/{token}").status_code == 303


def text(response) -> str:
    """The page's words, without tags, on one line."""
    html = response.get_data(as_text=True)
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#39;", "'").split())


def taps(on, double="1-1", toes=(), boneyard="0", starting=False, **extra):
    """The foot form as the picker posts it once the double's tiles are shown."""
    form = {"double": double, "shown_double": double, "shown_starting": "1" if starting else "0",
            "on": [tile for tile in on if tile != double], "toe": list(toes), "boneyard": boneyard}
    if starting:
        form["starting"] = "1"
    form.update(extra)
    return form


def logged(app, game_id):
    with database(app) as db:
        return referee_desk.log_json(db, game_id)


# -- the API: every outcome -----------------------------------------------------------------


def test_api_seven_ones_leave_exactly_enough_toes(client):
    response = api(client, {"rules": "pagat", "double": "1-1", "on_table": SEVEN + ELSEWHERE, "toes_laid": 0,
                            "drawable": 0, "starting": False})
    assert response.status_code == 200
    body = response.get_json()
    assert body["completable"] is True and body["outcome"] == "completable"
    assert body["toes_missing"] == 3
    assert body["unseen"] == ["8-1", "5-1", "1-0"]
    assert "On the table: 7 of them, [1-1] included." in body["explanation"]
    assert "The foot can still be completed." in body["explanation"]
    assert body["rule"] == "Pagat"
    assert set(body) >= {"completable", "toes_missing", "unseen", "outcome", "explanation", "rule"}


def test_api_eight_ones_under_kelley_play_on(client):
    body = api(client, {"rules": "kelley", "double": "1-1", "on_table": EIGHT, "drawable": 4}).get_json()
    assert body["completable"] is False and body["outcome"] == "play-on"
    assert body["unseen"] == ["8-1", "5-1"] and body["toes_missing"] == 3
    assert "This foot can never be completed." in body["explanation"]
    assert "draws one tile while the boneyard lasts (4 left)" in body["explanation"]
    assert body["rule"].startswith("Kelley:")


@pytest.mark.parametrize("policy, words", [
    ("round-ends", "Under these house rules the round ends now"),
    ("released", "Under these house rules the foot is released"),
])
def test_api_policies_that_end_or_release_the_foot(client, policy, words):
    body = api(client, {"rules": {"preset": "kelley", "impossible_foot": policy}, "double": "1-1",
                        "on_table": EIGHT}).get_json()
    assert body["outcome"] == policy and body["completable"] is False
    assert words in body["explanation"]
    assert body["rule"] == "Chosen by the table"


def test_api_pagat_is_silent_so_the_table_decides(client):
    body = api(client, {"rules": "pagat", "double": "1-1", "on_table": EIGHT}).get_json()
    assert body["outcome"] == "table-decides"
    assert "The table must choose" in body["explanation"]
    assert body["rule"] == "Pagat does not address it: the table decides"


def test_api_toes_laid_and_the_starting_double(client):
    body = api(client, {"rules": "pagat", "double": "1-1", "on_table": EIGHT, "toes_laid": 2}).get_json()
    assert body["completable"] is True and body["toes_missing"] == 1
    # The starting [9-9] with 4 arms under Pagat: two laid, seven nines unseen.
    body = api(client, {"rules": "pagat", "double": "9-9", "on_table": ["9-9", "9-1", "9-2"], "toes_laid": 2,
                        "starting": True}).get_json()
    assert body["completable"] is True and body["toes_missing"] == 2 and len(body["unseen"]) == 7
    assert "The starting double [9-9] needs 4 arms" in body["explanation"]


@pytest.mark.parametrize("body, words", [
    ({"rules": "pagat", "double": "1-1", "on_table": ["1-1", "9-1", "9-1"]}, "listed twice"),
    ({"rules": "pagat", "double": "1-1", "on_table": ["1-1", "10-1"]}, "not a tile of a double-9 set"),
    ({"rules": "pagat", "double": "1-1", "on_table": EIGHT, "toes_laid": 4}, "takes 3 tiles, not 4"),
    ({"rules": "pagat", "double": "1-1", "on_table": ["1-1", "9-1", "2-1"], "toes_laid": 2}, "too few for [1-1]"),
    ({"rules": "pagat", "double": "1-2", "on_table": ["1-2"]}, "not a double"),
    ({"rules": "pagat", "double": "1-1", "on_table": ["9-1"]}, "must be among the tiles on the table"),
    ({"rules": "pagat", "double": "1-1", "on_table": "1-1 9-1"}, "'on_table' must be a list"),
    ({"rules": "pagat", "double": "1-1", "on_table": ["1-1", 91]}, "'on_table' must be a list"),
    ({"rules": "pagat", "double": 11, "on_table": SEVEN}, "'double' must be a tile"),
    ({"rules": "pagat", "double": "1-1", "on_table": SEVEN, "toes_laid": "1"}, "'toes_laid' must be a whole number"),
    ({"rules": "pagat", "double": "1-1", "on_table": SEVEN, "toes_laid": True}, "'toes_laid' must be a whole number"),
    ({"rules": "pagat", "double": "1-1", "on_table": SEVEN, "toes_laid": -1}, "cannot be negative"),
    ({"rules": "pagat", "double": "1-1", "on_table": SEVEN, "drawable": 1.5}, "'drawable' must be a whole number"),
    ({"rules": "pagat", "double": "1-1", "on_table": SEVEN, "drawable": 99}, "is more than the"),
    ({"rules": "pagat", "double": "1-1", "on_table": SEVEN, "starting": "no"}, "'starting' must be true or false"),
    ({"rules": "nope", "double": "1-1", "on_table": SEVEN}, "There is no preset called 'nope'"),
    ({"rules": 9, "double": "1-1", "on_table": SEVEN}, "Rules must be a preset name"),
    ({"rules": {"preset": "pagat", "impossible_foot": "shrug"}, "double": "1-1", "on_table": SEVEN},
     "'shrug' is not a choice"),
    ({"double": "1-1", "on_table": SEVEN}, "Say which house rules apply"),
    ({"rules": {"preset": "kelley", "set": 12, "deal_table": {}}, "double": "1-1", "on_table": SEVEN},
     "The deal table is empty"),
    ({"rules": "pagat", "double": "1-1", "on_table": SEVEN, "colour": "red"}, "'colour' is not part of a foot ruling"),
    ({"rules": "pagat", "double": "1-1", "on_table": ["1-1"] * 500}, "has only 55 tiles"),
    ({"rules": "pagat", "game": 7, "double": "1-1", "on_table": SEVEN}, "'game' must be a game's id"),
])
def test_api_refuses_nonsense_with_a_readable_422(client, body, words):
    response = api(client, body)
    assert response.status_code == 422
    assert words in response.get_json()["error"]


@pytest.mark.parametrize("raw, status, words", [("not json", 400, "not valid JSON"), ("[1, 2]", 422, "JSON object"),
                                               ("null", 422, "JSON object")])
def test_api_body_must_be_a_json_object(client, raw, status, words):
    response = client.post("/api/rulings/foot", data=raw, content_type="application/json")
    assert response.status_code == status
    assert words in response.get_json()["error"]


def test_api_unknown_game_is_404(client):
    response = api(client, {"game": "no-such-game", "double": "1-1", "on_table": SEVEN})
    assert response.status_code == 404
    assert response.get_json()["error"]


@pytest.mark.parametrize("game", ["nul\x00byte", "\udb34\udeda", "x" * 40, ""])
def test_api_game_that_cannot_be_an_id_is_404(client, game):
    """A game id with a NUL byte (PostgreSQL refuses it in text), an unpaired surrogate,
    too long or empty: no such game, never a server error."""
    response = api(client, {"game": game, "double": "1-1", "on_table": SEVEN})
    assert response.status_code == 404
    assert response.get_json()["error"]


def test_api_with_a_game_uses_its_rules_and_logs_only_with_its_token(app, client):
    game_id, token = new_game(client, {"preset": "kelley"})
    body = {"game": game_id, "double": "1-1", "on_table": EIGHT, "drawable": 2}
    anonymous = api(client, body)
    assert anonymous.status_code == 200 and anonymous.get_json()["outcome"] == "play-on"
    assert anonymous.get_json()["logged"] is False
    assert logged(app, game_id) == []
    wrong = api(client, body, token="wrong-token")
    assert wrong.status_code == 403 and "Bearer" in wrong.get_json()["error"]
    assert api(client, body, token="").status_code == 403
    assert client.post("/api/rulings/foot", json=body, headers={"Authorization": token}).status_code == 403
    assert logged(app, game_id) == []
    right = api(client, body, token=token)
    assert right.status_code == 200 and right.get_json()["logged"] is True
    [entry] = logged(app, game_id)
    assert entry["question"] == "foot" and entry["round"] == 1 and entry["outcome"] == "play-on"
    assert entry["foot"]["double"] == "1-1" and entry["foot"]["on_table"] == EIGHT
    assert entry["foot"]["drawable"] == 2 and entry["foot"]["toes_laid"] == 0
    assert "This foot can never be completed." in entry["answer"]
    assert entry["rule"].startswith("Kelley:")
    assert entry["at"].endswith("+00:00")


def test_api_with_a_game_takes_neither_rules_nor_players(client):
    game_id, _ = new_game(client)
    both = api(client, {"game": game_id, "rules": "kelley", "double": "1-1", "on_table": SEVEN})
    assert both.status_code == 422 and "either 'rules' or 'game'" in both.get_json()["error"]
    players = api(client, {"game": game_id, "players": 3, "double": "1-1", "on_table": SEVEN})
    assert players.status_code == 422


def test_api_is_exempt_from_csrf_when_csrf_is_on(app):
    app.config["WTF_CSRF_ENABLED"] = True
    response = app.test_client().post("/api/rulings/foot", json={"rules": "pagat", "double": "1-1",
                                                                  "on_table": SEVEN})
    assert response.status_code == 200


# -- the foot page: every outcome ------------------------------------------------------------------


def test_foot_page_asks_for_the_double_then_shows_its_picker(client):
    page = client.get("/referee/foot?preset=pagat&players=4")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'name="csrf_token"' in html
    assert html.count('name="double"') == 10
    assert "Tap the double in dispute." in text(page)
    assert html.count('id="verdict-bar"') == 1 and "hx-swap-oob" not in html
    # No JavaScript: tapping [1-1] and pressing the button shows the ten tiles carrying 1.
    picked = client.post("/referee/foot", data={"preset": "pagat", "players": "4", "double": "1-1"})
    html = picked.get_data(as_text=True)
    assert picked.status_code == 200
    assert html.count('name="on"') == 9 and html.count('name="toe"') == 9
    assert 'name="shown_double" value="1-1"' in html
    assert "Now tap the tiles carrying 1 that are on the table." in text(picked)


def test_foot_page_seven_ones_can_still_be_completed(client):
    page = client.post("/referee/foot", data=taps(SEVEN, boneyard="11", preset="pagat", players="4"))
    words = text(page)
    assert page.status_code == 200
    assert 'data-outcome="completable"' in page.get_data(as_text=True)
    assert "This foot can still be completed." in words
    assert "Toes missing 3" in words
    assert "Not on the table yet: 3 ([8-1], [5-1], [1-0])." in words
    assert "The boneyard holds 11 tiles and every one of them can be drawn." in words
    assert "House rule: Toes on a later double: 3 toes." in words


@pytest.mark.parametrize("lang, one, two", [
    ("en", "The boneyard holds 1 tile, and it can be drawn.",
     "The boneyard holds 2 tiles and every one of them can be drawn."),
    ("fr", "La pioche contient 1 pièce, et elle peut être piochée.",
     "La pioche contient 2 pièces, et toutes peuvent être piochées."),
    ("nl", "De pot bevat 1 steen en die kan getrokken worden.",
     "De pot bevat 2 stenen en die kunnen allemaal getrokken worden."),
])
def test_one_tile_is_said_in_the_singular_in_every_language(client, lang, one, two):
    def said(boneyard):
        return text(client.post(f"/referee/foot?lang={lang}", data=taps(SEVEN, boneyard=boneyard, preset="pagat",
                                                                        players="4")))
    assert one in said("1")
    assert two in said("2")


def test_a_logged_ruling_keeps_its_singular(app, client):
    game_id, token = new_game(client, {"preset": "pagat"})
    become_scorer(client, game_id, token)
    client.post(f"/games/{game_id}/referee/foot", data=taps(SEVEN, boneyard="1"))
    assert "in the boneyard, which has 1 tile left to draw." in text(client.get(f"/games/{game_id}"))
    assert "waaruit nog 1 steen getrokken kan worden." in text(client.get(f"/games/{game_id}?lang=nl"))


def test_a_ruling_logged_before_its_words_had_a_singular_is_still_translated(app, client):
    """A ruling logged by an earlier version stored the plural words alone as the msgid."""
    game_id, token = new_game(client, {"preset": "pagat"})
    become_scorer(client, game_id, token)
    client.post(f"/games/{game_id}/referee/foot", data=taps(SEVEN, boneyard="5"))
    with database(app) as session:
        [ruling] = session.exec(select(Ruling)).all()
        stored = json.loads(json.dumps(ruling.data))
        for part in stored["parts"]:
            if "plural" in part:
                part["msgid"] = part.pop("plural")
                del part["counted"]
        ruling.data = stored
        session.add(ruling)
        session.commit()
    assert "waaruit nog 5 stenen getrokken kunnen worden." in text(client.get(f"/games/{game_id}?lang=nl"))


def test_foot_fragment_eight_ones_pagat_the_table_decides_and_sees_the_choices(client):
    fragment = client.post("/referee/foot/ruling", data=taps(EIGHT, preset="pagat", players="4"))
    html = fragment.get_data(as_text=True)
    assert fragment.status_code == 200
    assert html.lstrip().startswith('<section id="ruling"')
    assert 'data-outcome="table-decides"' in html
    assert "It can never be completed. The house rules are silent: the table decides." in text(fragment)
    assert "Pagat does not address it: the table decides" in text(fragment)
    for choice in ("play-on", "round-ends", "released"):
        assert f'name="impossible_foot" value="{choice}"' in html
    assert 'id="foot-picker" hx-swap-oob' not in html  # same double: the picker stays as it is
    # The one-line verdict in the sticky bar at the bottom follows every tap.
    bar = re.search(r'<p id="verdict-bar"[^>]*hx-swap-oob="true">(.*?)</p>', html, re.S)
    assert bar and "the table decides" in bar.group(1)


@pytest.mark.parametrize("choice, outcome, words", [
    ("play-on", "play-on", "It can never be completed. Play goes on."),
    ("round-ends", "round-ends", "It can never be completed. The round ends now."),
    ("released", "released", "It can never be completed. The foot is released."),
])
def test_foot_page_standalone_with_the_tables_choice(client, choice, outcome, words):
    page = client.post("/referee/foot", data=taps(EIGHT, preset="pagat", players="4", impossible_foot=choice))
    assert page.status_code == 200
    assert f'data-outcome="{outcome}"' in page.get_data(as_text=True)
    assert words in text(page)
    assert "Chosen by the table" in text(page)


def test_foot_page_kelley_plays_on_with_the_boneyard_count(client):
    page = client.post("/referee/foot/ruling", data=taps(EIGHT, boneyard="6", preset="kelley", players="3"))
    words = text(page)
    assert 'data-outcome="play-on"' in page.get_data(as_text=True)
    assert "draws one tile while the boneyard lasts (6 left)" in words


def test_foot_page_keep_back_says_how_many_can_be_drawn(client):
    # Gamerules, 2 players: the last two boneyard tiles are never drawn.
    page = client.post("/referee/foot/ruling", data=taps(EIGHT, boneyard="5", preset="gamerules", players="2"))
    words = text(page)
    assert "under these rules the last two are never drawn, so 3 can still be drawn" in words
    assert 'data-outcome="play-on"' in page.get_data(as_text=True)
    three = client.post("/referee/foot/ruling", data=taps(SEVEN, boneyard="5", preset="gamerules", players="3"))
    assert "the last one is never drawn, so 4 can still be drawn" in text(three)


def test_foot_page_toes_marked_count_as_laid_and_on_the_table(client):
    # [2-1] and [3-1] marked as toes only (not tapped as on the table): still counted on the table.
    on = [tile for tile in EIGHT if tile not in ("2-1", "3-1")]
    page = client.post("/referee/foot/ruling", data=taps(on, toes=["2-1", "3-1"], preset="pagat", players="4"))
    words = text(page)
    assert "On the table: 8 of them, [1-1] included." in words
    assert "[1-1] needs 3 toes: 2 laid, 1 missing." in words
    assert 'data-outcome="completable"' in page.get_data(as_text=True)


def test_foot_page_starting_double_asks_for_arms(client):
    page = client.post("/referee/foot", data=taps(["9-9", "9-1"], double="9-9", toes=["9-1"], starting=True,
                                                  preset="hub8", players="4"))
    words = text(page)
    assert "The starting double [9-9] needs 8 arms: 1 laid, 7 missing." in words
    assert "Arms missing 7" in words
    assert "Tiles carrying 9, and the arms" in words


def test_foot_fragment_redraws_the_picker_when_the_double_or_starting_changes(client):
    form = taps(SEVEN, preset="pagat", players="4")
    form["double"] = "5-5"
    changed = client.post("/referee/foot/ruling", data=form)
    html = changed.get_data(as_text=True)
    assert changed.status_code == 200
    assert 'id="foot-picker" hx-swap-oob="true"' in html
    assert 'name="shown_double" value="5-5"' in html and 'value="5-1"' in html
    assert "Now tap the tiles carrying 5" in text(changed)
    starting = taps(SEVEN, preset="pagat", players="4")
    starting["starting"] = "1"
    arms = client.post("/referee/foot/ruling", data=starting).get_data(as_text=True)
    assert 'hx-swap-oob="true"' in arms and ">arm<" in arms.replace("<span class=\"sr\">", "<")


@pytest.mark.parametrize("form, words", [
    (taps(["1-1", "9-1"], toes=["3-4"], preset="pagat", players="4"), "[4-3] does not carry 1"),
    (taps(["1-1", "10-1"], preset="pagat", players="4"), "not a tile of a double-9 set"),
    (taps(EIGHT, toes=["2-1", "3-1", "4-1", "6-1"], preset="pagat", players="4"), "takes 3 tiles, not 4"),
    (taps(SEVEN, boneyard="lots", preset="pagat", players="4"), "is not a whole number"),
    (taps(SEVEN, boneyard="60", preset="pagat", players="4"), "the boneyard cannot hold 60"),
    (taps(["1-1"], preset="pagat", players="4"), "too few for [1-1]"),
    ({"double": "1-2", "preset": "pagat", "players": "4"}, "not a double"),
])
def test_foot_page_bad_taps_get_a_clear_message_and_422(client, form, words):
    page = client.post("/referee/foot", data=form)
    assert page.status_code == 422
    assert words in text(page)
    fragment = client.post("/referee/foot/ruling", data=form)
    assert fragment.status_code == 422 and words in text(fragment)


@pytest.mark.parametrize("query", ["preset=nope", "players=1", "players=many", "preset=pagat&impossible_foot=x"])
def test_desk_with_bad_rules_says_why(client, query):
    page = client.get("/referee?" + query)
    assert page.status_code == 422
    assert 'class="error"' in page.get_data(as_text=True)


# -- a game's desk and its log --------------------------------------------------------------------


def test_game_page_links_to_the_referee_desk(client):
    game_id, _ = new_game(client)
    page = client.get(f"/games/{game_id}")
    assert f'href="/games/{game_id}/referee"' in page.get_data(as_text=True)
    desk = client.get(f"/games/{game_id}/referee")
    assert desk.status_code == 200
    words = text(desk)
    assert "Round 1" in words and "Only a scorer's rulings are saved" in words
    for code in referee_desk.QUESTIONS:
        assert referee_desk.QUESTIONS[code].replace("'", "&#39;") in desk.get_data(as_text=True)


def test_unknown_game_desk_is_404(client):
    assert client.get("/games/nope/referee").status_code == 404
    assert client.get("/games/nope/referee/foot").status_code == 404
    assert client.post("/games/nope/referee/foot/ruling", data=taps(SEVEN)).status_code == 404
    assert client.get("/games/nope/referee/tie").status_code == 404


def test_scorer_ruling_on_the_page_is_logged_and_shown_on_the_game_page(app, client):
    game_id, token = new_game(client, {"preset": "kelley"})
    become_scorer(client, game_id, token)
    # The live preview never logs; the button does.
    client.post(f"/games/{game_id}/referee/foot/ruling", data=taps(EIGHT, boneyard="9"))
    assert logged(app, game_id) == []
    page = client.post(f"/games/{game_id}/referee/foot", data=taps(EIGHT, boneyard="9"))
    assert page.status_code == 200
    assert "Saved in the game's log, round 1." in text(page)
    assert 'data-outcome="play-on"' in page.get_data(as_text=True)
    [entry] = logged(app, game_id)
    assert entry["outcome"] == "play-on" and entry["foot"]["boneyard"] == 9 and entry["foot"]["drawable"] == 9
    assert entry["foot"]["on_table"] == EIGHT
    game = client.get(f"/games/{game_id}")
    words = text(game)
    assert "Referee's rulings" in words
    assert "Can this foot still be completed?" in words
    assert "[1-1]: can never be completed" in words
    assert "This foot can never be completed." in words
    assert "Kelley: a player who cannot add a toe draws" in words


def test_a_watcher_gets_the_ruling_but_nothing_is_logged(app, client):
    game_id, _ = new_game(client)
    page = client.post(f"/games/{game_id}/referee/foot", data=taps(SEVEN))
    assert page.status_code == 200
    assert "This foot can still be completed." in text(page)
    assert "Only a scorer's rulings are saved in the game's log." in text(page)
    assert logged(app, game_id) == []
    assert "Referee's rulings" not in text(client.get(f"/games/{game_id}"))


def test_scorer_settles_the_open_rule_for_the_rest_of_the_match(app, client):
    game_id, token = new_game(client, "pagat")
    become_scorer(client, game_id, token)
    fragment = client.post(f"/games/{game_id}/referee/foot/ruling", data=taps(EIGHT))
    html = fragment.get_data(as_text=True)
    assert 'data-outcome="table-decides"' in html
    for choice in ("play-on", "round-ends", "released"):
        assert f'name="settle" value="{choice}"' in html
    with database(app) as db:
        before = db.get(Game, game_id).version
    page = client.post(f"/games/{game_id}/referee/foot", data=taps(EIGHT, settle="released"))
    assert page.status_code == 200
    words = text(page)
    assert "Recorded as a house rule for the rest of the match: The foot is released." in words
    assert 'data-outcome="released"' in page.get_data(as_text=True)
    with database(app) as db:
        game = db.get(Game, game_id)
        # the settled rule, then the ruling logged under it: each moves the game on, so phones pick both up
        assert game.overrides == {"impossible_foot": "released"} and game.version == before + 2
    [entry] = logged(app, game_id)
    assert entry["outcome"] == "released" and entry["rule"] == "Chosen by the table"
    # The API and the house-rules card now follow the table's choice.
    body = api(client, {"game": game_id, "double": "1-1", "on_table": EIGHT}).get_json()
    assert body["outcome"] == "released"
    assert "A foot that can never be completed The foot is released: play resumes on every open end" in text(
        client.get(f"/games/{game_id}"))
    # Once settled it stays settled.
    again = client.post(f"/games/{game_id}/referee/foot", data=taps(EIGHT, settle="round-ends"))
    assert again.status_code == 422
    assert "already say what happens" in text(again)


def test_settling_needs_the_scorer_and_a_real_choice(app, client):
    game_id, token = new_game(client, "pagat")
    watcher = app.test_client()
    assert watcher.post(f"/games/{game_id}/referee/foot", data=taps(EIGHT, settle="released")).status_code == 403
    become_scorer(client, game_id, token)
    bad = client.post(f"/games/{game_id}/referee/foot", data=taps(EIGHT, settle="shrug"))
    assert bad.status_code == 422 and "'shrug' is not a choice" in text(bad)
    open_choice = client.post(f"/games/{game_id}/referee/foot", data=taps(EIGHT, settle="table-decides"))
    assert open_choice.status_code == 422
    with database(app) as db:
        assert db.get(Game, game_id).overrides == {}
    assert logged(app, game_id) == []


def test_settle_open_rule_service_refuses_a_stale_game(app, client):
    game_id, _ = new_game(client, "pagat")
    with database(app) as first, database(app) as second:
        stale = second.get(Game, game_id)
        referee_desk.settle_open_rule(first, first.get(Game, game_id), "play-on")
        with pytest.raises(Conflict):
            referee_desk.settle_open_rule(second, stale, "round-ends")
    with database(app) as db:
        assert db.get(Game, game_id).overrides == {"impossible_foot": "play-on"}


# -- the short rulings -------------------------------------------------------------------------------


@pytest.mark.parametrize("question, preset, words", [
    ("out-on-double", "kelley", "A player who does it anyway scores 50 for the round instead of 0."),
    ("out-on-double", "pagat", "Going out on a double is allowed"),
    ("draw", "gamerules", "If the drawn tile fits, it must be played"),
    ("draw", "pagat", "If the drawn tile fits, it may be played"),
    ("missing-double", "pagat", "the round's double is among them 20.0 % of the time"),
    ("missing-double", "double-foot", "can never be missing"),
    ("chicken-little", "pagat", "Chicken little is not played"),
    ("next-double", "kelley", "Round 1 of 10 is played on [9-9]."),
    ("tie", "hub8", "the tied player who went out first in the last round wins"),
    ("tie", "pagat", "it is a draw between them"),
])
def test_short_rulings_standalone(client, question, preset, words):
    page = client.get(f"/referee/{question}?preset={preset}&players=4")
    assert page.status_code == 200
    assert words in text(page)
    assert "House rule:" in text(page)


def test_next_double_for_a_chosen_round(client):
    page = client.get("/referee/next-double?preset=pagat&players=4&round=3")
    assert "Round 3 of 10 is played on [7-7]." in text(page)
    assert client.get("/referee/next-double?preset=pagat&players=4&round=11").status_code == 422


def test_unknown_question_is_404(client):
    assert client.get("/referee/why").status_code == 404


def test_short_ruling_saved_by_the_scorer_in_the_log(app, client):
    game_id, token = new_game(client, "kelley")
    watcher = app.test_client()
    page = watcher.get(f"/games/{game_id}/referee/out-on-double")
    assert page.status_code == 200 and "Save this ruling" not in text(page)
    assert watcher.post(f"/games/{game_id}/referee/out-on-double").status_code == 403
    become_scorer(client, game_id, token)
    saved = client.post(f"/games/{game_id}/referee/out-on-double", data={"round": "1"})
    assert saved.status_code == 303
    assert "Saved in the game's log." in text(client.get(saved.headers["Location"]))
    client.post(f"/games/{game_id}/referee/next-double", data={"round": "2"})
    entries = logged(app, game_id)
    assert [e["question"] for e in entries] == ["out-on-double", "next-double"]
    assert entries[0]["outcome"] == "costs-50" and entries[0]["foot"] is None
    assert "scores 50" in entries[0]["answer"] and entries[0]["rule"] == "Kelley"
    assert entries[1]["outcome"] == "8-8" and "Round 2 of 10 is played on [8-8]." in entries[1]["answer"]
    assert "Who lays the next round's double?" in text(client.get(f"/games/{game_id}"))
    assert client.post("/referee/tie").status_code == 405


# -- what every desk page keeps to -----------------------------------------------------------------------


def test_desk_pages_carry_no_inline_script_or_style(client):
    game_id, token = new_game(client, "pagat")
    become_scorer(client, game_id, token)
    client.post(f"/games/{game_id}/referee/foot", data=taps(EIGHT))
    pages = [client.get("/referee"), client.get("/referee/foot"), client.get("/referee/tie"),
             client.post("/referee/foot", data=taps(EIGHT, preset="pagat", players="4")),
             client.get(f"/games/{game_id}/referee"), client.get(f"/games/{game_id}/referee/next-double"),
             client.get(f"/games/{game_id}")]
    for page in pages:
        html = page.get_data(as_text=True)
        assert " style=" not in html
        assert not re.search(r"<script(?![^>]*\bsrc=)", html)
        assert " on" + "click=" not in html


def test_desk_forms_carry_csrf_and_work_with_csrf_on(app, client):
    app.config["WTF_CSRF_ENABLED"] = True
    page = client.get("/referee/foot?preset=pagat&players=4")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    ok = client.post("/referee/foot/ruling", data={**taps(SEVEN, preset="pagat", players="4"), "csrf_token": token})
    assert ok.status_code == 200
    assert client.post("/referee/foot/ruling", data=taps(SEVEN, preset="pagat", players="4")).status_code == 400
