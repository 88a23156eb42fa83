"""The standings projection: the pure :mod:`league.standings` fed from the event store.

- :func:`refresh` reads, under the tournament's lock (``select_for_update`` on its
  :class:`~league.models.StandingsState` row), the games with an event after the
  position it is current to (found from the position's index) and their logs; stores a
  :class:`~league.models.ResultVersion` at each event that changes a table's result,
  each game's result (:class:`~league.models.StandingsGame`), moves the records
  (:class:`~league.models.StandingsRecord`) of the players at the tables whose result
  changed (:mod:`league.standings_records`), ranks everyone from the stored records, and
  saves the ranked rows and the position they are current to. Its statements and the
  rows it writes do not grow with the event. Idempotent: a second refresh with no new
  event writes nothing but the state row.
- :func:`rebuild` throws all of it away and refreshes from zero.
- :func:`read_standings` answers as of any moment on two timelines (``corrected``:
  every event, later corrections included; ``recorded``: only the events recorded up
  to a time or position — what the standings said then); :func:`standings_changes`
  lists the corrections that changed standings already shown.
- Round generation (swiss, knockout) reads :func:`read_standings` through
  :func:`league.services.seating_standings`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, Max, Q, Sum

import engine
from core import DomainError
from engine import GameState
from games import selectors as game_selectors
from league.models import (
    Player,
    ResultVersion,
    Round,
    StandingsGame,
    StandingsRecord,
    StandingsState,
    Table,
    TableSeat,
    Tournament,
)
from league.projection_failures import isolated
from league.ratings import family_of
from league.seating import RECORDS
from league.selectors import games_over, ordinals
from league.standings import (
    CORRECTIONS,
    READ_TYPES,
    GameFold,
    Settings,
    TableResult,
    rank,
    records,
    standings,
)
from league.standings.results import SETTLED
from league.standings.tiebreaks import Record
from league.standings_records import apply_change, record_from_dict, record_to_dict, records_cache
from league.table_views import view_of, views_of

COUNTED_ROUNDS = (Round.Status.PUBLISHED, Round.Status.COMPLETE)
CORRECTED = "corrected"
RECORDED = "recorded"
TIMELINES = (CORRECTED, RECORDED)
# Rows a rebuild reads and writes per statement, and games between progress reports.
BATCH = 2000
BATCH_GAMES = 250
# Events of any game a refresh reads through to find its games' new ones (more: it
# compares its games' versions instead).
SCAN = 10_000
Progress = Callable[[int], None]


def settings_of(tournament: Tournament) -> dict[str, Any]:
    """The tournament's settings in the form :func:`league.standings.standings_from_logs` reads."""
    return {
        "preset": tournament.preset,
        "scoring": tournament.scoring,
        "placement_points": list(tournament.placement_points or []),
        "tiebreaks": list(tournament.tiebreaks or []),
        "bye_points": tournament.bye_points,
        "min_games": tournament.min_games,
        "seed": tournament.seed,
        "kind": tournament.kind,
    }


def rounds_of(tournament_id: int, *, published_by: datetime | None = None) -> list[dict[str, Any]]:
    """The published rounds (byes and tables with their seats) in the pure form,
    ``published_by`` a time when given (rounds published later are left out). Two
    queries."""
    rounds = Round.objects.filter(tournament_id=tournament_id, status__in=COUNTED_ROUNDS)
    if published_by is not None:
        rounds = rounds.filter(Q(published_at__isnull=True) | Q(published_at__lte=published_by))
    shaped: dict[int, dict[str, Any]] = {
        pk: {"number": number, "method": method, "byes": [int(p) for p in byes or []], "tables": []}
        for pk, number, method, byes in rounds.order_by("number").values_list(
            "pk", "number", "method", "byes"
        )
    }
    tables: dict[int, dict[str, Any]] = {}
    seats = (
        TableSeat.objects.filter(table__round_id__in=list(shaped))
        .order_by("table__round__number", "table__number", "position")
        .values_list("table__round_id", "table_id", "table__game_id", "player_id", "bot")
    )
    for round_id, table_id, game_id, player_id, bot in seats:
        table = tables.get(table_id)
        if table is None:
            table = tables[table_id] = {"seats": [], "game": game_id}
            shaped[round_id]["tables"].append(table)
        table["seats"].append({"player": player_id, "bot": bot})
    return list(shaped.values())


# The tables a refresh reads, by game: its round's number, method and status, and the
# table in the pure form (``{"seats", "game"}``).
Tables = dict[int, tuple[int, str, str, dict[str, Any]]]


def _changed_games(tournament_id: int, since: int) -> tuple[list[int], int, Tables | None]:
    """The tournament's games with an event after the global position ``since``, the
    position read to and, when read on the way, their tables. Usually the events since
    then, from the position's index, then the tournament's tables playing their games:
    two queries bounded by what happened since, not by the size of the tournament. After
    a long quiet spell (more than :data:`SCAN` events of any game since), each game's
    version is compared with the ``seq`` read instead: bounded by the tournament's games,
    not by everything else that happened (their tables are read when needed)."""
    moved = game_selectors.games_with_events_after(since, limit=SCAN)
    if moved is None:
        versions = game_selectors.game_versions(_game_ids(tournament_id))
        read = dict(StandingsGame.objects.filter(tournament_id=tournament_id).values_list("game_id", "seq"))
        return sorted(g for g, v in versions.items() if v and read.get(g) != v), since, None
    games, last = moved
    if not games:
        return [], last, {}
    tables = _tables_playing(tournament_id, games)
    return sorted(tables), last, tables


def _tables_playing(tournament_id: int, games: Iterable[int]) -> Tables:
    """The tournament's tables playing ``games``, with their seats, by game. One query."""
    rows = (
        Table.objects.filter(round__tournament_id=tournament_id, game_id__in=list(games))
        .order_by("game_id", "seats__position")
        .values_list(
            "game_id", "round__number", "round__method", "round__status", "seats__player_id", "seats__bot"
        )
    )
    tables: Tables = {}
    for game_id, number, method, status, player_id, bot in rows:
        if game_id not in tables:
            tables[game_id] = (number, method, status, {"seats": [], "game": game_id})
        if bot is not None:  # a seat (None: a table without any, through the outer join)
            tables[game_id][3]["seats"].append({"player": player_id, "bot": bot})
    return tables


def _game_ids(tournament_id: int) -> Any:
    """The ids of the tournament's games, as a lazy queryset (read as a subquery)."""
    return Table.objects.filter(round__tournament_id=tournament_id, game__isnull=False).values_list(
        "game_id", flat=True
    )


def _lock(tournament_id: int) -> StandingsState:
    """The tournament's projection row (with its tournament), locked until the
    transaction ends; made first if need be (a concurrent maker loses the race quietly
    and waits on the lock). Tournament.DoesNotExist for an unknown tournament."""
    locked = StandingsState.objects.select_for_update(of=("self",)).select_related("tournament")
    state = locked.filter(tournament_id=tournament_id).first()
    if state is None:
        Tournament.objects.get(pk=tournament_id)
        StandingsState.objects.get_or_create(tournament_id=tournament_id)
        state = locked.get(tournament_id=tournament_id)
    return state


@dataclass(frozen=True, slots=True)
class Refreshed:
    games_read: int
    versions: int
    position: int


def refresh(tournament_id: int) -> Refreshed:
    """Bring the tournament's standings up to the newest event of its games."""
    with transaction.atomic():
        state = _lock(tournament_id)
        return _refresh_locked(state.tournament, state)


def rebuild(tournament_id: int, *, progress: Progress | None = None) -> Refreshed:
    """Forget the projection of the tournament and build it again from its games' logs
    (read once, in batches; ``progress`` is told the games read after each batch)."""
    with transaction.atomic():
        state = _lock(tournament_id)
        ResultVersion.objects.filter(tournament_id=tournament_id).delete()
        StandingsGame.objects.filter(tournament_id=tournament_id).delete()
        StandingsRecord.objects.filter(tournament_id=tournament_id).delete()
        state.position, state.read_to, state.recorded_at, state.structure, state.rows = 0, 0, None, "", []
        return _refresh_locked(state.tournament, state, rebuilding=True, progress=progress)


def _structure(tournament: Tournament) -> tuple[str, bool]:
    """What the records are built from besides the results, as a digest — the settings
    and the counted rounds (how many, which, the last published: rounds are only ever
    published, once) — and whether a counted round eliminates (a knockout, whose records
    are always built whole). One query, of one row."""
    eliminating = sorted(name for name, record in RECORDS.items() if record.eliminates)
    rounds = Round.objects.filter(tournament_id=tournament.pk, status__in=COUNTED_ROUNDS).aggregate(
        count=Count("pk"),
        ids=Sum("pk"),
        last=Max("published_at"),
        eliminating=Count("pk", filter=Q(method__in=eliminating)),
    )
    text = json.dumps([settings_of(tournament), rounds], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest(), bool(rounds["eliminating"])


def _refresh_locked(
    tournament: Tournament,
    state: StandingsState,
    *,
    rebuilding: bool = False,
    progress: Progress | None = None,
) -> Refreshed:
    """Read the events after the position the standings are current to: only the games
    they belong to are read again (whole logs: a correction can undo any event), only
    their rows and their players' records are written, and the players are ranked again
    from the stored records. A change of settings or of the counted rounds builds the
    records again from every stored result."""
    settings = Settings.from_mapping(settings_of(tournament), stored=True)
    structure, eliminating = _structure(tournament)
    changed, read_to, tables = _changed_games(tournament.pk, max(state.position, state.read_to))
    stored: dict[int, tuple[int, dict[str, Any]]] = {}
    if changed and not rebuilding:
        games = StandingsGame.objects.filter(tournament_id=tournament.pk, game_id__in=changed)
        stored = {g: (seq, result) for g, seq, result in games.values_list("game_id", "seq", "result")}
    new_versions: list[ResultVersion] = []
    results: Read = {}
    if changed:
        # a rebuild reads every game's log in one streamed statement, its ids a subquery
        games_read = _game_ids(tournament.pk) if rebuilding else changed
        results, new_versions = _read_games(
            tournament, state, games_read, stored, progress, replay=rebuilding
        )
        ResultVersion.objects.bulk_create(new_versions, ignore_conflicts=True, batch_size=BATCH)
        _write_games(tournament, results)
    if rebuilding or (results and _may_change_complete_rounds(tournament.pk, results, tables)):
        state.complete_rounds_position = state.position
    moved = {g for g, (_, r, _) in results.items() if g not in stored or stored[g][1] != r}
    # the records as this process's last refresh committed them, if still current
    known = None if rebuilding else records_cache.get(tournament.pk, state.refreshed_at)
    recs: dict[int, Record] | None = None
    if rebuilding or eliminating or structure != state.structure:
        recs = _build_records(tournament, settings)
    elif moved:
        if tables is None:
            tables = _tables_playing(tournament.pk, moved)
        recs = _move_records(tournament, settings, moved, tables, stored, results, known)
    if recs is not None:
        state.rows = rank(settings, recs)
    state.structure, state.read_to = structure, max(read_to, state.position)
    state.error_code, state.failed_at = "", None
    state.save()
    kept = recs if recs is not None else known
    if kept is not None:
        transaction.on_commit(partial(records_cache.put, tournament.pk, state.refreshed_at, kept))
    return Refreshed(len(changed), len(new_versions), state.position)


Read = dict[int, tuple[int, dict[str, Any], dict[str, Any]]]  # game -> (seq, result, view)


def _may_change_complete_rounds(tournament_id: int, results: Read, tables: Tables | None) -> bool:
    """Whether what this refresh writes may change a complete round as the public page
    shows it (the earlier rounds' version, ``StandingsState.complete_rounds_position``):
    a game read plays in a complete round (a correction), or ended the last game its round
    was waiting for (the round completes next, and may be drawn as an earlier round before
    this refresh commits), or the tables were not read (cannot tell). A result of a round
    still waiting for other games changes nothing there: their own ends come later."""
    if tables is None:
        return True
    if any(g in tables and tables[g][2] == Round.Status.COMPLETE for g in results):
        return True
    ended = {
        tables[g][0] for g, (_, result, _) in results.items() if g in tables and result["status"] in SETTLED
    }
    return bool(ended) and games_over(
        Table.objects.filter(round__tournament_id=tournament_id, round__number__in=ended)
    )


def _read_games(
    tournament: Tournament,
    state: StandingsState,
    changed: Iterable[int],
    stored: Mapping[int, tuple[int, dict[str, Any]]],
    progress: Progress | None,
    *,
    replay: bool,
) -> tuple[Read, list[ResultVersion]]:
    """Fold the logs of the ``changed`` games (one statement, streamed in batches): each
    game's new seq, result and what the pages show of it (the engine's replay of the same
    rows: :func:`league.table_views.view_of`), and a result version at each event after
    what was read that changes a result; moves ``state``'s position on."""
    # A rebuild replays every log through the engine as it folds it (one statement, for
    # the pages' table views); a refresh fetches the data of only the events the fold
    # reads (a deal's deck, a draw's card are only counted) and takes the changed games'
    # states from the event store's cache, which catches up on the new events alone.
    events = game_selectors.event_rows(changed, data_of=None if replay else READ_TYPES, chunk_size=BATCH)
    new_versions: list[ResultVersion] = []
    results: Read = {}
    fold: GameFold | None = None
    replayed: GameState | None = None
    current: int | None = None
    last: tuple[int, int, datetime] | None = None

    def close() -> None:
        if current is None or fold is None or last is None:
            return
        seq, position, recorded_at = last
        view = view_of(replayed) if replayed is not None else {}
        results[current] = (seq, fold.result().to_dict(summary=True), view)
        if position > state.position:
            state.position, state.recorded_at = position, recorded_at
        if progress is not None and len(results) % BATCH_GAMES == 0:
            progress(len(results))

    for game_id, seq, position, kind, schema_version, data, actor_id, recorded_at in events:
        if game_id != current:
            close()
            current, fold, replayed = game_id, GameFold(), None
        assert fold is not None
        stored_form = {"type": kind, "schema_version": schema_version, "data": data}
        step = fold.feed(stored_form)
        if replay:
            replayed = engine.apply(replayed, engine.event_from_dict(stored_form))
        last = (seq, position, recorded_at)
        if step is not None and seq > stored.get(game_id, (0, None))[0]:
            new_versions.append(
                ResultVersion(
                    tournament_id=tournament.pk,
                    game_id=game_id,
                    position=position,
                    seq=seq,
                    recorded_at=recorded_at,
                    cause=step.type,
                    hand=step.hand,
                    actor_id=actor_id,
                    reason=step.reason,
                    result=fold.result().to_dict(summary=True),
                )
            )
    close()
    if progress is not None and len(results) % BATCH_GAMES:
        progress(len(results))
    if not replay:
        views = views_of(results)
        results = {g: (seq, result, views.get(g, {})) for g, (seq, result, _) in results.items()}
    return results, new_versions


def _write_games(tournament: Tournament, results: Read) -> None:
    """Each game read: its result and what the pages show of it, upserted."""
    StandingsGame.objects.bulk_create(
        [
            StandingsGame(tournament=tournament, game_id=g, seq=seq, result=result, table=view)
            for g, (seq, result, view) in sorted(results.items())
        ],
        update_conflicts=True,
        unique_fields=["tournament", "game"],
        update_fields=["seq", "result", "table"],
        batch_size=BATCH,
    )


def _build_records(tournament: Tournament, settings: Settings) -> dict[int, Record]:
    """Every player's record from every stored result, written whole (a rebuild, a
    round published, a settings change, a knockout)."""
    rows = StandingsGame.objects.filter(tournament_id=tournament.pk).values_list("game_id", "result")
    parsed = {g: TableResult.from_dict(r) for g, r in rows.iterator(BATCH)}
    recs = records(settings, rounds_of(tournament.pk), parsed)
    StandingsRecord.objects.filter(tournament_id=tournament.pk).exclude(player_id__in=list(recs)).delete()
    _write_records(tournament, recs.values())
    return recs


def _move_records(
    tournament: Tournament,
    settings: Settings,
    moved: set[int],
    tables: Tables,
    stored: Mapping[int, tuple[int, dict[str, Any]]],
    results: Read,
    known: Mapping[int, Record] | None,
) -> dict[int, Record]:
    """Every player's record (``known``, or else the stored ones), with the records of
    the players at the ``moved`` games' tables (in counted rounds) moved from the old
    result to the new one (only those are written)."""
    if known is not None:
        recs = dict(known)
    else:
        stored_records = StandingsRecord.objects.filter(tournament_id=tournament.pk).values_list(
            "player_id", "record"
        )
        recs = {p: record_from_dict(p, r) for p, r in stored_records}
    touched: set[int] = set()
    for game_id in sorted(moved):
        number, method, status, table = tables[game_id]
        if status not in COUNTED_ROUNDS:
            continue
        old = TableResult.from_dict(stored[game_id][1]) if game_id in stored else None
        new = TableResult.from_dict(results[game_id][1])
        touched |= apply_change(recs, settings, number, method, table, old, new)
    _write_records(tournament, (recs[p] for p in sorted(touched)))
    return recs


def _write_records(tournament: Tournament, recs: Iterable[Record]) -> None:
    StandingsRecord.objects.bulk_create(
        [StandingsRecord(tournament=tournament, player_id=r.player, record=record_to_dict(r)) for r in recs],
        update_conflicts=True,
        unique_fields=["tournament", "player"],
        update_fields=["record"],
        batch_size=BATCH,
    )


def refresh_game(game_id: int) -> Refreshed | None:
    """Refresh the standings of the tournament ``game_id`` is played in, if any (None:
    none, or its refresh failed — logged and recorded, see :mod:`league.projection_failures`)."""
    tournament_id = (
        Table.objects.filter(game_id=game_id).values_list("round__tournament_id", flat=True).first()
    )
    if tournament_id is None:
        return None
    return isolated(partial(refresh, tournament_id), tournament=tournament_id)


def stale(tournament_id: int) -> bool:
    """Whether the tournament's standings miss something: a game event not read yet, a
    settings change or a round published since the last refresh."""
    state = StandingsState.objects.filter(tournament_id=tournament_id).first()
    if state is None:
        return True
    versions = game_selectors.game_versions(_game_ids(tournament_id))
    read = dict(StandingsGame.objects.filter(tournament_id=tournament_id).values_list("game_id", "seq"))
    if any(version and read.get(game) != version for game, version in versions.items()):
        return True
    since = state.refreshed_at
    return (
        Tournament.objects.filter(pk=tournament_id, updated_at__gt=since).exists()
        or Round.objects.filter(tournament_id=tournament_id, published_at__gt=since).exists()
    )


def _refresh_if_stale(tournament_id: int) -> Refreshed | None:
    return refresh(tournament_id) if stale(tournament_id) else None


def refresh_all() -> int:
    """Catch up every tournament with games whose standings are stale (the beat task);
    returns how many were refreshed. A tournament whose refresh fails is logged and
    recorded, and the others go on (:mod:`league.projection_failures`)."""
    moved = 0
    ids = Tournament.objects.filter(round_set__tables__game__isnull=False).values_list("pk", flat=True)
    for tournament_id in sorted(set(ids)):
        if isolated(partial(_refresh_if_stale, tournament_id), tournament=tournament_id) is not None:
            moved += 1
    return moved


# --- reading ---------------------------------------------------------------------


class StandingsQueryError(DomainError):
    """A moment the standings cannot be read at (the request's fault: invalid)."""

    def __init__(self, code: str, message: str, *, params: Mapping[str, Any] | None = None) -> None:
        field = "after_round" if code == "round_not_played" else None
        super().__init__(code, message, field=field, params=params)


def check_after_round(tournament_id: int, after_round: int | None) -> None:
    """``round_not_played`` when ``after_round`` is past the last round published (the
    standings "after round 7" of a tournament of 3 rounds would be those after round 3,
    under a wrong heading). One query; nothing when None."""
    if after_round is None:
        return
    last = (
        Round.objects.filter(tournament_id=tournament_id, status__in=COUNTED_ROUNDS)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    ) or 0
    if after_round > last:
        played = f"the last round played is {last}" if last else "no round has been played yet"
        raise StandingsQueryError(
            "round_not_played",
            f"round {after_round} has not been played: {played}",
            params={"after_round": after_round, "last": last},
        )


@dataclass(frozen=True, slots=True)
class Moment:
    """A point of the recorded timeline: a position, or a time."""

    position: int | None = None
    time: datetime | None = None


def _results_at(tournament_id: int, position: int) -> tuple[dict[int, TableResult], ResultVersion | None]:
    """Each game's latest result version at or before ``position``, and the latest one."""
    latest: dict[int, dict[str, Any]] = {}
    newest: ResultVersion | None = None
    versions = ResultVersion.objects.filter(tournament_id=tournament_id, position__lte=position).order_by(
        "position"
    )
    for version in versions.only("game_id", "position", "recorded_at", "result"):
        latest[version.game_id] = version.result
        newest = version
    return {g: TableResult.from_dict(r) for g, r in latest.items()}, newest


def _recorded(
    tournament_id: int, at: Moment
) -> tuple[dict[int, TableResult], ResultVersion | None, datetime | None]:
    """The table results recorded up to ``at``, the last change among them, and the
    time rounds must have been published by to count (None: nothing had happened)."""
    if at.position is not None:
        when = game_selectors.recorded_at_position(at.position)
        results, newest = _results_at(tournament_id, at.position)
        return results, newest, when
    assert at.time is not None
    position = (
        ResultVersion.objects.filter(tournament_id=tournament_id, recorded_at__lte=at.time)
        .order_by("-position")
        .values_list("position", flat=True)
        .first()
    )
    if position is None:
        return {}, None, at.time
    results, newest = _results_at(tournament_id, position)
    return results, newest, at.time


def _name_rows(
    tournament: Tournament, rows: Sequence[Mapping[str, Any]], *, ratings: bool
) -> list[dict[str, Any]]:
    """The rows with each player's name and, with ``ratings``, their rating: the current
    ordinal (mu - 3 sigma) in the club's game family of the tournament's preset (None
    before their first rated game). One query for the names, one for the ordinals."""
    ids = [r["player"] for r in rows]
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    named = [{**r, "player": {"id": r["player"], "name": names.get(r["player"], "")}} for r in rows]
    if not ratings:
        return named
    family = family_of(tournament.preset)
    rated = ordinals(tournament.club_id, family, ids) if family is not None and ids else {}
    return [{**r, "rating": {"family": str(family), "ordinal": rated.get(r["player"]["id"])}} for r in named]


def _up_to_round(rounds: list[dict[str, Any]], after_round: int | None) -> list[dict[str, Any]]:
    return rounds if after_round is None else [r for r in rounds if r["number"] <= after_round]


def read_standings(
    tournament: Tournament,
    *,
    after_round: int | None = None,
    timeline: str = CORRECTED,
    at: Moment | None = None,
    ratings: bool = True,
) -> dict[str, Any]:
    """The standings document of the API: ``timeline``, ``after_round``,
    ``current_to`` (position and time of the last event they include) and ``rows``;
    each row has its player's current rating (``ratings=False`` leaves it out: the
    seating reads only points)."""
    if timeline not in TIMELINES:
        raise StandingsQueryError("invalid_timeline", f"timeline is corrected or recorded, not {timeline!r}")
    if at is not None and timeline != RECORDED:
        raise StandingsQueryError(
            "at_needs_recorded", "at= reads the recorded timeline: add timeline=recorded"
        )
    state = StandingsState.objects.filter(tournament_id=tournament.pk).first()
    if state is None:
        refresh(tournament.pk)
        state = StandingsState.objects.get(tournament_id=tournament.pk)
    settings = Settings.from_mapping(settings_of(tournament), stored=True)
    if timeline == RECORDED and at is not None:
        results, newest, published_by = _recorded(tournament.pk, at)
        rounds = [] if published_by is None else rounds_of(tournament.pk, published_by=published_by)
        rows = standings(settings, _up_to_round(rounds, after_round), results)
        current_to = {
            "position": newest.position if newest is not None else 0,
            "recorded_at": newest.recorded_at.isoformat() if newest is not None else None,
        }
    else:
        if after_round is None:
            rows = list(state.rows)
        else:
            results = stored_results(tournament.pk)
            rows = standings(settings, _up_to_round(rounds_of(tournament.pk), after_round), results)
        current_to = {
            "position": state.position,
            "recorded_at": state.recorded_at.isoformat() if state.recorded_at else None,
        }
    return {
        "timeline": timeline,
        "after_round": after_round,
        "current_to": current_to,
        # in the tournament's order: each row's ``tiebreaks`` is a mapping, and
        # PostgreSQL's jsonb keeps a mapping's keys in an order of its own
        "tiebreaks": list(settings.tiebreaks),
        "rows": _name_rows(tournament, rows, ratings=ratings),
    }


def stored_results(tournament_id: int) -> dict[int, TableResult]:
    """Each game's result as the projection last read it, by game id. One query."""
    rows = StandingsGame.objects.filter(tournament_id=tournament_id).values_list("game_id", "result")
    return {g: TableResult.from_dict(r) for g, r in rows}


def _settled(result: TableResult | None) -> bool:
    return result is not None and result.status in SETTLED


def _summary(rows: Iterable[Mapping[str, Any]]) -> dict[int, tuple[str, int | None]]:
    return {int(r["player"]): (str(r["points"]), r["rank"]) for r in rows}


def standings_changes(tournament: Tournament) -> list[dict[str, Any]]:
    """Every correction that changed standings already shown, oldest first.

    A correction (``Retracted``, ``ScoreAdjusted``) to a game whose result counted (it
    was finished or abandoned) opens an *episode* that lasts until the game is settled
    again (or to now). The entry compares the standings just before the correction with
    the same standings where only that game has moved on to the end of the episode, and
    is listed when any player's points or rank differ. Every correction of the episode
    is listed in it (a retracted finish, then a penalty, then the hand recorded again);
    the first one's author, time, reason, game and hand head it. A correction during a
    game not yet counted changes nothing anybody saw, and is not listed."""
    settings = Settings.from_mapping(settings_of(tournament), stored=True)
    rounds = rounds_of(tournament.pk)
    versions = list(
        ResultVersion.objects.filter(tournament_id=tournament.pk)
        .order_by("position")
        .only("game_id", "position", "seq", "recorded_at", "cause", "hand", "actor_id", "reason", "result")
    )
    current: dict[int, TableResult] = {}
    open_episodes: dict[int, dict[str, Any]] = {}
    episodes: list[dict[str, Any]] = []

    def close(game_id: int, result: TableResult, resolved: ResultVersion | None) -> None:
        episode = open_episodes.pop(game_id)
        after = dict(episode["results_before"])
        after[game_id] = result
        episode["after"] = standings(settings, rounds, after)
        episode["resolved"] = resolved
        episodes.append(episode)

    for version in versions:
        result = TableResult.from_dict(version.result)
        game_id = version.game_id
        if version.cause in CORRECTIONS:
            if game_id in open_episodes:
                open_episodes[game_id]["corrections"].append(version)
            elif _settled(current.get(game_id)):
                before = dict(current)
                open_episodes[game_id] = {
                    "game": game_id,
                    "first": version,
                    "corrections": [version],
                    "results_before": before,
                    "before": standings(settings, rounds, before),
                }
        current[game_id] = result
        if game_id in open_episodes and _settled(result):
            close(game_id, result, version)
    for game_id in list(open_episodes):
        close(game_id, current[game_id], None)
    episodes.sort(key=lambda e: e["first"].position)
    users = dict(
        get_user_model()
        .objects.filter(pk__in={c.actor_id for e in episodes for c in e["corrections"] if c.actor_id})
        .values_list("pk", "username")
    )
    names = dict(Player.objects.filter(tournament_seats_filter(tournament)).values_list("pk", "name"))
    out: list[dict[str, Any]] = []
    for episode in episodes:
        was, now = _summary(episode["before"]), _summary(episode["after"])
        if was == now:
            continue
        first: ResultVersion = episode["first"]
        resolved: ResultVersion | None = episode["resolved"]
        players = sorted(set(was) | set(now), key=lambda p: (now.get(p, ("", None))[1] or 10**9, p))
        out.append(
            {
                "game": episode["game"],
                "hand": first.hand,
                "type": first.cause,
                "reason": first.reason,
                "by": _user(first.actor_id, users),
                "recorded_at": first.recorded_at.isoformat(),
                "position": first.position,
                "resolved_at": None
                if resolved is None
                else {"position": resolved.position, "recorded_at": resolved.recorded_at.isoformat()},
                "corrections": [
                    {
                        "type": c.cause,
                        "reason": c.reason,
                        "hand": c.hand,
                        "by": _user(c.actor_id, users),
                        "recorded_at": c.recorded_at.isoformat(),
                        "position": c.position,
                    }
                    for c in episode["corrections"]
                ],
                "rows": [
                    {
                        "player": {"id": p, "name": names.get(p, "")},
                        "points_before": was[p][0] if p in was else None,
                        "points_after": now[p][0] if p in now else None,
                        "rank_before": was[p][1] if p in was else None,
                        "rank_after": now[p][1] if p in now else None,
                        "changed": was.get(p) != now.get(p),
                    }
                    for p in players
                ],
            }
        )
    return out


def tournament_seats_filter(tournament: Tournament) -> Q:
    return Q(table_seats__table__round__tournament=tournament) | Q(registrations__tournament=tournament)


def _user(actor_id: int | None, users: Mapping[int, str]) -> dict[str, Any] | None:
    return None if actor_id is None else {"id": actor_id, "username": users.get(actor_id, "")}
