"""A ratings refresh after one finished game costs the same whatever the size of the
club: the same statements and rows written with 128 rated games and with 1,500 — it
appends the new game's entries and its players' current ratings, bounded by the events
since the ratings' position (issue 26). A correction of an old game updates entries in
place and equals a rebuild."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league import ratings
from league.models import Club, CurrentRating, Player, RatingEntry
from league.selectors import ordinals
from tests.support.big_events import club_games, rows_changed

pytestmark = pytest.mark.django_db

# The statements of a refresh that rates one new game, whatever the size of the club.
REFRESH = [
    "SAVEPOINT",
    'SELECT "league_ratingprojection"',  # made if need be
    'SELECT "league_ratingprojection"',  # locked
    'SELECT "games_gameevent"',  # the trigger events after its position
    'SELECT "league_clubgame"',  # which of their games are the club's: opened under it,
    'SELECT "league_table"',  # or at its tournaments' tables,
    'SELECT "games_game"',  # of the family
    'SELECT "league_ratingentry"',  # what was rated of those
    'SELECT "games_gameevent"',  # their finishes in effect: the corrected ones (replayed),
    'SELECT "games_gameevent"',  # the last finishes of the others
    'SELECT "league_currentrating"',  # the latest rated position
    'SELECT "league_table"',  # the seats: at a tournament table,
    'SELECT "league_player"',  # or named in the game (the club's players),
    'SELECT "games_game"',  # the game's seats
    'SELECT "league_currentrating"',  # the players' current ratings
    'INSERT "league_ratingentry"',
    'INSERT "league_currentrating"',  # upserted
    'UPDATE "league_ratingprojection"',
    "RELEASE",
]


def refresh_after_one_game(size: int, seed: int) -> tuple[list[str], int, str]:
    club = Club.objects.create(name=f"Club {seed}", slug=f"club-{seed}")
    people = Player.objects.bulk_create([Player(club=club, name=f"Player {seed}-{i:03d}") for i in range(64)])
    club_games(club, people, size, seed=seed)
    ratings.rebuild(club)
    assert RatingEntry.objects.filter(club=club).values("game").distinct().count() == size
    club_games(club, people, 1, seed=seed + 100)
    written = rows_changed()
    with CaptureQueriesContext(connection) as captured:
        done = ratings.refresh(club.pk, "knock")
    written = rows_changed() - written
    shapes = [" ".join(re.findall(r'^\w+|"league_\w+"|"games_\w+"', q["sql"])[:2]) for q in captured]
    longest = max(
        (m.count(",") + 1 for q in captured for m in re.findall(r"IN \(([^()]*)\)", q["sql"])), default=0
    )
    assert longest <= 8, "a literal IN list beyond the new game's players"
    return shapes, written, done


def test_a_ratings_refresh_reads_and_writes_the_same_at_128_and_at_1500_club_games() -> None:
    small = refresh_after_one_game(128, 1)
    large = refresh_after_one_game(1500, 2)
    assert small[2] == large[2] == "rated"
    assert small[0] == large[0]
    assert small[0] == REFRESH
    # 4 entries, 4 current ratings, the projection row
    assert small[1] == large[1] == 9


def test_current_ratings_follow_the_latest_entry_and_a_rebuild_gives_the_same() -> None:
    club = Club.objects.create(name="Club", slug="club")
    people = Player.objects.bulk_create([Player(club=club, name=f"P{i}") for i in range(8)])
    club_games(club, people, 30, seed=3)
    ratings.rebuild(club)
    for _ in range(3):
        club_games(club, people, 2, seed=_ + 10)
        assert ratings.refresh(club.pk, "knock") == "rated"
    incremental = (
        list(RatingEntry.objects.order_by("position", "player_id").values_list("player_id", "game_id", "mu")),
        dict(CurrentRating.objects.values_list("player_id", "ordinal")),
    )
    latest = {}
    for entry in RatingEntry.objects.order_by("position"):
        latest[entry.player_id] = entry.ordinal
    assert incremental[1] == latest == ordinals(club.pk, "knock", [p.pk for p in people])
    ratings.rebuild(club)
    assert (
        list(RatingEntry.objects.order_by("position", "player_id").values_list("player_id", "game_id", "mu")),
        dict(CurrentRating.objects.values_list("player_id", "ordinal")),
    ) == incremental
