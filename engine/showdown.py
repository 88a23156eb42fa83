"""The end of a hand: scoring it (digital showdown, physical reveals, the quick path)
into a ``HandScored`` event, and the ``GameFinished`` that may follow."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import Card, mask_to_cards
from engine.checks import next_dealer
from engine.errors import EngineError, IllegalMove
from engine.events import Event, GameFinished, HandResultRecorded, HandScored
from engine.match import game_over, score_counts
from engine.melds import make_meld
from engine.physical import check_reveal
from engine.reducer import apply, turn_order
from engine.scoring import check_hands, score_showdown
from engine.state import AWAITING_DEAL, GameState, HandState

# score_showdown's error codes, as the codes decide() reports for a bad entry.
_SHOWDOWN_CODES = {
    "duplicate_card": "inconsistent_reveal",
    "wrong_hand_size": "inconsistent_reveal",
    "joker_not_in_deck": "invalid_card",
    "invalid_hand": "inconsistent_reveal",
    "deadwood_too_high_to_knock": "deadwood_too_high_to_knock",
    "laydown_not_all_melded": "laydown_not_all_melded",
}


def void_hand(hand: HandState) -> HandScored:
    """Gin: nobody knocked before the stock reserve; nothing is scored, the same dealer deals."""
    return HandScored(hand.number, "void", None, {}, {}, (), (), True, {})


def score_hands(
    state: GameState,
    hands: Mapping[int, tuple[Card, ...]],
    knocker: int | None,
    number: int,
    extra: Mapping[str, Any] | None = None,
    knocker_melds: tuple[tuple[Card, ...], ...] | None = None,
) -> HandScored:
    """Score the exposed ``hands`` (turn order) with :func:`score_showdown`; its errors
    become ``IllegalMove`` with the same code. ``knocker_melds`` is the arrangement the
    knocker declared, which gin scoring uses for layoffs (RULES.md §1)."""
    rs = state.ruleset
    try:
        if knocker is None and rs.scoring == "gin":
            # void, not scored: but the hands entered are still hands one deck could deal
            check_hands(rs, hands, None, void=True)
            return HandScored(number, "void", None, {}, {}, (), (), True, {})
        declared = None if knocker_melds is None else [make_meld(meld) for meld in knocker_melds]
        shown = score_showdown(
            rs, hands, knocker, knocker_melds=declared, knock_arrangement=state.setup.knock_arrangement
        )
    except EngineError as exc:
        code = _SHOWDOWN_CODES.get(exc.code, "invalid_showdown")
        raise IllegalMove(exc.message, code, params=exc.params) from exc
    detail: dict[str, Any] = {
        "hands": {str(seat): [str(c) for c in cards] for seat, cards in hands.items()},
        **(extra or {}),
        "showdown": shown.to_dict(),
    }
    return HandScored(
        number,
        shown.outcome,
        knocker,
        dict(shown.deadwood),
        dict(shown.points),
        tuple(shown.winners),
        tuple(shown.rum_seats),
        True,
        detail,
    )


def score_digital(state: GameState) -> HandScored:
    """After a digital knock or stock-out, every hand is known: score them all."""
    hand = state.hand
    assert hand is not None
    hands = {seat: mask_to_cards(hand.hands[seat]) for seat in hand.order}
    knocker = hand.knocker if hand.knocker >= 0 else None
    extra = {"knock_card": str(mask_to_cards(1 << hand.knock_card)[0]) if hand.knock_card >= 0 else None}
    return score_hands(state, hands, knocker, hand.number, extra)


def score_revealed(state: GameState) -> HandScored:
    hand = state.hand
    assert hand is not None
    hands = {seat: mask_to_cards(hand.revealed[seat]) for seat in hand.order}
    knocker = hand.knocker if hand.knocker >= 0 else None
    return score_hands(state, hands, knocker, hand.number, knocker_melds=hand.knocker_melds)


def check_melds(cards: tuple[Card, ...], melds: tuple[tuple[Card, ...], ...], seat: int) -> None:
    """A declared arrangement must be legal melds made of the revealed cards, each used once."""
    used: set[Card] = set()
    for meld in melds:
        try:
            make_meld(meld)
        except EngineError as exc:
            raise IllegalMove(
                f"seat {seat}'s declared meld: {exc.message}", "invalid_meld", params={"seat": seat}
            ) from exc
        for card in meld:
            if card not in cards:
                raise IllegalMove(
                    f"seat {seat} declared {card} in a meld but did not reveal it",
                    "invalid_meld",
                    params={"seat": seat, "card": card.code},
                )
            if card in used:
                raise IllegalMove(
                    f"seat {seat} declared {card} in two melds",
                    "invalid_meld",
                    params={"seat": seat, "card": card.code},
                )
            used.add(card)


def one_kind_of_entry(hands: object, deadwood: object) -> None:
    """A hand's result gives every seat's final hands or every seat's count, not both."""
    if (hands is None) == (deadwood is None):
        raise IllegalMove(
            "record either every seat's final hands or every seat's deadwood count, not both",
            "malformed_command",
        )


def record_result(
    state: GameState,
    knocker: int | None,
    hands: dict[int, tuple[Card, ...]] | None,
    deadwood: dict[int, int] | None,
) -> list[Event]:
    """The physical quick path: check the entry, then record and score it."""
    t = state.tally
    one_kind_of_entry(hands, deadwood)
    if state.status == AWAITING_DEAL:
        dealer = next_dealer(state)
        order = turn_order(t.eliminated, dealer)
        number = t.hands_dealt + 1
        hand: HandState | None = None
    else:
        hand = state.hand
        assert hand is not None
        if any(mask >= 0 for mask in hand.revealed):
            raise IllegalMove(
                "hands have already been revealed one by one; reveal the rest", "already_revealed"
            )
        dealer, order, number = hand.dealer, hand.order, hand.number
        recorded = hand.knocker if hand.knocker >= 0 else None
        if knocker != recorded:
            who = "nobody knocked (the stock ran out)" if recorded is None else f"seat {recorded} knocked"
            raise IllegalMove(
                f"the recorded moves say {who}; the result names {knocker}",
                "inconsistent_reveal",
                params={"problem": "knocker", "recorded": recorded, "knocker": knocker},
            )
    scored = score_entry(state, order, number, knocker, hands, deadwood, hand)
    return [HandResultRecorded(number, dealer, knocker, hands, deadwood), scored]


def score_entry(
    state: GameState,
    order: tuple[int, ...],
    number: int,
    knocker: int | None,
    hands: dict[int, tuple[Card, ...]] | None,
    deadwood: dict[int, int] | None,
    hand: HandState | None = None,
) -> HandScored:
    """Score a hand's result as entered on the quick path (or by a correction): the seats
    of ``order`` (turn order) with their final ``hands`` (checked against ``hand``'s
    public record when given) or announced ``deadwood``."""
    rs = state.ruleset
    entry: Mapping[int, Any] = hands if hands is not None else deadwood  # type: ignore[assignment]
    if set(entry) != set(order):
        raise IllegalMove(
            f"the result must give exactly the seats in this hand ({', '.join(map(str, order))})",
            "invalid_seat",
        )
    if knocker is not None and knocker not in order:
        raise IllegalMove(
            f"seat {knocker} is not playing this hand", "invalid_seat", params={"seat": knocker}
        )
    ordered: dict[int, Any] = {seat: entry[seat] for seat in order}
    if hands is not None:
        if hand is not None:
            for seat in order:
                check_reveal(hand, seat, hands[seat], rs.deck_size, hands)
        return score_hands(state, ordered, knocker, number)
    most = rs.max_deadwood(len(order))
    for seat, count in ordered.items():
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise IllegalMove(
                f"seat {seat}'s deadwood must be a whole number >= 0, not {count!r}",
                "malformed_command",
                params={"seat": seat},
            )
        if count > most:
            raise IllegalMove(
                f"seat {seat}'s deadwood {count} is more than a {rs.cards_per_player(len(order))}-card "
                f"hand can hold under {rs.preset} ({most})",
                "invalid_deadwood",
                params={"seat": seat, "deadwood": count, "most": most},
            )
    if knocker is None and rs.scoring == "gin":
        return HandScored(number, "void", None, {}, {}, (), (), False, {})
    outcome, points, winners, rums = score_counts(rs, ordered, knocker)
    return HandScored(
        number, outcome, knocker, dict(ordered), points, winners, rums, False, {"announced": True}
    )


def finish(state: GameState, events: list[Event]) -> list[Event]:
    """``events`` plus ``GameFinished`` if, once they are applied, the game is over."""
    after = state
    for event in events:
        after = apply(after, event)
    result = game_over(after)
    if result is not None:
        events.append(GameFinished(result))
    return events
