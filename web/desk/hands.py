"""The director corrects an earlier hand of a table: any hand, not only the last entry.

The desk's table page lists the table's hands (:func:`hands_of`); each hand of a
physical game, between hands or once the game is over, links to this page, which shows
the hand's recorded result and asks for its replacement with the quick path's inputs —
who knocked, and every player's count or final hand — and a reason. Sent, the
replacement is decided but not recorded: a confirmation page says what it changes (the
hand's scores, the totals, whether the game ends elsewhere or is reopened). Confirmed,
it is recorded as a ``CorrectHand`` through ``games.services.submit_command`` with the
form's key and the version it was decided at. The change is then listed among the
table's corrections and on the public tournament page (:mod:`web.corrections`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

import engine
from core import DomainError
from engine.errors import EngineError
from engine.rescoring import counted_entry
from games import services as game_services
from games import store
from games.models import Game, Mode, Source
from league import limits, services
from league.access import require_director
from league.models import Table, Tournament
from web.corrections import hand_change, word_hand_change
from web.forms import BadField, posted_key, posted_text, posted_whole
from web.refusals import page_status
from web.refusals import words as refusal_words
from web.words import OUTCOMES, cards_text, score_text, seat_name

# Between hands or once over: the only times a hand may be corrected (engine.corrections).
CORRECTABLE = ("awaiting_deal", "finished")
KINDS = ("counts", "hands")
MAX_VERSION = 10**9


@dataclass
class HandRow:
    """One hand of a table as the desk lists it."""

    number: int
    result: str
    points: list[str]
    verified: bool
    counts: bool = True  # False: a hand the game no longer counts
    url: str = ""


@dataclass
class SeatEntry:
    seat: int
    name: str
    count: str = ""
    hand: str = ""
    was_points: str = ""
    was_count: str = ""
    was_hand: str = ""


@dataclass
class HandForm:
    number: int
    result: str
    verified: bool
    knocker: int | None
    seats: list[SeatEntry] = field(default_factory=list)


def _names(game: Game) -> list[str]:
    return [str(seat["name"]) for seat in game.seats]


def _result_words(scored: engine.HandScored, names: list[str]) -> str:
    knocker = seat_name(names, scored.knocker) if scored.knocker is not None else _("nobody")
    said = OUTCOMES.get(scored.outcome, scored.outcome.replace("_", " ")).format(knocker=knocker)
    return said[:1].upper() + said[1:]


def correctable(game: Game, state: engine.GameState) -> str:
    """Why the game's hands cannot be corrected now ('' when they can)."""
    if game.mode != Mode.PHYSICAL:
        return _("A digital game's hands come from its moves: adjust a score instead.")
    if state.status == "abandoned":
        return _("The game was abandoned: nothing more can be corrected.")
    if state.status not in CORRECTABLE:
        return _("A hand is being played: its earlier hands can be corrected once it is scored.")
    return ""


def hands_of(tournament: Tournament, table: Table, state: engine.GameState) -> list[HandRow]:
    """Every hand of the table's game still in effect, with its recorded result and, when
    it may be corrected now, the address of its correction page."""
    game = table.game
    assert game is not None
    names = _names(game)
    open_ = not correctable(game, state)
    rows = []
    for entry in state.tally.ledger:
        scored = entry.event
        if not isinstance(scored, engine.HandScored):
            continue
        counts = scored.hand_number not in state.tally.uncounted
        url = ""
        if open_ and counts:
            url = reverse("desk-correct-hand", args=[tournament.pk, table.pk, scored.hand_number])
        rows.append(
            HandRow(
                scored.hand_number,
                _result_words(scored, names),
                [score_text(scored.points.get(seat, 0)) for seat in range(len(names))],
                scored.verified,
                counts,
                url,
            )
        )
    return rows


def hands_context(tournament: Tournament, table: Table) -> dict[str, Any]:
    """What the desk's table page shows of its hands: the list, and why they cannot be
    corrected now ('' when they can)."""
    game = table.game
    assert game is not None
    state = store.load_state(game)
    return {"hands": hands_of(tournament, table, state), "hands_closed": correctable(game, state)}


def _tournament_table(request: HttpRequest, pk: int, table_id: int) -> tuple[Tournament, Table, Game]:
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=pk)
    require_director(request.user, tournament.club_id)
    table = get_object_or_404(
        Table.objects.select_related("round", "game"), pk=table_id, round__tournament=tournament
    )
    if table.game is None:
        raise Http404("this table has no game yet: its round is a draft")
    return tournament, table, table.game


def _hand_form(game: Game, state: engine.GameState, number: int) -> HandForm:
    entry = counted_entry(state, number)
    if entry is None or not isinstance(entry.event, engine.HandScored):
        raise Http404("no such hand")
    scored = entry.event
    names = _names(game)
    hands = scored.detail.get("hands") or {} if scored.verified else {}
    seats = [
        SeatEntry(
            seat,
            seat_name(names, seat),
            count=str(scored.deadwood.get(seat, "")),
            hand=" ".join(hands.get(str(seat), ())),
            was_points=score_text(scored.points.get(seat, 0)),
            was_count=str(scored.deadwood.get(seat, "")),
            was_hand=cards_text(hands.get(str(seat))),
        )
        for seat in sorted(entry.seats)
    ]
    return HandForm(number, _result_words(scored, names), scored.verified, scored.knocker, seats)


def _posted(post: Any, form: HandForm) -> tuple[str, dict[str, Any]]:
    """The form's kind and the ``CorrectHand`` it asks for; :class:`BadField` when a field
    is not what it should be (nothing is decided then)."""
    kind = str(post.get("kind", ""))
    if kind not in KINDS:
        raise BadField("kind", _("Send one of the two forms."))
    raw = str(post.get("knocker", "")).strip()
    seats = [s.seat for s in form.seats]
    knocker = None
    if raw != "none":
        knocker = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 2 else -1
        if knocker not in seats:
            raise BadField("knocker", _("Choose who knocked (or nobody)."))
    command: dict[str, Any] = {"type": "CorrectHand", "hand_number": form.number, "knocker": knocker}
    if kind == "counts":
        command["deadwood"] = {
            str(s.seat): posted_whole(post, f"deadwood-{s.seat}", s.name, 0, 999) for s in form.seats
        }
    else:
        hands = {}
        for s in form.seats:
            text = posted_text(post, f"hands-{s.seat}", s.name, 200)
            if not text:
                raise BadField(f"hands-{s.seat}", _("Enter %(name)s's final hand.") % {"name": s.name})
            hands[str(s.seat)] = text
        command["hands"] = hands
    reason = posted_text(post, "reason", _("The reason"), limits.REASON_LENGTH, lines=True)
    if not reason:
        raise BadField("reason", _("Say why: a correction needs a reason."))
    command["reason"] = reason
    return kind, command


def _refill(form: HandForm, post: Any) -> None:
    """Keep what was typed after a refusal."""
    for s in form.seats:
        s.count = str(post.get(f"deadwood-{s.seat}", s.count))[:10]
        s.hand = str(post.get(f"hands-{s.seat}", s.hand))[:200]
    raw = str(post.get("knocker", ""))
    form.knocker = (
        None
        if raw == "none"
        else int(raw)
        if raw.isascii() and raw.isdigit() and len(raw) < 3
        else form.knocker
    )


@dataclass
class Effect:
    """What a correction would change, decided but not recorded."""

    change: str
    totals: list[tuple[str, str]]
    ending: str


def _effect(game: Game, state: engine.GameState, events: list[engine.Event]) -> Effect:
    names = _names(game)
    after = store.fold_steps(state, events)[-1]
    data = [e.to_dict()["data"] for e in events[:2]]
    change = word_hand_change(hand_change(data[0], data[1]), names)
    totals = [(name, score_text(score)) for name, score in zip(names, after.scores, strict=True)]
    was_over = state.status == "finished"
    result = after.result
    if result is not None:
        winners = " and ".join(seat_name(names, s) for s in result.winners)
        uncounted = ", ".join(str(n) for n in after.tally.uncounted)
        if after.tally.uncounted:
            ending = _(
                "The game now ends after hand %(hand)s (%(winners)s first); "
                "hands %(uncounted)s no longer count."
            ) % {
                "hand": after.tally.results[-1].hand_number,
                "winners": winners,
                "uncounted": uncounted,
            }
        elif was_over:
            ending = _("The game stays over: %(winners)s first.") % {"winners": winners}
        else:
            ending = _("The game is now over: %(winners)s first.") % {"winners": winners}
    elif was_over:
        ending = _(
            "The game is no longer over: the table plays on from hand %(next)s, "
            "and its result counts again once it finishes."
        ) % {"next": after.tally.hands_dealt + 1}
    else:
        ending = _("The game goes on.")
    return Effect(change, totals, ending)


def _page(request: HttpRequest, context: dict[str, Any], *, status: int = 200) -> HttpResponse:
    return render(request, "desk/correct_hand.html", context, status=status)


@login_required
def correct_hand(request: HttpRequest, pk: int, table_id: int, number: int) -> HttpResponse:
    """A hand's recorded result and the form for its replacement; POST: confirm, then record."""
    tournament, table, game = _tournament_table(request, pk, table_id)
    state = store.load_state(game)
    form = _hand_form(game, state, number)
    back = reverse("desk-table", args=[tournament.pk, table.pk])
    context: dict[str, Any] = {
        "tournament": tournament,
        "club": tournament.club,
        "table": table,
        "game": game,
        "hand": form,
        "closed": correctable(game, state),
        "kind": "hands" if form.verified else "counts",
        "kinds": KINDS,
        "back": back,
    }
    if request.method == "GET":
        return _page(request, context)
    if request.method != "POST":
        return HttpResponse(status=405)
    if context["closed"]:
        return _page(request, {**context, "error": context["closed"]}, status=409)
    try:
        kind, command = _posted(request.POST, form)
        version = posted_whole(request.POST, "version", _("The version"), 0, MAX_VERSION, required=False)
    except BadField as exc:
        _refill(form, request.POST)
        field_name = (
            exc.field
            if exc.field in ("reason", "knocker") or exc.field.startswith(("deadwood-", "hands-"))
            else ""
        )
        posted_kind = request.POST.get("kind")
        shown = {
            "kind": posted_kind if posted_kind in KINDS else context["kind"],
            "error": exc.message,
            "error_field": field_name,
            "reason": request.POST.get("reason", "")[:500],
        }
        return _page(request, {**context, **shown}, status=400)
    names = _names(game)
    if request.POST.get("confirmed") != "yes":
        try:
            events = engine.decide(state, engine.command_from_dict(command))
        except EngineError as exc:
            _refill(form, request.POST)
            return _page(
                request,
                {
                    **context,
                    "kind": kind,
                    "error": refusal_words(exc, names, page="desk"),
                    "reason": command["reason"],
                },
                status=400,
            )
        return render(
            request,
            "desk/correct_hand_confirm.html",
            {
                **context,
                "kind": kind,
                "command": command,
                "effect": _effect(game, state, events),
                "post": request.POST,
            },
        )
    try:
        result = game_services.submit_as(
            request.user,
            game,
            command,
            expected_version=version if version is not None else game.version,
            idempotency_key=posted_key(request, f"correct-hand-{game.pk}"),
            source=Source.WEB,
        )
    except game_services.VersionConflict:
        messages.error(
            request,
            _("The table recorded something while you were confirming: check the hand, then try again."),
        )
        return redirect(request.path)
    except DomainError as exc:
        _refill(form, request.POST)
        error = refusal_words(exc, names, page="desk")
        return _page(request, {**context, "kind": kind, "error": error}, status=page_status(exc))
    if not result.replayed and game.status in game_services.FINAL_STATUSES:
        services.game_ended(game.pk)  # as the outbox task would: the round may be complete now
    recorded = [row.data for row in result.events[:2]]
    words = word_hand_change(hand_change(recorded[0], recorded[1]), names)
    messages.success(
        request,
        _("Table %(table)s: hand %(hand)s corrected — %(change)s.")
        % {"table": table.number, "hand": number, "change": words},
    )
    return redirect(back)
