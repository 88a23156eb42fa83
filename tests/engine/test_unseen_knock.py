"""After an unseen knock (the knock card not recorded) the knocker's reveal may lack exactly
one of the cards the table knew it held: that card is its face-down discard."""

from __future__ import annotations

from typing import Any

import pytest

from engine import (
    Card,
    DealHand,
    DeclineDraw,
    Discard,
    DrawFromDiscard,
    DrawFromStock,
    Event,
    HandResultRecorded,
    HandRevealed,
    HandScored,
    IllegalMove,
    InvalidEvent,
    Knock,
    RecordHandResult,
    Retract,
    RevealHand,
    due_entries,
    event_from_dict,
    event_to_dict,
    get_ruleset,
    replay,
    view,
)
from engine.cards import ALL_CARDS, parse_cards
from tests.support.table import Table, points

C = Card.parse
P = parse_cards


def issue_24_gin() -> Table:
    """The issue's reproduction: seat 0 takes the upcard 6S, keeps it, and knocks with it
    face down; the scorekeeper records the knock without its card."""
    table = Table(get_ruleset("gin"), ["Ann", "Bo"], mode="physical", first_dealer=1)
    table.do(DealHand(upcard=C("6S")))
    table.do(DrawFromDiscard(0))
    table.do(Discard(0, C("5C")))
    table.do(DrawFromStock(1))
    table.do(Discard(1, C("JS")))
    table.do(DrawFromStock(0))
    table.do(Knock(0))
    return table


def refused(table: Table, command: Any) -> tuple[str, str]:
    with pytest.raises(IllegalMove) as error:
        table.do(command)
    return error.value.code, error.value.message


def test_the_knocker_may_have_discarded_a_known_card_face_down() -> None:
    table = issue_24_gin()
    table.do(RevealHand(0, P("AC 7C TD JD QD 2H 8H 9H TH JH")))
    hand = table.s.hand
    assert hand is not None and hand.knock_card == C("6S").index  # located from now on
    assert refused(table, RevealHand(1, P("6S 2C 3C 4C 5D 6D 7D KS KH QC"))) == (
        "inconsistent_reveal",
        "seat 1 cannot hold 6S: it is in seat 0's knock discard",
    )
    events = table.do(RevealHand(1, P("5S 2C 3C 4C 5D 6D 7D KS KH QC")))
    scored = events[-1]
    assert isinstance(scored, HandScored) and scored.verified
    assert scored.outcome == "knock" and scored.deadwood == {0: 10, 1: 35}
    assert points(table.s.scores) == ["25", "0"]


def test_a_knocker_keeping_every_known_card_is_still_accepted() -> None:
    table = issue_24_gin()
    table.do(RevealHand(0, P("6S 7S 8S TD JD QD 8H 9H TH JH")))
    hand = table.s.hand
    assert hand is not None and hand.knock_card == -1  # the discard stays unknown


def test_the_card_taken_in_the_knocking_turn_is_not_the_face_down_discard() -> None:
    table = Table(get_ruleset("knock-rummy"), ["Ann", "Bo"], mode="physical")
    table.do(DealHand(upcard=C("9C")))
    table.do(DrawFromDiscard(1))  # Bo: 9C
    table.do(Discard(1, C("2D")))
    table.do(DrawFromStock(0))
    table.do(Discard(0, C("KH")))
    table.do(DrawFromDiscard(1))  # Bo: KH, taken in the turn he knocks
    table.do(Knock(1))
    assert refused(table, RevealHand(1, P("9C AS 2S 3S 4S 5S 6S 7S 8S QD"))) == (
        "inconsistent_reveal",
        "seat 1 must hold KH (taken from the discard pile in the turn it knocked, so not its "
        "face-down discard), but the revealed hand lacks it",
    )
    table.do(RevealHand(1, P("KH 9H 9D 9S AS 2S 3S 4S 5S 6S")))  # 9C went face down


def test_two_missing_known_cards_are_refused() -> None:
    table = Table(get_ruleset("knock-rummy"), ["Ann", "Bo"], mode="physical")
    table.do(DealHand(upcard=C("9C")))
    table.do(DrawFromDiscard(1))  # Bo: 9C
    table.do(Discard(1, C("2D")))
    table.do(DrawFromStock(0))
    table.do(Discard(0, C("KH")))
    table.do(DrawFromDiscard(1))  # Bo: KH
    table.do(Discard(1, C("3D")))
    table.do(DrawFromStock(0))
    table.do(Discard(0, C("4D")))
    table.do(DrawFromStock(1))
    table.do(Knock(1))
    assert refused(table, RevealHand(1, P("AS 2S 3S 4S 5S 6S 7S 8S QD JD"))) == (
        "inconsistent_reveal",
        "seat 1's revealed hand lacks both 9C and KH, which it was known to hold; only one of them "
        "can be its face-down knock discard",
    )
    due = view(table.s, None, recorder=True).due[0]
    assert (due.known, due.may_lack) == ({0: (), 1: ()}, {1: ("9C", "KH")})
    table.do(RevealHand(1, P("KH AS 2S 3S 4S 5S 6S 7S 8S QD")))


def test_a_known_card_cannot_be_missing_when_the_knock_card_was_recorded() -> None:
    table = issue_24_gin()
    table.do(Retract(1, "the knock card was seen"))
    table.do(Knock(0, C("5D")))
    assert refused(table, RevealHand(0, P("AC 7C TD JD QD 2H 8H 9H TH JH"))) == (
        "inconsistent_reveal",
        "seat 0 must hold 6S (taken from the discard pile and not discarded since, or entered "
        "earlier), but the revealed hand lacks it",
    )


def test_a_rum_laid_down_without_discarding_keeps_every_known_card() -> None:
    table = Table(get_ruleset("hoyle"), ["Ann", "Bo"], mode="physical")
    table.do(DealHand(upcard=C("9C")))
    table.do(DrawFromDiscard(1))
    table.do(Knock(1, None, lay_down=True))
    assert refused(table, RevealHand(1, P("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS")))[0] == "inconsistent_reveal"
    table.do(RevealHand(1, P("9C 9D 9H AS 2S 3S 4S 5S 6S 7S 8S")))


def test_a_stock_out_showdown_keeps_every_known_card() -> None:
    table = Table(get_ruleset("knock-rummy"), ["Ann", "Bo"], mode="physical")
    table.do(DealHand(upcard=C("9C")))
    seat, cards = 1, iter(c for c in ALL_CARDS[:52] if c.suit != "S" and c != C("9C"))
    table.do(DrawFromDiscard(1))
    while table.s.hand is not None and len(table.s.hand.stock) > 0:
        table.do(Discard(seat, next(cards)))
        seat = 1 - seat
        table.do(DrawFromStock(seat))
    table.do(Discard(seat, next(cards)))
    table.do(DeclineDraw(1 - seat))
    assert table.s.status == "showdown"
    hand = table.s.hand
    assert hand is not None and hand.hands[1] == 1 << C("9C").index
    assert refused(table, RevealHand(1, P("AS 2S 3S 4S 5S 6S 7S 8S 9S TS")))[0] == "inconsistent_reveal"
    assert view(table.s, None, recorder=True).due[0].may_lack == {}


def test_before_the_knocker_reveals_no_other_hand_may_show_its_known_cards() -> None:
    table = issue_24_gin()
    assert refused(table, RevealHand(1, P("6S 2C 3C 4C 5D 6D 7D KS KH QC"))) == (
        "inconsistent_reveal",
        "seat 1 cannot hold 6S: it is in seat 0's hand or face-down knock discard",
    )


def test_the_quick_path_at_the_showdown_follows_the_same_rule() -> None:
    defender = P("5S 2C 3C 4C 5D 6D 7D KS KH QC")
    table = issue_24_gin()
    assert refused(
        table,
        RecordHandResult(
            knocker=0, hands={0: P("AC 7C TD JD QD 2H 8H 9H TH JH"), 1: P("6S 2C 3C 4C 5D 6D 7D KS KH 5H")}
        ),
    ) == ("inconsistent_reveal", "seat 1 cannot hold 6S: it is in seat 0's hand or face-down knock discard")
    table.do(RecordHandResult(knocker=0, hands={0: P("AC 7C TD JD QD 2H 8H 9H TH JH"), 1: defender}))
    assert points(table.s.scores) == ["25", "0"]


def test_due_names_the_cards_one_of_which_may_be_face_down() -> None:
    table = issue_24_gin()
    recorder = due_entries(table.s, recorder=True)[0]
    assert (recorder.known, recorder.may_lack) == ({1: (), 0: ()}, {0: ("6S",)})
    assert recorder.to_dict()["may_lack"] == {"0": ["6S"]}
    assert due_entries(table.s, 0)[0].may_lack == {0: ("6S",)}  # the knocker its own
    assert due_entries(table.s, 1)[0].may_lack == {} and due_entries(table.s)[0].may_lack == {}
    table.do(RevealHand(0, P("AC 7C TD JD QD 2H 8H 9H TH JH")))
    assert due_entries(table.s, recorder=True)[0].to_dict()["may_lack"] == {}


def _stored(log: list[Event]) -> list[dict[str, Any]]:
    return [event_to_dict(e) for e in log]


def test_an_imported_reveal_must_fit_the_public_record() -> None:
    table = issue_24_gin()
    good = _stored(table.log)
    forged = [*good, event_to_dict(HandRevealed(0, P("AC 7C TD JD QD 2H 8H 9H TH JH"), None))]
    replay([event_from_dict(e) for e in forged])  # lacks only 6S: fits
    forged[-1]["data"]["cards"][0] = "JS"  # JS is in the discard pile
    with pytest.raises(InvalidEvent) as error:
        replay([event_from_dict(e) for e in forged])
    assert (error.value.code, error.value.message) == (
        "forged_reveal",
        "HandRevealed: seat 0 cannot hold JS: it is in the discard pile",
    )
    early = [*good[:-1], forged[-1]]  # before the knock: no showdown
    with pytest.raises(InvalidEvent) as error:
        replay([event_from_dict(e) for e in early])
    assert (error.value.code, error.value.message) == (
        "forged_reveal",
        "HandRevealed while no showdown is pending",
    )


def test_an_imported_quick_path_result_must_fit_the_public_record() -> None:
    table = issue_24_gin()
    knocker, defender = P("AC 7C TD JD QD 2H 8H 9H TH JH"), P("5S 2C 3C 4C 5D 6D 7D KS KH QC")
    good = [*_stored(table.log), event_to_dict(HandResultRecorded(1, 1, 0, {0: knocker, 1: defender}, None))]
    replay([event_from_dict(e) for e in good])
    bad = [
        ({0: knocker, 1: (*defender[1:], C("6S"))}, 0, "seat 1 cannot hold 6S: it is in seat 0's hand"),
        ({0: knocker, 1: defender}, 1, "names another knocker than the recorded moves"),
        ({0: knocker}, 0, "the hands are not those of this hand's seats"),
    ]
    for hands, who, message in bad:
        forged = [*good[:-1], event_to_dict(HandResultRecorded(1, 1, who, hands, None))]
        with pytest.raises(InvalidEvent) as error:
            replay([event_from_dict(e) for e in forged])
        assert error.value.code == "forged_reveal" and message in error.value.message
