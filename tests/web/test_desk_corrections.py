"""The desk's table page once a game is over, and a director's correction of an earlier
hand (web/desk/hands.py): the hands listed, the hand's recorded result, the
replacement checked and confirmed before it is recorded once, the corrections lists on
the desk and the public page, and who may do it."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from games.models import Game, GameEvent
from league import projection, services
from league.models import Club, Membership, Registration, Table
from tests.support.games import play

pytestmark = pytest.mark.django_db

PLAYERS = ["Ann", "Bo", "Cy"]
# Three hands from announced counts (knocker, counts by seat): Ann 26, Bo -21, Cy -5.
HANDS = [(0, [5, 10, 20]), (2, [8, 12, 3]), (0, [2, 9, 6])]
# Hand 1 corrected: Bo knocked with 3, not Ann.
CHANGED = {"Ann": "Ann -2 instead of +20", "Bo": "Bo +19 instead of -5", "Cy": "Cy -17 instead of -15"}


@pytest.fixture
def people(make_user: Callable[..., Any]) -> dict[str, Any]:
    club = Club.objects.create(name="Riverside Knock Rummy Club", slug="riverside")
    found: dict[str, Any] = {"club": club}
    for role in ("director", "scorekeeper", "player"):
        user = make_user(role)
        Membership.objects.create(club=club, user=user, role=role)
        found[role] = user
    other = Club.objects.create(name="Hilltop", slug="hilltop")
    found["other"] = make_user("other-director")
    Membership.objects.create(club=other, user=found["other"], role=Membership.Role.DIRECTOR)
    return found


def client_of(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def table_of(people: dict[str, Any], *, hands: int = 3, preset: str = "knock-rummy") -> Table:
    """Round 1 of a physical cup of three, published: one table."""
    options = {"hands": hands} if preset == "knock-rummy" else {}
    data = {"name": "Autumn Cup", "preset": preset, "options": options, "mode": "physical",
            "table_size": {"min": 3, "max": 3}, "seating": "balanced", "rounds": 2}  # fmt: skip
    tournament = services.create_tournament(people["club"], data, people["director"])
    for name in PLAYERS:
        services.set_registration_status(
            services.register(tournament, name=name), Registration.Status.CHECKED_IN
        )
    round_ = services.generate_round(tournament, people["director"])
    services.publish_round(round_, people["director"])
    return round_.tables.select_related("game").get()


def record_hands(table: Table, by: Any, hands: list[tuple[int, list[int]]] = HANDS) -> list[str]:
    """The hands recorded from counts, given by player name; the seat order of the table's game."""
    game = Game.objects.get(pk=table.game_id)
    names = [seat["name"] for seat in game.seats]
    for knocker, counts in hands:
        by_name = dict(zip(PLAYERS, counts, strict=True))
        play(game.pk, by, {"type": "RecordHandResult", "knocker": names.index(PLAYERS[knocker]),
                           "deadwood": {str(s): by_name[n] for s, n in enumerate(names)}})  # fmt: skip
    return names


def urls(table: Table) -> tuple[str, str]:
    desk = f"/tournaments/{table.round.tournament_id}/desk/tables/{table.pk}"
    return desk, f"{desk}/hands/1"


def text(response: Any) -> str:
    return response.content.decode()


def key_of(page: str) -> str:
    found = re.search(r'name="idempotency_key" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def counts_form(names: list[str], knocker: str, counts: dict[str, int], **extra: str) -> dict[str, str]:
    form = {"kind": "counts", "knocker": str(names.index(knocker)), "reason": "Bo knocked, not Ann", **extra}
    form.update({f"deadwood-{names.index(name)}": str(count) for name, count in counts.items()})
    return form


def test_a_finished_game_offers_an_adjustment_a_hand_correction_and_the_whole_last_entry_undone(
    people: dict[str, Any],
) -> None:
    table = table_of(people)
    record_hands(table, people["director"])
    desk, _ = urls(table)
    page = text(client_of(people["director"]).get(desk))
    assert "a score can still be adjusted, a hand corrected or the last entry undone" in page
    assert 'name="kind" value="adjust"' in page  # the adjustment form is there once the game is over
    assert 'name="kind" value="replace"' not in page and 'name="kind" value="abandon"' not in page
    for number in (1, 2, 3):
        assert f'href="{desk}/hands/{number}"' in page
    assert "last entry: Hand 3 entered as" in page  # the entry in words, never its event's name
    director = client_of(people["director"])
    version = Game.objects.get(pk=table.game_id).version
    undo = {"kind": "retract", "reason": "hand 3 was not played"}
    review = director.post(desk, {**undo, "idempotency_key": "k-1"})
    assert review.status_code == 200 and "Confirm the correction" in text(review)
    confirm = {**undo, "confirmed": "yes", "version": str(version), "idempotency_key": key_of(text(review))}
    done = director.post(desk, confirm)
    assert done.status_code == 302
    game = Game.objects.get(pk=table.game_id)
    assert game.status == "awaiting_deal" and game.version == version + 1
    assert GameEvent.objects.get(game=game, type="Retracted").data["count"] == 3  # result, score, game end


def test_a_finished_games_score_is_adjusted_from_the_desk(people: dict[str, Any]) -> None:
    table = table_of(people)
    names = record_hands(table, people["director"])
    desk, _ = urls(table)
    director = client_of(people["director"])
    version = Game.objects.get(pk=table.game_id).version
    form = {"kind": "adjust", "seat": str(names.index("Ann")), "points": "-40", "reason": "a misdeal penalty"}
    review = director.post(desk, {**form, "idempotency_key": "k-1"})
    assert review.status_code == 200
    director.post(
        desk, {**form, "confirmed": "yes", "version": str(version), "idempotency_key": key_of(text(review))}
    )
    game = Game.objects.get(pk=table.game_id)
    assert game.status == "finished"
    assert [e.type for e in GameEvent.objects.filter(game=game, seq__gt=version)] == [
        "ScoreAdjusted",
        "GameFinished",
    ]
    result = GameEvent.objects.filter(game=game, type="GameFinished").order_by("-seq").first()
    assert result is not None and result.data["result"]["places"][names.index("Ann")] == 2  # -14: behind Cy


def test_a_director_corrects_hand_one_of_a_finished_game(people: dict[str, Any]) -> None:
    table = table_of(people)
    names = record_hands(table, people["director"])
    desk, hand = urls(table)
    director = client_of(people["director"])
    page = text(director.get(hand))
    assert "As recorded" in page and "Ann knocked and won. Announced counts, unverified." in page
    assert page.count('name="kind"') == 2  # counts and final hands
    game = Game.objects.get(pk=table.game_id)
    version = game.version

    missing = director.post(hand, {**counts_form(names, "Bo", {"Ann": 5, "Bo": 3, "Cy": 20}), "reason": " "})
    assert missing.status_code == 400 and "a correction needs a reason" in text(missing)
    bad = director.post(hand, counts_form(names, "Bo", {"Ann": 5, "Bo": 3, "Cy": 900}))
    assert bad.status_code == 400 and "count of 900 is more than a hand can hold" in text(bad)
    assert 'value="900"' in text(bad)  # what was typed is kept
    same = director.post(hand, counts_form(names, "Ann", {"Ann": 5, "Bo": 10, "Cy": 20}))
    assert same.status_code == 400 and "the result the hand already has" in text(same)
    nobody = director.post(hand, {**counts_form(names, "Bo", {"Ann": 5, "Bo": 3, "Cy": 20}), "knocker": "9"})
    assert nobody.status_code == 400 and "Choose who knocked" in text(nobody)

    form = counts_form(names, "Bo", {"Ann": 5, "Bo": 3, "Cy": 20}, idempotency_key="k-2")
    review = director.post(hand, form)
    assert review.status_code == 200, text(review)[:3000]
    shown = text(review)
    change = ", ".join(CHANGED[name] for name in names)  # in seat order
    assert f"Bo knocked, not Ann — {change}" in shown
    assert "Ann: 4" in shown and "Bo: 3" in shown and "Cy: -7" in shown
    assert "The game stays over: Ann first." in shown
    assert Game.objects.get(pk=game.pk).version == version  # nothing recorded yet
    confirm = {**form, "confirmed": "yes", "version": str(version), "idempotency_key": key_of(shown)}
    done = director.post(hand, confirm, follow=True)
    assert done.status_code == 200
    assert "Table 1: hand 1 corrected — Bo knocked, not Ann" in text(done)
    director.post(hand, confirm)  # the same confirmation again: recorded once
    corrected = GameEvent.objects.filter(game=game, type="HandCorrected")
    assert corrected.count() == 1 and corrected.get().actor == people["director"]
    game = Game.objects.get(pk=game.pk)
    assert game.status == "finished" and game.version == version + 3

    page = text(director.get(desk))
    assert f"director</strong> corrected a hand (hand 1: Bo knocked, not Ann — {change})" in page

    projection.refresh(table.round.tournament_id)
    public = text(Client().get(f"/tournaments/{table.round.tournament_id}/"))
    assert "Hand corrected" in public
    assert f"Hand 1 of table 1 corrected by director: Bo knocked, not Ann — {change}." in public


def test_the_hands_replacement_may_be_final_hands(people: dict[str, Any]) -> None:
    table = table_of(people)
    names = record_hands(table, people["director"])
    _, hand = urls(table)
    director = client_of(people["director"])
    cards = {"Ann": "AS 2S 3S 4S 5S 6S 9D", "Bo": "KC KD KH 2C 3C 4C 9C", "Cy": "QC QD QH QS 7H 8H 9H"}
    form = {"kind": "hands", "knocker": str(names.index("Cy")), "reason": "the hands were kept"}
    form.update({f"hands-{names.index(n)}": c for n, c in cards.items()})
    review = director.post(hand, {**form, "idempotency_key": "k-1"})
    assert review.status_code == 200, text(review)[:3000]
    assert "Cy knocked, not Ann" in text(review)
    wrong = director.post(hand, {**form, f"hands-{names.index('Bo')}": "KC KD KH 2C 3C 4C AS"})
    assert wrong.status_code == 400 and "twice" in text(wrong)


def test_a_correction_that_reopens_the_game_says_so(people: dict[str, Any]) -> None:
    table = table_of(people, preset="knock-rummy-hoyle")
    names = record_hands(table, people["director"], [(0, [0, 30, 30])])  # Ann's rum: 110, over at once
    assert Game.objects.get(pk=table.game_id).status == "finished"
    desk, hand = urls(table)
    director = client_of(people["director"])
    form = counts_form(names, "Ann", {"Ann": 2, "Bo": 30, "Cy": 30}, reason="Ann held the 2 of clubs")
    review = director.post(hand, {**form, "idempotency_key": "k-1"})
    assert review.status_code == 200, text(review)[:2000]
    assert "The game is no longer over: the table plays on from hand 2" in text(review)
    version = Game.objects.get(pk=table.game_id).version
    director.post(
        hand, {**form, "confirmed": "yes", "version": str(version), "idempotency_key": key_of(text(review))}
    )
    assert Game.objects.get(pk=table.game_id).status == "awaiting_deal"
    page = text(director.get(desk))
    assert "The game is over" not in page and 'name="kind" value="abandon"' in page


def test_only_the_clubs_director_opens_a_hands_correction(people: dict[str, Any]) -> None:
    table = table_of(people)
    names = record_hands(table, people["director"])
    _, hand = urls(table)
    form = {**counts_form(names, "Bo", {"Ann": 5, "Bo": 3, "Cy": 20}), "confirmed": "yes"}
    for who in ("scorekeeper", "player", "other"):
        client = client_of(people[who])
        assert client.get(hand).status_code == 403
        assert client.post(hand, form).status_code == 403
    anonymous = Client().get(hand)
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    assert not GameEvent.objects.filter(type="HandCorrected").exists()
    director = client_of(people["director"])
    assert director.get(hand.replace("/hands/1", "/hands/4")).status_code == 404


def test_a_stale_confirmation_records_nothing(people: dict[str, Any]) -> None:
    table = table_of(people, hands=4)
    names = record_hands(table, people["director"])
    _, hand = urls(table)
    director = client_of(people["director"])
    version = Game.objects.get(pk=table.game_id).version
    record_hands(table, people["scorekeeper"], [(1, [9, 0, 9])])  # hand 4, meanwhile
    form = {
        **counts_form(names, "Bo", {"Ann": 5, "Bo": 3, "Cy": 20}),
        "confirmed": "yes",
        "version": str(version),
    }
    stale = director.post(hand, {**form, "idempotency_key": "k-9"}, follow=True)
    assert "recorded something while you were confirming" in text(stale)
    assert not GameEvent.objects.filter(type="HandCorrected").exists()


def test_a_game_with_a_hand_in_play_lists_its_hands_without_a_correction(people: dict[str, Any]) -> None:
    table = table_of(people, hands=4)
    names = record_hands(table, people["director"], HANDS[:1])
    play(table.game_id, people["director"], {"type": "DealHand", "upcard": "7H"})
    desk, hand = urls(table)
    director = client_of(people["director"])
    page = text(director.get(desk))
    assert "Ann knocked and won" in page and f'href="{hand}"' not in page
    assert "its earlier hands can be corrected once it is scored" in page
    closed = director.post(hand, counts_form(names, "Bo", {"Ann": 5, "Bo": 3, "Cy": 20}))
    assert closed.status_code == 409 and not GameEvent.objects.filter(type="HandCorrected").exists()


HOSTILE = ["", " ", "a\x00b", "x" * 5000, "-1", "1e999", "9" * 5000, "<b>é</b>", "none", "[]"]


def test_hostile_values_are_refused_plainly_never_a_500(people: dict[str, Any]) -> None:
    table = table_of(people)
    names = record_hands(table, people["director"])
    _, hand = urls(table)
    director = client_of(people["director"])
    base = counts_form(names, "Bo", {"Ann": 5, "Bo": 3, "Cy": 20})
    fields = ["kind", "knocker", "deadwood-0", "hands-1", "reason", "version", "confirmed"]
    for n, (name, value) in enumerate((f, v) for f in fields for v in HOSTILE):
        response = director.post(hand, {**base, name: value, "idempotency_key": f"hostile-{n:04}"})
        assert response.status_code < 500, (name, value[:20])
    reasons = [str(e.data.get("reason", "")) for e in GameEvent.objects.filter(game_id=table.game_id)]
    assert not any("\x00" in reason for reason in reasons)


def test_a_corrected_games_other_pages_tell_it(people: dict[str, Any]) -> None:
    """The replay (every step), the score sheet and the scorekeeper's page of a game with a
    corrected hand: each answers, and says the hand was corrected."""
    table = table_of(people)
    names = record_hands(table, people["director"])
    _, hand = urls(table)
    director = client_of(people["director"])
    version = Game.objects.get(pk=table.game_id).version
    form = {
        **counts_form(names, "Bo", {"Ann": 5, "Bo": 3, "Cy": 20}),
        "confirmed": "yes",
        "version": str(version),
    }
    director.post(hand, {**form, "idempotency_key": "k-1"})
    game = Game.objects.get(pk=table.game_id)
    assert game.version == version + 3
    viewer = Client()
    for step in range(1, game.version + 1):
        assert viewer.get(f"/games/{game.pk}/?step={step}").status_code == 200
    replay = text(viewer.get(f"/games/{game.pk}/?hand=1"))  # listed with hand 1's moves
    assert "Hand 1 corrected: Bo knocked, announced counts (Bo knocked, not Ann)." in replay
    record = client_of(people["scorekeeper"]).get(f"/tables/{table.pk}/record")
    assert record.status_code == 200 and "Hand 1 corrected" in text(record)


def test_the_correction_pages_are_labelled_and_named(people: dict[str, Any]) -> None:
    """The accessibility audit of every page (tests/web/test_html_accessibility.py) on the
    pages of a correction: the table's page, a hand's page, a refusal and the confirmation."""
    from tests.web.test_html_accessibility import audit

    table = table_of(people)
    names = record_hands(table, people["director"])
    desk, hand = urls(table)
    director = client_of(people["director"])
    form = counts_form(names, "Bo", {"Ann": 5, "Bo": 3, "Cy": 20})
    pages = {
        "table": director.get(desk),
        "hand": director.get(hand),
        "refused": director.post(hand, {**form, "reason": ""}),
        "confirm": director.post(hand, form),
    }
    for name, response in pages.items():
        assert response.status_code in (200, 400), name
        assert audit(text(response)) == [], name


def test_the_desk_offers_no_undo_the_engine_would_refuse(people: dict[str, Any]) -> None:
    """A digital game just dealt: undoing the deal is never allowed (it would deal again
    from a fresh shuffle), so the table's page says why instead of offering it; and its
    hands come from play: none may be corrected."""
    from games.services import SeatSpec
    from league.models import ClubGame
    from tests.support.games import new_game

    table = table_of(people)
    seats = [SeatSpec(name="Ann", user_id=people["player"].pk), SeatSpec(name="Bo"), SeatSpec(name="Cy")]
    game = new_game(people["director"], seats).game
    ClubGame.objects.create(club=people["club"], game=game)
    Table.objects.filter(pk=table.pk).update(game=game)
    assert GameEvent.objects.filter(game=game).last().type == "HandDealt"  # the system's deal
    desk, _ = urls(table)
    page = text(client_of(people["director"]).get(desk))
    assert 'name="kind" value="retract"' not in page
    assert "A digital deal cannot be undone." in page
    assert "No hand has been scored yet." in page
