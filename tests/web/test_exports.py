"""Getting scores out: per-game CSV and JSON, and the lossless whole-database backup."""

import csv
import io

from referee import cli
from referee.services import exports
from referee.web import db
from tests.web.helpers import bearer, new_game, pips_round


def played_game(client):
    game = new_game(client, players=["=cmd|' /C calc'!A0", "Bob", "Cy"])
    name = game["players"][0]
    client.post(f"/api/games/{game['id']}/rounds", headers=bearer(game),
                json={"hands": {name: {"tiles": ["0-0", "5-4"]}, "Bob": {"pips": 12}}, "went_out": "Cy"})
    pips_round(client, game, {name: 3, "Bob": 4, "Cy": 5}, blocked=True)
    client.put(f"/api/games/{game['id']}/rounds/2", headers=bearer(game),
               json={"hands": {name: {"pips": 6}, "Bob": {"pips": 4}, "Cy": {"pips": 5}}, "blocked": True})
    return game


def test_csv_has_a_row_per_player_per_round_and_no_formulas(client):
    game = played_game(client)
    response = client.get(f"/games/{game['id']}/export.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert len(rows) == 6
    assert rows[0]["player"] == "'=cmd|' /C calc'!A0"
    assert rows[0]["tiles"] == "0-0 5-4" and rows[0]["points"] == "59"
    assert rows[3]["blocked"] == "yes" and rows[3]["points"] == "6" and rows[3]["total"] == "65"
    assert rows[2]["went_out"] == "yes"


def test_json_export_holds_rounds_history_and_rulings(client):
    game = played_game(client)
    client.post("/api/rulings/foot", headers=bearer(game), json={
        "game": game["id"], "double": "1-1", "on_table": ["1-1", "1-0", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1"],
        "toes_laid": 0, "drawable": 3})
    data = client.get(f"/games/{game['id']}/export.json").json
    assert data["rounds"][0]["hands"]["Bob"] == {"pips": 12}
    assert data["rounds"][1]["scores"][data["players"][0]] == 6
    assert [h["action"] for h in data["history"]] == ["saved", "saved", "corrected"]
    assert len(data["rulings"]) == 1
    assert data["totals"] == client.get(f"/api/games/{game['id']}").json["totals"]


def test_backup_restores_losslessly_into_an_empty_database(app, client, make_app, new_database):
    played_game(client)
    other = new_game(client, rules={"preset": "kelley", "double_blank": 25})
    pips_round(client, other, {"Ann": 1, "Bob": 2, "Cy": 3}, went_out="Di")
    with app.app_context():
        first = exports.backup(db.session())
    empty = make_app(new_database())
    with empty.app_context():
        assert exports.restore(db.session(), first) > 10
        assert exports.backup(db.session()) == first
    restored = empty.test_client()
    assert restored.get(f"/api/games/{other['id']}").json == client.get(f"/api/games/{other['id']}").json
    # New rows after a restore get fresh ids (PostgreSQL sequences were moved on).
    assert pips_round(restored, other, {"Ann": 1, "Bob": 2, "Di": 3}, went_out="Cy").status_code == 201
    assert new_game(restored, players=["New", "Person"])["players"] == ["New", "Person"]


def test_restore_refuses_a_non_empty_database_or_a_foreign_file(app, client):
    new_game(client)
    with app.app_context():
        document = exports.backup(db.session())
        for bad, message in ((document, "already holds games"), ("{}", "not a backup"), ("garbage", "not a backup"),
                             ('{"format": "referee-backup", "version": 99}', "version 99")):
            try:
                exports.restore(db.session(), bad)
            except ValueError as err:
                assert message in str(err)
            else:
                raise AssertionError("restore accepted " + bad[:30])


def test_backup_and_restore_commands(app, tmp_path, monkeypatch, new_database, capsys):
    target = tmp_path / "backup.json"
    game = new_game(app.test_client())
    with app.app_context():
        expected = exports.backup(db.session())
    monkeypatch.setenv("DATABASE_URL", app.config["SQLALCHEMY_DATABASE_URI"])
    cli.main(["backup", str(target)])
    assert target.read_text() == expected
    monkeypatch.setenv("DATABASE_URL", new_database())
    cli.main(["restore", str(target)])
    assert "Restored" in capsys.readouterr().out
    try:
        cli.main(["restore", str(target)])
    except SystemExit as refused:
        assert "already holds games" in str(refused.code)
    else:
        raise AssertionError("a second restore was accepted")
    cli.main(["backup", str(tmp_path / "again.json")])
    assert (tmp_path / "again.json").read_text() == expected
    assert game["id"] in expected
