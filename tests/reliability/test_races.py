"""Races against the real server (`referee serve`, several worker processes): undoing the
same round from two phones at once, asking for the same rematch at once, reading while
others save and undo, and backing up while phones save. Every answer is a clear one;
nothing is lost, doubled or half-read."""

import json
import random
import threading
import time

import pytest
import requests

from referee import create_app
from referee.services import exports
from referee.web import db
from tests.reliability.server import PLAYERS, Server, new_game

pytestmark = pytest.mark.slow


def save(session, url, game, rng):
    out = rng.choice(PLAYERS)
    hands = {p: {"pips": rng.randint(0, 60)} for p in PLAYERS if p != out}
    return session.post(f"{url}/api/games/{game['id']}/rounds", json={"hands": hands, "went_out": out},
                        headers={"Authorization": "Bearer " + game["edit_token"]}, timeout=30)


def played(url, game):
    state = requests.get(f"{url}/api/games/{game['id']}", timeout=10).json()
    return [r["number"] for r in state["rounds"] if r["scores"] is not None]


@pytest.fixture
def server(database_url):
    running = Server(database_url, workers=3).start()
    yield running
    running.stop()


def test_two_phones_undoing_the_same_round_undo_it_once(server):
    game = new_game(server.url)
    session = requests.Session()
    rng = random.Random(1)
    for _ in range(22):
        assert save(session, server.url, game, rng).status_code == 201
    headers = {"Authorization": "Bearer " + game["edit_token"]}
    for trial in range(20):
        last = played(server.url, game)[-1]
        start, answers = threading.Barrier(2), []

        def undo():
            start.wait()
            answers.append(requests.delete(f"{server.url}/api/games/{game['id']}/rounds/{last}",
                                           headers=headers, timeout=30).status_code)

        pair = [threading.Thread(target=undo) for _ in range(2)]
        for thread in pair:
            thread.start()
        for thread in pair:
            thread.join()
        assert sorted(answers) == [200, 409], f"trial {trial}: {answers}"
        assert played(server.url, game) == list(range(1, last)), f"trial {trial}: more than one round went"


def test_two_phones_asking_for_a_rematch_at_once_start_one_game(server):
    for trial in range(10):
        body = {"players": PLAYERS, "rules": {"preset": "pagat", "match_length": "one-round"}}
        game = requests.post(server.url + "/api/games", json=body, timeout=10).json()
        assert save(requests.Session(), server.url, game, random.Random(trial)).status_code == 201
        start, answers = threading.Barrier(2), []

        def ask():
            start.wait()
            answers.append(requests.post(f"{server.url}/api/games/{game['id']}/rematch", timeout=30,
                                         headers={"Authorization": "Bearer " + game["edit_token"]}))

        pair = [threading.Thread(target=ask) for _ in range(2)]
        for thread in pair:
            thread.start()
        for thread in pair:
            thread.join()
        assert sorted(a.status_code for a in answers) == [200, 201], f"trial {trial}"
        assert answers[0].json()["id"] == answers[1].json()["id"], f"trial {trial}: two games started"


def test_readers_never_see_a_half_written_game_while_others_save_and_undo(server):
    game = new_game(server.url)
    stop, problems, reads = threading.Event(), [], [0]
    headers = {"Authorization": "Bearer " + game["edit_token"]}

    def write(seed):
        session, rng = requests.Session(), random.Random(seed)
        while not stop.is_set():
            if rng.random() < 0.6:
                response = save(session, server.url, game, rng)
            else:
                response = session.delete(f"{server.url}/api/games/{game['id']}/rounds/last", headers=headers,
                                          timeout=30)
            if response.status_code >= 500 or response.status_code == 422 and "nothing to undo" not in response.text:
                problems.append(("write", response.status_code, response.text[:200]))

    def read(path):
        session = requests.Session()
        while not stop.is_set():
            response = session.get(server.url + path, timeout=30)
            reads[0] += 1
            if response.status_code >= 500 or response.status_code == 422:
                problems.append((path, response.status_code, response.text[:200]))

    paths = [f"/games/{game['id']}", f"/api/games/{game['id']}", f"/games/{game['id']}/export.csv",
             f"/games/{game['id']}/scoreboard"]
    threads = [threading.Thread(target=write, args=(seed,)) for seed in range(2)]
    threads += [threading.Thread(target=read, args=(path,)) for path in paths]
    for thread in threads:
        thread.start()
    time.sleep(20)
    stop.set()
    for thread in threads:
        thread.join()
    assert not problems, problems[:5]
    assert reads[0] > 50


def test_backups_taken_while_phones_save_restore_whole(server, database_url, new_database, tmp_path):
    games = [new_game(server.url) for _ in range(3)]
    stop = threading.Event()

    def keep_saving(game, seed):
        session, rng = requests.Session(), random.Random(seed)
        while not stop.is_set():
            save(session, server.url, game, rng)

    threads = [threading.Thread(target=keep_saving, args=(game, i)) for i, game in enumerate(games)]
    for thread in threads:
        thread.start()
    source = create_app({"SECRET_KEY": "backup", "SQLALCHEMY_DATABASE_URI": database_url})
    source.instance_path = str(tmp_path)
    backups = []
    try:
        for _ in range(5):
            time.sleep(0.5)
            with source.app_context():
                backups.append(exports.backup(db.session()))
    finally:
        stop.set()
        for thread in threads:
            thread.join()
        source.extensions["engine"].dispose()
    for text in backups:
        target = create_app({"SECRET_KEY": "restore", "SQLALCHEMY_DATABASE_URI": new_database()})
        target.instance_path = str(tmp_path)
        with target.app_context():
            exports.restore(db.session(), text)
            assert exports.backup(db.session()) == text  # backing up the restored database gives the same
        tables = json.loads(text)["tables"]
        rounds = {r["id"]: r for r in tables["round"]}
        hands = {}
        for hand in tables["hand"]:
            hands.setdefault(hand["round_id"], []).append(hand)
        assert rounds, "the backups were taken before anything was saved"
        for round_id in rounds:
            assert len(hands.get(round_id, [])) == len(PLAYERS), "a round was backed up without all its hands"
        target.extensions["engine"].dispose()
