"""The JSON API: the same flows as the pages for other clients, with its OpenAPI document."""

from referee.web.api.routes import bp

__all__ = ["bp"]
