"""Team dominoes (2 v 2) and the regular draw game, kept by the same app and the same endpoints."""

import pytest

from tests.web.helpers import bearer

TEAM = ["Ann", "Bob", "Cy", "Di"]


def start(client, kind, players, rules=None):
    body = {"game": kind, "players": players}
    if rules is not None:
        body["rules"] = rules
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.json
    return response.json


def hand(client, game, body):
    return client.post(f"/api/games/{game['id']}/rounds", json=body, headers=bearer(game))


def test_team_game_starts_with_teams_and_no_boneyard(client):
    game = start(client, "team", TEAM)
    assert game["game"] == "team"
    assert game["deal"] == {"per_player": 7, "boneyard": 0}
    assert game["teams"] == {"Ann & Cy": ["Ann", "Cy"], "Bob & Di": ["Bob", "Di"]}
    assert game["totals"] == {"Ann & Cy": 0, "Bob & Di": 0}
    assert game["rounds"] == [{"number": 1, "double": None}]
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "Ann and Cy are partners" in page and "whoever holds [6-6] opens with it" in page


def test_the_winning_team_scores_every_pip_left_in_all_hands(client):
    game = start(client, "team", TEAM)
    saved = hand(client, game, {"hands": {"Bob": {"pips": 12}, "Cy": {"pips": 4}, "Di": {"tiles": ["5-4"]}},
                                "went_out": "Ann"})
    assert saved.status_code == 201
    assert saved.json["scores"] == {"Ann & Cy": 25, "Bob & Di": 0}
    assert saved.json["totals"] == {"Ann & Cy": 25, "Bob & Di": 0}
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "Ann went out last hand, so Ann opens" in page


def test_losers_only_option(client):
    game = start(client, "team", TEAM, {"score_losers_only": True})
    saved = hand(client, game, {"hands": {"Bob": {"pips": 12}, "Cy": {"pips": 4}, "Di": {"pips": 9}},
                                "went_out": "Ann"})
    assert saved.json["scores"] == {"Ann & Cy": 21, "Bob & Di": 0}


def test_blocked_hand_goes_to_fewer_pips_and_the_blocker_opens_next(client):
    game = start(client, "team", TEAM)
    saved = hand(client, game, {"hands": {"Ann": {"pips": 5}, "Bob": {"pips": 10}, "Cy": {"pips": 6},
                                          "Di": {"pips": 3}}, "blocked": True, "blocker": "Bob"})
    assert saved.status_code == 201
    assert saved.json["scores"] == {"Ann & Cy": 24, "Bob & Di": 0}
    assert "Bob laid the blocking tile last hand" in client.get(f"/games/{game['id']}").get_data(as_text=True)


def test_equal_blocked_hand_scores_nobody(client):
    game = start(client, "team", TEAM)
    saved = hand(client, game, {"hands": {"Ann": {"pips": 5}, "Bob": {"pips": 4}, "Cy": {"pips": 4},
                                          "Di": {"pips": 5}}, "blocked": True, "blocker": "Cy"})
    assert saved.json["scores"] == {"Ann & Cy": 0, "Bob & Di": 0}


def test_capicu_bonus_and_a_false_claim(client):
    game = start(client, "team", TEAM, {"capicu_bonus": 25})
    hands = {"Bob": {"pips": 3}, "Cy": {"pips": 4}, "Di": {"pips": 5}}
    false = hand(client, game, {"hands": hands, "went_out": "Ann", "capicu": True, "last_tile": "4-4",
                                "ends": [4, 4]})
    assert false.status_code == 422 and "double" in false.json["error"]
    missing = hand(client, game, {"hands": hands, "went_out": "Ann", "capicu": True})
    assert missing.status_code == 422 and "last_tile" in missing.json["error"]
    saved = hand(client, game, {"hands": hands, "went_out": "Ann", "capicu": True, "last_tile": "5-3",
                                "ends": [3, 5]})
    assert saved.json["scores"] == {"Ann & Cy": 37, "Bob & Di": 0}


def test_first_team_to_the_target_wins_and_cochon_is_shown(client):
    game = start(client, "team", TEAM, {"target": 50})
    hand(client, game, {"hands": {"Bob": {"pips": 30}, "Cy": {"pips": 0}, "Di": {"pips": 30}}, "went_out": "Ann"})
    state = client.get(f"/api/games/{game['id']}").json
    assert state["finished"] is True and state["winners"] == ["Ann & Cy"]
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "cochon" in page
    assert hand(client, game, {"hands": {"Bob": {"pips": 1}, "Cy": {"pips": 1}, "Di": {"pips": 1}},
                               "went_out": "Ann"}).status_code == 422


@pytest.mark.parametrize("players, rules, fragment", [
    (["Ann", "Bob", "Cy"], None, "4 players"),
    (TEAM, {"capicu_bonus": 20}, "capicu"),
    (TEAM, {"target": 0}, "target"),
    (TEAM, "pagat", "object"),
])
def test_team_game_refuses_nonsense(client, players, rules, fragment):
    body = {"game": "team", "players": players, **({"rules": rules} if rules is not None else {})}
    response = client.post("/api/games", json=body)
    assert response.status_code == 422 and fragment in response.json["error"]


def test_unknown_game_kind(client):
    response = client.post("/api/games", json={"game": "poker", "players": TEAM})
    assert response.status_code == 422 and "chicken-foot, team, draw" in response.json["error"]


def test_one_v_one_variant_deals_a_boneyard(client):
    game = start(client, "team", ["Ann", "Bob"], {"one_v_one": True})
    assert game["deal"] == {"per_player": 7, "boneyard": 14}


def test_draw_game_first_out_scores_the_others_and_one_hand_decides(client):
    game = start(client, "draw", ["Ann", "Bob", "Cy"])
    assert game["deal"] == {"per_player": 5, "boneyard": 13}
    saved = hand(client, game, {"hands": {"Bob": {"pips": 7}, "Cy": {"tiles": ["6-6"]}}, "went_out": "Ann"})
    assert saved.json["scores"] == {"Ann": 19, "Bob": 0, "Cy": 0}
    assert saved.json["finished"] is True and saved.json["winners"] == ["Ann"]


def test_draw_game_blocked_goes_to_the_lowest_count_and_ties_deal_again(client):
    game = start(client, "draw", ["Ann", "Bob"], {"target": 20})
    tie = hand(client, game, {"hands": {"Ann": {"pips": 4}, "Bob": {"pips": 4}}, "blocked": True})
    assert tie.json["scores"] == {"Ann": 0, "Bob": 0} and tie.json["finished"] is False
    won = hand(client, game, {"hands": {"Ann": {"pips": 3}, "Bob": {"pips": 9}}, "blocked": True})
    assert won.json["scores"] == {"Ann": 9, "Bob": 0}
    last = hand(client, game, {"hands": {"Ann": {"pips": 1}, "Bob": {"pips": 12}}, "blocked": True})
    assert last.json["finished"] is True and last.json["winners"] == ["Ann"]


def test_team_game_from_the_pages(client):
    form = {f"player-{i}": name for i, name in enumerate(TEAM)}
    form.update({"game": "team", "team-capicu_bonus": "30", "action": "start"})
    created = client.post("/games/new", data=form)
    assert created.status_code == 303
    game_url = created.headers["Location"]
    page = client.get(game_url + "/rounds/new").get_data(as_text=True)
    assert page.count('name="tiles-0"') == 28 and "Capicu (30 points)" in page and 'name="blocker"' in page
    saved = client.post(game_url + "/rounds/new", data={
        "action": "save", "number": "1", "went_out": "0", "capicu_tile": "6-1", "capicu_ends": ["1", "6"],
        "tiles-1": ["6-6"], "pips-2": "0", "pips-3": "2"})
    assert saved.status_code == 303
    state = client.get("/api" + game_url).json
    assert state["totals"] == {"Ann & Cy": 44, "Bob & Di": 0}
    round_page = client.get(game_url + "/rounds/1").get_data(as_text=True)
    assert "capicu" in round_page
    blocked = client.post(game_url + "/rounds/new", data={
        "action": "save", "number": "2", "went_out": "blocked", "pips-0": "3", "pips-1": "2", "pips-2": "9",
        "pips-3": "1"})
    assert blocked.status_code == 422 and "blocking tile" in blocked.get_data(as_text=True)


def test_team_preview_on_the_new_game_page(client):
    preview = client.post("/games/new/preview", data={"game": "team", "player-0": "Ann", "player-1": "Bob",
                                                       "player-2": "Cy", "player-3": "Di"})
    text = preview.get_data(as_text=True)
    assert "Ann and Cy are partners" in text and "[6-6]" in text
    short = client.post("/games/new/preview", data={"game": "team", "player-0": "Ann", "player-1": "Bob",
                                                     "player-2": "Cy"}).get_data(as_text=True)
    assert "needs 4 players" in short


def test_team_exports_credit_each_player_with_the_team_points(client):
    game = start(client, "team", TEAM)
    hand(client, game, {"hands": {"Bob": {"pips": 12}, "Cy": {"pips": 4}, "Di": {"pips": 9}}, "went_out": "Ann"})
    rows = client.get(f"/games/{game['id']}/export.csv").get_data(as_text=True).splitlines()
    assert rows[1].endswith(",25,25") and rows[2].endswith(",0,0")
    assert client.get(f"/games/{game['id']}/referee").status_code == 404


def test_any_agreed_target_can_be_typed_on_the_new_game_page(client):
    page = client.get("/games/new").get_data(as_text=True)
    assert 'name="team-target"' in page and '<datalist id="team-targets"><option value="100">' in page
    form = {f"player-{i}": name for i, name in enumerate(TEAM)}
    form.update({"game": "team", "team-target": "150", "action": "start"})
    game_url = client.post("/games/new", data=form).headers["Location"]
    assert client.get("/api" + game_url).json["rules"] == {"target": "150"}
    draw_form = {"player-0": "Ann", "player-1": "Bob", "game": "draw", "draw-target": "", "action": "start"}
    draw_url = client.post("/games/new", data=draw_form).headers["Location"]
    assert client.get("/api" + draw_url).json["rules"] == {}
