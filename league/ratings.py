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

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Max, OuterRef, QuerySet, Subquery
from django.utils import timezone
from openskill.models import PlackettLuce, PlackettLuceRating

from games import selectors as game_selectors
from games.selectors import FinalResult, final_results
from league.models import Club, ClubGame, Player, RatingEntry, RatingProjection, Table, TableSeat
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


def club_games(club_id: int, family: str) -> QuerySet[Game, int]:
    """The ids of the club's games of ``family`` (opened under the club, or played at one
    of its tournaments' tables), as a lazy queryset: a subquery where it is used."""
    linked = ClubGame.objects.filter(club_id=club_id).values_list("game_id", flat=True)
    tabled = Table.objects.filter(round__tournament__club_id=club_id, game__isnull=False).values_list(
        "game_id", flat=True
    )
    return game_selectors.game_ids_among(linked, tabled, presets=presets_of(family))


def club_of_game(game_id: int) -> int | None:
    link = ClubGame.objects.filter(game_id=game_id).values_list("club_id", flat=True).first()
    if link is not None:
        return link
    return Table.objects.filter(game_id=game_id).values_list("round__tournament__club_id", flat=True).first()


def seat_players(club_id: int, game_ids: Sequence[int]) -> dict[int, list[int | None]]:
    """Each game's club player per seat (None: a bot, or a name that is no club player).

    A tournament table's seats say who sat where. A game opened under the club names its
    players in its seats: by their login when the seat has one, else by their name in
    the club."""
    seats: dict[int, list[int | None]] = {}
    rows = TableSeat.objects.filter(table__game_id__in=game_ids).order_by("table__game_id", "position")
    for game_id, player_id in rows.values_list("table__game_id", "player_id"):
        seats.setdefault(game_id, []).append(player_id)
    rest = [g for g in game_ids if g not in seats]
    if rest:
        players = Player.objects.filter(club_id=club_id).values_list("pk", "name", "user_id")
        by_name: dict[str | None, int] = {name: pk for pk, name, _ in players}
        by_user: dict[int | None, int] = {user: pk for pk, _, user in players if user is not None}
        for game_id, game_seats in game_selectors.seats_of(rest).items():
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
        if player is None or seat in final.replaced or seat >= len(final.result.places):
            continue
        players.append(player)
        places.append(final.result.places[seat])
    if len(players) < 2 or len(set(players)) != len(players):
        return None
    return RatedGame(final.game_id, final.position, tuple(players), tuple(places))


def rated_games(club_id: int, family: str, *, from_position: int = 0) -> list[RatedGame]:
    """The club's rated games of ``family`` finished at ``from_position`` or later, in order."""
    game_ids = list(club_games(club_id, family))
    finals = final_results(game_ids, finished_from=from_position)
    seats = seat_players(club_id, [f.game_id for f in finals])
    games = (rated_game(final, seats.get(final.game_id, [])) for final in finals)
    return [game for game in games if game is not None]


def _ratings_before(
    club_id: int, family: str, player_ids: Iterable[int], position: int
) -> dict[int, PlackettLuceRating]:
    """Each player's rating (an openskill rating object) after their last game before
    ``position``; players with none are left out (they start from the model's default)."""
    latest = RatingEntry.objects.filter(
        club_id=club_id, family=family, player_id=OuterRef("pk"), position__lt=position
    ).order_by("-position")
    rows = (
        Player.objects.filter(pk__in=list(player_ids))
        .annotate(mu=Subquery(latest.values("mu")[:1]), sigma=Subquery(latest.values("sigma")[:1]))
        .values_list("pk", "mu", "sigma")
    )
    return {pk: MODEL.rating(mu=mu, sigma=sigma) for pk, mu, sigma in rows if mu is not None}


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


def _locked_projection(club_id: int, family: str) -> RatingProjection:
    RatingProjection.objects.get_or_create(club_id=club_id, family=family)
    return RatingProjection.objects.select_for_update().get(club_id=club_id, family=family)


def replay_from(club_id: int, family: str, position: int) -> int:
    """Rate again every game of the club's ``family`` finished at ``position`` or later,
    from the ratings as they stood before it; returns the number of games rated. Takes
    the projection's lock (one per club and family) for the whole replay."""
    with transaction.atomic():
        projection = _locked_projection(club_id, family)
        return _replay(projection, position)


def _replay(projection: RatingProjection, position: int) -> int:
    club_id, family = projection.club_id, projection.family
    RatingEntry.objects.filter(club_id=club_id, family=family, position__gte=position).delete()
    games = rated_games(club_id, family, from_position=position)
    players = {p for game in games for p in game.players}
    start = _ratings_before(club_id, family, players, position)
    entries = [
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
        for game, after in rate(games, start)
        for player, place, rating in zip(game.players, game.places, after, strict=True)
    ]
    RatingEntry.objects.bulk_create(entries, batch_size=1000)
    if position == 0:
        _mark_current(projection, rebuilt=True)
    return len(games)


def _mark_current(projection: RatingProjection, *, rebuilt: bool = False) -> None:
    """After a rebuild: the ratings are current to the highest trigger event of the
    family's games (positions commit in order, so no lower one can appear later)."""
    games = club_games(projection.club_id, projection.family)
    projection.position = game_selectors.last_position(games, types=TRIGGERS)
    _save(projection, rebuilt=rebuilt)


def _save(projection: RatingProjection, *, rebuilt: bool = False) -> None:
    projection.games = (
        RatingEntry.objects.filter(club_id=projection.club_id, family=projection.family)
        .values("game_id")
        .distinct()
        .count()
    )
    if rebuilt:
        projection.rebuilt_at = timezone.now()
    projection.error_code, projection.failed_at = "", None
    projection.save()


def refresh(club_id: int, family: str) -> str:
    """Bring the club's ``family`` up to date with every trigger event after the position
    its ratings are current to; what was done, in a word (``unchanged``, ``rated``: new
    finishes rated, ``replayed``: a rated game changed and the games after it were rated
    again). Idempotent, and safe to run concurrently (the projection row is the lock).

    Each game with such an event is compared with its entries: a game whose finish in
    effect is the one it was rated at is unchanged; otherwise the family is replayed from
    the earliest of its old and new finish positions."""
    with transaction.atomic():
        projection = _locked_projection(club_id, family)
        games = club_games(club_id, family)
        rows = game_selectors.event_positions(games, types=TRIGGERS, after=projection.position)
        if not rows:
            return "unchanged"
        changed = {game for game, _ in rows}
        stored = dict(
            RatingEntry.objects.filter(club_id=club_id, family=family, game_id__in=changed)
            .values("game_id")
            .annotate(at=Max("position"))
            .values_list("game_id", "at")
        )
        finished = {final.game_id: final.position for final in final_results(changed)}
        starts = [
            position
            for game in changed
            if stored.get(game) != finished.get(game)
            for position in (stored.get(game), finished.get(game))
            if position is not None
        ]
        moved = any(game in stored and stored[game] != finished.get(game) for game in changed)
        if starts:
            _replay(projection, min(starts))
        projection.position = max(projection.position, max(position for _, position in rows))
        _save(projection)
        return "replayed" if moved else "rated" if starts else "unchanged"


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


def rebuild(club: Club | None = None) -> dict[tuple[str, str], int]:
    """Rebuild every family's ratings from zero, of ``club`` or of every club; the number
    of games rated per (club slug, family)."""
    clubs = [club] if club is not None else list(Club.objects.order_by("pk"))
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for each in clubs:
        for family in FAMILIES:
            counts[(each.slug, family)] = replay_from(each.pk, family, 0)
    return dict(counts)
