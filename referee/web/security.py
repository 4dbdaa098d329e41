"""Headers every response carries, CSRF for the HTML forms, and who may write to a game.

A scorer proves itself with the game's edit token: the API in an `Authorization: Bearer`
header, a browser through its session cookie after opening the scorer link once. The token
is compared in constant time and never put in a URL after that first visit.
"""

from flask import abort, request, session
from flask_wtf import CSRFProtect

from referee.services import games, rate_limits
from referee.web import db

csrf = CSRFProtect()

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
       "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")


def init_app(app):
    csrf.init_app(app)

    @app.after_request
    def headers(response):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Frame-Options"] = "DENY"
        return response


def remember_token(game_id: str, token: str) -> None:
    keys = dict(session.get("keys", {}))
    keys[game_id] = token
    session["keys"] = keys
    session.permanent = True


def token_for(game_id: str):
    return session.get("keys", {}).get(game_id)


def verify_token(game, token) -> None:
    """Check a presented edit token; a wrong one counts against this client's guess limit.

    Over the limit the client gets 429 even with the right token, so guessing stays slow.
    """
    if token is None:
        raise games.Forbidden(game.id)  # nothing presented: refused, but not a guess
    limit("token")
    try:
        games.check_token(game, token)
    except games.Forbidden:
        rate_limits.record(db.session(), client(), "token")
        raise


def client() -> str:
    """Who is asking, as far as rate limits go: the client's address."""
    return (request.remote_addr or "unknown")[:64]


def limit(kind: str) -> None:
    """Refuse with 429 when this client is over the limit for `kind`."""
    if rate_limits.over_limit(db.session(), client(), kind):
        abort(429)


def count(kind: str) -> None:
    """Count one attempt of `kind` against this client."""
    rate_limits.record(db.session(), client(), kind)
