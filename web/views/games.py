"""The game page ``/games/<id>/``: a replay viewer. Step through the log move by move
(``?step=N`` links, buttons, the arrow keys), jump to a hand, see the table as this
viewer may see it, the score sheet, each showdown explained, and the log's export."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path

from core import DomainError
from engine import GameState
from games import selectors, store
from games.access import GameAccess, access_for
from games.models import Game
from games.redaction import live_hand, redact_events
from games.services import FINAL_STATUSES
from web import replay
from web.words import describe, game_status_text


@dataclass
class Move:
    step: int
    hand_number: int
    text: str
    kind: str


@dataclass
class Replay:
    """A game's log folded once for one request: the state after each event and every
    event in words, as the viewer may see them."""

    game: Game
    access: GameAccess
    seat: int | None
    states: list[GameState]
    moves: list[Move]
    live_hand: int | None

    @property
    def final(self) -> GameState:
        return self.states[-1]

    def hand_starts(self) -> dict[int, int]:
        """The step at which each hand was dealt."""
        starts: dict[int, int] = {}
        for move in self.moves:
            if move.kind in ("HandDealt", "HandResultRecorded"):
                starts.setdefault(move.hand_number, move.step)
        return starts


def game_or_404(game_id: int) -> Game:
    game = store.read_game(game_id)
    if game is None:
        raise Http404(f"There is no game {game_id}.")
    return game


def build_replay(game: Game, user: Any) -> Replay:
    access = access_for(user, game, for_action="read")
    seat = access.view_seat(None)
    rows = selectors.game_rows(game)
    states = store.fold_steps(None, store.to_engine(rows))
    if not states:
        raise Http404(f"Game {game.pk} has no events.")
    events = redact_events(rows, state_before=None, final_state=states[-1], seat=seat, steps=states)
    moves = []
    before: GameState | None = None
    for index, (event, after) in enumerate(zip(events, states, strict=True), start=1):
        names = [s.name for s in (before or after).seats]
        hand_state = after.hand if event["type"] == "HandDealt" or before is None else before.hand
        number = event["data"].get("hand_number") or (hand_state.number if hand_state is not None else 0)
        moves.append(Move(index, int(number or 0), describe(event, names), event["type"]))
        before = after
    return Replay(game, access, seat, states, moves, live_hand(states[-1]))


def _step_asked(request: HttpRequest, built: Replay) -> int:
    """The step asked for (``?step=N``, or the first step of ``?hand=H``), kept within
    the log; anything unreadable means the latest step."""
    last = len(built.states)
    hand = request.GET.get("hand", "")
    if hand.isascii() and hand.isdigit() and len(hand) <= 9:
        start = built.hand_starts().get(int(hand))
        if start is not None:
            return start
    raw = request.GET.get("step", "")
    if raw.isascii() and raw.isdigit() and len(raw) <= 9:
        return min(max(int(raw), 1), last)
    return last


def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = game_or_404(game_id)
    built = build_replay(game, request.user)
    step = _step_asked(request, built)
    state = built.states[step - 1]
    move = built.moves[step - 1]
    names = [s.name for s in state.seats]
    shown = None
    if state.tally.results and state.hand is not None:
        latest = state.tally.results[-1]
        if latest.hand_number == state.hand.number or state.hand.phase == "over":
            shown = replay.showdown(latest.to_dict()["data"], state.ruleset, names)
    try:
        access_for(request.user, game, for_action="export")
        exportable = True
    except DomainError:
        exportable = False
    hand_moves = [m for m in built.moves if m.hand_number == move.hand_number] if move.hand_number else []
    context = {
        "game": game,
        "replay": built,
        "step": step,
        "last": len(built.states),
        "move": move,
        "hand_moves": hand_moves,
        "table": replay.table(state, built.seat, live_hand=built.live_hand),
        "sheet": replay.score_sheet(state),
        "names": names,
        "showdown": shown,
        "hands": sorted(built.hand_starts().items()),
        "exportable": exportable,
        "viewer_seat": built.seat,
        "can_play": bool(built.access.seats)
        and game.mode == "digital"
        and built.final.status not in FINAL_STATUSES,
        "preset": state.ruleset.preset,
        "status_text": game_status_text(built.final.status),
    }
    return render(request, "games/replay.html", context)


urlpatterns = [
    path("games/<int:game_id>/", game_page, name="game-page"),
]
