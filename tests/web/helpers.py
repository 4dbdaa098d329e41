"""Small helpers shared by the web tests: start a game and play rounds through the API, and
read what the app stored."""

from sqlmodel import Session

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def new_game(client, players=PLAYERS, rules="pagat"):
    response = client.post("/api/games", json={"players": players, "rules": rules})
    assert response.status_code == 201, response.json
    return response.json


def bearer(game):
    return {"Authorization": "Bearer " + game["edit_token"]}


def _pips_body(pips, went_out, extra):
    return {"hands": {name: {"pips": value} for name, value in pips.items()}, "went_out": went_out, **extra}


def pips_round(client, game, pips, went_out=None, **extra):
    """Record a round where every player but `went_out` gives a typed pip total."""
    return client.post(f"/api/games/{game['id']}/rounds", json=_pips_body(pips, went_out, extra), headers=bearer(game))


def pips_correction(client, game, number, pips, went_out=None, **extra):
    """Replace round `number` with typed pip totals, as pips_round records one."""
    return client.put(f"/api/games/{game['id']}/rounds/{number}", json=_pips_body(pips, went_out, extra),
                      headers=bearer(game))


def as_scorer(client, game):
    """Open the scorer link once, as a phone would, so the session holds the token."""
    response = client.get(f"/games/{game['id']}/join/{game['edit_token']}")
    assert response.status_code == 303
    return client


def database(app) -> Session:
    """A connection of its own to the test app's database, to read (or change behind the
    app's back) what it stored; use it as a context manager."""
    return Session(app.extensions["engine"])
