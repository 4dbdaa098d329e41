"""The HTML pages through Flask's test client: what a phone with JavaScript off gets."""

import re

import pytest

from tests.web.helpers import as_scorer, new_game, pips_round


def form_for_players(names, **extra):
    data = {f"player-{i}": name for i, name in enumerate(names)}
    data.update(extra)
    return data


def test_home_lists_unfinished_and_finished_games(client):
    assert "None yet" in client.get("/").get_data(as_text=True)
    game = new_game(client)
    done = new_game(client, players=["Eve", "Fay"], rules={"preset": "double-foot", "match_length": "one-round"})
    pips_round(client, done, {"Eve": 5}, went_out="Fay")
    page = client.get("/").get_data(as_text=True)
    unfinished, finished = page.split("Finished games")
    assert f"/games/{game['id']}" in unfinished and f"/games/{done['id']}" not in unfinished
    assert f"/games/{done['id']}" in finished and "Won by Fay" in finished


def test_new_game_page_shows_what_the_rules_mean(client):
    page = client.get("/games/new").get_data(as_text=True)
    assert "Pagat" in page and "Tiles each" in page
    preview = client.post("/games/new/preview", data=form_for_players(["A", "B", "C"], preset="pagat-reduced"))
    text = preview.get_data(as_text=True)
    assert preview.status_code == 200
    assert re.search(r"Tiles each</dt><dd>11<", text)
    assert "40.0 %" in text
    assert "Open rule" in text  # Pagat says nothing about impossible feet


def test_preview_says_why_a_choice_cannot_work(client):
    text = client.post("/games/new/preview", data=form_for_players(
        ["A", "B", "C", "D"], preset="pagat", **{"rule-set": "6", "rule-arms": "8"})).get_data(as_text=True)
    assert 'class="error"' in text and "arms" in text


def test_settling_the_open_rule_removes_the_warning(client):
    text = client.post("/games/new/preview", data=form_for_players(
        ["A", "B"], preset="pagat", **{"rule-impossible_foot": "round-ends"})).get_data(as_text=True)
    assert "Open rule" not in text


def test_creating_a_game_from_the_form_makes_this_browser_a_scorer(client):
    response = client.post("/games/new", data=form_for_players(["Ann", "Bob", "", "Cy"], action="start"))
    assert response.status_code == 303
    game_url = response.headers["Location"]
    page = client.get(game_url).get_data(as_text=True)
    assert "Ann · Bob · Cy" in page
    assert "Enter the hands of round 1" in page
    assert "Whoever holds [9-9]" in page or "[9-9]" in page


def test_new_game_form_errors_keep_what_was_typed(client):
    response = client.post("/games/new", data=form_for_players(["Ann"], action="start"))
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert "2 to 8 players" in text and 'value="Ann"' in text


def test_names_from_earlier_games_are_offered(client):
    new_game(client, players=["Grandma", "Theo"])
    assert '<option value="Grandma">' in client.get("/games/new").get_data(as_text=True)


def test_game_page_for_a_watcher_has_no_controls(client):
    game = new_game(client)
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "Enter the hands" not in page and "Undo" not in page
    assert client.get(f"/games/{game['id']}/rounds/new").status_code == 403
    forged = client.post(f"/games/{game['id']}/rounds/new", data={"pips-0": "1", "went_out": "1"})
    assert forged.status_code == 403
    assert "scorer" in forged.get_data(as_text=True)


def test_a_wrong_scorer_link_is_refused(client):
    game = new_game(client)
    assert client.get(f"/games/{game['id']}/join/not-the-token").status_code == 403


def test_unknown_game_page_is_404(client):
    response = client.get("/games/nope")
    assert response.status_code == 404
    assert "no such page or game" in response.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/games/no%00pe", "/games/no%00pe/scoreboard", "/games/" + "x" * 40])
def test_game_address_that_cannot_be_an_id_is_404(client, path):
    response = client.get(path)
    assert response.status_code == 404


def round_form(**fields):
    data = {"action": "save"}
    data.update(fields)
    return data


def test_saving_a_round_from_the_keypad_and_typed_totals(client):
    game = new_game(client)
    as_scorer(client, game)
    page = client.get(f"/games/{game['id']}/rounds/new").get_data(as_text=True)
    assert page.count('name="tiles-0"') == 55
    assert re.search(r'value="9-9" disabled data-round-double', page)  # the round's double is on the table
    response = client.post(f"/games/{game['id']}/rounds/new", data={
        "action": "save", "tiles-0": ["0-0", "4-3"], "pips-1": "12", "pips-2": "0", "went_out": "3"})
    assert response.status_code == 303
    state = client.get(f"/api/games/{game['id']}").json
    assert state["rounds"][0]["scores"] == {"Ann": 57, "Bob": 12, "Cy": 0, "Di": 0}


def test_a_round_cannot_be_saved_while_a_player_has_nothing_entered(client):
    game = new_game(client)
    as_scorer(client, game)
    response = client.post(f"/games/{game['id']}/rounds/new", data=round_form(**{"pips-0": "5", "pips-1": "3", "went_out": "3"}))
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert 'class="card hand missing" id="hand-2"' in text
    assert "Nothing is entered for Cy" in text and 'href="#hand-2"' in text
    assert client.get(f"/api/games/{game['id']}").json["rounds"][0]["scores"] is None


@pytest.mark.parametrize("fields, message", [
    ({"tiles-0": ["4-3"], "tiles-1": ["4-3"], "pips-2": "1", "went_out": "3"}, "both Ann and Bob"),
    ({"tiles-0": ["9-9"], "pips-1": "1", "pips-2": "1", "went_out": "3"}, "opened this round"),
    ({"tiles-0": ["4-3"], "pips-0": "7", "pips-1": "1", "pips-2": "1", "went_out": "3"}, "keep one"),
    ({"pips-0": "lots", "pips-1": "1", "pips-2": "1", "went_out": "3"}, "whole number"),
    ({"pips-0": "1", "pips-1": "1", "pips-2": "1", "pips-3": "2", "went_out": "3"}, "went out"),
    ({"pips-0": "1", "pips-1": "1", "pips-2": "1", "went_out": "9"}, "not at this table"),
])
def test_round_form_mistakes_get_a_clear_message(client, fields, message):
    game = new_game(client)
    as_scorer(client, game)
    response = client.post(f"/games/{game['id']}/rounds/new", data=round_form(**fields))
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert client.get(f"/api/games/{game['id']}").json["rounds"][0]["scores"] is None


def test_checking_points_before_saving_shows_the_house_values(client):
    game = new_game(client, rules={"preset": "pagat", "double_blank": 25})
    as_scorer(client, game)
    fields = {"tiles-0": ["0-0"], "pips-1": "12", "pips-2": "3", "went_out": "3", "number": "1"}
    fragment = client.post(f"/games/{game['id']}/rounds/preview", data=fields).get_data(as_text=True)
    assert re.search(r"Ann</span> <strong>25</strong>", fragment)
    page = client.post(f"/games/{game['id']}/rounds/new", data={**fields, "action": "preview"})
    assert page.status_code == 200 and re.search(r"Ann</span> <strong>25</strong>", page.get_data(as_text=True))
    assert client.get(f"/api/games/{game['id']}").json["rounds"][0]["scores"] is None


def test_claimed_tiles_are_drawn_taken_on_the_other_keypads(client):
    game = new_game(client)
    as_scorer(client, game)
    page = client.post(f"/games/{game['id']}/rounds/new",
                       data={"action": "preview", "tiles-0": ["5-2"]}).get_data(as_text=True)
    assert re.search(r'name="tiles-0" value="5-2" checked>', page)
    assert re.search(r'name="tiles-1" value="5-2" disabled>', page)


def test_blocked_round_from_the_form(client):
    game = new_game(client)
    as_scorer(client, game)
    response = client.post(f"/games/{game['id']}/rounds/new", data=round_form(
        **{"pips-0": "1", "pips-1": "2", "pips-2": "3", "pips-3": "4", "went_out": "blocked"}))
    assert response.status_code == 303
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "blocked" in page


def test_out_on_a_double_is_offered_only_where_it_costs(client):
    pagat = new_game(client)
    kelley = new_game(client, rules="kelley")
    as_scorer(client, pagat)
    as_scorer(client, kelley)
    assert "out_on_double" not in client.get(f"/games/{pagat['id']}/rounds/new").get_data(as_text=True)
    assert "Went out on a double (costs 50)" in client.get(f"/games/{kelley['id']}/rounds/new").get_data(as_text=True)
    client.post(f"/games/{kelley['id']}/rounds/new", data=round_form(
        **{"pips-0": "1", "pips-1": "2", "pips-2": "3", "went_out": "3", "out_on_double": "1"}))
    assert client.get(f"/api/games/{kelley['id']}").json["rounds"][0]["scores"]["Di"] == 50


def test_correcting_a_round_keeps_its_history(client):
    game = new_game(client)
    as_scorer(client, game)
    pips_round(client, game, {"Ann": 3, "Bob": 4, "Cy": 5}, went_out="Di")
    form = client.get(f"/games/{game['id']}/rounds/1/edit").get_data(as_text=True)
    assert 'name="pips-0" inputmode="numeric" min="0" max="9999" value="3"' in form
    assert 'name="version" value="1"' in form
    response = client.post(f"/games/{game['id']}/rounds/1/edit", data=round_form(
        **{"pips-0": "30", "pips-1": "4", "pips-2": "5", "went_out": "3", "version": "1"}))
    assert response.status_code == 303
    page = client.get(f"/games/{game['id']}/rounds/1").get_data(as_text=True)
    assert "saved" in page and "corrected" in page
    assert "Ann 3" in page and "Ann 30" in page
    stale = client.post(f"/games/{game['id']}/rounds/1/edit", data=round_form(
        **{"pips-0": "31", "pips-1": "4", "pips-2": "5", "went_out": "3", "version": "1"}))
    assert stale.status_code == 409
    assert "changed from another phone" in stale.get_data(as_text=True)
    assert client.get(f"/api/games/{game['id']}").json["totals"]["Ann"] == 30


def test_undo_from_the_page(client):
    game = new_game(client)
    as_scorer(client, game)
    pips_round(client, game, {"Ann": 3, "Bob": 4, "Cy": 5}, went_out="Di")
    assert "Undo round 1" in client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert client.post(f"/games/{game['id']}/rounds/undo").status_code == 303
    assert client.get(f"/api/games/{game['id']}").json["rounds"][0]["scores"] is None
    again = client.post(f"/games/{game['id']}/rounds/undo")
    assert again.status_code == 409 and "nothing to undo" in again.get_data(as_text=True)


def test_scoreboard_fragment_and_chart(client):
    game = new_game(client)
    pips_round(client, game, {"Ann": 3, "Bob": 4, "Cy": 5}, went_out="Di")
    pips_round(client, game, {"Ann": 20, "Bob": 1, "Di": 2}, went_out="Cy")
    fragment = client.get(f"/games/{game['id']}/scoreboard").get_data(as_text=True)
    assert fragment.lstrip().startswith('<div id="live"') and 'hx-trigger="every 2s"' in fragment
    assert "<html" not in fragment
    assert fragment.count("<polyline") == 4
    assert re.search(r'<li class="leader">.*?Di</a><span class="total">2<', fragment, re.S)



def drawn_tiles(html: str) -> list:
    """Each drawn domino as (pips in its first half, pips in its second, its grid), in page order."""
    tiles = []
    for tile in re.findall(r'<span class="domino[^"]*"[^>]*>(.*?<span class="bar"></span>.*?</span>)</span>', html):
        halves = re.findall(r'<span class="half (g\d+)">(.*?)</span>', tile)
        tiles.append(tuple(body.count('class="p"') for _, body in halves) + (halves[0][0],))
    return tiles


def test_scoreboard_draws_each_rounds_double_with_its_pips(client):
    nine = new_game(client)
    pips_round(client, nine, {"Ann": 3, "Bob": 4, "Cy": 5}, went_out="Di")
    fragment = client.get(f"/games/{nine['id']}/scoreboard").get_data(as_text=True)
    # The next round's [8-8], then round 1's [9-9] in the table.
    assert drawn_tiles(fragment) == [(8, 8, "g9"), (9, 9, "g9")]
    twelve = new_game(client, rules={"preset": "kelley", "set": 12})
    fragment = client.get(f"/games/{twelve['id']}/scoreboard").get_data(as_text=True)
    assert drawn_tiles(fragment) == [(12, 12, "g12")]

def test_finished_game_is_read_only_and_names_the_winner(client):
    game = new_game(client, players=["Ann", "Bob"], rules={"preset": "double-foot", "match_length": "one-round"})
    as_scorer(client, game)
    pips_round(client, game, {"Ann": 5}, went_out="Bob")
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "Bob wins the match" in page
    assert "Enter the hands" not in page and "Undo" not in page
    assert "Correct this round" not in client.get(f"/games/{game['id']}/rounds/1").get_data(as_text=True)
    refused = client.post(f"/games/{game['id']}/rounds/1/edit", data=round_form(**{"pips-0": "1", "went_out": "1"}))
    assert refused.status_code == 422 and "match is over" in refused.get_data(as_text=True)


def test_house_rules_card_shows_sources_and_table_choices(client):
    game = new_game(client, rules={"preset": "kelley", "double_blank": 25})
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "House rules" in page and "Kelley" in page
    assert "chosen by this table" in page


def test_language_follows_the_browser_and_the_switch(client):
    french = client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9"}).get_data(as_text=True)
    assert '<html lang="fr">' in french
    switched = client.get("/lang/nl?next=/games/new")
    assert switched.status_code == 302 and switched.headers["Location"] == "/games/new"
    assert '<html lang="nl">' in client.get("/").get_data(as_text=True)
    assert client.get("/lang/nl?next=https://evil.example").headers["Location"] == "/"


def test_security_headers_on_every_page(client):
    response = client.get("/")
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_forms_need_the_csrf_token(app):
    app.config["WTF_CSRF_ENABLED"] = True
    client = app.test_client()
    response = client.post("/games/new", data=form_for_players(["Ann", "Bob"], action="start"))
    assert response.status_code == 400
    assert "Reload the page" in response.get_data(as_text=True)
    page = client.get("/games/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    ok = client.post("/games/new", data=form_for_players(["Ann", "Bob"], action="start", csrf_token=token))
    assert ok.status_code == 303


def test_method_not_allowed_gets_a_page(client):
    response = client.post("/")
    assert response.status_code == 405
    assert "does not accept" in response.get_data(as_text=True)
