"""The scoreboard when the server cannot be reached: a reload shows the last good copy, saying
how old it is, and the page catches up by itself when the server answers again."""

import re

from playwright.sync_api import expect

from tests.browser.helpers import scorer_game

AS_OF = re.compile(r"^Offline: scores as of \d\d:\d\d$")
BACK = "It updates by itself when the server answers."



def another_phone_saves(page, base, game, pips):
    """A round saved by another scorer, through the API."""
    saved = page.request.post(f"{base}/api/games/{game['id']}/rounds",
                              headers={"Authorization": f"Bearer {game['edit_token']}"},
                              data={"hands": {"Ann": {"pips": pips[0]}, "Bob": {"pips": pips[1]}}, "went_out": "Cy"})
    assert saved.status == 201, saved.text()


def controlled_by_the_service_worker(page):
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    # A function, not an expression: a polled expression is eval()ed, which the CSP refuses.
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def test_a_reload_while_offline_shows_the_last_scoreboard_and_it_refreshes_itself(page, server, phone_shots):
    game = scorer_game(page, server.url)
    controlled_by_the_service_worker(page)
    another_phone_saves(page, server.url, game, (14, 9))
    expect(page.locator(".totals")).to_contain_text("14", timeout=5000)
    expect(page.locator(".round-title").first).to_contain_text("Round 2")

    server.stop()
    as_of = page.locator("#offline-as-of")
    expect(as_of).to_be_visible(timeout=5000)  # the next poll finds no server
    expect(as_of.locator("strong")).to_have_text(AS_OF)
    expect(as_of).to_contain_text(BACK)
    # the time of the last poll the server answered, on the phone's clock
    now = page.evaluate("""() => [0, 60000].map((ago) => new Date(Date.now() - ago))
                                    .map((d) => String(d.getHours()).padStart(2, "0") + ":" + String(d.getMinutes()).padStart(2, "0"))""")
    assert as_of.locator("strong").inner_text().rsplit(" ", 1)[1] in now
    page.reload()
    # the last good copy, not "You are offline", with the scores it had and how old they are
    expect(page.locator("main[data-offline-copy]")).to_have_count(1)
    expect(as_of).to_be_visible()
    expect(as_of.locator("strong")).to_have_text(AS_OF)
    expect(page.locator("#offline-banner")).to_be_hidden()
    expect(page.locator(".totals")).to_contain_text("14")
    expect(page.locator(".rounds tbody tr")).to_have_count(1)
    phone_shots("21-offline-scores-as-of", as_of)

    server.start()
    another_phone_saves(page, server.url, game, (3, 4))
    # no manual reload: the page reloads itself once the server answers
    expect(page.locator(".rounds tbody tr")).to_have_count(2, timeout=15000)
    expect(page.locator("main[data-offline-copy]")).to_have_count(0)
    expect(as_of).to_be_hidden()
    expect(page.locator(".totals")).to_contain_text("17")


def test_the_live_scoreboard_says_since_when_it_is_offline_and_catches_up(page, server):
    game = scorer_game(page, server.url)
    controlled_by_the_service_worker(page)
    server.stop()
    as_of = page.locator("#offline-as-of")
    expect(as_of.locator("strong")).to_have_text(AS_OF, timeout=5000)
    expect(page.locator("#scoreboard")).to_contain_text("No round recorded yet")
    server.start()
    another_phone_saves(page, server.url, game, (5, 6))
    expect(page.locator(".totals")).to_contain_text("6", timeout=5000)
    expect(as_of).to_be_hidden()


def test_the_offline_page_reloads_itself_when_the_server_is_back(page, server):
    scorer_game(page, server.url)
    controlled_by_the_service_worker(page)
    server.stop()
    page.goto(server.url + "/players")  # never seen: nothing kept for it
    expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
    server.start()
    expect(page.get_by_role("heading", name="You are offline")).to_have_count(0, timeout=10000)
    assert page.url.endswith("/players")
