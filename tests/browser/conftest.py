"""Browser tests: Debian's Chromium driven by Playwright at a phone's viewport.

The app is served by werkzeug on port 0 in a thread, on its own temporary database; the
`server` fixture can stop it and start it again on the same port (a phone losing the server).
Screenshots go to test-output/screenshots/ (see `shot` and `phone_shots`) so a person can
look at them.
"""

import socket
import threading
from pathlib import Path

import pytest
from werkzeug.serving import ThreadedWSGIServer

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


class _Server(ThreadedWSGIServer):
    """werkzeug's threaded server, which also remembers its open connections so that stopping
    it drops them too: a kept-alive connection would otherwise go on answering."""

    def __init__(self, *args, **kwargs):
        self.connections, self.guard, self.stopping = set(), threading.Lock(), False
        super().__init__(*args, **kwargs)

    def process_request(self, request, client_address):
        with self.guard:
            self.connections.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request):
        with self.guard:
            self.connections.discard(request)
        super().shutdown_request(request)

    def handle_error(self, request, client_address):
        if not self.stopping:
            super().handle_error(request, client_address)

    def drop_connections(self):
        self.stopping = True
        with self.guard:
            connections, self.connections = list(self.connections), set()
        for conn in connections:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            conn.close()


class LiveServer:
    """The app served by werkzeug in a thread. `stop()` takes it off the network (the phone
    then gets "connection refused", as when the table's laptop is off the Wi-Fi) and `start()`
    brings the same app, database and secret back on the same port."""

    def __init__(self, app):
        self.app, self.port, self.server, self.thread = app, 0, None, None
        self.start()
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self):
        assert self.server is None, "already running"
        self.server = _Server("127.0.0.1", self.port, self.app)
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        server, self.server = self.server, None
        if server is None:
            return
        server.shutdown()
        server.server_close()
        server.drop_connections()
        self.thread.join(timeout=5)


@pytest.fixture
def bfcache_page(playwright, browser_type_launch_args):
    """A phone-sized page in a Chromium that keeps left pages in its back/forward cache, as
    phones do (Playwright turns that cache off). Back shows such a page as it was left, with
    `pageshow` persisted and no load event: wait for it with go_back(wait_until="commit")."""
    browser = playwright.chromium.launch(**browser_type_launch_args,
                                         ignore_default_args=["--disable-back-forward-cache"])
    context = browser.new_context(**PHONE)
    yield context.new_page()
    context.close()
    browser.close()


@pytest.fixture
def server(tmp_path, database_url):
    """The running app, with `stop()` and `start()`; `server.url` is its address."""
    app = create_app({"SECRET_KEY": "browser-tests", "SQLALCHEMY_DATABASE_URI": database_url})
    app.instance_path = str(tmp_path)
    running = LiveServer(app)
    yield running
    running.stop()
    app.extensions["engine"].dispose()


@pytest.fixture
def live_server(server):
    return server.url


@pytest.fixture
def shot(page):
    """Save a full-page screenshot under test-output/screenshots/NAME.png."""
    SHOTS.mkdir(parents=True, exist_ok=True)

    def take(name):
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)

    return take


PHONE_SIZES = {"390x844": {"width": 390, "height": 844}, "360x640": {"width": 360, "height": 640}}


@pytest.fixture
def phone_shots(page):
    """What the phone's screen shows, at 390x844 and at 360x640: NAME-390x844.png and
    NAME-360x640.png under test-output/screenshots/, `locator` scrolled into view first.
    Each size is also checked for sideways scrolling."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    start = page.viewport_size

    def take(name, locator=None, full_page=False):
        for label, size in PHONE_SIZES.items():
            page.set_viewport_size(size)
            if locator is not None:
                locator.scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=full_page)
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], label
        page.set_viewport_size(start)

    return take
