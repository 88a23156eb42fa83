"""The scorekeeper's page in a real browser on a phone-sized screen (390 x 844): a whole
knock-rummy hand recorded move by move through the showdown (with a refused discard
and an undone entry), a hand recorded through the quick path, and no page wider than
the screen. Screenshots go to var/screenshots/ (docs/recording.md shows them)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games import store
from games.models import Game
from league.models import Round, Table
from tests.support.browser import policy_violations, shot
from tests.support.record import Night, club_night

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(15_000)
    violations = policy_violations(page)
    yield page
    context.close()
    assert not violations, "\n".join(violations)


@pytest.fixture
def night(games_db: None, make_user: Any) -> Night:
    return club_night(make_user)


def sign_in(page: Any, live_server: Any, username: str) -> None:
    page.goto(live_server.url + "/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "pw-" + username)
    page.click("form button[type=submit]")
    page.wait_for_url(live_server.url + "/")


def fits(page: Any) -> None:
    """Nothing is wider than the screen (no sideways scrolling on a phone)."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), page.url


BROKEN_WORDS = """() => {
  const broken = [];
  for (const button of document.querySelectorAll('#record button')) {
    const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        if (range.getClientRects().length > 1) broken.push(word[0]);
      }
    }
  }
  return broken;
}"""


def no_word_broken(page: Any) -> None:
    """No button's text breaks inside a word (issue 27: "To / ok" in "Took 7♥ from the pile")."""
    assert page.evaluate(BROKEN_WORDS) == [], page.url


def headline(page: Any, text: str) -> None:
    """Wait until the panel's headline says ``text`` (an entry was recorded and swapped in)."""
    try:
        _wait_headline(page, text)
    except Exception:
        shot(page, "record-failed")
        raise AssertionError(page.locator("#record").inner_text()) from None


def _wait_headline(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => (document.querySelector('.headline')?.textContent || '').includes(t)",
        arg=text,
    )


def tap(page: Any, name: str) -> None:
    """Tap a button with a finger, as on a phone."""
    page.get_by_role("button", name=name, exact=True).click()


def shown_scores(page: Any) -> list[str]:
    return [cell.strip() for cell in page.locator("table.scores td.score").all_inner_texts()]


def engine_scores(night: Night) -> list[str]:
    return [str(score) for score in store.load_state(Game.objects.get(pk=night.game.pk)).scores]


def test_a_whole_hand_recorded_move_by_move_on_a_phone(night: Night, live_server: Any, phone: Any) -> None:
    page = phone
    sign_in(page, live_server, "sam")
    page.goto(live_server.url + night.url)
    headline(page, "Hand 1: Ann deals 7 cards each.")
    fits(page)
    shot(page, "record-deal")
    # every button is a thumb-sized target
    heights = page.eval_on_selector_all(
        "#record button", "els => els.map(e => e.getBoundingClientRect().height)"
    )
    assert heights and min(heights) >= 44

    page.fill("#upcard", "7h")
    tap(page, "Record the deal")
    headline(page, "Bo to draw.")
    assert page.locator(".pile .card").get_attribute("aria-label") == "seven of hearts"
    fits(page)
    shot(page, "record-draw")
    no_word_broken(page)
    page.get_by_role("button", name="Took seven of hearts from the pile").click()
    headline(page, "Bo to discard or knock.")
    page.fill("#card", "qs")
    tap(page, "Discard")
    headline(page, "Cy to draw.")
    tap(page, "Drew from the stock")
    headline(page, "Cy to discard or knock.")

    # an illegal discard is refused beside the card field, in words
    page.fill("#card", "QS")
    tap(page, "Discard")
    refusal = page.locator("form.move .refusal")
    refusal.wait_for()
    assert "Q♠ was already discarded by Bo in turn 1." in refusal.inner_text()
    assert "card_not_in_hand" not in page.locator("#record").inner_text()
    fits(page)
    shot(page, "record-refused")
    page.fill("#card", "3d")
    tap(page, "Discard")
    headline(page, "Ann to draw.")

    # a wrong entry, undone after a confirmation
    tap(page, "Drew from the stock")
    headline(page, "Ann to discard or knock.")
    page.fill("#card", "kd")
    tap(page, "Discard")
    headline(page, "Bo to draw.")
    page.get_by_role("link", name="Undo the last entry…").click()
    page.locator(".undo-what").wait_for()
    assert page.locator(".undo-what").inner_text() == "Ann discarded K♦."
    fits(page)
    shot(page, "record-undo")
    tap(page, "Yes, undo it")
    headline(page, "Ann to discard or knock.")
    assert page.locator(".entries-list li.undone s").first.inner_text() == "Ann discarded K♦."

    # Ann knocks, the face-down card tapped in the picker
    page.get_by_text("Pick a card by tapping").click()
    page.locator("label.pick:has([aria-label='five of clubs'])").click()
    tap(page, "Knock with it")
    headline(page, "Showdown: enter each hand as it is shown.")
    assert page.locator("form.reveal").count() == 3
    assert page.input_value("#cards-1") == "7H"  # the card the table saw Bo take

    # each hand with the engine's arrangement previewed as it is typed
    page.fill("#cards-1", "7h 8h 9h 2c")
    page.locator("#preview-1 .count").filter(has_text="4 of 7 cards").wait_for()
    page.fill("#cards-1", "7h 8h 9h 2c 3c 4c kd")
    page.locator("#preview-1 .fits").wait_for()
    assert page.locator("#preview-1 .meld").count() == 2
    assert page.locator("#preview-1 .deadwood").first.inner_text() == "10"
    fits(page)
    shot(page, "record-showdown-preview")
    page.fill("#cards-2", "as 2s 3s 4s 5s 6s qs")
    page.locator("#preview-2 .refusal").filter(
        has_text="Q♠ was already discarded by Bo in turn 1."
    ).wait_for()
    shot(page, "record-showdown-inconsistent")
    version = Game.objects.get(pk=night.game.pk).version
    page.locator("#reveal-2").get_by_role("button", name="Check it").click()  # checks, records nothing
    page.locator("#preview-2 .refusal").wait_for()
    assert Game.objects.get(pk=night.game.pk).version == version and page.locator("form.reveal").count() == 3
    assert page.locator("header.site-header").count() == 1  # the preview was swapped in, not a page
    tap(page, "Record Bo's hand")
    page.wait_for_function("() => document.querySelectorAll('form.reveal').length === 2")
    assert "Recorded: Bo showed" in page.locator(".recorded").inner_text()
    page.fill("#cards-2", "as 2s 3s 4s 5s 6s ad")
    tap(page, "Record Cy's hand")
    page.wait_for_function("() => document.querySelectorAll('form.reveal').length === 1")
    page.fill("#cards-0", "kc kh ks 9d 6d 8d td")
    page.locator("#preview-0 .fits").filter(has_text="ends the showdown").wait_for()
    tap(page, "Record Ann's hand")
    headline(page, "Hand 2: Bo deals 7 cards each.")

    state = store.load_state(Game.objects.get(pk=night.game.pk))
    assert state.status == "awaiting_deal" and state.tally.hands_scored == 1
    assert shown_scores(page) == engine_scores(night)
    assert any(score != "0" for score in shown_scores(page))
    assert "Hand 1 scored: Ann knocked and lost." in page.locator(".entries-list").inner_text()
    fits(page)
    shot(page, "record-scored")


def test_a_hand_recorded_through_the_quick_path(night: Night, live_server: Any, phone: Any) -> None:
    page = phone
    sign_in(page, live_server, "dora")
    page.goto(live_server.url + night.url)
    page.get_by_text("Quick path: record only the result of hand 1").click()
    form = page.locator("form.result-counts")
    assert form.locator("select[name=knocker]").input_value() == "1"  # Bo, the first to play
    for seat, count in ((1, "3"), (2, "20"), (0, "12")):  # top to bottom, as a thumb goes
        form.locator(f"#deadwood-{seat}").fill(count)
    fits(page)
    shot(page, "record-quick-path")
    tap(page, "Record the counts (unverified)")
    headline(page, "Hand 2: Bo deals 7 cards each.")
    entries = page.locator(".entries-list").inner_text()
    assert "Hand 1 entered as announced counts, unverified (Bo knocked): Ann 12, Bo 3, Cy 20." in entries
    assert "(Unverified: announced counts.)" in entries
    assert shown_scores(page) == engine_scores(night)

    # the next hand by its final hands, which the engine checks and scores
    page.get_by_text("Quick path: record only the result of hand 2").click()
    form = page.locator("form.result-hands")
    form.locator("select[name=knocker]").select_option(label="Cy")
    hands = ("2c 3c 4c 5d 6d 7d kh", "as 2s 3s 9d 9h 9s 8c", "ad 2d 3d 4h 5h 6h js")
    for seat, cards in enumerate(hands):
        form.locator(f"#hands-{seat}").fill(cards)
    tap(page, "Record the final hands")
    headline(page, "Hand 3: Cy deals 7 cards each.")
    assert "Hand 2 entered as final hands (Cy knocked)." in page.locator(".entries-list").inner_text()
    assert shown_scores(page) == engine_scores(night)
    state = store.load_state(Game.objects.get(pk=night.game.pk))
    assert [r.verified for r in state.tally.results] == [False, True]
    fits(page)
    shot(page, "record-quick-path-done")


def test_no_recording_page_overflows_at_390_px(night: Night, live_server: Any, phone: Any) -> None:
    page = phone
    sign_in(page, live_server, "sam")
    draft = Round.objects.create(tournament=night.tournament, number=2, method="manual", seed="s")
    waiting = Table.objects.create(round=draft, number=4)
    page.goto(live_server.url + f"/tables/{waiting.pk}/record")
    assert "not published yet" in page.locator(".not-ready").inner_text()
    fits(page)
    shot(page, "record-not-published")

    page.goto(live_server.url + night.url)
    page.get_by_text("Quick path: record only the result of hand 1").click()
    fits(page)
    page.fill("#upcard", "10d")
    tap(page, "Record the deal")
    headline(page, "Bo to draw.")
    page.get_by_text("The drawn card was shown?").click()
    fits(page)
    tap(page, "Drew from the stock")
    headline(page, "Bo to discard or knock.")
    page.get_by_text("Pick a card by tapping").click()  # the whole deck but what is seen
    fits(page)
    shot(page, "record-picker")
    page.goto(live_server.url + night.url + "/undo")
    fits(page)
    page.goto(live_server.url + f"/games/{night.game.pk}/record")  # redirected to the table's page
    page.wait_for_url(live_server.url + night.url)
    fits(page)


def test_the_quick_path_knocker_survives_a_refusal(night: Night, live_server: Any, phone: Any) -> None:
    """Issue 27, bug 1: a refused quick-path entry kept the typed hands but reset "Who
    knocked" to the first option; sent again, the wrong knocker was scored."""
    page = phone
    sign_in(page, live_server, "sam")
    page.goto(live_server.url + night.url)
    page.get_by_text("Quick path: record only the result of hand 1").click()
    form = page.locator("form.result-hands")
    form.locator("select[name=knocker]").select_option(label="Cy")
    hands = ("2c 3c 4c 5d 6d 7d kh", "as 2s 3s 9d 9h 9s 8c", "ad 2d 3d 4h 5h 6h jz")  # a typo: "jz"
    for seat, cards in enumerate(hands):
        form.locator(f"#hands-{seat}").fill(cards)
    tap(page, "Record the final hands")
    refusal = page.locator("form.result-hands .refusal")
    refusal.wait_for()
    assert "That is not a card of this game." in refusal.inner_text()
    form = page.locator("form.result-hands")
    assert form.locator("select[name=knocker]").input_value() == "2"  # still Cy
    assert form.locator("#hands-1").input_value() == hands[1]
    fits(page)
    shot(page, "record-quick-path-refused")
    form.locator("#hands-2").fill("ad 2d 3d 4h 5h 6h js")
    tap(page, "Record the final hands")
    headline(page, "Hand 2: Bo deals 7 cards each.")
    assert "Hand 1 entered as final hands (Cy knocked)." in page.locator(".entries-list").inner_text()
    state = store.load_state(Game.objects.get(pk=night.game.pk))
    assert state.tally.results[0].knocker == 2


def test_two_phones_on_one_table_the_second_sees_the_conflict(
    night: Night, live_server: Any, browser: Any
) -> None:
    """Issue 27, bug 2: the same table open on two phones; the stale entry was refused
    but nothing was said (the message was drawn in a form no longer shown)."""
    phones = []
    for user in ("sam", "dora"):
        context = browser.new_context(viewport=PHONE, device_scale_factor=1)
        page = context.new_page()
        page.set_default_timeout(15_000)
        sign_in(page, live_server, user)
        page.goto(live_server.url + night.url)
        phones.append((context, page))
    (first_context, first), (second_context, second) = phones
    try:
        first.fill("#upcard", "7h")
        tap(first, "Record the deal")
        headline(first, "Bo to draw.")
        second.reload()
        headline(second, "Bo to draw.")
        tap(first, "Drew from the stock")
        headline(first, "Bo to discard or knock.")
        tap(second, "Drew from the stock")  # the second phone has not seen Bo draw
        refusal = second.locator("#record > .refusal")
        refusal.wait_for()
        said = refusal.inner_text()
        assert "Someone else entered something meanwhile." in said
        assert "The other phone entered: Bo drew from the stock." in said
        headline(second, "Bo to discard or knock.")  # the table as it is now
        fits(second)
        shot(second, "record-conflict")
        second.set_viewport_size({"width": 1280, "height": 900})
        shot(second, "record-conflict-1280")
        assert Game.objects.get(pk=night.game.pk).version == 3  # created, dealt, one draw
    finally:
        first_context.close()
        second_context.close()
