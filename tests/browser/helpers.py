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
