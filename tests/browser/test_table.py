"""Several phones at one table: the scorer saves, a watcher sees it live, the QR code opens
the game with controls, and a watcher's forged write is refused."""

import re

import cv2
import numpy as np
from playwright.sync_api import expect

from tests.qr import read_qr

PLAYERS = ["Ann", "Bob", "Cy"]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


def start_game(page, base):
    page.goto(base + "/games/new")
    for seat, name in enumerate(PLAYERS):
        page.fill(f"input[name=player-{seat}]", name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("link", name="Enter the hands of round 1")).to_be_visible()
    return page.url


def qr_text(locator) -> str:
    png = locator.screenshot()
    return read_qr(cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE))


def test_a_watcher_sees_a_saved_round_within_three_seconds(page, browser, live_server, shot):
    game_url = start_game(page, live_server)
    watcher = browser.new_context(**PHONE).new_page()
    watcher.goto(game_url)
    expect(watcher.locator("#scoreboard")).to_contain_text("No round recorded yet")
    expect(watcher.get_by_role("link", name="Enter the hands")).to_have_count(0)

    page.get_by_role("link", name="Enter the hands of round 1").click()
    page.fill("input[name=pips-0]", "14")
    page.fill("input[name=pips-1]", "9")
    page.locator("#hand-2 input[name=went_out]").check()
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".totals")).to_contain_text("14")

    expect(watcher.locator(".totals")).to_contain_text("14", timeout=3000)
    expect(watcher.locator(".round-title").first).to_contain_text("Round 2", timeout=3000)
    shot("10-watcher-live")


def test_a_forged_write_from_the_watch_link_is_refused(page, browser, live_server):
    game_url = start_game(page, live_server)
    game_id = game_url.rstrip("/").rsplit("/", 1)[1]
    watcher = browser.new_context(**PHONE).new_page()
    watcher.goto(live_server + "/games/new")
    csrf = watcher.locator("input[name=csrf_token]").first.get_attribute("value")
    forged = watcher.request.post(f"{live_server}/games/{game_id}/rounds/new", form={
        "csrf_token": csrf, "action": "save", "number": "1", "pips-0": "1", "pips-1": "1", "went_out": "2"})
    assert forged.status == 403
    assert "scorer" in forged.text()
    api = watcher.request.post(f"{live_server}/api/games/{game_id}/rounds",
                               data={"hands": {"Ann": {"pips": 1}, "Bob": {"pips": 1}}, "went_out": "Cy"})
    assert api.status == 401 and api.headers["www-authenticate"].startswith("Bearer")  # no token was sent
    watcher.goto(game_url)
    expect(watcher.locator("#scoreboard")).to_contain_text("No round recorded yet")


def test_the_scorer_qr_code_opens_the_game_with_controls(page, browser, live_server, shot):
    start_game(page, live_server)
    page.get_by_text("Scorer link: can enter and correct scores").click()
    qr = page.locator(".qr[data-kind=scorer] svg")
    expect(qr).to_be_visible()
    shot("11-share-qr")
    url = qr_text(qr)
    assert re.fullmatch(re.escape(live_server) + r"/games/[\w-]+/join/[\w-]+", url)
    second_scorer = browser.new_context(**PHONE).new_page()
    second_scorer.goto(url)
    expect(second_scorer.get_by_role("link", name="Enter the hands of round 1")).to_be_visible()
    assert "/join/" not in second_scorer.url


def test_the_installed_app_says_plainly_when_the_phone_is_offline(page, context, live_server, shot):
    game_url = start_game(page, live_server)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now controlled by the service worker
    # A function, not an expression: a polled expression is eval()ed, which the CSP refuses.
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    context.set_offline(True)
    # the game page says since when its scores are known (see test_offline_scoreboard.py)
    expect(page.locator("#offline-as-of")).to_be_visible(timeout=5000)
    expect(page.locator("#offline-as-of")).to_contain_text("Offline: scores as of")
    shot("12-offline-banner")
    page.goto(game_url)  # the last good copy of the game page
    expect(page.locator("#offline-as-of")).to_be_visible()
    expect(page.locator("#scoreboard")).to_contain_text("No round recorded yet")
    page.goto(live_server + "/players")  # a page never kept
    expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
    expect(page.locator("link[rel=stylesheet]")).to_have_count(1)
    shot("13-offline-page")
    context.set_offline(False)
    # and it reloads by itself once the server answers again
    expect(page.get_by_role("heading", name="You are offline")).to_have_count(0, timeout=10000)
    assert page.url.endswith("/players")
