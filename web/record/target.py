"""What the record page records and who may open it: a tournament table's game (the
club's directors and scorekeepers, and whoever ``games.access`` lets record it) or a
club game outside a tournament."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse

from games import store
from games.access import GameAccess, access_for
from games.models import Game
from league.access import require_recorder
from league.selectors import table_of_game, table_with_round


@dataclass
class Target:
    """What the page records: a game, with how to name it and where it lives."""

    game: Game | None
    title: str
    url: str  # the page's own address; the forms post here
    access: GameAccess | None = None  # the user's, once the page has a game
    heading: str = ""
    not_ready: str = ""
    back: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def preview_url(self) -> str:
        return self.url + "/preview"

    @property
    def undo_url(self) -> str:
        return self.url + "/undo"


def _signed_in(request: HttpRequest) -> HttpResponse | None:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return None


def _table_target(request: HttpRequest, table_id: int) -> Target:
    table = table_with_round(table_id)
    if table is None:
        raise Http404(f"There is no table {table_id}.")
    tournament = table.round.tournament
    url = reverse("table-record", args=[table.pk])
    title = f"Table {table.number} · round {table.round.number}"
    target = Target(None, title, url, heading=f"{tournament.name} — {tournament.club.name}")
    if table.round.status == "draft" or table.game_id is None:
        require_recorder(request.user, tournament.club_id)
        target.not_ready = (
            f"Round {table.round.number} is not published yet. Its tables get their games when "
            "the director publishes the round; then this page records the game at this table."
        )
        return target
    game = store.read_game(table.game_id)
    if game is None:  # pragma: no cover - the foreign key keeps the game
        raise Http404("The table's game is missing.")
    # The table's game is recorded by whoever games.access lets record it: the club's
    # directors and scorekeepers (the league's recorder check) and the game's owner.
    target.game, target.access = game, access_for(request.user, game, for_action="record")
    return target


def _game_target(request: HttpRequest, game_id: int) -> Target | HttpResponse:
    game = store.read_game(game_id)
    if game is None:
        raise Http404(f"There is no game {game_id}.")
    table = table_of_game(game.pk)
    if table is not None:
        return HttpResponseRedirect(reverse("table-record", args=[table.pk]))
    access = access_for(request.user, game, for_action="record")
    names = " · ".join(seat["name"] for seat in game.seats)
    return Target(
        game, f"Game {game.pk}", reverse("game-record", args=[game.pk]), heading=names, access=access
    )


def resolve(request: HttpRequest, kind: str, pk: int) -> Target | HttpResponse:
    login = _signed_in(request)
    if login is not None:
        return login
    return _table_target(request, pk) if kind == "table" else _game_target(request, pk)
