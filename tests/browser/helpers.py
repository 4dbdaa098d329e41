"""Helpers shared by the browser tests."""

from playwright.sync_api import expect

PLAYERS = ["Ann", "Bob", "Cy"]


def scorer_game(page, base, players=PLAYERS):
    """A game made through the API, opened on this phone with its scorer link."""
    made = page.request.post(f"{base}/api/games", data={"players": players})
    assert made.ok, made.text()
    game = made.json()
    page.goto(f"{base}/games/{game['id']}/join/{game['edit_token']}")
    expect(page.get_by_role("link", name="Enter the hands of round 1")).to_be_visible()
    return game


def open_round_of_two(page, base, players=("Ann", "Bob")):
    """Start a game of two on the new-game page and open round 1, the second player out."""
    page.goto(base + "/games/new")
    for seat, name in enumerate(players):
        page.fill(f"input[name=player-{seat}]", name)
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="Enter the hands of round 1").click()
    page.locator("#hand-1 input[name=went_out]").check()
