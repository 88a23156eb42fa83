"""Ratings: openskill's PlackettLuce model, per club and game family, as a projection of
the games' event logs (see docs/ratings.md).

Every finished game linked to a club (a ``ClubGame``, or a tournament ``Table``'s game)
is rated once it finishes, in the order of the global ``position`` of its
``GameFinished`` event. Its players are ranked by their places in the game's
``MatchResult`` (ties share a rank) and the library's ``rate`` gives everyone's new
``mu`` and ``sigma``; each is stored as a :class:`~league.models.RatingEntry`, the
history. We write no rating maths of our own.

The projection is rebuildable from zero (``manage.py rebuild_ratings``) and refreshed by
the Celery task ``league.tasks.refresh_ratings``, which the outbox queues with the
events that can change a result (:data:`TRIGGERS`); the beat's ``catch_up_ratings``
covers a lost task. A refresh reads every trigger event after the position the family
is current to and replays the family from the earliest position that changed: usually
only the game that just finished; after a retracted finish, every game from there on.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from django.db import connection, transaction
from django.db.models import Max, OuterRef, QuerySet, Subquery
from django.utils import timezone
from openskill.models import PlackettLuce, PlackettLuceRating

from games import selectors as game_selectors
from games.selectors import FinalResult, final_results
from league.models import (
    Club,
    ClubGame,
    CurrentRating,
    Player,
    RatingEntry,
    RatingProjection,
    Table,
    TableSeat,
)
from league.projection_failures import isolated

if TYPE_CHECKING:
    # the type of club_games' queryset only: rows are read through games.selectors
    from games.models import Game

Family = RatingEntry.Family

# Which family a rule preset's games are rated in (every preset has one: a test checks).
FAMILY_OF_PRESET: dict[str, str] = {
    "knock-rummy": Family.KNOCK,
    "knock-rummy-hoyle": Family.KNOCK,
    "knock-rami": Family.KNOCK,
    "gin-rummy": Family.GIN,
}
FAMILIES: tuple[str, ...] = (Family.KNOCK, Family.GIN)

# The events after which a game's rating input can change.
TRIGGERS = ("GameFinished", "GameAbandoned", "Retracted", "ScoreAdjusted", "HandCorrected")

# Rows written per statement, and games rated between progress reports in a rebuild.
BATCH = 2000
BATCH_GAMES = 1000
Progress = Callable[[int], None]

# openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300.
MODEL = PlackettLuce()


def family_of(preset: str) -> str | None:
    """The rating family of a rule preset's games (None for an unknown preset)."""
    return FAMILY_OF_PRESET.get(preset)


def presets_of(family: str) -> list[str]:
    return sorted(preset for preset, f in FAMILY_OF_PRESET.items() if f == family)


@dataclass(frozen=True)
class RatedGame:
    """One game as the ratings read it: its rated players (seat order) and their places."""

    game_id: int
    position: int
    players: tuple[int, ...]
    places: tuple[int, ...]


def club_games(club_id: int, family: str, *, among: Collection[int] | None = None) -> QuerySet[Game, int]:
    """The ids of the club's games of ``family`` (opened under the club, or played at one
    of its tournaments' tables), as a lazy queryset: a subquery where it is used. With
    ``among``, only those of these games (each subquery bounded by them)."""
    linked = ClubGame.objects.filter(club_id=club_id)
    tabled = Table.objects.filter(round__tournament__club_id=club_id, game__isnull=False)
    if among is not None:
        # each link table read for these games alone (two small queries), so the games'
        # read is bounded too (PostgreSQL plans an OR of subqueries as a scan of games)
        ids = set(linked.filter(game_id__in=among).values_list("game_id", flat=True))
        ids |= set(tabled.filter(game_id__in=among).values_list("game_id", flat=True))
        return game_selectors.game_ids_among(sorted(ids), presets=presets_of(family))
    return game_selectors.game_ids_among(
        linked.values_list("game_id", flat=True),
        tabled.values_list("game_id", flat=True),
        presets=presets_of(family),
    )


def club_of_game(game_id: int) -> int | None:
    link = ClubGame.objects.filter(game_id=game_id).values_list("club_id", flat=True).first()
    if link is not None:
        return link
    return Table.objects.filter(game_id=game_id).values_list("round__tournament__club_id", flat=True).first()


def seat_players(club_id: int, game_ids: Iterable[int]) -> dict[int, list[int | None]]:
    """Each game's club player per seat (None: a bot, or a name that is no club player).

    A tournament table's seats say who sat where. A game opened under the club names its
    players in its seats: by their login when the seat has one, else by their name in
    the club. ``game_ids`` may be a lazy queryset (a rebuild's every game: each read is
    one query with it as a subquery, no literal list of ids)."""
    ids = game_ids if isinstance(game_ids, QuerySet) else list(game_ids)
    seats: dict[int, list[int | None]] = {}
    rows = TableSeat.objects.filter(table__game_id__in=ids).order_by("table__game_id", "position")
    for game_id, player_id in rows.values_list("table__game_id", "player_id"):
        seats.setdefault(game_id, []).append(player_id)
    # a queryset's games are read whole (those at a table too: skipped below)
    rest = ids if isinstance(ids, QuerySet) else [g for g in ids if g not in seats]
    if isinstance(rest, QuerySet) or rest:
        players = Player.objects.filter(club_id=club_id).values_list("pk", "name", "user_id")
        by_name: dict[str | None, int] = {name: pk for pk, name, _ in players}
        by_user: dict[int | None, int] = {user: pk for pk, _, user in players if user is not None}
        for game_id, game_seats in game_selectors.seats_of(rest).items():
            if game_id in seats:
                continue
            seats[game_id] = [
                None if seat.get("bot") else by_user.get(seat.get("user")) or by_name.get(seat.get("name"))
                for seat in game_seats
            ]
    return seats


def rated_game(final: FinalResult, seats: list[int | None]) -> RatedGame | None:
    """The rated part of a finished game: seats held by one club player throughout, each
    once. Bots, guests and replaced seats are left out; fewer than two left, no rating."""
    players: list[int] = []
    places: list[int] = []
    for seat, player in enumerate(seats):
        if player is None or seat in final.replaced or seat >= len(final.places):
            continue
        players.append(player)
        places.append(final.places[seat])
    if len(players) < 2 or len(set(players)) != len(players):
        return None
    return RatedGame(final.game_id, final.position, tuple(players), tuple(places))


def rated_games(club_id: int, family: str, *, from_position: int = 0) -> list[RatedGame]:
    """The club's rated games of ``family`` finished at ``from_position`` or later, in order."""
    return _rated(club_id, final_results(club_games(club_id, family), finished_from=from_position))


def _rated(
    club_id: int, finals: Sequence[FinalResult], seats: dict[int, list[int | None]] | None = None
) -> list[RatedGame]:
    """The rated games of ``finals``, their seats from ``seats`` (read here if not given)."""
    if seats is None:
        seats = seat_players(club_id, [f.game_id for f in finals])
    games = (rated_game(final, seats.get(final.game_id, [])) for final in finals)
    return [game for game in games if game is not None]


def _ratings_before(
    club_id: int, family: str, player_ids: Iterable[int], position: int
) -> dict[int, PlackettLuceRating]:
    """Each player's rating (an openskill rating object) after their last game before
    ``position``; players with none are left out (they start from the model's default).
    Each is one lookup of the (player, family, position) index."""
    latest = RatingEntry.objects.filter(
        club_id=club_id, family=family, player_id=OuterRef("pk"), position__lt=position
    ).order_by("-position")
    rows = (
        Player.objects.filter(pk__in=list(player_ids))
        .annotate(mu=Subquery(latest.values("mu")[:1]), sigma=Subquery(latest.values("sigma")[:1]))
        .values_list("pk", "mu", "sigma")
    )
    return {pk: MODEL.rating(mu=mu, sigma=sigma) for pk, mu, sigma in rows if mu is not None}


def _entries_before(
    club_id: int, family: str, player_ids: Iterable[int], position: int
) -> dict[int, RatingEntry]:
    """Each player's last entry before ``position`` (players with none left out): one
    lookup of the (player, family, position) index each, then the entries. Two queries."""
    latest = RatingEntry.objects.filter(
        club_id=club_id, family=family, player_id=OuterRef("pk"), position__lt=position
    ).order_by("-position")
    found = (
        Player.objects.filter(pk__in=list(player_ids))
        .annotate(entry=Subquery(latest.values("pk")[:1]))
        .values_list("entry", flat=True)
    )
    entries = RatingEntry.objects.filter(pk__in=[pk for pk in found if pk is not None])
    return {entry.player_id: entry for entry in entries}


def _current(club_id: int, family: str, player_ids: Iterable[int]) -> dict[int, PlackettLuceRating]:
    """Each player's current rating (their :class:`CurrentRating`). One query."""
    rows = CurrentRating.objects.filter(club_id=club_id, family=family, player_id__in=list(player_ids))
    return {
        p: MODEL.rating(mu=mu, sigma=sigma) for p, mu, sigma in rows.values_list("player_id", "mu", "sigma")
    }


def rate(
    games: Iterable[RatedGame], start: dict[int, PlackettLuceRating]
) -> list[tuple[RatedGame, list[PlackettLuceRating]]]:
    """Rate ``games`` in order from the ratings ``start`` (updated in place): each game
    with its players' new ratings. The whole update is openskill's ``rate``."""
    done = []
    for game in games:
        teams = [[start.get(p) or MODEL.rating()] for p in game.players]
        new = MODEL.rate(teams, ranks=[float(place) for place in game.places])
        after = [team[0] for team in new]
        for player, rating in zip(game.players, after, strict=True):
            start[player] = rating
        done.append((game, list(after)))
    return done


def _entries(
    club_id: int, family: str, rated: Iterable[tuple[RatedGame, list[PlackettLuceRating]]]
) -> list[RatingEntry]:
    return [
        RatingEntry(
            club_id=club_id,
            family=family,
            player_id=player,
            game_id=game.game_id,
            position=game.position,
            place=place,
            mu=rating.mu,
            sigma=rating.sigma,
            ordinal=rating.ordinal(),
        )
        for game, after in rated
        for player, place, rating in zip(game.players, game.places, after, strict=True)
    ]


def _set_current(club_id: int, family: str, latest: Iterable[RatingEntry]) -> None:
    """Make ``latest`` (at most one entry a player) the players' current ratings. One statement."""
    CurrentRating.objects.bulk_create(
        [
            CurrentRating(
                club_id=club_id,
                family=family,
                player_id=e.player_id,
                position=e.position,
                mu=e.mu,
                sigma=e.sigma,
                ordinal=e.ordinal,
            )
            for e in latest
        ],
        update_conflicts=True,
        unique_fields=["club", "family", "player"],
        update_fields=["position", "mu", "sigma", "ordinal"],
        batch_size=BATCH,
    )


def _last_of_each(entries: Iterable[RatingEntry]) -> dict[int, RatingEntry]:
    last: dict[int, RatingEntry] = {}
    for entry in entries:
        last[entry.player_id] = entry
    return last


def _locked_projection(club_id: int, family: str) -> RatingProjection:
    RatingProjection.objects.get_or_create(club_id=club_id, family=family)
    return RatingProjection.objects.select_for_update().get(club_id=club_id, family=family)


def replay_from(club_id: int, family: str, position: int, *, progress: Progress | None = None) -> int:
    """Rate again every game of the club's ``family`` finished at ``position`` or later,
    from the ratings as they stood before it; returns the number of games rated. Takes
    the projection's lock (one per club and family) for the whole replay. From 0 it is
    a rebuild (:func:`_rebuild`)."""
    with transaction.atomic():
        projection = _locked_projection(club_id, family)
        if position == 0:
            return _rebuild(projection, progress)
        return _replay(projection, position)


def _append(projection: RatingProjection, finals: Sequence[FinalResult]) -> int:
    """Rate ``finals`` — games finished after every game rated so far — from their
    players' current ratings: the entries are added, nothing else is read or rewritten."""
    club_id, family = projection.club_id, projection.family
    games = _rated(club_id, finals)
    if not games:
        return 0
    start = _current(club_id, family, {p for game in games for p in game.players})
    entries = _entries(club_id, family, rate(games, start))
    RatingEntry.objects.bulk_create(entries, batch_size=BATCH)
    _set_current(club_id, family, _last_of_each(entries).values())
    projection.games += len(games)
    return len(games)


def _replay(projection: RatingProjection, position: int) -> int:
    """Rate again the games finished at ``position`` or later (a correction moved one):
    their entries are updated in place, those of games no longer rated deleted, and the
    current ratings of their players set again."""
    club_id, family = projection.club_id, projection.family
    games = rated_games(club_id, family, from_position=position)
    old = list(
        RatingEntry.objects.filter(club_id=club_id, family=family, position__gte=position).values_list(
            "pk", "player_id", "game_id"
        )
    )
    players = {p for game in games for p in game.players}
    start = _ratings_before(club_id, family, players, position)
    entries = _entries(club_id, family, rate(games, start))
    RatingEntry.objects.bulk_create(
        entries,
        update_conflicts=True,
        unique_fields=["player", "family", "game"],
        update_fields=["club", "position", "place", "mu", "sigma", "ordinal"],
        batch_size=BATCH,
    )
    kept = {(e.player_id, e.game_id) for e in entries}
    gone = [pk for pk, player, game in old if (player, game) not in kept]
    RatingEntry.objects.filter(pk__in=gone).delete()
    latest = _last_of_each(entries)
    left = {player for _, player, _ in old} - set(latest)
    if left:
        before = _entries_before(club_id, family, left, position)
        latest.update(before)
        gone_players = list(left - set(before))
        CurrentRating.objects.filter(club_id=club_id, family=family, player_id__in=gone_players).delete()
    _set_current(club_id, family, latest.values())
    projection.games += len({g.game_id for g in games}) - len({game for _, _, game in old})
    return len(games)


def _rebuild(projection: RatingProjection, progress: Progress | None) -> int:
    """The family's ratings from zero: the finished games read once in the order they
    finished, rated and written in batches (``progress`` is told the games rated after
    each); every old entry deleted first."""
    club_id, family = projection.club_id, projection.family
    RatingEntry.objects.filter(club_id=club_id, family=family).delete()
    CurrentRating.objects.filter(club_id=club_id, family=family).delete()
    games_of = club_games(club_id, family)
    finals = final_results(games_of)
    seats = seat_players(club_id, games_of) if finals else {}
    start: dict[int, PlackettLuceRating] = {}
    last: dict[Any, tuple[Any, ...]] = {}  # each player's last row
    rated = 0
    for first in range(0, len(finals), BATCH_GAMES):
        games = _rated(club_id, finals[first : first + BATCH_GAMES], seats)
        rows = [
            (club_id, family, player, game.game_id, game.position, place, r.mu, r.sigma, r.ordinal())
            for game, after in rate(games, start)
            for player, place, r in zip(game.players, game.places, after, strict=True)
        ]
        _insert_entries(rows)
        last.update((row[2], row) for row in rows)
        rated += len(games)
        if progress is not None:
            progress(rated)
    latest = (RatingEntry(**dict(zip(ENTRY_COLUMNS[2:], row[2:], strict=True))) for row in last.values())
    _set_current(club_id, family, latest)
    projection.games = rated
    _mark_current(projection, rebuilt=True)
    return rated


ENTRY_COLUMNS = ("club_id", "family", "player_id", "game_id", "position", "place", "mu", "sigma", "ordinal")


@functools.cache
def _entry_table() -> tuple[str, str]:
    """The entries' table and its :data:`ENTRY_COLUMNS`, quoted for SQL."""
    quote = connection.ops.quote_name
    meta = RatingEntry._meta
    fields = {field.attname: field.column for field in meta.concrete_fields}
    return quote(meta.db_table), ", ".join(quote(fields[name]) for name in ENTRY_COLUMNS)


def _insert_entries(rows: Sequence[tuple[Any, ...]]) -> None:
    """Insert a rebuild's entries (tuples in :data:`ENTRY_COLUMNS` order): a rebuild
    writes tens of thousands, and building a model instance for each costs more than the
    database does. On PostgreSQL one ``COPY`` (psycopg's ``Cursor.copy``) streams them
    all; elsewhere one prepared ``INSERT`` is run for every row (``executemany``)."""
    table, columns = _entry_table()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            marks = ", ".join(["%s"] * len(ENTRY_COLUMNS))
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)


def _mark_current(projection: RatingProjection, *, rebuilt: bool = False) -> None:
    """After a rebuild: the ratings are current to the highest trigger event of the
    family's games (positions commit in order, so no lower one can appear later)."""
    games = club_games(projection.club_id, projection.family)
    projection.position = game_selectors.last_position(games, types=TRIGGERS)
    _save(projection, rebuilt=rebuilt)


def _save(projection: RatingProjection, *, rebuilt: bool = False) -> None:
    if rebuilt:
        projection.rebuilt_at = timezone.now()
    projection.error_code, projection.failed_at = "", None
    projection.save()


def refresh(club_id: int, family: str) -> str:
    """Bring the club's ``family`` up to date with every trigger event after the position
    its ratings are current to; what was done, in a word (``unchanged``, ``rated``: new
    finishes rated, ``replayed``: a rated game changed and the games after it were rated
    again). Idempotent, and safe to run concurrently (the projection row is the lock).

    The trigger events after that position are found from the position's index (their
    cost follows what happened since, not the club's size); each of the club's games
    among them is compared with its entries: a game whose finish in effect is the one it
    was rated at is unchanged. New finishes after every rated game are appended
    (:func:`_append`); otherwise the family is rated again from the earliest of the old
    and new finish positions (:func:`_replay`)."""
    with transaction.atomic():
        projection = _locked_projection(club_id, family)
        rows = game_selectors.events_after_of_types(projection.position, types=TRIGGERS)
        if not rows:
            return "unchanged"
        top = max(position for _, position in rows)
        changed = set(club_games(club_id, family, among={game for game, _ in rows}))
        done = "unchanged"
        if changed:
            done = _refresh_changed(projection, changed)
        projection.position = max(projection.position, top)
        _save(projection)
        return done


def _refresh_changed(projection: RatingProjection, changed: set[int]) -> str:
    club_id, family = projection.club_id, projection.family
    # by the game's index alone (a game's entries are all of one club and family)
    stored = dict(
        RatingEntry.objects.filter(game_id__in=sorted(changed), family=family)
        .values("game_id")
        .annotate(at=Max("position"))
        .values_list("game_id", "at")
    )
    finals = {final.game_id: final for final in final_results(changed)}
    finished = {game: final.position for game, final in finals.items()}
    starts = [
        position
        for game in changed
        if stored.get(game) != finished.get(game)
        for position in (stored.get(game), finished.get(game))
        if position is not None
    ]
    moved = any(game in stored and stored[game] != finished.get(game) for game in changed)
    if not starts:
        return "unchanged"
    begin = min(starts)
    # the last rated game's position: the highest of the players' current ratings
    current = CurrentRating.objects.filter(club_id=club_id, family=family)
    latest = current.aggregate(top=Max("position"))["top"]
    if not moved and begin > (latest or 0):
        _append(
            projection, sorted((f for f in finals.values() if f.position >= begin), key=lambda f: f.position)
        )
    else:
        _replay(projection, begin)
    return "replayed" if moved else "rated"


def refresh_game(game_id: int) -> str:
    """Refresh the ratings of ``game_id``'s club and game family (the outbox task's
    work); ``not_rated`` when the game is no club's or of no family, ``failed`` when the
    refresh raised (logged and recorded, see :mod:`league.projection_failures`)."""
    club_id = club_of_game(game_id)
    preset = game_selectors.preset_of(game_id)
    family = family_of(preset) if preset is not None else None
    if club_id is None or family is None:
        return "not_rated"
    return isolated(partial(refresh, club_id, family), club=club_id, family=family) or "failed"


def behind(club_id: int, family: str) -> bool:
    """Whether a trigger event of the club's ``family`` lies after the position its
    ratings are current to (what the next refresh would read). Two queries."""
    current = (
        RatingProjection.objects.filter(club_id=club_id, family=family)
        .values_list("position", flat=True)
        .first()
    )
    return game_selectors.last_position(club_games(club_id, family), types=TRIGGERS) > (current or 0)


def catch_up() -> int:
    """Refresh every club's families (the beat's catch-up for a refresh the broker lost);
    the number that changed. Cheap when nothing did: one query per club and family. A
    family whose refresh fails is logged and recorded, and the others go on."""
    changed = 0
    for club_id in Club.objects.order_by("pk").values_list("pk", flat=True):
        for family in FAMILIES:
            done = isolated(partial(refresh, club_id, family), club=club_id, family=family)
            changed += done not in (None, "unchanged")
    return changed


def rebuild(
    club: Club | None = None, *, progress: Callable[[str, str, int], None] | None = None
) -> dict[tuple[str, str], int]:
    """Rebuild every family's ratings from zero, of ``club`` or of every club; the number
    of games rated per (club slug, family). ``progress`` is told (club slug, family,
    games rated so far) after each batch."""
    clubs = [club] if club is not None else list(Club.objects.order_by("pk"))
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for each in clubs:
        for family in FAMILIES:
            told = None if progress is None else partial(progress, each.slug, family)
            counts[(each.slug, family)] = replay_from(each.pk, family, 0, progress=told)
    return dict(counts)
