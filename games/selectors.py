"""Read side of the event store: the global event feed, a game's log and state as a
viewer may see them, and the reads other apps' projections make of games and events
(standings, ratings, archives: an app reads games only through this module)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Case, F, JSONField, Max, Q, QuerySet, Value, When

import engine
from engine import GameState
from games import store
from games.access import GameAccess, access_for
from games.models import Game, GameEvent, Mode
from games.redaction import redact_events


def events_after(position: int, limit: int = 1000) -> list[GameEvent]:
    """Events of every game with a global ``position`` above ``position``, in order.

    Safe to checkpoint on the last position returned: positions are assigned and
    committed in order under the store's append lock (see :mod:`games.store`), so no
    event with a lower position can become visible later."""
    return list(GameEvent.objects.filter(position__gt=position).order_by("position")[:limit])


@dataclass(frozen=True)
class FinalResult:
    """A finished game as its log says now: each seat's place (1 = first; ties share a
    place) in the result of the ``GameFinished`` in effect, that event's global
    ``position``, and the seats whose occupant changed during the game (by
    ``SeatReplaced``, still in effect)."""

    game_id: int
    position: int
    places: tuple[int, ...]
    replaced: tuple[int, ...]


# The events after which a log is replayed whole to know its finish in effect.
CORRECTIONS = ("Retracted", "SeatReplaced", "HandCorrected")


def final_results(game_ids: Iterable[int], *, finished_from: int = 0) -> list[FinalResult]:
    """The games among ``game_ids`` that are finished now, with their ``GameFinished`` in
    effect at a position of at least ``finished_from``, in the order of that position.

    A log with a ``Retracted``, a ``SeatReplaced`` or a ``HandCorrected`` event is replayed
    whole, so a retracted finish does not count, a game a correction reopened is not
    finished, and a game finished again counts at its new position. (A retraction undoes
    the latest events in effect first, so in a finished game the last ``GameFinished`` of
    the log is the one in effect.) In any other log every event is in effect: its last
    ``GameFinished`` is the one (a finished game adjusted is finished again, with the
    result the adjustment gives), and of it only the places are read, from the stored
    data of the event's current schema version (an older one is read through the engine,
    as is one whose places are not as the engine writes them).

    Two queries (the corrected games, the other finishes), and the corrected games' logs
    if there are any; no literal list of ``game_ids`` when they are a queryset."""
    ids = game_ids if isinstance(game_ids, QuerySet) else list(game_ids)  # a lazy one: a subquery
    finishes = GameEvent.objects.filter(game_id__in=ids, type="GameFinished")
    if finished_from > 0:  # (a bound of 0 would tempt a planner into the position's index)
        finishes = finishes.filter(position__gte=finished_from)
    corrected = set(
        GameEvent.objects.filter(game_id__in=finishes.values("game_id"), type__in=CORRECTIONS).values_list(
            "game_id", flat=True
        )
    )
    found = _replayed_results(corrected, finished_from)
    rows = finishes.order_by("position").values_list(
        "game_id", "position", "schema_version", "data__result__places"
    )
    last = {row[0]: row for row in rows if row[0] not in corrected}  # each game's last finish
    current = engine.GameFinished.SCHEMA_VERSION
    found.extend(
        FinalResult(game_id, position, _stored_places(places, position, version == current), ())
        for game_id, position, version, places in last.values()
    )
    return sorted(found, key=lambda f: f.position)


def _stored_places(places: Any, position: int, current: bool) -> tuple[int, ...]:
    """The places of the ``GameFinished`` at ``position``, read from its stored data when
    it is of the current schema version and as the engine writes it (a list of whole
    numbers); otherwise the event read through the engine (upgraded, or refused)."""
    if current and type(places) is list and all(type(p) is int and p > 0 for p in places):
        return tuple(places)
    row = GameEvent.objects.get(position=position)
    event = engine.event_from_dict(row.stored_form())
    assert isinstance(event, engine.GameFinished)
    return event.result.places


def _replayed_results(game_ids: set[int], finished_from: int) -> list[FinalResult]:
    """:func:`final_results` of ``game_ids`` by replaying each whole log."""
    found: list[FinalResult] = []
    if not game_ids:
        return found
    rows = GameEvent.objects.filter(game_id__in=game_ids).order_by("game_id", "seq")
    current: int | None = None
    state: GameState | None = None
    finished_at = 0
    started: tuple[engine.Seat, ...] = ()

    def close() -> None:
        if current is None or state is None or state.status != "finished" or state.result is None:
            return
        if finished_at < finished_from:
            return
        replaced = tuple(i for i, seat in enumerate(state.seats) if seat != started[i])
        found.append(FinalResult(current, finished_at, state.result.places, replaced))

    for row in rows.only("game_id", "seq", "type", "schema_version", "data", "position").iterator(
        chunk_size=2000
    ):
        if row.game_id != current:
            close()
            current, state, finished_at = row.game_id, None, 0
        state = engine.apply(state, engine.event_from_dict(row.stored_form()))
        if row.seq == 1:
            started = state.seats
        if row.type == "GameFinished":
            finished_at = row.position
    close()
    return found


def hand_corrections(positions: Iterable[int]) -> dict[int, tuple[dict[str, Any], dict[str, Any] | None]]:
    """The ``HandCorrected`` events at ``positions``, each with the data of the new
    ``HandScored`` that follows it in its game: position -> (correction, new score). A
    corrected hand is over, so nothing here is hidden from anyone. Two queries."""
    rows = list(
        GameEvent.objects.filter(position__in=list(positions), type="HandCorrected").values_list(
            "position", "game_id", "seq", "data"
        )
    )
    if not rows:
        return {}
    follow = GameEvent.objects.filter(
        game_id__in={game for _, game, _, _ in rows},
        seq__in={seq + 1 for _, _, seq, _ in rows},
        type="HandScored",
    ).values_list("game_id", "seq", "data")
    scored = {(game, seq): data for game, seq, data in follow}
    return {position: (data, scored.get((game, seq + 1))) for position, game, seq, data in rows}


def game_rows(game: Game) -> list[GameEvent]:
    return list(GameEvent.objects.filter(game_id=game.pk).order_by("seq"))


def viewer_events(game: Game, *, after: int, seat: int | None) -> tuple[list[dict[str, Any]], GameState]:
    """The events after ``seq`` ``after``, redacted for ``seat``, and the current state."""
    rows = game_rows(game)
    head, tail = rows[:after], rows[after:]
    before = store.fold(None, store.to_engine(head))
    steps = store.fold_steps(before, store.to_engine(tail))
    final = steps[-1] if steps else before
    if final is None:
        raise store.CorruptStream(f"game {game.pk} has no events")
    return redact_events(tail, state_before=before, final_state=final, seat=seat, steps=steps), final


def events_for_viewer(user: Any, game: Game, *, after: int, seat: int | None) -> list[dict[str, Any]]:
    """The events after ``seq`` ``after`` as ``user`` may see them: ``seat``'s view if
    ``user`` plays it (else its own seat's, else the public view)."""
    access = access_for(user, game, for_action="read")
    events, _ = viewer_events(game, after=after, seat=access.view_seat(seat))
    return events


def state_payload(access: GameAccess, state: GameState, *, seat: int | None) -> dict[str, Any]:
    """The game as the caller may see it: its seat's view, or the public view. A physical
    game's recorder (owner or scorekeeper, seated nowhere) gets every legal command, with
    the cards the seat to act could hold; everyone else only commands naming cards their
    view shows."""
    game = access.game
    recorder = seat is None and game.mode == Mode.PHYSICAL and not access.seats and access.may_record
    return {
        "id": game.pk,
        "version": state.version,
        "mode": game.mode,
        "status": state.status,
        "owner": game.owner_id,
        "seats": game.seats,
        "viewer": {"role": access.role, "seat": seat, "seats": list(access.seats)},
        "view": engine.view(state, seat, recorder=recorder).to_dict(),
    }


def export_document(game: Game) -> dict[str, Any]:
    """The whole log of ``game``, unredacted, in the form ``POST /games/import`` reads."""
    return {
        "format": "knockrummy-game-log",
        "format_version": 1,
        "game": {
            "id": game.pk,
            "mode": game.mode,
            "status": game.status,
            "version": game.version,
            "ruleset": game.ruleset,
            "seats": game.seats,
            "created_at": game.created_at.isoformat(),
        },
        "events": [
            {
                "seq": row.seq,
                "type": row.type,
                "schema_version": row.schema_version,
                "data": row.data,
                "source": row.source,
                "actor": row.actor_id,
                "recorded_at": row.recorded_at.isoformat(),
            }
            for row in game_rows(game)
        ],
    }


def recent_games(limit: int = 10) -> list[dict[str, Any]]:
    """The latest games, newest first, for listings: id, mode, status, preset, version,
    seat names. Nothing hidden is read (no state, no events)."""
    games = Game.objects.only("id", "mode", "status", "ruleset", "version", "seats").order_by("-id")[:limit]
    return [
        {
            "id": game.pk,
            "mode": game.mode,
            "status": game.status,
            "preset": game.ruleset.get("preset", ""),
            "version": game.version,
            "seats": [seat["name"] for seat in game.seats],
        }
        for game in games
    ]


def match_results(game_ids: Iterable[int]) -> dict[int, engine.MatchResult]:
    """The result of each finished game among ``game_ids`` (its latest ``GameFinished``;
    games not finished are left out). The league reads standings and winners from it."""
    rows = (
        GameEvent.objects.filter(game_id__in=list(game_ids), type="GameFinished", game__status="finished")
        .order_by("game_id", "seq")
        .only("game_id", "type", "schema_version", "data")
    )
    results: dict[int, engine.MatchResult] = {}
    for row in rows:
        event = engine.event_from_dict(row.stored_form())
        assert isinstance(event, engine.GameFinished)
        results[row.game_id] = event.result
    return results


def games_in_play_for(user_id: int, *, limit: int = 10, scan: int = 200) -> list[dict[str, Any]]:
    """The digital games still in play where ``user_id`` holds a seat, newest first (of
    the latest ``scan`` such games): id, preset and seat names. Nothing hidden is read."""
    games = (
        Game.objects.filter(mode=Mode.DIGITAL)
        .exclude(status__in=("finished", "abandoned"))
        .only("id", "ruleset", "seats")
        .order_by("-id")[:scan]
    )
    found = []
    for game in games:
        if game.seats_of(user_id):
            found.append(
                {
                    "id": game.pk,
                    "preset": game.ruleset.get("preset", ""),
                    "seats": [seat["name"] for seat in game.seats],
                }
            )
            if len(found) >= limit:
                break
    return found


# --- reads for other apps' projections ----------------------------------------------------
#
# ``game_ids`` arguments may be a lazy queryset of ids (``values_list(..., flat=True)``):
# it is then read as a subquery of the same statement, not as a query of its own.

# (game_id, seq, position, type, schema_version, data, actor_id, recorded_at)
EventRow = tuple[int, int, int, str, int, Any, int | None, datetime]


def game_versions(game_ids: Iterable[int]) -> dict[int, int]:
    """Each game's version (the ``seq`` of its last event), by id. One query."""
    return dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "version"))


def event_rows(
    game_ids: Iterable[int], *, data_of: Collection[str] | None, chunk_size: int = 2000
) -> Iterator[EventRow]:
    """The events of ``game_ids``, per game in ``seq`` order, as :data:`EventRow` tuples,
    streamed in chunks. Only the events of the types in ``data_of`` have their data read
    (None for the rest): most of a digital game's bytes are never decoded. ``data_of``
    None: every event's data."""
    payload: Any = F("data")
    if data_of is not None:
        payload = Case(
            When(type__in=sorted(data_of), then=F("data")), default=Value(None), output_field=JSONField()
        )
    rows = (
        GameEvent.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "seq")
        .annotate(payload=payload)
        .values_list(
            "game_id", "seq", "position", "type", "schema_version", "payload", "actor_id", "recorded_at"
        )
    )
    return rows.iterator(chunk_size)


def games_with_events_after(position: int, *, limit: int) -> tuple[list[int], int] | None:
    """The games with an event after the global ``position``, of any game, and the
    highest position among those events (``position`` when none); None when there are
    more than ``limit`` such events. Read from the position's index, so its cost follows
    the events since ``position`` (at most ``limit``), not the number of games. One query."""
    # no DISTINCT: SQLite would answer it from the (game, seq) index, over every event
    rows = GameEvent.objects.filter(position__gt=position).order_by("position")
    found = list(rows.values_list("game_id", "position")[: limit + 1])
    if len(found) > limit:
        return None
    return sorted({game for game, _ in found}), found[-1][1] if found else position


def recorded_at_position(position: int) -> datetime | None:
    """When the last event at or before the global ``position`` was recorded (None
    before the first event). One query."""
    return (
        GameEvent.objects.filter(position__lte=position)
        .order_by("-position")
        .values_list("recorded_at", flat=True)
        .first()
    )


def game_ids_among(*among: Iterable[int], presets: Collection[str]) -> QuerySet[Game, int]:
    """The ids of the games in any of ``among`` played by one of the rule ``presets``, as
    a lazy queryset (a subquery where it is used; no query until it is read)."""
    within = Q(pk__in=[])
    for ids in among:
        within |= Q(pk__in=ids)
    return Game.objects.filter(within, ruleset__preset__in=sorted(presets)).values_list("pk", flat=True)


def seats_of(game_ids: Iterable[int]) -> dict[int, list[dict[str, Any]]]:
    """Each game's seats as created (``{"name", "user"?, "bot"?}`` per seat), by id."""
    return dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "seats"))


def event_positions(
    game_ids: Iterable[int], *, types: Collection[str], after: int = 0
) -> list[tuple[int, int]]:
    """(game id, global position) of every event of ``game_ids`` of the given ``types``
    after the global position ``after``. One query."""
    return list(
        GameEvent.objects.filter(
            game_id__in=game_ids, type__in=sorted(types), position__gt=after
        ).values_list("game_id", "position")
    )


def events_after_of_types(position: int, *, types: Collection[str]) -> list[tuple[int, int]]:
    """(game id, global position) of every event of the given ``types`` after the global
    ``position``, of any game: read from the position's index, so its cost follows the
    events since ``position``, whatever the number of games. One query."""
    return list(
        GameEvent.objects.filter(position__gt=position, type__in=sorted(types))
        .order_by("position")
        .values_list("game_id", "position")
    )


def last_position(game_ids: Iterable[int], *, types: Collection[str]) -> int:
    """The highest global position of an event of ``game_ids`` of the given ``types``
    (0 when there is none). One query."""
    top = GameEvent.objects.filter(game_id__in=game_ids, type__in=sorted(types)).aggregate(
        top=Max("position")
    )
    return int(top["top"] or 0)


def preset_of(game_id: int) -> str | None:
    """The rule preset a game is played by (None for an unknown game or a ruleset
    without a preset)."""
    preset = Game.objects.filter(pk=game_id).values_list("ruleset__preset", flat=True).first()
    return preset if isinstance(preset, str) else None


def statuses(game_ids: Iterable[int]) -> dict[int, str]:
    """The status of each game among ``game_ids`` that has events (written with every
    append: no event is read), by id. One query."""
    return dict(Game.objects.filter(pk__in=game_ids, version__gt=0).values_list("pk", "status"))


def current_states(game_ids: Iterable[int]) -> dict[int, GameState]:
    """The current state of each game among ``game_ids`` that has events, by id: the
    cached replay (:func:`games.store.load_state`), so a page showing many games replays
    only what changed. Unredacted: a caller shows only what the public may know."""
    games = Game.objects.filter(pk__in=game_ids).defer("snapshot")
    return {game.pk: store.load_state(game) for game in games if game.version > 0}


def games_by_id(game_ids: Iterable[int]) -> dict[int, Game]:
    """The games among ``game_ids``, by id (for :func:`export_document`). One query."""
    return {game.pk: game for game in Game.objects.filter(pk__in=game_ids)}
