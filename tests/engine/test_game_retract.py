"""Retractions: undo the latest events, with a reason; the undone events stay in the log."""

from __future__ import annotations

import pytest

from engine import (
    AdjustScore,
    Card,
    Discard,
    DrawFromStock,
    IllegalMove,
    Knock,
    Retract,
    Retracted,
    RevealHand,
    get_ruleset,
    parse_cards,
    replay,
)
from engine.commands import DealHand, DrawFromDiscard
from tests.support.table import Table, points

C = Card.parse
HANDS = ["AS 2S 3S 4S 5S 6S 9D", "KC KD KH 2C 3C 4C 9C", "QC QD QH QS 7H 8H 9H"]


def game() -> Table:
    table = Table(get_ruleset("knock-rummy"), ["Ann", "Bo", "Cy"])
    table.deal(HANDS, "TD", "JD 8C")
    return table


def test_retract_a_discard_restores_the_hand() -> None:
    table = game()
    table.do(DrawFromStock(1))
    before = table.s
    table.do(Discard(1, C("9D")))
    events = table.do(Retract(1, "misclick: meant to knock"))
    assert events == [Retracted(1, "misclick: meant to knock")]
    state = table.s
    assert state.hand == before.hand and state.tally.scores == before.tally.scores
    assert state.version == before.version + 2  # the discard and the retraction both count
    assert state.tally.retractions == ((1, "misclick: meant to knock"),)
    assert len(table.log) == 5  # GameStarted, HandDealt, CardDrawn, CardDiscarded, Retracted
    table.do(Knock(1, C("JD")))  # the game goes on from the restored state
    assert state.to_move == 1 and table.s.status == "awaiting_deal"


def test_retract_a_knock_and_its_scoring_together() -> None:
    table = game()
    table.do(DrawFromStock(1))
    drawn = table.s
    table.do(Knock(1, C("JD")))
    assert points(table.s.scores) == ["28", "-19", "-9"]
    with pytest.raises(IllegalMove) as partial:
        table.do(Retract(1, "wrong card"))
    assert (partial.value.code, partial.value.message) == (
        "retract_partial",
        "retracting 1 event(s) would keep a move but undo the scoring it caused; "
        "retract 2 to undo the move as well",
    )
    table.do(Retract(2, "knocked with the wrong card"))
    assert table.s.hand == drawn.hand and table.s.status == "playing"
    assert points(table.s.scores) == ["0", "0", "0"] and table.s.tally.results == ()
    table.do(Discard(1, C("JD")))
    assert table.s.to_move == 2


def test_retractions_stack_and_a_retraction_is_not_itself_undone() -> None:
    table = game()
    table.do(DrawFromStock(1))
    table.do(Discard(1, C("JD")))
    after_discard = table.s
    table.do(DrawFromStock(2))
    table.do(Retract(1, "drew out of turn"))
    assert table.s.hand == after_discard.hand
    table.do(Retract(1, "and the discard too"))  # undoes the discard, not the retraction
    hand = table.s.hand
    assert hand is not None and hand.to_move == 1 and hand.phase == "discard"
    assert [reason for _, reason in table.s.tally.retractions] == ["drew out of turn", "and the discard too"]
    table.do(Retract(1, "back to the deal"))
    assert table.s.hand is not None and table.s.hand.phase == "draw" and table.s.hand.turns == 0
    with pytest.raises(IllegalMove) as error:
        table.do(Retract(2, "too far"))
    assert (error.value.code, error.value.message) == (
        "nothing_to_retract",
        "only 1 event(s) can be retracted (GameStarted cannot)",
    )
    with pytest.raises(IllegalMove) as redeal:
        table.do(Retract(1, "redeal"))  # a digital deal is never undone: no second shuffle
    assert redeal.value.code == "cannot_retract_deal"
    assert replay(table.log) == table.s


def test_a_digital_deal_is_never_retracted_even_inside_a_longer_retraction() -> None:
    table = game()
    table.do(DrawFromStock(1))
    with pytest.raises(IllegalMove) as error:
        table.do(Retract(2, "start over"))
    assert (error.value.code, error.value.message) == (
        "cannot_retract_deal",
        "retracting 2 event(s) would undo hand 1's deal; a digital deal is never retracted, "
        "so a hand cannot be re-dealt",
    )
    assert table.s.hand is not None and table.s.hand.phase == "discard"  # nothing changed


def test_a_physical_deal_may_be_retracted() -> None:
    table = Table(get_ruleset("knock-rummy"), ["Ann", "Bo", "Cy"], mode="physical")
    table.do(DealHand(upcard=C("TD")))
    table.do(Retract(1, "wrong upcard entered"))
    assert table.s.status == "awaiting_deal" and table.s.tally.hands_dealt == 0
    assert replay(table.log) == table.s


def test_retract_a_finished_game_needs_the_whole_last_move() -> None:
    table = Table(get_ruleset("knock-rummy", hands=1), ["Ann", "Bo", "Cy"])
    table.deal(HANDS, "TD", "JD")
    table.do(DrawFromStock(1))
    table.do(Knock(1, C("JD")))
    assert table.s.status == "finished"
    with pytest.raises(IllegalMove) as error:
        table.do(Retract(1, "result disputed"))
    assert error.value.code == "retract_partial" and "retract 3 to undo the move" in error.value.message
    table.do(Retract(3, "result disputed"))
    assert table.s.status == "playing" and table.s.result is None


def test_retract_an_adjustment() -> None:
    table = game()
    table.do(AdjustScore(2, -10, "slow play"))
    assert points(table.s.scores) == ["0", "0", "-10"]
    table.do(Retract(1, "warning only"))
    assert points(table.s.scores) == ["0", "0", "0"] and table.s.tally.adjustments == ()


def test_retract_a_physical_reveal() -> None:
    table = Table(get_ruleset("knock-rummy"), ["Ann", "Bo", "Cy"], mode="physical")
    table.do(DealHand(upcard=C("TD")))
    table.do(DrawFromDiscard(1))
    table.do(Knock(1, None))
    table.do(RevealHand(1, parse_cards("TD JD QD 2C 3C 4C 8H")))
    table.do(Retract(1, "entered the wrong seat"))
    assert table.s.hand is not None and table.s.hand.revealed == (-1, -1, -1)
    table.do(RevealHand(1, parse_cards("TD JD QD 2C 3C 4C 8S")))
