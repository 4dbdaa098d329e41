"""Player pages: a record across games, renaming and merging without losing a score."""

import re

from tests.web.helpers import as_scorer, new_game, pips_round


def player_id(client, name):
    page = client.get("/players").get_data(as_text=True)
    return int(re.search(rf'href="/players/(\d+)"><span class="who">{re.escape(name)}<', page).group(1))


def fact(page, label):
    return re.search(rf"<dt>{re.escape(label)}</dt><dd>(?:<a [^>]*>)?([^<]+)<", page).group(1)


def test_a_players_record_across_games(client):
    first = new_game(client, players=["Ann", "Bob"], rules={"preset": "double-foot", "match_length": "one-round"})
    client.post(f"/api/games/{first['id']}/rounds", headers={"Authorization": "Bearer " + first["edit_token"]},
                json={"hands": {"Ann": {"tiles": ["0-0", "2-1"]}}, "went_out": "Bob"})
    second = new_game(client, players=["Ann", "Cy"])
    pips_round(client, second, {"Cy": 20}, went_out="Ann")
    pips_round(client, second, {"Ann": 9}, went_out="Cy")
    page = client.get(f"/players/{player_id(client, 'Ann')}").get_data(as_text=True)
    assert fact(page, "Games played") == "2"
    assert fact(page, "Matches won") == "0"
    assert fact(page, "Rounds played") == "3"
    assert fact(page, "Average points per round") == "20.7"  # (53 + 0 + 9) / 3
    assert fact(page, "[0-0] penalties taken") == "1"
    assert fact(page, "Best round") == "0" and fact(page, "Worst round") == "53"
    assert page.count("<polyline") == 1
    bob = client.get(f"/players/{player_id(client, 'Bob')}").get_data(as_text=True)
    assert fact(bob, "Matches won") == "1"


def test_renaming_keeps_every_score(client):
    game = new_game(client)
    pips_round(client, game, {"Ann": 7, "Bob": 2, "Cy": 3}, went_out="Di")
    as_scorer(client, game)
    ann = player_id(client, "Ann")
    assert client.post(f"/players/{ann}/rename", data={"name": "Annie"}).status_code == 303
    state = client.get(f"/api/games/{game['id']}").json
    assert state["players"][0] == "Annie" and state["totals"]["Annie"] == 7


def test_rename_and_merge_need_a_scorer_of_one_of_their_games(client, app):
    game = new_game(client)
    ann = player_id(client, "Ann")
    stranger = app.test_client()
    assert stranger.post(f"/players/{ann}/rename", data={"name": "Mallory"}).status_code == 403
    assert stranger.post(f"/players/{ann}/merge", data={"into": "Bob"}).status_code == 403
    assert "Rename" not in stranger.get(f"/players/{ann}").get_data(as_text=True)
    assert client.get(f"/api/games/{game['id']}").json["players"][0] == "Ann"


def test_rename_refuses_a_taken_or_bad_name(client):
    game = new_game(client)
    as_scorer(client, game)
    ann = player_id(client, "Ann")
    taken = client.post(f"/players/{ann}/rename", data={"name": "Bob"})
    assert taken.status_code == 422 and "merge the two instead" in taken.get_data(as_text=True)
    long = client.post(f"/players/{ann}/rename", data={"name": "x" * 10000})
    assert long.status_code == 422 and "at most 40" in long.get_data(as_text=True)


def test_merging_two_names_of_one_person_keeps_every_score(client):
    old = new_game(client, players=["Grandpa", "Bob"])
    pips_round(client, old, {"Grandpa": 12}, went_out="Bob")
    new = new_game(client, players=["Grandad", "Cy"])
    pips_round(client, new, {"Grandad": 5}, went_out="Cy")
    as_scorer(client, new)
    target = player_id(client, "Grandpa")
    merged = client.post(f"/players/{player_id(client, 'Grandad')}/merge", data={"into": "Grandpa"})
    assert merged.status_code == 303 and merged.headers["Location"].endswith(f"/players/{target}")
    assert client.get(f"/api/games/{new['id']}").json["totals"] == {"Grandpa": 5, "Cy": 0}
    assert client.get(f"/api/games/{old['id']}").json["totals"] == {"Grandpa": 12, "Bob": 0}
    page = client.get(f"/players/{target}").get_data(as_text=True)
    assert fact(page, "Games played") == "2" and fact(page, "Rounds played") == "2"
    assert "Grandad" not in client.get("/players").get_data(as_text=True)


def test_two_people_at_one_game_cannot_be_merged(client):
    game = new_game(client)
    as_scorer(client, game)
    refused = client.post(f"/players/{player_id(client, 'Ann')}/merge", data={"into": "Bob"})
    assert refused.status_code == 422 and "two people" in refused.get_data(as_text=True)
    assert client.get(f"/api/games/{game['id']}").json["players"] == ["Ann", "Bob", "Cy", "Di"]


def test_unknown_player_is_404(client):
    assert client.get("/players/999").status_code == 404
