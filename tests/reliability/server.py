"""Start and kill the real server (`referee serve`, worker processes) for the reliability tests."""

import os
import signal
import socket
import subprocess
import sys
import time

import requests


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def new_game(url):
    """A game of four that never ends by itself, for tests that save many rounds."""
    body = {"players": PLAYERS, "rules": {"preset": "pagat", "match_length": "target", "target": 10 ** 6}}
    response = requests.post(url + "/api/games", json=body, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


def wait_for(url: str, process, timeout: float = 30) -> None:
    """Wait until `url` answers 200, or fail as soon as `process` has exited."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if requests.get(url, timeout=1).status_code == 200:
                return
        except requests.ConnectionError:
            pass
        if process.poll() is not None:
            raise RuntimeError("the server exited at start")
        time.sleep(0.1)
    raise RuntimeError("the server did not start")


class Server:
    """`referee serve` in its own process group, so one SIGKILL takes master and workers."""

    def __init__(self, database_url: str, workers: int = 2, threads: int = 2):
        self.database_url = database_url
        self.workers = workers
        self.threads = threads
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None

    def start(self, timeout: float = 30, output=subprocess.DEVNULL) -> "Server":
        env = {**os.environ, "DATABASE_URL": self.database_url, "SECRET_KEY": "reliability"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "referee.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--workers", str(self.workers), "--threads", str(self.threads), "--no-qr"],
            env=env, stdout=output, stderr=output, start_new_session=True)
        try:
            wait_for(self.url + "/health", self.process, timeout)
        except RuntimeError:
            self.kill()
            raise
        return self

    def start_logging_to(self, sink) -> "Server":
        """Start with everything the server prints going to `sink` (an open file)."""
        return self.start(output=sink)

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
