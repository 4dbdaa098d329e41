"""Shared fixtures, in the shape of Flask's tutorial: an app on a temporary database.

With DATABASE_URL set (the test command sets it for the PostgreSQL run) every app uses a
fresh schema on that server instead of a temporary SQLite file.
"""

import os
import uuid

import pytest
from sqlalchemy import create_engine, text

from referee import create_app


@pytest.fixture
def database_url(tmp_path):
    base = os.environ.get("DATABASE_URL")
    if not base:
        yield "sqlite:///" + str(tmp_path / "test.sqlite")
        return
    name = "t_" + uuid.uuid4().hex[:12]
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    yield base.rsplit("/", 1)[0] + "/" + name
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture
def app(tmp_path, database_url):
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "test",
        "SQLALCHEMY_DATABASE_URI": database_url,
        "WTF_CSRF_ENABLED": False,
    })
    app.instance_path = str(tmp_path)
    yield app
    app.extensions["engine"].dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
