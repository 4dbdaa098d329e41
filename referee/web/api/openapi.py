"""The OpenAPI 3 description of the JSON API, served at /api/openapi.json.

Written by hand to say exactly what the API promises; the test suite runs schemathesis
against the live app with it, so a response that breaks it fails a test.
"""

from referee.rules.house_rules import OPTIONS
from referee.services.games import MAX_NAME

TILE = {"type": "string", "example": "3-4"}
ERROR = {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}}
SCORES = {"type": "object", "additionalProperties": {"type": "integer"}}
NAME = {"type": "string", "minLength": 1, "maxLength": MAX_NAME}
RULES = {
    "oneOf": [
        {"type": "string", "enum": ["pagat", "pagat-reduced", "kelley", "gamerules", "hub8", "double-foot"]},
        {"type": "object", "properties": {
            "preset": {"type": "string"},
            **{name: {} for name in OPTIONS},
            "target": {"type": ["integer", "null"]},
        }},
    ],
}
HAND = {"oneOf": [
    {"type": "object", "required": ["tiles"], "additionalProperties": False,
     "properties": {"tiles": {"type": "array", "items": TILE}}},
    {"type": "object", "required": ["pips"], "additionalProperties": False,
     "properties": {"pips": {"type": "integer", "minimum": 0}}},
]}
ROUND_ENTRY = {
    "type": "object", "required": ["hands"],
    "properties": {
        "hands": {"type": "object", "additionalProperties": HAND},
        "went_out": {"type": ["string", "null"]},
        "blocked": {"type": "boolean"},
        "out_on_double": {"type": "boolean"},
        "blocker": {"type": ["string", "null"], "description": "team games: who laid the blocking tile"},
        "capicu": {"type": "boolean", "description": "team games: went out with a capicu"},
        "last_tile": {"type": ["string", "null"], "description": "team games: the capicu tile"},
        "number": {"type": "integer", "description": "the round the phone was showing (conflict check)"},
        "version": {"type": "integer", "description": "PUT only: the version being corrected"},
    },
}
ROUND = {
    "type": "object", "required": ["number", "double", "scores"],
    "properties": {"number": {"type": "integer"}, "double": {"type": ["string", "null"]},
                   "scores": {"oneOf": [SCORES, {"type": "null"}]},
                   "went_out": {"type": ["string", "null"]}, "blocked": {"type": "boolean"},
                   "version": {"type": ["integer", "null"]}},
}
GAME = {
    "type": "object",
    "required": ["id", "players", "rules", "deal", "totals", "rounds", "finished", "winners"],
    "properties": {
        "id": {"type": "string"}, "players": {"type": "array", "items": {"type": "string"}},
        "game": {"type": "string", "enum": ["chicken-foot", "team", "draw"]},
        "teams": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
        "rules": {"type": "object"},
        "deal": {"type": "object", "required": ["per_player", "boneyard"],
                 "properties": {"per_player": {"type": "integer"}, "boneyard": {"type": "integer"}}},
        "totals": SCORES, "rounds": {"type": "array", "items": ROUND},
        "finished": {"type": "boolean"}, "winners": {"type": "array", "items": {"type": "string"}},
    },
}
CREATED = {
    "type": "object", "required": ["id", "edit_token", "rules", "rounds", "deal"],
    "properties": {**GAME["properties"], "edit_token": {"type": "string"},
                   "rounds": {"type": "array", "items": {"type": "object", "required": ["number", "double"],
                                                         "properties": {"number": {"type": "integer"},
                                                                        "double": {"type": ["string", "null"]}}}}},
}
SAVED = {
    "type": "object", "required": ["round", "version", "scores", "totals", "finished", "winners"],
    "properties": {"round": {"type": "integer"}, "version": {"type": "integer"}, "scores": SCORES,
                   "totals": SCORES, "finished": {"type": "boolean"},
                   "winners": {"type": "array", "items": {"type": "string"}}},
}
CONFLICT = {"type": "object", "required": ["error", "game"], "properties": {"error": {"type": "string"}, "game": GAME}}
RULING_REQUEST = {
    "type": "object", "required": ["double", "on_table"],
    "properties": {"rules": RULES, "game": {"type": "string"}, "double": TILE,
                   "on_table": {"type": "array", "items": TILE}, "toes_laid": {"type": "integer"},
                   "drawable": {"type": "integer"}, "starting": {"type": "boolean"}},
}
RULING = {
    "type": "object", "required": ["completable", "toes_missing", "unseen", "outcome", "explanation", "rule"],
    "properties": {"completable": {"type": "boolean"}, "toes_missing": {"type": "integer"},
                   "unseen": {"type": "array", "items": TILE},
                   "outcome": {"type": "string",
                               "enum": ["completable", "play-on", "round-ends", "released", "table-decides"]},
                   "explanation": {"type": "string"}, "rule": {"type": "string"}, "logged": {"type": "boolean"}},
}


def _json(schema):
    return {"content": {"application/json": {"schema": schema}}}


def _answer(description, schema):
    return {"description": description, **_json(schema)}


def _errors(*codes):
    words = {400: "bad request", 403: "no or wrong edit token", 404: "no such game or round",
             409: "changed meanwhile", 413: "too large", 422: "invalid input", 429: "too many attempts"}
    return {str(code): _answer(words[code], ERROR) for code in codes}


GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
NUMBER = {"name": "number", "in": "path", "required": True, "schema": {"type": "integer"}}
AUTH = [{"editToken": []}]


def document() -> dict:
    return {
        "openapi": "3.1.0",
        "info": {"title": "referee", "version": "1",
                 "description": "Chicken Foot scorekeeper and referee. Writes need the game's edit token."},
        "components": {"securitySchemes": {"editToken": {"type": "http", "scheme": "bearer"}}},
        "paths": {
            "/api/games": {"post": {
                "summary": "Start a game",
                "requestBody": {"required": True, **_json({
                    "type": "object", "required": ["players"],
                    "properties": {"players": {"type": "array", "items": NAME, "minItems": 2, "maxItems": 8},
                                   "game": {"type": "string", "enum": ["chicken-foot", "team", "draw"]},
                                   "rules": {"anyOf": [RULES, {"type": "object"}]}}})},
                "responses": {"201": _answer("the new game and its edit token", CREATED), **_errors(400, 413, 422)},
            }},
            "/api/games/{game_id}": {"get": {
                "summary": "A game's players, rounds and totals", "parameters": [GAME_ID],
                "responses": {"200": _answer("the game", GAME), **_errors(404)},
            }},
            "/api/games/{game_id}/rounds": {"post": {
                "summary": "Record the next round", "parameters": [GAME_ID], "security": AUTH,
                "requestBody": {"required": True, **_json(ROUND_ENTRY)},
                "responses": {"201": _answer("the saved round", SAVED), "409": _answer("saved meanwhile", CONFLICT),
                              **_errors(400, 403, 404, 413, 422, 429)},
            }},
            "/api/games/{game_id}/rounds/{number}": {"put": {
                "summary": "Correct a saved round", "parameters": [GAME_ID, NUMBER], "security": AUTH,
                "requestBody": {"required": True, **_json(ROUND_ENTRY)},
                "responses": {"200": _answer("the corrected round", SAVED),
                              "409": _answer("changed meanwhile", CONFLICT),
                              **_errors(400, 403, 404, 413, 422, 429)},
            }},
            "/api/games/{game_id}/rounds/last": {"delete": {
                "summary": "Undo the last round", "parameters": [GAME_ID], "security": AUTH,
                "responses": {"200": _answer("what was undone", {
                    "type": "object", "required": ["undone", "game"],
                    "properties": {"undone": {"type": "integer"}, "game": GAME}}),
                    **_errors(403, 404, 422, 429)},
            }},
            "/api/rulings/foot": {"post": {
                "summary": "Can this foot still be completed, and what now?",
                "requestBody": {"required": True, **_json(RULING_REQUEST)},
                "responses": {"200": _answer("the ruling", RULING), **_errors(400, 403, 404, 413, 422, 429)},
            }},
        },
    }
