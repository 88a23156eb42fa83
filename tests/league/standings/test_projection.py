"""The standings projection on the event store: stored rows equal a recomputation from
the exported logs, the outbox queues refreshes, both timelines around a correction, the
changes list, rebuilds, and the read API with its errors and pinned query counts."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from datetime import timezone as dt_timezone
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from games.models import Game, GameEvent
from games.selectors import export_document
from league import projection
from league.models import Club, Player, ResultVersion, StandingsState, Tournament
from league.standings import standings_from_logs
from tests.support.games import client_for
from tests.support.standings_rows import stored_rows
from tests.support.tournaments import add_round, command, make_tournament, open_game, players, record_hand

pytestmark = pytest.mark.both_databases


@pytest.fixture
def club(db: None) -> Club:
    return Club.objects.create(name="Corner club", slug="corner")


@pytest.fixture
def cup(club: Club, owner: Any) -> dict[str, Any]:
    """Round 1: Ann, Bo and Cy at table 1; Di and Ed at table 2; both finished (one hand)."""
    ann, bo, cy, di, ed = players(club, "Ann", "Bo", "Cy", "Di", "Ed")
    tournament = make_tournament(club, scoring="points", tiebreaks=["wins", "random"])
    rnd = add_round(tournament, 1, [[ann, bo, cy], [di, ed]])
    first, second = rnd.tables.all()
    g1, g2 = open_game(first, owner), open_game(second, owner)
    record_hand(g1, owner, 0, [5, 20, 30])  # Ann knocks and wins: 40, -15, -25
    record_hand(g2, owner, 1, [30, 2])  # Ed wins: -28, 28
    return {"t": tournament, "g1": g1, "g2": g2, "p": {p.name: p.pk for p in (ann, bo, cy, di, ed)}}


def last_position(game_id: int) -> int:
    return int(
        GameEvent.objects.filter(game_id=game_id).order_by("-seq").values_list("position", flat=True)[0]
    )


def rows_of(doc: dict[str, Any]) -> dict[str, tuple[str, int | None]]:
    return {row["player"]["name"]: (row["points"], row["rank"]) for row in doc["rows"]}


def recompute(tournament: Tournament) -> list[dict[str, Any]]:
    logs = {
        g.pk: export_document(g)["events"]
        for g in Game.objects.filter(league_table__round__tournament=tournament)
    }
    return standings_from_logs(projection.settings_of(tournament), projection.rounds_of(tournament.pk), logs)


def test_stored_standings_equal_a_recomputation_from_the_exported_logs(cup: dict[str, Any]) -> None:
    done = projection.refresh(cup["t"].pk)
    assert done.games_read == 2 and done.position == max(last_position(cup["g1"]), last_position(cup["g2"]))
    state = StandingsState.objects.get(tournament=cup["t"])
    assert state.rows == recompute(cup["t"])
    assert [(r["player"], r["points"]) for r in state.rows][:2] == [
        (cup["p"]["Ann"], "40"),
        (cup["p"]["Ed"], "28"),
    ]
    again = projection.refresh(cup["t"].pk)  # idempotent: nothing new to read
    assert (again.games_read, again.versions) == (0, 0)
    assert StandingsState.objects.get(tournament=cup["t"]).rows == state.rows


def test_the_outbox_refreshes_the_standings_after_a_recorded_hand(
    club: Club, owner: Any, eager_celery: None, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    ann, bo = players(club, "Ann", "Bo")
    tournament = make_tournament(club)
    table = add_round(tournament, 1, [[ann, bo]]).tables.get()
    game = open_game(table, owner)
    with django_capture_on_commit_callbacks(execute=True):
        record_hand(game, owner, 0, [4, 30])
    state = StandingsState.objects.get(tournament=tournament)
    assert state.position == last_position(game)
    assert [row["player"] for row in state.rows] == [ann.pk, bo.pk]
    causes = list(ResultVersion.objects.filter(game_id=game).values_list("cause", flat=True))
    assert causes == ["HandScored", "GameFinished"]


def test_the_beat_catches_up_what_the_outbox_missed(cup: dict[str, Any], eager_celery: None) -> None:
    from django.conf import settings

    from league.tasks import catch_up_standings

    entry = settings.CELERY_BEAT_SCHEDULE["catch-up-standings"]
    assert entry["task"] == "league.tasks.catch_up_standings"
    assert not StandingsState.objects.exists()  # on_commit never ran: the sends were lost
    assert catch_up_standings.delay().get() == 1
    assert StandingsState.objects.get(tournament=cup["t"]).rows == recompute(cup["t"])
    assert catch_up_standings.delay().get() == 0  # nothing new


def test_both_timelines_around_a_correction_and_the_changes_list(cup: dict[str, Any], owner: Any) -> None:
    t, g1 = cup["t"], cup["g1"]
    projection.refresh(t.pk)
    shown = last_position(cup["g2"])  # what the wall showed after round 1 (table 2 finished last)
    # The scorekeeper got the knocker wrong: undo the hand (recorded, scored, finished),
    # a penalty for Cy, the hand again with Bo knocking.
    command(g1, owner, {"type": "Retract", "count": 3, "reason": "wrong knocker"})
    retracted = last_position(g1)
    command(g1, owner, {"type": "AdjustScore", "seat": 2, "points": "-5", "reason": "slow play"})
    record_hand(g1, owner, 1, [30, 3, 20])  # Bo wins 27 + 17: Ann -27, Bo 44, Cy -17 (and -5)
    projection.refresh(t.pk)
    client = client_for(None)
    url = f"/api/v1/tournaments/{t.pk}/standings"

    corrected = client.get(url).json()
    assert corrected["timeline"] == "corrected" and corrected["current_to"]["position"] == last_position(g1)
    assert rows_of(corrected) == {
        "Bo": ("44", 1),
        "Ed": ("28", 2),
        "Cy": ("-22", 3),
        "Ann": ("-27", 4),
        "Di": ("-28", 5),
    }
    then = client.get(url, {"timeline": "recorded", "at": str(shown)}).json()
    assert then["current_to"]["position"] == shown
    assert rows_of(then) == {
        "Ann": ("40", 1),
        "Ed": ("28", 2),
        "Bo": ("-15", 3),
        "Cy": ("-25", 4),
        "Di": ("-28", 5),
    }
    during = client.get(url, {"timeline": "recorded", "at": str(retracted)}).json()
    in_play = {row["player"]["name"]: (row["points"], row["in_play"]) for row in during["rows"]}
    assert in_play["Ann"] == ("0", 1) and in_play["Ed"] == ("28", 0)
    at_time = ResultVersion.objects.get(game_id=cup["g2"], position=shown).recorded_at.isoformat()
    assert rows_of(client.get(url, {"timeline": "recorded", "at": at_time}).json()) == rows_of(then)

    changes = client.get(url + "/changes").json()["changes"]
    assert len(changes) == 1
    change = changes[0]
    assert (change["game"], change["hand"], change["type"], change["reason"]) == (
        g1,
        1,
        "Retracted",
        "wrong knocker",
    )
    assert change["by"] == {"id": owner.pk, "username": owner.username}
    assert [(c["type"], c["reason"]) for c in change["corrections"]] == [
        ("Retracted", "wrong knocker"),
        ("ScoreAdjusted", "slow play"),
    ]
    assert change["resolved_at"]["position"] == last_position(g1)
    moved = {
        r["player"]["name"]: (r["points_before"], r["rank_before"], r["points_after"], r["rank_after"])
        for r in change["rows"]
    }
    assert moved["Ann"] == ("40", 1, "-27", 4)
    assert moved["Bo"] == ("-15", 3, "44", 1)
    assert moved["Cy"] == ("-25", 4, "-22", 3)
    assert moved["Di"] == ("-28", 5, "-28", 5)
    assert [r["changed"] for r in change["rows"] if r["player"]["name"] == "Ed"] == [False]


def test_a_correction_during_a_game_not_yet_counted_is_not_a_change(club: Club, owner: Any) -> None:
    ann, bo = players(club, "Ann", "Bo")
    tournament = make_tournament(club)
    game = open_game(add_round(tournament, 1, [[ann, bo]]).tables.get(), owner, hands=2)
    record_hand(game, owner, 0, [4, 30])
    command(game, owner, {"type": "AdjustScore", "seat": 0, "points": "-5", "reason": "phone rang"})
    record_hand(game, owner, 1, [30, 4])
    projection.refresh(tournament.pk)
    assert projection.standings_changes(tournament) == []
    assert [c for c in ResultVersion.objects.filter(game_id=game).values_list("cause", flat=True)] == [
        "HandScored",
        "ScoreAdjusted",
        "HandScored",
        "GameFinished",
    ]


def test_after_round_counts_only_the_rounds_up_to_it(cup: dict[str, Any], owner: Any) -> None:
    t, p = cup["t"], cup["p"]
    ann, ed = Player.objects.get(pk=p["Ann"]), Player.objects.get(pk=p["Ed"])
    rnd = add_round(t, 2, [[ann, ed]], byes=[Player.objects.get(pk=p["Bo"])])
    game = open_game(rnd.tables.get(), owner)
    record_hand(game, owner, 1, [30, 2])  # Ed wins again: 28
    projection.refresh(t.pk)
    client = client_for(None)
    url = f"/api/v1/tournaments/{t.pk}/standings"
    now = rows_of(client.get(url).json())
    assert now["Ed"] == ("56", 1) and now["Bo"] == ("-15", 3)
    one = client.get(url, {"after_round": "1"}).json()
    assert one["after_round"] == 1 and rows_of(one)["Ed"] == ("28", 2) and rows_of(one)["Ann"] == ("40", 1)
    zero = client.get(url, {"after_round": "0"}).json()
    assert zero["rows"] == []


def test_rebuild_from_zero_equals_the_incremental_projection(cup: dict[str, Any], owner: Any) -> None:
    t = cup["t"]
    projection.refresh(t.pk)
    command(cup["g1"], owner, {"type": "Retract", "count": 3, "reason": "typo"})
    projection.refresh(t.pk)
    record_hand(cup["g1"], owner, 2, [20, 30, 0])
    projection.refresh(t.pk)

    def snapshot() -> tuple[Any, ...]:
        state = StandingsState.objects.get(tournament=t)
        versions = list(
            ResultVersion.objects.filter(tournament=t)
            .order_by("position")
            .values_list("game_id", "position", "seq", "cause", "hand", "actor_id", "reason", "result")
        )
        return state.position, stored_rows(t), state.rows, versions

    incremental = snapshot()
    StandingsState.objects.filter(tournament=t).update(complete_rounds_position=0)
    out = StringIO()
    call_command("rebuild_standings", str(t.pk), stdout=out)
    assert f"tournament {t.pk}: 2 game(s) read" in out.getvalue()
    assert snapshot() == incremental
    # every table view written again: the earlier rounds' version moves with it
    rebuilt = StandingsState.objects.get(tournament=t)
    assert rebuilt.complete_rounds_position == rebuilt.position > 0
    call_command("rebuild_standings", stdout=StringIO())
    assert snapshot() == incremental
    with pytest.raises(CommandError, match="there is no tournament 999999"):
        call_command("rebuild_standings", "999999")


def test_the_projection_is_what_seating_reads(cup: dict[str, Any]) -> None:
    from fractions import Fraction

    from league.services import seating_standings

    order, points = seating_standings(cup["t"], 2)  # round 2 is seated by round 1's standings
    ranked = [(p, points[p]) for p in order]
    assert ranked[0] == (cup["p"]["Ann"], Fraction(40)) and ranked[-1][1] == Fraction(-28)


def test_the_csv_has_the_json_rows(cup: dict[str, Any], club: Club) -> None:
    Player.objects.filter(pk=cup["p"]["Cy"]).update(name="=HYPERLINK(1)")
    projection.refresh(cup["t"].pk)
    response = client_for(None).get(f"/api/v1/tournaments/{cup['t'].pk}/standings.csv", {"after_round": "1"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    lines = response.content.decode().splitlines()
    assert (
        lines[0] == "rank,player_id,player,status,points,played,byes,abandoned,replaced,in_play,qualified,"
        "rating_ordinal,wins"  # the seeded draw (random) stays in the JSON
    )
    assert lines[1] == f"1,{cup['p']['Ann']},Ann,,40,1,0,0,0,0,yes,,1"  # not registered, not rated yet
    assert any(",'=HYPERLINK(1),,-25," in line for line in lines)


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ({"after_round": "x"}, "invalid_after_round"),
        ({"after_round": "-1"}, "invalid_after_round"),
        ({"after_round": "99999999999999999999999"}, "invalid_after_round"),
        ({"after_round": "7"}, "round_not_played"),  # issue 27 §6: not "after round 7" of 1
        ({"timeline": "fixed"}, "invalid_timeline"),
        ({"at": "12"}, "at_needs_recorded"),
        ({"timeline": "recorded", "at": "yesterday"}, "invalid_at"),
        ({"timeline": "recorded", "at": "2026-01-01T10:00:00"}, "invalid_at"),
        ({"timeline": "recorded", "at": "99999999999999999999"}, "invalid_at"),
        ({"sort": "name"}, "unknown_parameter"),
    ],
)
def test_bad_parameters_are_refused_with_a_code(
    cup: dict[str, Any], query: dict[str, str], code: str
) -> None:
    for suffix in ("", ".csv"):
        response = client_for(None).get(f"/api/v1/tournaments/{cup['t'].pk}/standings{suffix}", query)
        assert response.status_code == 400, response.content
        assert response.json()["code"] == code


def test_unknown_tournaments_are_404(db: None) -> None:
    client = client_for(None)
    for suffix in ("", ".csv", "/changes"):
        response = client.get(f"/api/v1/tournaments/424242/standings{suffix}")
        assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_a_tournament_with_unusable_settings_is_a_409_not_a_500(cup: dict[str, Any]) -> None:
    Tournament.objects.filter(pk=cup["t"].pk).update(tiebreaks=["luck"])
    response = client_for(None).get(f"/api/v1/tournaments/{cup['t'].pk}/standings")
    assert response.status_code == 409 and response.json()["code"] == "unknown_tiebreak"


def test_the_standings_read_takes_a_pinned_number_of_queries(
    cup: dict[str, Any], django_assert_max_num_queries: Any
) -> None:
    projection.refresh(cup["t"].pk)
    client = client_for(None)
    url = f"/api/v1/tournaments/{cup['t'].pk}/standings"
    with django_assert_max_num_queries(4):  # tournament, projection row, player names, ordinals
        assert client.get(url).status_code == 200
    # + the last round played (round_not_played), rounds, the tables' seats, the stored results
    with django_assert_max_num_queries(8):
        assert client.get(url, {"after_round": "1"}).status_code == 200
    with django_assert_max_num_queries(8):  # + the event's time, the result versions
        assert client.get(url, {"timeline": "recorded", "at": "3"}).status_code == 200
    with django_assert_max_num_queries(5):  # + the registrations (the status column)
        assert client.get(f"{url}.csv").status_code == 200


def test_each_row_has_the_players_current_rating_ordinal(cup: dict[str, Any]) -> None:
    from league import ratings
    from league.models import RatingEntry

    t = cup["t"]
    projection.refresh(t.pk)
    client = client_for(None)
    url = f"/api/v1/tournaments/{t.pk}/standings"
    before = client.get(url).json()["rows"]
    assert {row["player"]["name"]: row["rating"] for row in before}["Ann"] == {
        "family": "knock",
        "ordinal": None,
    }
    ratings.rebuild(t.club)
    latest = {
        entry.player_id: entry.ordinal
        for entry in RatingEntry.objects.filter(club=t.club, family="knock").order_by("position")
    }
    assert len(latest) == 5  # both tables rated: everyone
    rows = client.get(url).json()["rows"]
    assert {row["player"]["id"]: row["rating"]["ordinal"] for row in rows} == latest
    assert {row["rating"]["family"] for row in rows} == {"knock"}
    assert latest[cup["p"]["Ann"]] > latest[cup["p"]["Cy"]]  # the winner above the last
    # every moment and round reads the same current rating
    recorded = client.get(url, {"timeline": "recorded", "at": "1", "after_round": "1"}).json()["rows"]
    assert all(row["rating"]["ordinal"] == latest[row["player"]["id"]] for row in recorded)
    lines = client.get(f"{url}.csv").content.decode().splitlines()
    column = lines[0].split(",").index("rating_ordinal")
    by_id = {int(line.split(",")[1]): line.split(",")[column] for line in lines[1:]}
    assert by_id == {p: f"{o:.3f}" for p, o in latest.items()}


def test_a_gin_tournament_reads_the_gin_family(club: Club, owner: Any) -> None:
    ann, bo = players(club, "Ann", "Bo")
    tournament = make_tournament(club, preset="gin-rummy")
    add_round(tournament, 1, [[ann, bo]])
    rows = client_for(None).get(f"/api/v1/tournaments/{tournament.pk}/standings").json()["rows"]
    assert [row["rating"] for row in rows] == [{"family": "gin", "ordinal": None}] * 2


def test_stale_sees_new_events_settings_and_rounds(cup: dict[str, Any], owner: Any) -> None:
    t = cup["t"]
    assert projection.stale(t.pk)  # never refreshed
    projection.refresh(t.pk)
    assert not projection.stale(t.pk)
    Tournament.objects.filter(pk=t.pk).update(tiebreaks=["played"], updated_at=timezone.now())
    assert projection.stale(t.pk)
    projection.refresh(t.pk)
    assert not projection.stale(t.pk)
    add_round(t, 2, [], byes=[Player.objects.get(pk=cup["p"]["Ann"])])  # published now
    assert projection.stale(t.pk)
    projection.refresh(t.pk)
    assert not projection.stale(t.pk)
    command(cup["g1"], owner, {"type": "Retract", "count": 3, "reason": "typo"})
    assert projection.stale(t.pk)


def test_at_takes_a_time_with_its_offset(cup: dict[str, Any]) -> None:
    projection.refresh(cup["t"].pk)
    url = f"/api/v1/tournaments/{cup['t'].pk}/standings"
    later = (timezone.now() + timedelta(hours=1)).astimezone(dt_timezone(timedelta(hours=1)))
    client = client_for(None)
    now = client.get(url).json()
    assert rows_of(client.get(url, {"timeline": "recorded", "at": later.isoformat()}).json()) == rows_of(now)
    before = client.get(url, {"timeline": "recorded", "at": "2000-01-01T00:00:00Z"}).json()
    assert before["rows"] == [] and before["current_to"] == {"position": 0, "recorded_at": None}


def test_the_earlier_rounds_version_moves_when_a_round_has_ended_not_before(owner: Any) -> None:
    """``complete_rounds_position`` (what the public page's earlier rounds are versioned
    by) stays while a round waits for another table, and moves with the refresh that
    reads the end of its last game: the round completes next and may be drawn as an
    earlier round before that refresh commits."""
    club = Club.objects.create(name="Hill club", slug="hill")
    tournament = make_tournament(club, rounds=2)
    ann, bo, cy, di = players(club, "Ann", "Bo", "Cy", "Di")
    first, second = add_round(tournament, 1, [[ann, bo], [cy, di]]).tables.order_by("number")
    g1, g2 = open_game(first, owner), open_game(second, owner)
    projection.refresh(tournament.pk)

    def state() -> StandingsState:
        return StandingsState.objects.get(tournament=tournament)

    start = state().complete_rounds_position
    record_hand(g1, owner, 0, [3, 20])  # table 1's game is over; table 2 plays on
    projection.refresh(tournament.pk)
    assert state().complete_rounds_position == start < state().position
    record_hand(g2, owner, 0, [5, 9])  # the round's last game
    projection.refresh(tournament.pk)
    assert state().complete_rounds_position == state().position > start
