"""What the pages show of a tournament table's game, kept by the standings projection so
no page replays a game to list it (issue 26): its hands scored, each seat's running
score and, once finished, each seat's place and game points — everything public once a
hand is scored. The standings refresh stores a table's view (:func:`view_of`: of the
game's state from the event store's cache in a refresh, of the engine's replay of the
rows it reads anyway in a rebuild) beside its result whenever it reads new events of
its game (:class:`~league.models.StandingsGame`); the game's status is read
from the game's row, which every append writes.

A page reads the views of every table it shows in two queries (:func:`table_views`),
whatever the number of games, and never an event.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine import GameState
from engine.state import PLAYING, SHOWDOWN
from games import selectors as game_selectors
from league.models import StandingsGame
from league.selectors import RoundTable

# Events that change what the pages show of a table but not its result (a knock-rami
# re-entry sets the seat's score): the standings refresh is queued for them too.
SHOWN = ("ReentryDecided",)
# The statuses of a game with a hand in play (dealt, not yet scored).
IN_HAND = (PLAYING, SHOWDOWN)


def view_of(state: GameState) -> dict[str, Any]:
    """The stored view of a game's state (JSON)."""
    result = state.result
    tally = state.tally
    return {
        "hands": tally.hands_scored,
        # hands dealt and over (scored or void): the hand in play, if any, is not counted,
        # so a deal after this refresh shows through the game's status (TableView.hand)
        "over": tally.hands_dealt - (state.status in IN_HAND),
        "scores": [str(s) for s in state.scores],
        "places": None if result is None else list(result.places),
        "points": None if result is None else [str(p) for p in result.points],
    }


def views_of(game_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """The stored views of ``game_ids``, from their current states in the event store's
    cache (:func:`games.selectors.current_states`: a process that has a game's state
    replays only the events after it)."""
    return {game: view_of(state) for game, state in game_selectors.current_states(game_ids).items()}


@dataclass(frozen=True, slots=True)
class TableView:
    """A table's game as the pages show it. ``status`` is the game's ("" before it has
    one); ``scores`` the running totals (empty before the projection has read the game);
    ``hands_over`` the hands dealt and over, void ones included."""

    status: str
    hands_scored: int = 0
    scores: tuple[Fraction, ...] = ()
    places: tuple[int, ...] | None = None
    points: tuple[Fraction, ...] | None = None
    hands_over: int = 0

    @property
    def hand(self) -> int:
        """The number of the hand in play, or of the last hand dealt between hands and
        once the game is over (0 before the first deal): what a replay's hand number is."""
        return self.hands_over + (self.status in IN_HAND)

    def score(self, seat: int) -> Fraction | None:
        """A seat's running total once a hand is scored or the game is over; None before."""
        if seat >= len(self.scores) or (not self.hands_scored and self.places is None):
            return None
        return self.scores[seat]


EMPTY = TableView("")


def _view(status: str, stored: Mapping[str, Any] | None) -> TableView:
    if not stored:
        return TableView(status)
    places, points = stored.get("places"), stored.get("points")
    hands = int(stored.get("hands") or 0)
    return TableView(
        status=status,
        hands_scored=hands,
        scores=tuple(Fraction(s) for s in stored.get("scores") or ()),
        places=None if places is None else tuple(int(p) for p in places),
        points=None if points is None else tuple(Fraction(p) for p in points),
        # a view stored before "over" was: its scored hands (void hands aside)
        hands_over=int(stored.get("over", hands)),
    )


def table_views(game_ids: Iterable[int], statuses: Mapping[int, str] | None = None) -> dict[int, TableView]:
    """The view of each game among ``game_ids`` that has events, by id. Two queries; one
    when the caller has read the games' ``statuses`` already (of those with events, as
    :func:`games.selectors.statuses` gives them: a round's tables carry them)."""
    ids = list(game_ids)
    if statuses is None:
        statuses = game_selectors.statuses(ids)
    stored = dict(StandingsGame.objects.filter(game_id__in=ids).values_list("game_id", "table"))
    return {game: _view(status, stored.get(game)) for game, status in statuses.items()}


def tables_views(tables: Iterable[RoundTable]) -> dict[int, TableView]:
    """:func:`table_views` of rounds' tables (:func:`league.selectors.round_tables`),
    which carry their games' statuses: one query."""
    statuses = {t.game_id: t.game_status or "" for t in tables if t.game_id is not None and t.game_version}
    return table_views(list(statuses), statuses)
