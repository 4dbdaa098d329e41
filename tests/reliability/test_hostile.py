"""Markup, control characters and spreadsheet formulas in names, rules and rulings are
refused or stored and shown escaped everywhere: pages, the SVG chart, CSV, JSON."""

import csv
import io

import pytest

from tests.web.helpers import as_scorer, bearer, new_game, pips_round

MARKUP = '<script>alert(1)</script>'
FORMULA = "=cmd|' /C calc'!A0"


def test_markup_in_a_name_is_shown_escaped_everywhere(client):
    game = new_game(client, players=[MARKUP, FORMULA, "@SUM(A1)"])
    pips_round(client, game, {MARKUP: 4, FORMULA: 5}, went_out="@SUM(A1)")
    as_scorer(client, game)
    pages = [f"/games/{game['id']}", f"/games/{game['id']}/scoreboard", f"/games/{game['id']}/rounds/1",
             f"/games/{game['id']}/rounds/new", "/", "/players", "/games/new"]
    for path in pages:
        text = client.get(path).get_data(as_text=True)
        assert MARKUP not in text, path
    scoreboard = client.get(f"/games/{game['id']}/scoreboard").get_data(as_text=True)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in scoreboard
    svg = scoreboard[scoreboard.index("<svg"):scoreboard.index("</svg>")]
    assert "<title>&lt;script&gt;" in svg
    rows = list(csv.reader(io.StringIO(client.get(f"/games/{game['id']}/export.csv").get_data(as_text=True))))
    names = {row[3] for row in rows[1:]}
    assert names == {MARKUP, "'" + FORMULA, "'@SUM(A1)"}
    exported = client.get(f"/games/{game['id']}/export.json")
    assert exported.json["players"][0] == MARKUP  # JSON carries the text as data, served as JSON
    assert exported.mimetype == "application/json"


@pytest.mark.parametrize("name", ["Ann\x00", "Bob\x1b[31m", "Cy\u202e", "x" * 10000, "   "])
def test_control_characters_and_huge_names_are_refused(client, name):
    response = client.post("/api/games", json={"players": [name, "Other"]})
    assert response.status_code == 422
    assert response.json["error"]


@pytest.mark.parametrize("rules", [
    {"preset": MARKUP},
    {"preset": "pagat", "double_blank": MARKUP},
    {"preset": "pagat", MARKUP: 1},
    {"preset": "pagat", "impossible_foot": "=cmd|x"},
])
def test_markup_in_house_rules_is_refused_and_echoed_safely(client, rules):
    response = client.post("/api/games", json={"players": ["Ann", "Bob"], "rules": rules})
    assert response.status_code == 422
    page = client.post("/games/new/preview", data={"player-0": "A", "player-1": "B", "preset": MARKUP})
    assert MARKUP not in page.get_data(as_text=True)


def test_markup_in_a_ruling_is_refused(client):
    game = new_game(client)
    response = client.post("/api/rulings/foot", headers=bearer(game), json={
        "game": game["id"], "double": MARKUP, "on_table": [MARKUP], "toes_laid": 0, "drawable": 0})
    assert response.status_code == 422
    assert response.mimetype == "application/json"
    page = client.post(f"/games/{game['id']}/referee/foot", data={"double": MARKUP, "laid": [MARKUP]})
    assert page.status_code in (200, 422)
    assert MARKUP not in page.get_data(as_text=True)
