"""A table's corrections: undo the last entry, adjust a score, replace a seat, abandon
the game (each confirmed on a second page), through the one submit path
(``games.services.submit_as``), and the list of those made."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy

import engine
from core import DomainError
from engine.errors import EngineError
from games import selectors as game_selectors
from games import services as game_services
from games import store
from games.models import Game, Source
from league import limits, services
from league.models import Table, Tournament
from web.corrections import CODES as CORRECTION_CODES
from web.corrections import correction_action, correction_change, word_change
from web.desk.common import director_tournament
from web.desk.hands import hands_context
from web.desk.pages import live_status
from web.forms import BadField, posted_key, posted_text, posted_whole
from web.record.log import effective, last_entry
from web.refusals import words
from web.words import describe, points_text, seat_name

_POINTS = re.compile(r"^-?\d{1,6}(?:/\d{1,6}|\.\d{1,3})?$")
# The fields of the correction forms that a refusal is shown under.
SHOWN_FIELDS = frozenset({"reason", "seat", "points", "name"})
# A game's version in a posted form: more than any game reaches.
MAX_VERSION = 10**9
KINDS = {
    "retract": gettext_lazy("Undo the last entry"),
    "adjust": gettext_lazy("Adjust a score"),
    "replace": gettext_lazy("Replace a seat"),
    "abandon": gettext_lazy("Abandon the game"),
}


def _table(tournament: Tournament, table_id: int) -> Table:
    table = get_object_or_404(
        Table.objects.select_related("round", "game"), pk=table_id, round__tournament=tournament
    )
    if table.game is None:
        raise Http404("this table has no game yet: its round is a draft")
    return table


def corrections_made(game: Game) -> list[dict[str, Any]]:
    """The corrections in the game's log: what, by whom, when, and why. Their data are a
    seat, points, a name and a reason, a corrected hand's result: no card of a hand in play."""
    log = game_selectors.game_rows(game)
    rows = [row for row in log if row.type in CORRECTION_CODES]
    users = get_user_model().objects.in_bulk({row.actor_id for row in rows if row.actor_id is not None})
    names = [str(s["name"]) for s in game.seats]
    made = []
    for row in rows:
        data = row.data
        actor = users.get(row.actor_id) if row.actor_id is not None else None
        # a corrected hand's new score follows it
        scored = log[row.seq].data if row.type == "HandCorrected" and row.seq < len(log) else None
        change = correction_change(row.type, data, scored)
        made.append(
            {
                "what": correction_action(row.type),
                "change": change,
                "detail": word_change(change, names),
                "reason": data.get("reason", ""),
                "by": actor.get_username() if actor is not None else gettext("the system"),
                "at": row.recorded_at,
                "seq": row.seq,
            }
        )
    return made


def _seat_name(game: Game, seat: Any) -> str:
    return seat_name([str(s["name"]) for s in game.seats], seat)


def _last_entry(game: Game) -> str:
    """The last entry in effect, in words, from the public (redacted) form of the log: the
    move that began it (a hand's result, say, with the scoring and game end it caused)."""
    entry = _last_events(game)
    if not entry:
        return ""
    return describe(entry[0], [str(s["name"]) for s in game.seats]).rstrip(".")


def _last_events(game: Game) -> list[Any]:
    """The events of the last entry in effect (public form): what "undo" undoes together."""
    if game.version <= 1:
        return []
    events, _ = game_selectors.viewer_events(game, after=0, seat=None)
    return last_entry(effective(events)[0])


def _undo_refused(game: Game) -> str:
    """Why the last entry cannot be undone ('' when it can): the page offers only what the
    engine would accept (a digital deal is never undone, for one)."""
    count = len(_last_events(game))
    if not count:
        return ""
    try:
        # a retraction goes back through the game's history, which only a full replay has
        engine.decide(store.load_state(game, use_cache=False), engine.Retract(count, "asked by the desk"))
    except EngineError as exc:
        return words(exc, [str(s["name"]) for s in game.seats], page="desk")
    return ""


def _command(kind: str, post: Any, game: Game) -> tuple[dict[str, Any], str]:
    """The engine command a correction form asks for, and the sentence confirming it.
    Malformed input raises :class:`BadField` naming the field, with a message for it."""
    reason = posted_text(post, "reason", gettext("The reason"), limits.REASON_LENGTH, lines=True)
    # the engine's ReplaceSeat carries no reason: the log says who took the seat, and who did it
    if not reason and kind != "replace":
        raise BadField("reason", gettext("Say why: a correction needs a reason."))
    seat = None
    if kind in ("adjust", "replace"):
        seat = posted_whole(post, "seat", gettext("The seat"), 0, len(game.seats) - 1, required=False)
        if seat is None:
            raise BadField("seat", gettext("Choose a seat."))
    if kind == "retract":
        # the whole entry: a hand's result with the scoring and the game end it caused
        count = max(1, len(_last_events(game)))
        return {"type": "Retract", "count": count, "reason": reason}, gettext("Undo the last entry")
    if kind == "abandon":
        return {"type": "AbandonGame", "reason": reason}, gettext(
            "Abandon the game (it ends without a result)"
        )
    if kind == "adjust":
        text = str(post.get("points", "")).strip()
        try:
            if not _POINTS.match(text):
                raise ValueError(text)
            amount = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise BadField(
                "points", gettext("Points are a whole number or a fraction, like -10, 5/2 or 2.5.")
            ) from None
        if amount == 0:
            raise BadField("points", gettext("An adjustment of 0 changes nothing."))
        assert seat is not None
        return (
            {"type": "AdjustScore", "seat": seat, "points": str(amount), "reason": reason},
            gettext("Adjust %(name)s's score by %(points)s")
            % {"name": _seat_name(game, seat), "points": points_text(amount)},
        )
    if kind == "replace":
        name = posted_text(post, "name", gettext("The name"), limits.PLAYER_NAME_LENGTH)
        if not name:
            raise BadField(
                "name",
                gettext("Name the player taking the seat (1 to %(most)s characters).")
                % {"most": limits.PLAYER_NAME_LENGTH},
            )
        assert seat is not None
        return (
            {"type": "ReplaceSeat", "seat": seat, "name": name, "bot": None},
            gettext("Give %(name)s's seat to %(new)s") % {"name": _seat_name(game, seat), "new": name},
        )
    raise BadField("kind", gettext("Choose a correction."))


def _table_context(tournament: Tournament, table: Table) -> dict[str, Any]:
    assert table.game is not None
    status, label, hand, scores = live_status(store.load_state(table.game))
    return {
        "tournament": tournament,
        "club": tournament.club,
        "table": table,
        "game": table.game,
        "status": status,
        "label": label,
        "hand": hand,
        "seats": list(
            zip([s["name"] for s in table.game.seats], scores or [""] * len(table.game.seats), strict=False)
        ),
        "corrections": corrections_made(table.game),
        "last_entry": _last_entry(table.game),
        "undo_refused": _undo_refused(table.game),
        "over": table.game.status in game_services.FINAL_STATUSES,
        "kinds": KINDS,
        **hands_context(tournament, table),
    }


@login_required
def table_corrections(request: HttpRequest, pk: int, table_id: int) -> HttpResponse:
    """A table's corrections: the forms (each confirmed on a second page) and those made."""
    tournament = director_tournament(request, pk)
    table = _table(tournament, table_id)
    context = _table_context(tournament, table)
    if request.method == "GET":
        return render(request, "desk/table.html", context)
    if request.method != "POST":
        return HttpResponse(status=405)
    game = table.game
    assert game is not None
    kind = request.POST.get("kind", "")
    try:
        command, sentence = _command(kind, request.POST, game)
        version = posted_whole(
            request.POST, "version", gettext("The version"), 0, MAX_VERSION, required=False
        )
    except BadField as exc:
        return render(
            request,
            "desk/table.html",
            # under its field when the form shows one, else above the forms
            {
                **context,
                "error": exc.message,
                "error_kind": kind,
                "error_field": exc.field if exc.field in SHOWN_FIELDS else "",
            },
            status=400,
        )
    if request.POST.get("confirmed") != "yes":
        # The confirmation: the same correction, with the version it was decided on.
        return render(
            request,
            "desk/confirm.html",
            {**context, "command": command, "sentence": sentence, "kind": kind, "post": request.POST},
        )
    back = reverse("desk-table", args=[tournament.pk, table.pk])
    try:
        result = game_services.submit_as(
            request.user,
            game,
            command,
            expected_version=version if version is not None else game.version,
            idempotency_key=posted_key(request, f"correct-{game.pk}"),
            source=Source.WEB,
        )
    except game_services.VersionConflict as exc:
        messages.error(request, words(exc, page="desk"))
        return redirect(back)
    except DomainError as exc:
        names = [str(seat["name"]) for seat in game.seats]
        return render(
            request,
            "desk/table.html",
            {
                **_table_context(tournament, table),
                "error": words(exc, names, page="desk"),
                "error_kind": kind,
            },
            status=409,
        )
    if not result.replayed and game.status in game_services.FINAL_STATUSES:
        # the outbox task does this too; doing it here shows the round complete at once
        services.game_ended(game.pk)
    messages.success(
        request,
        gettext("Table %(table)s: %(sentence)s — done by %(user)s.")
        % {"table": table.number, "sentence": sentence[:1].lower() + sentence[1:], "user": request.user},
    )
    return redirect(back)
