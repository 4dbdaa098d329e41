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
from hypothesis import settings
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
SCHEMAS = DOCUMENT["components"]["schemas"]
NEW_GAME, NEW_ROUND = SCHEMAS["NewGame"]["examples"][0], SCHEMAS["NewRound"]["examples"][0]

load_all_checks()
ALL_CHECKS = CHECKS.get_all_names()
assert {"not_a_server_error", "status_code_conformance", "content_type_conformance", "response_headers_conformance",
        "response_schema_conformance", "negative_data_rejection", "positive_data_acceptance",
        "missing_required_header", "unsupported_method", "allow_header_conformance", "use_after_free",
        "ensure_resource_availability", "ignored_auth"} <= set(ALL_CHECKS)

#: positive_data_acceptance takes 2xx (and 401, 403, 404, 409, 429) for schema-valid data. Where
#: validity depends on more than the request's shape, a schema-valid request may rightly be
#: refused with 422; only there is 422 added, and the 422 is the API's considered answer
#: (tests/web/test_api.py checks each reason).
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
}
assert set(WELL_FORMED_BUT_REFUSED) <= set(OPERATIONS)


@pytest.fixture
def live_api(tmp_path, database_url, monkeypatch):
    # The fuzzer sends hundreds of wrong tokens from one address; past ten a minute they would
    # be answered 429 instead of 403, and ignored_auth takes only 401 or 403 as a refusal. The
    # limit itself is tested in tests/reliability/test_access.py.
    monkeypatch.setitem(rate_limits.LIMITS, "token", 1_000_000)
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


def config(base_url: str, *, game: dict = None, max_examples: int = 25) -> SchemathesisConfig:
    """Every check, every phase, positive and negative data; with `game`, its id and token."""
    data = {
        "base-url": base_url,
        "suppress-health-check": ["all"],
        "generation": {"mode": "all", "max-examples": max_examples, "database": "none"},
        "phases": {"examples": {"enabled": True}, "coverage": {"enabled": True},
                   "fuzzing": {"enabled": True}, "stateful": {"enabled": True, "max-steps": 8}},
        "checks": {name: {"enabled": True} for name in ALL_CHECKS if name != "max_response_time"},
        "operations": [{"include-operation-id": operation,
                        "checks": {"positive_data_acceptance": {"expected-statuses": statuses}}}
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
        case.call_and_validate()

    build_operation_test(config=schema.config, operation=operation, test_func=check, given_kwargs={},
                         feedback=FeedbackSources())()


@pytest.mark.parametrize("operation_id", OPERATIONS)
def test_a_stranger_gets_what_the_document_says(live_api, operation_id):
    run_operation(live_api, operation_id, config(live_api))


@pytest.mark.parametrize("operation_id", OPERATIONS)
def test_the_scorer_of_a_real_game_gets_what_the_document_says(live_api, scored_game, operation_id):
    run_operation(live_api, operation_id, config(live_api, game=scored_game))


def test_following_the_links_keeps_every_promise(live_api):
    """POST /api/games -> GET the game, record rounds -> correct or undo them, and so on,
    as the document's links lead; every step is checked, use_after_free and
    ensure_resource_availability included."""
    schema = schemathesis.openapi.from_url(f"{live_api}/api/openapi.json", config=config(live_api))
    base = schema.as_state_machine()

    class Table(base):
        """The scorer at the table: writes carry the game's edit token (each new game's own, from
        its answer), and a round names the game's players, which the links cannot carry."""

        games: dict

        def setup(self):
            self.games = {}

        def after_call(self, response, case):
            super().after_call(response, case)
            if case.operation.label == OPERATIONS["createGame"] and response.status_code == 201:
                game = response.json()
                self.games[game["id"]] = game

        def before_call(self, case):
            super().before_call(case)
            game = self.games.get((case.path_parameters or {}).get("game_id"))
            if game is None:
                return
            if case.operation.definition.raw.get("security"):
                case.headers = {**(case.headers or {}), "Authorization": f"Bearer {game['edit_token']}"}
                case._has_explicit_auth = True  # the token is real: ignored_auth probes without it
            if (case.operation.label in (OPERATIONS["recordRound"], OPERATIONS["correctRound"])
                    and isinstance(case.body, dict) and case.meta is not None
                    and case.meta.generation.mode.is_positive):
                first, *others = game["players"]
                case.body["hands"] = {first: {"tiles": []}, **{name: {"pips": 7} for name in others}}
                case.body["went_out"] = first

    Table.run(settings=settings(max_examples=12, stateful_step_count=8, deadline=None, database=None))
