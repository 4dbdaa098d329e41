"""Player pages: each person's record across games, renaming and merging names."""

from referee.web.players.routes import bp

__all__ = ["bp"]
