"""Home (the games list) and the new-game page with its live preview of the house rules."""

from flask import Blueprint, current_app, redirect, render_template, request, send_from_directory, url_for

from referee.rules.house_rules import OPTIONS, PRESETS, open_rules, round_doubles
from referee.rules.text import RulesError
from referee.services import games, kinds
from referee.web import db, forms
from referee.web.security import remember_token

bp = Blueprint("pages", __name__)


@bp.route("/")
def home():
    views = games.recent(db.session())
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
        kind_name = forms.kind_from_form(form)
        try:
            game = games.create_game(db.session(), forms.players_from_form(form),
                                     forms.rules_from_form(form, kind_name), kind_name, skip_empty=True)
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
                           options=OPTIONS, kind_options=forms.KIND_OPTIONS, kinds=kinds.KINDS,
                           names=games.known_names(db.session()), **_preview(form))


def _preview(form) -> dict:
    """What the chosen game and rules mean for this table, or why they cannot work."""
    names = [n.strip() for n in forms.players_from_form(form) if n.strip()]
    kind_name = forms.kind_from_form(form)
    try:
        kind = kinds.kind(kind_name)
        _, _, rules = games.rules_from_spec(forms.rules_from_form(form, kind_name), kind_name)
        seats = names if len(names) >= 2 else _placeholder_seats(kind, rules)
        facts = kind.deal(rules, seats)
    except RulesError as err:
        return {"rules": None, "facts": None, "preview_error": err, "count": len(names), "kind": None}
    return {"rules": rules, "facts": facts, "preview_error": None, "count": len(seats), "kind": kind,
            "doubles": round_doubles(rules) if kind.round_doubles else [],
            "first_opener": kind.opener(rules, seats, 1, []),
            "open": open_rules(rules) if kind.has_presets else [], "seating": kind.seating(rules, seats)}


def _placeholder_seats(kind, rules) -> list:
    """Numbered seats while the names are not typed yet, as many as the game previews."""
    return [str(i + 1) for i in range(kind.placeholder_seats(rules))]
