"""The disk filling up: the phone is told plainly that nothing was saved, and no earlier
score is lost. The database lives on a small tmpfs that the test fills with a file."""

import os
import re
import subprocess

import pytest
import requests

from tests.reliability.server import Server

PLAYERS = ["Ann", "Bob"]


@pytest.fixture
def small_disk(tmp_path):
    mount = tmp_path / "small"
    mount.mkdir()
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(mount)], capture_output=True)
    assert result.returncode == 0, f"mounting a tmpfs needs root: {result.stderr.decode()}"
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(path):
    """Write zeros until the file system is full (it may be full already: then the file
    cannot even be made, which is as good)."""
    try:
        with open(path, "wb") as filler:
            while True:
                filler.write(b"\0" * 65536)
                filler.flush()
                os.fsync(filler.fileno())
    except OSError:
        pass


def save(server, game, pips):
    return requests.post(f"{server.url}/api/games/{game['id']}/rounds", timeout=10,
                         headers={"Authorization": "Bearer " + game["edit_token"]},
                         json={"hands": {"Ann": {"pips": pips}}, "went_out": "Bob"})


@pytest.mark.slow
def test_a_full_disk_gives_a_clear_error_and_keeps_earlier_scores(small_disk):
    server = Server("sqlite:///" + str(small_disk / "referee.sqlite")).start()
    try:
        game = requests.post(server.url + "/api/games", timeout=10, json={
            "players": PLAYERS, "rules": {"preset": "pagat", "match_length": "target", "target": 10 ** 6}}).json()
        for pips in (5, 6, 7):
            assert save(server, game, pips).status_code == 201
        fill(small_disk / "filler")
        refused = [save(server, game, 8 + i) for i in range(20)]
        failed = [r for r in refused if r.status_code != 201]
        assert failed, "the disk never filled up"
        assert {r.status_code for r in failed} == {507}
        assert "disk is full" in failed[0].json()["error"]
        # The new-game form, with the CSRF token its page gave, reaches the full disk too.
        browser = requests.Session()
        form = browser.get(f"{server.url}/games/new", timeout=10).text
        token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
        page = browser.post(f"{server.url}/games/new", timeout=10,
                            data={"csrf_token": token, "player-0": "Cy", "player-1": "Di", "action": "start"})
        assert page.status_code == 507 and "disk is full" in page.text
        assert "Cy" not in requests.get(f"{server.url}/", timeout=10).text  # and no half-made game is listed
        state = requests.get(f"{server.url}/api/games/{game['id']}", timeout=10).json()
        saved = [r["scores"]["Ann"] for r in state["rounds"] if r["scores"]]
        assert saved[:3] == [5, 6, 7]
        assert all(set(r["scores"]) == set(PLAYERS) for r in state["rounds"] if r["scores"])
        if (small_disk / "filler").exists():
            os.remove(small_disk / "filler")
        again = save(server, game, 99)
        assert again.status_code == 201 and again.json()["scores"]["Ann"] == 99
    finally:
        server.stop()
