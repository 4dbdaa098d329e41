"""Every form that changes something refuses a post without its CSRF token, and takes it
with the token the page gave: a page on another site cannot make a scorer's phone save,
undo, rename or rotate anything."""

import re

import pytest

from tests.web.helpers import as_scorer, new_game, pips_round

FORMS = [
    ("/games/new", {"player-0": "Ann", "player-1": "Bob", "preset": "pagat"}),
    ("/games/new/preview", {"player-0": "Ann", "player-1": "Bob"}),
    ("/games/{id}/token", {}),
    ("/games/{id}/rounds/new", {"action": "save", "went_out": "0", "pips-1": "3", "pips-2": "4", "pips-3": "5"}),
    ("/games/{id}/rounds/1/edit", {"action": "save", "went_out": "0", "pips-1": "3", "pips-2": "4", "pips-3": "5"}),
    ("/games/{id}/rounds/preview", {"pips-1": "3"}),
    ("/games/{id}/rounds/photo/0", {}),
    ("/games/{id}/photos", {"keep": "on"}),
    ("/games/{id}/rounds/undo", {"number": "1"}),
    ("/games/{id}/rounds/1/restore", {}),
    ("/players/{player}/rename", {"name": "Anna"}),
    ("/players/{player}/merge", {"into": "Bob"}),
    ("/games/{id}/referee/foot", {"double": "1-1"}),
    ("/referee/foot/ruling", {"preset": "pagat", "players": "4", "double": "1-1"}),
    ("/games/{id}/referee/out-on-double", {}),
    ("/games/{id}/rematch", {}),
]


@pytest.fixture
def scorer(app, client):
    app.config["WTF_CSRF_ENABLED"] = True
    game = new_game(client)
    pips_round(client, game, {"Bob": 3, "Cy": 4, "Di": 5}, went_out="Ann")
    as_scorer(client, game)
    page = client.get("/players").get_data(as_text=True)
    player = re.search(r'href="/players/(\d+)"', page).group(1)
    return client, game, player


@pytest.mark.parametrize("path, fields", FORMS, ids=[path for path, _ in FORMS])
def test_a_form_without_its_csrf_token_is_refused(app, scorer, path, fields):
    client, game, player = scorer
    before = client.get(f"/api/games/{game['id']}").json
    response = client.post(path.format(id=game["id"], player=player), data=fields)
    assert response.status_code == 400
    assert "This form has expired or did not come from this app" in response.get_data(as_text=True)
    assert client.get(f"/api/games/{game['id']}").json == before


def test_the_round_form_works_with_the_token_it_carries(scorer):
    client, game, _ = scorer
    page = client.get(f"/games/{game['id']}/rounds/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    response = client.post(f"/games/{game['id']}/rounds/new", data={
        "csrf_token": token, "action": "save", "went_out": "0", "pips-1": "3", "pips-2": "4", "pips-3": "5"})
    assert response.status_code == 303
