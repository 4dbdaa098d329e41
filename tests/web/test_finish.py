"""The end of a match at the table: the finish card (places, totals, points behind, a result to
send), Rematch in one tap (same players, seats and house rules, the opener moved on as the rules
say), and the wording of the three games; then the smaller things: a ruling that ends the round
leads to entering it, every time in the phone's own time zone, a warning beside QR codes that
other phones cannot reach."""

import re

import pytest

from referee.services import games
from referee.storage.models import Game
from referee.web import db
from tests.web.helpers import as_scorer, bearer, database, pips_round

PLAYERS = ["Ann", "Bob", "Cy", "Di"]
ONE_ROUND = {"preset": "pagat", "match_length": "one-round"}


def start(client, players=PLAYERS, rules=ONE_ROUND, kind=None):
    body = {"players": players, "rules": rules}
    if kind:
        body["game"] = kind
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.json
    return response.json


def text(response) -> str:
    html = response.get_data(as_text=True)
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#39;", "'").split())


def finished_game(client, rules=ONE_ROUND, pips=None, went_out="Ann"):
    """A Chicken Foot match of one round, over: Ann out, the others' pips as given."""
    game = start(client, rules=rules)
    saved = pips_round(client, game, pips or {"Bob": 18, "Cy": 30, "Di": 18}, went_out=went_out)
    assert saved.status_code == 201, saved.json
    return game


def stored(app, game_id):
    with database(app) as db:
        return db.get(Game, game_id)


# -- the finish card -------------------------------------------------------------------------------


def test_placings_low_total_wins_and_equal_totals_share_a_place(app, client):
    game = finished_game(client)
    with app.app_context():
        state = games.view(db.session(), games.load(db.session(), game["id"]))
        assert state.finished
        assert [(p.place, p.column, p.total, p.behind, p.won) for p in state.placings] == [
            (1, "Ann", 0, 0, True), (2, "Bob", 18, 18, False), (2, "Di", 18, 18, False), (4, "Cy", 30, 30, False)]


def test_placings_of_a_team_game_high_total_wins(app, client):
    game = start(client, rules={"target": 50}, kind="team")
    saved = client.post(f"/api/games/{game['id']}/rounds", headers=bearer(game),
                        json={"hands": {"Bob": {"pips": 30}, "Cy": {"pips": 4}, "Di": {"pips": 20}}, "went_out": "Ann"})
    assert saved.status_code == 201, saved.json
    with app.app_context():
        state = games.view(db.session(), games.load(db.session(), game["id"]))
        assert state.finished
        assert [(p.place, p.column, p.total, p.behind) for p in state.placings] == [
            (1, "Ann & Cy", 54, 0), (2, "Bob & Di", 0, 54)]


def test_placings_are_empty_before_the_end(app, client):
    game = start(client, rules="pagat")
    with app.app_context():
        assert games.view(db.session(), games.load(db.session(), game["id"])).placings == []


def test_the_finish_card_shows_places_totals_points_behind_and_the_result_as_text(client):
    game = finished_game(client)
    as_scorer(client, game)
    page = client.get(f"/games/{game['id']}")
    words, html = text(page), page.get_data(as_text=True)
    assert 'id="finish"' in html
    assert "Ann wins the match" in words
    assert "1st Ann 0 winner" in words
    assert "2nd Bob 18 18 points behind" in words and "2nd Di 18 18 points behind" in words
    assert "4th Cy 30 30 points behind" in words
    assert "The lowest total wins." in words
    # The result as plain text anyone can select, JavaScript or not; the button is JavaScript's.
    result = re.search(r'<textarea id="result-[^"]+" class="result-text" readonly[^>]*>(.*?)</textarea>', html, re.S)
    lines = result.group(1).splitlines()
    assert lines[0].startswith("Chicken Foot · ")
    assert lines[1:6] == ["Ann wins the match", "1st Ann: 0", "2nd Bob: 18 (18 points behind)",
                          "2nd Di: 18 (18 points behind)", "4th Cy: 30 (30 points behind)"]
    assert lines[6].endswith(f"/games/{game['id']}")
    assert re.search(r'<button type="button" class="button wide share-button" data-share="result-[^"]+" hidden', html)
    assert "Rematch" in words and "Same players, same seats, same house rules." in words


def test_a_watcher_sees_the_card_but_no_rematch_button(app, client):
    game = finished_game(client)
    watcher = app.test_client()
    words = text(watcher.get(f"/games/{game['id']}"))
    assert "1st Ann 0 winner" in words
    assert "Rematch" not in words


@pytest.mark.parametrize("lang, shown", [
    ("fr", ["Ann remporte la partie", "1er Ann 0 vainqueur", "2e Bob 18 18 points de retard", "Revanche",
            "Le plus bas total gagne."]),
    ("nl", ["Ann wint de partij", "1e Ann 0 winnaar", "2e Bob 18 18 punten achter", "Revanche",
            "Het laagste totaal wint."]),
])
def test_the_finish_card_in_french_and_dutch(client, lang, shown):
    game = finished_game(client)
    as_scorer(client, game)
    words = text(client.get(f"/games/{game['id']}?lang={lang}"))
    for part in shown:
        assert part in words


def test_a_finished_game_is_polled_until_its_rematch_starts(client):
    game = finished_game(client)
    as_scorer(client, game)
    assert 'hx-trigger="every 2s"' in client.get(f"/games/{game['id']}/scoreboard").get_data(as_text=True)
    client.post(f"/games/{game['id']}/rematch")
    assert 'hx-trigger="every 2s"' not in client.get(f"/games/{game['id']}/scoreboard").get_data(as_text=True)


# -- rematch: the service ------------------------------------------------------------------------


def test_rematch_same_players_seats_and_rules_and_a_second_tap_gets_the_same_game(app, client):
    game = finished_game(client, rules={"preset": "kelley", "match_length": "one-round", "double_blank": 25})
    with app.app_context():
        old = games.load(db.session(), game["id"])
        new, started = games.rematch(db.session(), old)
        again, started_again = games.rematch(db.session(), games.load(db.session(), game["id"]))
        assert again.id == new.id and new.id != old.id
        assert started and not started_again
        state = games.view(db.session(), games.load(db.session(), new.id))
        assert state.players == PLAYERS  # Kelley: the highest draw opens, not a seat
        assert (state.kind.name, state.preset, state.overrides) == (
            "chicken-foot", "kelley", {"match_length": "one-round", "double_blank": 25})
        assert not state.played and not state.finished
    assert stored(app, game["id"]).rematch == new.id


def test_rematch_where_the_first_turn_rotates_turns_the_seats_by_one(app, client):
    # Double chicken foot table (seed 004): the first turn moves one seat each round, so the
    # next match is opened by the player after the one who opened this one.
    game = finished_game(client, rules={"preset": "double-foot", "match_length": "one-round"})
    with app.app_context():
        old_state = games.view(db.session(), games.load(db.session(), game["id"]))
        assert "Ann plays first" in str(old_state.opener(1))
        new = games.rematch(db.session(), games.load(db.session(), game["id"])).game
        state = games.view(db.session(), games.load(db.session(), new.id))
        assert state.players == ["Bob", "Cy", "Di", "Ann"]
        assert "Bob plays first" in str(state.opener(1))
        assert (state.preset, state.overrides) == ("double-foot", {"match_length": "one-round"})


def test_rematch_of_a_team_game_keeps_teams_and_options(app, client):
    game = start(client, rules={"target": 50, "capicu_bonus": 0}, kind="team")
    client.post(f"/api/games/{game['id']}/rounds", headers=bearer(game),
                json={"hands": {"Bob": {"pips": 30}, "Cy": {"pips": 4}, "Di": {"pips": 20}}, "went_out": "Ann"})
    with app.app_context():
        new = games.rematch(db.session(), games.load(db.session(), game["id"])).game
        state = games.view(db.session(), games.load(db.session(), new.id))
        assert state.kind.name == "team" and state.players == PLAYERS
        assert state.overrides == {"target": 50, "capicu_bonus": 0}
        assert state.columns == ["Ann & Cy", "Bob & Di"]
        assert "whoever holds [6-6] opens" in str(state.opener(1))


def test_rematch_is_refused_before_the_end(app, client):
    game = start(client, rules="pagat")
    with app.app_context():
        with pytest.raises(games.RulesError):
            games.rematch(db.session(), games.load(db.session(), game["id"]))
    assert stored(app, game["id"]).rematch is None


# -- rematch: the page's one tap -----------------------------------------------------------------


def test_rematch_in_one_tap_makes_this_phone_the_new_game_scorer(client):
    game = finished_game(client, rules={"preset": "double-foot", "match_length": "one-round"})
    as_scorer(client, game)
    response = client.post(f"/games/{game['id']}/rematch")
    assert response.status_code == 303
    new_id = re.search(r"/games/([^/]+)$", response.headers["Location"]).group(1)
    assert new_id != game["id"]
    new = client.get(f"/api/games/{new_id}").json
    assert new["players"] == ["Bob", "Cy", "Di", "Ann"]
    assert new["rules"] == {"preset": "double-foot", "match_length": "one-round"}
    assert not new["finished"] and new["totals"] == {name: 0 for name in PLAYERS}
    page = client.get(f"/games/{new_id}")
    assert "Enter the hands of round 1" in text(page)  # this phone scores the rematch
    assert "Bob plays first" in text(page)
    # The old game's card now leads to the rematch; tapping again opens the same game.
    assert "Open the rematch" in text(client.get(f"/games/{game['id']}"))
    assert client.post(f"/games/{game['id']}/rematch").headers["Location"].endswith(f"/games/{new_id}")


def test_rematch_needs_a_scorer(app, client):
    game = finished_game(client)
    watcher = app.test_client()
    assert watcher.post(f"/games/{game['id']}/rematch").status_code == 403
    assert stored(app, game["id"]).rematch is None
    # A watcher is shown the way to the rematch once a scorer started it.
    as_scorer(client, game)
    new_id = client.post(f"/games/{game['id']}/rematch").headers["Location"].rsplit("/", 1)[1]
    page = watcher.get(f"/games/{game['id']}").get_data(as_text=True)
    assert f'href="/games/{new_id}"' in page and "Watch the rematch" in page


def test_rematch_only_when_the_match_is_over(app, client):
    game = start(client, rules="pagat")
    as_scorer(client, game)
    response = client.post(f"/games/{game['id']}/rematch")
    assert response.status_code == 409
    assert "not over yet" in text(response)
    assert client.get(f"/games/{game['id']}/rematch").status_code == 405


def test_rematch_needs_the_csrf_token(app, client):
    app.config["WTF_CSRF_ENABLED"] = True
    game = finished_game(client)
    as_scorer(client, game)
    assert client.post(f"/games/{game['id']}/rematch").status_code == 400
    assert stored(app, game["id"]).rematch is None
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    form = re.search(r'<form method="post" action="/games/[^"]+/rematch" class="rematch">\s*'
                     r'<input type="hidden" name="csrf_token" value="([^"]+)">', page)
    assert client.post(f"/games/{game['id']}/rematch", data={"csrf_token": form.group(1)}).status_code == 303
    assert stored(app, game["id"]).rematch is not None


# -- wording that fits each game -------------------------------------------------------------------


@pytest.mark.parametrize("kind, lang, words, absent", [
    ("team", "en", ["Save hand", "How the hand ended", "Points this hand"], ["Save round", "How the round ended"]),
    ("draw", "en", ["Save hand", "How the hand ended", "Points this hand"], ["Save round", "Points this round"]),
    ("chicken-foot", "en", ["Save round", "How the round ended", "Points this round"], ["Save hand"]),
    ("team", "fr", ["Enregistrer la donne", "Fin de la donne", "Points de cette donne"], ["Enregistrer la manche"]),
    ("draw", "fr", ["Enregistrer la donne", "Fin de la donne", "Points de cette donne"], ["Fin de la manche"]),
    ("chicken-foot", "fr", ["Enregistrer la manche", "Fin de la manche"], ["Enregistrer la donne"]),
    ("team", "nl", ["Spel opslaan", "Hoe het spel eindigde", "Punten dit spel"], ["Ronde opslaan"]),
    ("draw", "nl", ["Spel opslaan", "Hoe het spel eindigde", "Punten dit spel"], ["Punten deze ronde"]),
    ("chicken-foot", "nl", ["Ronde opslaan", "Hoe de ronde eindigde", "Punten deze ronde"], ["Spel opslaan"]),
])
def test_the_round_page_says_hand_for_team_and_draw_games(client, kind, lang, words, absent):
    game = start(client, rules=None if kind != "chicken-foot" else "pagat", kind=kind)
    as_scorer(client, game)
    page = text(client.get(f"/games/{game['id']}/rounds/new?lang={lang}"))
    preview = text(client.post(f"/games/{game['id']}/rounds/preview?lang={lang}", data={"pips-1": "3"}))
    for part in words:
        assert part in page + " " + preview
    for part in absent:
        assert part not in page


@pytest.mark.parametrize("lang, cf, team, draw, rounds, hands", [
    ("en", "Chicken Foot", "Team dominoes", "Draw game", "1 round played", "1 hand played"),
    ("fr", "Chicken Foot", "Dominos en équipe", "Dominos avec pioche", "1 manche jouée", "1 donne jouée"),
    ("nl", "Chicken Foot", "Teamdomino", "Gewoon Domino", "1 ronde gespeeld", "1 spel gespeeld"),
])
def test_the_home_list_names_each_game_and_counts_rounds_or_hands(client, lang, cf, team, draw, rounds, hands):
    chicken = start(client, rules="pagat")
    pips_round(client, chicken, {"Bob": 3, "Cy": 4, "Di": 5}, went_out="Ann")
    teams = start(client, players=["Eve", "Fay", "Gus", "Hal"], rules={"target": 200}, kind="team")
    client.post(f"/api/games/{teams['id']}/rounds", headers=bearer(teams),
                json={"hands": {"Fay": {"pips": 3}, "Gus": {"pips": 4}, "Hal": {"pips": 5}}, "went_out": "Eve"})
    start(client, players=["Ike", "Jo"], rules={"target": 100}, kind="draw")
    words = text(client.get(f"/?lang={lang}"))
    assert f"Ann, Bob, Cy, Di {cf} · {rounds}" in words
    assert f"Eve, Fay, Gus, Hal {team} · {hands}" in words
    assert f"Ike, Jo {draw} · 0 " in words


def test_the_player_page_says_its_round_figures_count_chicken_foot_only(client):
    game = start(client, rules="pagat")
    pips_round(client, game, {"Bob": 3, "Cy": 4, "Di": 5}, went_out="Ann")
    page = client.get("/players").get_data(as_text=True)
    player = re.search(r'href="/players/(\d+)"', page).group(1)
    assert "count Chicken Foot rounds only" in text(client.get(f"/players/{player}"))
    assert "ne comptent que les manches de Chicken Foot" in text(client.get(f"/players/{player}?lang=fr"))
    assert "tellen alleen rondes van Chicken Foot" in text(client.get(f"/players/{player}?lang=nl"))


def _rule_rows(html):
    card = html[html.index('<section class="card house-rules">'):]
    card = card[:card.index("</section>")]
    return [(re.sub(r"<[^>]+>", " ", dt).split(), re.sub(r"<[^>]+>", " ", dd).split())
            for dt, dd in re.findall(r"<dt>(.*?)</dt>\s*<dd>(.*?)</dd>", card, re.S)]


@pytest.mark.parametrize("lang", ["en", "fr", "nl"])
@pytest.mark.parametrize("kind, rules", [
    ("chicken-foot", "pagat"), ("chicken-foot", "kelley"), ("chicken-foot", "gamerules"), ("chicken-foot", "hub8"),
    ("chicken-foot", "double-foot"),
    ("chicken-foot", {"preset": "pagat", "missing_double": "next-lower", "chicken_little": 1,
                      "impossible_foot": "released", "match_length": "target", "target": 150}),
    ("team", None), ("team", {"blocked_to_blocker": True}), ("draw", None),
])
def test_the_house_rules_card_never_repeats_a_rule_name_in_its_words(client, lang, kind, rules):
    game = start(client, rules=rules, kind=kind)
    rows = _rule_rows(client.get(f"/games/{game['id']}?lang={lang}").get_data(as_text=True))
    assert len(rows) >= 2
    for title, words in rows:
        title_text, words_text = " ".join(title).lower(), " ".join(words).lower()
        assert not words_text.startswith(title_text), (title_text, words_text)
    if kind == "chicken-foot" and rules == "pagat" and lang == "en":
        shown = {" ".join(t): " ".join(w) for t, w in rows}
        assert shown["Nobody holds the double"].startswith("Each player draws one tile in turn")
        assert shown["Equal lowest totals"].startswith("A draw")


# -- a ruling that ends the round leads on ---------------------------------------------------------

EIGHT_ONES = ["1-1", "9-1", "2-1", "3-1", "4-1", "6-1", "7-1", "1-0"]


def foot_taps(rules_double="1-1", **extra):
    form = {"double": rules_double, "shown_double": rules_double, "shown_starting": "0",
            "on": [tile for tile in EIGHT_ONES if tile != rules_double], "toe": [], "boneyard": "0"}
    form.update(extra)
    return form


def test_a_ruling_that_ends_the_round_leads_to_entering_its_hands(client):
    game = start(client, rules={"preset": "pagat", "impossible_foot": "round-ends"})
    as_scorer(client, game)
    page = client.post(f"/games/{game['id']}/referee/foot", data=foot_taps())
    html, words = page.get_data(as_text=True), text(page)
    assert page.status_code == 200 and "The round ends now." in words
    assert re.search(rf'<a class="button primary wide enter-hands" href="/games/{game["id"]}/rounds/new">'
                     r"Enter the hands of round 1</a>", html)
    # Logged: the button says so and cannot log it twice.
    assert re.search(r'<button type="submit" name="action" value="rule" id="log-ruling" class="button primary logged" '
                     r'disabled>Logged</button>', html)
    again = client.post(f"/games/{game['id']}/referee/foot", data=foot_taps())
    assert "Saved in the game's log" not in text(again)
    assert len(client.get(f"/games/{game['id']}/export.json").json["rulings"]) == 1
    # The game page's round card tells of the ruling, and still leads to the round.
    card = text(client.get(f"/games/{game['id']}"))
    assert "Referee's ruling (" in card and "the foot of [1-1] can never be completed, so this round ends now" in card
    assert "Enter the hands of round 1" in card
    # Other taps are another ruling: its button logs again.
    fragment = client.post(f"/games/{game['id']}/referee/foot/ruling", data=foot_taps(boneyard="3"))
    assert re.search(r'id="log-ruling" class="button primary" hx-swap-oob="true">Give the ruling and log it',
                     fragment.get_data(as_text=True))
    same = client.post(f"/games/{game['id']}/referee/foot/ruling", data=foot_taps())
    assert 'class="button primary logged" disabled hx-swap-oob="true">Logged' in same.get_data(as_text=True)


def test_the_round_card_says_nothing_once_the_round_is_saved(client):
    game = start(client, rules={"preset": "pagat", "impossible_foot": "round-ends"})
    as_scorer(client, game)
    client.post(f"/games/{game['id']}/referee/foot", data=foot_taps())
    pips_round(client, game, {"Bob": 3, "Cy": 4, "Di": 5}, went_out="Ann")
    assert "Referee's ruling (" not in text(client.get(f"/games/{game['id']}"))


def test_a_ruling_that_does_not_end_the_round_has_no_such_button(client):
    game = start(client, rules={"preset": "pagat", "impossible_foot": "released"})
    as_scorer(client, game)
    html = client.post(f"/games/{game['id']}/referee/foot", data=foot_taps()).get_data(as_text=True)
    assert "The foot is released." in html and "enter-hands" not in html


def test_a_watcher_gets_the_ruling_but_no_button_to_enter_hands(app, client):
    game = start(client, rules={"preset": "pagat", "impossible_foot": "round-ends"})
    watcher = app.test_client()
    html = watcher.post(f"/games/{game['id']}/referee/foot", data=foot_taps()).get_data(as_text=True)
    assert "The round ends now." in html and "enter-hands" not in html


def test_a_short_ruling_button_says_logged_once_it_is_in_the_log(client):
    game = start(client, rules="pagat")
    as_scorer(client, game)
    before = client.get(f"/games/{game['id']}/referee/out-on-double").get_data(as_text=True)
    assert "Save this ruling in the game's log" in text(client.get(f"/games/{game['id']}/referee/out-on-double"))
    assert "Logged" not in before
    saved = client.post(f"/games/{game['id']}/referee/out-on-double", data={"round": "1"}, follow_redirects=True)
    html = saved.get_data(as_text=True)
    assert '<button type="submit" class="button wide logged" disabled>Logged</button>' in html
    assert "House rule: Going out on a double: Allowed." in text(saved)
    client.post(f"/games/{game['id']}/referee/out-on-double", data={"round": "1"})
    assert len(client.get(f"/games/{game['id']}/export.json").json["rulings"]) == 1


# -- times in the phone's own zone ----------------------------------------------------------------

TIME = re.compile(r'<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ" data-local="(date|short|medium)">[^<]+</time>')


def test_times_are_time_elements_the_phone_shows_in_its_own_zone(client):
    game = start(client, rules={"preset": "pagat", "impossible_foot": "round-ends"})
    as_scorer(client, game)
    client.post(f"/games/{game['id']}/referee/foot", data=foot_taps())
    pips_round(client, game, {"Bob": 3, "Cy": 4, "Di": 5}, went_out="Ann")
    history = client.get(f"/games/{game['id']}/rounds/1").get_data(as_text=True)
    assert TIME.search(history).group(1) == "medium" and " UTC</time>" in history
    game_page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    log = game_page[game_page.index('id="rulings-log"'):]
    assert TIME.search(log).group(1) == "short"
    assert TIME.search(client.get("/").get_data(as_text=True)).group(1) == "date"
    assert 'src="/static/table.js"' in game_page
    assert "Intl.DateTimeFormat" in client.get("/static/table.js").get_data(as_text=True)


# -- the QR codes and the address they carry ------------------------------------------------------


@pytest.mark.parametrize("base", ["http://localhost", "http://127.0.0.1:8000", "http://[::1]:8000"])
def test_qr_codes_on_a_loopback_address_come_with_a_warning(client, base):
    game = start(client, rules="pagat")
    words = text(client.get(f"/games/{game['id']}", base_url=base))
    assert "an address only this computer can reach" in words
    assert "Start the app with referee serve" in words


@pytest.mark.parametrize("base", ["http://192.168.1.20:8000", "http://kitchen.local:8000"])
def test_qr_codes_on_a_lan_address_have_no_warning(client, base):
    game = start(client, rules="pagat")
    page = client.get(f"/games/{game['id']}", base_url=base).get_data(as_text=True)
    assert "only this computer can reach" not in page and "qr-warning" not in page


def test_the_qr_warning_in_french_and_dutch(client):
    game = start(client, rules="pagat")
    assert "que seul cet ordinateur peut joindre" in text(client.get(f"/games/{game['id']}?lang=fr"))
    assert "alleen deze computer kan bereiken" in text(client.get(f"/games/{game['id']}?lang=nl"))


# -- the screen kept awake, the round page's anchors ------------------------------------------------


def test_game_and_round_pages_ask_to_keep_the_screen_awake(client):
    game = start(client, rules="pagat")
    as_scorer(client, game)
    assert "data-keep-awake" in client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "data-keep-awake" in client.get(f"/games/{game['id']}/rounds/new").get_data(as_text=True)
    assert "data-keep-awake" not in client.get("/").get_data(as_text=True)
    script = client.get("/static/table.js").get_data(as_text=True)
    assert "wakeLock" in script and "visibilitychange" in script


def test_a_hand_scrolled_to_shows_below_the_sticky_header(client):
    css = client.get("/static/style.css").get_data(as_text=True)
    assert re.search(r"\.round-form \.hand[^{]*\{[^}]*scroll-margin-top", css)
