"""Ratings: openskill PlackettLuce per club and game family, a projection of the logs.

Every expected figure comes from calling openskill itself on the same sequence of games:
the project writes no rating maths of its own."""

from __future__ import annotations

import random
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from openskill.models import PlackettLuce

import engine
from games import services
from games.models import Game, GameEvent, OutboxMessage, Source
from league import ratings
from league.models import (
    Club,
    Player,
    RatingEntry,
    RatingProjection,
    Round,
    Table,
    TableSeat,
    Tournament,
)
from league.selectors import ordinals
from tests.support.celery import eager_tasks
from tests.support.games import a_legal_move, client_for
from tests.support.rated import club_with, open_club_game, played, record, record_hand

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bea", "Cy", "Dot", "Eve"]


@pytest.fixture
def kings() -> tuple[Club, dict[str, Player]]:
    return club_with(NAMES)


def reference(games: list[tuple[list[str], list[int]]]) -> list[dict[str, tuple[float, float]]]:
    """openskill's own ratings after each game of ``games`` ((names, places) each)."""
    model = PlackettLuce()
    current: dict[str, Any] = {}
    after = []
    for names, places in games:
        teams = [[current.get(name) or model.rating()] for name in names]
        new = model.rate(teams, ranks=[float(p) for p in places])
        for name, team in zip(names, new, strict=True):
            current[name] = team[0]
        after.append({name: (current[name].mu, current[name].sigma) for name in names})
    return after


def stored(game: Game, players: dict[str, Player]) -> dict[str, tuple[float, float]]:
    names = {p.pk: name for name, p in players.items()}
    return {names[e.player_id]: (e.mu, e.sigma) for e in RatingEntry.objects.filter(game=game)}


def assert_same(got: dict[str, tuple[float, float]], want: dict[str, tuple[float, float]]) -> None:
    assert got.keys() == want.keys()
    for name, (mu, sigma) in want.items():
        assert got[name] == (pytest.approx(mu, rel=1e-12), pytest.approx(sigma, rel=1e-12)), name


def entries() -> list[tuple[int, int, int, int, float, float]]:
    return list(
        RatingEntry.objects.order_by("game_id", "player_id").values_list(
            "game_id", "player_id", "position", "place", "mu", "sigma"
        )
    )


def refresh_all(games: list[Game]) -> None:
    for game in games:
        ratings.refresh_game(game.pk)


def test_every_preset_has_a_family_knock_and_rami_share_one() -> None:
    assert set(ratings.FAMILY_OF_PRESET) == set(engine.rules.PRESETS)
    assert ratings.family_of("knock-rummy") == ratings.family_of("knock-rami") == "knock"
    assert ratings.family_of("knock-rummy-hoyle") == "knock"
    assert ratings.family_of("gin-rummy") == "gin"
    assert ratings.family_of("canasta") is None


def test_updates_equal_openskills_own_for_the_same_games(kings: Any) -> None:
    club, players = kings
    # Deadwood decides the places: the knocker (lowest) first, equal counts tie.
    g1 = played(club, ["Ann", "Bea", "Cy", "Dot"], [2, 10, 20, 30])  # places 1 2 3 4
    g2 = played(club, ["Cy", "Dot", "Eve"], [3, 9, 9])  # 1 2 2: a tie
    g3 = played(club, ["Bea", "Ann"], [4, 25])  # 1 2
    g4 = played(club, ["Eve", "Ann", "Cy", "Bea"], [1, 12, 12, 12])  # 1 2 2 2
    refresh_all([g1, g2, g3, g4])

    assert [Game.objects.get(pk=g.pk).status for g in (g1, g2, g3, g4)] == ["finished"] * 4
    expected = reference(
        [
            (["Ann", "Bea", "Cy", "Dot"], [1, 2, 3, 4]),
            (["Cy", "Dot", "Eve"], [1, 2, 2]),
            (["Bea", "Ann"], [1, 2]),
            (["Eve", "Ann", "Cy", "Bea"], [1, 2, 2, 2]),
        ]
    )
    for game, want in zip([g1, g2, g3, g4], expected, strict=True):
        got = stored(game, players)
        assert got.keys() == want.keys()
        for name in want:
            assert got[name] == pytest.approx(want[name], rel=1e-12), (game.pk, name)
    # Places as the games' MatchResults gave them; ties are ties.
    places = dict(RatingEntry.objects.filter(game=g4).values_list("player__name", "place"))
    assert places == {"Eve": 1, "Ann": 2, "Cy": 2, "Bea": 2}
    # Every entry keeps mu, sigma and the ordinal mu - 3 sigma, in position order.
    for entry in RatingEntry.objects.all():
        assert entry.ordinal == pytest.approx(entry.mu - 3 * entry.sigma)
    history = list(RatingEntry.objects.filter(player=players["Ann"]).values_list("game_id", flat=True))
    assert history == [g1.pk, g3.pk, g4.pk]


def test_gin_is_its_own_family_and_clubs_do_not_mix(kings: Any) -> None:
    club, players = kings
    other, strangers = club_with(["Ann", "Bea"], slug="queens")
    knock = played(club, ["Ann", "Bea"], [3, 20])
    gin = played(club, ["Bea", "Ann"], [0, 30], preset="gin-rummy")  # Bea goes gin
    elsewhere = played(other, ["Bea", "Ann"], [3, 20])
    refresh_all([knock, gin, elsewhere])

    fresh = reference([(["Ann", "Bea"], [1, 2])])[0]
    assert_same(stored(knock, players), fresh)
    # Gin starts everyone afresh: Bea's knock loss does not carry over.
    assert_same(stored(gin, players), reference([(["Bea", "Ann"], [1, 2])])[0])
    assert set(RatingEntry.objects.filter(game=gin).values_list("family", flat=True)) == {"gin"}
    # The other club's Ann and Bea are other players, rated from the default.
    assert_same(stored(elsewhere, strangers), reference([(["Bea", "Ann"], [1, 2])])[0])
    ids = [players["Ann"].pk, players["Bea"].pk]
    knock_ordinals = ordinals(club.pk, "knock", ids)
    assert knock_ordinals[players["Ann"].pk] > knock_ordinals[players["Bea"].pk]
    gin_ordinals = ordinals(club.pk, "gin", [*ids, players["Cy"].pk])
    assert gin_ordinals.keys() == set(ids)  # Cy has no gin rating: left out
    assert gin_ordinals[players["Bea"].pk] > gin_ordinals[players["Ann"].pk]


def test_guests_bots_unlinked_games_and_replaced_seats_are_not_rated(kings: Any, owner: Any) -> None:
    club, players = kings
    guest = played(club, ["Ann", "Stranger", "Bea"], [12, 2, 30], knocker=1)
    lonely = played(club, ["Ann", "Nobody"], [2, 30])  # one club player: nothing to rate
    unlinked = played(None, ["Ann", "Bea"], [2, 30])
    replaced = open_club_game(club, ["Cy", "Dot", "Eve"])
    record(replaced, {"type": "ReplaceSeat", "seat": 2, "name": "Sub"})
    record_hand(replaced, [2, 10, 20])
    refresh_all([guest, lonely, unlinked, replaced])

    # The guest won; the club players keep their order between them: Ann 2nd, Bea 3rd.
    assert_same(stored(guest, players), reference([(["Ann", "Bea"], [2, 3])])[0])
    assert not RatingEntry.objects.filter(game__in=[lonely, unlinked]).exists()
    assert_same(stored(replaced, players), reference([(["Cy", "Dot"], [1, 2])])[0])
    assert ratings.refresh_game(unlinked.pk) == "not_rated"

    # A digital game: the bot seats are not rated, the club players at the table are.
    Player.objects.filter(pk=players["Dot"].pk).update(user=owner)
    seats = [services.SeatSpec(user_id=owner.pk), services.SeatSpec(bot="greedy"), services.SeatSpec("Eve")]
    digital = services.create_game(
        ruleset=engine.get_ruleset("knock-rummy", hands=1),
        mode="digital",
        seats=seats,
        owner=owner,
        source=Source.API,
        after_create=lambda game: club.club_games.create(game=game),
    ).game
    for _ in range(500):
        game = Game.objects.get(pk=digital.pk)
        if game.status == "finished":
            break
        state = services.store.load_state(game)
        if state.to_move == 1:
            services.run_bot_turns(game_id=game.pk, expected_version=game.version)
        else:
            actor = owner
            services.submit_command(
                game=game,
                command=a_legal_move(state),
                actor=actor,
                source=Source.API,
                expected_version=game.version,
            )
    else:  # pragma: no cover - the game must end
        pytest.fail("the digital game did not finish")
    assert ratings.refresh_game(digital.pk) == "rated"
    rated = set(RatingEntry.objects.filter(game=digital).values_list("player__name", flat=True))
    assert rated == {"Dot", "Eve"}  # seat 0 by its login, seat 2 by its name; the bot not


def test_a_tournament_tables_game_is_rated_by_its_seats(kings: Any) -> None:
    club, players = kings
    tournament = Tournament.objects.create(
        club=club, name="Open", slug="open", preset="knock-rummy", table_min=3, table_max=4, seed="s"
    )
    round_ = Round.objects.create(tournament=tournament, number=1, method="manual", seed="s")
    # Seat names in the game differ from the players' names: the table's seats decide.
    game = played(None, ["Seat A", "Seat B", "Seat C"], [2, 9, 30])
    table = Table.objects.create(round=round_, number=1, game=game)
    for position, name in enumerate(["Eve", "Cy", "Ann"]):
        TableSeat.objects.create(table=table, position=position, player=players[name])
    assert ratings.refresh_game(game.pk) == "rated"
    assert_same(stored(game, players), reference([(["Eve", "Cy", "Ann"], [1, 2, 3])])[0])


@pytest.mark.parametrize("seed", range(4))
def test_incremental_refreshes_equal_a_rebuild_from_zero(kings: Any, seed: int) -> None:
    """Games finish, finishes are retracted and entered again, refreshes come at random
    moments (some twice): the ratings end as a rebuild from zero makes them."""
    club, _ = kings
    rng = random.Random(seed)
    games: list[Game] = []
    finished: dict[int, bool] = {}

    def enter(game: Game, names: list[str]) -> None:
        deadwood = [rng.choice([2, 5, 9, 9, 15, 30]) for _ in names]
        record_hand(game, deadwood, deadwood.index(min(deadwood)))
        finished[game.pk] = True

    for _ in range(14):
        names = rng.sample(NAMES, rng.choice([2, 3, 4]))
        game = open_club_game(club, names)
        games.append(game)
        enter(game, names)
        if rng.random() < 0.3:
            victim = rng.choice(games)
            if finished[victim.pk]:
                record(victim, {"type": "Retract", "count": 3, "reason": "wrong entry"})
                finished[victim.pk] = False
            else:
                enter(victim, [seat["name"] for seat in victim.seats])
        for _ in range(rng.choice([0, 1, 2])):
            ratings.refresh_game(rng.choice(games).pk)
    ratings.refresh_game(games[0].pk)
    assert ratings.refresh_game(games[-1].pk) == "unchanged"  # a duplicate delivery
    incremental = entries()
    assert {row[0] for row in incremental} == {pk for pk, done in finished.items() if done}
    call_command("rebuild_ratings", stdout=StringIO())
    assert entries() == incremental
    projection = RatingProjection.objects.get(club=club, family="knock")
    assert projection.games == sum(finished.values())
    triggers = GameEvent.objects.filter(game__in=games, type__in=ratings.TRIGGERS)
    assert projection.position == max(triggers.values_list("position", flat=True))


def test_the_catch_up_rates_what_a_lost_task_would_have(kings: Any) -> None:
    club, players = kings
    game = played(club, ["Ann", "Bea"], [2, 30])  # no refresh ran: the task was lost
    assert ratings.catch_up() == 1
    assert_same(stored(game, players), reference([(["Ann", "Bea"], [1, 2])])[0])
    assert ratings.catch_up() == 0


def test_a_retracted_finish_is_unrated_and_later_games_rated_again(kings: Any) -> None:
    club, players = kings
    first = played(club, ["Ann", "Bea"], [2, 30])
    second = played(club, ["Bea", "Ann"], [2, 30])
    refresh_all([first, second])

    # The scorekeeper retracts the first game's hand (its score and the finish with it).
    record(first, {"type": "Retract", "count": 3, "reason": "wrong seat entered"})
    assert Game.objects.get(pk=first.pk).status == "awaiting_deal"
    assert ratings.refresh_game(first.pk) == "replayed"
    assert not RatingEntry.objects.filter(game=first).exists()
    assert_same(stored(second, players), reference([(["Bea", "Ann"], [1, 2])])[0])

    # Entered again, the other way round: it now counts after the second game.
    record_hand(first, [30, 2], knocker=1)
    assert ratings.refresh_game(first.pk) == "rated"
    expected = reference([(["Bea", "Ann"], [1, 2]), (["Ann", "Bea"], [2, 1])])
    assert_same(stored(first, players), expected[1])
    incremental = entries()
    call_command("rebuild_ratings", "kings", stdout=StringIO())
    assert entries() == incremental


def test_the_outbox_queues_the_refresh_and_the_task_rates(
    kings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    club, players = kings
    with eager_tasks():
        game = open_club_game(club, ["Ann", "Bea"])
        with django_capture_on_commit_callbacks(execute=True):
            record_hand(game, [2, 30])
    rows = OutboxMessage.objects.filter(topic="league.tasks.refresh_ratings")
    assert [row.payload for row in rows] == [{"game_id": game.pk}]
    assert rows.get().dispatched_at is not None
    assert_same(stored(game, players), reference([(["Ann", "Bea"], [1, 2])])[0])


def test_the_ratings_api_shows_current_and_history(kings: Any) -> None:
    club, players = kings
    g1 = played(club, ["Ann", "Bea"], [2, 30])
    g2 = played(club, ["Ann", "Cy", "Bea"], [2, 9, 30])
    g3 = played(club, ["Bea", "Ann"], [0, 30], preset="gin-rummy")
    refresh_all([g1, g2, g3])

    response = client_for(None).get(f"/api/v1/players/{players['Ann'].pk}/ratings")
    assert response.status_code == 200
    body = response.json()
    assert body["player"] == {
        "id": players["Ann"].pk,
        "name": "Ann",
        "club": {"id": club.pk, "slug": "kings", "name": "Kings"},
    }
    knock, gin = body["families"]
    assert (knock["family"], knock["games"], gin["family"], gin["games"]) == ("knock", 2, "gin", 1)
    assert [point["game"] for point in knock["history"]] == [g1.pk, g2.pk]
    want = reference([(["Ann", "Bea"], [1, 2]), (["Ann", "Cy", "Bea"], [1, 2, 3])])[1]["Ann"]
    assert (knock["current"]["mu"], knock["current"]["sigma"]) == pytest.approx(want)
    assert knock["current"]["ordinal"] == pytest.approx(want[0] - 3 * want[1])
    assert knock["current"] == {k: knock["history"][-1][k] for k in ("mu", "sigma", "ordinal")}

    dot = client_for(None).get(f"/api/v1/players/{players['Dot'].pk}/ratings").json()
    assert [(f["current"], f["games"], f["history"]) for f in dot["families"]] == [(None, 0, [])] * 2
    missing = client_for(None).get("/api/v1/players/987654/ratings")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")


def test_rebuild_ratings_command(kings: Any) -> None:
    club, _ = kings
    played(club, ["Ann", "Bea"], [2, 30])
    out = StringIO()
    call_command("rebuild_ratings", "kings", stdout=out)
    assert "kings knock: 1 game" in out.getvalue()
    assert RatingEntry.objects.count() == 2
    with pytest.raises(CommandError, match="no club"):
        call_command("rebuild_ratings", "nowhere", stdout=StringIO())


def test_the_reads_take_a_fixed_number_of_queries(kings: Any, django_assert_num_queries: Any) -> None:
    club, players = kings
    games = [played(club, ["Ann", "Bea", "Cy"], [2, 9, 30]) for _ in range(6)]
    refresh_all(games)
    ids = [p.pk for p in players.values()]
    with django_assert_num_queries(1):
        found = ordinals(club.pk, "knock", ids)
    assert found.keys() == {players[name].pk for name in ("Ann", "Bea", "Cy")}
    client = client_for(None)
    with django_assert_num_queries(2):  # the player with its club; every entry
        response = client.get(f"/api/v1/players/{players['Ann'].pk}/ratings")
    assert len(response.json()["families"][0]["history"]) == 6
