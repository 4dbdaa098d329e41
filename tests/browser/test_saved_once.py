"""A score is never saved twice nor lost: Back after Save brings the next round's empty form
(and the old form sent again saves nothing), and a round saved while the server is down waits
on the phone, next to Save, and is sent by itself, once, when the server is back."""

from playwright.sync_api import expect

from tests.browser.helpers import PLAYERS, scorer_game

OUTBOX = "() => Object.keys(localStorage).filter((k) => k.startsWith('referee:outbox:')).length"
FIELDS = """() => Array.from(new FormData(document.getElementById('round-form')))
                 .filter(([name, value]) => typeof value === 'string')"""



def played(page, base, game):
    rounds = page.request.get(f"{base}/api/games/{game['id']}").json()["rounds"]
    return [r for r in rounds if r.get("scores")]


def type_round(page):
    page.fill("input[name=pips-0]", "14")
    page.fill("input[name=pips-1]", "9")
    page.locator("#hand-2 input[name=went_out]").check()


def back_after_save(page, base, wait_until="load"):
    game = scorer_game(page, base)
    page.get_by_role("link", name="Enter the hands of round 1").click()
    expect(page.locator("h1.round-title")).to_contain_text("Round 1")
    expect(page.locator("#round-form")).to_have_attribute("autocomplete", "off")
    page.locator("#hand-0 summary").click()
    page.locator("#hand-0 label[title='4-3']").click()
    page.fill("input[name=pips-1]", "9")
    page.locator("#hand-2 input[name=went_out]").check()
    sent = page.evaluate(FIELDS)
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".totals")).to_contain_text("7")
    assert page.url.endswith(f"/games/{game['id']}")

    page.go_back(wait_until=wait_until)
    expect(page.locator("h1.round-title")).to_contain_text("Round 2")
    expect(page.locator("#round-form input[name=number]")).to_have_value("2")
    expect(page.locator("#round-form input:checked")).to_have_count(0)
    for seat in range(len(PLAYERS)):
        expect(page.locator(f"input[name=pips-{seat}]")).to_have_value("")
    assert page.locator("input[name=entry_key]").input_value() != dict(sent)["entry_key"]

    # The old form sent again (a restored page, a retry, a double tap): nothing is saved twice.
    again = page.request.post(f"{base}/games/{game['id']}/rounds/new", form={**dict(sent), "action": "save"})
    assert again.status == 409, again.text()
    assert 'data-already-saved="1"' in again.text()
    assert len(played(page, base, game)) == 1
    return game


def test_back_after_save_shows_the_next_round_empty_and_the_old_form_saves_nothing(page, live_server):
    back_after_save(page, live_server)


def test_back_after_save_from_the_back_forward_cache_shows_the_next_round_empty(bfcache_page, live_server):
    """Phones keep the left page whole, typed values too: the form is reloaded on `pageshow`."""
    bfcache_page.add_init_script("window.addEventListener('pageshow', (e) => { if (e.persisted) "
                                 "sessionStorage.setItem('restored', '1'); })")
    back_after_save(bfcache_page, live_server, wait_until="commit")
    assert bfcache_page.evaluate("sessionStorage.getItem('restored')") == "1"
    assert bfcache_page.evaluate("performance.getEntriesByType('navigation')[0].type") == "reload"


def test_a_round_saved_while_the_server_is_down_is_sent_once_when_it_is_back(page, server, phone_shots):
    game = scorer_game(page, server.url)
    page.get_by_role("link", name="Enter the hands of round 1").click()
    expect(page.locator("h1.round-title")).to_contain_text("Round 1")
    type_round(page)

    server.stop()
    save = page.get_by_role("button", name="Save round")
    save.click()
    waiting = page.locator("#round-form .actions [data-outbox-here]")
    expect(waiting).to_be_visible()
    expect(waiting).to_contain_text("Waiting to send: round 1")
    # right next to Save, in the bar that stays at the bottom of the screen
    near, button = waiting.bounding_box(), save.bounding_box()
    assert 0 <= button["y"] - (near["y"] + near["height"]) <= 24
    assert button["y"] + button["height"] <= page.viewport_size["height"]
    # what was typed is all still there
    expect(page.locator("input[name=pips-0]")).to_have_value("14")
    expect(page.locator("input[name=pips-1]")).to_have_value("9")
    expect(page.locator("#hand-2 input[name=went_out]")).to_be_checked()
    assert page.evaluate(OUTBOX) == 1
    phone_shots("20-waiting-to-send")
    page.wait_for_timeout(3500)  # a retry or two, still refused by the closed port
    expect(waiting).to_contain_text("Waiting to send: round 1")

    server.start()
    expect(page.locator("#scoreboard .totals")).to_contain_text("14", timeout=15000)
    assert page.url.endswith(f"/games/{game['id']}")
    assert len(played(page, server.url, game)) == 1
    assert page.evaluate(OUTBOX) == 0
    page.wait_for_timeout(3500)  # nothing is sent a second time
    rounds = played(page, server.url, game)
    assert len(rounds) == 1 and rounds[0]["scores"] == {"Ann": 14, "Bob": 9, "Cy": 0}


def test_a_waiting_round_survives_a_reload_and_is_sent_once(page, server):
    game = scorer_game(page, server.url)
    page.get_by_role("link", name="Enter the hands of round 1").click()
    expect(page.locator("h1.round-title")).to_contain_text("Round 1")
    type_round(page)
    server.stop()
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("[data-outbox-here]")).to_contain_text("Waiting to send: round 1")
    page.reload()  # the round page is not kept offline: the offline page, at the same address
    expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
    assert page.evaluate(OUTBOX) == 1
    server.start()
    expect(page.locator("#scoreboard .totals")).to_contain_text("14", timeout=15000)
    page.wait_for_timeout(3500)
    assert len(played(page, server.url, game)) == 1
    assert page.evaluate(OUTBOX) == 0


def test_a_waiting_round_is_shown_and_sent_from_the_scoreboard_too(page, server):
    game = scorer_game(page, server.url)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.get_by_role("link", name="Enter the hands of round 1").click()
    expect(page.locator("h1.round-title")).to_contain_text("Round 1")
    type_round(page)
    server.stop()
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("[data-outbox-here]")).to_contain_text("Waiting to send: round 1")
    page.get_by_role("link", name="Scoreboard").click()  # the game page as last seen
    expect(page.locator("#offline-as-of")).to_be_visible()
    expect(page.locator("#outbox")).to_contain_text("Waiting to send: round 1")
    expect(page.locator("#scoreboard")).to_contain_text("No round recorded yet")
    server.start()
    expect(page.locator("#scoreboard .totals")).to_contain_text("14", timeout=15000)
    expect(page.locator("#outbox")).to_be_hidden()
    assert len(played(page, server.url, game)) == 1


def test_a_resent_round_the_server_refuses_comes_back_with_its_errors_and_values(page, server):
    game = scorer_game(page, server.url)
    page.get_by_role("link", name="Enter the hands of round 1").click()
    expect(page.locator("h1.round-title")).to_contain_text("Round 1")
    page.fill("input[name=pips-0]", "14")
    page.locator("#hand-1 input[name=went_out]").check()  # Cy's hand forgotten
    server.stop()
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("[data-outbox-here]")).to_contain_text("Waiting to send: round 1")
    server.start()
    expect(page.locator("#hand-2")).to_have_class("card hand missing", timeout=15000)
    expect(page.get_by_role("alert").first).to_contain_text("Cy")
    expect(page.locator("input[name=pips-0]")).to_have_value("14")
    expect(page.locator("#hand-1 input[name=went_out]")).to_be_checked()
    assert page.evaluate(OUTBOX) == 0
    # the form is the same entry, and works as before
    page.fill("input[name=pips-2]", "6")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("#scoreboard .totals")).to_contain_text("14")
    assert len(played(page, server.url, game)) == 1


def test_a_round_refused_while_the_phone_shows_another_page_can_be_opened_again(page, server, phone_shots):
    game = scorer_game(page, server.url)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.get_by_role("link", name="Enter the hands of round 1").click()
    expect(page.locator("h1.round-title")).to_contain_text("Round 1")
    page.fill("input[name=pips-0]", "14")
    page.locator("#hand-1 input[name=went_out]").check()  # Cy's hand forgotten
    server.stop()
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("[data-outbox-here]")).to_contain_text("Waiting to send: round 1")
    page.get_by_role("link", name="Scoreboard").click()
    expect(page.locator("#outbox")).to_contain_text("Waiting to send: round 1")
    server.start()
    outbox = page.locator("#outbox")
    expect(outbox).to_contain_text("Round 1 was not saved.", timeout=15000)
    expect(page.locator("main[data-offline-copy]")).to_have_count(0)  # the page caught up too
    phone_shots("24-round-not-saved", outbox)
    outbox.get_by_role("button", name="Open it").click()
    expect(page.locator("h1.round-title")).to_contain_text("Round 1")
    expect(page.locator("input[name=pips-0]")).to_have_value("14")
    expect(page.locator("#hand-1 input[name=went_out]")).to_be_checked()
    expect(page.locator("#outbox")).to_be_hidden()
    page.fill("input[name=pips-2]", "6")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("#scoreboard .totals")).to_contain_text("14")
    rounds = played(page, server.url, game)
    assert len(rounds) == 1 and rounds[0]["scores"] == {"Ann": 14, "Bob": 0, "Cy": 6}
    assert page.evaluate(OUTBOX) == 0
