"""What the record page's panel draws (``templates/record/_panel.html``): the table's
state from the recorder's view (``engine.view(state, None, recorder=True)``) and the
public event log, never the raw state; the buttons each form offers now, from
:data:`web.record.actions.ACTIONS`; and a refusal beside the form it refused, or at the
top when that form is no longer drawn."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.http import QueryDict
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

import engine
from engine.cards import ALL_CARDS
from games import selectors, store
from web.record.actions import ACTIONS, BY_NAME, QUICK_FORMS, Offer
from web.record.log import effective, last_entry
from web.record.target import Target
from web.refusals import Refusal
from web.templatetags.site import card
from web.words import cards_text, describe, score_text

RECENT = 8  # entries listed under "Last entries"
SUITS = (("S", "♠"), ("H", "♥"), ("D", "♦"), ("C", "♣"))


@dataclass(frozen=True)
class Button:
    """An offered action as its form draws it."""

    name: str
    label: SafeString
    primary: bool
    row: str


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
        return gettext("The game is over.")
    if v.status == "abandoned":
        return gettext("The game was abandoned.")
    if due is None:
        return ""
    if due.kind == "deal":
        return gettext("Hand %(hand)s: %(dealer)s deals %(cards)s cards each.") % {
            "hand": due.hand_number,
            "dealer": names[due.dealer or 0],
            "cards": due.cards_each,
        }
    if due.kind == "move":
        doing = {
            "offer": gettext("%(name)s to take or pass the upcard."),
            "draw": gettext("%(name)s to draw."),
            "discard": gettext("%(name)s to discard or knock."),
        }
        return doing.get(due.phase or "", gettext("%(name)s to play.")) % {"name": names[due.seat or 0]}
    if due.kind == "reveal":
        return gettext("Showdown: enter each hand as it is shown.")
    if due.kind == "reentry":
        return gettext("%(name)s decides whether to re-enter.") % {"name": names[due.seat or 0]}
    return ""


def buttons(offer: Offer, discard_top: str | None, name: str = "") -> dict[str, list[Button]]:
    """The offered actions by the form that draws them, in the table's order; a label
    names the discard pile's top card and (a showdown's) the player."""
    top = card(discard_top) if discard_top else ""
    by_form: dict[str, list[Button]] = {}
    for action in ACTIONS:
        if action.offered(offer):
            label = format_html(str(action.label), card=top, name=name)
            by_form.setdefault(action.form, []).append(Button(action.name, label, action.primary, action.row))
    return by_form


def _kept(posted: QueryDict | None, error_form: str, form: str, name: str) -> str:
    """What the scorekeeper chose or typed in a field of the form that was refused, to fix it."""
    if posted is None or error_form != form:
        return ""
    return posted.get(name, "")


def _reveals(
    v: engine.View,
    offer: Offer,
    names: list[str],
    error: Refusal | None,
    posted: QueryDict | None,
    checked: tuple[int, str, str] | None,
) -> list[dict[str, Any]]:
    """The showdown's forms, one a seat still to show its hand."""
    reveal = next((d for d in v.due if d.kind == "reveal"), None)
    if reveal is None:
        return []
    reveals = []
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
                "buttons": buttons(offer, None, names[seat]).get("reveal", []),
            }
        )
    return reveals


def _error_form(
    error: Refusal | None, offered: dict[str, list[Button]], reveals: list[dict[str, Any]]
) -> str:
    """The form a refusal is shown beside: its action's, while the panel still draws
    that action's button ('' when it does not: the refusal is said at the top)."""
    if error is None or not error.action or error.code == "version_conflict":
        return ""  # a conflict concerns the whole table, whichever form was sent
    action = BY_NAME.get(error.action)
    if action is None or not any(b.name == action.name for b in offered.get(action.form, ())):
        return ""
    if action.form == "reveal" and not any(r["seat"] == error.seat for r in reveals):
        return ""  # that seat's hand is shown already
    return action.form


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
    legal = list(v.legal_commands) if physical else []
    discards = [c.card.code for c in legal if isinstance(c, engine.Discard)]
    knock_cards = [c.card.code for c in legal if isinstance(c, engine.Knock) and c.card is not None]
    due = {d.kind: d for d in v.due} if physical else {}
    discard_top = v.discard_top.code if v.discard_top else None
    types = frozenset(command.TYPE for command in legal)
    offer = Offer(types, bool(knock_cards), due, v.ruleset, bool(entry))
    offered = buttons(offer, discard_top)
    reveals = _reveals(v, offer, names, error, posted, checked) if physical else []
    error_form = _error_form(error, offered, reveals)
    if error is not None and not error_form:
        error = replace(error, action="")  # its form is gone: say it at the top
    deck = [c.code for c in ALL_CARDS[: v.ruleset.deck_size]]
    result = due.get("hand_result")
    return {
        "target": target,
        "game": game,
        "physical": physical,
        "view": v,
        "names": names,
        "seats": [
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
        ],
        "headline": _headline(v, names),
        "in_hand": v.status in ("playing", "showdown"),  # between hands the last pile is history
        "due": due,
        "move": due.get("move"),
        "deal": due.get("deal"),
        "reveals": reveals,
        "result": result,
        "result_seats": [
            {
                "seat": s,
                "name": names[s],
                "hands": _kept(posted, error_form, "hands", f"hands-{s}"),
                "count": _kept(posted, error_form, "counts", f"deadwood-{s}"),
            }
            for s in (result.seats if result else ())
        ],
        "knocker_hands": _kept(posted, error_form, "hands", "knocker"),
        "knocker_counts": _kept(posted, error_form, "counts", "knocker"),
        "dealer_name": names[due["deal"].dealer or 0] if "deal" in due else "",
        "reentry": due.get("reentry"),
        "types": types,
        "buttons": offered,
        "move_more": any(b.row == "more" for b in offered.get("move", ())),
        "discards": discards,
        "picker": _picker(discards),
        "deck": deck,
        "deck_picker": _picker(deck),
        "discard_top": discard_top,
        "recent": [
            {
                "text": describe(event, names),
                "undone": event.get("seq") in undone,
                "retraction": event.get("type") == "Retracted",
            }
            for event in reversed(events[-RECENT:])
        ],
        "undo": {"count": len(entry), "text": describe(entry[0], names)} if entry else None,
        "error": error,
        "error_form": error_form,
        "quick_refused": error_form in QUICK_FORMS,
        "posted": posted,
        "flash": flash,
    }
