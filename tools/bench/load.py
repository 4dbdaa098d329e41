"""Load benchmark: 50 tables of 8 phones on the real server, all on 127.0.0.1.

Every phone polls its game's scoreboard every 2 s with If-None-Match, one scorer per table
saves a round every few seconds, and a few probes poll the trivial /health route in the same
run, so the poll's cost is measured as a ratio to it (the machine is shared and noisy).

    .venv/bin/python -m tools.bench.load [--seconds 60] [--workers N] [--threads N]

Run from the repository root (the server is this tree's `referee`).

Prints requests per second, p50 and p99 latency of the poll, the save and the health route,
the error count, and the ratio of the poll's median to the health route's median.
Goals: no errors, p99 under 100 ms, poll median within 3 times the health route's.
"""

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from referee.cli import WORKERS
from tests.reliability.server import Server

TABLES = 50
PHONES = 8
POLL_EVERY = 2.0
SAVE_EVERY = (3.0, 5.0)
HEALTH_PROBES = 10  # enough for a baseline median without doubling the load
PLAYERS = [f"P{i}" for i in range(PHONES)]
RULES = {"preset": "double-foot", "set": 12, "match_length": "target", "target": 10 ** 7}


class Phone:
    """One phone's HTTP/1.1 connection, kept alive between requests as a browser keeps it.

    When the server has closed an idle connection, the request is sent again on a new one
    (and timed from there), as a browser does.
    """

    def __init__(self, port):
        self.port = port
        self.reader = self.writer = None

    async def request(self, method, path, body=None, headers=None):
        """Returns (status, headers, body, seconds)."""
        data = json.dumps(body).encode() if body is not None else b""
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(data)}"]
        if body is not None:
            lines.append("Content-Type: application/json")
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        message = ("\r\n".join(lines) + "\r\n\r\n").encode() + data
        for attempt in (1, 2):
            started = time.perf_counter()
            try:
                if self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
                self.writer.write(message)
                await self.writer.drain()
                status, fields, payload = await self._response()
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt == 2:
                    raise
                continue
            if fields.get("connection", "").lower() == "close":
                self.close()
            return status, fields, payload, time.perf_counter() - started

    async def _response(self):
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionResetError("closed by the server")
        fields = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            key, _, value = line.decode("latin-1").partition(":")
            fields[key.strip().lower()] = value.strip()
        payload = await self.reader.readexactly(int(fields.get("content-length", 0)))
        return int(status_line.split()[1]), fields, payload

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Stats:
    def __init__(self):
        self.latency = {"poll": [], "save": [], "health": []}
        self.errors = []
        self.requests = 0
        self.not_modified = 0

    def add(self, kind, seconds):
        self.latency[kind].append(seconds)
        self.requests += 1


async def poller(port, path, kind, stats, until):
    """A phone polling `path` every 2 s, revalidating with the ETag it was last given."""
    phone = Phone(port)
    etag = None
    await asyncio.sleep(random.uniform(0, POLL_EVERY))
    while time.monotonic() < until:
        headers = {"If-None-Match": etag} if etag else {}
        try:
            status, fields, _, seconds = await phone.request("GET", path, headers=headers)
        except OSError as err:
            stats.errors.append(f"{kind}: {err}")
        else:
            stats.add(kind, seconds)
            if status == 304:
                stats.not_modified += 1
            elif status != 200:
                stats.errors.append(f"{kind}: HTTP {status}")
            etag = fields.get("etag", etag)
        await asyncio.sleep(POLL_EVERY)
    phone.close()


async def scorer(port, game, stats, until):
    rng = random.Random(game["id"])
    phone = Phone(port)
    auth = {"Authorization": "Bearer " + game["edit_token"]}
    await asyncio.sleep(rng.uniform(0, SAVE_EVERY[1]))
    while time.monotonic() < until:
        out = rng.choice(PLAYERS)
        body = {"hands": {p: {"pips": rng.randint(0, 80)} for p in PLAYERS if p != out}, "went_out": out}
        try:
            status, _, payload, seconds = await phone.request("POST", f"/api/games/{game['id']}/rounds", body, auth)
        except OSError as err:
            stats.errors.append(f"save: {err}")
        else:
            stats.add("save", seconds)
            if status != 201:
                stats.errors.append(f"save: HTTP {status} {payload[:120]!r}")
        await asyncio.sleep(rng.uniform(*SAVE_EVERY))
    phone.close()


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def run(port, seconds):
    games = []
    setup = Phone(port)
    for _ in range(TABLES):
        status, _, payload, _ = await setup.request("POST", "/api/games", {"players": PLAYERS, "rules": RULES})
        assert status == 201, payload
        games.append(json.loads(payload))
    setup.close()
    stats = Stats()
    until = time.monotonic() + seconds
    tasks = [poller(port, f"/games/{g['id']}/scoreboard", "poll", stats, until) for g in games for _ in range(PHONES)]
    tasks += [poller(port, "/health", "health", stats, until) for _ in range(HEALTH_PROBES)]
    tasks += [scorer(port, g, stats, until) for g in games]
    started = time.monotonic()
    await asyncio.gather(*tasks)
    return stats, time.monotonic() - started


def report(stats, elapsed):
    print(f"{TABLES} tables x {PHONES} phones, {elapsed:.0f} s: {stats.requests / elapsed:.0f} requests/s, "
          f"{stats.requests} requests, {stats.not_modified} answered 304")
    for kind, values in stats.latency.items():
        print(f"  {kind:7s} n={len(values):6d}  p50 {1000 * statistics.median(values):6.1f} ms  "
              f"p99 {1000 * percentile(values, 0.99):6.1f} ms")
    ratio = statistics.median(stats.latency["poll"]) / statistics.median(stats.latency["health"])
    print(f"  errors: {len(stats.errors)}" + (f" (first: {stats.errors[0]})" if stats.errors else ""))
    print(f"  poll median / health median: {ratio:.2f}")
    worst_p99 = max(percentile(v, 0.99) for v in stats.latency.values())
    ok = not stats.errors and worst_p99 < 0.1 and ratio <= 3
    print("  goals (no errors, p99 < 100 ms, ratio <= 3):", "met" if ok else "NOT met")
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=WORKERS,
                        help=f"server processes (default {WORKERS}, as `referee serve`)")
    parser.add_argument("--threads", type=int, default=2, help="threads per process (default 2, as `referee serve`)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = Server("sqlite:///" + str(Path(folder) / "load.sqlite"), workers=args.workers,
                        threads=args.threads).start()
        try:
            stats, elapsed = asyncio.run(run(server.port, args.seconds))
        finally:
            server.stop()
    sys.exit(0 if report(stats, elapsed) else 1)


if __name__ == "__main__":
    main()
