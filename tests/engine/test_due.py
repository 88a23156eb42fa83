"""engine.due_entries: what is due next, where legal_commands has nothing to list."""

from __future__ import annotations

from engine import (
    Card,
    DealHand,
    DecideReentry,
    Discard,
    DrawFromDiscard,
    DrawFromStock,
    Knock,
    RecordHandResult,
    RevealHand,
    due_entries,
    get_ruleset,
    legal_commands,
    parse_cards,
    view,
)
from tests.support.table import Table


def kinds(state: object, *args: object, **kwargs: object) -> list[str]:
    return [d.kind for d in due_entries(state, *args, **kwargs)]  # type: ignore[arg-type]


def physical_showdown() -> Table:
    """Three players, Ann (seat 0) deals; Bo takes the upcard 7H, discards QS; Cy knocks."""
    t = Table(get_ruleset("knock-rummy"), ("Ann", "Bo", "Cy"), mode="physical")
    t.do(DealHand(upcard=Card.parse("7H")))
    t.do(DrawFromDiscard(1))
    t.do(Discard(1, Card.parse("QS")))
    t.do(DrawFromStock(2))
    t.do(Knock(2, None))
    return t


def test_a_physical_game_awaiting_its_deal_names_the_deal_and_the_quick_path() -> None:
    t = Table(get_ruleset("knock-rummy"), ("Ann", "Bo", "Cy"), mode="physical", first_dealer=2)
    assert legal_commands(t.s) == []
    deal, result = due_entries(t.s, recorder=True)
    assert (deal.kind, deal.command, deal.by) == ("deal", "DealHand", "recorder")
    assert (deal.dealer, deal.seats, deal.cards_each, deal.hand_number) == (2, (0, 1, 2), 7, 1)
    assert (result.kind, result.command, result.knocker_fixed, result.max_deadwood) == (
        "hand_result",
        "RecordHandResult",
        False,
        70,
    )
    # the view carries it for everyone: nothing in it is secret
    assert [d["kind"] for d in view(t.s).to_dict()["due"]] == ["deal", "hand_result"]


def test_a_digital_deal_is_the_systems() -> None:
    t = Table(get_ruleset("gin"), ("Ann", "Bo"))
    (deal,) = due_entries(t.s)
    assert (deal.kind, deal.by, deal.cards_each) == ("deal", "system", 10)


def test_during_play_the_seat_to_move_is_due() -> None:
    t = Table(get_ruleset("knock-rummy"), ("Ann", "Bo", "Cy"), mode="physical")
    t.do(DealHand(upcard=Card.parse("7H")))
    (move,) = due_entries(t.s)
    assert (move.kind, move.seat, move.phase, move.command) == ("move", 1, "draw", "DrawFromStock")
    t.do(DrawFromStock(1))
    assert due_entries(t.s)[0].to_dict() == {
        "kind": "move",
        "command": "Discard",
        "by": "seat",
        "hand_number": 1,
        "seat": 1,
        "phase": "discard",
    }


def test_a_physical_showdown_names_the_seats_still_to_reveal() -> None:
    t = physical_showdown()
    assert t.s.status == "showdown" and legal_commands(t.s) == []
    reveal, result = due_entries(t.s, recorder=True)
    assert (reveal.kind, reveal.seats, reveal.knocker) == ("reveal", (1, 2, 0), 2)
    assert reveal.sizes == {0: 7, 1: 7, 2: 7}
    assert reveal.known == {0: (), 1: ("7H",), 2: ()}
    assert (result.kind, result.knocker, result.knocker_fixed) == ("hand_result", 2, True)
    # The public learns who must reveal, not what a hand must hold; a seat its own.
    assert due_entries(t.s)[0].known == {}
    assert due_entries(t.s, 1)[0].known == {1: ("7H",)}
    assert view(t.s).to_dict()["due"][0]["known"] == {}

    t.do(RevealHand(1, parse_cards("7H 8H 9H 2C 3C 4C KD")))
    assert kinds(t.s, recorder=True) == ["reveal"]  # the quick path is closed once a seat revealed
    assert due_entries(t.s)[0].seats == (2, 0)
    t.do(RevealHand(2, parse_cards("AS 2S 3S 4S 5S 6S AD")))
    t.do(RevealHand(0, parse_cards("KC KH KS 5D 6D 8D TD")))
    assert t.s.status == "awaiting_deal"
    deal = due_entries(t.s)[0]
    assert (deal.kind, deal.dealer, deal.hand_number) == ("deal", 1, 2)


def test_the_quick_path_between_hands_and_a_finished_game() -> None:
    t = Table(get_ruleset("knock-rummy", hands=1), ("Ann", "Bo"), mode="physical")
    t.do(RecordHandResult(knocker=1, deadwood={0: 12, 1: 3}))
    assert t.s.status == "finished"
    assert due_entries(t.s) == [] and view(t.s).to_dict()["due"] == []


def test_a_reentry_is_due_in_knock_rami() -> None:
    t = Table(get_ruleset("rami"), ("Ann", "Bo", "Cy"), mode="physical")
    t.do(RecordHandResult(knocker=0, deadwood={1: 100, 2: 0, 0: 0}))
    assert t.s.status == "awaiting_reentry", t.s.status
    (entry,) = due_entries(t.s)
    assert (entry.kind, entry.seat, entry.command) == ("reentry", 1, "DecideReentry")
    t.do(DecideReentry(1, False))
