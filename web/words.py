"""Events in words, for people: ``describe(event, seat_names)``.

``event`` is an event as the API and the pages hand it out (``{"type", "data", ...}``,
already redacted for its viewer: a card the viewer may not know is ``None`` and is not
named). Cards are written as faces (``Q♠``, ``10♦``, ``joker``), so a sentence is read
the same way the cards on the page are drawn. The recorder's page and the replay viewer
both use it.

>>> names = ["Ann", "Bo", "Cy"]
>>> describe({"type": "CardDiscarded", "data": {"seat": 1, "card": "QS"}}, names)
'Bo discarded Q♠.'
>>> describe({"type": "CardDrawn", "data": {"seat": 2, "source": "stock", "card": None}}, names)
'Cy drew from the stock.'
>>> describe({"type": "HandScored", "data": {"hand_number": 1, "outcome": "knock_won", "knocker": 0,
...     "points": {"0": "28", "1": "-19", "2": "-9"}, "verified": True}}, names)
'Hand 1 scored: Ann knocked and won. Ann +28, Bo -19, Cy -9.'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext_lazy

from engine import state as game_state

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

OUTCOMES = {
    "rum": "{knocker} knocked with a rum",
    "knock_won": "{knocker} knocked and won",
    "knock_tied": "{knocker} knocked and tied, stepping aside",
    "knock_lost": "{knocker} knocked and lost",
    "no_knock": "the stock ran out without a knock",
    "knock": "{knocker} knocked",
    "gin": "{knocker} went gin",
    "undercut": "{knocker} knocked and was undercut",
    "tie": "{knocker} knocked and tied",
    "void": "void",
}


# A game's status (engine.state.STATUSES) as every page says it: the public pages' badges,
# the desk's round control, the replay and play pages ("The game is …"). "" is a table
# whose game is not opened yet.
GAME_STATUS_WORDS = {
    "": gettext_lazy("not started"),
    game_state.AWAITING_DEAL: gettext_lazy("between hands"),
    game_state.PLAYING: gettext_lazy("being played"),
    # a physical showdown waits for the revealed hands (or the hand's result)
    game_state.SHOWDOWN: gettext_lazy("awaiting the result"),
    game_state.AWAITING_REENTRY: gettext_lazy("waiting for a re-entry decision"),
    game_state.FINISHED: gettext_lazy("finished"),
    game_state.ABANDONED: gettext_lazy("abandoned"),
}


def game_status_text(status: str) -> str:
    """A game's status in words, in the reader's language.

    >>> game_status_text("awaiting_deal"), game_status_text("")
    ('between hands', 'not started')
    """
    words = GAME_STATUS_WORDS.get(status)
    return str(words) if words is not None else status.replace("_", " ")


def table_sizes_text(low: int, high: int) -> str:
    """A tournament's table sizes: "tables of 3 to 4" (an en dash between), or
    "2-player tables" when every table has the same size (never "tables of 2 to 2")."""
    if low == high:
        return str(gettext_lazy("%(size)s-player tables") % {"size": low})
    return str(gettext_lazy("tables of %(low)s\N{EN DASH}%(high)s") % {"low": low, "high": high})


def card_text(code: Any) -> str:
    """``"QS"`` → ``"Q♠"``, ``"TD"`` → ``"10♦"``, ``"X1"`` → ``"joker"``; None → ``"a card"``."""
    text = str(code or "").upper()
    if not text:
        return "a card"
    if text.startswith("X"):
        return "joker"
    rank = "10" if text[:-1] in ("T", "10") else text[:-1]
    return rank + SUIT_SYMBOLS.get(text[-1], text[-1])


def cards_text(codes: Sequence[Any] | None) -> str:
    return " ".join(card_text(c) for c in codes or ())


def points_text(value: Any) -> str:
    """A signed score change: ``+28``, ``-19``, ``0``, ``+20/3``."""
    number = Fraction(str(value))
    if number > 0:
        return f"+{number}"
    if number < 0:
        return f"-{-number}"
    return "0"


def score_text(value: Any) -> str:
    """A score as people write it: ``5``, ``-3``, ``7/2`` → ``3½``, ``-1/2`` → ``-½``,
    ``7/3`` → ``2 1/3``; ``None`` → ``""``."""
    if value is None:
        return ""
    number = Fraction(str(value))
    if number.denominator == 1:
        return str(number.numerator)
    whole, rest = divmod(abs(number.numerator), number.denominator)
    sign = "-" if number < 0 else ""
    if number.denominator == 2:
        return f"{sign}{whole or ''}½"
    return f"{sign}{whole} {rest}/{number.denominator}" if whole else f"{sign}{rest}/{number.denominator}"


def seat_name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    if isinstance(seat, str) and seat.isdigit() and int(seat) < len(names):
        return names[int(seat)]
    return f"seat {seat}"


def _with_reason(text: str, reason: Any) -> str:
    return f"{text} ({reason})." if reason else f"{text}."


def _started(d: Mapping[str, Any]) -> str:
    names = [str(seat.get("name", "")) for seat in d.get("seats") or [] if isinstance(seat, Mapping)]
    preset = (d.get("ruleset") or {}).get("preset", "")
    if not names:
        return "The game started."
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"The game started: {listed} play {preset}."


def _dealt(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    text = f"Hand {d.get('hand_number')}: {n(d.get('dealer'))} dealt"
    if d.get("upcard"):
        text += f"; the upcard is {card_text(d['upcard'])}"
    known = d.get("hands") or {}
    for seat, cards in known.items():
        text += f"; {n(seat)} holds {cards_text(cards)}"
    return text + "."


def _drawn(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    if d.get("source") == "discard":
        return f"{n(d.get('seat'))} took {card_text(d.get('card'))} from the discard pile."
    if d.get("card"):
        return f"{n(d.get('seat'))} drew {card_text(d['card'])} from the stock."
    return f"{n(d.get('seat'))} drew from the stock."


def _knocked(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    who = n(d.get("seat"))
    if d.get("lay_down"):
        return f"{who} laid down a rum without discarding."
    if d.get("card"):
        return f"{who} knocked, discarding {card_text(d['card'])} face down."
    return f"{who} knocked."


def _restocked(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    how = "reshuffled" if d.get("method") == "reshuffle" else "turned over"
    return f"{n(d.get('seat'))} {how} the discard pile as a new stock."


def _revealed(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    return f"{n(d.get('seat'))} showed {cards_text(d.get('cards'))}."


def _result_recorded(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    knocker = d.get("knocker")
    who = "nobody knocked" if knocker is None else f"{n(knocker)} knocked"
    if d.get("hands") is not None:
        return f"Hand {d.get('hand_number')} entered as final hands ({who})."
    counts = ", ".join(f"{n(seat)} {count}" for seat, count in (d.get("deadwood") or {}).items())
    return f"Hand {d.get('hand_number')} entered as announced counts, unverified ({who}): {counts}."


def _scored(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    outcome = d.get("outcome") or ""
    if outcome == "void":
        return f"Hand {d.get('hand_number')} is void; the same dealer deals again."
    knocker = d.get("knocker")
    said = OUTCOMES.get(outcome, outcome.replace("_", " ")).format(
        knocker=n(knocker) if knocker is not None else "nobody"
    )
    points = ", ".join(f"{n(seat)} {points_text(value)}" for seat, value in (d.get("points") or {}).items())
    text = f"Hand {d.get('hand_number')} scored: {said}. {points}."
    if d.get("verified") is False:
        text += " (Unverified: announced counts.)"
    return text


def _reentry(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    if d.get("reenter"):
        return f"{n(d.get('seat'))} re-entered, paying {d.get('paid')} into the pool."
    return f"{n(d.get('seat'))} stayed out."


def _corrected(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    knocker = d.get("knocker")
    who = "nobody knocked" if knocker is None else f"{n(knocker)} knocked"
    entered = "final hands" if d.get("hands") is not None else "announced counts"
    return _with_reason(f"Hand {d.get('hand_number')} corrected: {who}, {entered}", d.get("reason"))


def _finished(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    result = d.get("result") or {}
    ranking = result.get("ranking") or []
    if not ranking:
        return "The game is over."
    first = " and ".join(n(seat) for seat in ranking[0])
    return f"The game is over: {first} {'win' if len(ranking[0]) > 1 else 'wins'}."


_SENTENCES: dict[str, Callable[[Mapping[str, Any], Callable[[Any], str]], str]] = {
    "GameStarted": lambda d, n: _started(d),
    "HandDealt": _dealt,
    "UpcardPassed": lambda d, n: f"{n(d.get('seat'))} passed the upcard.",
    "CardDrawn": _drawn,
    "CardDiscarded": lambda d, n: f"{n(d.get('seat'))} discarded {card_text(d.get('card'))}.",
    "Knocked": _knocked,
    "StockRestocked": _restocked,
    "DrawDeclined": lambda d, n: f"{n(d.get('seat'))} did not draw; the stock is empty.",
    "HandRevealed": _revealed,
    "HandResultRecorded": _result_recorded,
    "HandScored": _scored,
    "ReentryDecided": _reentry,
    "ScoreAdjusted": lambda d, n: _with_reason(
        f"{n(d.get('seat'))}'s score adjusted by {points_text(d.get('points', 0))}", d.get("reason")
    ),
    "SeatReplaced": lambda d, n: (
        f"The {d.get('bot')} bot took over {n(d.get('seat'))}'s seat."
        if d.get("bot")
        else f"{d.get('name')} took over {n(d.get('seat'))}'s seat."
    ),
    "Retracted": lambda d, n: _with_reason(
        "Undid the last entry" if d.get("count") == 1 else f"Undid the last {d.get('count')} events",
        d.get("reason"),
    ),
    "GameAbandoned": lambda d, n: _with_reason("The game was abandoned", d.get("reason")),
    "GameFinished": _finished,
    "HandCorrected": _corrected,
}


def describe(event: Mapping[str, Any], seat_names: Sequence[str]) -> str:
    """One sentence for ``event`` (``{"type", "data"}``), seats named by ``seat_names``.

    >>> describe({"type": "Knocked", "data": {"seat": 0, "card": None, "lay_down": False}}, ["Ann"])
    'Ann knocked.'
    >>> describe({"type": "Retracted", "data": {"count": 1, "reason": "misentered"}}, [])
    'Undid the last entry (misentered).'
    """
    kind = str(event.get("type", ""))
    data = event.get("data") or {}
    sentence = _SENTENCES.get(kind)
    if sentence is None:
        return f"{kind}."
    return sentence(data, lambda seat: seat_name(seat_names, seat))
