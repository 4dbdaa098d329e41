"""The rules read again from the seeds, through the JSON API and the pages, in English,
French and Dutch (tests/rules/test_source_rules.py has the same items in the pure rules)."""

import html
import re

import pytest

from tests.web.helpers import as_scorer, bearer, new_game, pips_round

FOUR = ["Ann", "Bob", "Cy", "Di"]
# docs/rules.md: 7 of the 10 ones on the table leave exactly 3 toes; 8 leave 2, never enough.
SEVEN_ONES = ["1-1", "9-1", "2-1", "3-1", "4-1", "6-1", "7-1"]
EIGHT_ONES = SEVEN_ONES + ["1-0"]
LANGUAGES = {"en": {}, "fr": {"Accept-Language": "fr"}, "nl": {"Accept-Language": "nl"}}


def page(client, url, lang="en", **kwargs):
    """A page's text, entities decoded, in one language."""
    response = client.get(url, headers=LANGUAGES[lang], **kwargs)
    assert response.status_code == 200, response.status_code
    return html.unescape(response.get_data(as_text=True))


def post_round(client, game, body):
    return client.post(f"/api/games/{game['id']}/rounds", json=body, headers=bearer(game))


def ruling(client, body, lang="en"):
    response = client.post("/api/rulings/foot", json=body, headers=LANGUAGES[lang])
    assert response.status_code == 200, response.get_json()
    return response.get_json()


# -- 1. Pagat: reaching the agreed total ends the match ----------------------------------------


def test_pagat_match_ends_when_someone_reaches_the_total(client):
    game = new_game(client, rules={"preset": "pagat", "match_length": "target", "target": 100})
    saved = pips_round(client, game, {"Ann": 100, "Bob": 4, "Cy": 5}, went_out="Di")
    assert saved.status_code == 201
    assert saved.json["finished"] is True and saved.json["winners"] == ["Di"]


def test_double_foot_match_goes_on_at_the_total_and_ends_over_it(client):
    game = new_game(client, rules={"preset": "double-foot", "match_length": "target", "target": 100})
    assert pips_round(client, game, {"Ann": 100, "Bob": 4, "Cy": 5}, went_out="Di").json["finished"] is False
    assert pips_round(client, game, {"Ann": 1, "Bob": 4, "Cy": 5}, went_out="Di").json["finished"] is True


@pytest.mark.parametrize("lang, title, reaching", [
    ("en", "The agreed total ends the match", "Reaching it loses"),
    ("fr", "Le total convenu met fin à la partie", "L'atteindre fait perdre"),
    ("nl", "Het afgesproken totaal beëindigt de partij", "Wie het haalt, verliest"),
])
def test_new_game_page_offers_reaching_or_exceeding(client, lang, title, reaching):
    text = page(client, "/games/new", lang)
    assert 'name="rule-target_ends"' in text and title in text and reaching in text


@pytest.mark.parametrize("lang, note", [
    ("en", "Until someone reaches 100 points; that player loses"),
    ("fr", "Jusqu'à ce que quelqu'un atteigne 100 points ; ce joueur perd"),
    ("nl", "Tot iemand 100 punten haalt; die speler verliest"),
])
def test_house_rules_card_says_reaching_the_total_loses(client, lang, note):
    game = new_game(client, rules={"preset": "pagat", "match_length": "target", "target": 100})
    assert note in page(client, f"/games/{game['id']}", lang)


# -- 2. Pagat's "next lower double" variant --------------------------------------------------


def next_lower_game(client):
    return new_game(client, rules={"preset": "pagat", "missing_double": "next-lower"})


def test_a_round_that_started_lower_accepts_the_skipped_double_in_a_hand(client):
    game = next_lower_game(client)
    # Nobody held [9-9]: the round started on [8-8]; Ann drew [9-9] later from the boneyard.
    saved = post_round(client, game, {"hands": {"Ann": {"tiles": ["9-9", "1-0"]}, "Bob": {"pips": 4},
                                                "Cy": {"pips": 5}}, "went_out": "Di", "started_on": "8-8"})
    assert saved.status_code == 201, saved.json
    assert saved.json["scores"]["Ann"] == 19


@pytest.mark.parametrize("rules, body, fragment", [
    ({"preset": "pagat", "missing_double": "next-lower"},
     {"hands": {"Ann": {"tiles": ["8-8"]}, "Bob": {"pips": 4}, "Cy": {"pips": 5}}, "started_on": "8-8"},
     "[8-8] opened this round, so Ann cannot still hold it"),
    ({"preset": "pagat", "missing_double": "next-lower"},
     {"hands": {"Ann": {"tiles": ["9-9"]}, "Bob": {"pips": 4}, "Cy": {"pips": 5}}},
     "[9-9] opened this round"),
    ({"preset": "pagat", "missing_double": "next-lower"},
     {"hands": {"Ann": {"pips": 3}, "Bob": {"pips": 4}, "Cy": {"pips": 5}}, "started_on": "8-7"},
     "not a double"),
    ({"preset": "pagat", "missing_double": "next-lower"},
     {"hands": {"Ann": {"pips": 3}, "Bob": {"pips": 4}, "Cy": {"pips": 5}}, "started_on": 8},
     "'started_on' must be the double"),
    ("pagat",
     {"hands": {"Ann": {"pips": 3}, "Bob": {"pips": 4}, "Cy": {"pips": 5}}, "started_on": "8-8"},
     "only the \u201cnext lower double\u201d variant"),
])
def test_the_double_a_round_started_on_is_checked(client, rules, body, fragment):
    game = new_game(client, rules=rules)
    refused = post_round(client, game, {**body, "went_out": "Di"})
    assert refused.status_code == 422 and fragment in refused.json["error"], refused.json


@pytest.mark.parametrize("lang, label", [
    ("en", "Nobody held [9-9]? The double this round started on"),
    ("fr", "Personne n'avait le [9-9] ? Le double sur lequel cette manche a commencé"),
    ("nl", "Had niemand [9-9]? De dubbel waarmee deze ronde begon"),
])
def test_round_page_asks_which_double_the_round_started_on(client, lang, label):
    game = next_lower_game(client)
    as_scorer(client, game)
    text = page(client, f"/games/{game['id']}/rounds/new", lang)
    assert label in text and 'name="started_on"' in text and '<option value="8-8">' in text
    assert not re.search(r'value="9-9" disabled', text)  # the skipped double is an ordinary tile


def test_round_page_saves_the_skipped_double_in_a_hand(client):
    game = next_lower_game(client)
    as_scorer(client, game)
    saved = client.post(f"/games/{game['id']}/rounds/new", data={
        "action": "save", "started_on": "8-8", "tiles-0": ["9-9"], "pips-1": "2", "pips-2": "0", "went_out": "3"})
    assert saved.status_code == 303
    assert client.get(f"/api/games/{game['id']}").json["rounds"][0]["scores"]["Ann"] == 18


@pytest.mark.parametrize("lang, words", [
    ("en", "there is no lower double to start on"),
    ("fr", "il n'y a pas de double inférieur pour commencer"),
    ("nl", "er is geen lagere dubbel om mee te beginnen"),
])
def test_desk_says_what_happens_in_the_double_blank_round(client, lang, words):
    game = next_lower_game(client)
    for _ in range(9):
        assert pips_round(client, game, {"Ann": 1, "Bob": 1, "Cy": 1}, went_out="Di").status_code == 201
    text = page(client, f"/games/{game['id']}/referee/missing-double", lang)
    assert words in text and "[0-0]" in text
    assert "next lower double that someone holds" not in text


# -- 3. The hub set's FAQ e: ending a turn with a double ----------------------------------------


@pytest.mark.parametrize("lang, words", [
    ("en", "a player may end a turn with a double, and the others must then complete that foot"),
    ("fr", "un joueur peut finir son tour sur un double, et les autres doivent alors terminer cette patte"),
    ("nl", "een speler mag zijn beurt met een dubbel afsluiten, en de anderen moeten dan die kippenpoot afmaken"),
])
def test_hub_set_faq_e_is_cited_for_the_toes(client, lang, words):
    body = ruling(client, {"rules": "hub8", "double": "1-1", "on_table": SEVEN_ONES}, lang)
    assert body["completable"] is True and words in body["rule"]


def test_hub_set_card_does_not_say_play_goes_on_after_going_out(client):
    game = new_game(client, rules="hub8")
    text = page(client, f"/games/{game['id']}")
    assert "the others must finish that foot first" not in text
    assert "its FAQ on ending a turn with a double is about the foot, not about going out" in text


# -- 4. Any arm count from 3 to 8 -------------------------------------------------------------


@pytest.mark.parametrize("arms", [5, 7])
def test_gamerules_tables_can_choose_five_or_seven_arms(client, arms):
    game = new_game(client, rules={"preset": "gamerules", "arms": arms})
    assert game["rules"] == {"preset": "gamerules", "arms": arms}
    body = ruling(client, {"game": game["id"], "double": "9-9", "on_table": ["9-9"], "starting": True})
    assert body["toes_missing"] == arms
    options = page(client, "/games/new")
    assert f'<option value="{arms}">{arms} arms</option>' in options


# -- 5. A typed total that holds the [0-0] ---------------------------------------------------


@pytest.mark.parametrize("rules, points", [("pagat", 62), ({"preset": "pagat", "double_blank": 25}, 37),
                                           ("gamerules", 12)])
def test_a_typed_total_says_it_holds_the_double_blank(client, rules, points):
    game = new_game(client, rules=rules)
    saved = post_round(client, game, {"hands": {"Ann": {"pips": 12, "double_blank": True}, "Bob": {"pips": 4},
                                                "Cy": {"pips": 5}}, "went_out": "Di"})
    assert saved.status_code == 201, saved.json
    assert saved.json["scores"]["Ann"] == points
    assert client.get(f"/api/games/{game['id']}").json["totals"]["Ann"] == points


@pytest.mark.parametrize("hands, fragment", [
    ({"Ann": {"pips": 12, "double_blank": True}, "Bob": {"tiles": ["0-0"]}, "Cy": {"pips": 5}},
     "[0-0] is in the hands of both"),
    ({"Ann": {"pips": 12, "double_blank": "yes"}, "Bob": {"pips": 4}, "Cy": {"pips": 5}}, "true or false"),
    ({"Ann": {"tiles": ["3-4"], "double_blank": True}, "Bob": {"pips": 4}, "Cy": {"pips": 5}}, "must be"),
])
def test_a_typed_double_blank_is_refused_where_it_cannot_be(client, hands, fragment):
    game = new_game(client)
    refused = post_round(client, game, {"hands": hands, "went_out": "Di"})
    assert refused.status_code == 422 and fragment in refused.json["error"], refused.json


def test_no_hand_holds_the_double_blank_in_the_round_it_opens(client):
    game = new_game(client, rules={"preset": "pagat", "set": 6})
    for _ in range(6):
        pips_round(client, game, {"Ann": 1, "Bob": 1, "Cy": 1}, went_out="Di")
    refused = post_round(client, game, {"hands": {"Ann": {"pips": 2, "double_blank": True}, "Bob": {"pips": 1},
                                                  "Cy": {"pips": 1}}, "went_out": "Di"})
    assert refused.status_code == 422 and "[0-0] opened this round" in refused.json["error"]


@pytest.mark.parametrize("lang, switch, hint", [
    ("en", "Holds [0-0] (+50)", "tick \"Holds [0-0]\" beside the total and its 50 points are added"),
    ("fr", "A le [0-0] (+50)", "cochez « A le [0-0] » à côté du total et ses 50 points sont ajoutés"),
    ("nl", "Heeft [0-0] (+50)", "vink “Heeft [0-0]” aan naast het totaal en de 50 punten worden erbij geteld"),
])
def test_round_page_has_the_double_blank_switch_beside_the_total(client, lang, switch, hint):
    game = new_game(client)
    as_scorer(client, game)
    text = page(client, f"/games/{game['id']}/rounds/new", lang)
    assert text.count('name="double_blank-') == 4 and switch in text and hint in text


def test_round_page_adds_the_double_blank_to_a_typed_total(client):
    game = new_game(client)
    as_scorer(client, game)
    saved = client.post(f"/games/{game['id']}/rounds/new", data={
        "action": "save", "pips-0": "12", "double_blank-0": "1", "pips-1": "2", "pips-2": "0", "went_out": "3"})
    assert saved.status_code == 303
    assert client.get(f"/api/games/{game['id']}").json["rounds"][0]["scores"]["Ann"] == 62
    both = client.post(f"/games/{game['id']}/rounds/new", data={
        "action": "save", "tiles-0": ["4-3"], "double_blank-0": "1", "pips-1": "2", "pips-2": "0", "went_out": "3"})
    assert both.status_code == 422 and "tap the [0-0] among the tiles" in both.get_data(as_text=True)


def test_no_double_blank_switch_where_it_counts_nothing(client):
    game = new_game(client, rules="gamerules")
    as_scorer(client, game)
    assert 'name="double_blank-' not in page(client, f"/games/{game['id']}/rounds/new")


# -- 6. The capicu names the two ends, and the tile must fit both -------------------------------


def team_game(client, bonus=25):
    response = client.post("/api/games", json={"game": "team", "players": FOUR, "rules": {"capicu_bonus": bonus}})
    assert response.status_code == 201
    return response.json


TEAM_HANDS = {"Bob": {"pips": 3}, "Cy": {"pips": 4}, "Di": {"pips": 5}}


def test_a_capicu_is_accepted_in_the_written_form(client):
    game = team_game(client)
    saved = post_round(client, game, {"hands": TEAM_HANDS, "went_out": "Ann", "capicu": True,
                                      "last_tile": "[5-3]", "ends": "[3-5]"})
    assert saved.status_code == 201, saved.json
    assert saved.json["scores"] == {"Ann & Cy": 37, "Bob & Di": 0}


@pytest.mark.parametrize("extra, fragment", [
    ({"last_tile": "5-3", "ends": [3, 6]}, "[5-3] does not fit both ends (3 and 6)"),
    ({"last_tile": "5-3", "ends": "3-3"}, "a capicu needs ends that show different numbers"),
    ({"last_tile": "5-3"}, "A capicu needs 'ends'"),
    ({"last_tile": "5-3", "ends": {"a": 3}}, "'ends' must be the two open ends"),
])
def test_a_capicu_that_does_not_fit_the_ends_it_names_is_refused(client, extra, fragment):
    game = team_game(client)
    refused = post_round(client, game, {"hands": TEAM_HANDS, "went_out": "Ann", "capicu": True, **extra})
    assert refused.status_code == 422 and fragment in refused.json["error"], refused.json


@pytest.mark.parametrize("lang, legend", [
    ("en", "Capicu: the two open ends of the line before the last tile"),
    ("fr", "Capicú : les deux bouts ouverts de la ligne avant la dernière pièce"),
    ("nl", "Capicu: de twee open uiteinden van de rij vóór de laatste steen"),
])
def test_round_page_asks_for_the_capicu_ends(client, lang, legend):
    game = team_game(client)
    as_scorer(client, game)
    text = page(client, f"/games/{game['id']}/rounds/new", lang)
    assert legend in text and text.count('name="capicu_ends"') == 2


def test_round_page_refuses_a_capicu_that_does_not_fit(client):
    game = team_game(client)
    as_scorer(client, game)
    base = {"action": "save", "went_out": "0", "capicu_tile": "6-1", "pips-1": "3", "pips-2": "4", "pips-3": "5"}
    wrong = client.post(f"/games/{game['id']}/rounds/new", data={**base, "capicu_ends": ["6", "2"]})
    assert wrong.status_code == 422 and "does not fit both ends (6 and 2)" in wrong.get_data(as_text=True)
    missing = client.post(f"/games/{game['id']}/rounds/new", data=base)
    assert missing.status_code == 422 and "two ends it could go on" in missing.get_data(as_text=True)
    right = client.post(f"/games/{game['id']}/rounds/new", data={**base, "capicu_ends": ["1", "6"]})
    assert right.status_code == 303
    edit = page(client, f"/games/{game['id']}/rounds/1/edit")
    assert re.search(r'<option value="6" selected>', edit) and re.search(r'<option value="1" selected>', edit)


# -- 7. Impossible feet: play on under the hub set and the double-foot table -------------------


@pytest.mark.parametrize("rules, cited", [("hub8", "FAQ b and f"),
                                          ("double-foot", "the round ends when the pot is empty")])
def test_hub_set_and_double_foot_rule_play_on_with_the_counts(client, rules, cited):
    body = ruling(client, {"rules": rules, "double": "1-1", "on_table": EIGHT_ONES, "drawable": 4})
    assert body["outcome"] == "play-on" and body["completable"] is False
    assert "Tiles that can still be laid on it: 2; missing: 3." in body["explanation"]
    assert "Play goes on" in body["explanation"] and "(4 left)" in body["explanation"]
    assert cited in body["rule"]


@pytest.mark.parametrize("lang, words, left", [
    ("fr", "le jeu continue jusqu'à ce que quelqu'un ait fini ou que plus personne ne puisse jouer (FAQ b et f)",
     "(encore 4)"),
    ("nl", "het spel gaat door tot iemand uit is of niemand meer kan spelen (FAQ b en f)", "(nog 4)"),
])
def test_hub_set_play_on_is_cited_in_french_and_dutch(client, lang, words, left):
    body = ruling(client, {"rules": "hub8", "double": "1-1", "on_table": EIGHT_ONES, "drawable": 4}, lang)
    assert words in body["rule"] and left in body["explanation"]


def test_hub_set_game_has_no_open_rule_to_settle(client):
    preview = client.post("/games/new/preview", data={"player-0": "A", "player-1": "B", "preset": "hub8"})
    assert "Open rule" not in preview.get_data(as_text=True)


# -- 8. Kelley: the double is in the centre before play ----------------------------------------


def test_kelley_game_keeps_the_double_out_of_the_boneyard(client):
    game = new_game(client, rules="kelley")
    assert game["deal"] == {"per_player": 11, "boneyard": 10}
    preview = client.post("/games/new/preview", data={f"player-{i}": n for i, n in enumerate(FOUR)} | {
        "preset": "kelley"}).get_data(as_text=True)
    assert "0.0 %" in preview


@pytest.mark.parametrize("lang, words", [
    ("en", "put in the centre before play, so it can never be missing"),
    ("fr", "posé au centre avant le jeu : il ne peut donc jamais manquer"),
    ("nl", "gaat voor het spel in het midden, dus hij kan nooit ontbreken"),
])
def test_kelley_desk_says_the_double_cannot_be_missing(client, lang, words):
    assert words in page(client, "/referee/missing-double?preset=kelley&players=4", lang)


# -- 9. A double-foot table of 7 or 8 plays double-twelve ----------------------------------------


EIGHT = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


def test_eight_at_a_double_foot_table_play_thirteen_rounds_from_double_twelve(client):
    form = {f"player-{i}": name for i, name in enumerate(EIGHT)} | {"preset": "double-foot", "action": "start"}
    created = client.post("/games/new", data=form)
    assert created.status_code == 303
    state = client.get("/api" + created.headers["Location"]).json
    assert [r["double"] for r in state["rounds"]] == [f"{n}-{n}" for n in range(12, -1, -1)]
    assert state["deal"]["per_player"] == 9 and state["rules"] == {"preset": "double-foot", "players_min": 7}
    again = client.post("/api/games", json={"players": EIGHT, "rules": state["rules"]})
    assert again.status_code == 201 and again.json["rounds"][0]["double"] == "12-12"


def test_six_at_a_double_foot_table_keep_double_nine(client):
    form = {f"player-{i}": name for i, name in enumerate(EIGHT[:6])} | {"preset": "double-foot", "action": "start"}
    created = client.post("/games/new", data=form)
    state = client.get("/api" + created.headers["Location"]).json
    assert state["rounds"][0]["double"] == "9-9" and len(state["rounds"]) == 10
    assert state["rules"] == {"preset": "double-foot"}


@pytest.mark.parametrize("lang, note", [
    ("en", "7 or 8 players play double-twelve, 13 rounds from [12-12], set by the player count"),
    ("fr", "à 7 ou 8 joueurs, on joue en double-douze, 13 manches à partir du [12-12]"),
    ("nl", "7 of 8 spelers spelen dubbel-twaalf, 13 rondes vanaf [12-12]"),
])
def test_a_big_double_foot_table_shows_where_its_set_comes_from(client, lang, note):
    form = {f"player-{i}": name for i, name in enumerate(EIGHT[:7])} | {"preset": "double-foot"}
    preview = html.unescape(client.post("/games/new/preview", data=form).get_data(as_text=True))
    assert "12-12" in preview and "Tiles each</dt><dd>10<" in preview
    game_url = client.post("/games/new", data=form | {"action": "start"}).headers["Location"]
    text = page(client, game_url, lang)
    assert note in text


# -- 10. The hub set's "each round starts with the highest double" ---------------------------------


def test_hub_set_rounds_can_all_start_on_the_highest_double(client):
    game = new_game(client, rules={"preset": "hub8", "round_start": "highest"})
    assert [r["double"] for r in game["rounds"]] == ["9-9"] * 10


@pytest.mark.parametrize("lang, title, choice", [
    ("en", "Each round starts on", "The highest double, every round"),
    ("fr", "Chaque manche commence sur", "Le plus haut double, à chaque manche"),
    ("nl", "Elke ronde begint met", "De hoogste dubbel, elke ronde"),
])
def test_new_game_page_offers_the_highest_double_every_round(client, lang, title, choice):
    text = page(client, "/games/new", lang)
    assert 'name="rule-round_start"' in text and title in text and choice in text


@pytest.mark.parametrize("lang, note", [
    ("en", "the hub set's own sentence \u201ceach round starts with the highest double of your set\u201d "
           "(section 2) is offered as a choice"),
    ("fr", "« chaque manche commence avec le plus haut double de votre jeu » (section 2), est proposée comme choix"),
    ("nl", "“elke ronde begint met de hoogste dubbel van je set” (deel 2), is als keuze beschikbaar"),
])
def test_hub_set_card_cites_the_highest_double_sentence(client, lang, note):
    game = new_game(client, rules="hub8")
    assert note in page(client, f"/games/{game['id']}", lang)


# -- the API's description keeps up -----------------------------------------------------------


def _properties(document, schema, seen=()):
    """Every property name a schema can hold, following $ref, allOf, anyOf, oneOf and if/then."""
    if isinstance(schema, list):
        return set().union(*(_properties(document, item, seen) for item in schema)) if schema else set()
    if not isinstance(schema, dict):
        return set()
    ref = schema.get("$ref")
    if ref is not None:
        if ref in seen:
            return set()
        target = document
        for part in ref.lstrip("#/").split("/"):
            target = target[part]
        return _properties(document, target, seen + (ref,))
    names = set(schema.get("properties", {}))
    for key in ("allOf", "anyOf", "oneOf", "then", "else", "items", "additionalProperties"):
        names |= _properties(document, schema.get(key), seen)
    for value in schema.get("properties", {}).values():
        names |= _properties(document, value, seen)
    return names


def test_openapi_describes_the_new_fields(client):
    document = client.get("/api/openapi.json").json
    body = lambda path: document["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert {"ends", "started_on", "double_blank"} <= _properties(document, body("/api/games/{game_id}/rounds"))
    assert {"round_start", "target_ends", "arms"} <= _properties(document, body("/api/games"))


# -- what a round keeps ------------------------------------------------------------------------------


def test_the_api_seats_eight_at_a_double_foot_table_on_double_twelve(client):
    created = client.post("/api/games", json={"players": EIGHT, "rules": "double-foot"})
    assert created.status_code == 201, created.json
    assert created.json["rounds"][0]["double"] == "12-12" and len(created.json["rounds"]) == 13
    assert created.json["rules"] == {"preset": "double-foot", "players_min": 7}


def test_a_round_keeps_the_double_it_started_on(client):
    game = next_lower_game(client)
    as_scorer(client, game)
    post_round(client, game, {"hands": {"Ann": {"tiles": ["9-9", "1-0"]}, "Bob": {"pips": 4},
                                        "Cy": {"pips": 5}}, "went_out": "Di", "started_on": "8-8"})
    assert client.get(f"/api/games/{game['id']}").json["rounds"][0]["double"] == "8-8"
    correction = client.get(f"/games/{game['id']}/rounds/1/edit").get_data(as_text=True)
    assert '<option value="8-8" selected' in correction
    # undone and put back, it still started on [8-8] and Ann still holds the [9-9]
    client.post(f"/games/{game['id']}/rounds/undo", data={"number": "1"})
    assert client.post(f"/games/{game['id']}/rounds/1/restore").status_code == 303
    restored = client.get(f"/api/games/{game['id']}").json["rounds"][0]
    assert restored["double"] == "8-8" and restored["scores"]["Ann"] == 19


def test_a_typed_total_keeps_its_double_blank_through_a_correction(client):
    game = new_game(client)
    as_scorer(client, game)
    client.post(f"/games/{game['id']}/rounds/new", data={
        "action": "save", "pips-0": "12", "double_blank-0": "1", "pips-1": "2", "pips-2": "0", "went_out": "3"})
    form = client.get(f"/games/{game['id']}/rounds/1/edit").get_data(as_text=True)
    assert re.search(r'name="pips-0"[^>]*value="12"', form)
    assert re.search(r'name="double_blank-0" value="1" checked', form)
    version = client.get(f"/api/games/{game['id']}").json["rounds"][0]["version"]
    again = client.post(f"/games/{game['id']}/rounds/1/edit", data={
        "action": "save", "version": str(version), "pips-0": "12", "double_blank-0": "1", "pips-1": "2",
        "pips-2": "0", "went_out": "3"})
    assert again.status_code == 303
    assert client.get(f"/api/games/{game['id']}").json["rounds"][0]["scores"]["Ann"] == 62
    exported = client.get(f"/games/{game['id']}/export.json").json
    assert exported["rounds"][0]["hands"]["Ann"] == {"pips": 12, "double_blank": True}
