"""Storage: the tables, and the Alembic migrations that bring any database up to them."""
