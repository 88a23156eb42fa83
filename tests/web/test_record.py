"""The scorekeeper's page: who may open it, what it shows, and every entry it records."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client

import engine
from engine.cards import mask_to_cards
from games import services, store
from games.models import Game, GameEvent, Source
from league.models import Club, ClubGame, Membership, Round, Table
from tests.support.games import new_game
from tests.support.record import Night, club_night, record
from web.templatetags.site import card_name
from web.words import card_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(make_user: Any) -> Night:
    return club_night(make_user)


def client(user: Any | None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def visible_text(html: str) -> str:
    """The words a person sees: no tags, attributes or datalist options."""
    html = re.sub(r"<datalist.*?</datalist>", " ", html, flags=re.S)
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def state_of(night: Night) -> engine.GameState:
    return store.load_state(Game.objects.get(pk=night.game.pk))


class Post:
    """Form posts as the page sends them: each with a fresh form key and the version shown."""

    def __init__(self, night: Night, user: Any, *, htmx: bool = False) -> None:
        self.night, self.client, self.htmx, self.n = night, client(user), htmx, 0

    def __call__(self, action: str, key: str | None = None, **fields: Any) -> Any:
        self.n += 1
        data = {
            "action": action,
            "version": str(Game.objects.get(pk=self.night.game.pk).version),
            "idempotency_key": key or f"formkey-{self.n:04d}",
            **{k: str(v) for k, v in fields.items()},
        }
        headers = {"HTTP_HX_REQUEST": "true"} if self.htmx else {}
        return self.client.post(self.night.url, data, **headers)


# --- who may open it ------------------------------------------------------------------


def test_directors_and_scorekeepers_open_the_page(night: Night) -> None:
    for user in (night.director, night.scorekeeper):
        page = client(user).get(night.url)
        assert page.status_code == 200
        text = visible_text(page.content.decode())
        assert "Table 1 · round 1" in text and "Autumn Open" in text
        assert "Hand 1: Ann deals 7 cards each." in text
        assert 'name="upcard"' in page.content.decode()


def test_players_strangers_and_other_clubs_directors_are_refused(night: Night, make_user: Any) -> None:
    other = Club.objects.create(name="Hilltop", slug="hilltop")
    rival = make_user("rita")
    Membership.objects.create(club=other, user=rival, role=Membership.Role.DIRECTOR)
    for user in (night.player, rival, make_user("stan")):
        page = client(user).get(night.url)
        assert page.status_code == 403
        assert "Only the club's directors and scorekeepers" in visible_text(page.content.decode())
        assert client(user).post(night.url, {"action": "deal", "upcard": "7h"}).status_code == 403
    assert client(None).get(night.url).status_code == 302
    assert client(None).get(night.url)["Location"].startswith("/login/?next=/tables/")
    assert client(None).post(night.url, {"action": "deal", "upcard": "7h"}).status_code == 302
    assert Game.objects.get(pk=night.game.pk).version == 1  # nothing was recorded


def test_an_unknown_table_is_a_404_and_an_unpublished_round_says_so(night: Night) -> None:
    assert client(night.director).get("/tables/999/record").status_code == 404
    draft = Round.objects.create(tournament=night.tournament, number=2, method="manual", seed="s")
    table = Table.objects.create(round=draft, number=1)
    page = client(night.scorekeeper).get(f"/tables/{table.pk}/record")
    assert page.status_code == 200
    assert "Round 2 is not published yet" in visible_text(page.content.decode())
    assert b'name="action"' not in page.content
    refused = client(night.scorekeeper).post(f"/tables/{table.pk}/record", {"action": "deal"})
    assert refused.status_code == 409 and b"not published yet" in refused.content


def test_a_club_game_outside_a_tournament_has_its_own_page(night: Night, make_user: Any) -> None:
    owner = make_user("olga")
    created = new_game(owner, [services.SeatSpec("Eve"), services.SeatSpec("Fay")], mode="physical")
    ClubGame.objects.create(club=night.club, game=created.game)
    url = f"/games/{created.game.pk}/record"
    assert client(night.scorekeeper).get(url).status_code == 200
    assert client(owner).get(url).status_code == 200
    assert client(night.player).get(url).status_code == 403
    assert client(None).get(url).status_code == 302
    assert client(night.director).get("/games/999/record").status_code == 404
    # a tournament table's game is recorded from its table's page
    moved = client(night.director).get(f"/games/{night.game.pk}/record")
    assert moved.status_code == 302 and moved["Location"] == night.url
    response = client(night.scorekeeper).post(
        url, {"action": "deal", "upcard": "KD", "version": "1", "idempotency_key": "club-game-deal"}
    )
    assert response.status_code == 303 and response["Location"] == url
    assert store.load_state(Game.objects.get(pk=created.game.pk)).status == "playing"


# --- recording --------------------------------------------------------------------------


def test_a_hand_recorded_move_by_move_with_plain_posts(night: Night) -> None:
    post = Post(night, night.scorekeeper)
    dealt = post("deal", upcard="7h")
    assert dealt.status_code == 303 and dealt["Location"] == night.url
    page = post.client.get(night.url).content.decode()
    assert "Recorded: Hand 1: Ann dealt; the upcard is 7♥." in page
    assert "Bo to draw." in visible_text(page)
    # only the legal actions are offered: the stock and the pile, no discard yet
    assert 'value="draw_stock"' in page and 'value="draw_discard"' in page
    assert 'value="discard"' not in page and 'value="pass"' not in page

    assert post("draw_discard", seat=1).status_code == 303
    assert post("discard", seat=1, card="QS").status_code == 303
    assert post("draw_stock", seat=2, card="").status_code == 303
    refused = post("discard", seat=2, card="qs")
    assert refused.status_code == 400
    text = visible_text(refused.content.decode())
    assert "That player cannot be holding that card. Q♠ was already discarded by Bo in turn 1." in text
    assert "card_not_in_hand" not in text and 'data-refusal="card_not_in_hand"' in refused.content.decode()
    assert state_of(night).hand.phase == "discard"  # type: ignore[union-attr]
    assert post("knock_unseen", seat=2).status_code == 303
    assert state_of(night).status == "showdown"

    page = client(night.scorekeeper).get(night.url).content.decode()
    assert "Showdown: enter each hand as it is shown." in page
    assert page.count('value="reveal"') == 3
    assert 'value="7H"' in page  # Bo's reveal starts with the card the table saw him take
    assert post("reveal", seat=1, cards="7h 8h 9h 2c 3c 4c kd").status_code == 303
    assert post("reveal", seat=2, cards="as 2s 3s 4s 5s 6s ad").status_code == 303
    bad = post("reveal", seat=0, cards="kc kh ks 5d 6d 8d 2c")
    assert bad.status_code == 400
    assert "2♣ was shown in Bo's revealed hand." in visible_text(bad.content.decode())
    assert 'value="kc kh ks 5d 6d 8d 2c"' in bad.content.decode()  # kept to be fixed
    assert post("reveal", seat=0, cards="kc kh ks 5d 6d 8d td").status_code == 303
    state = state_of(night)
    assert state.status == "awaiting_deal"
    page = client(night.scorekeeper).get(night.url).content.decode()
    shown = re.findall(r'<td class="num score">([^<]+)</td>', page)
    assert shown == [str(score) for score in state.scores]
    assert "Hand 1 scored: Cy knocked and won." in page


def test_a_double_post_records_once(night: Night) -> None:
    post = Post(night, night.scorekeeper)
    first = post("deal", key="same-key-1", upcard="7h")
    again = post("deal", key="same-key-1", upcard="7h")
    assert first.status_code == again.status_code == 303
    assert GameEvent.objects.filter(game=night.game, type="HandDealt").count() == 1
    htmx = Post(night, night.scorekeeper, htmx=True)
    one = htmx("draw_stock", key="same-key-2", seat=1)
    two = htmx("draw_stock", key="same-key-2", seat=1)
    assert one.status_code == two.status_code == 200
    assert GameEvent.objects.filter(game=night.game, type="CardDrawn").count() == 1
    assert "Recorded: Bo drew from the stock." in two.content.decode()


def test_htmx_gets_the_panel_back_and_refusals_inline(night: Night) -> None:
    post = Post(night, night.director, htmx=True)
    answer = post("deal", upcard="zz")
    body = answer.content.decode()
    assert (
        answer.status_code == 200 and "<html" not in body and body.lstrip().startswith('<section id="record"')
    )
    assert "“zz” is not a card" in body and 'data-refusal="invalid_card"' in body
    assert post("deal", upcard="").status_code == 200
    assert Game.objects.get(pk=night.game.pk).version == 1
    ok = post("deal", upcard="10d").content.decode()
    assert "Recorded: Hand 1: Ann dealt; the upcard is 10♦." in ok
    stale = Post(night, night.director, htmx=True)
    answer = stale.client.post(
        night.url,
        {"action": "draw_stock", "seat": "1", "version": "1", "idempotency_key": "stale-form-1"},
        HTTP_HX_REQUEST="true",
    )
    assert "Someone else entered something meanwhile." in answer.content.decode()
    assert Game.objects.get(pk=night.game.pk).version == 2
    assert "It is another player" in post("draw_stock", seat=2).content.decode()
    assert "That button is not one of this page's." in visible_text(post("shuffle").content.decode())


def test_undo_asks_first_then_undoes_the_last_entry_with_its_scoring(night: Night) -> None:
    record(night, {"type": "DealHand", "upcard": "7H"})
    record(night, {"type": "DrawFromStock", "seat": 1})
    confirm = client(night.scorekeeper).get(night.url + "/undo")
    assert confirm.status_code == 200
    text = visible_text(confirm.content.decode())
    assert "Undo the last entry? Bo drew from the stock." in text
    post = Post(night, night.scorekeeper)
    assert post("undo").status_code == 303
    state = state_of(night)
    assert state.hand is not None and state.hand.phase == "draw" and state.to_move == 1
    retracted = GameEvent.objects.get(game=night.game, type="Retracted")
    assert retracted.data["count"] == 1 and "by sam" in retracted.data["reason"]
    page = client(night.scorekeeper).get(night.url).content.decode()
    assert "<s>Bo drew from the stock.</s>" in page and "Undid the last entry" in page

    # a result with its scoring goes back in one step
    record(night, {"type": "DrawFromStock", "seat": 1})
    record(night, {"type": "Knock", "seat": 1, "card": None})
    for seat, cards in ((2, "2C 3C 4C 5D 6D 7D KH"), (0, "AS 2S 3S 9D 9H 9S 8C")):
        record(night, {"type": "RevealHand", "seat": seat, "cards": cards.split()})
    record(night, {"type": "RevealHand", "seat": 1, "cards": ["AD", "2D", "3D", "4H", "5H", "6H", "JS"]})
    assert state_of(night).status == "awaiting_deal"
    assert "Bo showed" in visible_text(client(night.scorekeeper).get(night.url + "/undo").content.decode())
    assert post("undo").status_code == 303
    assert state_of(night).status == "showdown"
    assert GameEvent.objects.filter(game=night.game, type="Retracted").last().data["count"] == 2  # type: ignore[union-attr]


def test_nothing_to_undo_at_the_start(night: Night) -> None:
    page = client(night.scorekeeper).get(night.url + "/undo")
    assert "nothing to undo" in page.content.decode()
    assert Post(night, night.scorekeeper)("undo").status_code == 400


def test_the_quick_path_records_counts_as_unverified_and_hands_as_checked(night: Night) -> None:
    post = Post(night, night.scorekeeper)
    page = client(night.scorekeeper).get(night.url).content.decode()
    assert "Quick path: record only the result of hand 1" in page and "(0 to 70)" in page
    assert (
        post("result_counts", knocker=1, **{"deadwood-0": 12, "deadwood-1": 3, "deadwood-2": 20}).status_code
        == 303
    )
    scored = GameEvent.objects.get(game=night.game, type="HandScored")
    assert scored.data["verified"] is False
    page = client(night.scorekeeper).get(night.url).content.decode()
    assert "unverified" in visible_text(page)
    bad = post("result_counts", knocker="none", **{"deadwood-0": 99, "deadwood-1": 3, "deadwood-2": 2})
    assert bad.status_code == 400 and "That count is more than a hand can hold." in bad.content.decode()
    hands = {
        "hands-0": "2C 3C 4C 5D 6D 7D KH",
        "hands-1": "AS 2S 3S 9D 9H 9S 8C",
        "hands-2": "AD 2D 3D 4H 5H 6H JS",
    }
    assert post("result_hands", knocker=2, **hands).status_code == 303
    last = GameEvent.objects.filter(game=night.game, type="HandScored").last()
    assert last is not None and last.data["verified"] is True


def test_the_showdown_preview_arranges_the_hand_and_explains_what_does_not_fit(night: Night) -> None:
    for command in (
        {"type": "DealHand", "upcard": "7H"},
        {"type": "DrawFromDiscard", "seat": 1},
        {"type": "Discard", "seat": 1, "card": "QS"},
        {"type": "DrawFromStock", "seat": 2},
        {"type": "Knock", "seat": 2, "card": None},
    ):
        record(night, command)
    c = client(night.scorekeeper)
    url = night.url + "/preview"
    typing = c.get(url, {"seat": "1", "cards": "7h 8h 9h"}).content.decode()
    assert "3 of 7 cards" in typing and 'class="meld"' in typing and "Keep going" in typing
    full = c.get(url, {"seat": "1", "cards": "7h 8h 9h 2c 3c 4c", "picked": "KD"}).content.decode()
    assert 'deadwood <strong class="deadwood">10</strong>' in full and "Fits what the table has seen" in full
    clash = c.get(url, {"seat": "0", "cards": "qs 2d 3d 4d 5c 6c 7c"}).content.decode()
    assert "Q♠ was already discarded by Bo in turn 1." in clash
    missing = c.get(url, {"seat": "1", "cards": "2d 3d 4d 5c 6c 7c 8c"}).content.decode()
    assert "Bo must hold 7♥" in missing
    assert "is not a card" in c.get(url, {"seat": "1", "cards": "7h zz"}).content.decode()
    assert client(night.player).get(url, {"seat": "1"}).status_code == 403


def test_a_knockers_known_card_may_be_its_face_down_discard(night: Night) -> None:
    """Bo takes 7H from the pile, keeps it, and knocks unseen: his hand may lack 7H (then
    it is his face-down discard, and nobody else may show it)."""
    for command in (
        {"type": "DealHand", "upcard": "7H"},
        {"type": "DrawFromDiscard", "seat": 1},
        {"type": "Discard", "seat": 1, "card": "QS"},
        {"type": "DrawFromStock", "seat": 2},
        {"type": "Discard", "seat": 2, "card": "5C"},
        {"type": "DrawFromStock", "seat": 0},
        {"type": "Discard", "seat": 0, "card": "2D"},
        {"type": "DrawFromStock", "seat": 1},
        {"type": "Knock", "seat": 1, "card": None},
    ):
        record(night, command)
    page = client(night.scorekeeper).get(night.url).content.decode()
    assert "7 cards, with 7♥ unless it was the face-down discard" in visible_text(page)
    form = page[page.index('id="reveal-1"') :]
    assert 'value="7H"' in form[: form.index("</form>")]  # the field starts with what the table saw
    post = Post(night, night.scorekeeper)
    assert post("reveal", seat=1, cards="8h 9h th 2c 3c 4c kd").status_code == 303
    bad = post("reveal", seat=2, cards="7h 8d 9d 2s 3s 4s ks")
    assert bad.status_code == 400
    assert "7♥ was Bo's face-down knock discard." in visible_text(bad.content.decode())
    assert post("reveal", seat=2, cards="6h 8d 9d 2s 3s 4s ks").status_code == 303


def bo_knocks_at_gin(make_user: Any) -> Any:
    """A gin night of Ann and Bo, recorded until Bo knocks (his hand not yet shown)."""
    night = club_night(make_user, preset="gin", names=("Ann", "Bo"))
    record(night, {"type": "DealHand", "upcard": "KS"})
    record(night, {"type": "PassUpcard", "seat": 1})
    record(night, {"type": "PassUpcard", "seat": 0})
    record(night, {"type": "DrawFromStock", "seat": 1})
    record(night, {"type": "Knock", "seat": 1, "card": None})
    return night


def test_gin_layoffs_are_previewed(make_user: Any) -> None:
    night = bo_knocks_at_gin(make_user)
    record(
        night,
        {
            "type": "RevealHand",
            "seat": 1,
            "cards": ["5C", "6C", "7C", "9H", "9D", "9S", "AH", "AD", "2S", "3S"],
        },
    )
    preview = client(night.director).get(
        night.url + "/preview", {"seat": "0", "cards": "4C 8C TH JH QH KH 2H 4H 6H 8H"}
    )
    text = preview.content.decode()
    assert "Lays off 4♣ onto 5♣ 6♣ 7♣" in text and "Lays off 8♣ onto 5♣ 6♣ 7♣" in text


def test_the_preview_lays_off_onto_the_melds_the_engine_will_score(make_user: Any) -> None:
    """Ann's cards fit Bo's 2♦ 3♦ 4♦ (5♦), but Bo's melds are the ones leaving the fewest
    layoff points (docs/rules.md): 3♦ 3♥ 3♠ and Q♣ Q♦ Q♥, onto which nothing goes — the
    preview says what the scored hand will say."""
    night = bo_knocks_at_gin(make_user)
    bo = ["AC", "QC", "2D", "3D", "4D", "QD", "2H", "3H", "QH", "3S"]
    record(night, {"type": "RevealHand", "seat": 1, "cards": bo})
    ann = "5C 7C 9C 5D TD JD 4H 2S 7S TS"
    text = visible_text(
        client(night.director).get(night.url + "/preview", {"seat": "0", "cards": ann}).content.decode()
    )
    assert "Lays off" not in text and "deadwood 69" in text
    # while Ann's hand is not whole, the first best melds: 5♦ onto 2♦ 3♦ 4♦ is shown
    part = (
        client(night.director)
        .get(night.url + "/preview", {"seat": "0", "cards": "5D TD JD"})
        .content.decode()
    )
    assert "Lays off 5♦ onto 2♦ 3♦ 4♦" in visible_text(part)
    record(night, {"type": "RevealHand", "seat": 0, "cards": ann.split()})
    scored = GameEvent.objects.filter(game=night.game, type="HandScored").get()
    assert scored.data["deadwood"]["0"] == 69


# --- what the page may show -------------------------------------------------------------


def test_the_page_shows_no_card_its_recorder_may_not_know(night: Night, make_user: Any) -> None:
    """A digital club game is open to its club's recorders, who sit at no seat: the page
    shows the public view (the discard top), never a hand or the stock."""
    ann, bo = make_user("ann"), make_user("bo")
    created = new_game(
        night.director, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(user_id=bo.pk)], mode="digital"
    )
    ClubGame.objects.create(club=night.club, game=created.game)
    state = created.state
    hand = state.hand
    assert hand is not None
    hidden = [*mask_to_cards(hand.hands[0]), *mask_to_cards(hand.hands[1])]
    hidden += [engine.cards.ALL_CARDS[i] for i in hand.stock]
    page = client(night.scorekeeper).get(f"/games/{created.game.pk}/record").content.decode()
    assert "played in the browser" in page and 'name="action"' not in page
    top = engine.view(state).discard_top
    assert top is not None and card_name(top.code) in page
    for card in hidden:
        assert card_name(card.code) not in page, card
        assert f">{card_text(card.code)}<" not in page and card_text(card.code) + "." not in page
        assert re.search(rf"\b{card.code}\b", page) is None, card
    refused = client(night.scorekeeper).post(
        f"/games/{created.game.pk}/record",
        {"action": "draw_stock", "seat": "1", "version": str(state.version), "idempotency_key": "digital-1"},
    )
    assert refused.status_code == 400 and "not recorded here" in visible_text(refused.content.decode())
    assert Game.objects.get(pk=created.game.pk).version == state.version


def test_a_card_drawn_from_the_stock_is_shown_only_as_a_draw(night: Night) -> None:
    """The public log hides a stock draw's card even from the recorder's entry list; the
    recorder's view lists it among the discards (the recorder typed it)."""
    record(night, {"type": "DealHand", "upcard": "7H"})
    Post(night, night.scorekeeper)("draw_stock", seat=1, card="jc")
    page = client(night.scorekeeper).get(night.url).content.decode()
    assert "Bo drew from the stock." in page and "J♣ from the stock" not in page
    # and the player's own recorded state stays the engine's
    assert state_of(night).hand.hands[1] != 0  # type: ignore[union-attr]


def test_seat_names_follow_a_replacement(night: Night) -> None:
    game = Game.objects.get(pk=night.game.pk)
    services.submit_command(
        game=game,
        command={"type": "ReplaceSeat", "seat": 2, "name": "Dee"},
        actor=night.director,
        source=Source.WEB,
        expected_version=game.version,
    )
    text = visible_text(client(night.scorekeeper).get(night.url).content.decode())
    assert "Dee took over" in text and "Dee" in text


def test_a_knock_rami_reentry_is_asked_and_recorded(make_user: Any) -> None:
    night = club_night(make_user, preset="rami")
    record(night, {"type": "RecordHandResult", "knocker": 0, "deadwood": {"1": 100, "2": 0, "0": 0}})
    page = client(night.scorekeeper).get(night.url).content.decode()
    assert "Bo decides whether to re-enter." in page
    assert 'value="reenter"' in page and 'value="stay_out"' in page and 'value="deal"' not in page
    assert Post(night, night.scorekeeper)("stay_out", seat=1).status_code == 303
    assert GameEvent.objects.get(game=night.game, type="ReentryDecided").data["reenter"] is False
    text = visible_text(client(night.scorekeeper).get(night.url).content.decode())
    assert "Bo stayed out." in text


def test_without_javascript_check_it_shows_the_arrangement_and_records_nothing(night: Night) -> None:
    for command in (
        {"type": "DealHand", "upcard": "7H"},
        {"type": "DrawFromDiscard", "seat": 1},
        {"type": "Discard", "seat": 1, "card": "QS"},
        {"type": "DrawFromStock", "seat": 2},
        {"type": "Knock", "seat": 2, "card": None},
    ):
        record(night, command)
    version = Game.objects.get(pk=night.game.pk).version
    page = Post(night, night.scorekeeper)("check", seat=1, cards="7h 8h 9h 2c 3c 4c kd")
    html = page.content.decode()
    assert page.status_code == 200 and "<html" in html
    assert 'value="7h 8h 9h 2c 3c 4c kd"' in html and "Fits what the table has seen" in html
    assert html.count('class="meld"') == 2
    assert Game.objects.get(pk=night.game.pk).version == version


# --- refused entries keep what was chosen; a conflict is always said ---------------------


def _selected(body: str, form: str) -> str:
    """The knocker option marked selected in the quick-path form ``form`` ('' for none)."""
    section = body.split(f'class="entry {form}"', 1)[1].split("</form>", 1)[0]
    match = re.search(r'<option value="([^"]+)" selected>', section)
    return match.group(1) if match else ""


@pytest.mark.parametrize("htmx", [False, True])
def test_a_refused_quick_path_entry_keeps_every_chosen_value(night: Night, htmx: bool) -> None:
    post = Post(night, night.scorekeeper, htmx=htmx)
    hands = {"hands-0": "2C 3C 4C 5D 6D 7D KH", "hands-1": "AS 2S 3S 9D 9H 9S 8C", "hands-2": "AD 2D zz"}
    body = post("result_hands", knocker=2, **hands).content.decode()
    assert 'data-refusal="invalid_card"' in body
    assert _selected(body, "result-hands") == "2"  # Cy, not the first option
    assert 'value="AD 2D zz"' in body and 'value="AS 2S 3S 9D 9H 9S 8C"' in body
    assert _selected(body, "result-counts") == ""  # the other form is as it was
    body = post(
        "result_counts", knocker="none", **{"deadwood-0": 99, "deadwood-1": 3, "deadwood-2": 2}
    ).content
    text = body.decode()
    assert _selected(text, "result-counts") == "none"
    assert 'id="deadwood-0" name="deadwood-0"' in text and 'value="99"' in text
    assert Game.objects.get(pk=night.game.pk).version == 1


def test_a_stale_entry_says_what_the_other_phone_entered_whatever_form_it_came_from(night: Night) -> None:
    record(night, {"type": "DealHand", "upcard": "7H"})
    first, second = Post(night, night.scorekeeper, htmx=True), Post(night, night.director, htmx=True)
    seen = str(Game.objects.get(pk=night.game.pk).version)
    assert "Recorded: Bo drew from the stock." in first("draw_stock", seat=1).content.decode()
    # the second phone still shows Bo to draw: its form is gone once it is answered
    answer = second.client.post(
        night.url,
        {"action": "draw_stock", "seat": "1", "version": seen, "idempotency_key": "phone-2-draw"},
        HTTP_HX_REQUEST="true",
    )
    body = answer.content.decode()
    top = body.split('<p class="headline">', 1)[0]
    assert 'data-refusal="version_conflict"' in top  # said above the forms, not inside one
    assert "Someone else entered something meanwhile." in visible_text(top)
    assert "The other phone entered: Bo drew from the stock." in visible_text(top)
    assert Game.objects.get(pk=night.game.pk).version == int(seen) + 1
