"""The JSON API: the same flows as the pages, for other clients and outside checks.

Writes need `Authorization: Bearer <edit_token>`. Every error is `{"error": "..."}` in the
caller's language with a 4xx status; nothing is written unless the whole request is valid.
"""

from flask import Blueprint, jsonify, request

from referee import db, games, kinds, openapi
from referee.errors import respond
from referee.i18n import say
from referee.security import verify_token
from referee.text import N_, Message, RulesError

bp = Blueprint("api", __name__, url_prefix="/api")

HAND_KEYS = {"tiles", "pips"}


def _fail(code: int, message):
    return jsonify(error=say(message)), code


def _body() -> dict:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise RulesError(N_("The request body must be a JSON object."))
    return data


def _game(game_id):
    return games.load(db.session(), game_id)


def _authorised(game) -> None:
    header = request.headers.get("Authorization", "")
    token = header[7:].strip() if header[:7].lower() == "bearer " else None
    verify_token(game, token)


def _entry(data: dict) -> games.RoundEntry:
    hands = data.get("hands")
    if not isinstance(hands, dict):
        raise RulesError(N_("'hands' must map each player to {\"tiles\": [...]} or {\"pips\": N}."))
    parsed = {}
    for name, hand in hands.items():
        if hand is None:
            continue
        if not isinstance(hand, dict) or len(set(hand) & HAND_KEYS) != 1 or set(hand) - HAND_KEYS:
            raise RulesError(N_("The hand of %(player)s must be {\"tiles\": [...]} or {\"pips\": N}."), player=str(name)[:40])
        if "tiles" in hand:
            if not isinstance(hand["tiles"], list) or not all(isinstance(t, str) for t in hand["tiles"]):
                raise RulesError(N_("The tiles of %(player)s must be a list like [\"3-4\", \"0-0\"]."), player=str(name)[:40])
            parsed[name] = hand["tiles"]
        else:
            pips = hand["pips"]
            if not isinstance(pips, int) or isinstance(pips, bool):
                raise RulesError(N_("The pips of %(player)s must be a whole number."), player=str(name)[:40])
            parsed[name] = pips
    names = {}
    for key in ("went_out", "blocker"):
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            raise RulesError(N_("'%(key)s' must be a player's name or null."), key=key)
        names[key] = value
    flags = {}
    for key in ("blocked", "out_on_double", "capicu"):
        value = data.get(key, False)
        if not isinstance(value, bool):
            raise RulesError(N_("'%(key)s' must be true or false."), key=key)
        flags[key] = value
    last_tile = data.get("last_tile")
    if last_tile is not None and not isinstance(last_tile, str):
        raise RulesError(N_("'last_tile' must be a tile like \"5-3\"."))
    if flags.pop("capicu") and last_tile is None:
        raise RulesError(N_("A capicu needs 'last_tile': the tile that went out on both ends."))
    return games.RoundEntry(hands=parsed, capicu_tile=last_tile if last_tile is not None else None,
                            **names, **flags)


def _game_json(state: games.GameView) -> dict:
    """A game as the API shows it; `totals` are per team in team games, as on the scoreboard."""
    body = {
        "id": state.id,
        "game": state.kind.name,
        "players": state.players,
        "rules": {"preset": state.preset, **state.overrides} if state.kind.name == kinds.CHICKEN_FOOT
        else dict(state.overrides),
        "deal": {"per_player": state.deal.per_player, "boneyard": state.deal.boneyard},
        "totals": state.totals,
        "rounds": [{"number": r.number, "double": str(r.double) if r.double else None, "scores": r.scores,
                    "went_out": r.went_out, "blocked": r.blocked, "version": r.version if r.played else None}
                   for r in state.rounds],
        "finished": state.finished,
        "winners": state.winners,
    }
    if state.columns != state.players:
        body["teams"] = {column: [p for p in state.players if state.column_of(p) == column]
                         for column in state.columns}
    return body


@bp.errorhandler(RulesError)
def _rules_error(err):
    db.session().rollback()
    return _fail(422, err)


@bp.errorhandler(games.NotFound)
def _not_found(_err):
    return _fail(404, Message(N_("There is no such game or round.")))


@bp.errorhandler(games.Forbidden)
def _forbidden(_err):
    return _fail(403, Message(N_("Only a scorer can change this game: send its edit token as 'Authorization: Bearer <token>'.")))


@bp.errorhandler(games.Conflict)
def _conflict(err):
    db.session().rollback()
    state = games.view(db.session(), _game(request.view_args["game_id"]))
    return jsonify(error=say(err.message), game=_game_json(state)), 409


@bp.route("/games", methods=["POST"])
def create_game():
    data = _body()
    session = db.session()
    kind = data.get("game", kinds.CHICKEN_FOOT)
    if not isinstance(kind, str):
        raise RulesError(N_("'game' must be one of %(kinds)s."), kinds=", ".join(kinds.KINDS))
    game = games.create_game(session, data.get("players"), data.get("rules"), kind)
    state = games.view(session, game)
    body = _game_json(state)
    body["edit_token"] = game.edit_token
    body["rounds"] = [{"number": r["number"], "double": r["double"]} for r in body["rounds"]]
    return jsonify(body), 201


@bp.route("/games/<game_id>")
def get_game(game_id):
    return jsonify(_game_json(games.view(db.session(), _game(game_id))))


@bp.route("/games/<game_id>/rounds", methods=["POST"])
def add_round(game_id):
    game = _game(game_id)
    _authorised(game)
    data = _body()
    expected = data.get("number")
    if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)):
        raise RulesError(N_("'number' must be the number of the round being recorded."))
    return _round_saved(games.record_round(db.session(), game, _entry(data), expected)), 201


@bp.route("/games/<game_id>/rounds/<int:number>", methods=["PUT"])
def correct_round(game_id, number):
    game = _game(game_id)
    _authorised(game)
    data = _body()
    version = data.get("version")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise RulesError(N_("'version' must be the round's version number."))
    return _round_saved(games.correct_round(db.session(), game, number, _entry(data), version)), 200


@bp.route("/games/<game_id>/rounds/last", methods=["DELETE"])
def undo_round(game_id):
    game = _game(game_id)
    _authorised(game)
    number = games.undo_last(db.session(), game)
    return jsonify(undone=number, game=_game_json(games.view(db.session(), game))), 200


def _round_saved(saved: games.Saved):
    return jsonify(round=saved.number, version=saved.version, scores=saved.scores, totals=saved.standing.totals,
                   finished=saved.standing.finished, winners=saved.standing.winners)


@bp.route("/openapi.json")
def openapi_document():
    return jsonify(openapi.document())


@bp.route("/<path:_rest>", methods=["GET", "POST", "PUT", "DELETE", "PATCH"])
def unknown(_rest):
    return respond(404)
