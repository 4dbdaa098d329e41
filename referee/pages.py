"""Home (the games list) and the new-game page with its live preview of the house rules."""

from flask import Blueprint, current_app, redirect, render_template, request, send_from_directory, url_for
from sqlmodel import select

from referee import db, forms, games
from referee.models import Game
from referee.rules import OPTIONS, PRESETS, deal, open_rules, opener, round_doubles
from referee.security import remember_token
from referee.text import RulesError

bp = Blueprint("pages", __name__)


@bp.route("/")
def home():
    session = db.session()
    rows = session.exec(select(Game).order_by(Game.updated.desc()).limit(200)).all()
    views = [games.view(session, g) for g in rows]
    return render_template("home.html", unfinished=[v for v in views if not v.finished],
                           finished=[v for v in views if v.finished])


@bp.route("/sw.js")
def service_worker():
    """The service worker, served from the root so that its scope is the whole app."""
    response = send_from_directory(current_app.static_folder, "sw.js", mimetype="application/javascript",
                                   max_age=0)
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.route("/offline")
def offline():
    return render_template("offline.html")


@bp.route("/health")
def health():
    return "ok"


@bp.route("/games/new", methods=["GET", "POST"])
def new_game():
    form = request.form if request.method == "POST" else request.args
    if request.method == "POST" and form.get("action") != "preview":
        try:
            game = games.create_game(db.session(), forms.players_from_form(form), forms.rules_from_form(form))
        except RulesError as err:
            db.session().rollback()
            return _new_game_page(form, err), 422
        remember_token(game.id, game.edit_token)
        return redirect(url_for("play.game", game_id=game.id), code=303)
    return _new_game_page(form)


@bp.route("/games/new/preview", methods=["POST"])
def preview():
    """The facts panel alone, for htmx to swap in as the choices change."""
    return render_template("_rules_preview.html", **_preview(request.form))


def _new_game_page(form, error=None):
    return render_template("new_game.html", form=form, error=error, presets=list(PRESETS),
                           options=OPTIONS, names=games.known_names(db.session()), **_preview(form))


def _preview(form) -> dict:
    """What the chosen rules mean for this table, or why they cannot work."""
    names = [n.strip() for n in forms.players_from_form(form) if n.strip()]
    count = max(len(names), 2)
    try:
        _, _, rules = games.rules_from_spec(forms.rules_from_form(form))
        facts = deal(rules, count)
    except RulesError as err:
        return {"rules": None, "facts": None, "preview_error": err, "count": count}
    seats = names if len(names) >= 2 else [f"{i + 1}" for i in range(count)]
    return {"rules": rules, "facts": facts, "preview_error": None, "count": count,
            "doubles": round_doubles(rules), "first_opener": opener(rules, seats, 0),
            "open": open_rules(rules)}
