"""Hostile input against the live app: schemathesis generates requests from the OpenAPI
document; no answer may be a 500 or break the schema it promises."""

import threading

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance
from werkzeug.serving import make_server

from referee import create_app
from referee.web.api import openapi


@pytest.fixture
def live_api(tmp_path, database_url):
    app = create_app({"SECRET_KEY": "schemathesis", "SQLALCHEMY_DATABASE_URI": database_url})
    app.instance_path = str(tmp_path)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    yield base
    server.shutdown()
    app.extensions["engine"].dispose()


OPERATIONS = [op.ok().label for op in schemathesis.openapi.from_dict(openapi.document()).get_all_operations()]
CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]


@pytest.mark.parametrize("label", OPERATIONS)
def test_api_never_fails_or_breaks_its_schema(live_api, label):
    """Schemathesis's pytest plugin does not run under pytest 9, so drive hypothesis directly."""
    schema = schemathesis.openapi.from_url(f"{live_api}/api/openapi.json")
    operation = next(op.ok() for op in schema.get_all_operations() if op.ok().label == label)

    @given(case=operation.as_strategy())
    @settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    def check(case):
        case.call_and_validate(checks=CHECKS)

    check()
