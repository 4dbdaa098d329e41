"""A game's pages: the scoreboard, entering, correcting and undoing a round, sharing."""

from referee.web.game.routes import bp

__all__ = ["bp"]
