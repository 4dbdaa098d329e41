"""The JSON API: the same flows as the pages, for other clients and outside checks.

Writes need `Authorization: Bearer <edit_token>`. Every error is `{"error": "..."}` in the
caller's language with a 4xx status; nothing is written unless the whole request is valid.
"""

from flask import Blueprint, jsonify, request

from referee.rules.text import Message, N_, RulesError
from referee.rules.tiles import SET_SIZES
from referee.services import games, kinds, referee_desk
from referee.services.games import MAX_NAME
from referee.web import db
from referee.web.api import openapi
from referee.web.errors import respond
from referee.web.i18n import say
from referee.web.security import verify_token

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


def _bearer():
    """The token sent as `Authorization: Bearer <token>`; a header in any other shape is a wrong token."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    return header[7:].strip() if header[:7].lower() == "bearer " else ""


def _authorised(game) -> None:
    verify_token(game, _bearer())


def _entry(data: dict) -> games.RoundEntry:
    hands = data.get("hands")
    if not isinstance(hands, dict):
        raise RulesError(N_("'hands' must map each player to {\"tiles\": [...]} or {\"pips\": N}."))
    parsed = {}
    for name, hand in hands.items():
        if hand is None:
            continue
        if not isinstance(hand, dict) or len(set(hand) & HAND_KEYS) != 1 or set(hand) - HAND_KEYS:
            raise RulesError(N_("The hand of %(player)s must be {\"tiles\": [...]} or {\"pips\": N}."), player=str(name)[:MAX_NAME])
        if "tiles" in hand:
            if not isinstance(hand["tiles"], list) or not all(isinstance(t, str) for t in hand["tiles"]):
                raise RulesError(N_("The tiles of %(player)s must be a list like [\"3-4\", \"0-0\"]."), player=str(name)[:MAX_NAME])
            parsed[name] = hand["tiles"]
        else:
            pips = hand["pips"]
            if not isinstance(pips, int) or isinstance(pips, bool):
                raise RulesError(N_("The pips of %(player)s must be a whole number."), player=str(name)[:MAX_NAME])
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
        "rules": state.kind.rules_spec(state.preset, state.overrides),
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
    if request.endpoint == "api.foot_ruling":
        return _fail(403, Message(N_("Only a scorer can log a ruling in this game: send its edit token "
                                    "as 'Authorization: Bearer <token>', or leave the header out to "
                                    "get the ruling without logging it.")))
    return _fail(403, Message(N_("Only a scorer can change this game: send its edit token as 'Authorization: Bearer <token>'.")))


@bp.errorhandler(games.Conflict)
def _conflict(err):
    db.session().rollback()
    game_id = (request.view_args or {}).get("game_id")
    if game_id is None:
        return _fail(409, err.message)
    state = games.view(db.session(), _game(game_id))
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


FOOT_KEYS = {"rules", "game", "double", "on_table", "toes_laid", "drawable", "starting", "players"}


@bp.route("/rulings/foot", methods=["POST"])
def foot_ruling():
    """{"rules" or "game", "double", "on_table", "toes_laid", "drawable", "starting"} -> the ruling.

    With a game and its edit token the ruling is logged with the game; without the token it
    is only given."""
    data = _body()
    unknown = sorted(set(data) - FOOT_KEYS, key=str)
    if unknown:
        raise RulesError(N_("'%(key)s' is not part of a foot ruling: send %(keys)s."),
                         key=str(unknown[0])[:MAX_NAME], keys=", ".join(sorted(FOOT_KEYS)))
    session = db.session()
    game, log, round_number = None, False, None
    if data.get("game") is not None:
        if not isinstance(data["game"], str):
            raise RulesError(N_("'game' must be a game's id."))
        if data.get("rules") is not None:
            raise RulesError(N_("Send either 'rules' or 'game': a game's rulings follow its own house rules."))
        if data.get("players") is not None:
            raise RulesError(N_("Leave out 'players' when you name a game: the game knows its players."))
        game = games.load(session, data["game"])
        if not kinds.kind(game.kind).has_desk:
            raise RulesError(N_("Foot rulings are for Chicken Foot games only."))
        token = _bearer()
        if token is not None:
            verify_token(game, token)
            log = True
        state = games.view(session, game)
        rules, players = state.rules, len(state.players)
        round_number = state.next_round.number if state.next_round else None
    else:
        if data.get("rules") is None:
            raise RulesError(N_("Say which house rules apply: 'rules' as a preset name or {\"preset\": ..., "
                                "...changes}, or the 'game' this ruling is for."))
        _, _, rules = games.rules_from_spec(data["rules"])
        players = _whole(data, "players", None)
    double = data.get("double")
    if not isinstance(double, str):
        raise RulesError(N_("'double' must be a tile written like \"1-1\"."))
    on_table = data.get("on_table")
    if not isinstance(on_table, list) or not all(isinstance(tile, str) for tile in on_table):
        raise RulesError(N_("'on_table' must be a list of tiles like [\"1-1\", \"1-5\"]."))
    if len(on_table) > SET_SIZES[rules.set]:
        raise RulesError(N_("A double-%(top)d set has only %(size)d tiles."), top=rules.set,
                         size=SET_SIZES[rules.set])
    starting = data.get("starting", False)
    if not isinstance(starting, bool):
        raise RulesError(N_("'%(key)s' must be true or false."), key="starting")
    answer = referee_desk.judge(rules, double, on_table, toes_laid=_whole(data, "toes_laid", 0),
                                drawable=_whole(data, "drawable", 0), starting=starting, players=players)
    if log:
        referee_desk.record(session, game, answer, round_number)
    ruling = answer.ruling
    return jsonify(completable=ruling.completable, toes_missing=ruling.toes_missing,
                   unseen=[str(tile) for tile in ruling.unseen], outcome=ruling.outcome,
                   explanation=" ".join(say(part) for part in answer.parts), rule=say(answer.rule),
                   logged=log), 200


def _whole(data: dict, key: str, default):
    value = data.get(key, default)
    if value is default:
        return value
    if type(value) is not int:
        raise RulesError(N_("'%(key)s' must be a whole number."), key=key)
    return value


@bp.route("/openapi.json")
def openapi_document():
    return jsonify(openapi.document())


@bp.route("/<path:_rest>", methods=["GET", "POST", "PUT", "DELETE", "PATCH"])
def unknown(_rest):
    return respond(404)
