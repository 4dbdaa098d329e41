"""A save the phone was told about survives the server being killed at any moment, and
nothing is ever half-written: the real server, worker processes, SIGKILL at random."""

import random
import threading
import time

import pytest
import requests

from tests.reliability.server import PLAYERS, Server, new_game

SCORERS = 4


def keep_saving(url, game, acknowledged, stop):
    """Save rounds until the server goes away; remember every one that got its 201."""
    session = requests.Session()
    headers = {"Authorization": "Bearer " + game["edit_token"]}
    rng = random.Random(game["id"])
    while not stop.is_set():
        out = rng.choice(PLAYERS)
        hands = {p: {"pips": rng.randint(0, 60)} for p in PLAYERS if p != out}
        try:
            response = session.post(f"{url}/api/games/{game['id']}/rounds", json={"hands": hands, "went_out": out},
                                    headers=headers, timeout=10)
        except requests.RequestException:
            return
        if response.status_code == 201:
            acknowledged.append((response.json()["round"], response.json()["scores"]))
        elif response.status_code >= 500:
            return


def check_nothing_lost_or_half_written(url, game, acknowledged):
    state = requests.get(f"{url}/api/games/{game['id']}", timeout=10).json()
    played = [r for r in state["rounds"] if r["scores"] is not None]
    by_number = {r["number"]: r["scores"] for r in played}
    for number, scores in acknowledged:
        assert by_number.get(number) == scores, f"round {number} of {game['id']} was acknowledged but changed"
    # At most the one save in flight when the server died may exist without its 201.
    assert len(acknowledged) <= len(played) <= len(acknowledged) + 1
    assert [r["number"] for r in played] == list(range(1, len(played) + 1))
    for r in played:
        assert set(r["scores"]) == set(PLAYERS), f"round {r['number']} is half-written"
    assert state["totals"] == {p: sum(r["scores"][p] for r in played) for p in PLAYERS}


@pytest.mark.slow
def test_every_acknowledged_save_survives_sigkill(database_url):
    server = Server(database_url).start()
    games = [new_game(server.url) for _ in range(SCORERS)]
    acknowledged = {g["id"]: [] for g in games}
    rng = random.Random()
    try:
        for kill_after in (rng.uniform(0.3, 1.0), rng.uniform(1.0, 2.0), rng.uniform(2.0, 3.5)):
            stop = threading.Event()
            threads = [threading.Thread(target=keep_saving, args=(server.url, g, acknowledged[g["id"]], stop))
                       for g in games]
            for thread in threads:
                thread.start()
            time.sleep(kill_after)
            server.kill()
            stop.set()
            for thread in threads:
                thread.join(timeout=30)
            server.start()
            for g in games:
                check_nothing_lost_or_half_written(server.url, g, acknowledged[g["id"]])
                # Rounds saved before the kill but not acknowledged count as saved from now on.
                state = requests.get(f"{server.url}/api/games/{g['id']}", timeout=10).json()
                acknowledged[g["id"]][:] = [(r["number"], r["scores"]) for r in state["rounds"] if r["scores"]]
    finally:
        server.stop()
    assert sum(len(a) for a in acknowledged.values()) >= 100, "too few saves to prove anything"
