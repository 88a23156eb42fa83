"""The state of one game: what :func:`engine.replay` folds an event log into.

Three frozen layers keep :func:`engine.apply` cheap: :class:`GameState` (the status
and a pointer to the previous state, used by retractions), :class:`Setup` (what
``GameStarted`` fixed, changed only by a seat replacement), :class:`Tally` (scores
and everything that changes once a hand) and :class:`HandState` (the cards, changed
by every move). Cards inside the state are card indices (``Card.index``); a hand is
a bitmask of them, a stock or discard pile a tuple of them, ``-1`` an unknown card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.cards import ALL_CARDS, Card, mask_to_cards
from engine.rules import FIRST_BEST, RuleSet
from engine.values import MatchResult, Seat

if TYPE_CHECKING:
    from engine.events import HandScored, ReentryDecided, ScoreAdjusted

# Game statuses (GameState.status).
AWAITING_DEAL = "awaiting_deal"
PLAYING = "playing"
SHOWDOWN = "showdown"
AWAITING_REENTRY = "awaiting_reentry"
FINISHED = "finished"
ABANDONED = "abandoned"
STATUSES = (AWAITING_DEAL, PLAYING, SHOWDOWN, AWAITING_REENTRY, FINISHED, ABANDONED)

# Hand phases (HandState.phase).
OFFER = "offer"  # gin's first upcard is being offered
DRAW = "draw"
DISCARD = "discard"
OVER = "over"  # knocked, stock out or void: play has ended

DIGITAL = "digital"
PHYSICAL = "physical"
MODES = (DIGITAL, PHYSICAL)


@dataclass(frozen=True, slots=True)
class Setup:
    """What ``GameStarted`` fixed (seats change only by ``SeatReplaced``)."""

    ruleset: RuleSet
    mode: str
    seats: tuple[Seat, ...]
    first_dealer: int
    stake: Fraction
    knock_arrangement: str  # how a gin knocker's melds are chosen (engine.rules.KNOCK_ARRANGEMENTS)


# Public moves (PublicMove.action): what every seat at the table saw a seat do.
PASS = "pass"  # declined gin's first upcard (``card``: the upcard)
STOCK = "stock"  # drew from the stock (``card``: the discard it passed over, None if none)
PILE = "pile"  # took ``card`` from the discard pile
DISCARDED = "discard"  # discarded ``card`` face up
KNOCK = "knock"  # knocked (the knock discard is face down: ``card`` None)
RESTOCK = "restock"  # turned the pile into the new stock
DECLINE = "decline"  # the stock was empty and it did not take ``card``: play ended
PUBLIC_ACTIONS = (PASS, STOCK, PILE, DISCARDED, KNOCK, RESTOCK, DECLINE)


class PublicMove(NamedTuple):
    """One move of a hand as the whole table saw it: ``seat`` did ``action`` (one of
    :data:`PUBLIC_ACTIONS`) with ``card``, a face-up card or None. A card drawn from the
    stock is never named: only the discard its drawer passed over.

    >>> PublicMove(1, PILE, Card.parse("QS")).to_dict()
    {'seat': 1, 'action': 'pile', 'card': 'QS'}
    """

    seat: int
    action: str
    card: Card | None

    def to_dict(self) -> dict[str, Any]:
        card = None if self.card is None else self.card.code
        return {"seat": self.seat, "action": self.action, "card": card}


@dataclass(frozen=True, slots=True)
class HandState:
    """One hand in play. ``hands`` are bitmasks: in a digital game the whole hand, in a
    physical game only the cards the public knows are there (taken from the discard
    pile, or entered by the scorekeeper); ``sizes`` are the true hand sizes.

    Moves build the next one with ``dataclasses.replace``, naming only what changes,
    so a field added later is carried over rather than silently reset.
    """

    number: int
    dealer: int
    order: tuple[int, ...]  # seats in turn order, from the dealer's left; the dealer last
    deal_size: int
    phase: str
    to_move: int
    hands: tuple[int, ...]
    sizes: tuple[int, ...]
    stock: tuple[int, ...]  # top first; -1 is a card nobody knows
    pile: tuple[int, ...]  # discard pile, bottom first
    taken: int  # card taken from the discard pile this turn, or -1; kept by an unseen knock
    turns: int  # completed turns this hand
    passes: int  # players who passed gin's first upcard
    restocks: int
    knocker: int  # -1: nobody
    knock_card: int  # the face-down knock discard, -1 none or unknown
    lay_down: bool  # a hoyle rum laid down without discarding
    ended: str  # "", "knock", "stock_out", "void"
    revealed: tuple[int, ...]  # physical showdown: each seat's revealed hand mask, -1 not yet
    # The melds the knocker declared when revealing (gin: what opponents lay off onto).
    knocker_melds: tuple[tuple[Card, ...], ...] | None = None
    # The hand's public moves in order (not in ``to_dict``: the stored snapshots predate
    # it, and the log says it all).
    moves: tuple[PublicMove, ...] = ()

    def hand_cards(self, seat: int) -> tuple[Card, ...]:
        """The cards of ``seat``'s hand the state knows, in card order."""
        return mask_to_cards(self.hands[seat])

    def to_dict(self) -> dict[str, Any]:
        def cards(indices: tuple[int, ...]) -> list[str | None]:
            return [ALL_CARDS[i].code if i >= 0 else None for i in indices]

        return {
            "number": self.number,
            "dealer": self.dealer,
            "order": list(self.order),
            "deal_size": self.deal_size,
            "phase": self.phase,
            "to_move": self.to_move,
            "hands": [[c.code for c in mask_to_cards(mask)] for mask in self.hands],
            "sizes": list(self.sizes),
            "stock": cards(self.stock),
            "pile": cards(self.pile),
            "taken": ALL_CARDS[self.taken].code if self.taken >= 0 else None,
            "turns": self.turns,
            "passes": self.passes,
            "restocks": self.restocks,
            "knocker": self.knocker if self.knocker >= 0 else None,
            "knock_card": ALL_CARDS[self.knock_card].code if self.knock_card >= 0 else None,
            "lay_down": self.lay_down,
            "ended": self.ended,
            "revealed": [
                None if mask < 0 else [c.code for c in mask_to_cards(mask)] for mask in self.revealed
            ],
            "knocker_melds": None
            if self.knocker_melds is None
            else [[c.code for c in meld] for meld in self.knocker_melds],
        }


@dataclass(frozen=True, slots=True)
class Entry:
    """One event of the game's ledger: a hand's ``HandScored`` (with the hand's dealer and
    the seats that played it), a ``ReentryDecided`` or a ``ScoreAdjusted``. The ledger is
    what a correction of an earlier hand scores again (:mod:`engine.rescoring`)."""

    event: HandScored | ReentryDecided | ScoreAdjusted
    dealer: int = -1
    seats: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Tally:
    """Everything that changes once a hand: scores, the pool, eliminations, results.

    ``ledger`` keeps every hand result, re-entry and adjustment in effect, in order,
    hands the game no longer counts included (``uncounted``: recorded after the hand a
    correction made the last). ``correcting`` is the number of the hand a
    ``HandCorrected`` has just named, until its new ``HandScored`` (0 otherwise)."""

    hands_dealt: int  # deals so far, void hands included
    hands_scored: int  # hands scored, void hands excluded
    last_dealer: int  # dealer of the latest hand (-1 before the first deal)
    last_winners: tuple[int, ...]
    last_void: bool
    scores: tuple[Fraction, ...]
    hands_won: tuple[int, ...]
    rums: tuple[int, ...]
    pool: Fraction
    paid: tuple[Fraction, ...]  # what each seat paid into the pool
    eliminated: tuple[bool, ...]
    eliminated_at: tuple[int, ...]  # hand number of each seat's latest elimination, 0 never
    reentered: tuple[bool, ...]
    pending: tuple[int, ...]  # eliminated seats still to decide on re-entry, in order
    reentry_score: Fraction  # the score a re-entering seat gets this time
    results: tuple[HandScored, ...]
    adjustments: tuple[tuple[int, Fraction, str], ...]
    retractions: tuple[tuple[int, str], ...]
    result: MatchResult | None
    ledger: tuple[Entry, ...] = ()
    correcting: int = 0
    corrections: tuple[tuple[int, str], ...] = ()  # (hand number, reason), in effect
    uncounted: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class GameState:
    """A game as its event log left it; compare with ``==`` (``prior`` is not compared).

    ``prior`` is the state before the latest event still in effect, so a retraction
    can go back without the log; ``version`` counts every event, retractions too.
    """

    version: int
    setup: Setup
    status: str
    tally: Tally
    hand: HandState | None
    prior: GameState | None = field(default=None, compare=False, repr=False)
    depth: int = field(default=0, compare=False, repr=False)  # events undoable by Retracted

    @property
    def ruleset(self) -> RuleSet:
        return self.setup.ruleset

    @property
    def mode(self) -> str:
        return self.setup.mode

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.setup.seats

    @property
    def scores(self) -> tuple[Fraction, ...]:
        return self.tally.scores

    @property
    def result(self) -> MatchResult | None:
        return self.tally.result

    @property
    def needs_deal(self) -> bool:
        """A digital game waiting for its caller to decide ``DealHand(deck=shuffled_deck(...))``."""
        return self.status == AWAITING_DEAL and self.setup.mode == DIGITAL

    @property
    def to_move(self) -> int | None:
        """The seat that must act next, or None (a deal, a showdown entry, game over)."""
        if self.status == PLAYING and self.hand is not None:
            return self.hand.to_move
        if self.status == AWAITING_REENTRY:
            return self.tally.pending[0]
        return None

    @property
    def active_seats(self) -> tuple[int, ...]:
        """Seats still in the game (knock-rami eliminates; the others never do)."""
        return tuple(s for s, out in enumerate(self.tally.eliminated) if not out)

    def to_dict(self) -> dict[str, Any]:
        """Everything, JSON-ready: for snapshots and for comparing a live state with a replay."""
        t = self.tally
        # Only when there are any: snapshots written before corrections existed still compare equal.
        corrected: dict[str, Any] = {}
        if t.corrections:
            corrected["corrections"] = [{"hand": number, "reason": why} for number, why in t.corrections]
        if t.uncounted:
            corrected["uncounted_hands"] = list(t.uncounted)
        return {
            "version": self.version,
            "status": self.status,
            "mode": self.mode,
            "ruleset": self.ruleset.to_dict(),
            "seats": [seat.to_dict() for seat in self.seats],
            "first_dealer": self.setup.first_dealer,
            "stake": str(self.setup.stake),
            "to_move": self.to_move,
            "needs_deal": self.needs_deal,
            "hands_dealt": t.hands_dealt,
            "hands_scored": t.hands_scored,
            "last_dealer": t.last_dealer,
            "scores": [str(s) for s in t.scores],
            "hands_won": list(t.hands_won),
            "rums": list(t.rums),
            "pool": str(t.pool),
            "paid": [str(p) for p in t.paid],
            "eliminated": list(t.eliminated),
            "reentered": list(t.reentered),
            "pending_reentry": list(t.pending),
            "results": [r.to_dict()["data"] for r in t.results],
            "adjustments": [
                {"seat": seat, "points": str(points), "reason": reason}
                for seat, points, reason in t.adjustments
            ],
            "retractions": [{"count": count, "reason": reason} for count, reason in t.retractions],
            "hand": self.hand.to_dict() if self.hand is not None else None,
            "result": t.result.to_dict() if t.result is not None else None,
            # only when there are any: snapshots written before corrections existed still compare equal
            **(
                {"corrections": [{"hand": n, "reason": why} for n, why in t.corrections]}
                if t.corrections
                else {}
            ),
            **({"uncounted_hands": list(t.uncounted)} if t.uncounted else {}),
            # only when not the rule of v1 games: their snapshots still compare equal
            **(
                {"knock_arrangement": self.setup.knock_arrangement}
                if self.setup.knock_arrangement != FIRST_BEST
                else {}
            ),
        }
