"""The scorekeeper's page: a physical game recorded from a phone, move by move or by the
quick path. ``/tables/<id>/record`` for a tournament table (the club's directors and
scorekeepers), ``/games/<id>/record`` for a club game outside a tournament (whoever
``games.access`` lets record it).

The page is drawn from the recorder's view (``engine.view(state, None, recorder=True)``)
and the public event log, never from the raw state. Who may record is
``games.access``'s to say (for a table whose round is not published yet, the club's
roles in ``league.access``); every entry goes through the one submit path,
``games.services.submit_as``, with the form's key as its idempotency key, so a double
tap records once. Refusals are worded by ``web.refusals``. htmx posts get the panel back
(``templates/record/_panel.html``); plain posts are redirected back to the page
(POST/redirect/GET), or get the page with the refusal."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.safestring import mark_safe

import engine
from core import DomainError
from engine.arrangement import MAX_HAND, best_arrangement
from engine.cards import ALL_CARDS, Card, InvalidCard
from engine.layoffs import best_defence
from engine.melds import make_meld
from engine.state import HandState
from games import selectors, services, store
from games.access import GameAccess, access_for
from games.models import Game, Source
from league.access import require_recorder
from league.selectors import table_of_game, table_with_round
from web.forms import posted_key
from web.recording import card_history, effective, last_entry
from web.refusals import Refusal, refusal
from web.words import card_text, cards_text, describe, score_text

RECENT = 8  # entries listed under "Last entries"
SUITS = (("S", "♠"), ("H", "♥"), ("D", "♦"), ("C", "♣"))


class PageRefusal(DomainError):
    """An entry this page refuses before the game sees it (invalid); worded, like every
    refusal, by ``web.refusals`` from its code and params."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(code, message, params=params)


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


# --- who may open what ----------------------------------------------------------------


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


def _resolve(request: HttpRequest, kind: str, pk: int) -> Target | HttpResponse:
    login = _signed_in(request)
    if login is not None:
        return login
    return _table_target(request, pk) if kind == "table" else _game_target(request, pk)


# --- what the page shows ----------------------------------------------------------------


def _picker(codes: list[str]) -> list[dict[str, Any]]:
    """Cards grouped by suit for the tap picker (jokers last)."""
    rows = []
    for suit, symbol in SUITS:
        cards = [c for c in codes if c.endswith(suit) and not c.startswith("X")]
        if cards:
            rows.append({"symbol": symbol, "cards": cards})
    jokers = [c for c in codes if c.startswith("X")]
    if jokers:
        rows.append({"symbol": "🃏", "cards": jokers})
    return rows


def _headline(v: engine.View, names: list[str]) -> str:
    due = v.due[0] if v.due else None
    if v.status == "finished":
        return "The game is over."
    if v.status == "abandoned":
        return "The game was abandoned."
    if due is None:
        return ""
    if due.kind == "deal":
        return f"Hand {due.hand_number}: {names[due.dealer or 0]} deals {due.cards_each} cards each."
    if due.kind == "move":
        doing = {"offer": "to take or pass the upcard", "draw": "to draw", "discard": "to discard or knock"}
        return f"{names[due.seat or 0]} {doing.get(due.phase or '', 'to play')}."
    if due.kind == "reveal":
        return "Showdown: enter each hand as it is shown."
    if due.kind == "reentry":
        return f"{names[due.seat or 0]} decides whether to re-enter."
    return ""


def panel_context(
    target: Target,
    *,
    error: Refusal | None = None,
    posted: QueryDict | None = None,
    flash: str = "",
    checked: tuple[int, str, str] | None = None,
) -> dict[str, Any]:
    """Everything the panel draws. ``checked`` is a hand checked without JavaScript:
    (seat, the cards as typed, the preview's HTML)."""
    game = target.game
    assert game is not None
    state = store.load_state(game)
    physical = game.mode == "physical"
    v = engine.view(state, None, recorder=physical)
    names = [seat["name"] for seat in game.seats]
    events, _ = selectors.viewer_events(game, after=0, seat=None)
    kept, undone = effective(events)
    entry = last_entry(kept) if physical else []
    recent = [
        {
            "text": describe(event, names),
            "undone": event.get("seq") in undone,
            "retraction": event.get("type") == "Retracted",
        }
        for event in reversed(events[-RECENT:])
    ]
    legal = list(v.legal_commands) if physical else []
    types = {command.TYPE for command in legal}
    discards = [c.card.code for c in legal if isinstance(c, engine.Discard)]
    knock_cards = [c.card.code for c in legal if isinstance(c, engine.Knock) and c.card is not None]
    seats = [
        {
            "index": i,
            "name": name,
            "score": score_text(v.scores[i]),
            "cards": v.hand_sizes[i],
            "dealer": i == v.dealer and v.status in ("playing", "showdown"),
            "to_move": i == v.to_move,
            "out": v.eliminated[i],
        }
        for i, name in enumerate(names)
    ]
    due = {d.kind: d for d in v.due}
    deck = [card.code for card in ALL_CARDS[: v.ruleset.deck_size]]
    reveal = due.get("reveal")
    reveals = []
    if reveal is not None and physical:
        for seat in reveal.seats:
            known = list(reveal.known.get(seat, ()))
            may_lack = list(reveal.may_lack.get(seat, ()))  # one may be the face-down discard
            mine = error is not None and error.action == "reveal" and error.seat == seat
            typed = posted.get("cards", "") if mine and posted is not None else " ".join(known + may_lack)
            preview_html = ""
            if checked is not None and checked[0] == seat:
                typed, preview_html = checked[1], checked[2]
            reveals.append(
                {
                    "seat": seat,
                    "name": names[seat],
                    "size": reveal.sizes.get(seat, 0),
                    "known": cards_text(known),
                    "may_lack": cards_text(may_lack),
                    "may_lack_one": len(may_lack) == 1,
                    "typed": typed,
                    "knocker": seat == reveal.knocker,
                    "error": error if mine else None,
                    "preview": preview_html,
                }
            )
    result = due.get("hand_result")
    waiting = {r["seat"] for r in reveals}
    hidden_reveal = error is not None and error.action == "reveal" and error.seat not in waiting
    if (
        error is not None
        and error.action
        and (hidden_reveal or error.action not in _shown_actions(physical, due, reveals))
    ):
        error = replace(error, action="")  # its form is gone: say it at the top
    return {
        "target": target,
        "game": game,
        "physical": physical,
        "view": v,
        "names": names,
        "seats": seats,
        "headline": _headline(v, names),
        "in_hand": v.status in ("playing", "showdown"),  # between hands the last pile is history
        "due": due,
        "move": due.get("move"),
        "deal": due.get("deal") if physical else None,
        "reveals": reveals,
        "result": result if physical else None,
        "result_seats": [
            {
                "seat": s,
                "name": names[s],
                "hands": _kept(posted, error, "result_hands", f"hands-{s}"),
                "count": _kept(posted, error, "result_counts", f"deadwood-{s}"),
            }
            for s in (result.seats if result else ())
        ],
        "dealer_name": names[due["deal"].dealer or 0] if "deal" in due else "",
        "reentry": due.get("reentry") if physical else None,
        "types": types,
        "discards": discards,
        "knock_cards": knock_cards,
        "picker": _picker(discards),
        "deck": deck,
        "deck_picker": _picker(deck),
        "discard_top": v.discard_top.code if v.discard_top else None,
        "recent": recent,
        "undo": {"count": len(entry), "text": describe(entry[0], names)} if entry else None,
        "error": error,
        "posted": posted,
        "flash": flash,
    }


MOVE_ACTIONS = (
    "draw_stock",
    "draw_discard",
    "pass",
    "discard",
    "knock",
    "knock_unseen",
    "lay_down",
    "restock",
    "decline",
)


def _shown_actions(physical: bool, due: dict[str, Any], reveals: list[dict[str, Any]]) -> set[str]:
    """The actions whose forms the panel draws now (a refusal is placed beside its form)."""
    if not physical:
        return set()
    shown = {"undo"}
    if "deal" in due:
        shown.add("deal")
    if "move" in due:
        shown.update(MOVE_ACTIONS)
    if reveals:
        shown.add("reveal")  # beside the seat's form; a seat no longer waiting is not drawn
    if "reentry" in due:
        shown.update(("reenter", "stay_out"))
    if "hand_result" in due:
        shown.update(("result_hands", "result_counts"))
    return shown


def _kept(posted: QueryDict | None, error: Refusal | None, action: str, name: str) -> str:
    """What the scorekeeper typed into a field of the form that was refused, to fix it."""
    if posted is None or error is None or error.action != action:
        return ""
    return posted.get(name, "")


# --- entries ----------------------------------------------------------------------------

_SPLIT = re.compile(r"[\s,;]+")


def _card(text: str) -> str:
    try:
        return Card.parse(text).code
    except InvalidCard:
        raise PageRefusal("invalid_card", f"{text[:40]!r} is not a card", text=text[:40]) from None


def _cards(text: str, picked: list[str] | None = None) -> list[str]:
    codes = [_card(part) for part in _SPLIT.split(text.strip()) if part]
    typed = set(codes)  # a set: hundreds of picked cards must not cost a scan each
    for code in picked or ():
        code = _card(code)
        if code not in typed:
            typed.add(code)
            codes.append(code)
    return codes


def _one_card(post: QueryDict, *, required: bool) -> str | None:
    text = post.get("card", "").strip() or post.get("picked", "").strip()
    if not text:
        if required:
            raise PageRefusal("missing_card", "no card entered", card="drawn")
        return None
    return _card(text)


def _number(raw: str) -> bool:
    """Whether ``raw`` is a small whole number written in ASCII digits (``"²".isdigit()``
    is true, and ``int`` refuses it; so does ``int`` a 5000-digit string)."""
    return raw.isascii() and raw.isdigit() and len(raw) <= 9


def _seat(post: QueryDict, field_name: str = "seat") -> int:
    raw = post.get(field_name, "")
    if not _number(raw):
        raise PageRefusal("invalid_seat", "no player chosen")
    return int(raw)


def _knocker(post: QueryDict) -> int | None:
    raw = post.get("knocker", "")
    return None if raw in ("", "none") else _seat(post, "knocker")


def build_command(action: str, post: QueryDict, seats: int, kept: list[Any], user: Any) -> dict[str, Any]:
    """The engine command a button of the page asks for, from the posted fields."""
    if action == "draw_stock":
        return {"type": "DrawFromStock", "seat": _seat(post), "card": _one_card(post, required=False)}
    if action == "draw_discard":
        return {"type": "DrawFromDiscard", "seat": _seat(post)}
    if action == "pass":
        return {"type": "PassUpcard", "seat": _seat(post)}
    if action == "discard":
        return {"type": "Discard", "seat": _seat(post), "card": _one_card(post, required=True)}
    if action == "knock":
        return {"type": "Knock", "seat": _seat(post), "card": _one_card(post, required=False)}
    if action == "knock_unseen":
        return {"type": "Knock", "seat": _seat(post), "card": None}
    if action == "lay_down":
        return {"type": "Knock", "seat": _seat(post), "card": None, "lay_down": True}
    if action == "restock":
        return {"type": "Restock", "seat": _seat(post)}
    if action == "decline":
        return {"type": "DeclineDraw", "seat": _seat(post)}
    if action in ("reenter", "stay_out"):
        return {"type": "DecideReentry", "seat": _seat(post), "reenter": action == "reenter"}
    if action == "deal":
        upcard = post.get("upcard", "").strip()
        if not upcard:
            raise PageRefusal("missing_card", "no upcard entered", card="upcard")
        return {"type": "DealHand", "upcard": _card(upcard)}
    if action == "reveal":
        cards = _cards(post.get("cards", ""), post.getlist("picked"))
        if not cards:
            raise PageRefusal("missing_cards", "no cards entered", hands="shown")
        return {"type": "RevealHand", "seat": _seat(post), "cards": cards}
    if action == "result_hands":
        hands = {}
        for seat in range(seats):
            if f"hands-{seat}" in post:
                cards = _cards(post.get(f"hands-{seat}", ""))
                if not cards:
                    raise PageRefusal("missing_cards", "a final hand is missing", hands="final")
                hands[str(seat)] = cards
        return {"type": "RecordHandResult", "knocker": _knocker(post), "hands": hands}
    if action == "result_counts":
        counts = {}
        for seat in range(seats):
            if f"deadwood-{seat}" in post:
                raw = post.get(f"deadwood-{seat}", "").strip()
                if not _number(raw):
                    raise PageRefusal("bad_count", "a count is missing or not a number")
                counts[str(seat)] = int(raw)
        return {"type": "RecordHandResult", "knocker": _knocker(post), "deadwood": counts}
    if action == "undo":
        entry = last_entry(kept)
        if not entry:
            raise PageRefusal("nothing_to_retract", "nothing has been entered yet")
        reason = f"undone on the scorekeeper's page by {user.get_username()}"
        return {"type": "Retract", "count": len(entry), "reason": reason}
    raise PageRefusal("unknown_action", "not one of the page's buttons")


def _submit(request: HttpRequest, target: Target) -> tuple[Refusal | None, str]:
    """Record what the form asks for: (the refusal, or None and what was recorded)."""
    game, access = target.game, target.access
    assert game is not None and access is not None
    post = request.POST
    action = post.get("action", "")
    names = [seat["name"] for seat in game.seats]
    seat = int(post["seat"]) if _number(post.get("seat", "")) else None
    events, _ = selectors.viewer_events(game, after=0, seat=None)
    kept, _ = effective(events)
    try:
        if game.mode != "physical":
            raise PageRefusal("not_recorded_here", "its players move in the browser")
        command = build_command(action, post, len(names), kept, request.user)
        raw_version = post.get("version", "")
        if raw_version and not _number(raw_version):
            # a junk version is refused, never read as "the current one" (a stale entry would pass)
            raise PageRefusal("bad_version", "the form's version is not a number")
        version = int(raw_version) if raw_version else game.version
        services.submit_as(
            request.user,
            access,
            command,
            expected_version=version,
            idempotency_key=posted_key(request, f"record:{game.pk}"),
            source=Source.WEB,
        )
    except DomainError as exc:
        # where the table last saw each card: the words of a card that cannot be here
        history = card_history(kept)
        return refusal(exc, names, history, page="record", action=action, seat=seat), ""
    fresh = store.read_game(game.pk)
    assert fresh is not None
    target.game = fresh
    # only the last event is described: redact just that one, not the whole log again
    last, _ = selectors.viewer_events(fresh, after=fresh.version - 1, seat=None)
    return None, "Recorded: " + describe(last[-1], names)


# --- views ------------------------------------------------------------------------------


def _page(request: HttpRequest, target: Target, status: int = 200, **extra: Any) -> HttpResponse:
    if target.game is None:
        return render(request, "record/not_ready.html", {"target": target}, status=status)
    context = panel_context(target, **extra)
    template = "record/_panel.html" if request.htmx else "record/page.html"  # type: ignore[attr-defined]
    return render(request, template, context, status=status)


def record(request: HttpRequest, kind: str, pk: int) -> HttpResponse:
    target = _resolve(request, kind, pk)
    if isinstance(target, HttpResponse):
        return target
    if request.method == "POST" and target.game is None:
        return _page(request, target, 409)
    if request.method == "POST" and request.POST.get("action") == "check":
        return _checked(request, target)
    if request.method == "POST":
        error, flash = _submit(request, target)
        if error is not None:
            # htmx swaps only 2xx answers; a plain post gets the page with the refusal.
            status = 200 if request.htmx else 400  # type: ignore[attr-defined]
            return _page(request, target, status, error=error, posted=request.POST)
        if request.htmx:  # type: ignore[attr-defined]
            return _page(request, target, flash=flash)
        messages.success(request, flash)
        return HttpResponseRedirect(target.url, status=303)
    if request.method not in ("GET", "HEAD"):
        return _page(request, target, 405)
    return _page(request, target)


def undo(request: HttpRequest, kind: str, pk: int) -> HttpResponse:
    """The confirmation before the last entry is undone (the form posts to the page)."""
    target = _resolve(request, kind, pk)
    if isinstance(target, HttpResponse):
        return target
    if target.game is None:
        return _page(request, target)
    context = panel_context(target)
    template = "record/_undo.html" if request.htmx else "record/undo.html"  # type: ignore[attr-defined]
    return render(request, template, context)


def preview(request: HttpRequest, kind: str, pk: int) -> HttpResponse:
    """The engine's arrangement of a hand as it is typed at the showdown: melds,
    deadwood, layoffs, and whether the table's record allows it."""
    target = _resolve(request, kind, pk)
    if isinstance(target, HttpResponse):
        return target
    if target.game is None or target.game.mode != "physical":
        raise Http404("Nothing to preview here.")
    context = {"target": target, **preview_context(target.game, request.GET)}
    return render(request, "record/_preview.html", context)


def _checked(request: HttpRequest, target: Target) -> HttpResponse:
    """Without JavaScript, "Check it" posts the hand here: the page comes back with the
    engine's arrangement of it in place, and nothing is recorded."""
    assert target.game is not None
    context = {"target": target, **preview_context(target.game, request.POST)}
    html = mark_safe(render_to_string("record/_preview.html", context, request))  # rendered (escaped) above
    seat = request.POST.get("seat", "")
    checked = (int(seat), request.POST.get("cards", ""), html) if _number(seat) else None
    template = "record/_panel.html" if request.htmx else "record/page.html"  # type: ignore[attr-defined]
    return render(request, template, panel_context(target, checked=checked))


def preview_context(game: Game, query: QueryDict) -> dict[str, Any]:
    state = store.load_state(game)
    names = [seat["name"] for seat in game.seats]
    hand = state.hand
    raw = query.get("seat", "")
    seat = int(raw) if _number(raw) else -1
    if state.status != "showdown" or hand is None or not 0 <= seat < len(names):
        return {"problem": "No showdown is going on for that player."}
    try:
        codes = _cards(query.get("cards", ""), query.getlist("picked"))
    except PageRefusal as exc:
        return {"problem": refusal(exc).detail or refusal(exc).title}
    size = hand.sizes[seat]
    base: dict[str, Any] = {"size": size, "count": len(codes), "name": names[seat]}
    if not codes:
        return {**base, "empty": True}
    if len(codes) > min(size + 1, MAX_HAND):
        # One card too many is still arranged (the engine then says what is wrong); more is
        # refused here, before any search: its work grows with every card.
        return {"problem": f"{names[seat]} holds {size} cards: {len(codes)} is more than that hand can hold."}
    rs = state.ruleset
    cards = [Card.parse(code) for code in codes]
    if len(set(codes)) == len(codes):
        try:
            _arrange(base, cards, seat, hand, rs)
        except engine.EngineError as exc:  # a joker these rules do not use
            return {"problem": str(refusal(exc, names))}
    if len(codes) < size:
        base["waiting"] = True
        return base
    try:
        events = engine.decide(state, engine.RevealHand(seat, tuple(cards)))
    except engine.IllegalMove as exc:
        public, _ = selectors.viewer_events(game, after=0, seat=None)
        kept, _ = effective(public)
        base["refusal"] = refusal(exc, names, card_history(kept), page="record")
        return base
    scored = [e for e in events if isinstance(e, engine.HandScored)]
    if scored:
        base["completes"] = describe({"type": "HandScored", "data": scored[0].to_dict()["data"]}, names)
    base["fits"] = True
    return base


def _arrange(base: dict[str, Any], cards: list[Card], seat: int, hand: HandState, rs: engine.RuleSet) -> None:
    """The engine's arrangement of ``cards`` into ``base``: melds, deadwood and, against a
    gin knocker's revealed melds, the layoffs."""
    arrangement = best_arrangement(cards, rs)
    base["melds"] = [[c.code for c in meld.cards] for meld in arrangement.melds]
    base["unmatched"] = [c.code for c in arrangement.unmatched]
    base["deadwood"] = arrangement.deadwood
    knocker = hand.knocker
    if rs.scoring == "gin" and knocker >= 0 and knocker != seat and hand.revealed[knocker] >= 0:
        knocker_cards = [c for c in ALL_CARDS if hand.revealed[knocker] >> c.index & 1]
        declared = hand.knocker_melds
        melds = (
            tuple(make_meld(meld) for meld in declared)
            if declared
            else best_arrangement(knocker_cards, rs).melds
        )
        defence = best_defence(cards, melds, rs)
        base["layoffs"] = [
            f"{card_text(layoff.card)} onto {cards_text([c.code for c in melds[i].cards])}"
            for layoff in defence.layoffs
            for i in (layoff.meld_index,)
        ]
        base["deadwood"] = defence.arrangement.deadwood


def _view(handler: Any, kind: str) -> Any:
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        response: HttpResponse = handler(request, kind, pk)
        return response

    return view


urlpatterns = [
    path("tables/<int:pk>/record", _view(record, "table"), name="table-record"),
    path("tables/<int:pk>/record/undo", _view(undo, "table"), name="table-record-undo"),
    path("tables/<int:pk>/record/preview", _view(preview, "table"), name="table-record-preview"),
    path("games/<int:pk>/record", _view(record, "game"), name="game-record"),
    path("games/<int:pk>/record/undo", _view(undo, "game"), name="game-record-undo"),
    path("games/<int:pk>/record/preview", _view(preview, "game"), name="game-record-preview"),
]
