"""A whole 4-player match of 10 rounds, scored through the pages at a phone's viewport:
a tile-keypad round, typed rounds, a correction, a blocked round, and a tie at the end."""

from playwright.sync_api import expect

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def open_round(page, number):
    page.get_by_role("link", name=f"Enter the hands of round {number}").click()
    expect(page.locator("h1.round-title")).to_contain_text(f"Round {number}")


def typed_round(page, number, pips, went_out=None):
    """Type each player's total; `went_out` marks one player, None marks the round blocked."""
    open_round(page, number)
    for seat, name in enumerate(PLAYERS):
        if name == went_out:
            page.locator(f"#hand-{seat} input[name=went_out]").check()
        else:
            page.fill(f"input[name=pips-{seat}]", str(pips[name]))
    if went_out is None:
        page.locator("input[name=went_out][value=blocked]").check()
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("#scoreboard")).to_be_visible()


def totals(page):
    return {name: int(page.locator(f".totals li:has(.name:text-is('{name}')) .total").inner_text()) for name in PLAYERS}


def test_a_whole_match_with_keypad_typed_correction_blocked_and_tie(page, live_server, shot):
    page.goto(live_server + "/games/new")
    for seat, name in enumerate(PLAYERS):
        page.fill(f"input[name=player-{seat}]", name)
    page.select_option("select[name=preset]", "double-foot")
    expect(page.locator("#rules-preview")).to_contain_text("Tiles each")
    expect(page.locator("#rules-preview dd").nth(1)).to_have_text("11")
    no_sideways_scroll(page)
    shot("01-new-game")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("link", name="Enter the hands of round 1")).to_be_visible()
    shot("02-game-start")

    # Round 1 on the tile keypad: Ann holds [4-3] and [0-0] (50 under these rules), Cy [8-5].
    open_round(page, 1)
    expect(page.locator("#hand-0 .key:has(input[value='9-9'])")).to_have_class("key taken")
    page.locator("#hand-0 summary").click()
    page.locator("#hand-0 label[title='4-3']").click()
    page.locator("#hand-0 label[title='0-0']").click()
    page.fill("input[name=pips-1]", "12")
    page.locator("#hand-2 summary").click()
    page.locator("#hand-2 label[title='8-5']").click()
    expect(page.locator("#hand-2 .key:has(input[value='4-3'])")).to_have_class("key taken")
    # Saving with Di's hand still empty points at Di instead of saving.
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("#hand-3")).to_have_class("card hand missing")
    expect(page.get_by_role("alert").first).to_contain_text("Di")
    shot("03-round-missing-player")
    page.locator("#hand-3 input[name=went_out]").check()
    expect(page.locator("#round-preview")).to_contain_text("57")
    no_sideways_scroll(page)
    shot("04-round-keypad")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("#scoreboard")).to_be_visible()
    assert totals(page) == {"Ann": 57, "Bob": 12, "Cy": 13, "Di": 0}

    typed_round(page, 2, {"Bob": 5, "Cy": 6, "Di": 7}, went_out="Ann")
    typed_round(page, 3, {"Ann": 2, "Bob": 3, "Cy": 4, "Di": 5}, went_out=None)
    expect(page.locator(".rounds tbody tr").nth(2)).to_contain_text("blocked")

    # Bob's first-round total was miscounted: correct it from the round's page.
    page.locator(".rounds tbody tr").first.get_by_role("link", name="1").click()
    page.get_by_role("link", name="Correct this round").click()
    expect(page.locator("input[name=pips-1]")).to_have_value("12")
    page.fill("input[name=pips-1]", "10")
    page.get_by_role("button", name="Save correction").click()
    expect(page.locator("#scoreboard")).to_be_visible()
    assert totals(page) == {"Ann": 59, "Bob": 18, "Cy": 23, "Di": 12}
    page.locator(".rounds tbody tr").first.get_by_role("link", name="1").click()
    expect(page.locator(".history li")).to_have_count(2)
    expect(page.locator(".history")).to_contain_text("corrected")
    shot("05-round-history")
    page.get_by_role("link", name="Scoreboard").click()

    for number in range(4, 10):
        typed_round(page, number, {"Bob": 1, "Cy": 1, "Di": 2}, went_out="Ann")
    shot("06-scoreboard-mid-match")
    typed_round(page, 10, {"Bob": 3, "Cy": 3, "Di": 3}, went_out="Ann")

    assert totals(page) == {"Ann": 59, "Bob": 27, "Cy": 32, "Di": 27}
    expect(page.locator(".result")).to_contain_text("A draw between Bob, Di")
    expect(page.get_by_role("link", name="Enter the hands")).to_have_count(0)
    expect(page.locator(".chart polyline")).to_have_count(4)
    no_sideways_scroll(page)
    shot("07-match-over")

    page.goto(live_server + "/")
    expect(page.locator(".games").last).to_contain_text("Draw: Bob, Di")
    shot("08-games-list")
