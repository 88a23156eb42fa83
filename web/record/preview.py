"""The showdown's preview: the engine's arrangement of a hand as it is typed (melds,
deadwood, layoffs) and whether it fits what the table has seen; with htmx as the hand
is typed, without JavaScript by the reveal form's "Check it" button, which records
nothing."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

import engine
from engine.arrangement import MAX_HAND, best_arrangement
from engine.cards import ALL_CARDS, Card
from engine.layoffs import best_defence
from engine.melds import Meld, make_meld
from engine.rules import FEWEST_LAYOFFS
from engine.scoring import knocker_arrangement
from engine.state import HandState
from games import selectors, store
from games.models import Game
from web.record.actions import PageRefusal, is_number, parse_cards
from web.record.log import card_history, effective
from web.record.panel import panel_context
from web.record.target import Target, resolve
from web.refusals import refusal
from web.words import card_text, cards_text, describe

# The reveal form's button that asks for the preview, not an entry.
CHECK = "check"


def preview(request: HttpRequest, kind: str, pk: int) -> HttpResponse:
    """The engine's arrangement of a hand as it is typed at the showdown: melds,
    deadwood, layoffs, and whether the table's record allows it."""
    target = resolve(request, kind, pk)
    if isinstance(target, HttpResponse):
        return target
    if target.game is None or target.game.mode != "physical":
        raise Http404(gettext("Nothing to preview here."))
    context = {"target": target, **preview_context(target.game, request.GET)}
    return render(request, "record/_preview.html", context)


def checked(request: HttpRequest, target: Target) -> HttpResponse:
    """Without JavaScript, "Check it" posts the hand here: the page comes back with the
    engine's arrangement of it in place, and nothing is recorded."""
    assert target.game is not None
    context = {"target": target, **preview_context(target.game, request.POST)}
    html = mark_safe(render_to_string("record/_preview.html", context, request))  # rendered (escaped) above
    seat = request.POST.get("seat", "")
    checked = (int(seat), request.POST.get("cards", ""), html) if is_number(seat) else None
    template = "record/_panel.html" if request.htmx else "record/page.html"  # type: ignore[attr-defined]
    return render(request, template, panel_context(target, checked=checked))


def preview_context(game: Game, query: QueryDict) -> dict[str, Any]:
    state = store.load_state(game)
    names = [seat["name"] for seat in game.seats]
    hand = state.hand
    raw = query.get("seat", "")
    seat = int(raw) if is_number(raw) else -1
    if state.status != "showdown" or hand is None or not 0 <= seat < len(names):
        return {"problem": gettext("No showdown is going on for that player.")}
    try:
        codes = parse_cards(query.get("cards", ""), query.getlist("picked"))
    except PageRefusal as exc:
        return {"problem": refusal(exc).detail or refusal(exc).title}
    size = hand.sizes[seat]
    base: dict[str, Any] = {"size": size, "count": len(codes), "name": names[seat]}
    if not codes:
        return {**base, "empty": True}
    if len(codes) > min(size + 1, MAX_HAND):
        # One card too many is still arranged (the engine then says what is wrong); more is
        # refused here, before any search: its work grows with every card.
        problem = gettext("%(name)s holds %(size)s cards: %(count)s is more than that hand can hold.")
        return {"problem": problem % {"name": names[seat], "size": size, "count": len(codes)}}
    rs = state.ruleset
    cards = [Card.parse(code) for code in codes]
    if len(set(codes)) == len(codes):
        try:
            _arrange(base, cards, seat, hand, rs, state.setup.knock_arrangement)
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


def _arrange(
    base: dict[str, Any], cards: list[Card], seat: int, hand: HandState, rs: engine.RuleSet, rule: str
) -> None:
    """The engine's arrangement of ``cards`` into ``base``: melds, deadwood and, against a
    gin knocker's revealed melds, the layoffs."""
    arrangement = best_arrangement(cards, rs)
    base["melds"] = [[c.code for c in meld.cards] for meld in arrangement.melds]
    base["unmatched"] = [c.code for c in arrangement.unmatched]
    base["deadwood"] = arrangement.deadwood
    knocker = hand.knocker
    if rs.scoring == "gin" and knocker >= 0 and knocker != seat and hand.revealed[knocker] >= 0:
        melds = _knocker_melds(cards, seat, hand, rs, rule)
        defence = best_defence(cards, melds, rs)
        base["layoffs"] = [
            gettext("%(card)s onto %(meld)s")
            % {"card": card_text(layoff.card), "meld": cards_text([c.code for c in melds[i].cards])}
            for layoff in defence.layoffs
            for i in (layoff.meld_index,)
        ]
        base["deadwood"] = defence.arrangement.deadwood


def _knocker_melds(
    cards: list[Card], seat: int, hand: HandState, rs: engine.RuleSet, rule: str
) -> tuple[Meld, ...]:
    """The gin knocker's melds the defender at ``seat`` lays off onto: those the knocker
    declared; else the engine's choice by the game's rule. Under ``fewest_layoffs`` the
    choice depends on every defender's cards, so it is the final one once the other
    defenders' hands are revealed and ``cards`` is the whole hand; before that, the
    knocker's first best arrangement (the scored hand may then differ)."""
    knocker = hand.knocker
    if hand.knocker_melds:
        return tuple(make_meld(meld) for meld in hand.knocker_melds)
    knocker_cards = [c for c in ALL_CARDS if hand.revealed[knocker] >> c.index & 1]
    revealed = {
        other: [c for c in ALL_CARDS if hand.revealed[other] >> c.index & 1]
        for other in hand.order
        if other not in (knocker, seat) and hand.revealed[other] >= 0
    }
    if rule == FEWEST_LAYOFFS and len(cards) == hand.sizes[seat] and len(revealed) == len(hand.order) - 2:
        revealed |= {knocker: knocker_cards, seat: cards}
        chosen, _ = knocker_arrangement(rs, {s: revealed[s] for s in hand.order}, knocker)
        return chosen.melds
    return best_arrangement(knocker_cards, rs).melds
