"""The one write path of the event store: create, submit, import, and bot turns.

A command is decided optimistically, as event stores do: the caller hands over the game
row it has read (and checked the caller's permission on); the service recognises a
retried idempotency key (returns the original result, writes nothing), checks the
expected version (a stale one is a :class:`VersionConflict`), loads the state and calls
``engine.decide`` — all without a lock or a transaction. Then one transaction updates
the game row *only if it is still at the version read*, appends the events and writes
the outbox rows (:func:`games.store.write_game_and_events`). If another write got there
first, nothing is written and the caller gets a :class:`VersionConflict` — or, when the
write that got there first was this same command (a retry racing its original), the
original result. Nothing is ever written over a newer version: every change to a game
moves its version.

Refusals are :class:`StoreError` subclasses (:mod:`games.errors`, re-exported here) or
the engine's ``IllegalMove``: each a :class:`core.DomainError` with a stable ``code`` and a
kind, which the API maps to a status (``api.errors``). :func:`submit_as` is the one way a
person's command reaches a game: it checks who may send it (:mod:`games.access`) first.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import secrets
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

import engine
from config.celery import app as celery_app
from engine import Event, GameStarted, GameState, IllegalMove
from engine.bots import get_bot
from engine.errors import EngineError
from games import outbox, store
from games.access import GameAccess, access_for, access_game_for_command, authorize_command, check_access

# The store's refusals, raised here and re-exported (callers catch services.VersionConflict).
from games.errors import IdempotencyKeyReused as IdempotencyKeyReused
from games.errors import InvalidLog as InvalidLog
from games.errors import RuleSetRefused as RuleSetRefused
from games.errors import StoreError as StoreError
from games.errors import VersionConflict as VersionConflict
from games.models import Game, GameEvent, Mode, OutboxMessage, Source
from games.seat_checks import bots_named_in, check_known_bot, check_playable, check_replacement

log = logging.getLogger(__name__)

# A deal the system adds can itself need another deal (a void hand); never loop forever.
MAX_AUTO_DEALS = 8
# Bot moves one play_bot_turn task makes before handing over to a fresh task.
BOT_MOVES_PER_TASK = 500
FINAL_STATUSES = ("finished", "abandoned")
# The longest pause between bot moves a game may ask for, in seconds.
MAX_BOT_DELAY = 10.0


@dataclass(frozen=True)
class SeatSpec:
    """A seat of a new game: a named player, a user (named after them unless ``name``),
    or a bot."""

    name: str | None = None
    user_id: int | None = None
    bot: str | None = None


@dataclass(frozen=True)
class SubmitResult:
    """What a write appended (``events``), the state before and after it, and whether
    it was a retry answered from the log (``replayed``: nothing was written)."""

    game: Game
    version: int
    events: list[GameEvent]
    state: GameState
    state_before: GameState | None
    replayed: bool = False
    # The state after each of ``events``, when the write folded them (redaction uses
    # them instead of replaying the events again).
    steps: tuple[GameState, ...] | None = None


def new_idempotency_key() -> str:
    return f"auto:{uuid.uuid4().hex}"


# json.dumps(value, sort_keys=True, separators=(",", ":")), without making an encoder per call.
# Stored digests were made with exactly this text: a change here breaks idempotent retries.
_DIGEST_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"))


def command_digest(command: Mapping[str, Any], actor_id: int | None) -> str:
    """Identifies a write for idempotency: the normalised command and who sent it."""
    blob = _DIGEST_ENCODER.encode({"command": command, "actor": actor_id})
    return hashlib.sha256(blob.encode()).hexdigest()


def _actor_id(actor: Any) -> int | None:
    return actor.pk if actor is not None and getattr(actor, "is_authenticated", False) else None


def bot_move_delay(game: Game) -> float:
    """Seconds a bot waits before its move in ``game``: its own ``bot_delay``, else
    ``settings.BOT_MOVE_DELAY``. The wait is a Celery countdown on the bot turn, so it
    holds no worker; when Celery runs eagerly (in process) nothing can wait without
    blocking the request, and bots move at once."""
    if celery_app.conf.task_always_eager:
        return 0.0
    delay = game.bot_delay if game.bot_delay is not None else settings.BOT_MOVE_DELAY
    return max(0.0, float(delay))


def bot_to_move(state: GameState) -> bool:
    seat = state.to_move
    return state.status not in FINAL_STATUSES and seat is not None and state.seats[seat].bot is not None


# --- create ------------------------------------------------------------------------------


def create_game(
    *,
    ruleset: engine.RuleSet,
    mode: str,
    seats: Sequence[SeatSpec],
    first_dealer: int = 0,
    stake: Fraction = Fraction(0),
    owner: Any,
    source: str,
    idempotency_key: str | None = None,
    context: Mapping[str, Any] | None = None,
    after_create: Callable[[Game], None] | None = None,
    bot_delay: float | None = None,
    followed: bool = False,
) -> SubmitResult:
    """Open a game owned by ``owner``: ``GameStarted`` (and, digitally, the first deal).

    ``after_create`` runs in the same transaction once the game row exists — the league
    links a game to its club there; ``context`` (JSON) is what distinguishes such a
    creation for idempotency (a retry must name the same club). ``followed``: another app
    follows the game, so its writes carry that app's outbox rows (``Game.followed``; the
    league's games are). ``bot_delay`` is the seconds between two bot moves of this game
    (None: ``settings.BOT_MOVE_DELAY``)."""
    if bot_delay is not None and not (0 <= bot_delay <= MAX_BOT_DELAY):
        raise IllegalMove(f"bot_delay must be from 0 to {MAX_BOT_DELAY} seconds", "malformed_command")
    seat_rows = _resolve_seats(seats)
    check_playable(mode=mode, seat_rows=seat_rows)
    start = engine.StartGame(
        ruleset=ruleset,
        seats=tuple(engine.Seat(row["name"], row["bot"]) for row in seat_rows),
        mode=mode,
        first_dealer=first_dealer,
        stake=stake,
    )
    started = engine.decide(None, start)  # IllegalMove (400) before anything is written
    owner_id = _actor_id(owner)
    described: dict[str, Any] = {
        **engine.command_to_dict(start),
        "users": seat_rows,
        "context": dict(context or {}),
    }
    if bot_delay is not None:  # only then: the digests of earlier creations stay as they were
        described["bot_delay"] = bot_delay
    digest = command_digest(described, owner_id)
    key = idempotency_key or new_idempotency_key()
    # A retry (the owner's key again) collides with the original's row on the unique
    # (owner, creation_key) and is answered from the original: no lookup before every
    # creation, and a retry racing its original waits for it to commit.
    try:
        with transaction.atomic():
            game = Game.objects.create(
                ruleset=ruleset.to_dict(),
                mode=mode,
                seats=seat_rows,
                owner_id=owner_id,
                creation_key=idempotency_key if owner_id is not None and idempotency_key else "",
                bot_delay=bot_delay,
                followed=followed,
            )
            if after_create is not None:
                after_create(game)
            return _append(game, None, [(e, owner, source) for e in started], key=key, digest=digest)
    except IntegrityError:
        earlier = _earlier_creation(owner_id, key, digest) if owner_id is not None else None
        if earlier is None:
            raise
        return earlier


def ruleset_named(preset: str, options: Mapping[str, Any]) -> engine.RuleSet:
    """The rule set ``preset`` with ``options`` for :func:`create_game`
    (:class:`RuleSetRefused` when the rules do not know them)."""
    try:
        return engine.get_ruleset(preset, **options)
    except engine.InvalidRuleSet as exc:
        raise RuleSetRefused(exc.message, field=exc.field) from None


def _resolve_seats(seats: Sequence[SeatSpec]) -> list[dict[str, Any]]:
    user_ids = {seat.user_id for seat in seats if seat.user_id is not None}
    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=user_ids)}
    rows = []
    for index, seat in enumerate(seats):
        if seat.bot is not None:
            check_known_bot(seat.bot, where=f"seat {index}")
            if seat.user_id is not None:
                raise IllegalMove(f"seat {index}: a bot seat has no user", "malformed_command")
        name = seat.name
        if seat.user_id is not None:
            user = users.get(seat.user_id)
            if user is None:
                raise IllegalMove(f"seat {index}: there is no user {seat.user_id}", "unknown_user")
            name = name or user.get_username()
        if not name:
            name = f"{seat.bot.capitalize()} bot" if seat.bot else ""
        if not name or len(name) > 80:
            raise IllegalMove(f"seat {index}: a seat needs a name of 1 to 80 characters", "malformed_command")
        rows.append({"name": name, "bot": seat.bot, "user": seat.user_id})
    return rows


def _earlier_creation(owner_id: int | None, key: str, digest: str) -> SubmitResult | None:
    game = Game.objects.filter(owner_id=owner_id, creation_key=key).first()
    if game is None:
        return None
    rows = list(GameEvent.objects.filter(GameEvent.command_key_filter(key), game=game).order_by("seq"))
    return _replayed(game, rows, digest)


# --- submit ------------------------------------------------------------------------------


def submit_as(
    user: Any,
    game: int | Game | GameAccess,
    command: Mapping[str, Any],
    *,
    expected_version: int,
    idempotency_key: str | None,
    source: str,
) -> SubmitResult:
    """The one way a person's command reaches a game — the API, the director's desk, the
    scorekeeper's page and the play page all come through here.

    ``game`` is an id (the game is read with what the write needs of its log:
    ``not_found`` if there is none), a game row as the caller read it, or the
    :class:`~games.access.GameAccess` the caller already got for ``user`` (checked again
    for the command without a query; what it read of the log with the row, if anything,
    is used). Who may send a command at all (:func:`~games.access.check_access`, kinds
    unauthenticated and forbidden), then who may send this one
    (:func:`~games.access.authorize_command`), then :func:`submit_command`, whose refusals
    (the engine's, a stale version, a reused key) it passes on. Every refusal is a
    :class:`core.DomainError`; none writes.
    """
    if isinstance(game, GameAccess):
        if game.user is not user:
            raise ValueError("submit_as: the access given is another user's")
        access = game
        check_access(access, "command")
    elif isinstance(game, Game):
        access = access_for(user, game, for_action="command")
    else:
        access = access_game_for_command(user, game, idempotency_key=idempotency_key)
    authorize_command(access, command)
    return submit_command(
        game=access.game,
        command=command,
        actor=user,
        source=source,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        log_read=access.log,
    )


def submit_command(
    *,
    game: Game,
    command: Mapping[str, Any],
    actor: Any,
    source: str,
    expected_version: int,
    idempotency_key: str | None = None,
    log_read: store.LogRead | None = None,
) -> SubmitResult:
    """Decide ``command`` (wire form) by ``actor`` against ``game`` at
    ``expected_version`` and append its events. ``game`` is the row as the caller read
    it (whoever may send the command has been checked on it): the write goes through
    only if the game is still at that row's version. ``log_read`` is what the caller read of
    the log with that row (:func:`games.store.read_game_for_write`, asking about
    ``idempotency_key``); without it the log is read here.

    Raises ``IllegalMove`` (malformed or against the rules), :class:`VersionConflict`
    or :class:`IdempotencyKeyReused`; none of them writes.
    """
    parsed = engine.command_from_dict(command)
    if isinstance(parsed, engine.StartGame):
        raise IllegalMove("StartGame opens a new game: POST /api/v1/games", "unexpected_command")
    key = idempotency_key or new_idempotency_key()
    wire = engine.command_to_dict(parsed)
    digest = command_digest(wire, _actor_id(actor))
    if log_read is None or log_read.key != idempotency_key:
        log_read = store.read_log(game, key)
    if log_read.key_used:
        return _earlier_write(game, key, digest)
    if isinstance(parsed, engine.ReplaceSeat):
        check_replacement(mode=game.mode, seat_rows=game.seats, command=parsed)
    if expected_version != game.version:
        raise VersionConflict(
            game=game, command=wire, expected_version=expected_version, current_version=game.version
        )
    # a retraction goes back through the game's history, which only a full replay has
    state = store.load_state(game, tail=log_read.tail, use_cache=not isinstance(parsed, engine.Retract))
    if state.mode == Mode.DIGITAL and isinstance(parsed, engine.DealHand) and source != Source.SYSTEM:
        raise IllegalMove("digital games are dealt by the system", "dealt_by_system")
    items = [(event, actor, source) for event in engine.decide(state, parsed)]
    try:
        return _append(game, state, items, key=key, digest=digest)
    except store.WriteConflict:
        # Another write got there first: this same command sent again (a retry racing
        # the original), or another command, which makes this decision stale.
        if GameEvent.objects.filter(game_id=game.pk, idempotency_key=key).exists():
            return _earlier_write(game, key, digest)
        current = Game.objects.filter(pk=game.pk).values_list("version", flat=True).first() or 0
        raise VersionConflict(
            game=game, command=wire, expected_version=expected_version, current_version=current
        ) from None


def _earlier_write(game: Game, key: str, digest: str) -> SubmitResult:
    """The original result of the write whose idempotency key is ``key``."""
    rows = list(GameEvent.objects.filter(GameEvent.command_key_filter(key), game=game).order_by("seq"))
    return _replayed(game, rows, digest)


def _replayed(game: Game, rows: list[GameEvent], digest: str) -> SubmitResult:
    """The original result of the write ``rows`` came from, if ``digest`` is the same."""
    if not rows or rows[0].command_digest != digest:
        raise IdempotencyKeyReused(
            "this Idempotency-Key was already used for a different command; use a new key per command"
        )
    before = store.state_at(game, rows[0].seq - 1)
    steps = store.fold_steps(before, store.to_engine(rows))
    after = steps[-1]
    return SubmitResult(game, after.version, rows, after, before, replayed=True, steps=tuple(steps))


def _append(
    game: Game,
    state_before: GameState | None,
    items: list[tuple[Event, Any, str]],
    *,
    key: str,
    digest: str,
) -> SubmitResult:
    """Apply ``items``, add the system's deal to a digital game waiting for one, then
    write everything, provided the game is still at ``game.version`` (else
    :class:`games.store.WriteConflict`, nothing written)."""
    steps = store.fold_steps(state_before, [event for event, _, _ in items])
    state = steps[-1] if steps else state_before
    assert state is not None
    deals = 0
    while state.needs_deal and deals < MAX_AUTO_DEALS:
        deck = engine.shuffled_deck(state.ruleset, secrets.token_bytes(32))
        dealt = engine.decide(state, engine.DealHand(deck=deck))
        items = [*items, *((event, None, Source.SYSTEM) for event in dealt)]
        steps += store.fold_steps(state, dealt)
        state = steps[-1]
        deals += 1
    if state.version != game.version + len(items):
        raise store.CorruptStream(f"game {game.pk}: version {game.version} + {len(items)} != {state.version}")
    rows = store.new_rows(game, items, command_key=key, command_digest=digest, first_seq=game.version + 1)

    changes: dict[str, Any] = {"version": state.version, "status": state.status}
    if state.status in FINAL_STATUSES:
        # the final state, which verify_games compares with the replay of the log
        changes["snapshot"] = state.to_dict()
    seats = None
    for event, _, _ in items:
        if isinstance(event, engine.SeatReplaced):
            seats = list(seats if seats is not None else game.seats)
            seats[event.seat] = {"name": event.name, "bot": event.bot, "user": None}
    if seats is not None:
        changes["seats"] = seats
    messages = outbox.subscribed_messages(game, (type(event).__name__ for event, _, _ in items))
    if bot_to_move(state):
        turn: dict[str, Any] = {"game_id": game.pk, "expected_version": state.version}
        delay = bot_move_delay(game)
        if delay > 0:
            turn[outbox.COUNTDOWN] = delay
        messages.append((outbox.PLAY_BOT_TURN, turn))
    rows, outbox_ids = store.write_game_and_events(game, changes, rows, messages=messages)
    for name, value in changes.items():
        setattr(game, name, value)
    final = state
    transaction.on_commit(lambda: store.state_cache.put(game, final))
    outbox.dispatch_on_commit(outbox_ids, messages)
    return SubmitResult(game, state.version, rows, state, state_before, steps=tuple(steps))


# --- import ------------------------------------------------------------------------------


def checked_log(log_events: Sequence[Any]) -> tuple[list[Event], GameState]:
    """A stored log's events and final state if the rules would have written it
    (:func:`engine.audit_log`: every move decided again, every hand scored again) and it
    seats only bots this server runs; else :class:`InvalidLog` naming the first event
    that differs. Used by :func:`import_game` and by the tournament archive check."""
    events: list[Event] = []
    for index, stored in enumerate(log_events):
        try:
            event = engine.event_from_dict(stored)
            for where, bot in bots_named_in(event):
                check_known_bot(bot, where=where)  # the worker could not run it
        except EngineError as exc:
            raise InvalidLog(index=index, event_code=exc.code, message=exc.message) from None
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, AssertionError) as exc:
            raise InvalidLog(index=index, event_code="invalid_event", message=str(exc) or repr(exc)) from None
        events.append(event)
    if not events:
        raise InvalidLog(index=0, event_code="empty_log", message="the log has no events")
    try:
        return events, engine.audit_log(events)
    except engine.LogRefused as exc:
        raise InvalidLog(index=exc.index, event_code=exc.code, message=exc.message) from None


def import_game(
    *,
    log_events: Sequence[Any],
    owner: Any,
    source: str,
    idempotency_key: str | None = None,
    followed: bool = False,
) -> SubmitResult:
    """Store a whole exported log as a new game owned by ``owner``, once
    :func:`checked_log` accepts it; otherwise nothing is written. ``followed`` as for
    :func:`create_game` (a tournament archive's games are)."""
    events, state = checked_log(log_events)
    started = events[0]
    assert isinstance(started, GameStarted)  # engine.apply refuses a log that opens otherwise
    owner_id = _actor_id(owner)
    digest = command_digest({"import": [engine.event_to_dict(e) for e in events]}, owner_id)
    key = idempotency_key or new_idempotency_key()
    if idempotency_key is not None and owner_id is not None:
        earlier = _earlier_creation(owner_id, key, digest)
        if earlier is not None:
            return earlier
    with transaction.atomic():
        game = Game.objects.create(
            ruleset=state.ruleset.to_dict(),
            mode=state.mode,
            seats=[{"name": s.name, "bot": s.bot, "user": None} for s in started.seats],
            owner_id=owner_id,
            creation_key=idempotency_key if owner_id is not None and idempotency_key else "",
            followed=followed,
        )
        return _append(game, None, [(e, owner, source) for e in events], key=key, digest=digest)


# --- bots --------------------------------------------------------------------------------


def run_bot_turns(*, game_id: int, expected_version: int, max_moves: int = BOT_MOVES_PER_TASK) -> int:
    """Play bot seats from ``expected_version`` until a human must act, the game ends or
    ``max_moves`` moves were made; returns the number of moves. A paced game
    (:func:`bot_move_delay` above 0) plays one move per task: the next bot turn is sent
    with the delay as its countdown. Idempotent: a duplicate
    delivery finds its bot key already used (or the game moved on) and writes nothing.

    Outbox rows the moves write are held during the loop (the loop plays them) and
    settled after it, so eager mode runs a whole bot sequence without recursing."""
    played = 0
    version = expected_version
    with outbox.holding() as held:
        while played < max_moves:
            moved_to, again = _play_bot_move(game_id, version)
            if moved_to is None:
                break
            version = moved_to
            played += 1
            if not again:
                break
    if held is not None:
        final = version

        def handled(message: OutboxMessage) -> bool:
            payload: dict[str, Any] = message.payload
            expected_version: int = payload.get("expected_version", 0)
            return (
                message.topic == outbox.PLAY_BOT_TURN
                and payload.get("game_id") == game_id
                and expected_version < final
            )

        outbox.settle(held, handled=handled)
    return played


def _play_bot_move(game_id: int, version: int) -> tuple[int | None, bool]:
    """One bot move at ``version``: the version it led to (None: nothing was written)
    and whether a bot is to move again."""
    key = f"bot:{game_id}:{version}"
    read = store.read_game_for_write(game_id, key)
    if read is None or read[0].version != version:
        return None, False
    game, log_read = read
    state = store.load_state(game, tail=log_read.tail)
    if not bot_to_move(state):
        return None, False
    seat = state.to_move
    assert seat is not None
    bot_name = state.seats[seat].bot
    assert bot_name is not None
    command = get_bot(bot_name)(engine.view(state, seat), random.Random(f"{game.uid}:{version}"))
    try:
        result = submit_command(
            game=game,
            command=engine.command_to_dict(command),
            actor=None,
            source=Source.BOT,
            expected_version=version,
            idempotency_key=key,
            log_read=log_read,
        )
    except (VersionConflict, IdempotencyKeyReused):
        return None, False
    except IllegalMove as exc:
        log.error("game %s: bot %s at seat %s chose an illegal move: %s", game_id, bot_name, seat, exc)
        return None, False
    if result.replayed:
        return None, False
    return result.version, bot_to_move(result.state) and bot_move_delay(game) == 0
