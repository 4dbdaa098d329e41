"""The API and its OpenAPI document agree, both ways: schemathesis generates requests from
/api/openapi.json and runs every check it has on every answer.

- Every operation, as a stranger (generated game ids and tokens) and as the scorer of a real
  game (its id and edit token): schemathesis's examples, coverage and fuzzing phases, positive
  and negative data. Coverage adds the requests a schema implies (each required part missing,
  each constraint just broken, methods the path does not take, OPTIONS).
- A stateful run that follows the document's links: a new game, reading it, recording rounds,
  correcting and undoing them.

Schemathesis's pytest plugin does not run under pytest 9, so the tests are built with the
plugin's own builder (`build_operation_test`) and driven as plain Hypothesis tests.
"""

import threading

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import CHECKS, load_all_checks
from schemathesis.config import SchemathesisConfig
from schemathesis.generation.feedback import FeedbackSources
from schemathesis.pytest._test_builder import build_operation_test
from werkzeug.serving import make_server

from referee import create_app
from referee.services import rate_limits
from referee.web.api import openapi

DOCUMENT = openapi.document()
OPERATIONS = {op.ok().definition.raw["operationId"]: op.ok().label
              for op in schemathesis.openapi.from_dict(DOCUMENT).get_all_operations()}
#: Operations that take a game's id or its edit token: the scorer's view of them differs.
FOR_A_GAME = [op.ok().definition.raw["operationId"]
              for op in schemathesis.openapi.from_dict(DOCUMENT).get_all_operations()
              if "{game_id}" in op.ok().path or op.ok().definition.raw.get("security")]
SCHEMAS = DOCUMENT["components"]["schemas"]
NEW_GAME, NEW_ROUND = SCHEMAS["NewGame"]["examples"][0], SCHEMAS["NewRound"]["examples"][0]

load_all_checks()
#: Every check schemathesis has, passed explicitly so that none can be left out by a default.
#: object_level_authorization runs too, but with one identity (a game's edit token) it has no
#: second identity's objects to try.
EVERY_CHECK = CHECKS.get_all()
assert {"not_a_server_error", "status_code_conformance", "content_type_conformance", "response_headers_conformance",
        "response_schema_conformance", "negative_data_rejection", "positive_data_acceptance",
        "missing_required_header", "unsupported_method", "allow_header_conformance", "use_after_free",
        "ensure_resource_availability", "ignored_auth", "object_level_authorization"} <= set(CHECKS.get_all_names())

#: positive_data_acceptance takes 2xx (and 401, 403, 404, 409, 429) for schema-valid data. Where
#: validity depends on more than the request's shape, a schema-valid request is rightly refused
#: with 422 and an error saying why; only there is 422 added. The document says each of these
#: rules in words.
_POSITIVE = ["2xx", "401", "403", "404", "409", "429"]
WELL_FORMED_BUT_REFUSED = {
    # The house rules' combinations (more arms than the set allows, an opening and a missing
    # double that contradict, a player count outside the preset's range or the deal's table),
    # names that are the same but for case, and code points this server's Unicode does not
    # know yet: none can be said in JSON Schema.
    "createGame": [*_POSITIVE, "422"],
    # A round must name the game's players, with tiles of its set that nobody else holds, and
    # fit the game's state (not over, the planned double): the document cannot know the game.
    "recordRound": [*_POSITIVE, "422"],
    "correctRound": [*_POSITIVE, "422"],
    # Nothing to undo yet, or the match is over: the path is right, the game's state refuses.
    "undoLastRound": [*_POSITIVE, "422"],
    "undoRound": [*_POSITIVE, "422"],
    # A double must be a double of the rules' set, the table cannot hold more tiles than the
    # set has, and the players must fit the rules' range.
    "footRuling": [*_POSITIVE, "422"],
    # Any file is `format: binary`; only a photo the app can read is read.
    "readPhoto": [*_POSITIVE, "422"],
}
assert set(WELL_FORMED_BUT_REFUSED) <= set(OPERATIONS)
#: not_a_server_error takes no 5xx. Reading photos answers 503, as documented, when the vision
#: extra is not installed or the photo counter is busy with another photo: not a failure.
SERVICE_UNAVAILABLE = {"readPhoto": ["2xx", "3xx", "4xx", "503"]}


@pytest.fixture
def live_api(tmp_path, database_url, monkeypatch):
    # The fuzzer sends hundreds of wrong tokens, and of photos, from one address; past the limits
    # they would all be answered 429 (and ignored_auth takes only 401 or 403 as a refusal of a
    # wrong token). The limits themselves are tested in tests/reliability/test_access.py and
    # tests/web/test_photos.py.
    monkeypatch.setitem(rate_limits.LIMITS, "token", 1_000_000)
    monkeypatch.setitem(rate_limits.LIMITS, "photo", 1_000_000)
    app = create_app({"SECRET_KEY": "schemathesis", "SQLALCHEMY_DATABASE_URI": database_url})
    app.instance_path = str(tmp_path)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()
    app.extensions["engine"].dispose()


@pytest.fixture
def scored_game(live_api):
    """A game started and one round recorded with the document's own examples."""
    game = requests.post(f"{live_api}/api/games", json=NEW_GAME, timeout=10)
    assert game.status_code == 201, game.text
    game = game.json()
    saved = requests.post(f"{live_api}/api/games/{game['id']}/rounds", json=NEW_ROUND, timeout=10,
                          headers={"Authorization": f"Bearer {game['edit_token']}"})
    assert saved.status_code == 201, saved.text
    return game


def config(base_url: str, *, game: dict = None, max_examples: int = 40) -> SchemathesisConfig:
    """Examples, coverage and fuzzing, positive and negative data; with `game`, its id and token."""
    data = {
        "base-url": base_url,
        "suppress-health-check": ["all"],
        "generation": {"mode": "all", "max-examples": max_examples, "database": "none"},
        "phases": {"examples": {"enabled": True}, "coverage": {"enabled": True}, "fuzzing": {"enabled": True}},
        "operations": [{"include-operation-id": operation, "checks": {
                            "positive_data_acceptance": {"expected-statuses": statuses},
                            **({"not_a_server_error": {"expected-statuses": SERVICE_UNAVAILABLE[operation]}}
                               if operation in SERVICE_UNAVAILABLE else {})}}
                       for operation, statuses in WELL_FORMED_BUT_REFUSED.items()],
    }
    if game is not None:
        # The game's rounds: round 1 is saved, so PUT and DELETE on it can succeed.
        data["auth"] = {"openapi": {"editToken": {"bearer": game["edit_token"]}}}
        data["parameters"] = {"game_id": game["id"], "number": 1}
    return SchemathesisConfig.from_dict(data)


def run_operation(base_url: str, operation_id: str, schema_config: SchemathesisConfig) -> None:
    schema = schemathesis.openapi.from_url(f"{base_url}/api/openapi.json", config=schema_config)
    operation = next(op.ok() for op in schema.get_all_operations() if op.ok().label == OPERATIONS[operation_id])

    def check(case):
        case.call_and_validate(checks=EVERY_CHECK)

    build_operation_test(config=schema.config, operation=operation, test_func=check, given_kwargs={},
                         feedback=FeedbackSources())()


@pytest.mark.parametrize("operation_id", OPERATIONS)
def test_a_stranger_gets_what_the_document_says(live_api, operation_id):
    run_operation(live_api, operation_id, config(live_api))


@pytest.mark.parametrize("operation_id", FOR_A_GAME)
def test_the_scorer_of_a_real_game_gets_what_the_document_says(live_api, scored_game, operation_id):
    run_operation(live_api, operation_id, config(live_api, game=scored_game))


def test_refusals_carry_what_the_document_promises(live_api, scored_game, monkeypatch):
    """401 with WWW-Authenticate, 403, then, at the real limit, 429 with Retry-After, each as
    the document describes it: the fuzzing above raises the limit, so it never sees a 429."""
    monkeypatch.setitem(rate_limits.LIMITS, "token", openapi.TOKEN_LIMIT)  # the real one, as documented
    schema = schemathesis.openapi.from_url(f"{live_api}/api/openapi.json", config=config(live_api))
    operation = schema["/api/games/{game_id}/rounds"]["POST"]
    seen = {}
    for headers in [{}, *({"Authorization": f"Bearer wrong-{n}"} for n in range(openapi.TOKEN_LIMIT + 1))]:
        case = operation.Case(path_parameters={"game_id": scored_game["id"]}, headers=headers, body=NEW_ROUND,
                              media_type="application/json")
        response = case.call()
        case.validate_response(response, checks=EVERY_CHECK)
        seen.setdefault(response.status_code, response.headers)
    assert set(seen) == {401, 403, 429}
    assert seen[401]["www-authenticate"] == ["Bearer realm=\"referee\""]
    assert seen[429]["retry-after"] == ["60"]


def playable(body: dict, players: list) -> dict:
    """A generated round made playable at this table: every player's hand, and who went out
    (nobody, if it was blocked); its entry_key, version, blocked and out_on_double stay."""
    kept = {key: body[key] for key in ("entry_key", "version", "out_on_double", "blocked") if key in body}
    first, *others = players
    if kept.get("blocked"):
        return {**kept, "hands": {name: {"pips": 5 + seat} for seat, name in enumerate(players)}}
    return {**kept, "hands": {first: {"tiles": []}, **{name: {"pips": 7} for name in others}}, "went_out": first}


def test_following_the_links_keeps_every_promise(live_api):
    """POST /api/games -> GET the game, record rounds -> correct or undo them, and so on,
    as the document's links lead; every step is checked, use_after_free and
    ensure_resource_availability included."""
    schema = schemathesis.openapi.from_url(f"{live_api}/api/openapi.json", config=config(live_api))
    # DELETE .../rounds/last removes the round that .../rounds/{number} names, which
    # ensure_resource_availability cannot know (it matches paths), so it would take the 404 of
    # a later PUT on that round for a lost resource. Here rounds are undone by number; undoing
    # the last one is checked on its own above, as a stranger and as the scorer.
    base = schema.exclude(operation_id="undoLastRound").as_state_machine()

    class Table(base):
        """The scorer at the table: writes carry the game's edit token (each new game's own, from
        its answer), and a round names the game's players, which the links cannot carry."""

        games: dict

        def setup(self):
            self.games = {}

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            case.validate_response(response, checks=EVERY_CHECK, additional_checks=additional_checks,
                                   transport_kwargs=kwargs or None, recorder=self.recorder)

        def after_call(self, response, case):
            super().after_call(response, case)
            if case.operation.label == OPERATIONS["createGame"] and response.status_code == 201:
                game = response.json()
                self.games[game["id"]] = game

        def before_call(self, case):
            super().before_call(case)
            game_id = (case.path_parameters or {}).get("game_id")
            if case.operation.label == OPERATIONS["footRuling"] and isinstance(case.body, dict):
                game_id = case.body.get("game")  # with its token, the ruling is logged with the game
            game = self.games.get(game_id) if isinstance(game_id, str) else None
            if game is None:
                return
            if case.operation.definition.raw.get("security"):
                case.headers = {**(case.headers or {}), "Authorization": f"Bearer {game['edit_token']}"}
                case._has_explicit_auth = True  # the token is real: ignored_auth probes without it
            if (case.operation.label in (OPERATIONS["recordRound"], OPERATIONS["correctRound"])
                    and isinstance(case.body, dict) and case.meta is not None
                    and case.meta.generation.mode.is_positive):
                case.body = playable(case.body, game["players"])

    Table.run(settings=settings(max_examples=20, stateful_step_count=10, deadline=None, database=None,
                                suppress_health_check=list(HealthCheck)))
