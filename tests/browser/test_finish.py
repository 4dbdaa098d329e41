"""The end of a match on a phone, at 360x640 and 390x844, in English, French and Dutch: a
one-round match played to the end, the finish card with its places and points behind, the
result copied, Rematch in one tap (checked through the API: same players, seats and rules);
then the smaller things: times in the phone's own zone, the screen kept awake, "Go to Di"
showing Di's hand below the header, and the referee desk's bars on a short phone."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy", "Di"]
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES = {"390x844": {"width": 390, "height": 844}, "360x640": {"width": 360, "height": 640}}

# What the finish card says in each language (Ann out; Bob and Di 18, Cy 30: low total wins).
WORDS = {
    "en": {"headline": "Ann wins the match", "first": "1st", "second": "2nd", "fourth": "4th",
           "winner": "winner", "behind": "18 points behind", "rematch": "Rematch", "copy": "Copy the result",
           "copied": "Copied", "how": "The lowest total wins."},
    "fr": {"headline": "Ann remporte la partie", "first": "1er", "second": "2e", "fourth": "4e",
           "winner": "vainqueur", "behind": "18 points de retard", "rematch": "Revanche",
           "copy": "Copier le résultat", "copied": "Copié", "how": "Le plus bas total gagne."},
    "nl": {"headline": "Ann wint de partij", "first": "1e", "second": "2e", "fourth": "4e",
           "winner": "winnaar", "behind": "18 punten achter", "rematch": "Revanche",
           "copy": "Uitslag kopiëren", "copied": "Gekopieerd", "how": "Het laagste totaal wint."},
}


def scorer_game(page, live_server, rules, lang="en"):
    """A game made through the API, opened on this phone with its scorer link, in `lang`."""
    page.goto(f"{live_server}/lang/{lang}?next=/")
    created = page.request.post(live_server + "/api/games", data={"players": PLAYERS, "rules": rules})
    assert created.status == 201
    game = created.json()
    page.goto(f"{live_server}/games/{game['id']}/join/{game['edit_token']}")
    expect(page.locator("#live")).to_be_visible()
    return game


def play_the_round(page):
    """Round 1, typed: Ann goes out, Bob and Di keep 18, Cy 30."""
    page.locator(".next a.button.primary").click()
    expect(page.locator("#round-form")).to_be_visible()
    page.locator("#hand-0 input[name=went_out]").check()
    for seat, pips in ((1, 18), (2, 30), (3, 18)):
        page.fill(f"input[name=pips-{seat}]", str(pips))
    page.locator("button[name=action][value=save]").click()
    expect(page.locator("#finish")).to_be_visible()


def place_rows(page):
    return [" ".join(row.inner_text().split()) for row in page.locator("#finish .placings li").all()]


def no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


@pytest.mark.parametrize("lang, rules, order", [
    ("en", {"preset": "double-foot", "match_length": "one-round"}, ["Bob", "Cy", "Di", "Ann"]),
    ("fr", {"preset": "pagat", "match_length": "one-round"}, PLAYERS),
    ("nl", {"preset": "pagat", "match_length": "one-round"}, PLAYERS),
])
def test_a_match_to_its_finish_card_and_a_rematch_in_one_tap(page, live_server, phone_shots, lang, rules, order):
    words = WORDS[lang]
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    game = scorer_game(page, live_server, rules, lang)
    play_the_round(page)

    card = page.locator("#finish")
    expect(card.locator("h2")).to_contain_text(words["headline"])
    assert place_rows(page) == [
        f"{words['first']} Ann 0 {words['winner']}",
        f"{words['second']} Bob 18 {words['behind']}",
        f"{words['second']} Di 18 {words['behind']}",
        f"{words['fourth']} Cy 30 30 {words['behind'].replace('18 ', '')}",
    ]
    expect(card).to_contain_text(words["how"])
    text = card.locator("textarea.result-text").input_value()
    colon = "\u00a0:" if lang == "fr" else ":"  # French puts a (non-breaking) space before a colon
    assert words["headline"] in text and f"{words['second']} Bob{colon} 18 ({words['behind']})" in text

    for label, size in SIZES.items():
        page.set_viewport_size(size)
        card.scroll_into_view_if_needed()
        no_sideways_scroll(page)
        # Every place, the rematch and the result fit the phone's width.
        for row in page.locator("#finish .placings li").all():
            box = row.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (label, box)
        rematch_box = card.locator("form.rematch button").bounding_box()
        assert rematch_box["height"] >= 44 and rematch_box["x"] + rematch_box["width"] <= size["width"]
        if lang == "en":
            DOCS.mkdir(parents=True, exist_ok=True)
            page.evaluate("document.getElementById('finish').scrollIntoView({block: 'start'})")
            page.evaluate("window.scrollBy(0, -64)")  # the card's top below the sticky header
            page.screenshot(path=str(DOCS / f"finish-{label}.png"))
    phone_shots(f"finish-{lang}", card)

    # The result, copied: the button is JavaScript's (share where the phone can, else copy).
    button = card.locator("button.share-button")
    expect(button).to_be_visible()
    expect(button).to_have_text(words["copy"])
    button.click()
    expect(card.locator(".share-status")).to_contain_text(words["copied"])
    assert page.evaluate("() => navigator.clipboard.readText()") == text

    # The screen is kept awake on the game page, or left alone without an error.
    assert page.evaluate("() => document.documentElement.getAttribute('data-wake-lock')") in (
        "on", "refused", "unsupported")

    # One tap: the new game, scored by this phone, with the same table and rules.
    card.locator("form.rematch button").click()
    page.wait_for_url(lambda url: f"/games/{game['id']}" not in url)
    new_id = page.url.rstrip("/").rsplit("/", 1)[1]
    new = page.request.get(f"{live_server}/api/games/{new_id}").json()
    old = page.request.get(f"{live_server}/api/games/{game['id']}").json()
    assert new["players"] == order and sorted(new["players"]) == sorted(old["players"])
    assert new["rules"] == old["rules"] == rules
    assert new["game"] == "chicken-foot" and not new["finished"]
    expect(page.locator(".next a.button.primary")).to_be_visible()  # this phone scores it
    expect(page.locator(".next")).to_contain_text(order[0] if rules["preset"] == "double-foot" else "[9-9]")
    # The finished game now leads to its rematch.
    page.go_back()
    page.reload()
    expect(page.locator("#finish form.rematch button")).not_to_have_text(words["rematch"])
    assert not errors, errors


def test_times_are_shown_in_the_phones_own_zone(browser, live_server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, timezone_id="Pacific/Auckland",
                                  locale="en-NZ")
    page = context.new_page()
    game = scorer_game(page, live_server, {"preset": "pagat", "match_length": "one-round"})
    play_the_round(page)
    page.goto(f"{live_server}/games/{game['id']}/rounds/1")
    moment = page.locator(".history time").first
    expect(moment).to_have_attribute("data-localised", "")
    shown, server = moment.inner_text(), moment.get_attribute("title")
    assert server.endswith("UTC") and "UTC" not in shown
    expected = page.evaluate("""(el) => new Intl.DateTimeFormat(document.documentElement.lang,
        {dateStyle: "medium", timeStyle: "medium"}).format(new Date(el.getAttribute("datetime")))""",
                             moment.element_handle())
    assert shown == expected
    context.close()


def test_go_to_a_missing_hand_shows_it_below_the_sticky_header(page, live_server):
    scorer_game(page, live_server, "pagat")
    page.set_viewport_size(SIZES["360x640"])
    page.locator(".next a.button.primary").click()
    page.locator("#hand-0 input[name=went_out]").check()
    page.fill("input[name=pips-1]", "3")
    page.fill("input[name=pips-2]", "4")
    page.locator("button[name=action][value=save]").click()
    # the answer's own link, above the form: the preview's (inside the form) shows before the
    # answer comes, and the answer's page, shown at its top, would undo a jump made from it
    link = page.locator("main > p.error a[href='#hand-3']")
    expect(link).to_have_text("Go to Di")
    link.click()
    # measured in the page, as it settles (Playwright's boxes were once None right after
    # the jump): the legend must come to rest on screen, below the sticky header
    page.wait_for_function("""() => {
        const header = document.querySelector("header.top"), legend = document.querySelector("#hand-3 legend");
        if (!header || !legend) return false;
        const top = legend.getBoundingClientRect().top;
        return top >= header.getBoundingClientRect().bottom - 0.5 && top < window.innerHeight;
    }""", timeout=5000)
    assert page.evaluate("() => document.documentElement.getAttribute('data-wake-lock')") in (
        "on", "refused", "unsupported")


def test_the_desk_bars_leave_room_on_a_short_phone(page, live_server):
    game = scorer_game(page, live_server, "pagat")
    page.set_viewport_size(SIZES["360x640"])
    page.goto(f"{live_server}/games/{game['id']}/referee/foot")
    page.locator(".doubles-pad label[title='5-5']").tap()
    expect(page.locator("#verdict-bar")).to_contain_text("Now tap the tiles carrying 5")
    header = page.locator("header.top").bounding_box()["height"]
    bar = page.locator(".actions.sticky").bounding_box()["height"]
    assert header + bar <= 130, (header, bar)
    for selector in ("header.top .button", ".actions.sticky .button"):
        assert page.locator(selector).bounding_box()["height"] >= 44
    no_sideways_scroll(page)
