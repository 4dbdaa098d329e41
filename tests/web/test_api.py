"""The JSON API: every flow and every error path, through Flask's test client."""

import pytest

from tests.web.helpers import PLAYERS, bearer, new_game, pips_correction, pips_round


def test_create_game_returns_the_deal_and_the_round_doubles(client):
    game = new_game(client)
    assert game["players"] == PLAYERS
    assert game["deal"] == {"per_player": 11, "boneyard": 11}
    assert [r["double"] for r in game["rounds"]] == [f"{d}-{d}" for d in range(9, -1, -1)]
    assert game["rounds"][0] == {"number": 1, "double": "9-9"}
    assert len(game["edit_token"]) >= 20


def test_create_game_with_overrides(client):
    game = new_game(client, rules={"preset": "kelley", "double_blank": 25, "set": 12})
    assert game["rules"] == {"preset": "kelley", "double_blank": 25, "set": 12}
    assert game["rounds"][0]["double"] == "12-12"
    assert len(game["rounds"]) == 13


@pytest.mark.parametrize("body, fragment", [
    ({"players": ["Ann"]}, "2 to 8 players"),
    ({"players": [f"P{i}" for i in range(9)]}, "2 to 8 players"),
    ({"players": ["Ann", "ann"]}, "named twice"),
    ({"players": ["Ann", "x" * 10000]}, "at most 40"),
    ({"players": ["Ann", "B\x07b"]}, "control characters"),
    ({"players": "Ann, Bob"}, "list of names"),
    ({"players": ["Ann", 7]}, "must be text"),
    ({"players": PLAYERS, "rules": "nonsense"}, "nonsense"),
    ({"players": PLAYERS, "rules": {"preset": "pagat", "arms": 8, "set": 6}}, "arms"),
    ({"players": PLAYERS, "rules": {"preset": "pagat", "double_blank": 40}}, "40"),
    ({"players": PLAYERS, "rules": {"preset": "pagat", "colour": "red"}}, "colour"),
    ({"players": PLAYERS, "rules": 12}, "preset"),
    ({"players": [f"P{i}" for i in range(7)], "rules": "pagat"}, "7"),
])
def test_create_game_refuses_nonsense_with_a_readable_422(client, body, fragment):
    response = client.post("/api/games", json=body)
    assert response.status_code == 422
    assert fragment.lower() in response.json["error"].lower()
    assert client.get("/").status_code == 200


@pytest.mark.parametrize("data, content_type, status, words", [
    ("not json", "application/json", 400, "not valid JSON"),
    ("[1, 2]", "application/json", 422, "JSON object"),
    ("players=Ann", "application/x-www-form-urlencoded", 400, "not valid JSON"),
])
def test_create_game_needs_a_json_object(client, data, content_type, status, words):
    response = client.post("/api/games", data=data, content_type=content_type)
    assert response.status_code == status
    assert words in response.json["error"]


def test_recording_rounds_gives_scores_and_running_totals(client):
    game = new_game(client)
    first = client.post(f"/api/games/{game['id']}/rounds", headers=bearer(game), json={
        "hands": {"Ann": {"tiles": ["0-0", "3-4"]}, "Bob": {"pips": 12}, "Cy": {"tiles": ["9-8"]}},
        "went_out": "Di"})
    assert first.status_code == 201
    assert first.json["round"] == 1
    assert first.json["scores"] == {"Ann": 57, "Bob": 12, "Cy": 17, "Di": 0}
    second = pips_round(client, game, {"Ann": 3, "Bob": 4, "Di": 10}, went_out="Cy")
    assert second.json["round"] == 2
    assert second.json["totals"] == {"Ann": 60, "Bob": 16, "Cy": 17, "Di": 10}
    state = client.get(f"/api/games/{game['id']}").json
    assert [r["scores"] for r in state["rounds"][:2]] == [first.json["scores"], second.json["scores"]]
    assert state["rounds"][2]["scores"] is None
    assert state["totals"] == second.json["totals"]
    assert state["finished"] is False and state["winners"] == []


def test_double_blank_counts_the_house_value(client):
    game = new_game(client, rules={"preset": "pagat", "double_blank": 25})
    saved = client.post(f"/api/games/{game['id']}/rounds", headers=bearer(game), json={
        "hands": {"Ann": {"tiles": ["0-0"]}, "Bob": {"pips": 1}, "Cy": {"pips": 2}}, "went_out": "Di"})
    assert saved.json["scores"]["Ann"] == 25


def test_going_out_on_a_double_costs_50_under_kelley(client):
    game = new_game(client, rules="kelley")
    saved = pips_round(client, game, {"Ann": 3, "Bob": 4, "Cy": 5}, went_out="Di", out_on_double=True)
    assert saved.status_code == 201
    assert saved.json["scores"]["Di"] == 50


def test_blocked_round_counts_everyone(client):
    game = new_game(client)
    saved = pips_round(client, game, {"Ann": 3, "Bob": 4, "Cy": 5, "Di": 6}, blocked=True)
    assert saved.status_code == 201
    assert saved.json["scores"] == {"Ann": 3, "Bob": 4, "Cy": 5, "Di": 6}
    assert client.get(f"/api/games/{game['id']}").json["rounds"][0]["blocked"] is True


@pytest.mark.parametrize("headers, status", [({}, 401), ({"Authorization": "Bearer wrong"}, 403),
                                             ({"Authorization": "Basic abc"}, 403)])
def test_writes_need_the_edit_token(client, headers, status):
    game = new_game(client)
    response = client.post(f"/api/games/{game['id']}/rounds", headers=headers,
                           json={"hands": {p: {"pips": 1} for p in PLAYERS}, "blocked": True})
    assert response.status_code == status
    assert "edit token" in response.json["error"]
    assert client.get(f"/api/games/{game['id']}").json["rounds"][0]["scores"] is None


def test_unknown_game_is_404(client):
    assert client.get("/api/games/nope").status_code == 404
    response = client.post("/api/games/nope/rounds", json={})
    assert response.status_code == 404
    assert response.json["error"]


def test_unknown_api_route_is_json_404(client):
    response = client.get("/api/nothing/here")
    assert response.status_code == 404
    assert "error" in response.json


@pytest.mark.parametrize("body, fragment", [
    ({"hands": "all"}, "hands"),
    ({"hands": {"Ann": {"pips": "many"}}}, "whole number"),
    ({"hands": {"Ann": {"tiles": "3-4"}}}, "list"),
    ({"hands": {"Ann": {"tiles": ["3-4"], "pips": 7}}}, "tiles"),
    ({"hands": {"Ann": 7}}, "pips"),
    ({"hands": {"Ann": {"pips": 1}, "Bob": {"pips": 1}, "Cy": {"pips": 1}}, "went_out": None}, "Di"),
    ({"hands": {"Ann": {"pips": 1}, "Bob": {"pips": 1}, "Cy": {"pips": 1}, "Zed": {"pips": 1}}, "went_out": "Di"},
     "Zed"),
    ({"hands": {"Ann": {"pips": 1}, "Bob": {"pips": 1}, "Cy": {"pips": 1}, "Di": {"pips": 4}}, "went_out": "Di"},
     "went out"),
    ({"hands": {"Ann": {"tiles": ["3-4"]}, "Bob": {"tiles": ["4-3"]}, "Cy": {"pips": 1}}, "went_out": "Di"},
     "both"),
    ({"hands": {"Ann": {"tiles": ["10-3"]}, "Bob": {"pips": 1}, "Cy": {"pips": 1}}, "went_out": "Di"}, "10-3"),
    ({"hands": {"Ann": {"tiles": ["9-9"]}, "Bob": {"pips": 1}, "Cy": {"pips": 1}}, "went_out": "Di"}, "9-9"),
    ({"hands": {"Ann": {"pips": -3}, "Bob": {"pips": 1}, "Cy": {"pips": 1}}, "went_out": "Di"}, "negative"),
    ({"hands": {"Ann": {"pips": 1}, "Bob": {"pips": 1}, "Cy": {"pips": 1}}, "went_out": "Di", "blocked": True},
     "blocked"),
    ({"hands": {"Ann": {"pips": 1}, "Bob": {"pips": 1}, "Cy": {"pips": 1}}, "went_out": "Di", "blocked": "yes"},
     "true or false"),
    ({"hands": {"Ann": {"pips": 1}, "Bob": {"pips": 1}, "Cy": {"pips": 1}}, "went_out": 3}, "went_out"),
])
def test_bad_rounds_get_a_readable_422_and_write_nothing(client, body, fragment):
    game = new_game(client)
    response = client.post(f"/api/games/{game['id']}/rounds", json=body, headers=bearer(game))
    assert response.status_code == 422, response.json
    assert fragment.lower() in response.json["error"].lower()
    state = client.get(f"/api/games/{game['id']}").json
    assert state["rounds"][0]["scores"] is None
    assert set(state["totals"].values()) == {0}


def test_correcting_a_round_changes_the_totals(client):
    game = new_game(client)
    pips_round(client, game, {"Ann": 3, "Bob": 4, "Cy": 5}, went_out="Di")
    pips_round(client, game, {"Ann": 1, "Bob": 1, "Di": 1}, went_out="Cy")
    fixed = pips_correction(client, game, 1, {"Ann": 30, "Bob": 4, "Cy": 5}, went_out="Di")
    assert fixed.status_code == 200
    assert fixed.json["scores"]["Ann"] == 30
    assert fixed.json["totals"]["Ann"] == 31
    assert fixed.json["version"] == 2


def test_correcting_an_early_round_can_end_the_match_and_freeze_the_game(client):
    """The later rounds count too: round 1 alone stays under the target, both rounds pass it."""
    game = new_game(client, rules={"preset": "pagat", "match_length": "target", "target": 100})
    pips_round(client, game, {"Ann": 10, "Bob": 4, "Cy": 5}, went_out="Di")
    pips_round(client, game, {"Ann": 60, "Bob": 1, "Di": 1}, went_out="Cy")
    fixed = pips_correction(client, game, 1, {"Ann": 50, "Bob": 4, "Cy": 5}, went_out="Di")
    assert fixed.status_code == 200
    assert fixed.json["totals"]["Ann"] == 110
    assert fixed.json["finished"] is True and fixed.json["winners"] == ["Di"]
    # The stored game is over as well: its open house rule can no longer be settled.
    client.get(f"/games/{game['id']}/join/{game['edit_token']}")
    settle = client.post(f"/games/{game['id']}/referee/foot", data={"settle": "play-on", "double": "1-1"})
    assert settle.status_code == 422
    assert "This match is over" in settle.get_data(as_text=True)


def test_a_stale_correction_is_refused_with_the_new_version(client):
    game = new_game(client)
    pips_round(client, game, {"Ann": 3, "Bob": 4, "Cy": 5}, went_out="Di")
    body = {"hands": {"Ann": {"pips": 9}, "Bob": {"pips": 4}, "Cy": {"pips": 5}}, "went_out": "Di", "version": 1}
    assert client.put(f"/api/games/{game['id']}/rounds/1", headers=bearer(game), json=body).status_code == 200
    body["hands"]["Ann"] = {"pips": 11}
    stale = client.put(f"/api/games/{game['id']}/rounds/1", headers=bearer(game), json=body)
    assert stale.status_code == 409
    assert "changed" in stale.json["error"]
    assert stale.json["game"]["rounds"][0]["scores"]["Ann"] == 9


def test_correcting_an_unplayed_round_is_404(client):
    game = new_game(client)
    response = client.put(f"/api/games/{game['id']}/rounds/3", headers=bearer(game),
                          json={"hands": {p: {"pips": 1} for p in PLAYERS}})
    assert response.status_code == 404


def test_undo_removes_only_the_last_round(client):
    game = new_game(client)
    pips_round(client, game, {"Ann": 3, "Bob": 4, "Cy": 5}, went_out="Di")
    pips_round(client, game, {"Ann": 1, "Bob": 1, "Di": 1}, went_out="Cy")
    response = client.delete(f"/api/games/{game['id']}/rounds/last", headers=bearer(game))
    assert response.status_code == 200 and response.json["undone"] == 2
    assert response.json["game"]["totals"] == {"Ann": 3, "Bob": 4, "Cy": 5, "Di": 0}
    client.delete(f"/api/games/{game['id']}/rounds/last", headers=bearer(game))
    empty = client.delete(f"/api/games/{game['id']}/rounds/last", headers=bearer(game))
    assert empty.status_code == 422
    assert "nothing to undo" in empty.json["error"]


@pytest.mark.parametrize("method", ["put", "delete"])
def test_a_round_number_past_any_database_integer_is_not_found(client, method):
    game = new_game(client)
    pips_round(client, game, {"Ann": 3, "Bob": 4, "Cy": 5}, went_out="Di")
    response = getattr(client, method)(f"/api/games/{game['id']}/rounds/49848438335", headers=bearer(game),
                                       json={"hands": {p: {"pips": 1} for p in PLAYERS}})
    assert response.status_code == 404
    assert client.get(f"/api/games/{game['id']}").json["totals"]["Bob"] == 4


def play_match(client, game, ann_extra=0):
    """Ten rounds: Ann scores 1 + ann_extra once, Bob 1, Cy 3, Di 4 every round."""
    for number in range(10):
        response = pips_round(client, game, {"Ann": (1 + ann_extra) if number == 0 else 0, "Bob": 1 if number == 0 else 0,
                                             "Cy": 3, "Di": 4})
        assert response.status_code == 201, response.json
    return response


def test_match_ends_after_the_last_double_with_the_lowest_total_winning(client):
    game = new_game(client)
    last = play_match(client, game, ann_extra=1)
    assert last.json["finished"] is True
    assert last.json["winners"] == ["Bob"]
    state = client.get(f"/api/games/{game['id']}").json
    assert state["finished"] is True and state["winners"] == ["Bob"]
    extra = pips_round(client, game, {"Ann": 1, "Bob": 1, "Cy": 1, "Di": 1})
    assert extra.status_code == 422
    assert "over" in extra.json["error"]


def test_equal_lowest_totals_are_a_draw_under_the_double_foot_rules(client):
    game = new_game(client, rules="double-foot")
    last = play_match(client, game)
    assert last.json["finished"] is True
    assert sorted(last.json["winners"]) == ["Ann", "Bob"]


def test_one_round_match_ends_at_once(client):
    game = new_game(client, rules={"preset": "double-foot", "match_length": "one-round"})
    assert len(game["rounds"]) == 1
    last = pips_round(client, game, {"Ann": 1, "Bob": 2, "Cy": 3}, went_out="Di")
    assert last.json["finished"] is True and last.json["winners"] == ["Di"]


def test_target_match_ends_when_someone_passes_the_total(client):
    game = new_game(client, rules={"preset": "pagat", "match_length": "target", "target": 100})
    assert len(game["rounds"]) == 1
    pips_round(client, game, {"Ann": 60, "Bob": 2, "Cy": 3}, went_out="Di")
    state = client.get(f"/api/games/{game['id']}").json
    assert state["finished"] is False and len(state["rounds"]) == 2
    last = pips_round(client, game, {"Ann": 50, "Bob": 2, "Di": 3}, went_out="Cy")
    assert last.json["finished"] is True
    assert "Ann" not in last.json["winners"]


def test_a_finished_match_starts_its_rematch_through_the_api(client):
    """As the game page's Rematch: the same players under the same house rules, the caller
    scoring the new game with the token it is given; a later call gets the same game."""
    game = new_game(client, rules={"preset": "double-foot", "match_length": "one-round"})
    pips_round(client, game, {"Ann": 1, "Bob": 2, "Cy": 3}, went_out="Di")
    started = client.post(f"/api/games/{game['id']}/rematch", headers=bearer(game))
    assert started.status_code == 201
    new = started.json
    assert new["id"] != game["id"] and sorted(new["players"]) == sorted(game["players"])
    assert new["finished"] is False and new["rounds"][0]["number"] == 1
    assert pips_round(client, new, {"Ann": 4, "Bob": 5, "Cy": 6}, went_out="Di").status_code == 201
    again = client.post(f"/api/games/{game['id']}/rematch", headers=bearer(game))
    assert again.status_code == 200 and again.json["id"] == new["id"]


def test_a_rematch_waits_for_the_match_to_end_and_for_the_scorer(client):
    game = new_game(client)
    early = client.post(f"/api/games/{game['id']}/rematch", headers=bearer(game))
    assert early.status_code == 409
    assert "not over" in early.json["error"] and early.json["game"]["id"] == game["id"]
    assert client.post(f"/api/games/{game['id']}/rematch").status_code == 401
    assert client.post(f"/api/games/{game['id']}/rematch",
                       headers={"Authorization": "Bearer nope"}).status_code == 403
    assert client.post("/api/games/nosuchgame/rematch", headers=bearer(game)).status_code == 404
