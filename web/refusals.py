"""Every refusal a page shows, in words — the one place they are worded.

A refusal reaches the web as a :class:`core.DomainError`: a stable ``code`` and the
``params`` it was raised with (the engine's ``seat`` and ``card``, the place a card was
seen, the role an access check needs, …). :func:`refusal` words it here, through
gettext, in the reader's language: a *title* for the code and, when the params say
more, a *detail* — seats by the player's name (never a seat number), cards by their
face, a card's history at the table when the page knows it. The domain's own English
``message`` is shown only for a code worded nowhere here, and never when it names a seat.

:class:`RefusalMiddleware` gives the pages the same words for a refusal no view caught:
a 403 or 404 page, the sign-in page for ``not_authenticated``.

>>> from core import DomainError
>>> str(refusal(DomainError("not_your_turn", "it is seat 0's turn, not seat 1's",
...     params={"seat": 1, "to_move": 0}), ["Ann", "Bo"]))
"It is another player's turn. It is Ann's turn, not Bo's."
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import BadRequest, PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views import defaults

from core import DomainError, Kind
from core.messages import Message
from web.words import card_text

# The title of each code, said first ("That player cannot be holding that card.").
TITLES: dict[str, Any] = {
    # the engine's (engine.checks.CODES)
    "unknown_command": gettext_lazy("That is not an entry this page knows."),
    "cannot_retract_deal": gettext_lazy("A digital deal cannot be undone."),
    "malformed_command": gettext_lazy("Something is missing from that entry."),
    "invalid_deadwood": gettext_lazy("That count is more than a hand can hold."),
    "invalid_card": gettext_lazy("That is not a card of this game."),
    "game_not_started": gettext_lazy("The game has not started."),
    "game_already_started": gettext_lazy("The game has already started."),
    "invalid_setup": gettext_lazy("The game's setup is not allowed."),
    "game_over": gettext_lazy("The game is over: nothing more can be entered."),
    "invalid_seat": gettext_lazy("That player is not in this hand."),
    "not_awaiting_deal": gettext_lazy("A hand is still being played."),
    "invalid_deck": gettext_lazy("That deck is not a whole deck."),
    "invalid_deal": gettext_lazy("That deal is not possible."),
    "wrong_mode": gettext_lazy("That entry belongs to the other kind of game."),
    "no_such_hand": gettext_lazy("That hand was never scored, or no longer counts: it cannot be corrected."),
    "correction_unchanged": gettext_lazy("That is the result the hand already has: nothing to correct."),
    "correction_conflict": gettext_lazy(
        "A later hand or re-entry no longer fits that correction: undo the later entries first."
    ),
    "no_hand_in_play": gettext_lazy("No hand is being played."),
    "not_your_turn": gettext_lazy("It is another player's turn."),
    "no_upcard_offer": gettext_lazy("The upcard is not on offer."),
    "upcard_offer_pending": gettext_lazy("The upcard must first be taken or passed."),
    "must_draw_from_stock": gettext_lazy(
        "Everyone passed the upcard: the first player draws from the stock."
    ),
    "already_drew": gettext_lazy("That player has already drawn this turn."),
    "must_draw_first": gettext_lazy("That player must draw first."),
    "stock_empty": gettext_lazy("The stock is empty."),
    "discard_pile_empty": gettext_lazy("The discard pile is empty."),
    "card_unavailable": gettext_lazy("That card cannot have come from the stock."),
    "card_not_in_hand": gettext_lazy("That player cannot be holding that card."),
    "cannot_discard_taken_card": gettext_lazy(
        "The card just taken from the discard pile may not be thrown back."
    ),
    "card_required": gettext_lazy("Name the card discarded face down."),
    "knock_not_allowed_yet": gettext_lazy("Nobody may knock until everyone has had a turn."),
    "deadwood_too_high_to_knock": gettext_lazy("Too much deadwood to knock."),
    "laydown_not_allowed": gettext_lazy("These rules have no laying down without discarding."),
    "laydown_not_all_melded": gettext_lazy("Laying down without discarding needs every card melded."),
    "restock_not_allowed": gettext_lazy("The stock cannot be restocked now."),
    "decline_not_allowed": gettext_lazy("The player must still draw."),
    "not_in_showdown": gettext_lazy("No showdown is going on."),
    "already_revealed": gettext_lazy("That hand has already been shown."),
    "inconsistent_reveal": gettext_lazy("That hand does not fit what the table has seen."),
    "invalid_meld": gettext_lazy("That meld is not a meld."),
    "invalid_showdown": gettext_lazy("That showdown cannot be scored."),
    "invalid_hand": gettext_lazy("No deck deals that hand."),
    "not_awaiting_reentry": gettext_lazy("Nobody is deciding on re-entry."),
    "nothing_to_retract": gettext_lazy("There is nothing to undo."),
    "retract_partial": gettext_lazy("That entry must be undone together with its scoring."),
    # the store's
    "version_conflict": gettext_lazy("Someone else entered something meanwhile."),
    "idempotency_key_reused": gettext_lazy("That form was already sent."),
    # who may do what (games.access, league.access)
    "not_authenticated": gettext_lazy("Sign in first."),
    "not_found": gettext_lazy("There is no such page."),
    "permission_denied": gettext_lazy("You may not do that here."),
    "director_only": gettext_lazy("Only a director of the game's club may do that."),
    "recorder_only": gettext_lazy(
        "Only the club's directors and scorekeepers, and the game's owner, may record it."
    ),
    "not_your_seat": gettext_lazy("You may only play your own seat."),
    "dealt_by_system": gettext_lazy("Digital games are dealt by the system."),
    "seated_player_cannot_retract": gettext_lazy("Nobody seated at a digital table may undo a move."),
    "export_not_allowed": gettext_lazy("The whole log can be exported once the game is over."),
    # the league's, shown by the desk
    "draft_changed": gettext_lazy("The round changed since you opened it — here it is now."),
    "no_more_rounds": gettext_lazy("Every round of the tournament has been generated."),
    "round_in_draft": gettext_lazy("The last round is still a draft."),
    "round_not_complete": gettext_lazy("The last round is still being played."),
    "too_few_players": gettext_lazy("Too few players to fill a table."),
    "round_in_play": gettext_lazy("A published round is still being played: let its games end first."),
    "round_not_draft": gettext_lazy("That round is published already: it can no longer be edited."),
    "edit_reason_required": gettext_lazy(
        "The tables differ from the seating generated: say why before publishing."
    ),
    "invalid_status_change": gettext_lazy("The tournament cannot be set to that status now."),
    "invalid_table_size": gettext_lazy("Those table sizes cannot be seated."),
    "knockout_finished": gettext_lazy("The knockout is over: its final has been played."),
    "beyond_schedule": gettext_lazy("The round robin's schedule has no more rounds."),
    "invalid_rounds": gettext_lazy("That number of rounds is not possible for this seating."),
    "unknown_method": gettext_lazy("Choose one of the seating methods offered."),
    "unknown_bot": gettext_lazy("Choose one of the bots offered."),
    "invalid_bots": gettext_lazy("Bots fill digital tables only; this tournament is physical."),
    # the pages' own (web.record, web.views.play)
    "missing_card": gettext_lazy("Enter the card first."),
    "missing_cards": gettext_lazy("Enter the hand's cards first."),
    "bad_count": gettext_lazy("A count is a whole number from 0 up."),
    "bad_version": gettext_lazy("The form was incomplete: reload the page and try again."),
    "no_game": gettext_lazy("This table has no game to record yet."),
    "not_recorded_here": gettext_lazy("This game is played in the browser, not recorded here."),
    "unknown_action": gettext_lazy("That button is not one of this page's."),
    "move_not_open": gettext_lazy("That move is not open to you now."),
    # the club's people and self check-in (league.people, league.checkin)
    "invalid_role": gettext_lazy("Choose a role offered: director, scorekeeper or player."),
    "invitation_needs_player": gettext_lazy(
        "A player's invitation is for one of the club's players: choose one."
    ),
    "player_has_login": gettext_lazy(
        "That player already has a login: unlink it first if it is the wrong one."
    ),
    "login_has_player": gettext_lazy("That login is already a player's: a login is one player's only."),
    "no_such_login": gettext_lazy("No login has that username. Invite them instead: they make their own."),
    "last_director": gettext_lazy("A club keeps at least one director: make someone else a director first."),
    "player_exists": gettext_lazy("The club already has a player of that name."),
    # the round clock (league.clock)
    "clock_running": gettext_lazy("The round's clock is already running: stop it first to start it again."),
    "clock_not_running": gettext_lazy("The round's clock is not running."),
    "round_not_running": gettext_lazy("Only a published round being played has a clock."),
    # registration at the door (league.services.registration_lists)
    "list_too_long": gettext_lazy("That list is too long."),
    "list_not_text": gettext_lazy("That is not a list of names."),
    "csv_no_name_column": gettext_lazy("The file has no “name” column."),
    "invitation_unknown": gettext_lazy(
        "No invitation has this code. Check it, or ask the club's director for a new one."
    ),
    "invitation_used": gettext_lazy(
        "This invitation has been used already: sign in with the login made with it."
    ),
    "invitation_withdrawn": gettext_lazy(
        "This invitation was withdrawn. Ask the club's director for a new one."
    ),
    "invitation_expired": gettext_lazy("This invitation has expired. Ask the club's director for a new one."),
    "username_taken": gettext_lazy("That username is taken: choose another."),
    "round_complete": gettext_lazy("That round is complete: its tables need no scorekeeper now."),
    "not_a_scorekeeper": gettext_lazy("Choose one of the club's scorekeepers or directors."),
    "not_a_club_player": gettext_lazy(
        "Only the club's players with a login check themselves in: ask the director to link your login."
    ),
    "check_in_closed": gettext_lazy("Self check-in is not open for this tournament: ask the director."),
    "wrong_check_in_code": gettext_lazy("That is not the code shown in the room: check it and try again."),
    "not_registered": gettext_lazy(
        "You are not registered for this tournament, and its rounds have begun: ask the director."
    ),
    "registration_closed": gettext_lazy(
        "Your registration cannot be checked in now (dropped or withdrawn): ask the director."
    ),
    "tournament_finished": gettext_lazy("The tournament is closed: nothing can change any more."),
}

# A page may say a code its own way (the play page's players did not "enter" anything).
PAGE_TITLES: dict[tuple[str, str], Any] = {
    ("play", "version_conflict"): gettext_lazy(
        "The game moved on before your move arrived: here is the table as it is now."
    ),
}

# The seat's place, by the code the engine gives it (engine.physical.Place).
_PLACES: dict[str, Any] = {
    "turned_over_stock": gettext_lazy("the turned-over stock"),
    "discard_pile": gettext_lazy("the discard pile"),
    "knock_discard": gettext_lazy("%(name)s's knock discard"),
    "hand_or_knock_discard": gettext_lazy("%(name)s's hand or face-down knock discard"),
    "hand": gettext_lazy("%(name)s's hand"),
    "revealed_hand": gettext_lazy("%(name)s's revealed hand"),
}


# Where the table last saw a card (web.record.log.card_history), said after its face.
_SEEN: dict[str, Any] = {
    "upcard": gettext_lazy("%(card)s is the upcard, turned up at the deal."),
    "dealt": gettext_lazy("%(card)s was dealt to %(name)s."),
    "drawn": gettext_lazy("%(card)s was taken from %(where)s by %(name)s in turn %(turn)s."),
    "discarded": gettext_lazy("%(card)s was already discarded by %(name)s in turn %(turn)s."),
    "knock_discard": gettext_lazy("%(card)s was %(name)s's knock discard in turn %(turn)s."),
    "restocked": gettext_lazy("%(card)s went back into the stock when %(name)s restocked in turn %(turn)s."),
    "revealed": gettext_lazy("%(card)s was shown in %(name)s's revealed hand."),
    "face_down_knock_discard": gettext_lazy("%(card)s was %(name)s's face-down knock discard."),
}


@dataclass(frozen=True)
class Refusal:
    """A refusal in words: ``title`` and ``detail`` are shown; ``code`` is kept for tests
    and logs, never shown; ``action`` and ``seat`` place it beside the form it refused."""

    code: str
    title: str
    detail: str
    action: str = ""
    seat: int | None = None

    def __str__(self) -> str:
        return f"{self.title} {self.detail}".strip()


class _Words:
    """What a detail needs: the params, the players' names, the cards' history."""

    def __init__(
        self, params: Mapping[str, Any], names: Sequence[str], history: Mapping[str, Message]
    ) -> None:
        self.params = params
        self.names = names
        self.history = history

    def name(self, key: str = "seat") -> str:
        seat = self.params.get(key)
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(self.names):
            return self.names[seat]
        return _("that player")

    def card(self, key: str = "card") -> str:
        return card_text(self.params.get(key))

    def seen(self) -> str | None:
        """Where the table saw the card, from its history at the table (None: unknown)."""
        code = str(self.params.get("card") or "")
        seen = self.history.get(code)
        if seen is None or seen.code not in _SEEN:
            return None
        p = seen.params
        seat = p.get("seat")
        name = self.names[seat] if isinstance(seat, int) and 0 <= seat < len(self.names) else _("a player")
        where = _("the discard pile") if p.get("source") == "discard" else _("the stock")
        return str(_SEEN[seen.code]) % {
            "card": card_text(code),
            "name": name,
            "turn": p.get("turn"),
            "where": where,
        }

    def place(self) -> str:
        return str(_PLACES[self.params["place"]]) % {"name": self.name("holder")}


def _card_not_in_hand(w: _Words) -> str:
    seen = w.seen()
    if seen:
        return seen
    if "place" in w.params:
        return _("%(name)s cannot hold %(card)s: it is in %(place)s.") % {
            "name": w.name(),
            "card": w.card(),
            "place": w.place(),
        }
    if w.params.get("all_known"):
        return _("Every card %(name)s holds is known, and %(card)s is not among them.") % {
            "name": w.name(),
            "card": w.card(),
        }
    return _("%(name)s does not hold %(card)s.") % {"name": w.name(), "card": w.card()}


def _card_unavailable(w: _Words) -> str:
    seen = w.seen()
    if seen:
        return seen
    if "top" in w.params:
        return _("The turned-over stock's top card is %(top)s, not %(card)s.") % {
            "top": w.card("top"),
            "card": w.card(),
        }
    return _("%(card)s cannot come from the stock: it is in %(place)s.") % {
        "card": w.card(),
        "place": w.place(),
    }


def _inconsistent_reveal(w: _Words) -> str:
    problem = w.params.get("problem")
    values = {"name": w.name(), "card": w.card()}
    if problem == "seen":
        return w.seen() or _("%(name)s cannot hold %(card)s: it is in %(place)s.") % {
            **values,
            "place": w.place(),
        }
    if problem in ("twice", "duplicate"):
        return _("%(card)s is entered twice; one deck holds it once.") % values
    if problem == "size":
        return _("%(name)s holds %(size)s cards but %(count)s were revealed.") % {
            **values,
            "size": w.params.get("size"),
            "count": w.params.get("count"),
        }
    if problem == "lacks_known":
        if w.params.get("taken_at_knock"):
            why = _(
                "it was taken from the discard pile in the turn of the knock, so it is not the "
                "face-down discard"
            )
        else:
            why = _("it was taken from the discard pile and not discarded since, or entered earlier")
        return _("%(name)s must hold %(card)s (%(why)s), but the hand entered lacks it.") % {
            **values,
            "why": why,
        }
    if problem == "lacks_two":
        first, second = [*list(w.params.get("cards") or ()), "", ""][:2]
        return _(
            "%(name)s's hand lacks both %(first)s and %(second)s, which the table saw it take; only one "
            "of them can be the face-down knock discard."
        ) % {**values, "first": card_text(first), "second": card_text(second)}
    if problem == "knocker":
        recorded = w.params.get("recorded")
        who = (
            _("nobody knocked") if recorded is None else _("%(name)s knocked") % {"name": w.name("recorded")}
        )
        return _("The entries say %(who)s; the result names another knocker.") % {"who": who}
    return ""


def _invalid_hand(w: _Words) -> str:
    problem = w.params.get("problem")
    if problem == "joker":
        if w.params.get("jokers"):
            text = _("%(card)s is not in play: this rule set uses only one joker.")
        else:
            text = _("%(card)s is not in play: this rule set uses no jokers.")
        text = text % {"card": w.card()}
        return text[:1].upper() + text[1:]
    if problem == "duplicate":
        return _("%(card)s is entered twice; one deck holds it once.") % {"card": w.card()}
    return ""


def _deadwood_too_high(w: _Words) -> str:
    values = {"name": w.name(), "deadwood": w.params.get("deadwood"), "limit": w.params.get("limit")}
    if w.params.get("card"):
        return _(
            "%(name)s would keep %(deadwood)s deadwood after discarding %(card)s; these rules allow "
            "knocking with at most %(limit)s."
        ) % {**values, "card": w.card()}
    return _("%(name)s knocked with %(deadwood)s deadwood; these rules allow at most %(limit)s.") % values


def _invalid_seat(w: _Words) -> str:
    if "seat" in w.params:
        return _("%(name)s is not playing this hand.") % {"name": w.name()}
    return _("Choose a player.")


def _invalid_card(w: _Words) -> str:
    if "text" in w.params:
        return _(
            "“%(text)s” is not a card: type a rank (A, 2 to 10, J, Q, K) and a suit (c, d, h, s), like 7h, "
            "10d or qs; the jokers are x1 and x2."
        ) % {"text": w.params["text"]}
    return _("%(card)s is not in this game's deck.") % {"card": w.card()}


def _too_few_players(w: _Words) -> str:
    if "active" not in w.params:
        return ""
    return ngettext(
        "Only %(active)s player is checked in for round %(round)s; a table needs at least %(needed)s. "
        "Check players in at the registration desk.",
        "Only %(active)s players are checked in for round %(round)s; a table needs at least %(needed)s. "
        "Check players in at the registration desk.",
        w.params["active"],
    ) % {"active": w.params["active"], "round": w.params.get("round"), "needed": w.params.get("needed")}


def _invalid_table_size(w: _Words) -> str:
    p = w.params
    if "high" in p:
        return _("The largest table (%(high)s) is smaller than the smallest (%(low)s).") % {
            "high": p["high"],
            "low": p.get("low"),
        }
    if "least" in p:
        return _("%(preset)s needs at least %(least)s players at a table.") % {
            "preset": p.get("preset"),
            "least": p["least"],
        }
    if "most" in p:
        return _("%(preset)s seats at most %(most)s players at a table.") % {
            "preset": p.get("preset"),
            "most": p["most"],
        }
    return ""


def _permission_denied(w: _Words) -> str:
    role = w.params.get("role")
    if role == "director":
        return _("Only the club's directors may open this page.")
    if role == "recorder":
        return _("Only the club's directors and scorekeepers may record its games.")
    return ""


# Each code's detail, from its params (none: the title says it all).
DETAILS: dict[str, Callable[[_Words], str]] = {
    "not_your_turn": lambda w: (
        _("It is %(to_move)s's turn, not %(name)s's.") % {"to_move": w.name("to_move"), "name": w.name()}
    ),
    "already_drew": lambda w: (
        _("%(name)s has already drawn this turn: a discard or a knock comes next.") % {"name": w.name()}
    ),
    "must_draw_first": lambda w: _("%(name)s must draw before discarding or knocking.") % {"name": w.name()},
    "upcard_offer_pending": lambda w: _("%(name)s must first take or pass the upcard.") % {"name": w.name()},
    "invalid_meld": lambda w: (
        _("%(name)s's declared melds are not melds of the cards shown.") % {"name": w.name()}
    ),
    "not_your_seat": lambda w: _("%(name)s is not yours to play.") % {"name": w.name()},
    "cannot_discard_taken_card": lambda w: (
        _("%(name)s took %(card)s from the discard pile this turn and may not throw it back.")
        % {"name": w.name(), "card": w.card()}
    ),
    "already_revealed": lambda w: (
        _("%(name)s's hand has already been shown.") % {"name": w.name()}
        if "seat" in w.params
        else _("Hands have already been shown one by one: show the rest.")
    ),
    "laydown_not_all_melded": lambda w: (
        _("%(name)s cannot lay down without discarding: %(deadwood)s deadwood is left unmelded.")
        % {"name": w.name(), "deadwood": w.params.get("deadwood")}
    ),
    "invalid_deadwood": lambda w: (
        _("%(name)s's count of %(deadwood)s is more than a hand can hold (%(most)s).")
        % {"name": w.name(), "deadwood": w.params.get("deadwood"), "most": w.params.get("most")}
    ),
    "invalid_deal": lambda w: (
        _("%(card)s is dealt twice.") % {"card": w.card()} if "card" in w.params else ""
    ),
    "card_not_in_hand": _card_not_in_hand,
    "card_unavailable": _card_unavailable,
    "inconsistent_reveal": _inconsistent_reveal,
    "invalid_hand": _invalid_hand,
    "deadwood_too_high_to_knock": _deadwood_too_high,
    "invalid_seat": _invalid_seat,
    "invalid_card": _invalid_card,
    "permission_denied": _permission_denied,
    "missing_card": lambda w: (
        _("Type the upcard, the card turned up beside the stock.")
        if w.params.get("card") == "upcard"
        else _("Type the card (like 7h or qs) or tap it in the picker.")
    ),
    "missing_cards": lambda w: (
        _("Enter every player's final hand.")
        if w.params.get("hands") == "final"
        else _("Type the cards shown (like 7h 8h 9h qs) or tap them.")
    ),
    "bad_count": lambda w: _("Enter every player's announced count (0 or more)."),
    "nothing_to_retract": lambda w: _("Nothing has been entered yet."),
    "player_exists": lambda w: (
        _("It is %(name)s, case and accents aside: one person, one player record.")
        % {"name": w.params["name"]}
        if "name" in w.params
        else ""
    ),
    "list_too_long": lambda w: (
        _("Register at most %(names)s names (%(kilobytes)s KB) at once.")
        % {"names": w.params.get("names", ""), "kilobytes": w.params.get("kilobytes", "")}
    ),
    "list_not_text": lambda w: _("Paste the names one a line, or save the file as CSV in UTF-8."),
    "csv_no_name_column": lambda w: (
        _("Its first line names the columns; one must be “name”. It has: %(columns)s.")
        % {"columns": ", ".join(w.params["columns"])}
        if w.params.get("columns")
        else _("Its first line names the columns; one must be “name”.")
    ),
    "unknown_action": lambda w: _("Reload the page and use one of its buttons."),
    "not_recorded_here": lambda w: _("Its players move in the browser."),
    "version_conflict": lambda w: _(
        "The page now shows the latest entries: check them, then enter yours again if it is still needed."
    ),
    "idempotency_key_reused": lambda w: _(
        "The page has been refreshed: enter it again if it is still needed."
    ),
    "no_more_rounds": lambda w: (
        ngettext("It has %(rounds)s round.", "It has %(rounds)s rounds.", w.params["rounds"])
        % {"rounds": w.params["rounds"]}
        if "rounds" in w.params
        else ""
    ),
    "round_in_draft": lambda w: (
        _("Publish round %(round)s first.") % {"round": w.params["round"]} if "round" in w.params else ""
    ),
    "round_not_complete": lambda w: (
        _(
            "Round %(next)s can be generated once every table of round %(round)s is complete — "
            "or now, if you say why."
        )
        % {"next": w.params["next"], "round": w.params["round"]}
        if "next" in w.params
        else ""
    ),
    "too_few_players": _too_few_players,
    "invalid_table_size": _invalid_table_size,
}


def _entered_meanwhile(w: _Words) -> str:
    """A record page's conflict: what the other phone entered (``meanwhile``, each entry
    in words), then what to do."""
    entered = [str(text) for text in w.params.get("meanwhile") or ()]
    if not entered:
        return str(DETAILS["version_conflict"](w))
    return _(
        "The other phone entered: %(entries)s "
        "Check the table as it is now, then enter yours again if it is still needed."
    ) % {"entries": " ".join(entered)}


PAGE_DETAILS: dict[tuple[str, str], Callable[[_Words], str]] = {
    ("play", "version_conflict"): lambda w: "",
    ("record", "version_conflict"): _entered_meanwhile,
    ("desk", "version_conflict"): lambda w: _(
        "The table recorded something while you were confirming: check the table, then try again."
    ),
}


def refusal(
    error: DomainError,
    names: Sequence[str] = (),
    history: Mapping[str, Message] | None = None,
    *,
    page: str = "",
    action: str = "",
    seat: int | None = None,
) -> Refusal:
    """``error`` in words for ``page``: ``names`` are the players in seat order,
    ``history`` where the table last saw each card (:func:`web.record.log.card_history`)."""
    code = error.code
    title = PAGE_TITLES.get((page, code)) or TITLES.get(code)
    detail_of = PAGE_DETAILS.get((page, code)) or DETAILS.get(code)
    if title is None and detail_of is None and "seat" not in error.params:
        # a code worded nowhere here (a league rule, a setting): the domain's own words
        return Refusal(code, error.message, "", action, seat)
    detail = detail_of(_Words(error.params, names, history or {})) if detail_of is not None else ""
    return Refusal(code, str(title or _("That was refused.")), detail, action, seat)


def words(error: DomainError, names: Sequence[str] = (), *, page: str = "") -> str:
    """``error`` as one sentence or two (a message above a form, a flash)."""
    return str(refusal(error, names, page=page))


# The status of a page that shows a refusal in place (a form refused, a code not known):
# the page's counterpart of the API's table (api.errors), which pages do not import.
PAGE_STATUS: dict[Kind, int] = {
    Kind.INVALID: 400,
    Kind.NOT_FOUND: 404,
    Kind.FORBIDDEN: 403,
    Kind.CONFLICT: 409,
    Kind.UNAUTHENTICATED: 401,
}


def page_status(error: DomainError) -> int:
    """The HTTP status of a page that shows ``error`` in place of what was asked."""
    return PAGE_STATUS[error.kind]


class RefusalMiddleware:
    """A refusal no view caught becomes the page it calls for, in words: the sign-in page
    (``not_authenticated``), 403, 404, or 400 (``invalid``, ``conflict``). The API's views
    answer their own (``api.errors``); this sees only the pages'."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DomainError):
            return None
        text = words(exception)
        if exception.kind == Kind.UNAUTHENTICATED:
            return redirect_to_login(request.get_full_path())
        if exception.kind == Kind.FORBIDDEN:
            return defaults.permission_denied(request, PermissionDenied(text))
        if exception.kind == Kind.NOT_FOUND:
            return defaults.page_not_found(request, Http404(text))
        return defaults.bad_request(request, BadRequest(text))
