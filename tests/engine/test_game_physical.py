"""Physical games: a scorekeeper records public moves; reveals are checked; the quick path."""

from __future__ import annotations

import pytest

from engine import (
    Card,
    DealHand,
    Discard,
    DrawFromDiscard,
    DrawFromStock,
    HandResultRecorded,
    HandScored,
    IllegalMove,
    Knock,
    RecordHandResult,
    RevealHand,
    get_ruleset,
    legal_commands,
    parse_cards,
    view,
)
from engine.commands import DeclineDraw, Restock
from tests.support.table import Table, points

C = Card.parse
P = parse_cards


def played_to_showdown() -> Table:
    """Seat 1 takes the upcard TD and throws an unseen 9D; seat 2 draws blind and throws
    KS; seat 0 takes KS and knocks with a card nobody saw."""
    table = Table(get_ruleset("knock-rummy"), ["Ann", "Bo", "Cy"], mode="physical")
    table.do(DealHand(upcard=C("TD")))
    hand = table.s.hand
    assert hand is not None and len(hand.stock) == 30 and hand.sizes == (7, 7, 7)
    table.do(DrawFromDiscard(1))
    table.do(Discard(1, C("9D")))
    events = table.do(DrawFromStock(2))
    assert events[0].card is None  # type: ignore[attr-defined]
    with pytest.raises(IllegalMove) as error:
        table.do(Discard(2, C("9D")))
    assert (error.value.code, error.value.message) == (
        "card_not_in_hand",
        "seat 2 cannot hold 9D: it is in the discard pile",
    )
    with pytest.raises(IllegalMove) as error:
        table.do(Discard(2, C("TD")))
    assert error.value.message == "seat 2 cannot hold TD: it is in seat 1's hand"
    table.do(Discard(2, C("KS")))
    table.do(DrawFromDiscard(0))
    table.do(Knock(0, None))  # face down, unseen
    assert table.s.status == "showdown" and table.s.to_move is None
    return table


def test_reveals_are_checked_against_the_public_record() -> None:
    table = played_to_showdown()
    bad = [
        (
            0,
            "2H 3H 4H 6S 7S 8S 4D",
            "seat 0 must hold KS (taken from the discard pile and not discarded since, "
            "or entered earlier), but the revealed hand lacks it",
        ),
        (1, "TD JD QD 2C 3C 4C 9D", "seat 1 cannot hold 9D: it is in the discard pile"),
        (1, "TD JD QD 2C 3C KS 8H", "seat 1 cannot hold KS: it is in seat 0's hand"),
        (1, "TD JD QD 2C 3C 4C", "seat 1 holds 7 cards but 6 were revealed"),
        (1, "TD JD QD 2C 3C 4C 4C", "seat 1's revealed hand shows 4C twice"),
    ]
    for seat, cards, message in bad:
        with pytest.raises(IllegalMove) as error:
            table.do(RevealHand(seat, P(cards)))
        assert (error.value.code, error.value.message) == ("inconsistent_reveal", message)
    table.do(RevealHand(1, P("TD JD QD 2C 3C 4C 8H"), (P("TD JD QD"), P("2C 3C 4C"))))
    with pytest.raises(IllegalMove) as error:
        table.do(RevealHand(2, P("5S 5H 5C AH 2H 3H 8H")))
    assert error.value.message == "seat 2 cannot hold 8H: it is in seat 1's hand"
    assert view(table.s).revealed == {1: P("2C 3C 4C TD JD QD 8H")}  # in card order
    table.do(RevealHand(2, P("5S 5H 5C AH 2H 3H 9S")))
    events = table.do(RevealHand(0, P("KS KH KD 6S 7S 8S 4D")))
    scored = events[-1]
    assert isinstance(scored, HandScored) and scored.verified
    # Seat 0 knocked with 4 (lowest): seat 1 pays 8 - 4, seat 2 pays 9 - 4.
    assert scored.outcome == "knock_won" and scored.deadwood == {1: 8, 2: 9, 0: 4}
    assert points(table.s.scores) == ["9", "-4", "-5"]
    assert table.s.status == "awaiting_deal" and not table.s.needs_deal


def test_quick_path_with_final_hands_is_verified() -> None:
    table = Table(get_ruleset("knock-rummy"), ["A", "B", "C", "D"], mode="physical")
    # Seed 000's example, with a legal deal of the same counts: 12, 28, 21, 10.
    hands = {
        0: P("8H 9H TH JH QH 5C 7D"),
        1: P("2C 3C 3D 4D 5H 5S 6S"),
        2: P("6H 6D 6C 7C 8C 2H 7S"),
        3: P("AH AC 3S 5D 9D 9C 9S"),
    }
    events = table.do(RecordHandResult(knocker=0, hands=hands))
    assert isinstance(events[0], HandResultRecorded) and events[0].verified
    assert events[0].dealer == 0 and events[0].hand_number == 1
    assert points(table.s.scores) == ["-12", "-18", "-11", "41"]
    # The printed example repeats 7C (seats 0 and 2): one deck cannot hold it.
    printed = {**hands, 0: P("8H 9H TH JH QH 5C 7C")}
    with pytest.raises(IllegalMove) as error:
        table.do(RecordHandResult(knocker=0, hands=printed))
    assert error.value.code == "inconsistent_reveal" and "7C" in error.value.message
    assert "seats 2 and 0" in error.value.message  # in turn order


def test_quick_path_with_announced_counts_is_unverified() -> None:
    table = Table(get_ruleset("knock-rummy"), ["A", "B", "C", "D"], mode="physical")
    events = table.do(RecordHandResult(knocker=0, deadwood={0: 12, 1: 28, 2: 21, 3: 10}))
    scored = events[-1]
    assert isinstance(scored, HandScored) and not scored.verified
    # Hand 1 is dealt by seat 0, so play (and the counts) run 1, 2, 3, 0.
    assert scored.outcome == "knock_lost" and list(scored.deadwood) == [1, 2, 3, 0]
    assert points(table.s.scores) == ["-12", "-18", "-11", "41"]
    with pytest.raises(IllegalMove) as error:
        table.do(RecordHandResult(knocker=0, deadwood={0: 1, 1: 2}))
    assert (error.value.code, error.value.message) == (
        "invalid_seat",
        "the result must give exactly the seats in this hand (2, 3, 0, 1)",
    )
    with pytest.raises(IllegalMove) as error:
        table.do(RecordHandResult(knocker=0))
    assert error.value.code == "malformed_command"


def test_quick_path_after_recorded_moves_must_agree() -> None:
    table = played_to_showdown()
    with pytest.raises(IllegalMove) as error:
        table.do(RecordHandResult(knocker=1, deadwood={0: 4, 1: 8, 2: 9}))
    assert (error.value.code, error.value.message) == (
        "inconsistent_reveal",
        "the recorded moves say seat 0 knocked; the result names 1",
    )
    with pytest.raises(IllegalMove) as error:
        table.do(
            RecordHandResult(
                knocker=0,
                hands={
                    0: P("QH KH JC 6S 7S 8S 4D"),
                    1: P("TD JD QD 2C 3C 4C 8H"),
                    2: P("5S 5H 5C AH 2H 3H 9S"),
                },
            )
        )
    assert error.value.code == "inconsistent_reveal" and "KS" in error.value.message
    table.do(RecordHandResult(knocker=0, deadwood={0: 4, 1: 8, 2: 9}))
    assert points(table.s.scores) == ["9", "-4", "-5"]


def test_gin_physical_quick_path() -> None:
    table = Table(get_ruleset("gin"), ["A", "B"], mode="physical")
    with pytest.raises(IllegalMove) as error:
        table.do(RecordHandResult(knocker=1, deadwood={0: 30, 1: 12}))
    assert (error.value.code, error.value.message) == (
        "deadwood_too_high_to_knock",
        "seat 1 knocked with 12 deadwood; gin-rummy allows at most 10",
    )
    table.do(RecordHandResult(knocker=None, deadwood={0: 30, 1: 12}))  # nobody knocked: void
    assert table.s.tally.results[-1].outcome == "void" and table.s.tally.hands_dealt == 1
    table.do(RecordHandResult(knocker=1, deadwood={0: 30, 1: 8}))
    assert points(table.s.scores) == ["0", "22"]
    assert table.s.tally.last_dealer == 0  # the void hand was redealt by the same dealer


def test_gin_void_hand_by_final_hands_is_still_checked() -> None:
    """A void gin hand is not scored, but the hands entered for it are still hands one
    deck could deal (the whole deck at every seat was recorded as void before)."""
    table = Table(get_ruleset("gin"), ["A", "B"], mode="physical")
    deck = parse_cards(" ".join(f"{r}{s}" for s in "CDHS" for r in "A23456789TJQK"))
    for hands, problem in (
        ({0: deck, 1: deck}, "duplicate"),
        ({0: deck[:10], 1: deck[10:21]}, "size"),
        ({0: deck[:10], 1: deck[:10]}, "duplicate"),
    ):
        with pytest.raises(IllegalMove) as error:
            table.do(RecordHandResult(knocker=None, hands=hands))
        assert error.value.code == "inconsistent_reveal", error.value.message
        assert error.value.params["problem"] == problem, error.value.params
    assert table.s.tally.hands_dealt == 0  # nothing was recorded
    table.do(RecordHandResult(knocker=None, hands={0: deck[:10], 1: deck[10:20]}))
    assert table.s.tally.results[-1].outcome == "void"


def test_physical_turn_over_makes_the_stock_known() -> None:
    table = Table(get_ruleset("hoyle"), ["A", "B"], mode="physical")
    table.do(DealHand(upcard=C("QC"), hands={1: P("2H 3H 4H 7S 7D 7C AS 2C 3D 9D")}))
    seat = 1
    discards = iter(
        c
        for c in P(
            "KS KD KH JS JD JH TS TD TH 9S 9H 8S 8D 8H 6S 6D 6H 5S 5D 5H 4S 4D 3S 3C 2S 2D AH AD AC KC QS"
        )
    )
    while table.s.hand is not None and table.s.hand.stock:
        table.do(DrawFromStock(seat))
        table.do(Discard(seat, next(discards)))
        seat = 1 - seat
    assert [c.TYPE for c in legal_commands(table.s)] == ["DrawFromDiscard", "Restock"]
    with pytest.raises(IllegalMove) as error:
        table.do(DeclineDraw(0))
    assert error.value.code == "decline_not_allowed"
    table.do(Restock(0))
    events = table.do(DrawFromStock(0))
    assert events[0].card == C("QC")  # type: ignore[attr-defined]
    hand = table.s.hand
    assert hand is not None and hand.hands[0] == 1 << C("QC").index


def test_physical_legal_commands_list_every_possible_card() -> None:
    table = Table(get_ruleset("knock-rummy"), ["A", "B"], mode="physical")
    table.do(DealHand(upcard=C("TD")))
    table.do(DrawFromStock(1))
    commands = legal_commands(table.s)
    discards = [c for c in commands if isinstance(c, Discard)]
    assert len(discards) == 51  # any card but the upcard could be in the hand
    assert Knock(1, None) in commands
    assert view(table.s, None, recorder=True).legal_commands == tuple(commands)
    # Nobody else is shown a card the seat might hold: only the unseen knock stays listed.
    assert view(table.s, None).legal_commands == (Knock(1, None),)
    assert view(table.s, 1).legal_commands == (Knock(1, None),)


def test_a_gin_knockers_declared_melds_decide_the_layoffs() -> None:
    """RULES.md §1: a declared arrangement is used where the player may choose. Seat 1
    knocks and declares AS 2S 3S (not the best AS-4S run), leaving 4S unmatched
    (deadwood 10, a legal gin knock) so that seat 0's 5S has nothing to extend."""
    from engine.commands import PassUpcard

    table = Table(get_ruleset("gin-rummy"), ["Ann", "Bo"], mode="physical")
    table.do(DealHand(upcard=C("KH")))
    table.do(PassUpcard(1))
    table.do(PassUpcard(0))
    table.do(DrawFromStock(1))
    table.do(Knock(1, None))
    table.do(RevealHand(1, P("AS 2S 3S 4S 5C 6C 7C AD 2H 3D"), (P("AS 2S 3S"), P("5C 6C 7C"))))
    events = table.do(RevealHand(0, P("5S KC KD QS QH JD 9H 8H 8D 6H")))
    scored = next(e for e in events if isinstance(e, HandScored))
    assert scored.deadwood == {1: 10, 0: 86}
    assert scored.points == {1: 76, 0: 0}
    assert scored.detail["showdown"]["layoffs"] == {"1": [], "0": []}
