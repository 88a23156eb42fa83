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

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from engine import state as game_state

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

# Cards read out by name ("seven of hearts"): the screen reader's words for a card face.
SUIT_NAMES = {
    "C": pgettext_lazy("suit", "clubs"),
    "D": pgettext_lazy("suit", "diamonds"),
    "H": pgettext_lazy("suit", "hearts"),
    "S": pgettext_lazy("suit", "spades"),
}
RANK_NAMES = {
    "A": pgettext_lazy("rank", "ace"),
    "2": pgettext_lazy("rank", "two"),
    "3": pgettext_lazy("rank", "three"),
    "4": pgettext_lazy("rank", "four"),
    "5": pgettext_lazy("rank", "five"),
    "6": pgettext_lazy("rank", "six"),
    "7": pgettext_lazy("rank", "seven"),
    "8": pgettext_lazy("rank", "eight"),
    "9": pgettext_lazy("rank", "nine"),
    "T": pgettext_lazy("rank", "ten"),
    "J": pgettext_lazy("rank", "jack"),
    "Q": pgettext_lazy("rank", "queen"),
    "K": pgettext_lazy("rank", "king"),
}

# How a hand ended (engine's HandScored.outcome); {knocker} is the knocker's name.
OUTCOMES = {
    "rum": gettext_lazy("{knocker} knocked with a rum"),
    "knock_won": gettext_lazy("{knocker} knocked and won"),
    "knock_tied": gettext_lazy("{knocker} knocked and tied, stepping aside"),
    "knock_lost": gettext_lazy("{knocker} knocked and lost"),
    "no_knock": gettext_lazy("the stock ran out without a knock"),
    "knock": gettext_lazy("{knocker} knocked"),
    "gin": gettext_lazy("{knocker} went gin"),
    "undercut": gettext_lazy("{knocker} knocked and was undercut"),
    "tie": gettext_lazy("{knocker} knocked and tied"),
    "void": gettext_lazy("void"),
}

# A meld's kind (engine.melds), read out for a group of cards.
MELD_WORDS = {
    "set": gettext_lazy("set"),
    "run": gettext_lazy("run"),
}

# A game's mode (games.models.Mode) as the pages say it.
MODE_WORDS = {
    "digital": gettext_lazy("in the browser"),
    "physical": gettext_lazy("at a real table"),
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
    # the dash written as itself: xgettext reads no \N{...} escape, so the catalogue
    # would hold another message than the one looked up
    return str(gettext_lazy("tables of %(low)s–%(high)s") % {"low": low, "high": high})  # noqa: RUF001


def mode_text(mode: str) -> str:
    """``"physical"`` → ``"at a real table"``; an unknown mode as it is."""
    words = MODE_WORDS.get(mode)
    return str(words) if words is not None else mode


def meld_text(kind: str) -> str:
    words = MELD_WORDS.get(kind)
    return str(words) if words is not None else kind


def outcome_text(outcome: str, knocker: str) -> str:
    """How a hand ended, ``knocker`` named: ``outcome_text("gin", "Ann")`` → ``"Ann went gin"``."""
    words = OUTCOMES.get(outcome)
    return str(words).format(knocker=knocker) if words is not None else outcome.replace("_", " ")


def card_words(code: str) -> str:
    """A card by name: ``"7H"`` → ``"seven of hearts"``, ``"X1"`` → ``"joker"``."""
    code = code.upper()
    if code.startswith("X"):
        return pgettext("card", "joker")
    return _("%(rank)s of %(suit)s") % {"rank": RANK_NAMES[code[:-1]], "suit": SUIT_NAMES[code[-1]]}


def card_text(code: Any) -> str:
    """``"QS"`` → ``"Q♠"``, ``"TD"`` → ``"10♦"``, ``"X1"`` → ``"joker"``; None → ``"a card"``."""
    text = str(code or "").upper()
    if not text:
        return _("a card")
    if text.startswith("X"):
        return pgettext("card", "joker")
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
    return _("seat %(seat)s") % {"seat": seat}


def _with_reason(text: str, reason: Any) -> str:
    if reason:
        return _("%(text)s (%(reason)s).") % {"text": text, "reason": reason}
    return _("%(text)s.") % {"text": text}


def listed(names: Sequence[str]) -> str:
    """``["Ann", "Bo", "Cy"]`` → ``"Ann, Bo and Cy"`` (in the reader's language)."""
    if len(names) <= 1:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def _started(d: Mapping[str, Any]) -> str:
    names = [str(seat.get("name", "")) for seat in d.get("seats") or [] if isinstance(seat, Mapping)]
    preset = (d.get("ruleset") or {}).get("preset", "")
    if not names:
        return _("The game started.")
    return _("The game started: %(players)s play %(preset)s.") % {"players": listed(names), "preset": preset}


def _dealt(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    text = _("Hand %(hand)s: %(dealer)s dealt") % {"hand": d.get("hand_number"), "dealer": n(d.get("dealer"))}
    if d.get("upcard"):
        text += _("; the upcard is %(card)s") % {"card": card_text(d["upcard"])}
    known = d.get("hands") or {}
    for seat, cards in known.items():
        text += _("; %(player)s holds %(cards)s") % {"player": n(seat), "cards": cards_text(cards)}
    return text + "."


def _drawn(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    who = n(d.get("seat"))
    if d.get("source") == "discard":
        return _("%(player)s took %(card)s from the discard pile.") % {
            "player": who,
            "card": card_text(d.get("card")),
        }
    if d.get("card"):
        return _("%(player)s drew %(card)s from the stock.") % {"player": who, "card": card_text(d["card"])}
    return _("%(player)s drew from the stock.") % {"player": who}


def _knocked(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    who = n(d.get("seat"))
    if d.get("lay_down"):
        return _("%(player)s laid down a rum without discarding.") % {"player": who}
    if d.get("card"):
        return _("%(player)s knocked, discarding %(card)s face down.") % {
            "player": who,
            "card": card_text(d["card"]),
        }
    return _("%(player)s knocked.") % {"player": who}


def _restocked(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    who = n(d.get("seat"))
    if d.get("method") == "reshuffle":
        return _("%(player)s reshuffled the discard pile as a new stock.") % {"player": who}
    return _("%(player)s turned over the discard pile as a new stock.") % {"player": who}


def _revealed(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    return _("%(player)s showed %(cards)s.") % {
        "player": n(d.get("seat")),
        "cards": cards_text(d.get("cards")),
    }


def _knocker_words(knocker: Any, n: Callable[[Any], str]) -> str:
    if knocker is None:
        return _("nobody knocked")
    return _("%(player)s knocked") % {"player": n(knocker)}


def _result_recorded(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    who = _knocker_words(d.get("knocker"), n)
    hand = d.get("hand_number")
    if d.get("hands") is not None:
        return _("Hand %(hand)s entered as final hands (%(knocker)s).") % {"hand": hand, "knocker": who}
    counts = ", ".join(f"{n(seat)} {count}" for seat, count in (d.get("deadwood") or {}).items())
    return _("Hand %(hand)s entered as announced counts, unverified (%(knocker)s): %(counts)s.") % {
        "hand": hand,
        "knocker": who,
        "counts": counts,
    }


def _scored(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    outcome = d.get("outcome") or ""
    hand = d.get("hand_number")
    if outcome == "void":
        return _("Hand %(hand)s is void; the same dealer deals again.") % {"hand": hand}
    knocker = d.get("knocker")
    said = outcome_text(outcome, n(knocker) if knocker is not None else _("nobody"))
    points = ", ".join(f"{n(seat)} {points_text(value)}" for seat, value in (d.get("points") or {}).items())
    text = _("Hand %(hand)s scored: %(outcome)s. %(points)s.") % {
        "hand": hand,
        "outcome": said,
        "points": points,
    }
    if d.get("verified") is False:
        text += " " + _("(Unverified: announced counts.)")
    return text


def _reentry(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    who = n(d.get("seat"))
    if d.get("reenter"):
        return _("%(player)s re-entered, paying %(paid)s into the pool.") % {
            "player": who,
            "paid": d.get("paid"),
        }
    return _("%(player)s stayed out.") % {"player": who}


def _corrected(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    who = _knocker_words(d.get("knocker"), n)
    hand = d.get("hand_number")
    if d.get("hands") is not None:
        text = _("Hand %(hand)s corrected: %(knocker)s, final hands") % {"hand": hand, "knocker": who}
    else:
        text = _("Hand %(hand)s corrected: %(knocker)s, announced counts") % {"hand": hand, "knocker": who}
    return _with_reason(text, d.get("reason"))


def _finished(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    result = d.get("result") or {}
    ranking = result.get("ranking") or []
    if not ranking:
        return _("The game is over.")
    winners = [n(seat) for seat in ranking[0]]
    return ngettext(
        "The game is over: %(players)s wins.", "The game is over: %(players)s win.", len(winners)
    ) % {"players": listed(winners)}


def _adjusted(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    text = _("%(player)s's score adjusted by %(points)s") % {
        "player": n(d.get("seat")),
        "points": points_text(d.get("points", 0)),
    }
    return _with_reason(text, d.get("reason"))


def _replaced(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    if d.get("bot"):
        return _("The %(bot)s bot took over %(player)s's seat.") % {
            "bot": d.get("bot"),
            "player": n(d.get("seat")),
        }
    return _("%(name)s took over %(player)s's seat.") % {"name": d.get("name"), "player": n(d.get("seat"))}


def _retracted(d: Mapping[str, Any], n: Callable[[Any], str]) -> str:
    count = d.get("count")
    if count == 1:
        text = _("Undid the last entry")
    else:
        text = _("Undid the last %(count)s events") % {"count": count}
    return _with_reason(text, d.get("reason"))


_SENTENCES: dict[str, Callable[[Mapping[str, Any], Callable[[Any], str]], str]] = {
    "GameStarted": lambda d, n: _started(d),
    "HandDealt": _dealt,
    "UpcardPassed": lambda d, n: _("%(player)s passed the upcard.") % {"player": n(d.get("seat"))},
    "CardDrawn": _drawn,
    "CardDiscarded": lambda d, n: (
        _("%(player)s discarded %(card)s.") % {"player": n(d.get("seat")), "card": card_text(d.get("card"))}
    ),
    "Knocked": _knocked,
    "StockRestocked": _restocked,
    "DrawDeclined": lambda d, n: (
        _("%(player)s did not draw; the stock is empty.") % {"player": n(d.get("seat"))}
    ),
    "HandRevealed": _revealed,
    "HandResultRecorded": _result_recorded,
    "HandScored": _scored,
    "ReentryDecided": _reentry,
    "ScoreAdjusted": _adjusted,
    "SeatReplaced": _replaced,
    "Retracted": _retracted,
    "GameAbandoned": lambda d, n: _with_reason(_("The game was abandoned"), d.get("reason")),
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
        return _("%(text)s.") % {"text": kind}
    return sentence(data, lambda seat: seat_name(seat_names, seat))
