"""The view's discard pile and public moves: what the whole table saw, and nothing more."""

from __future__ import annotations

from engine import (
    Card,
    DealHand,
    Discard,
    DrawFromDiscard,
    DrawFromStock,
    Knock,
    PassUpcard,
    StartGame,
    decide,
    get_ruleset,
    parse_cards,
    replay,
    stacked_deck,
    view,
)
from engine.events import Event
from engine.state import PublicMove


def _play(log: list[Event], *commands: object) -> list[Event]:
    for command in commands:
        log = log + decide(replay(log), command)  # type: ignore[arg-type]
    return log


def _gin_log() -> list[Event]:
    rs = get_ruleset("gin")
    log = decide(None, StartGame(rs, ("Ann", "Bo")))
    hands = [parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S KD"), parse_cards("AC 2C 3C 4C 5C 6C 7C 8C 9C KH")]
    deck = stacked_deck(rs, hands, Card.parse("QD"), parse_cards("JD JH"))
    return log + decide(replay(log), DealHand(deck=deck))


def test_moves_name_each_face_up_card_and_never_a_stock_draw() -> None:
    log = _gin_log()
    first = replay(log).to_move
    assert first is not None
    second = 1 - first
    log = _play(
        log,
        PassUpcard(first),
        PassUpcard(second),
        DrawFromStock(first),  # JD, unseen by the table
        Discard(first, Card.parse("KD") if first == 1 else Card.parse("KH")),
    )
    discarded = Card.parse("KD") if first == 1 else Card.parse("KH")
    log = _play(log, DrawFromDiscard(second))
    state = replay(log)
    for viewer in (None, 0, 1):
        shown = view(state, viewer)
        assert shown.moves == (
            PublicMove(first, "pass", Card.parse("QD")),
            PublicMove(second, "pass", Card.parse("QD")),
            PublicMove(first, "stock", Card.parse("QD")),  # the discard it passed over
            PublicMove(first, "discard", discarded),
            PublicMove(second, "pile", discarded),
        )
        assert shown.discard_pile == (Card.parse("QD"),)
        assert "JD" not in str(shown.to_dict()["moves"])
    assert view(state, 0).to_dict()["moves"][4] == {"seat": second, "action": "pile", "card": discarded.code}


def test_the_pile_is_listed_bottom_first_and_a_knock_names_no_card() -> None:
    rs = get_ruleset("knock-rummy")
    log = decide(None, StartGame(rs, ("Ann", "Bo", "Cy")))
    hands = [parse_cards("AS 2S 3S 4S 5S 6S 9D"), parse_cards("KC KD KH 2C 3C 4C 9C"),
             parse_cards("QC QD QH QS 7H 8H 9H")]  # fmt: skip
    deck = stacked_deck(rs, hands, Card.parse("TD"), parse_cards("JD 5D 6D"))
    log = log + decide(replay(log), DealHand(deck=deck))
    log = _play(log, DrawFromStock(1), Discard(1, Card.parse("JD")), DrawFromStock(2))
    log = _play(log, Discard(2, Card.parse("2C")))
    state = replay(log)
    assert view(state, None).discard_pile == parse_cards("TD JD 2C")
    assert view(state, 0).discard_top == Card.parse("2C")
    log = _play(log, DrawFromStock(0), Knock(0, Card.parse("6D")))
    moves = replay(log).hand.moves  # type: ignore[union-attr]
    assert moves[-1] == PublicMove(0, "knock", None)
    assert moves[-2] == PublicMove(0, "stock", Card.parse("2C"))


def test_a_physical_stock_draw_stays_unknown_in_the_moves() -> None:
    rs = get_ruleset("knock-rummy")
    log = decide(None, StartGame(rs, ("Ann", "Bo"), "physical"))
    log = log + decide(replay(log), DealHand(upcard=Card.parse("TD")))
    seat = replay(log).to_move
    assert seat is not None
    # The scorekeeper saw the card drawn; the table did not.
    log = _play(log, DrawFromStock(seat, Card.parse("QS")))
    state = replay(log)
    for viewer in (None, 1 - seat):
        shown = view(state, viewer).to_dict()
        assert shown["moves"] == [{"seat": seat, "action": "stock", "card": "TD"}]
        assert "QS" not in str(shown)
    assert Card.parse("QS") in (view(state, seat).hand or ())
