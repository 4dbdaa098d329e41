"""Shared fixtures, in the shape of Flask's tutorial: an app on a temporary database.

With DATABASE_URL set (the test command sets it for the PostgreSQL run) every app uses a
fresh database on that server instead of a temporary SQLite file.
"""

import os
import shutil
import uuid

import pytest
from sqlalchemy import create_engine, text
from sqlmodel import SQLModel

from referee import create_app
from referee.storage.database import make_engine, migrate


@pytest.fixture(scope="session")
def schema_template(tmp_path_factory):
    """A database brought to the newest schema once per run, for the apps of the tests to start
    from a copy of it: running every migration for every test's app cost more than the test."""
    base = os.environ.get("DATABASE_URL")
    made = {}

    def template() -> str:
        if "url" not in made:
            if base:
                name = "template_" + uuid.uuid4().hex[:12]
                with admin.connect() as conn:
                    conn.execute(text(f'CREATE DATABASE "{name}"'))
                made.update(url=base.rsplit("/", 1)[0] + "/" + name, name=name)
            else:
                made.update(url="sqlite:///" + str(tmp_path_factory.mktemp("template") / "schema.sqlite"))
            engine = make_engine(made["url"])
            migrate(engine)
            engine.dispose()
        return made.get("name") or made["url"].removeprefix("sqlite:///")

    admin = create_engine(base, isolation_level="AUTOCOMMIT") if base else None
    yield template
    if admin is not None:
        if "name" in made:
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{made["name"]}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def new_database(tmp_path, schema_template):
    """A factory of databases, each dropped again after the test: empty, or with `migrated`
    a copy of one already at the newest schema (and holding no rows)."""
    base = os.environ.get("DATABASE_URL")
    created = []

    def make(migrated: bool = False):
        name = "t_" + uuid.uuid4().hex[:12]
        if not base:
            path = tmp_path / f"{name}.sqlite"
            if migrated:
                shutil.copyfile(schema_template(), path)
            return "sqlite:///" + str(path)
        template = f' TEMPLATE "{schema_template()}"' if migrated else ""
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"{template}'))
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
def app(make_app, new_database, schema_template):
    """An app on a database at the newest schema holding no rows. On PostgreSQL that is one
    database for the whole run, emptied after each test: making a database per test cost
    three times as long as the tests themselves."""
    if not os.environ.get("DATABASE_URL"):
        yield make_app(new_database(migrated=True))
        return
    url = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/" + schema_template()
    made = make_app(url)
    yield made
    made.extensions["engine"].dispose()  # no connection of the test's may hold a lock on a table
    engine = create_engine(url)
    with engine.begin() as conn:
        names = ", ".join(f'"{table.name}"' for table in SQLModel.metadata.sorted_tables)
        conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
