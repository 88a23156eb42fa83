"""Playing in the browser: a seated player's page of their digital game, the poll that
brings the bots' moves, and practice games against bots started from the home page.

The page shows only the player's own view (:func:`engine.view` for their seat); the
moves it offers are that view's legal commands, and a posted move is checked against
them again before it reaches the one submit path, :func:`games.services.submit_as`;
a refusal is worded by :mod:`web.refusals`. Plain form posts
work without JavaScript; htmx swaps the table in place and polls while others move
(an unchanged poll is a 304)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

import engine
from core import DomainError, Kind
from engine import GameState
from engine.rules import PRESETS
from games import services, store
from games.access import GameAccess, access_for
from games.models import Game, Mode, Source
from games.redaction import live_hand
from league.people import player_of
from web import replay
from web.forms import posted_key
from web.refusals import words
from web.views.games import game_or_404
from web.words import game_status_text

# How often the page asks for news while others are to move.
POLL_EVERY = "1s"
# Bot names of a practice game, in seat order after the player.
PRACTICE_BOTS = ("Bea", "Cal", "Dot")
PRACTICE_PACES = {"normal": None, "fast": 0.0, "slow": 2.0}
DEFAULT_OPPONENTS = {"knock-rummy": 2, "knock-rummy-hoyle": 2, "knock-rami": 2, "gin-rummy": 1}


def human_seats(access: GameAccess) -> list[int]:
    """The seats the user plays in person (not seats a bot has taken over)."""
    seats = access.game.seats
    return [s for s in access.seats if seats[s].get("bot") is None]


def player_access(request: HttpRequest, game: Game) -> tuple[GameAccess, list[int]]:
    """The user's access to ``game`` as one of its seated players; a 403 page otherwise."""
    access = access_for(request.user, game, for_action="read")
    seats = human_seats(access)
    if game.mode != Mode.DIGITAL:
        raise PermissionDenied(
            _("A game played at a real table is recorded by its scorekeeper, not played here.")
        )
    if not seats:
        raise PermissionDenied(_("Only the players seated in this game may play it."))
    return access, seats


def _seat(seats: list[int], state: GameState) -> int:
    return state.to_move if state.to_move in seats else seats[0]


@dataclass
class Actions:
    """The moves open to the player now, as the page offers them."""

    draw_stock: bool = False
    draw_discard: bool = False
    pass_upcard: bool = False
    restock: bool = False
    decline: bool = False
    lay_down: bool = False
    reenter: bool = False
    stay_out: bool = False
    discards: set[str] = field(default_factory=set)
    knocks: list[str] = field(default_factory=list)

    @property
    def any(self) -> bool:
        return bool(
            self.draw_stock
            or self.draw_discard
            or self.pass_upcard
            or self.restock
            or self.decline
            or self.lay_down
            or self.reenter
            or self.stay_out
            or self.discards
            or self.knocks
        )


def actions_of(legal: tuple[engine.Command, ...]) -> Actions:
    found = Actions()
    for command in legal:
        if isinstance(command, engine.DrawFromStock):
            found.draw_stock = True
        elif isinstance(command, engine.DrawFromDiscard):
            found.draw_discard = True
        elif isinstance(command, engine.PassUpcard):
            found.pass_upcard = True
        elif isinstance(command, engine.Restock):
            found.restock = True
        elif isinstance(command, engine.DeclineDraw):
            found.decline = True
        elif isinstance(command, engine.Discard):
            found.discards.add(command.card.code)
        elif isinstance(command, engine.Knock):
            if command.lay_down:
                found.lay_down = True
            elif command.card is not None:
                found.knocks.append(command.card.code)
        elif isinstance(command, engine.DecideReentry):
            if command.reenter:
                found.reenter = True
            else:
                found.stay_out = True
    return found


def parse_move(move: str, seat: int) -> engine.Command | None:
    """A posted move (``"Discard:7H"``, ``"DrawFromStock"``…) as the command it names
    for ``seat``; None when it names none."""
    kind, _, code = move.partition(":")
    card = None
    if code:
        try:
            card = engine.Card.parse(code)
        except engine.InvalidCard:
            return None
    simple: dict[str, engine.Command] = {
        "DrawFromStock": engine.DrawFromStock(seat),
        "DrawFromDiscard": engine.DrawFromDiscard(seat),
        "PassUpcard": engine.PassUpcard(seat),
        "Restock": engine.Restock(seat),
        "DeclineDraw": engine.DeclineDraw(seat),
        "LayDown": engine.Knock(seat, None, True),
        "Reenter": engine.DecideReentry(seat, True),
        "StayOut": engine.DecideReentry(seat, False),
    }
    if card is None:
        return simple.get(kind)
    if kind == "Discard":
        return engine.Discard(seat, card)
    if kind == "Knock":
        return engine.Knock(seat, card)
    return None


def _status_line(view: engine.View, seat: int, names: list[str], actions: Actions) -> str:
    if view.status in services.FINAL_STATUSES:
        return _("The game is %(status)s.") % {"status": game_status_text(view.status)}
    if view.to_move == seat:
        if view.status == "awaiting_reentry":
            return _("Your score has reached the limit: re-enter, or stay out.")
        if view.phase == "offer":
            return _("Your turn: take the upcard, or pass.")
        if view.phase == "draw":
            return _("Your turn: draw a card from the stock or take the discard.")
        if view.phase == "discard":
            if actions.knocks or actions.lay_down:
                return _("Your turn: discard a card, or knock.")
            return _("Your turn: discard a card.")
    if view.to_move is not None:
        return _("Waiting for %(player)s…") % {"player": names[view.to_move]}
    return _("The game is %(status)s.") % {"status": game_status_text(view.status)}


def play_context(game: Game, seat: int, state: GameState, *, error: str | None = None) -> dict[str, Any]:
    view = engine.view(state, seat)
    names = [s.name for s in state.seats]
    actions = actions_of(view.legal_commands)
    arranged = None
    if view.hand:
        best = engine.best_arrangement(view.hand, state.ruleset)
        arranged = {
            "melds": [[c.code for c in meld.cards] for meld in best.melds],
            "deadwood_cards": [c.code for c in best.unmatched],
            "deadwood": best.deadwood,
        }
    last = None
    if view.last_hand is not None:
        last = replay.showdown(view.last_hand, state.ruleset, names)
    over = view.status in services.FINAL_STATUSES
    waiting = not over and view.to_move != seat
    return {
        "game": game,
        "seat": seat,
        "view": view,
        "version": state.version,
        "names": names,
        "actions": actions,
        "arranged": arranged,
        "taken": view.taken_card.code if view.taken_card is not None else None,
        "table": replay.table(state, seat, live_hand=live_hand(state)),
        "hide_own": True,
        "showdown": last,
        "over": over,
        "polling": waiting,
        "poll_every": POLL_EVERY,
        "status_line": _status_line(view, seat, names, actions),
        "error": error,
        "sheet": replay.score_sheet(state),
        "preset": state.ruleset.preset,
    }


@login_required
def play_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = game_or_404(game_id)
    access, seats = player_access(request, game)
    if request.method == "POST":
        return _play_move(request, game, access, seats)
    state = store.load_state(game)
    return render(request, "games/play.html", play_context(game, _seat(seats, state), state))


def _play_move(request: HttpRequest, game: Game, access: GameAccess, seats: list[int]) -> HttpResponse:
    state = store.load_state(game)
    seat = _seat(seats, state)
    error = _submit(request, game, access, seat, state)
    if error is None and not _is_htmx(request):
        return redirect("game-play", game_id=game.pk)
    fresh = store.read_game(game.pk) or game
    state = store.load_state(fresh)
    context = play_context(fresh, _seat(seats, state), state, error=error)
    if _is_htmx(request):
        return render(request, "games/_play.html", context)
    return render(request, "games/play.html", context, status=400)


def _is_htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def _submit(request: HttpRequest, game: Game, access: GameAccess, seat: int, state: GameState) -> str | None:
    """Send the posted move; the reason in words when it was not played."""
    names = [s.name for s in state.seats]
    try:
        raw_version = request.POST.get("version", "")
        if not (raw_version.isascii() and raw_version.isdigit() and len(raw_version) <= 9):
            raise DomainError("bad_version", "the form's version is not a number")
        command = parse_move(request.POST.get("move", ""), seat)
        if command is None or command not in engine.view(state, seat).legal_commands:
            if int(raw_version) != state.version:
                raise DomainError("version_conflict", "the game moved on", kind=Kind.CONFLICT)
            raise DomainError("move_not_open", "not one of the view's legal commands")
        services.submit_as(
            request.user,
            access,
            engine.command_to_dict(command),
            expected_version=int(raw_version),
            idempotency_key=posted_key(request, f"play:{game.pk}"),
            source=Source.WEB,
        )
    except DomainError as exc:
        return words(exc, names, page="play")
    return None


def play_state(request: HttpRequest, game_id: int) -> HttpResponse:
    """The poll: the table again if the game has moved past ``?v=`` (or the ETag sent in
    If-None-Match), else a 304 with no body. One read of the game row when unchanged."""
    game = game_or_404(game_id)
    if not request.user.is_authenticated:
        raise PermissionDenied("Sign in to play.")
    _, seats = player_access(request, game)
    etag = f'"game-{game.pk}-v{game.version}"'
    if request.GET.get("v") == str(game.version) or request.headers.get("If-None-Match") == etag:
        unchanged = HttpResponseNotModified()
        unchanged["ETag"] = etag
        unchanged["Cache-Control"] = "no-store"
        return unchanged
    state = store.load_state(game)
    response = render(request, "games/_play.html", play_context(game, _seat(seats, state), state))
    response["ETag"] = etag
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def start_practice(request: HttpRequest) -> HttpResponse:
    """A practice game: the player and bots, under the preset chosen on the home page."""
    preset = request.POST.get("preset", "")
    opponents_raw = request.POST.get("opponents", "")
    pace = request.POST.get("pace", "normal")
    if preset not in PRESETS:
        messages.error(request, _("Choose one of the presets offered."))
        return redirect("home")
    if opponents_raw not in ("", "1", "2", "3"):
        messages.error(request, _("Choose 1, 2 or 3 opponents."))
        return redirect("home")
    opponents = int(opponents_raw) if opponents_raw else DEFAULT_OPPONENTS.get(preset, 1)
    if pace not in PRACTICE_PACES:
        messages.error(request, _("Choose a pace offered: normal, fast or slow."))
        return redirect("home")
    try:
        ruleset = services.ruleset_named(preset, {})
        players = opponents + 1
        if not ruleset.min_players <= players <= ruleset.max_players:
            messages.error(
                request,
                _("%(preset)s is for %(low)s to %(high)s players, not %(players)s.")
                % {
                    "preset": preset,
                    "low": ruleset.min_players,
                    "high": ruleset.max_players,
                    "players": players,
                },
            )
            return redirect("home")
        # the player sits under their player name (the club knows them by it), not their username
        player = player_of(request.user)
        name = player.name if player is not None else None
        seats = [services.SeatSpec(user_id=request.user.pk, name=name)] + [
            services.SeatSpec(name=f"{PRACTICE_BOTS[i]} (bot)", bot="greedy") for i in range(opponents)
        ]
        result = services.create_game(
            ruleset=ruleset,
            mode=Mode.DIGITAL,
            seats=seats,
            first_dealer=opponents,  # the last bot deals: the player moves first
            owner=request.user,
            source=Source.WEB,
            idempotency_key=posted_key(request, "practice"),
            bot_delay=PRACTICE_PACES[pace],
        )
    except DomainError as exc:
        messages.error(request, _("The practice game could not be started: %(why)s") % {"why": words(exc)})
        return redirect("home")
    return redirect(reverse("game-play", kwargs={"game_id": result.game.pk}))


urlpatterns = [
    path("games/practice/", start_practice, name="practice-start"),
    path("games/<int:game_id>/play", play_page, name="game-play"),
    path("games/<int:game_id>/play/state", play_state, name="game-play-state"),
]
