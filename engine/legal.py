"""``legal_commands(state)``: what the seat to act may do, as concrete commands.

Digital games list every command ``decide`` would accept from the seat to act (a
bot or a UI picks one). A digital deal is not listed: it needs a shuffled deck
(``state.needs_deal``). Physical games list the moves the scorekeeper can enter
(every card the seat could hold); showdown entries (``RevealHand``,
``RecordHandResult``) are free-form and not listed.
"""

from __future__ import annotations

from engine.arrangement import deadwood
from engine.cards import ALL_CARDS, mask_to_cards
from engine.commands import (
    Command,
    DecideReentry,
    DeclineDraw,
    Discard,
    DrawFromDiscard,
    DrawFromStock,
    Knock,
    PassUpcard,
    Restock,
)
from engine.physical import locations
from engine.state import AWAITING_REENTRY, DIGITAL, DISCARD, DRAW, OFFER, PLAYING, GameState, HandState

# Commands are immutable, so the common ones are built once and shared.
_SEATS = range(8)
_DISCARDS = tuple(tuple(Discard(s, card) for card in ALL_CARDS) for s in _SEATS)
_KNOCKS = tuple(tuple(Knock(s, card) for card in ALL_CARDS) for s in _SEATS)
_STOCK = tuple(DrawFromStock(s) for s in _SEATS)
_PILE = tuple(DrawFromDiscard(s) for s in _SEATS)
_PASS = tuple(PassUpcard(s) for s in _SEATS)
_RESTOCK = tuple(Restock(s) for s in _SEATS)
_DECLINE = tuple(DeclineDraw(s) for s in _SEATS)
_LAY_DOWN = tuple(Knock(s, None, True) for s in _SEATS)
_UNSEEN_KNOCK = tuple(Knock(s, None) for s in _SEATS)


def legal_commands(state: GameState) -> list[Command]:
    """Every command the seat to act may give (empty when nobody is to act).

    >>> from engine import StartGame, DealHand, decide, replay, shuffled_deck, get_ruleset
    >>> rules = get_ruleset("knock-rummy")
    >>> log = decide(None, StartGame(rules, ("Ann", "Bo")))
    >>> log += decide(replay(log), DealHand(deck=shuffled_deck(rules, seed=1)))
    >>> legal_commands(replay(log))
    [DrawFromStock(seat=1, card=None), DrawFromDiscard(seat=1)]
    """
    if state.status == PLAYING and state.hand is not None:
        return _play(state, state.hand)
    if state.status == AWAITING_REENTRY:
        seat = state.tally.pending[0]
        return [DecideReentry(seat, True), DecideReentry(seat, False)]
    return []


def _play(state: GameState, hand: HandState) -> list[Command]:
    seat = hand.to_move
    rs = state.setup.ruleset
    phase = hand.phase
    if phase == OFFER:
        return [_PILE[seat], _PASS[seat]]
    if phase == DRAW:
        commands: list[Command] = []
        left = len(hand.stock) - rs.stock_reserve
        if left > 0:
            commands.append(_STOCK[seat])
        if hand.pile and not (hand.turns == 0 and hand.passes >= len(hand.order)):
            commands.append(_PILE[seat])
        if left <= 0:
            restock = rs.stock_exhausted in ("turn_over", "reshuffle") and hand.restocks < rs.max_restocks
            if restock and hand.pile:
                commands.append(_RESTOCK[seat])
            else:
                commands.append(_DECLINE[seat])
        return commands
    if phase != DISCARD:
        return []
    if state.mode == DIGITAL:
        return _digital_discards(state, hand, seat)
    return _physical_discards(state, hand, seat)


def _knock_allowed(state: GameState, hand: HandState) -> bool:
    return state.ruleset.knock_timing != "after_first_round" or hand.turns >= len(hand.order)


# Per kind (0 discard, 1 knock), seat and suit: the commands for each 13-bit suit mask,
# filled in as masks turn up.
_MEMO: tuple[tuple[tuple[dict[int, tuple[Command, ...]], ...], ...], ...] = tuple(
    tuple(tuple({} for _ in range(4)) for _ in _SEATS) for _ in range(2)
)


def _per_card(kind: int, seat: int, mask: int) -> list[Command]:
    """``Discard`` (kind 0) or ``Knock`` (kind 1) commands of ``seat`` for every card of ``mask``."""
    tables = _MEMO[kind][seat]
    result: list[Command] = []
    for suit in range(4):
        bits = mask >> 13 * suit & 8191
        if bits:
            commands = tables[suit].get(bits)
            if commands is None:
                every = (_DISCARDS if kind == 0 else _KNOCKS)[seat]
                commands = tuple(every[suit * 13 + r] for r in range(13) if bits >> r & 1)
                tables[suit][bits] = commands
            result += commands
    if mask >> 52:
        every = (_DISCARDS if kind == 0 else _KNOCKS)[seat]
        result += [every[i] for i in (52, 53) if mask >> i & 1]
    return result


def _set_bits(mask: int) -> list[int]:
    indices = []
    while mask:
        low = mask & -mask
        indices.append(low.bit_length() - 1)
        mask ^= low
    return indices


# Per 13-bit suit mask: the cards of the suit that fit in no run; the value of a suit mask's cards.
_RUNLESS: list[int] = []
_VALUE: list[int] = []


def _tables() -> None:
    for bits in range(8192):
        starts = bits & bits >> 1 & bits >> 2
        _RUNLESS.append(bits & ~(starts | starts << 1 | starts << 2))
        _VALUE.append(sum(min(r + 1, 10) for r in range(13) if bits >> r & 1))


def deadwood_floor(mask: int) -> int:
    """A quick lower bound on a natural hand's deadwood: the cards that fit in no set
    and no run can only be deadwood.

    >>> from engine.cards import parse_cards, cards_to_mask
    >>> deadwood_floor(cards_to_mask(parse_cards("4C 5C 6C 5D 5H KS QS 2D")))  # KS QS 2D
    22
    """
    if not _RUNLESS:
        _tables()
    c = mask & 8191
    d = mask >> 13 & 8191
    h = mask >> 26 & 8191
    s = mask >> 39 & 8191
    free = ~((c & d & (h | s)) | (h & s & (c | d)))  # not a rank holding three or four cards
    runless = _RUNLESS
    value = _VALUE
    return (
        value[runless[c] & free]
        + value[runless[d] & free]
        + value[runless[h] & free]
        + value[runless[s] & free]
    )


def _digital_discards(state: GameState, hand: HandState, seat: int) -> list[Command]:
    rs = state.setup.ruleset
    mask = hand.hands[seat]
    taken = hand.taken
    allowed = mask & ~(1 << taken) if taken >= 0 else mask
    commands = _per_card(0, seat, allowed)
    if not _knock_allowed(state, hand):
        return commands
    limit = rs.knock_max_deadwood
    whole = -1
    if limit is None:
        commands.extend(_per_card(1, seat, allowed))
    elif mask >> 52 or deadwood_floor(mask) - 10 <= limit:
        # Dropping a card lowers the deadwood by at most its value: most hands are hopeless.
        whole = deadwood(mask_to_cards(mask), rs)
        if whole - (25 if mask >> 52 else 10) <= limit:
            knocks = _KNOCKS[seat]
            commands.extend(
                knocks[i]
                for i in _set_bits(allowed)
                if deadwood(mask_to_cards(mask & ~(1 << i)), rs) <= limit
            )
    if rs.rum_without_discard and (whole if whole >= 0 else deadwood(mask_to_cards(mask), rs)) == 0:
        commands.append(_LAY_DOWN[seat])
    return commands


def _physical_discards(state: GameState, hand: HandState, seat: int) -> list[Command]:
    rs = state.ruleset
    known = hand.hands[seat]
    candidates = [i for i in range(rs.deck_size) if known >> i & 1]
    if hand.sizes[seat] > known.bit_count():
        seen = locations(hand, seat)
        candidates = [i for i in range(rs.deck_size) if known >> i & 1 or i not in seen]
    candidates = [i for i in candidates if i != hand.taken]
    commands: list[Command] = [_DISCARDS[seat][i] for i in candidates]
    if _knock_allowed(state, hand):
        commands.append(_UNSEEN_KNOCK[seat])
        commands.extend(_KNOCKS[seat][i] for i in candidates)
        if rs.rum_without_discard:
            commands.append(_LAY_DOWN[seat])
    return commands
