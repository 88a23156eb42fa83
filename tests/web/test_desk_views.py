"""The director's desk, page by page and role by role: what each role is shown, what is
refused (the 403 page, nothing changed), and every desk action through plain form posts
(POST, redirect, GET), each safe to repeat."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from html import escape
from typing import Any

import pytest
from django.test import Client

import engine
import engine.bots
from games import store
from games.models import Game, GameEvent
from league import limits, services
from league.models import Club, Membership, Player, Registration, Round, Table, Tournament
from league.seating.notes import note_of
from league.wording import notes_text, round_names
from web.models import FormPost
from web.refusals import words as refusal_words

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo"]


@pytest.fixture
def club() -> Club:
    return Club.objects.create(name="Riverside Knock Rummy Club", slug="riverside")


@pytest.fixture
def people(club: Club, make_user: Callable[..., Any]) -> dict[str, Any]:
    """A director, a scorekeeper and a player of the club, and another club's director."""
    found = {}
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


@pytest.fixture
def director(people: dict[str, Any]) -> Client:
    return client_of(people["director"])


def make_tournament(club: Club, by: Any, **extra: Any) -> Tournament:
    data = {
        "name": "Autumn Cup",
        "preset": "knock-rummy",
        "table_size": {"min": 3, "max": 4},
        "seating": "balanced",
        "rounds": 3,
        **extra,
    }
    return services.create_tournament(club, data, by)


def key(n: int | str) -> str:
    return f"form-key-{n:0>8}"


def text(response: Any) -> str:
    return response.content.decode()


def shown_version(client: Client, desk: str, pick: int) -> str:
    """The draft's version as the desk shows it once a player is picked (its edit forms)."""
    page = text(client.get(f"{desk}?pick={pick}"))
    versions = set(re.findall(r'name="version" value="([0-9a-f]{16})"', page))
    assert len(versions) == 1, versions
    return versions.pop()


def follow(client: Client, url: str, data: dict[str, Any]) -> Any:
    response = client.post(url, data, follow=True)
    assert response.status_code == 200, text(response)[:2000]
    return response


@pytest.fixture
def checked_in(club: Club, people: dict[str, Any]) -> Tournament:
    """A tournament of ten players at tables of 3-4, all checked in."""
    tournament = make_tournament(club, people["director"])
    for name in NAMES:
        registration = services.register(tournament, name=name)
        services.set_registration_status(registration, Registration.Status.CHECKED_IN)
    return tournament


# --- roles --------------------------------------------------------------------------------


def test_the_club_page_lists_tournaments_and_players_for_everyone_and_desk_links_for_directors(
    club: Club, people: dict[str, Any]
) -> None:
    tournament = make_tournament(club, people["director"])
    Player.objects.create(club=club, name="Zoe")
    desk = f"/tournaments/{tournament.pk}/desk"
    for who in (None, "player", "scorekeeper", "other"):
        page = client_of(people.get(who or "")).get("/clubs/riverside/")
        assert page.status_code == 200
        assert "Autumn Cup" in text(page) and "Zoe" in text(page)
        assert desk not in text(page) and "/clubs/riverside/tournaments/new" not in text(page)
    page = client_of(people["director"]).get("/clubs/riverside/")
    assert desk in text(page) and "/clubs/riverside/tournaments/new" in text(page)
    assert client_of(None).get("/clubs/nowhere/").status_code == 404


@pytest.mark.parametrize("who", ["scorekeeper", "player", "other"])
def test_only_the_clubs_directors_open_the_desk_and_its_forms(
    club: Club, people: dict[str, Any], who: str
) -> None:
    tournament = make_tournament(club, people["director"])
    client = client_of(people[who])
    for url in (
        f"/tournaments/{tournament.pk}/desk",
        f"/tournaments/{tournament.pk}/edit",
        "/clubs/riverside/tournaments/new",
        f"/tournaments/{tournament.pk}/desk/close",
    ):
        refused = client.get(url)
        assert refused.status_code == 403, url
        assert "You may not open this page" in text(refused)
        assert "Only the club&#x27;s directors may open this page." in text(refused)
    posted = client.post(f"/tournaments/{tournament.pk}/desk/register", {"name": "Mallory"})
    assert posted.status_code == 403
    assert not Registration.objects.exists() and not Player.objects.filter(name="Mallory").exists()
    assert client.post(f"/tournaments/{tournament.pk}/desk/rounds").status_code == 403
    assert not Round.objects.exists()


def test_anonymous_visitors_are_sent_to_sign_in(club: Club, people: dict[str, Any]) -> None:
    tournament = make_tournament(club, people["director"])
    for url in (f"/tournaments/{tournament.pk}/desk", "/clubs/riverside/tournaments/new"):
        response = client_of(None).get(url)
        assert response.status_code == 302 and response["Location"].startswith("/login/?next=")
    response = client_of(None).post(f"/tournaments/{tournament.pk}/desk/register", {"name": "Mallory"})
    assert response.status_code == 302 and not Registration.objects.exists()


def test_the_director_sees_the_desk(club: Club, people: dict[str, Any], director: Client) -> None:
    tournament = make_tournament(club, people["director"])
    page = director.get(f"/tournaments/{tournament.pk}/desk")
    assert page.status_code == 200
    body = text(page)
    assert "Registration desk" in body and tournament.seed in body
    assert 'name="idempotency_key"' in body
    assert director.get("/tournaments/999999/desk").status_code == 404


# --- the tournament form ------------------------------------------------------------------


def form_data(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "Winter Open",
        "kind": "tournament",
        "preset": "knock-rummy",
        "options_for": "knock-rummy",
        "mode": "physical",
        "table_min": "3",
        "table_max": "4",
        "seating": "balanced",
        "rounds": "4",
        "bot": "",
        "idempotency_key": key(1),
    }
    import engine

    for name, value in engine.get_ruleset("knock-rummy").options().items():
        if isinstance(value, bool):
            if value:
                data[f"opt_{name}"] = "on"
        elif name == "cards_dealt":
            data[f"opt_{name}"] = ", ".join(f"{p}:{c}" for p, c in value.items())
        else:
            data[f"opt_{name}"] = "" if value is None else str(value)
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def field_errors(html: str, field: str) -> str:
    """The error paragraphs inside the form field ``field``'s wrapper."""
    match = re.search(rf'id="id_{field}".*?(?=<div class="field|</fieldset>|<details|$)', html, re.S)
    assert match, field
    return " ".join(re.findall(r'<p class="error" role="alert">(.*?)</p>', match.group(0)))


def test_the_form_shows_every_option_of_the_preset_with_its_default(club: Club, director: Client) -> None:
    page = director.get("/clubs/riverside/tournaments/new")
    body = text(page)
    assert page.status_code == 200
    assert 'name="opt_knocker_penalty"' in body and "Default: 10" in body
    assert "Default: 2:10, 3:7, 4:7, 5:7" in body
    gin = director.get("/clubs/riverside/tournaments/new?preset=gin-rummy", HTTP_HX_REQUEST="true")
    assert gin.status_code == 200 and "<html" not in text(gin)
    assert 'id="rule-options"' in text(gin) and 'value="gin-rummy"' in text(gin)
    # gin's knock limit is 10 by default, and shown as such
    assert re.search(r'name="opt_knock_max_deadwood"[^>]*value="10"', text(gin))


def test_rule_errors_appear_next_to_their_fields_and_nothing_is_created(club: Club, director: Client) -> None:
    bad = director.post("/clubs/riverside/tournaments/new", form_data(opt_jokers="5"))
    assert bad.status_code == 400
    assert "jokers must be 0, 1 or 2" in field_errors(text(bad), "opt_jokers")
    too_big = director.post("/clubs/riverside/tournaments/new", form_data(table_max="6"))
    assert too_big.status_code == 400
    assert "at most 5 players" in field_errors(text(too_big), "table_max")
    no_rounds = director.post("/clubs/riverside/tournaments/new", form_data(rounds=""))
    assert "needs its number of rounds" in field_errors(text(no_rounds), "rounds")
    deal = director.post("/clubs/riverside/tournaments/new", form_data(opt_cards_dealt="lots"))
    assert "players:cards" in field_errors(text(deal), "opt_cards_dealt")
    assert not Tournament.objects.exists()


def test_changing_the_preset_without_javascript_first_shows_its_options(club: Club, director: Client) -> None:
    response = director.post("/clubs/riverside/tournaments/new", form_data(preset="gin-rummy"))
    assert response.status_code == 200 and not Tournament.objects.exists()
    assert "now those of gin-rummy" in text(response) and 'value="Winter Open"' in text(response)
    assert re.search(r'name="opt_knock_max_deadwood"[^>]*value="10"', text(response))


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"table_min": "4", "table_max": "3"}, "table_max"),
        ({"table_max": "6"}, "table_max"),
        ({"rounds": ""}, "rounds"),
    ],
)
def test_the_form_and_the_services_refuse_settings_with_the_one_check_of_league_limits(
    club: Club, people: dict[str, Any], director: Client, changes: dict[str, str], field: str
) -> None:
    """league.limits.check_table_size and check_rounds_given are the one statement of each
    rule: the form refuses what the API refuses (the same code and params), under the field
    the check names, worded by web.refusals (a limit worded nowhere: its own message)."""
    data = form_data(**changes)
    body = {
        "name": data["name"],
        "table_size": {"min": int(data["table_min"]), "max": int(data["table_max"])},
        "rounds": int(data["rounds"]) if data["rounds"] else None,
    }
    with pytest.raises(services.LeagueError) as refused:
        services.create_tournament(club, body, people["director"])
    said = refused.value.message
    shown = refusal_words(refused.value)
    if field == "rounds":
        assert shown == said  # invalid_request: worded nowhere
        shown = said[0].upper() + said[1:] + "."
    else:
        assert shown.startswith("Those table sizes cannot be seated. ") and shown != said
    page = director.post("/clubs/riverside/tournaments/new", data)
    assert page.status_code == 400
    assert field_errors(text(page), field) == escape(shown)
    assert not Tournament.objects.exists()


def test_the_desk_s_text_fields_take_their_lengths_from_league_limits(
    checked_in: Tournament, people: dict[str, Any], director: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "REASON_LENGTH", 321)
    monkeypatch.setattr(limits, "PLAYER_NAME_LENGTH", 77)
    round_ = services.generate_round(checked_in, people["director"])
    services.publish_round(round_, people["director"])
    desk = text(director.get(f"/tournaments/{checked_in.pk}/desk"))
    assert re.search(r'name="force_reason" required maxlength="321"', desk)
    assert re.search(r'id="add-name" [^>]*maxlength="77"', desk)
    table = round_.tables.get(number=1)
    corrections = text(director.get(f"/tournaments/{checked_in.pk}/desk/tables/{table.pk}"))
    reasons = re.findall(r'name="reason" required maxlength="(\d+)"', corrections)
    assert reasons and set(reasons) == {"321"}
    assert 'name="name" required maxlength="77"' in corrections
    assert 'maxlength="500"' not in desk + corrections and 'maxlength="80"' not in desk + corrections


def test_the_bot_setting_offers_the_levels_and_keeps_the_bot(club: Club, director: Client) -> None:
    body = text(director.get("/clubs/riverside/tournaments/new"))
    options = re.findall(r'<option value="(\w*)"[^>]*>([^<]*)</option>', body)
    levels = [(value, label.split(":")[0]) for value, label in options if value in engine.bots.BOTS]
    assert levels[:3] == [("greedy", "Easy"), ("steady", "Normal"), ("expert", "Expert")]
    assert "guesses your hand" in body  # each level says how it plays
    data = form_data(mode="digital", bots="on", bot="expert")
    assert director.post("/clubs/riverside/tournaments/new", data).status_code == 302
    assert Tournament.objects.get().bot == "expert"


def test_creating_a_tournament_twice_with_one_form_creates_it_once(club: Club, director: Client) -> None:
    data = form_data(opt_knocker_penalty="15")
    first = director.post("/clubs/riverside/tournaments/new", data)
    tournament = Tournament.objects.get()
    assert first.status_code == 302 and first["Location"] == f"/tournaments/{tournament.pk}/desk"
    again = director.post("/clubs/riverside/tournaments/new", data)
    assert again.status_code == 302 and again["Location"] == first["Location"]
    assert Tournament.objects.count() == 1
    assert tournament.options["knocker_penalty"] == 15 and tournament.table_max == 4
    assert "Knocker&#x27;s penalty: 15" in text(director.get(first["Location"]))  # the option in words


def test_editing_settings_and_the_lock_once_a_round_exists(
    checked_in: Tournament, director: Client, people: dict[str, Any]
) -> None:
    url = f"/tournaments/{checked_in.pk}/edit"
    edit_page = text(director.get(url))
    assert 'value="Autumn Cup"' in edit_page and re.search(r'name="kind"[^>]*disabled', edit_page)
    saved = director.post(url, form_data(name="Autumn Cup 2026", rounds="3", idempotency_key=key(2)))
    assert saved.status_code == 302
    checked_in.refresh_from_db()
    assert checked_in.name == "Autumn Cup 2026" and checked_in.table_max == 4
    services.generate_round(checked_in, people["director"])
    page = text(director.get(url))
    assert "only the name, the number of rounds and the scoring can change" in page
    assert re.search(r'name="table_max"[^>]*disabled', page)
    # a posted table size is ignored (the field is disabled): only the name changes
    director.post(
        url, form_data(name="Autumn Cup (final)", table_max="5", rounds="3", idempotency_key=key(3))
    )
    checked_in.refresh_from_db()
    assert checked_in.name == "Autumn Cup (final)" and checked_in.table_max == 4


# --- the registration desk ----------------------------------------------------------------


def test_registering_by_name_checking_in_and_dropping_out(
    club: Club, people: dict[str, Any], director: Client
) -> None:
    tournament = make_tournament(club, people["director"])
    Player.objects.create(club=club, name="Quinn")
    desk = f"/tournaments/{tournament.pk}/desk"
    page = text(director.get(desk))
    assert '<datalist id="club-players"><option value="Quinn">' in page
    url = f"{desk}/register"
    added = follow(director, url, {"name": "Quinn", "idempotency_key": key(1)})
    assert "Quinn registered." in text(added)
    follow(director, url, {"name": "Quinn", "idempotency_key": key(1)})  # the same form again
    assert Registration.objects.filter(tournament=tournament).count() == 1
    refused = follow(director, url, {"name": "Quinn", "idempotency_key": key(2)})
    assert "already registered" in text(refused)
    follow(director, url, {"name": "Rita", "check_in": "on", "idempotency_key": key(3)})
    rita = Registration.objects.get(player__name="Rita")
    assert rita.status == "checked_in" and Player.objects.filter(club=club, name="Rita").exists()
    quinn = Registration.objects.get(player__name="Quinn")
    status_url = f"{desk}/registrations/{quinn.pk}"
    follow(director, status_url, {"status": "checked_in", "idempotency_key": key(4)})
    quinn.refresh_from_db()
    assert quinn.status == "checked_in"
    follow(director, status_url, {"status": "registered", "idempotency_key": key(5)})
    quinn.refresh_from_db()
    assert quinn.status == "registered"
    bad = follow(director, status_url, {"status": "asleep", "idempotency_key": key(6)})
    assert "status must be one of" in text(bad)
    quinn.refresh_from_db()
    assert quinn.status == "registered"
    follow(director, f"{desk}/check-in-all", {"idempotency_key": key(7)})
    assert set(Registration.objects.values_list("status", flat=True)) == {"checked_in"}


def test_late_entry_and_drop_out_after_a_round(
    checked_in: Tournament, people: dict[str, Any], director: Client
) -> None:
    round_ = services.generate_round(checked_in, people["director"])
    services.publish_round(round_, people["director"])
    desk = f"/tournaments/{checked_in.pk}/desk"
    page = text(director.get(desk))
    assert "Late entry: plays from round" in page and "Drop out" in page
    follow(
        director,
        f"{desk}/register",
        {"name": "Kim", "from_round": "2", "check_in": "on", "idempotency_key": key(1)},
    )
    kim = Registration.objects.get(player__name="Kim")
    assert kim.from_round == 2 and kim.status == "checked_in"
    ann = Registration.objects.get(player__name="Ann")
    # confirmed on web.desk.door's step (tests/web/test_door.py)
    dropped = {"status": "dropped", "confirmed": "yes", "idempotency_key": key(2)}
    follow(director, f"{desk}/registrations/{ann.pk}", dropped)
    ann.refresh_from_db()
    assert ann.status == "dropped" and ann.dropped_after == 1
    assert "after round 1" in text(director.get(desk))


# --- rounds -------------------------------------------------------------------------------


def test_the_desk_says_why_a_round_cannot_be_generated(
    club: Club, people: dict[str, Any], director: Client
) -> None:
    tournament = make_tournament(club, people["director"])
    desk = f"/tournaments/{tournament.pk}/desk"
    page = text(director.get(desk))
    assert "Only 0 players are checked in for round 1; a table needs at least 3." in page
    assert "Generate round 1" not in page
    for name in ("Ann", "Bo"):
        services.set_registration_status(services.register(tournament, name=name), "checked_in")
    page = text(director.get(desk))
    assert "Only 2 players are checked in" in page
    # a post anyway is refused with the same reason, and nothing is written
    refused = follow(director, f"{desk}/rounds", {"idempotency_key": key(1)})
    assert not Round.objects.exists()
    assert '<li class="error">Too few players to fill a table. Only 2 players are checked in' in text(refused)


def test_generate_preview_swap_in_two_clicks_and_publish(checked_in: Tournament, director: Client) -> None:
    desk = f"/tournaments/{checked_in.pk}/desk"
    generated = follow(director, f"{desk}/rounds", {"idempotency_key": key(1)})
    assert "Round 1 generated as a draft: tables of 4+3+3." in text(generated)
    again = follow(director, f"{desk}/rounds", {"idempotency_key": key(1)})  # the same form again
    assert "Round 1 generated as a draft" in text(again) and "still a draft" not in text(again)
    assert Round.objects.count() == 1
    round_ = Round.objects.get()
    page = text(director.get(desk))
    assert '<span id="table-sizes">4+3+3</span>' in page
    assert round_.notes
    for note in notes_text(map(note_of, round_.notes), round_names(round_.request)):
        assert note.replace("'", "&#x27;") in page
    tables = list(round_.tables.order_by("number"))
    a = tables[0].seats.order_by("position").first().player
    b = tables[1].seats.order_by("position").first().player
    # the first click picks a player: every other player becomes a swap button
    picked = text(director.get(f"{desk}?pick={a.pk}"))
    assert f"Swap {a.name} with {b.name}" in picked and f"Move {a.name} here" in picked
    version = shown_version(director, desk, a.pk)
    swapped = follow(
        director,
        f"{desk}/rounds/1/edit",
        {"op": "swap", "player": a.pk, "with": b.pk, "version": version, "idempotency_key": key(2)},
    )
    assert f"swapped {a.name} and {b.name}" in text(swapped)
    follow(  # the same form again: answered as the first time, not swapped back
        director,
        f"{desk}/rounds/1/edit",
        {"op": "swap", "player": a.pk, "with": b.pk, "version": version, "idempotency_key": key(2)},
    )
    # (an edit writes the round's tables again)
    assert round_.tables.get(number=1).seats.filter(player=b).exists()
    assert round_.tables.get(number=2).seats.filter(player=a).exists()
    assert "differ from the generated seating: say why" in text(swapped)
    refused = follow(director, f"{desk}/rounds/1/publish", {"idempotency_key": key(3)})
    assert "say why" in text(refused)
    round_.refresh_from_db()
    assert round_.status == "draft"
    published = follow(
        director,
        f"{desk}/rounds/1/publish",
        {"edit_reason": "Ann and Bo came together", "idempotency_key": key(4)},
    )
    assert "Round 1 published: 3 tables can start playing." in text(published)
    follow(director, f"{desk}/rounds/1/publish", {"edit_reason": "again", "idempotency_key": key(4)})
    round_.refresh_from_db()
    assert round_.status == "published" and round_.edit_reason == "Ann and Bo came together"
    assert Game.objects.count() == 3
    page = text(director.get(desk))
    assert "The last round is still being played. Round 2 can be generated" in page
    assert "Why generate round 2 now?" in page
    assert page.count('data-status="playing"') == 3


def test_moving_a_player_and_giving_a_bye(
    checked_in: Tournament, people: dict[str, Any], director: Client
) -> None:
    round_ = services.generate_round(checked_in, people["director"])
    desk = f"/tournaments/{checked_in.pk}/desk"
    table = round_.tables.get(number=1)
    mover = table.seats.order_by("position").first().player
    follow(
        director,
        f"{desk}/rounds/1/edit",
        {
            "op": "move",
            "player": mover.pk,
            "table": "bye",
            "version": shown_version(director, desk, mover.pk),
            "idempotency_key": key(1),
        },
    )
    round_.refresh_from_db()
    assert round_.byes == [mover.pk]
    follow(
        director,
        f"{desk}/rounds/1/edit",
        {
            "op": "move",
            "player": mover.pk,
            "table": "2",
            "version": shown_version(director, desk, mover.pk),
            "idempotency_key": key(2),
        },
    )
    round_.refresh_from_db()
    assert round_.byes == [] and round_.tables.get(number=2).seats.filter(player=mover).exists()
    bad = follow(
        director,
        f"{desk}/rounds/1/edit",
        {
            "op": "move",
            "player": mover.pk,
            "table": "9",
            "version": shown_version(director, desk, mover.pk),
            "idempotency_key": key(3),
        },
    )
    assert "there is no table 9" in text(bad)


def test_round_control_polls_each_tables_live_status(
    checked_in: Tournament, people: dict[str, Any], director: Client
) -> None:
    round_ = services.generate_round(checked_in, people["director"])
    desk = f"/tournaments/{checked_in.pk}/desk"
    assert director.get(f"{desk}/rounds/1/live").status_code == 404  # a draft has no games
    services.publish_round(round_, people["director"])
    page = text(director.get(desk))
    assert 'hx-trigger="every 5s"' in page
    live = director.get(f"{desk}/rounds/1/live", HTTP_HX_REQUEST="true")
    assert live.status_code == 200 and "<html" not in text(live)
    assert text(live).count("Not dealt yet") == 3
    assert text(live).count('data-status="playing"') == 3
    for who in ("scorekeeper", "player", "other"):
        assert client_of(people[who]).get(f"{desk}/rounds/1/live").status_code == 403


# --- corrections --------------------------------------------------------------------------


@pytest.fixture
def playing(checked_in: Tournament, people: dict[str, Any]) -> Table:
    """Round 1 published; table 1's game has its first hand dealt."""
    from tests.support.games import play

    round_ = services.generate_round(checked_in, people["director"])
    services.publish_round(round_, people["director"])
    table = round_.tables.get(number=1)
    assert table.game is not None
    play(table.game.pk, people["director"], {"type": "DealHand", "upcard": "7H"})
    return table


def test_a_correction_is_confirmed_then_recorded_once_with_who_did_it(
    playing: Table, people: dict[str, Any], director: Client
) -> None:
    url = f"/tournaments/{playing.round.tournament_id}/desk/tables/{playing.pk}"
    page = text(director.get(url))
    assert "Undo the last entry" in page and "Corrections made" in page
    game = Game.objects.get(pk=playing.game_id)
    before = game.version
    review = director.post(
        url,
        {"kind": "adjust", "seat": "1", "points": "-10", "reason": "slow play", "idempotency_key": key(1)},
    )
    assert review.status_code == 200 and "Confirm the correction" in text(review)
    name = game.seats[1]["name"]
    assert f"Adjust {name}&#x27;s score by -10" in text(review)
    assert GameEvent.objects.filter(game=game).count() == before  # nothing yet
    confirm_key = re.search(r'name="idempotency_key" value="([^"]+)"', text(review)).group(1)
    confirm = {"kind": "adjust", "seat": "1", "points": "-10", "reason": "slow play", "confirmed": "yes",
               "version": str(before), "idempotency_key": confirm_key}  # fmt: skip
    done = follow(director, url, confirm)
    assert "done by director" in text(done)
    follow(director, url, confirm)  # the same confirmation again
    adjusted = GameEvent.objects.filter(game=game, type="ScoreAdjusted")
    assert adjusted.count() == 1 and adjusted.get().actor == people["director"]
    page = text(director.get(url))
    assert "director</strong> adjusted a score" in page and "slow play" in page


def test_retract_replace_and_abandon(playing: Table, people: dict[str, Any], director: Client) -> None:
    url = f"/tournaments/{playing.round.tournament_id}/desk/tables/{playing.pk}"

    def correct(n: int, **fields: str) -> Any:
        game = Game.objects.get(pk=playing.game_id)
        return follow(
            director,
            url,
            {**fields, "confirmed": "yes", "version": str(game.version), "idempotency_key": key(n)},
        )

    missing = director.post(url, {"kind": "retract", "reason": " ", "idempotency_key": key(1)})
    assert missing.status_code == 400 and "needs a reason" in text(missing)
    version = Game.objects.get(pk=playing.game_id).version
    correct(2, kind="retract", reason="wrong deck entered")
    assert GameEvent.objects.filter(game_id=playing.game_id, type="Retracted").count() == 1
    assert Game.objects.get(pk=playing.game_id).version == version + 1
    correct(3, kind="replace", seat="0", name="Sub Sam")
    assert Game.objects.get(pk=playing.game_id).seats[0]["name"] == "Sub Sam"
    stale = director.post(url, {"kind": "abandon", "reason": "fire alarm", "confirmed": "yes", "version": "1",
                                "idempotency_key": key(4)})  # fmt: skip
    assert stale.status_code == 302 and Game.objects.get(pk=playing.game_id).status != "abandoned"
    correct(5, kind="abandon", reason="fire alarm")
    assert Game.objects.get(pk=playing.game_id).status == "abandoned"
    page = text(director.get(url))
    for words in (
        "undid the last entry",
        "replaced a seat",
        "abandoned the game",
        "fire alarm",
        "seat 1 → Sub Sam",
    ):
        assert words in page
    assert not any(event in page for event in ("Retracted", "SeatReplaced", "GameAbandoned"))
    live = text(director.get(f"/tournaments/{playing.round.tournament_id}/desk/rounds/1/live"))
    # complete, worded as the game's status (web.words.GAME_STATUS_WORDS)
    assert 'data-status="complete">abandoned</span>' in live
    for who in ("scorekeeper", "player", "other"):
        assert (
            client_of(people[who])
            .post(url, {"kind": "abandon", "reason": "x", "confirmed": "yes"})
            .status_code
            == 403
        )


# --- closing ------------------------------------------------------------------------------


def test_closing_is_confirmed_and_refused_while_a_round_is_played(
    checked_in: Tournament, people: dict[str, Any], director: Client
) -> None:
    desk = f"/tournaments/{checked_in.pk}/desk"
    round_ = services.generate_round(checked_in, people["director"])
    services.publish_round(round_, people["director"])
    assert "Yes, close the tournament" in text(director.get(f"{desk}/close"))
    refused = follow(director, f"{desk}/close", {"idempotency_key": key(1)})
    assert "A published round is still being played: let its games end first." in text(refused)
    checked_in.refresh_from_db()
    assert checked_in.status == "running"
    for table in round_.tables.all():
        from tests.support.games import play

        play(table.game_id, people["director"], {"type": "AbandonGame", "reason": "closing early"})
    services.check_round_complete(round_)
    closed = follow(director, f"{desk}/close", {"idempotency_key": key(2)})
    assert "is closed" in text(closed)
    checked_in.refresh_from_db()
    assert checked_in.status == "finished"
    page = text(director.get(desk))
    assert "Generate round" not in page and 'id="tournament-status">Finished' in page
    assert "Add a player" not in page and "Edit settings" not in page
    assert FormPost.objects.filter(key__contains="close").count() == 1


# --- hostile input ------------------------------------------------------------------------

HOSTILE = [
    "",
    " ",
    "a\x00b",
    "x" * 5000,
    "-1",
    "0",
    "1e999999999",
    "9" * 5000,
    "1/0",
    "NaN",
    "<b>é</b>",
    "[]",
]


def rotated(values: list[str], fields: int, least: int = 4) -> list[list[str]]:
    """For each of a form's ``fields``, the values it is sent: ``least`` or more each,
    taken in turn, so that the form as a whole is sent every value."""
    each = max(least, -(-len(values) // fields))
    return [[values[(i * each + k) % len(values)] for k in range(each)] for i in range(fields)]


def test_rotated_values_reach_every_form_whole() -> None:
    for fields in range(1, 9):
        sent = rotated(HOSTILE, fields)
        assert len(sent) == fields and all(len(values) >= 4 for values in sent)
        assert {value for values in sent for value in values} == set(HOSTILE), fields


def test_hostile_form_values_are_refused_plainly_never_a_500(playing: Table, director: Client) -> None:
    """Every desk form gets every hostile value, each of its fields at least four of them
    (tests/web/test_html_hostile.py sends every class of value to every field): an answer
    below 500, and no control character stored."""
    tournament = playing.round.tournament
    desk = f"/tournaments/{tournament.pk}/desk"
    registration = Registration.objects.filter(tournament=tournament).first()
    assert registration is not None
    forms = {
        f"{desk}/register": ["name", "from_round", "check_in"],
        f"{desk}/registrations/{registration.pk}": ["status"],
        f"{desk}/rounds": ["force_reason"],
        f"{desk}/rounds/1/edit": ["op", "player", "with", "table"],
        f"{desk}/rounds/1/publish": ["edit_reason"],
        f"{desk}/tables/{playing.pk}": ["kind", "seat", "points", "reason", "name", "version", "confirmed"],
        "/clubs/riverside/tournaments/new": ["name", "table_min", "opt_jokers", "opt_cards_dealt", "preset"],
        f"/tournaments/{tournament.pk}/edit": ["name", "rounds"],
    }
    n = 0
    for url, fields in forms.items():
        for name, values in zip(fields, rotated(HOSTILE, len(fields)), strict=True):
            for value in values:
                n += 1
                base = {"kind": "adjust", "seat": "0", "points": "-5", "reason": "r", "op": "swap"}
                if "tournaments/new" in url or (url.endswith("/edit") and "rounds" not in url):
                    base = form_data(idempotency_key=key(f"h{n}"))
                response = director.post(url, {**base, name: value, "idempotency_key": key(f"h{n}")})
                assert response.status_code < 500, (url, name, value[:20])
    names = list(Player.objects.values_list("name", flat=True))
    assert not any("\x00" in name or len(name) > 80 for name in names)
    reasons = [str(e.data.get("reason", "")) for e in GameEvent.objects.filter(game_id=playing.game_id)]
    assert not any("\x00" in reason for reason in reasons)


def test_round_control_shows_a_showdown_awaiting_its_result_then_complete_tables(
    playing: Table, people: dict[str, Any], director: Client
) -> None:
    from tests.support.games import play
    from tests.support.league import finish_round

    tournament = playing.round.tournament
    desk = f"/tournaments/{tournament.pk}/desk"
    game = Game.objects.get(pk=playing.game_id)
    seat = store.load_state(game).to_move
    assert seat is not None
    play(game.pk, people["director"], {"type": "DrawFromStock", "seat": seat})
    play(game.pk, people["director"], {"type": "Knock", "seat": seat, "card": "2C"})
    assert Game.objects.get(pk=game.pk).status == "showdown"
    live = text(director.get(f"{desk}/rounds/1/live"))
    assert live.count('data-status="result"') == 1 and "awaiting the result" in live
    assert "Hand 1" in live
    assert engine.view(store.load_state(Game.objects.get(pk=game.pk)), None).hand is None
    finish_round(playing.round, people["director"], {1: seat, 2: 1, 3: 2})
    services.check_round_complete(playing.round)
    page = text(director.get(desk))
    assert page.count('data-status="complete"') == 3 and "Generate round 2" in page
    assert 'hx-trigger="every 5s"' not in page  # a complete round is not polled
    generated = follow(director, f"{desk}/rounds", {"idempotency_key": key(9)})
    assert "Round 2 generated as a draft" in text(generated)


def test_the_desk_links_the_exports_the_record_page_and_the_public_page(
    playing: Table, director: Client
) -> None:
    tournament = playing.round.tournament
    page = text(director.get(f"/tournaments/{tournament.pk}/desk"))
    assert f'href="/api/v1/tournaments/{tournament.pk}/standings.csv"' in page
    assert f'href="/api/v1/tournaments/{tournament.pk}/archive"' in page
    assert f'href="/tables/{playing.pk}/record"' in page
    assert f'href="/games/{playing.game_id}/"' in page
    club = text(director.get("/clubs/riverside/"))
    assert f'<a href="/tournaments/{tournament.pk}/">Autumn Cup</a>' in club


def test_a_manual_round_starts_in_registration_order_for_the_director_to_arrange(
    club: Club, people: dict[str, Any], director: Client
) -> None:
    tournament = make_tournament(club, people["director"], seating="manual")
    for name in NAMES[:7]:
        services.set_registration_status(services.register(tournament, name=name), "checked_in")
    desk = f"/tournaments/{tournament.pk}/desk"
    generated = follow(director, f"{desk}/rounds", {"idempotency_key": key(1)})
    assert "tables of 4+3" in text(generated)
    round_ = Round.objects.get()
    seated = [[s.player.name for s in t.seats.order_by("position")] for t in round_.tables.order_by("number")]
    assert seated == [NAMES[:4], NAMES[4:7]]
    assert round_.notes == [{"code": "seated_by_director", "params": {}}]
    assert "seated by the director" in text(director.get(desk))


def test_the_desk_reads_the_round_rules_of_the_services(
    checked_in: Tournament, people: dict[str, Any], director: Client
) -> None:
    """The desk shows league.services.round_blockers' advice: a round whose games are all
    over (the completion task not run yet) blocks nothing, as generate_round agrees."""
    from tests.support.league import finish_round

    round_ = services.publish_round(
        services.generate_round(checked_in, people["director"]), people["director"]
    )
    desk = f"/tournaments/{checked_in.pk}/desk"
    (blocker,) = services.round_blockers(checked_in)
    assert blocker.code == "round_not_complete"
    assert (
        "The last round is still being played. Round 2 can be generated once every table of round 1 "
        "is complete — or now, if you say why."
    ) in text(director.get(desk))
    finish_round(round_, people["director"])
    assert Round.objects.get(pk=round_.pk).status == "published"
    page = text(director.get(desk))
    assert 'id="why-no-round"' not in page and "Generate round 2</button>" in page
    generated = follow(director, f"{desk}/rounds", {"idempotency_key": key(7)})
    assert "Round 2 generated as a draft" in text(generated)
    assert Round.objects.get(pk=round_.pk).status == "complete"


def test_round_control_polls_conditionally_and_an_unchanged_poll_is_a_304(
    playing: Table,
    people: dict[str, Any],
    director: Client,
    django_assert_max_num_queries: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.utils import timezone

    from tests.support.games import play

    # the tag holds the minute (the tables' playing times move on): the test stays in one
    fixed = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: fixed)
    url = f"/tournaments/{playing.round.tournament_id}/desk/rounds/1/live"
    first = director.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and "If-None-Match" in text(first)
    # the desk page itself hands the poll its tag
    desk = text(director.get(f"/tournaments/{playing.round.tournament_id}/desk"))
    assert "If-None-Match" in desk and etag.strip('"') in desk
    with django_assert_max_num_queries(6):  # session, user, tournament, role, round, versions
        unchanged = director.get(url, HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304 and unchanged["ETag"] == etag and unchanged.content == b""
    # an entry at a table changes the tag: the next poll gets the new statuses
    to_move = store.load_state(Game.objects.get(pk=playing.game_id)).to_move
    play(playing.game_id, people["director"], {"type": "DrawFromStock", "seat": to_move, "card": "KS"})
    changed = director.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    # a player is still refused, conditional or not
    refused = client_of(people["player"]).get(url, HTTP_IF_NONE_MATCH=etag)
    assert refused.status_code == 403
    # a minute later the same tables answer anew: "playing for N min" has moved on
    monkeypatch.setattr(timezone, "now", lambda: fixed + timedelta(minutes=1))
    later = director.get(url, HTTP_IF_NONE_MATCH=changed["ETag"])
    assert later.status_code == 200 and later["ETag"] != changed["ETag"]


def test_the_form_sets_scoring_and_tiebreaks_and_refuses_bad_ones_beside_their_fields(
    club: Club, director: Client
) -> None:
    url = "/clubs/riverside/tournaments/new"
    page = text(director.get(url))
    assert 'name="scoring"' in page and 'name="tiebreaks"' in page and "buchholz" in page
    body = form_data(
        name="Placement night",
        scoring="placement",
        placement_points="3, 2, 1, 0",
        tiebreaks="wins buchholz",
        idempotency_key=key(70),
    )
    refused = director.post(url, {**body, "tiebreaks": "wins, luck", "idempotency_key": key(71)})
    assert refused.status_code == 400 and not Tournament.objects.filter(name="Placement night").exists()
    assert "luck" in field_errors(text(refused), "tiebreaks")
    created = director.post(url, body)
    assert created.status_code == 302
    made = Tournament.objects.get(name="Placement night")
    assert made.scoring == "placement" and made.placement_points == ["3", "2", "1", "0"]
    assert made.tiebreaks == ["wins", "buchholz"]


def test_a_stale_tabs_edit_is_refused_and_the_desk_shows_the_draft_as_it_is(
    checked_in: Tournament, people: dict[str, Any]
) -> None:
    """Issue 27, bug 5: two desk tabs; a swap made in the stale one was applied on top of
    the other tab's edit without a word."""
    round_ = services.generate_round(checked_in, people["director"])
    desk = f"/tournaments/{checked_in.pk}/desk"
    tables = list(round_.tables.order_by("number"))
    a, b = (t.seats.order_by("position").first().player for t in tables[:2])
    c = tables[2].seats.order_by("position").first().player
    first_tab, second_tab = client_of(people["director"]), client_of(people["director"])
    stale = shown_version(first_tab, desk, a.pk)  # the first tab picks Ann, then waits
    fresh = shown_version(second_tab, desk, a.pk)
    assert stale == fresh
    follow(
        second_tab,
        f"{desk}/rounds/1/edit",
        {"op": "swap", "player": a.pk, "with": b.pk, "version": fresh, "idempotency_key": key(1)},
    )
    edited = seating_of(round_)
    refused = follow(
        first_tab,
        f"{desk}/rounds/1/edit",
        {"op": "swap", "player": a.pk, "with": c.pk, "version": stale, "idempotency_key": key(2)},
    )
    assert seating_of(round_) == edited  # the second tab's edit stands, nothing on top
    page = text(refused)
    assert '<li class="error">The round changed since you opened it — here it is now.' in page
    assert "?pick=" not in refused.redirect_chain[-1][0]  # the draft as it is now, nothing picked
    now = services.draft_version([t.player_ids for t in round_tables_of(round_)], round_.byes)
    assert now != stale and shown_version(first_tab, desk, a.pk) == now
    # an edit without the version it was decided on is refused too, and changes nothing
    bare = follow(
        first_tab,
        f"{desk}/rounds/1/edit",
        {"op": "swap", "player": a.pk, "with": c.pk, "idempotency_key": key(3)},
    )
    assert "The form was incomplete" in text(bare) and seating_of(round_) == edited


def seating_of(round_: Round) -> tuple[Any, ...]:
    fresh = Round.objects.get(pk=round_.pk)
    tables = [[s.player_id for s in t.seats.order_by("position")] for t in fresh.tables.order_by("number")]
    return tuple(map(tuple, tables)), tuple(fresh.byes)


def round_tables_of(round_: Round) -> list[Any]:
    from league.selectors import round_tables

    return list(round_tables([round_.pk])[round_.pk])


def test_the_badge_names_a_draft_round_and_equal_table_sizes_read_as_n_player_tables(
    club: Club, checked_in: Tournament, people: dict[str, Any], director: Client
) -> None:
    desk = f"/tournaments/{checked_in.pk}/desk"
    assert 'id="tournament-status">Registration<' in text(director.get(desk))
    assert "<dd>3\N{EN DASH}4 players</dd>" in text(director.get(desk))
    round_ = services.generate_round(checked_in, people["director"])
    assert 'id="tournament-status">Round 1 (draft)<' in text(director.get(desk))
    services.publish_round(round_, people["director"])
    assert 'id="tournament-status">Running<' in text(director.get(desk))
    pairs = make_tournament(club, people["director"], name="Pairs", table_size={"min": 2, "max": 2})
    club_page = text(director.get("/clubs/riverside/"))
    assert "2-player tables" in club_page and "tables of 3\N{EN DASH}4" in club_page
    assert "2\N{EN DASH}2" not in club_page
    assert "<dd>2 players each</dd>" in text(director.get(f"/tournaments/{pairs.pk}/desk"))
