"""The referee desk at a phone's viewport: docs/rules.md's [1-1] example recorded on the picker,
first with 7 ones on the table, then with 8, the table's choice recorded, and the game's log.
Once more with JavaScript off, where the forms post and the button shows the ruling."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy", "Di"]
# [1-1] laid against [9-1]; the other ones seen on the table. [1-0] makes the eighth.
SEEN = ["9-1", "2-1", "3-1", "4-1", "6-1", "7-1"]


SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


def phone_shot(page, name):
    """What the phone's screen shows right now (full-page shots draw sticky bars mid-page)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def htmx_settled(page):
    """Wait until htmx has wired up the content it just swapped in. A boosted link's page is
    in the DOM a settle delay (20 ms) before its hx-trigger listeners are bound: a change made
    in that window, faster than any thumb, would be missed.

    The predicate is a function, not an expression: Playwright evaluates an expression again
    with eval() on every poll after the first, which the app's Content-Security-Policy (no
    'unsafe-eval') refuses; a function is compiled once, on the first check."""
    page.wait_for_function("() => !document.querySelector('.htmx-swapping, .htmx-settling')")


def thumb_sized(page, selector):
    """Every visible match is at least 44 x 44 CSS pixels."""
    boxes = [box for box in (el.bounding_box() for el in page.locator(selector).all()) if box]
    assert boxes, selector
    small = [box for box in boxes if box["width"] < 44 or box["height"] < 44]
    assert not small, (selector, small[:3])


def scorer_game(page, live_server, rules="pagat"):
    created = page.request.post(live_server + "/api/games", data={"players": PLAYERS, "rules": rules})
    assert created.status == 201
    game = created.json()
    page.goto(f"{live_server}/games/{game['id']}/join/{game['edit_token']}")
    return game


def tap_tile(page, tile):
    page.locator(f"#foot-picker label.key[title='{tile}']").tap()


def test_the_one_one_foot_with_seven_then_eight_ones(page, live_server, shot):
    scorer_game(page, live_server)
    page.get_by_role("link", name="Referee: settle a dispute").tap()
    expect(page.locator("h1")).to_have_text("Referee")
    no_sideways_scroll(page)
    thumb_sized(page, ".desk-questions .button")
    shot("desk-01-menu")
    page.get_by_role("link", name="Can this foot still be completed?").tap()
    expect(page.locator("h1")).to_have_text("Can this foot still be completed?")

    # Tap the double in dispute: the picker shows the ten tiles carrying 1.
    page.locator(".doubles-pad label[title='1-1']").tap()
    expect(page.locator("#foot-picker legend")).to_contain_text("Tiles carrying 1, and the toes")
    expect(page.locator("#foot-picker .pick")).to_have_count(10)
    expect(page.locator("#ruling")).to_contain_text("Now tap the tiles carrying 1 that are on the table.")
    thumb_sized(page, ".doubles-pad .key")
    thumb_sized(page, "#foot-picker label.key")
    thumb_sized(page, "#foot-picker .toe-chip")

    # Seven ones on the table, [1-1] included: exactly enough left for three toes.
    for tile in SEEN:
        tap_tile(page, tile)
    page.fill("input[name=boneyard]", "11")
    verdict = page.locator("#ruling .verdict")
    expect(verdict).to_have_text("This foot can still be completed.")
    # While tapping, the verdict stays in sight in the bar at the bottom of the screen.
    bar = page.locator("#verdict-bar")
    expect(bar).to_have_text("This foot can still be completed.")
    page.locator("#foot-picker").scroll_into_view_if_needed()
    expect(bar).to_be_in_viewport()
    thumb_sized(page, "#verdict-bar a")
    phone_shot(page, "desk-02-seven-ones-screen")
    ruling = page.locator("#ruling")
    expect(ruling).to_contain_text("On the table: 7 of them, [1-1] included.")
    expect(ruling).to_contain_text("Not on the table yet: 3 ([8-1], [5-1], [1-0]).")
    expect(ruling).to_contain_text("The boneyard holds 11 tiles")
    expect(ruling.locator(".unseen .domino")).to_have_count(3)
    no_sideways_scroll(page)
    shot("desk-02-seven-ones")

    # The eighth one: two remain, the foot can never be completed, Pagat is silent.
    tap_tile(page, "1-0")
    expect(bar).to_have_text("It can never be completed: the table decides.")
    phone_shot(page, "desk-03-eight-ones-screen")
    expect(verdict).to_contain_text("It can never be completed")
    expect(verdict).to_contain_text("the table decides")
    expect(ruling).to_contain_text("On the table: 8 of them, [1-1] included.")
    expect(ruling).to_contain_text("Tiles that can still be laid on it: 2; missing: 3.")
    expect(ruling).to_contain_text("Pagat does not address it: the table decides")
    expect(ruling.locator(".unseen .domino")).to_have_count(2)
    thumb_sized(page, "#ruling .table-choice .button")
    page.locator("#ruling .table-choice").scroll_into_view_if_needed()
    phone_shot(page, "desk-03-eight-ones-choices-screen")
    no_sideways_scroll(page)
    shot("desk-03-eight-ones")

    # Give the ruling: it goes into the game's log.
    page.get_by_role("button", name="Give the ruling and log it").tap()
    expect(page.locator("#ruling .notice")).to_have_text("Saved in the game's log, round 1.")
    expect(page.locator("#ruling .notice")).to_be_in_viewport()
    expect(page.locator("#ruling .verdict")).to_contain_text("the table decides")

    # The table decides to play on; that holds for the rest of the match.
    page.get_by_role("button", name="Play on until nobody can move").tap()
    notices = page.locator("#ruling .notice")
    expect(notices.first).to_have_text("Recorded as a house rule for the rest of the match: "
                                       "Play on until nobody can move.")
    expect(notices.last).to_have_text("Saved in the game's log, round 1.")
    expect(notices.first).to_be_in_viewport()
    expect(page.locator("#ruling .verdict")).to_have_text("It can never be completed. Play goes on.")
    expect(page.locator("#ruling")).to_contain_text("Chosen by the table")
    no_sideways_scroll(page)
    phone_shot(page, "desk-04-settled-screen")
    shot("desk-04-settled")

    page.get_by_role("link", name="← Referee").tap()
    expect(page.locator("h1")).to_have_text("Referee")
    page.get_by_role("link", name="← Scoreboard").tap()
    expect(page).to_have_url(re.compile(r"/games/[\w-]+$"))
    expect(page.get_by_role("link", name="Referee: settle a dispute")).to_be_visible()
    log = page.locator("#rulings-log")
    expect(log.locator("ol.log > li")).to_have_count(2)
    log.locator("summary").first.tap()
    expect(log.locator("details").first).to_have_attribute("open", "")
    expect(log).to_contain_text("[1-1]: can never be completed · Play on until nobody can move")
    expect(log).to_contain_text("This foot can never be completed.")
    no_sideways_scroll(page)
    log.scroll_into_view_if_needed()
    phone_shot(page, "desk-05-game-log-screen")
    shot("desk-05-game-log")


def test_the_foot_without_javascript(browser, browser_context_args, live_server):
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(live_server + "/referee?preset=kelley&players=4")
        page.get_by_role("link", name="Can this foot still be completed?").tap()
        page.locator(".doubles-pad label[title='1-1']").tap()
        page.get_by_role("button", name="Give the ruling").tap()
        expect(page.locator("#foot-picker .pick")).to_have_count(10)
        for tile in SEEN + ["1-0"]:
            tap_tile(page, tile)
        page.fill("input[name=boneyard]", "4")
        page.get_by_role("button", name="Give the ruling").tap()
        expect(page.locator("#ruling .verdict")).to_have_text("It can never be completed. Play goes on.")
        expect(page.locator("#ruling")).to_contain_text("draws one tile while the boneyard lasts (4 left)")
        no_sideways_scroll(page)
    finally:
        context.close()


def test_short_rulings_on_the_standalone_desk(page, live_server, shot):
    page.goto(live_server + "/referee")
    page.select_option("select[name=preset]", "kelley")
    page.fill("input[name=players]", "3")
    page.get_by_role("button", name="Use these rules").tap()
    expect(page.locator("select[name=preset]")).to_have_value("kelley")
    no_sideways_scroll(page)
    shot("desk-06-standalone-menu")

    page.get_by_role("link", name="Nobody holds the round's double: what now?").tap()
    ruling = page.locator("#ruling")
    # Kelley puts the round's double in the centre before play: it can never be missing.
    expect(ruling).to_contain_text("put in the centre before play, so it can never be missing")
    expect(ruling).not_to_contain_text("%")
    no_sideways_scroll(page)
    phone_shot(page, "desk-07-missing-double-screen")

    page.get_by_role("link", name="← Referee").tap()
    page.get_by_role("link", name="Who lays the next round's double?").tap()
    expect(ruling).to_contain_text("Round 1 of 10 is played on [9-9].")
    htmx_settled(page)
    page.select_option("select[name=round]", "3")
    expect(ruling).to_contain_text("Round 3 of 10 is played on [7-7].")
    expect(ruling).to_contain_text("everyone draws a tile and the highest draw plays first")
    thumb_sized(page, "select[name=round]")
    no_sideways_scroll(page)
    phone_shot(page, "desk-08-next-double-screen")
