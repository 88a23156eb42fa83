"""A scripted digital game per preset, on stacked decks, with hand-computed scores.

Every command goes through ``Table.do``, which also checks that the live state
equals a replay of the whole log and that each event survives a JSON round trip.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine import (
    Card,
    DecideReentry,
    Discard,
    DrawFromDiscard,
    DrawFromStock,
    HandScored,
    IllegalMove,
    Knock,
    PassUpcard,
    Restock,
    StockRestocked,
    get_ruleset,
    parse_cards,
    shuffled_deck,
)
from engine.checks import next_dealer
from engine.commands import DealHand
from tests.support.table import Table, points

C = Card.parse


def test_knock_rummy_two_hands() -> None:
    table = Table(get_ruleset("knock-rummy", hands=2), ["Ann", "Bo", "Cy"])
    # Hand 1: dealer 0, play 1, 2, 0. Seat 1 knocks at once with 9; seat 0 holds no deadwood.
    table.deal(["AS 2S 3S 4S 5S 6S 9D", "KC KD KH 2C 3C 4C 9C", "QC QD QH QS 7H 8H 9H"], "TD", "JD")
    assert table.s.hand is not None and table.s.hand.dealer == 0 and table.s.to_move == 1
    table.do(DrawFromStock(1))
    events = table.do(Knock(1, C("JD")))
    scored = events[-1]
    assert isinstance(scored, HandScored)
    # Deadwood 1: 9, 2: 9, 0: 0. The knocker pays 9 + 10, seat 2 pays 9, seat 0 takes 28.
    assert scored.outcome == "knock_lost" and scored.deadwood == {1: 9, 2: 9, 0: 0}
    assert points(table.s.scores) == ["28", "-19", "-9"]
    assert table.s.status == "awaiting_deal" and table.s.needs_deal

    # Hand 2: the deal passes left (dealer 1, play 2, 0, 1).
    assert next_dealer(table.s) == 1
    table.deal(["AH 2H 3H 7C 8C KD QS", "5S 5C 5D 9H 9D 2D 3C", "JH JS JC 6H 7H 8H AD"], "4H", "TC KH")
    table.do(DrawFromDiscard(2))  # the 4H extends A-2-3H
    with pytest.raises(IllegalMove) as taken:
        table.do(Discard(2, C("4H")))
    assert taken.value.code == "cannot_discard_taken_card"
    table.do(Discard(2, C("KD")))
    table.draw_and_discard(0)  # TC
    table.do(DrawFromStock(1))  # KH
    table.do(Knock(1, C("KH")))
    # Deadwood 2: 25, 0: 23, 1: 1. The knocker wins 24 + 22.
    last = table.s.tally.results[-1]
    assert last.outcome == "knock_won" and last.deadwood == {2: 25, 0: 23, 1: 1}
    assert points(last.points) == ["-24", "-22", "46"]
    assert points(table.s.scores) == ["6", "27", "-33"]

    # Two hands played: the game is over; totals rank the seats.
    state = table.s
    assert state.status == "finished" and state.result is not None
    result = state.result
    assert result.ranking == ((1,), (0,), (2,)) and result.places == (2, 1, 3)
    assert points(result.points) == ["6", "27", "-33"] and result.winners == (1,)
    assert result.hands_won == (1, 1, 0) and result.hands_played == 2
    assert sum(result.points) == 0


def test_hoyle_turn_over_then_rum_laid_down() -> None:
    table = Table(get_ruleset("hoyle", target_score=50), ["Ann", "Bo"])
    # Hand 1: dealer 0; seat 1 plays first. Seat 1 holds 15 deadwood, seat 0 holds 20.
    table.deal(["2H 3H 4H 7S 7D 7C AS 2C 3D 9D", "8H 9H TH KS KD KC AC 4D 6S 9S"], "QC")
    seat = 1
    drawn = 0
    while len(table.s.hand.stock) > 0:  # type: ignore[union-attr]
        table.draw_and_discard(seat)
        drawn += 1
        seat = 1 - seat
    assert drawn == 31 and seat == 0
    with pytest.raises(IllegalMove) as empty:
        table.do(DrawFromStock(0))
    assert (empty.value.code, empty.value.message) == ("stock_empty", "the stock is empty")
    events = table.do(Restock(0))
    assert events == [StockRestocked(0, "turn_over", None)]
    hand = table.s.hand
    assert hand is not None and hand.pile == () and len(hand.stock) == 32
    assert hand.stock[0] == C("QC").index  # the old upcard, at the bottom of the pile, is now on top
    table.do(DrawFromStock(0))
    table.do(Knock(0, C("QC")))
    # The knocker (20) pays the difference 5 to seat 1 (15) plus 10 for a lower opponent.
    assert table.s.tally.results[-1].outcome == "knock_lost"
    assert points(table.s.scores) == ["-15", "15"]

    # Two players: the winner (seat 1) deals; seat 0 plays first and lays a rum down.
    assert next_dealer(table.s) == 1
    table.deal(["AC 2C 3C 4C 5D 5H 5S 9H TH JH", "2D 4D 6D 8D TD 3S 7S 9S JS KS"], "AD", "QH")
    table.do(DrawFromStock(0))
    table.do(Knock(0, None, lay_down=True))
    last = table.s.tally.results[-1]
    assert last.outcome == "rum" and last.deadwood == {0: 0, 1: 69}
    assert points(table.s.scores) == ["79", "-79"]
    result = table.s.result
    assert table.s.status == "finished" and result is not None
    assert result.ranking == ((0,), (1,)) and result.rums == (1, 0) and result.hands_won == (1, 1)


def _first_round_then_knock(table: Table, order: list[int], knocker: int) -> None:
    """Everyone draws and throws back the card drawn; then ``knocker`` (first again)
    draws and knocks with the card it drew."""
    for seat in order:
        table.draw_and_discard(seat)
    card = table.do(DrawFromStock(knocker))[0].card  # type: ignore[attr-defined]
    table.do(Knock(knocker, card))


def test_knock_rami_elimination_reentry_and_pool() -> None:
    table = Table(get_ruleset("rami"), ["Ann", "Bo", "Cy"], stake=10)
    assert table.s.tally.pool == 30
    # Hand 1: dealer 0, play 1, 2, 0. Nobody knocks before everyone has had a turn.
    table.deal(["AC 2C 3C 4C 5H 5D 5S", "9H TH JH 2S 3D 7S 8D", "KC QD JS 9C KH 8S 6D"], "4D")
    table.do(DrawFromStock(1))
    with pytest.raises(IllegalMove) as early:
        table.do(Knock(1, table.log[-1].card))  # type: ignore[attr-defined]
    assert early.value.code == "knock_not_allowed_yet"
    table.do(Discard(1, table.log[-1].card))  # type: ignore[attr-defined]
    _first_round_then_knock(table, [2, 0], knocker=1)
    # Seat 1 has no deadwood: -10. Seat 2: 20. Seat 0: 63.
    assert points(table.s.scores) == ["63", "-10", "20"]

    # Hand 2: dealer 1, play 2, 0, 1; seat 2 knocks (with 82!) on its second turn.
    table.deal(["X1 KC QD JH TS 9C 8D", "KS QH JC 9D 8H 6C 4S", "AH 2H 3H 6S 6H 6D 5C"], "2C")
    _first_round_then_knock(table, [2, 0, 1], knocker=2)
    assert points(table.s.scores) == ["120", "-5", "102"]
    state = table.s
    assert state.status == "awaiting_reentry" and state.tally.eliminated == (True, False, True)
    # From the dealer's left: seat 2 decides first, then seat 0.
    assert state.to_move == 2 and state.tally.pending == (2, 0)
    with pytest.raises(IllegalMove) as order:
        table.do(DecideReentry(0, True))
    assert (order.value.code, order.value.message) == ("not_your_turn", "seat 2 decides on re-entry first")
    table.do(DecideReentry(2, False))
    table.do(DecideReentry(0, True))  # pays half the pool (15) and takes the score of seat 1, still in
    state = table.s
    assert state.tally.pool == 45 and points(state.scores) == ["-5", "-5", "102"]
    assert state.status == "awaiting_deal" and state.active_seats == (0, 1)

    # Hand 3: the deal passes left among seats still in: seat 0 deals, two players get 10 cards.
    assert next_dealer(state) == 0
    table.deal(["X1 X2 KC QD JH TS 9C 8D 7H 6S", "AS 2S 3S 4S 7C 7D 7S 2D 3D 4D"], "KH")
    _first_round_then_knock(table, [1, 0, 1], knocker=0)
    assert points(table.s.scores) == ["-15", "115", "102"]
    assert table.s.status == "awaiting_reentry" and table.s.to_move == 1
    table.do(DecideReentry(1, False))

    state = table.s
    result = state.result
    assert state.status == "finished" and result is not None
    assert result.ranking == ((0,), (1,), (2,)) and result.winners == (0,)
    # Seat 0 takes the pool of 45, having paid 10 + 15; the others lose their stakes.
    assert points(result.points) == ["20", "-10", "-10"] and sum(result.points) == 0
    assert result.pool == 45 and result.hands_won == (1, 2, 0) and result.rums == (1, 1, 0)


def test_gin_void_undercut_gin_and_game_bonuses() -> None:
    table = Table(get_ruleset("gin"), ["Ann", "Bo"])
    rs = table.s.ruleset
    # Hand 1: both pass the upcard, nobody knocks: the hand is void at the stock reserve.
    table.do(DealHand(deck=shuffled_deck(rs, seed=11)))
    table.do(PassUpcard(1))
    table.do(PassUpcard(0))
    with pytest.raises(IllegalMove) as must:
        table.do(DrawFromDiscard(1))
    assert must.value.code == "must_draw_from_stock"
    seat = 1
    while table.s.status == "playing":
        table.draw_and_discard(seat)
        seat = 1 - seat
    hand = table.s.hand
    assert hand is not None and len(hand.stock) == 2  # the reserve is never drawn
    assert table.s.tally.results[-1].outcome == "void" and table.s.scores == (0, 0)
    assert next_dealer(table.s) == 0  # the same dealer deals again

    # Hand 2: seat 1 knocks with 8; seat 0 holds 4 and undercuts (no layoffs fit).
    table.deal(["2C 3C 4C 5H 5D 5S 9D TD JD 8S", "7H 8H 9H KC KS KD 6C 6D 6H 4S"], "QC", "KH")
    table.do(PassUpcard(1))
    table.do(PassUpcard(0))
    table.do(DrawFromStock(1))
    with pytest.raises(IllegalMove) as high:
        table.do(Knock(1, C("2C")))
    assert (high.value.code, high.value.message) == (
        "deadwood_too_high_to_knock",
        "seat 1 would keep 25 deadwood after discarding 2C; gin-rummy allows knocking with at most 10",
    )
    table.do(Knock(1, C("KH")))
    last = table.s.tally.results[-1]
    assert last.outcome == "undercut" and last.deadwood == {1: 8, 0: 4}
    assert points(table.s.scores) == ["29", "0"]  # 8 - 4 + 25
    assert next_dealer(table.s) == 0  # the winner deals

    # Hand 3: seat 1 takes the upcard; seat 0 goes gin against 77.
    table.deal(["KC KD QH QC JD TH 9C 7D 5H 4S", "AC 2C 3C 4D 5D 6D 8S 9S TS JS"], "2H", "7C")
    table.do(DrawFromDiscard(1))
    table.do(Discard(1, C("KC")))
    table.do(DrawFromStock(0))
    table.do(Knock(0, C("7C")))
    last = table.s.tally.results[-1]
    assert last.outcome == "gin" and last.deadwood == {1: 77, 0: 0}
    assert points(table.s.scores) == ["131", "0"]  # 29 + 77 + 25

    result = table.s.result
    assert table.s.status == "finished" and result is not None
    # 131 + 2 lines of 25 + game 100 + shutout 100 against a seat that won no hand.
    assert points(result.totals) == ["381", "0"] and points(result.points) == ["381", "-381"]
    assert result.ranking == ((0,), (1,)) and result.hands_won == (2, 0) and result.rums == (1, 0)
    assert result.hands_played == 2


def test_gin_first_upcard_taken_by_dealer_then_turn_passes() -> None:
    table = Table(get_ruleset("gin"), ["Ann", "Bo"], first_dealer=1)
    table.do(DealHand(deck=shuffled_deck(table.s.ruleset, seed=3)))
    assert table.s.to_move == 0 and table.s.hand is not None and table.s.hand.phase == "offer"
    table.do(PassUpcard(0))
    assert table.s.to_move == 1  # the dealer is offered the upcard last
    table.do(DrawFromDiscard(1))
    hand = table.s.hand
    assert hand is not None and hand.phase == "discard" and hand.to_move == 1
    card = next(c for c in parse_cards([str(c) for c in hand.hand_cards(1)]) if c.index != hand.taken)
    table.do(Discard(1, card))
    assert table.s.to_move == 0 and table.s.hand is not None and table.s.hand.turns == 1


def test_stake_is_exact_fraction_of_pool() -> None:
    table = Table(get_ruleset("rami"), ["A", "B", "C"], stake=3)
    assert table.s.tally.pool == Fraction(9)
