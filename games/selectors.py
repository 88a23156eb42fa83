"""Read side of the event store: the global event feed, a game's log and state as a
viewer may see them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

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
