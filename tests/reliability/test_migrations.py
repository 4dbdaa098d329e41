"""Schema changes go through Alembic: the migrations arrive at the models, and a database
written by the first schema is upgraded without losing a game."""

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text
from sqlmodel import SQLModel

from referee.storage import models  # noqa: F401
from referee.storage.database import make_engine, migrate

PLAYER = "(SELECT id FROM player WHERE name = '%s')"
FIRST_SCHEMA_GAME = [
    "INSERT INTO game (id, edit_token, preset, overrides, created, updated, version, finished) "
    "VALUES ('old1', 'tok', 'kelley', '{\"double_blank\": 25}', :now, :now, 3, false)",
    "INSERT INTO player (name, created) VALUES ('Ann', :now), ('Bob', :now)",
    f"INSERT INTO seat (game_id, player_id, seat) VALUES ('old1', {PLAYER % 'Ann'}, 0), ('old1', {PLAYER % 'Bob'}, 1)",
    "INSERT INTO round (game_id, number, went_out, blocked, out_on_double, version, created, updated) "
    f"VALUES ('old1', 1, {PLAYER % 'Bob'}, false, false, 1, :now, :now)",
    "INSERT INTO hand (round_id, player_id, tiles, pips, points) "
    f"VALUES ((SELECT id FROM round), {PLAYER % 'Ann'}, '0-0 5-4', NULL, 34), "
    f"((SELECT id FROM round), {PLAYER % 'Bob'}, '', NULL, 0)",
]


def test_migrations_arrive_at_the_models(database_url):
    engine = make_engine(database_url)
    migrate(engine)
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), SQLModel.metadata)
    engine.dispose()
    assert differences == []


def test_a_database_of_the_first_schema_is_upgraded_without_losing_a_game(database_url, make_app):
    engine = make_engine(database_url)
    migrate(engine, "0001")
    with engine.begin() as connection:
        for statement in FIRST_SCHEMA_GAME:
            connection.execute(text(statement), {"now": "2026-01-02 03:04:05+00:00"})
    engine.dispose()
    client = make_app(database_url).test_client()
    game = client.get("/api/games/old1").json
    assert game["players"] == ["Ann", "Bob"]
    assert game["rules"] == {"preset": "kelley", "double_blank": 25}
    assert game["rounds"][0]["scores"] == {"Ann": 34, "Bob": 0}
    assert game["totals"] == {"Ann": 34, "Bob": 0}
    # The upgraded database takes new rounds and new games.
    saved = client.post("/api/games/old1/rounds", headers={"Authorization": "Bearer tok"},
                        json={"hands": {"Ann": {"pips": 5}}, "went_out": "Bob"})
    assert saved.status_code == 201 and saved.json["totals"]["Ann"] == 39
    assert client.post("/api/games", json={"players": ["Cy", "Di"]}).status_code == 201
