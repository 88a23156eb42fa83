"""Who may do what with a game — the only place it is decided, for the API and the pages.

Roles: a *seat* player (a user seated in the game), the game's *owner*, a
*scorekeeper* (a user some registered recorder check vouches for — the league app
registers one for its clubs' scorekeepers and directors, see
:func:`register_recorder_check`),
*system* (bots and the service itself, which never come through here) and the
*public* (everyone else, anonymous users included).

- Everyone may read a game; a seat player sees its own seat's view, everyone else the
  public view (which never shows a seat's cards or the stock order).
- Digital games: a seat player plays only its own seats (not seats a bot took over);
  the owner and scorekeepers may adjust, replace, retract and abandon; nobody deals;
  nobody seated at the table retracts (it would show them the cards a move uncovered).
- Physical games: the owner and scorekeepers record every command, but one: replacing an
  earlier hand's result (``CorrectHand``) is for a *director* of the club the game is
  played under (a registered director check says who, see
  :func:`register_director_check`); a game no club holds is corrected by its owner.
- Export: the whole log once the game is over, or a physical game's log to a recorder
  who does not play in it.

A refusal is a :class:`core.DomainError` of kind *not found*, *unauthenticated* or
*forbidden* (the API answers 404, 401 or 403; a page shows its own words).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from core import DomainError, Kind
from games import store
from games.models import Game, Mode

# read: see the game; command: send commands at all (which ones: authorize_command);
# record: open the scorekeeper's page; export: the whole log.
Action = Literal["read", "command", "record", "export"]

# Digital commands that belong to the table's organiser, not to a seat.
RECORDER_COMMANDS = frozenset({"AdjustScore", "ReplaceSeat", "Retract", "AbandonGame"})
OVER = ("finished", "abandoned")

# Apps above this one (the league) say who else may record a game: each check gets the
# user id and the game and answers whether that user is one of its scorekeepers.
RecorderCheck = Callable[[int, Game], bool]
_recorder_checks: list[RecorderCheck] = []


# Each director check gets the user id and the game and answers True (the user directs the
# club the game is played under), False (a club holds the game, and the user does not
# direct it) or None (no club it knows holds the game).
DirectorCheck = Callable[[int, Game], bool | None]
_director_checks: list[DirectorCheck] = []

# Commands for a director of the game's club (a game of no club: its owner).
DIRECTOR_COMMANDS = frozenset({"CorrectHand"})


def register_director_check(check: DirectorCheck) -> None:
    """Add a rule for who directs the club a game is played under (idempotent)."""
    if check not in _director_checks:
        _director_checks.append(check)


def register_recorder_check(check: RecorderCheck) -> None:
    """Add a rule for who records a game besides its owner (idempotent)."""
    if check not in _recorder_checks:
        _recorder_checks.append(check)


def is_recorder(user_id: int, game: Game) -> bool:
    return any(check(user_id, game) for check in _recorder_checks)


@dataclass(frozen=True)
class GameAccess:
    game: Game
    user: Any
    seats: tuple[int, ...]
    is_owner: bool
    # What a command's write needs of the game's log, read with the row
    # (:func:`access_game_for_command`); None when the row was read alone.
    log: store.LogRead | None = None

    @cached_property
    def is_scorekeeper(self) -> bool:
        """Asked only when it matters (a query per recorder check), then remembered."""
        user = self.user
        if self.is_owner or user is None or not user.is_authenticated:
            return False
        return is_recorder(user.pk, self.game)

    @property
    def may_record(self) -> bool:
        return self.is_owner or self.is_scorekeeper

    @cached_property
    def may_direct(self) -> bool:
        """A director of the club the game is played under; the owner of a game no club
        holds. Asked only for a director's command (a query per check)."""
        user = self.user
        if user is None or not user.is_authenticated:
            return False
        answers = [check(user.pk, self.game) for check in _director_checks]
        if True in answers:
            return True
        return self.is_owner and False not in answers

    @property
    def role(self) -> str:
        if self.seats:
            return "seat"
        if self.is_owner:
            return "owner"
        if self.is_scorekeeper:
            return "scorekeeper"
        return "public"

    def view_seat(self, requested: int | None = None, to_move: int | None = None) -> int | None:
        """The seat whose view this user gets: the one asked for, else the seat to move,
        else the first of its seats; None (the public view) for non-players."""
        if requested is not None and requested in self.seats:
            return requested
        if to_move is not None and to_move in self.seats:
            return to_move
        return self.seats[0] if self.seats else None


def access_game_by_id(user: Any, game_id: int, *, for_action: Action) -> GameAccess:
    """The caller's access to game ``game_id`` for ``for_action``; a ``not_found``,
    ``not_authenticated`` or forbidden :class:`~core.DomainError` when it has none."""
    game = store.read_game(game_id)
    if game is None:
        raise _not_found(game_id)
    return access_for(user, game, for_action=for_action)


def access_game_for_command(user: Any, game_id: int, *, idempotency_key: str | None) -> GameAccess:
    """:func:`access_game_by_id` for a command, whose write then needs no read of its own:
    the row is read with whether ``idempotency_key`` was used (None: a fresh key) and the
    events the cached state lacks (:func:`games.store.read_game_for_write`), which the
    access carries (``log``). The access is decided on that row before anything is
    written; the log read is used only once it has been."""
    read = store.read_game_for_write(game_id, idempotency_key)
    if read is None:
        raise _not_found(game_id)
    return access_for(user, read[0], for_action="command", log=read[1])


def access_for(user: Any, game: Game, *, for_action: Action, log: store.LogRead | None = None) -> GameAccess:
    """The caller's access to ``game`` (already loaded — the command path checks the row
    its write has read, and ``log``, what it read of the log with it) for ``for_action``;
    an unauthenticated or forbidden :class:`~core.DomainError` when it has none.
    :func:`access_game_by_id` is this plus fetching the game (and its ``not_found``)."""
    authenticated = bool(user is not None and user.is_authenticated)
    user_id = user.pk if authenticated else None
    is_owner = authenticated and game.owner_id == user_id
    access = GameAccess(game, user, game.seats_of(user_id), is_owner, log)
    check_access(access, for_action)
    return access


def _not_found(game_id: int) -> DomainError:
    return DomainError(
        "not_found", f"there is no game {game_id}", kind=Kind.NOT_FOUND, params={"game": game_id}
    )


def check_access(access: GameAccess, for_action: Action) -> None:
    """Refuse ``for_action`` unless ``access`` allows it (no query once the access has
    answered whether its user records the game)."""
    game = access.game
    if for_action == "command":
        if access.user is None or not access.user.is_authenticated:
            raise DomainError("not_authenticated", "sign in to act in a game", kind=Kind.UNAUTHENTICATED)
        if not access.seats and not access.may_record:
            raise _forbidden("permission_denied", "you neither play in nor record this game")
    elif for_action == "record":
        if access.user is None or not access.user.is_authenticated:
            raise DomainError("not_authenticated", "sign in to record a game", kind=Kind.UNAUTHENTICATED)
        if not access.may_record:
            raise _forbidden("recorder_only", "a game is recorded by its owner or a scorekeeper")
    elif for_action == "export":
        over = game.status in OVER
        if not over and not (game.mode == Mode.PHYSICAL and access.may_record and not access.seats):
            raise _forbidden(
                "export_not_allowed",
                "the whole log holds hidden cards: it can be exported once the game is over",
            )


def _forbidden(code: str, message: str, **params: Any) -> DomainError:
    return DomainError(code, message, kind=Kind.FORBIDDEN, params=params)


def authorize_command(access: GameAccess, command: Mapping[str, Any]) -> None:
    """Refuse (forbidden) unless the caller may send ``command`` (already parsed, wire form)."""
    game = access.game
    kind = command.get("type")
    if kind in DIRECTOR_COMMANDS:
        if access.may_direct:
            return
        raise _forbidden(
            "director_only",
            f"{kind} is for a director of the game's club (or the owner of a game no club holds)",
            command=kind,
        )
    if game.mode == Mode.PHYSICAL:
        if access.may_record:
            return
        raise _forbidden("recorder_only", "a physical game is recorded by its owner or a scorekeeper")
    if kind == "DealHand":
        raise _forbidden("dealt_by_system", "digital games are dealt by the system")
    if kind == "Retract" and access.seats:
        # Undoing a draw would show a seated player the top of the stock.
        raise _forbidden(
            "seated_player_cannot_retract",
            "in a digital game nobody seated at the table may retract, the owner included",
        )
    if kind in RECORDER_COMMANDS:
        if access.may_record:
            return
        raise _forbidden("recorder_only", f"{kind} is for the game's owner or a scorekeeper", command=kind)
    seat = command.get("seat")
    if isinstance(seat, int) and seat in access.seats and game.seats[seat].get("bot") is None:
        return
    shown = seat if isinstance(seat, int) and not isinstance(seat, bool) else None
    raise _forbidden("not_your_seat", f"you may not act for seat {seat}", seat=shown)
