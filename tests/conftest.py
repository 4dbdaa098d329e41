"""Shared fixtures, in the shape of Flask's tutorial: an app on a temporary database.

With DATABASE_URL set (the test command sets it for the PostgreSQL run) every app uses a
fresh database on that server instead of a temporary SQLite file.
"""

import os
import uuid

import pytest
from sqlalchemy import create_engine, text

from referee import create_app


@pytest.fixture
def new_database(tmp_path):
    """A factory of empty databases, each dropped again after the test."""
    base = os.environ.get("DATABASE_URL")
    created = []

    def make():
        name = "t_" + uuid.uuid4().hex[:12]
        if not base:
            return "sqlite:///" + str(tmp_path / f"{name}.sqlite")
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        created.append(name)
        return base.rsplit("/", 1)[0] + "/" + name

    admin = create_engine(base, isolation_level="AUTOCOMMIT") if base else None
    yield make
    if admin is not None:
        with admin.connect() as conn:
            for name in created:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def database_url(new_database):
    return new_database()


@pytest.fixture
def make_app(tmp_path):
    """Apps on the given database URL, disposed of after the test."""
    apps = []

    def make(url, **config):
        app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url,
                          "WTF_CSRF_ENABLED": False, **config})
        app.instance_path = str(tmp_path)
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.extensions["engine"].dispose()


@pytest.fixture
def app(make_app, database_url):
    return make_app(database_url)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
