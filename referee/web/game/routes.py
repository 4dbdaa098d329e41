"""A game's pages: the scoreboard, entering a round, correcting, undoing and restoring one.

Views parse the form, call `referee.services.games` and `referee.services.rounds`, and render; every number they show comes from
the rules core through that service layer.
"""

import uuid
from datetime import datetime, timezone
from pathlib import Path

from flask import (Blueprint, abort, current_app, jsonify, make_response, redirect, render_template, request,
                   url_for)
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import RequestEntityTooLarge

from flask_babel import get_locale, gettext as _

from referee.rules.scoring import PipTotal
from referee.rules.text import RulesError
from referee.rules.tiles import full_set
from referee.services import exports, games, photos, referee_desk, rounds
from referee.web import chart, db, forms, fragments, security, share
from referee.web.errors import respond
from referee.web.i18n import say
from referee.web.security import remember_token, token_for, verify_token

bp = Blueprint("play", __name__, url_prefix="/games/<game_id>")


def _state(game_id):
    session = db.session()
    game = _or_404(games.load, session, game_id)
    return game, games.view(session, game)


def _or_404(find, *args):
    """`find(*args)`, or the 404 page when the service layer finds no such game or round."""
    try:
        return find(*args)
    except games.NotFound:
        abort(404)


def can_edit(game) -> bool:
    try:
        games.check_token(game, token_for(game.id))
    except games.Forbidden:
        return False
    return True


def _require_edit(game):
    if not can_edit(game):
        abort(403)


@bp.route("")
def game(game_id):
    game, state = _state(game_id)
    editor = can_edit(game)
    links = {"watch": share.watch_url(game.id)}
    if editor:
        links["scorer"] = share.scorer_url(game.id, game.edit_token)
    rulings_log = referee_desk.log(db.session(), state.id)
    return render_template("game.html", state=state, editor=editor, rulings_log=rulings_log,
                           chart=chart.running_chart(state), links=links, qr=share.qr_svg,
                           unreachable=share.unreachable(links["watch"]),
                           restorable=_restorable(game, state, editor), round_ruling=_round_ruling(state, rulings_log))


def _round_ruling(state, rulings_log):
    """A logged ruling that ended the round still to be entered, for its card on the game page."""
    upcoming = state.next_round
    return referee_desk.round_ending(rulings_log, upcoming.number if upcoming else None)


@bp.route("/rematch", methods=["POST"])
def rematch(game_id):
    """The same table plays again: a new game with the same players, seats and house rules,
    opened by the next player where the rules move the first turn on. The phone that tapped
    Rematch scores the new game, as the phone that starts a game does."""
    game, _ = _state(game_id)
    _require_edit(game)
    try:
        started = games.rematch(db.session(), game).game
    except RulesError as err:
        return respond(409, say(err))
    remember_token(started.id, started.edit_token)
    return redirect(url_for("play.game", game_id=started.id), code=303)


@bp.route("/scoreboard")
def scoreboard(game_id):
    """The live part of the game page, polled by every phone showing the game.

    The ETag is the game's version (plus language and scorer status, which change the
    rendering), read from the one game row: an unchanged game costs one primary-key lookup
    and a 304, whichever server process answers. Watchers' fragments are rendered once per
    version and language for all processes (see `referee.fragments`).
    """
    session = db.session()
    polled = _or_404(games.poll, session, game_id)
    editor = can_edit(polled)
    etag = _live_etag(polled.id, polled.version, editor)
    if etag in request.if_none_match:
        response = make_response("", 304)
    else:
        folder, name = Path(current_app.instance_path) / "fragments", f"{polled.id}.{get_locale()}"
        body = None if editor else fragments.read(folder, name, polled.version)
        if body is None:
            game = _or_404(games.load, session, game_id)
            body = _render_live(session, game, editor)
            etag = _live_etag(game.id, game.version, editor)
            if not editor:
                fragments.write(folder, name, game.version, body)
        response = make_response(body)
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response


def _live_etag(game_id: str, version: int, editor: bool) -> str:
    return f"{game_id}.{version}.{get_locale()}.{int(editor)}"


@bp.route("/export.csv")
def export_csv(game_id):
    game, _ = _state(game_id)
    response = make_response(exports.game_csv(db.session(), game))
    response.mimetype = "text/csv"
    response.headers["Content-Disposition"] = f'attachment; filename="referee-{game.id}.csv"'
    return response


@bp.route("/export.json")
def export_json(game_id):
    game, _ = _state(game_id)
    response = jsonify(exports.game_json(db.session(), game))
    response.headers["Content-Disposition"] = f'attachment; filename="referee-{game.id}.json"'
    return response


def _render_live(session, game, editor) -> str:
    state = games.view(session, game)
    ruling = _round_ruling(state, referee_desk.log(session, state.id)) if state.kind.has_desk else None
    return render_template("_live.html", state=state, editor=editor, chart=chart.running_chart(state),
                           restorable=_restorable(game, state, editor), round_ruling=ruling)


def _restorable(game, state, editor):
    """The round a scorer undid lately and can put back, offered on the game page."""
    return rounds.restorable(db.session(), game, state) if editor else None


@bp.route("/token", methods=["POST"])
def rotate_token(game_id):
    """A new edit token: every scorer link given out before stops working, this phone keeps it."""
    game, _ = _state(game_id)
    _require_edit(game)
    remember_token(game.id, games.rotate_token(db.session(), game))
    return redirect(url_for("play.game", game_id=game.id, _anchor="share"), code=303)


@bp.route("/join/<token>")
def join(game_id, token):
    """The scorer link: remembers the token in this browser's session, then drops it from the URL."""
    game, _ = _state(game_id)
    try:
        verify_token(game, token)
    except games.Forbidden:
        abort(403)
    remember_token(game.id, token)
    return redirect(url_for("play.game", game_id=game.id), code=303)


@bp.route("/rounds/new", methods=["GET", "POST"])
def new_round(game_id):
    game, state = _state(game_id)
    _require_edit(game)
    upcoming = state.next_round
    key = request.form.get("entry_key")
    saved_before = rounds.saved_with_key(db.session(), game, key) if request.method == "POST" else None
    if saved_before is not None:
        return _already_saved(state, saved_before)
    if upcoming is None:
        if request.method == "GET":
            return redirect(url_for("play.game", game_id=game.id), code=303)
        return respond(422, _("This match is over; no more rounds can be recorded."))
    if request.method == "GET":
        undone = rounds.undone_entry(db.session(), game, upcoming.number)
        form = _form_from_entry(state, undone) if undone else request.form
        return _round_page(state, upcoming.number, form, undone=undone is not None)
    number = request.form.get("number", type=int) or upcoming.number
    key = request.form.get("entry_key") or None
    return _submit(game, state, number,
                   lambda entry: rounds.record_round(db.session(), game, entry, number, key))


@bp.route("/rounds/<int:number>/edit", methods=["GET", "POST"])
def edit_round(game_id, number):
    game, state = _state(game_id)
    _require_edit(game)
    saved = _or_404(state.round, number)
    if request.method == "GET":
        return _round_page(state, number, _form_from_round(state, saved), editing=saved)
    version = request.form.get("version", type=int)
    return _submit(game, state, number,
                   lambda entry: rounds.correct_round(db.session(), game, number, entry, version), editing=saved)


@bp.route("/rounds/preview", methods=["POST"])
def preview(game_id):
    """Points per player as the house rules compute them, swapped in by htmx as taps change."""
    game, state = _state(game_id)
    _require_edit(game)
    number = request.form.get("number", type=int) or (state.next_round.number if state.next_round else 0)
    return render_template("_round_preview.html", state=state, checked=_check(state, number, request.form))


@bp.route("/rounds/photo/<int:seat>", methods=["POST"])
def photo(game_id, seat):
    """Read one player's hand from a photo and show the round page with it pre-selected."""
    game, state = _state(game_id)
    _require_edit(game)
    if seat >= len(state.players):
        abort(404)
    if not photos.available():
        return _needs_vision()
    number = request.form.get("number", type=int) or (state.next_round.number if state.next_round else 0)
    editing = next((r for r in state.played if r.number == number), None)
    if editing is None and (state.next_round is None or number != state.next_round.number):
        abort(404)
    security.limit("photo")
    security.count("photo")
    upload = request.files.get(f"photo-{seat}")
    data = upload.read() if upload else b""
    fields = request.form.copy()
    try:
        reading = photos.read(data, seat, state.tiles_top, current_app.config["MAX_PHOTO_BYTES"],
                              state.kind.double_blank(state.rules, number))
    except RulesError as err:
        status = 413 if isinstance(err, photos.TooLarge) else 422
        return _round_page(state, number, fields, editing=editing, checked={"error": err}), status
    except photos.Unavailable:
        return _needs_vision()
    except photos.Busy:
        return respond(503, _("The photo counter is busy with another photo. Send yours again in a moment; "
                              "what was typed is kept on the page."))
    if game.keep_photos:
        photos.keep(Path(current_app.instance_path) / "photos", game.id, number, seat, data,
                    datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%f"))
    fields.setlist(f"tiles-{seat}", reading.tiles)
    fields.pop(f"pips-{seat}", None)
    fields.pop(f"double_blank-{seat}", None)  # the [0-0] switch goes with the typed total
    if fields.get("went_out") == str(seat):
        fields.pop("went_out")
    checked = _check(state, number, fields)
    if checked["missing"]:
        # the other hands are simply not entered yet: nobody pressed Save (what the hands
        # entered get wrong is told before who is missing: games.score_entry)
        checked.update(error=None, missing=None)
    return _round_page(state, number, fields, editing=editing, checked=checked, reading=reading)


def _needs_vision():
    return respond(503, _("Counting from a photo needs the vision extra: pip install -e '.[vision]'"))


@bp.errorhandler(RequestEntityTooLarge)
def too_large(_err):
    """A request far over the photo cap cannot be read for its fields: say why in the
    photo's words rather than the bare "too large"."""
    if request.endpoint == "play.photo":
        return respond(413, say(photos.too_large(current_app.config["MAX_PHOTO_BYTES"])))
    return respond(413)


@bp.route("/photos", methods=["POST"])
def keep_photos(game_id):
    """The game's owner decides whether uploaded hand photos are kept (off by default)."""
    game, _ = _state(game_id)
    _require_edit(game)
    games.keep_photos(db.session(), game, request.form.get("keep") == "on")
    return redirect(url_for("play.game", game_id=game.id), code=303)


@bp.route("/rounds/<int:number>")
def show_round(game_id, number):
    game, state = _state(game_id)
    saved = _or_404(state.round, number)
    return render_template("round.html", state=state, round=saved, editor=can_edit(game),
                           history=rounds.history(db.session(), game, number))


@bp.route("/rounds/<int:number>/undo")
def confirm_undo(game_id, number):
    """Undo asks first: the page names the round and what it holds, and offers the way back."""
    game, state = _state(game_id)
    _require_edit(game)
    saved = _or_404(state.round, number)
    if not state.played or state.played[-1].number != number or state.finished:
        abort(404)
    return render_template("undo.html", state=state, round=saved, restore_minutes=rounds.RESTORE_MINUTES)


@bp.route("/rounds/undo", methods=["POST"])
def undo(game_id):
    game, state = _state(game_id)
    _require_edit(game)
    number = request.form.get("number", type=int)
    try:
        rounds.undo_round(db.session(), game, number)
    except games.NotFound:
        abort(404)
    except (RulesError, games.Conflict) as err:
        return respond(409, say(err.message if isinstance(err, games.Conflict) else err))
    return redirect(url_for("play.game", game_id=game.id), code=303)


@bp.route("/rounds/<int:number>/restore", methods=["POST"])
def restore(game_id, number):
    game, state = _state(game_id)
    _require_edit(game)
    try:
        rounds.restore_round(db.session(), game, number)
    except games.Conflict as err:
        return respond(409, say(err.message))
    except RulesError as err:
        return respond(409, say(err))
    return redirect(url_for("play.game", game_id=game.id), code=303)


def _already_saved(state, number):
    """A form sent again (Back after Save, a retry, a double tap): nothing is saved twice."""
    return render_template("already_saved.html", state=state, number=number), 409


def _submit(game, state, number, save, editing=None):
    checked = _check(state, number, request.form)
    if request.form.get("action") == "preview" or checked["error"]:
        status = 200 if request.form.get("action") == "preview" else 422
        return _round_page(state, number, request.form, editing=editing, checked=checked), status
    try:
        save(checked["entry"])
    except RulesError as err:
        db.session().rollback()
        return _round_page(state, number, request.form, editing=editing, checked={**checked, "error": err}), 422
    except rounds.AlreadySaved as saved:
        return _already_saved(state, saved.number)
    except games.Conflict as conflict:
        db.session().rollback()
        fresh = games.view(db.session(), game)
        current = conflict.current or _or_404(fresh.round, number)
        return _round_page(fresh, number, _form_from_round(fresh, current), editing=current,
                           conflict=conflict.message), 409
    return redirect(url_for("play.game", game_id=game.id), code=303)


def _check(state, number, form) -> dict:
    """Parse and score the posted round without saving it."""
    result = {"entry": None, "scores": None, "reason": None, "error": None, "missing": None}
    try:
        entry = forms.round_from_form(form, state.players)
        result["entry"] = entry
        _, scored = games.score_entry(state, number, entry)
        result.update(scores=scored.column_points, reason=scored.reason)
    except games.MissingEntry as err:
        result.update(error=err, missing=err.player)
    except RulesError as err:
        result["error"] = err
    return result


def _round_page(state, number, form, editing=None, checked=None, conflict=None, reading=None, undone=False):
    double = state.kind.round_double(state.rules, number)
    claimed = _claimed(state, form)
    # A new entry gets a key of its own; a form shown again (errors, a photo) keeps its key.
    key = None if editing else (form.get("entry_key") or uuid.uuid4().hex)
    return render_template("round_form.html", state=state, number=number, double=double, form=form,
                           editing=editing, checked=checked or {}, conflict=conflict, reading=reading,
                           entry_key=key, undone=undone,
                           photo_ready=photos.available(),
                           photo_too_large=photos.too_large(current_app.config["MAX_PHOTO_BYTES"]),
                           tiles=full_set(state.tiles_top), claimed=claimed,
                           opener=state.opener(number))


def _claimed(state, form) -> dict:
    """Which seat holds each tapped tile, so other keypads draw it as taken."""
    owners = {}
    for seat in range(len(state.players)):
        for tile in form.getlist(f"tiles-{seat}"):
            owners.setdefault(tile, seat)
    return owners


def _form_from_entry(state, entry):
    """An undone round's entry as form fields, to enter it again."""
    return _form_from_round(state, entry, version=False)


def _form_from_round(state, saved, version=True):
    """A saved round turned back into form fields, to correct it."""
    fields = MultiDict()
    for seat, name in enumerate(state.players):
        held = saved.hands.get(name)
        if name == saved.went_out:
            continue
        if isinstance(held, list):
            for tile in held:
                fields.add(f"tiles-{seat}", str(tile))
        elif isinstance(held, PipTotal):
            fields.add(f"pips-{seat}", str(held.pips))
            if held.double_blank:
                fields.add(f"double_blank-{seat}", "1")
        elif held is not None:
            fields.add(f"pips-{seat}", str(held))
    if getattr(saved, "started_on", None):
        fields.add("started_on", saved.started_on)
    if saved.went_out:
        fields.add("went_out", str(state.players.index(saved.went_out)))
    if saved.blocked:
        fields.add("went_out", "blocked")
    if saved.blocker:
        fields.add("blocker", str(state.players.index(saved.blocker)))
    if saved.capicu_tile:
        fields.add("capicu_tile", saved.capicu_tile)
        # a saved capicu fitted both ends, so they showed its own two numbers
        for end in saved.capicu_tile.strip("[]").split("-"):
            fields.add("capicu_ends", end.strip())
    if saved.out_on_double:
        fields.add("out_on_double", "1")
    if version:
        fields.add("version", str(saved.version))
    return fields
