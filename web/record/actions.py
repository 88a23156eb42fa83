"""The record page's actions, in one table: each button of the page, with its label, the
form that draws it, the engine command it submits and when the page offers it.

The panel (:mod:`web.record.panel`) draws the offered buttons of each form from
:data:`ACTIONS`; a post names its action and :func:`submit` builds the command from the
same row, so an action's name is written here once. Entries this page refuses before
the game sees them (a card that is no card, a missing count) are :class:`PageRefusal`."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, QueryDict
from django.utils.translation import gettext, gettext_lazy

import engine
from core import DomainError
from engine.cards import Card, InvalidCard
from games import selectors, services, store
from games.models import Game, Source
from web.forms import posted_key
from web.record.log import card_history, effective, last_entry
from web.refusals import Refusal, refusal
from web.words import describe


class PageRefusal(DomainError):
    """An entry this page refuses before the game sees it (invalid); worded, like every
    refusal, by ``web.refusals`` from its code and params."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(code, message, params=params)


# --- reading the posted fields ------------------------------------------------------------

_SPLIT = re.compile(r"[\s,;]+")


def parse_card(text: str) -> str:
    try:
        return Card.parse(text).code
    except InvalidCard:
        raise PageRefusal("invalid_card", f"{text[:40]!r} is not a card", text=text[:40]) from None


def parse_cards(text: str, picked: list[str] | None = None) -> list[str]:
    codes = [parse_card(part) for part in _SPLIT.split(text.strip()) if part]
    typed = set(codes)  # a set: hundreds of picked cards must not cost a scan each
    for code in picked or ():
        code = parse_card(code)
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
    return parse_card(text)


def is_number(raw: str) -> bool:
    """Whether ``raw`` is a small whole number written in ASCII digits (``"²".isdigit()``
    is true, and ``int`` refuses it; so does ``int`` a 5000-digit string)."""
    return raw.isascii() and raw.isdigit() and len(raw) <= 9


def _seat(post: QueryDict, field_name: str = "seat") -> int:
    raw = post.get(field_name, "")
    if not is_number(raw):
        raise PageRefusal("invalid_seat", "no player chosen")
    return int(raw)


def _knocker(post: QueryDict) -> int | None:
    raw = post.get("knocker", "")
    return None if raw in ("", "none") else _seat(post, "knocker")


# --- the table ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """What an action's command is built from: the posted form and the game as it is."""

    post: QueryDict
    seats: int
    kept: Sequence[Mapping[str, Any]]  # the public events still in effect
    user: Any


@dataclass(frozen=True)
class Offer:
    """What the page knows when it decides which buttons to draw."""

    types: frozenset[str]  # the engine's legal command types now
    knock_cards: bool  # a card exists that the player may knock with
    due: Mapping[str, Any]  # the view's due items by kind
    ruleset: engine.RuleSet
    undo: bool  # an entry is in effect to undo


@dataclass(frozen=True)
class Action:
    """One button of the page. ``form`` is the panel's form that draws it (``deal``,
    ``move``, ``reveal``, ``reentry``, ``hands``, ``counts``, ``undo``); ``row`` its row
    there (``big`` buttons first, then ``more``); ``label`` may name the discard pile's top
    card as ``{card}`` and a showdown's player as ``{name}``."""

    name: str
    label: Any  # a lazy translation
    form: str
    command: Callable[[Entry], dict[str, Any]]
    offered: Callable[[Offer], bool]
    primary: bool = False
    row: str = "big"


def _hands(entry: Entry) -> dict[str, Any]:
    hands = {}
    for seat in range(entry.seats):
        if f"hands-{seat}" in entry.post:
            cards = parse_cards(entry.post.get(f"hands-{seat}", ""))
            if not cards:
                raise PageRefusal("missing_cards", "a final hand is missing", hands="final")
            hands[str(seat)] = cards
    return {"type": "RecordHandResult", "knocker": _knocker(entry.post), "hands": hands}


def _counts(entry: Entry) -> dict[str, Any]:
    counts = {}
    for seat in range(entry.seats):
        if f"deadwood-{seat}" in entry.post:
            raw = entry.post.get(f"deadwood-{seat}", "").strip()
            if not is_number(raw):
                raise PageRefusal("bad_count", "a count is missing or not a number")
            counts[str(seat)] = int(raw)
    return {"type": "RecordHandResult", "knocker": _knocker(entry.post), "deadwood": counts}


def _deal(entry: Entry) -> dict[str, Any]:
    upcard = entry.post.get("upcard", "").strip()
    if not upcard:
        raise PageRefusal("missing_card", "no upcard entered", card="upcard")
    return {"type": "DealHand", "upcard": parse_card(upcard)}


def _reveal(entry: Entry) -> dict[str, Any]:
    cards = parse_cards(entry.post.get("cards", ""), entry.post.getlist("picked"))
    if not cards:
        raise PageRefusal("missing_cards", "no cards entered", hands="shown")
    return {"type": "RevealHand", "seat": _seat(entry.post), "cards": cards}


def _undo(entry: Entry) -> dict[str, Any]:
    last = last_entry(entry.kept)
    if not last:
        raise PageRefusal("nothing_to_retract", "nothing has been entered yet")
    reason = f"undone on the scorekeeper's page by {entry.user.get_username()}"
    return {"type": "Retract", "count": len(last), "reason": reason}


def _legal(command_type: str) -> Callable[[Offer], bool]:
    return lambda offer: command_type in offer.types


def _due(kind: str) -> Callable[[Offer], bool]:
    return lambda offer: kind in offer.due


ACTIONS: tuple[Action, ...] = (
    Action("deal", gettext_lazy("Record the deal"), "deal", _deal, _due("deal"), primary=True),
    # the move form: a draw, then a discard or a knock
    Action(
        "draw_stock",
        gettext_lazy("Drew from the stock"),
        "move",
        lambda e: {"type": "DrawFromStock", "seat": _seat(e.post), "card": _one_card(e.post, required=False)},
        _legal("DrawFromStock"),
        primary=True,
    ),
    Action(
        "draw_discard",
        gettext_lazy("Took {card} from the pile"),
        "move",
        lambda e: {"type": "DrawFromDiscard", "seat": _seat(e.post)},
        _legal("DrawFromDiscard"),
    ),
    Action(
        "pass",
        gettext_lazy("Passed the upcard"),
        "move",
        lambda e: {"type": "PassUpcard", "seat": _seat(e.post)},
        _legal("PassUpcard"),
    ),
    Action(
        "restock",
        gettext_lazy("Turned the pile over"),
        "move",
        lambda e: {"type": "Restock", "seat": _seat(e.post)},
        _legal("Restock"),
    ),
    Action(
        "decline",
        gettext_lazy("Did not draw"),
        "move",
        lambda e: {"type": "DeclineDraw", "seat": _seat(e.post)},
        _legal("DeclineDraw"),
    ),
    Action(
        "discard",
        gettext_lazy("Discard"),
        "move",
        lambda e: {"type": "Discard", "seat": _seat(e.post), "card": _one_card(e.post, required=True)},
        _legal("Discard"),
        primary=True,
    ),
    Action(
        "knock",
        gettext_lazy("Knock with it"),
        "move",
        lambda e: {"type": "Knock", "seat": _seat(e.post), "card": _one_card(e.post, required=False)},
        lambda offer: offer.knock_cards,
    ),
    Action(
        "knock_unseen",
        gettext_lazy("Knock (discard not seen)"),
        "move",
        lambda e: {"type": "Knock", "seat": _seat(e.post), "card": None},
        _legal("Knock"),
        row="more",
    ),
    Action(
        "lay_down",
        gettext_lazy("Lay down a rum"),
        "move",
        lambda e: {"type": "Knock", "seat": _seat(e.post), "card": None, "lay_down": True},
        lambda offer: "Knock" in offer.types and offer.ruleset.rum_without_discard,
        row="more",
    ),
    # a showdown: one form a seat
    Action("reveal", gettext_lazy("Record {name}'s hand"), "reveal", _reveal, _due("reveal"), primary=True),
    # a player out decides whether to re-enter
    Action(
        "reenter",
        gettext_lazy("Re-enters"),
        "reentry",
        lambda e: {"type": "DecideReentry", "seat": _seat(e.post), "reenter": True},
        _due("reentry"),
        primary=True,
    ),
    Action(
        "stay_out",
        gettext_lazy("Stays out"),
        "reentry",
        lambda e: {"type": "DecideReentry", "seat": _seat(e.post), "reenter": False},
        _due("reentry"),
    ),
    # the quick path: the hand's result only
    Action(
        "result_hands",
        gettext_lazy("Record the final hands"),
        "hands",
        _hands,
        _due("hand_result"),
        primary=True,
    ),
    Action(
        "result_counts",
        gettext_lazy("Record the counts (unverified)"),
        "counts",
        _counts,
        _due("hand_result"),
        primary=True,
    ),
    Action("undo", gettext_lazy("Yes, undo it"), "undo", _undo, lambda offer: offer.undo),
)
BY_NAME: Mapping[str, Action] = {action.name: action for action in ACTIONS}
# The most entries a conflict lists as "entered meanwhile".
RECENT_CONFLICT = 8
# The quick path's forms: a refusal there opens the quick path again.
QUICK_FORMS = frozenset({"hands", "counts"})


def build_command(action: str, entry: Entry) -> dict[str, Any]:
    """The engine command a button of the page asks for, from the posted fields."""
    row = BY_NAME.get(action)
    if row is None:
        raise PageRefusal("unknown_action", "not one of the page's buttons")
    return row.command(entry)


def _entered_since(game: Game, version: int) -> list[Mapping[str, Any]]:
    """The public events recorded after ``version`` (at most the page's last few)."""
    after = max(version, game.version - RECENT_CONFLICT)
    events, _ = selectors.viewer_events(game, after=after, seat=None)
    return list(events)


def submit(request: HttpRequest, game: Game, access: Any) -> tuple[Refusal | None, Game, str]:
    """Record what the form asks for: (the refusal or None, the game as it is now, what
    was recorded in words)."""
    post = request.POST
    action = post.get("action", "")
    names = [seat["name"] for seat in game.seats]
    seat = int(post["seat"]) if is_number(post.get("seat", "")) else None
    events, _ = selectors.viewer_events(game, after=0, seat=None)
    kept, _ = effective(events)
    try:
        if game.mode != "physical":
            raise PageRefusal("not_recorded_here", "its players move in the browser")
        command = build_command(action, Entry(post, len(names), kept, request.user))
        raw_version = post.get("version", "")
        if raw_version and not is_number(raw_version):
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
    except services.VersionConflict as exc:
        # another phone recorded first: say what it entered, over the table as it is now
        now = store.read_game(game.pk) or game
        meanwhile = [describe(event, names) for event in _entered_since(now, exc.expected_version)]
        said = DomainError(
            exc.code, exc.message, kind=exc.kind, params={**exc.params, "meanwhile": meanwhile}
        )
        return refusal(said, names, page="record", action=action, seat=seat), now, ""
    except DomainError as exc:
        # where the table last saw each card: the words of a card that cannot be here
        history = card_history(kept)
        return refusal(exc, names, history, page="record", action=action, seat=seat), game, ""
    recorded = store.read_game(game.pk)
    assert recorded is not None
    # only the last event is described: redact just that one, not the whole log again
    last, _ = selectors.viewer_events(recorded, after=recorded.version - 1, seat=None)
    return None, recorded, gettext("Recorded: %(entry)s") % {"entry": describe(last[-1], names)}
