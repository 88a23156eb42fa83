"""``due_entries(state, seat, recorder=...)``: what comes next in a game, named even when
it is not one fixed move.

:func:`engine.legal_commands` lists concrete commands, and so lists nothing where the
next entry is free-form: a physical deal (which upcard?), the reveals at a physical
showdown (which cards?), a hand's result on the quick path. A page or a client asks
this module instead of guessing from the status. Each :class:`Due` has a stable
``kind``:

``deal``
    The next hand is to be dealt: ``dealer``, ``hand_number``, ``seats`` (turn order),
    ``cards_each``. ``by`` is ``"system"`` for a digital game (the server deals),
    ``"recorder"`` for a physical one (``DealHand(upcard=..., hands=...)``).
``move``
    ``seat`` is to act in ``phase`` (``offer``, ``draw``, ``discard``); ``command`` is
    the first of :func:`engine.legal_commands`, which lists them all.
``reveal``
    A physical showdown: ``seats`` still to reveal (``RevealHand``), with the number
    of cards each holds (``sizes``); ``knocker``. ``known`` lists, per seat, the cards
    its revealed hand must contain, and ``may_lack`` the known cards of which it may
    lack one: after an unseen knock, the knocker's face-down discard may be any card
    it was known to hold but the one it took from the discard pile that turn. Both
    only for a viewer who may know them (the recorder; a seat for its own).
``hand_result``
    The quick path (``RecordHandResult``): either every seat's final hands (verified)
    or its announced deadwood (unverified). ``knocker`` is fixed at a showdown
    (``knocker_fixed``) and free between hands; ``max_deadwood`` is the most a hand can
    count.
``reentry``
    Knock-rami: ``seat`` decides whether to re-enter (``DecideReentry``).

A finished or abandoned game has nothing due (an empty list).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.cards import mask_to_cards
from engine.checks import next_dealer
from engine.commands import Command
from engine.legal import legal_commands
from engine.physical import face_down_candidates
from engine.reducer import turn_order
from engine.state import (
    AWAITING_DEAL,
    AWAITING_REENTRY,
    DIGITAL,
    PHYSICAL,
    PLAYING,
    SHOWDOWN,
    GameState,
)

DEAL = "deal"
MOVE = "move"
REVEAL = "reveal"
HAND_RESULT = "hand_result"
REENTRY = "reentry"
KINDS = (DEAL, MOVE, REVEAL, HAND_RESULT, REENTRY)


@dataclass(frozen=True, slots=True)
class Due:
    """One entry that is due; ``to_dict()`` is JSON-ready and names only the fields that
    apply to its ``kind`` (plus ``command``, the command type that records it)."""

    kind: str
    command: str
    by: str  # "recorder", "system" or "seat"
    hand_number: int
    seat: int | None = None
    seats: tuple[int, ...] = ()
    dealer: int | None = None
    cards_each: int | None = None
    phase: str | None = None
    knocker: int | None = None
    knocker_fixed: bool = False
    sizes: dict[int, int] = field(default_factory=dict)
    known: dict[int, tuple[str, ...]] = field(default_factory=dict)
    may_lack: dict[int, tuple[str, ...]] = field(default_factory=dict)
    max_deadwood: int | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind,
            "command": self.command,
            "by": self.by,
            "hand_number": self.hand_number,
        }
        if self.kind in (MOVE, REENTRY):
            data["seat"] = self.seat
        if self.kind == MOVE:
            data["phase"] = self.phase
        if self.kind in (DEAL, REVEAL, HAND_RESULT):
            data["seats"] = list(self.seats)
        if self.kind in (DEAL, HAND_RESULT):
            data["dealer"] = self.dealer
            data["cards_each"] = self.cards_each
        if self.kind in (REVEAL, HAND_RESULT):
            data["knocker"] = self.knocker
        if self.kind == REVEAL:
            data["sizes"] = {str(seat): size for seat, size in self.sizes.items()}
            data["known"] = {str(seat): list(cards) for seat, cards in self.known.items()}
            data["may_lack"] = {str(seat): list(cards) for seat, cards in self.may_lack.items()}
        if self.kind == HAND_RESULT:
            data["knocker_fixed"] = self.knocker_fixed
            data["max_deadwood"] = self.max_deadwood
        return data


def due_entries(
    state: GameState,
    seat: int | None = None,
    *,
    recorder: bool = False,
    legal: Sequence[Command] | None = None,
) -> list[Due]:
    """What is due next in ``state``, as ``seat`` (None: the public) may be told; a
    physical game's ``recorder`` also learns the cards each revealed hand must hold.
    ``legal`` is ``legal_commands(state)`` when the caller has it already.

    >>> from engine import StartGame, DealHand, decide, replay, get_ruleset
    >>> log = decide(None, StartGame(get_ruleset("knock-rummy"), ("Ann", "Bo", "Cy"), "physical"))
    >>> [d.to_dict() for d in due_entries(replay(log))]  # doctest: +NORMALIZE_WHITESPACE
    [{'kind': 'deal', 'command': 'DealHand', 'by': 'recorder', 'hand_number': 1, 'seats': [1, 2, 0],
      'dealer': 0, 'cards_each': 7},
     {'kind': 'hand_result', 'command': 'RecordHandResult', 'by': 'recorder', 'hand_number': 1,
      'seats': [1, 2, 0], 'dealer': 0, 'cards_each': 7, 'knocker': None, 'knocker_fixed': False,
      'max_deadwood': 70}]
    >>> log += decide(replay(log), DealHand(upcard="7H"))
    >>> [d.to_dict() for d in due_entries(replay(log))]
    [{'kind': 'move', 'command': 'DrawFromStock', 'by': 'seat', 'hand_number': 1, 'seat': 1, 'phase': 'draw'}]
    """
    t = state.tally
    rs = state.ruleset
    physical = state.mode == PHYSICAL
    if state.status == AWAITING_DEAL:
        dealer = next_dealer(state)
        order = turn_order(t.eliminated, dealer)
        size = rs.cards_per_player(len(order))
        number = t.hands_dealt + 1
        deal = Due(
            DEAL,
            "DealHand",
            "recorder" if physical else "system",
            number,
            seats=order,
            dealer=dealer,
            cards_each=size,
        )
        if not physical:
            return [deal]
        result = Due(
            HAND_RESULT,
            "RecordHandResult",
            "recorder",
            number,
            seats=order,
            dealer=dealer,
            cards_each=size,
            max_deadwood=rs.max_deadwood(len(order)),
        )
        return [deal, result]
    hand = state.hand
    if state.status == PLAYING and hand is not None:
        if legal is None:
            legal = legal_commands(state)
        first = legal[0].TYPE if legal else "DrawFromStock"
        return [Due(MOVE, first, "seat", hand.number, seat=hand.to_move, phase=hand.phase)]
    if state.status == SHOWDOWN and hand is not None and state.mode != DIGITAL:
        knocker = hand.knocker if hand.knocker >= 0 else None
        waiting = tuple(s for s in hand.order if hand.revealed[s] < 0)
        shown = tuple(s for s in waiting if recorder or s == seat)
        spare = {s: face_down_candidates(hand, s) for s in shown}
        known = {s: tuple(c.code for c in mask_to_cards(hand.hands[s] & ~spare[s])) for s in shown}
        may_lack = {s: tuple(c.code for c in mask_to_cards(spare[s])) for s in shown if spare[s]}
        entries = [
            Due(
                REVEAL,
                "RevealHand",
                "recorder",
                hand.number,
                seats=waiting,
                knocker=knocker,
                sizes={s: hand.sizes[s] for s in waiting},
                known=known,
                may_lack=may_lack,
            )
        ]
        if len(waiting) == len(hand.order):  # the quick path only before any reveal
            entries.append(
                Due(
                    HAND_RESULT,
                    "RecordHandResult",
                    "recorder",
                    hand.number,
                    seats=hand.order,
                    dealer=hand.dealer,
                    cards_each=hand.deal_size,
                    knocker=knocker,
                    knocker_fixed=True,
                    max_deadwood=rs.max_deadwood(len(hand.order)),
                )
            )
        return entries
    if state.status == AWAITING_REENTRY:
        number = hand.number if hand is not None else t.hands_dealt
        return [Due(REENTRY, "DecideReentry", "seat", number, seat=t.pending[0])]
    return []
