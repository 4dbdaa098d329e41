"""Alembic environment: migrations run on the connection the app hands over (see referee.db)."""

from alembic import context
from sqlmodel import SQLModel

from referee.storage import models  # noqa: F401  (the tables the migrations must arrive at)

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=SQLModel.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
