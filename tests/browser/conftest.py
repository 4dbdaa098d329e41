"""Browser tests: Debian's Chromium driven by Playwright at a phone's viewport.

The app is served by werkzeug on port 0 in a thread, on its own temporary database.
Screenshots go to test-output/screenshots/ (see `shot`) so a person can look at them.
"""

import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from referee import create_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, **PHONE}


@pytest.fixture
def live_server(tmp_path, database_url):
    app = create_app({"SECRET_KEY": "browser-tests", "SQLALCHEMY_DATABASE_URI": database_url})
    app.instance_path = str(tmp_path)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    app.extensions["engine"].dispose()


@pytest.fixture
def shot(page):
    """Save a full-page screenshot under test-output/screenshots/NAME.png."""
    SHOTS.mkdir(parents=True, exist_ok=True)

    def take(name):
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)

    return take
