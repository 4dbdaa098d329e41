"""Player pages: each person's record across games, renaming and merging names."""

from flask import Blueprint, abort, redirect, render_template, request, url_for

from referee.rules.text import RulesError
from referee.services import roster
from referee.services.games import NotFound
from referee.web import chart, db
from referee.web.security import scorer_tokens

bp = Blueprint("players", __name__, url_prefix="/players")


def _player(player_id):
    try:
        return roster.load_player(db.session(), player_id)
    except NotFound:
        abort(404)


def _page(player, error=None, status=200):
    record = roster.record(db.session(), player)
    manage = roster.can_manage(db.session(), player, scorer_tokens())
    others = [p.name for p in roster.all_players(db.session()) if p.id != player.id]
    return render_template("player.html", record=record, manage=manage, others=others, error=error,
                           chart=chart.player_chart(record)), status


@bp.route("")
def index():
    return render_template("players.html", players=roster.all_players(db.session()))


@bp.route("/<int:player_id>")
def show(player_id):
    return _page(_player(player_id))


@bp.route("/<int:player_id>/rename", methods=["POST"])
def rename(player_id):
    player = _player(player_id)
    if not roster.can_manage(db.session(), player, scorer_tokens()):
        abort(403)
    try:
        roster.rename(db.session(), player, request.form.get("name", ""))
    except RulesError as err:
        db.session().rollback()
        return _page(player, err, 422)
    return redirect(url_for("players.show", player_id=player.id), code=303)


@bp.route("/<int:player_id>/merge", methods=["POST"])
def merge(player_id):
    player = _player(player_id)
    if not roster.can_manage(db.session(), player, scorer_tokens()):
        abort(403)
    try:
        target = roster.merge(db.session(), player, request.form.get("into", ""))
    except RulesError as err:
        db.session().rollback()
        return _page(player, err, 422)
    return redirect(url_for("players.show", player_id=target.id), code=303)
