"""The referee desk: settle a dispute at the table from the house rules."""

from referee.web.desk.routes import bp

__all__ = ["bp"]
