"""A team dominoes match to 100 at a phone's viewport, with a blocked hand and a capicu."""

from playwright.sync_api import expect

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def enter_hand(page, number, pips, went_out=None, blocker=None, capicu=None):
    page.get_by_role("link", name=f"Enter hand {number}").click()
    expect(page.locator("h1.round-title")).to_contain_text(f"Hand {number}")
    for seat, name in enumerate(PLAYERS):
        if name == went_out:
            page.locator(f"#hand-{seat} input[name=went_out]").check()
        elif name in pips:
            page.fill(f"input[name=pips-{seat}]", str(pips[name]))
    if went_out is None:
        page.locator("input[name=went_out][value=blocked]").check()
        page.select_option("select[name=blocker]", str(PLAYERS.index(blocker)))
    if capicu:
        page.select_option("select[name=capicu_tile]", capicu)
        for end, number in zip(page.locator("select[name=capicu_ends]").all(), capicu.split("-")):
            end.select_option(number)  # the two open ends before it, which it fits
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#scoreboard")).to_be_visible()


def team_totals(page):
    return {name: int(page.locator(f".totals li:has(.name:text-is('{name}')) .total").inner_text())
            for name in ("Ann & Cy", "Bob & Di")}


def test_team_match_to_100_with_a_block_and_a_capicu(page, live_server, shot):
    page.goto(live_server + "/games/new")
    for seat, name in enumerate(PLAYERS):
        page.fill(f"input[name=player-{seat}]", name)
    page.select_option("select[name=game]", "team")
    expect(page.locator(".kind-fields[data-kind=chicken-foot]")).to_be_hidden()
    page.select_option("select[name=team-capicu_bonus]", "25")
    expect(page.locator("#rules-preview")).to_contain_text("Ann and Cy are partners")
    shot("30-team-new-game")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".next")).to_contain_text("whoever holds [6-6] opens with it")
    shot("31-team-start")

    # Hand 1: Ann goes out with a capicu: 12 + 4 + 9 pips and the 25-point bonus.
    page.get_by_role("link", name="Enter hand 1").click()
    page.locator("#hand-0 input[name=went_out]").check()
    page.fill("input[name=pips-1]", "12")
    page.fill("input[name=pips-2]", "4")
    page.fill("input[name=pips-3]", "9")
    page.select_option("select[name=capicu_tile]", "5-3")
    page.locator("select[name=capicu_ends]").nth(0).select_option("3")  # the two open ends before it
    page.locator("select[name=capicu_ends]").nth(1).select_option("5")
    expect(page.locator("#round-preview")).to_contain_text("capicu")
    shot("32-team-capicu-hand")
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#scoreboard")).to_be_visible()
    assert team_totals(page) == {"Ann & Cy": 50, "Bob & Di": 0}
    expect(page.locator(".next")).to_contain_text("Ann went out last hand, so Ann opens")

    # Hand 2 is blocked by Di; Bob & Di hold fewer pips and take all 30.
    enter_hand(page, 2, {"Ann": 10, "Bob": 3, "Cy": 12, "Di": 5}, blocker="Di")
    assert team_totals(page) == {"Ann & Cy": 50, "Bob & Di": 30}
    expect(page.locator(".next")).to_contain_text("Di laid the blocking tile last hand, so Di opens")
    expect(page.locator(".rounds tbody tr").nth(1)).to_contain_text("blocked")
    shot("33-team-after-block")

    enter_hand(page, 3, {"Bob": 20, "Cy": 6, "Di": 24}, went_out="Ann")
    assert team_totals(page) == {"Ann & Cy": 100, "Bob & Di": 30}
    expect(page.locator(".result")).to_contain_text("The match goes to Ann & Cy, 100 to 30")
    expect(page.get_by_role("link", name="Enter hand")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot("34-team-match-over")
