"""Undo asks first (the confirmation names the round and its points) and can be reversed:
"Put round 2 back" restores the very same scores."""

from playwright.sync_api import expect

from tests.browser.helpers import PLAYERS, scorer_game


def typed_round(page, number, pips, went_out):
    page.get_by_role("link", name=f"Enter the hands of round {number}").click()
    expect(page.locator("h1.round-title")).to_contain_text(f"Round {number}")
    for seat, name in enumerate(PLAYERS):
        if name == went_out:
            page.locator(f"#hand-{seat} input[name=went_out]").check()
        else:
            page.fill(f"input[name=pips-{seat}]", str(pips[name]))
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("#scoreboard")).to_be_visible()


def totals(page):
    return {name: page.locator(f".totals li:has(.name:text-is('{name}')) .total").inner_text() for name in PLAYERS}


def test_undo_asks_first_and_can_be_put_back(page, live_server, phone_shots):
    game = scorer_game(page, live_server)
    typed_round(page, 1, {"Ann": 14, "Bob": 9}, went_out="Cy")
    typed_round(page, 2, {"Bob": 5, "Cy": 12}, went_out="Ann")
    before = totals(page)
    assert before == {"Ann": "14", "Bob": "14", "Cy": "12"}
    api = f"{live_server}/api/games/{game['id']}"
    saved = page.request.get(api).json()["rounds"][1]

    # Undo asks first, naming the round and what it holds; "Keep it" changes nothing.
    page.get_by_role("link", name="Undo round 2").click()
    expect(page.get_by_role("heading", name="Undo round 2?")).to_be_visible()
    expect(page.locator("main table")).to_contain_text("12")
    phone_shots("22-undo-confirmation")
    page.get_by_role("link", name="Keep it").click()
    expect(page.locator(".rounds tbody tr")).to_have_count(2)
    assert totals(page) == before

    page.get_by_role("link", name="Undo round 2").click()
    page.get_by_role("button", name="Yes, undo round 2").click()
    restore = page.locator(".restore")
    expect(restore).to_contain_text("Round 2 was undone.")
    expect(page.locator(".rounds tbody tr")).to_have_count(1)
    assert totals(page) == {"Ann": "14", "Bob": "9", "Cy": "0"}
    expect(page.get_by_role("link", name="Undo round 1")).to_be_visible()
    phone_shots("23-restore-card", restore)

    page.get_by_role("button", name="Put round 2 back").click()
    expect(page.locator(".rounds tbody tr")).to_have_count(2)
    expect(page.locator(".restore")).to_have_count(0)
    assert totals(page) == before
    again = page.request.get(api).json()["rounds"][1]
    assert again["scores"] == saved["scores"] and again["went_out"] == saved["went_out"]
