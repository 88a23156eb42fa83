"""Every IllegalMove code in engine.CODES, with its exact message."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

import engine.showdown
from engine import (
    CODES,
    AbandonGame,
    AdjustScore,
    Card,
    Command,
    CorrectHand,
    DealHand,
    DecideReentry,
    DeclineDraw,
    Discard,
    DrawFromDiscard,
    DrawFromStock,
    GameState,
    IllegalMove,
    Knock,
    PassUpcard,
    RecordHandResult,
    Restock,
    Retract,
    RevealHand,
    Seat,
    StartGame,
    command_from_dict,
    decide,
    full_deck,
    get_ruleset,
    parse_cards,
    shuffled_deck,
)
from engine.errors import InvalidShowdown
from tests.support.table import Table

C = Card.parse
KNOCK_HANDS = ["AS 2S 3S 4S 5S 6S 9D", "KC KD KH 2C 3C 4C 9C", "QC QD QH QS 7H 8H 9H"]


def knock_rummy() -> Table:
    """Knock rummy, three seats, hand dealt: seat 1 to draw (stock top JD, upcard TD)."""
    table = Table(get_ruleset("knock-rummy"), ["Ann", "Bo", "Cy"])
    table.deal(KNOCK_HANDS, "TD", "JD")
    return table


def knock_rummy_drawn() -> Table:
    table = knock_rummy()
    table.do(DrawFromStock(1))
    return table


def knock_rummy_took_discard() -> Table:
    table = knock_rummy()
    table.do(DrawFromDiscard(1))
    return table


def gin(**options: Any) -> Table:
    table = Table(get_ruleset("gin", **options), ["Ann", "Bo"])
    table.deal(["2C 3C 4C 5H 5D 5S 9D TD JD 8S", "7H 8H 9H KC KS KD 6C 6D 6H 4S"], "QC", "KH")
    return table


def gin_passed() -> Table:
    table = gin()
    table.do(PassUpcard(1))
    table.do(PassUpcard(0))
    return table


def gin_drawn() -> Table:
    table = gin_passed()
    table.do(DrawFromStock(1))
    return table


def hoyle(drain: bool = False, restock: bool = False) -> Table:
    table = Table(get_ruleset("hoyle"), ["Ann", "Bo"])
    table.deal(["2H 3H 4H 7S 7D 7C AS 2C 3D 9D", "8H 9H TH KS KD KC AC 4D 6S 9S"], "QC")
    seat = 1
    while drain and table.s.hand is not None and table.s.hand.stock:
        table.draw_and_discard(seat)
        seat = 1 - seat
    if restock:
        table.do(Restock(0))
    return table


def hoyle_drawn() -> Table:
    table = hoyle()
    table.do(DrawFromStock(1))
    return table


def rami() -> Table:
    table = Table(get_ruleset("rami"), ["Ann", "Bo", "Cy"])
    table.deal(["AC 2C 3C 4C 5H 5D 5S", "9H TH JH 2S 3D 7S 8D", "KC QD JS 9C KH 8S 6D"], "4D", "JC")
    table.do(DrawFromStock(1))
    return table


def physical(**extra: Any) -> Table:
    table = Table(get_ruleset("knock-rummy"), ["Ann", "Bo", "Cy"], mode="physical")
    table.do(DealHand(upcard=C("TD"), **extra))
    return table


def physical_took_discard() -> Table:
    table = physical()
    table.do(DrawFromDiscard(1))
    return table


def physical_showdown() -> Table:
    table = physical_took_discard()
    table.do(Knock(1, None))
    return table


def physical_revealed() -> Table:
    table = physical_showdown()
    table.do(RevealHand(0, parse_cards("AS 2S 3S 4S 5S 6S 9D")))
    return table


def recorded() -> Table:
    """A physical game with hand 1 recorded from announced counts: Ann knocked with 5."""
    table = Table(get_ruleset("knock-rummy"), ["Ann", "Bo", "Cy"], mode="physical")
    table.do(RecordHandResult(knocker=0, deadwood={0: 5, 1: 20, 2: 30}))
    return table


def rami_two_hands() -> Table:
    """Knock-rami without re-entry: two hands recorded, everyone still in."""
    table = Table(get_ruleset("rami", reentry=False, joker_value=50), ["Ann", "Bo", "Cy"], mode="physical")
    table.do(RecordHandResult(knocker=1, deadwood={0: 50, 1: 0, 2: 20}))
    table.do(RecordHandResult(knocker=2, deadwood={0: 10, 1: 30, 2: 0}))
    return table


def started() -> Table:
    return Table(get_ruleset("knock-rummy"), ["Ann", "Bo"])


def abandoned() -> Table:
    table = knock_rummy()
    table.do(AbandonGame("fire alarm"))
    return table


CASES: list[tuple[str, Callable[[], Table], Command, str]] = [
    (
        "game_already_started",
        started,
        StartGame(get_ruleset("gin"), (Seat("A"), Seat("B"))),
        "this game has already started",
    ),
    ("game_over", abandoned, DrawFromStock(1), "the game is abandoned"),
    ("invalid_seat", started, AdjustScore(5, Fraction(-10), "slow play"), "there is no seat 5 (seats 0..1)"),
    (
        "not_awaiting_deal",
        knock_rummy,
        DealHand(deck=shuffled_deck(get_ruleset("knock"), 1)),
        "the game is not waiting for a deal (it is playing)",
    ),
    (
        "invalid_deck",
        started,
        DealHand(deck=full_deck()[:51]),
        "the deck must hold each of its 52 cards once (missing: KS; extra or repeated: none)",
    ),
    (
        "invalid_deal",
        lambda: Table(get_ruleset("knock"), ["A", "B"], mode="physical"),
        DealHand(),
        "a physical deal needs the upcard",
    ),
    (
        "wrong_mode",
        knock_rummy,
        RevealHand(0, parse_cards("AS 2S")),
        "a digital game's showdown is automatic; hands are not entered",
    ),
    ("no_hand_in_play", started, DrawFromStock(1), "no hand is being played (the game is awaiting deal)"),
    ("not_your_turn", knock_rummy, DrawFromStock(0), "it is seat 1's turn, not seat 0's"),
    ("no_upcard_offer", knock_rummy, PassUpcard(1), "the first upcard is not on offer"),
    ("upcard_offer_pending", gin, DrawFromStock(1), "seat 1 must first take or pass the upcard"),
    (
        "must_draw_from_stock",
        gin_passed,
        DrawFromDiscard(1),
        "everyone passed the upcard: the first player draws from the stock",
    ),
    (
        "already_drew",
        knock_rummy_drawn,
        DrawFromStock(1),
        "seat 1 has already drawn this turn; discard or knock",
    ),
    ("must_draw_first", knock_rummy, Discard(1, C("9D")), "seat 1 must draw before discarding or knocking"),
    ("stock_empty", lambda: hoyle(drain=True), DrawFromStock(0), "the stock is empty"),
    (
        "discard_pile_empty",
        lambda: hoyle(drain=True, restock=True),
        DrawFromDiscard(0),
        "the discard pile is empty",
    ),
    (
        "card_unavailable",
        physical,
        DrawFromStock(1, C("TD")),
        "TD cannot come from the stock: it is in the discard pile",
    ),
    ("card_not_in_hand", knock_rummy_drawn, Discard(1, C("KS")), "seat 1 does not hold KS"),
    (
        "cannot_discard_taken_card",
        knock_rummy_took_discard,
        Knock(1, C("TD")),
        "seat 1 took TD from the discard pile this turn and may not discard it",
    ),
    (
        "card_required",
        knock_rummy_drawn,
        Knock(1, None),
        "a knock names its face-down discard (or lays down a rum without one)",
    ),
    (
        "knock_not_allowed_yet",
        rami,
        Knock(1, C("JC")),
        "nobody may knock until every player has had a complete turn",
    ),
    (
        "deadwood_too_high_to_knock",
        gin_drawn,
        Knock(1, C("5H")),
        "seat 1 would keep 28 deadwood after discarding 5H; gin-rummy allows knocking with at most 10",
    ),
    (
        "laydown_not_allowed",
        knock_rummy_drawn,
        Knock(1, None, lay_down=True),
        "knock-rummy has no laying down without discarding; knock with a discard",
    ),
    (
        "laydown_not_all_melded",
        hoyle_drawn,
        Knock(1, None, lay_down=True),
        "seat 1 cannot lay down without discarding: 18 deadwood unmelded",
    ),
    ("restock_not_allowed", hoyle, Restock(1), "the stock still has cards"),
    (
        "decline_not_allowed",
        hoyle,
        DeclineDraw(1),
        "the stock still has cards; draw from it or take the discard",
    ),
    (
        "not_in_showdown",
        physical,
        RevealHand(1, parse_cards("AS 2S")),
        "no showdown is pending (the game is playing)",
    ),
    (
        "already_revealed",
        physical_revealed,
        RevealHand(0, parse_cards("AS 2S 3S 4S 5S 6S 9D")),
        "seat 0's hand has already been revealed",
    ),
    (
        "inconsistent_reveal",
        physical_showdown,
        RevealHand(1, parse_cards("AS 2S 3S 4S 5S 6S 9D")),
        "seat 1 must hold TD (taken from the discard pile and not discarded since, or entered earlier), "
        "but the revealed hand lacks it",
    ),
    (
        "invalid_meld",
        physical_showdown,
        RevealHand(0, parse_cards("AS 2S 3S 4S 5S 6S 9D"), (parse_cards("AS 2S 9D"),)),
        "seat 0's declared meld: AS 2S 9D is not a legal set or run (aces are low)",
    ),
    ("not_awaiting_reentry", started, DecideReentry(0, True), "no re-entry decision is pending"),
    (
        "nothing_to_retract",
        started,
        Retract(1, "oops"),
        "only 0 event(s) can be retracted (GameStarted cannot)",
    ),
    ("malformed_command", started, AdjustScore(0, Fraction(-5), " "), "a score adjustment needs a reason"),
    (
        "cannot_retract_deal",
        knock_rummy,
        Retract(1, "redeal"),
        "retracting 1 event(s) would undo hand 1's deal; a digital deal is never retracted, "
        "so a hand cannot be re-dealt",
    ),
    ("invalid_card", lambda: physical_took_discard(), Discard(1, C("X1")), "X1 is not in this game's deck"),
    (
        "invalid_deadwood",
        physical_showdown,
        RecordHandResult(knocker=1, deadwood={0: 500, 1: 0, 2: 3}),
        "seat 0's deadwood 500 is more than a 7-card hand can hold under knock-rummy (70)",
    ),
    (
        "no_such_hand",
        recorded,
        CorrectHand(2, "wrong hand", knocker=0, deadwood={0: 5, 1: 20, 2: 30}),
        "there is no hand 2 to correct (hands 1 to 1 count)",
    ),
    (
        "correction_unchanged",
        recorded,
        CorrectHand(1, "the same again", knocker=0, deadwood={0: 5, 1: 20, 2: 30}),
        "hand 1 already has that result; nothing to correct",
    ),
    (
        "correction_conflict",
        rami_two_hands,
        CorrectHand(1, "Ann held two jokers", knocker=1, deadwood={0: 100, 1: 0, 2: 20}),
        "hand 2 was played by seat 0, seat 1, seat 2, but with hand 1 corrected seat 0 would be out of the "
        "game by then; undo the later hands first, or adjust a score",
    ),
    ("invalid_setup", started, None, ""),  # replaced below: StartGame is decided on no state
]


@pytest.mark.parametrize(
    ("code", "setup", "command", "message"),
    [c for c in CASES if c[2] is not None],
    ids=[c[0] for c in CASES if c[2] is not None],
)
def test_code(code: str, setup: Callable[[], Table], command: Command, message: str) -> None:
    state = setup().s
    with pytest.raises(IllegalMove) as error:
        decide(state, command)
    assert error.value.code == code
    assert error.value.message == message
    assert str(error.value) == message


def test_game_not_started_and_setup_codes() -> None:
    with pytest.raises(IllegalMove) as error:
        decide(None, DrawFromStock(0))
    assert (error.value.code, error.value.message) == (
        "game_not_started",
        "no game has started; the first command must be StartGame",
    )
    with pytest.raises(IllegalMove) as error:
        decide(None, StartGame(get_ruleset("gin"), (Seat("Solo"),)))
    assert (error.value.code, error.value.message) == (
        "invalid_setup",
        "gin-rummy is for 2 to 4 players, not 1",
    )
    # Bot names are the caller's to check (engine.bots.get_bot): the rules never import the bots.
    started = decide(None, StartGame(get_ruleset("gin"), (Seat("Ann"), Seat("Bot", "clever"))))
    assert [type(e).__name__ for e in started] == ["GameStarted"]


def test_unknown_and_malformed_commands_on_the_wire() -> None:
    cases = [
        ({"type": "Shuffle"}, "unknown_command", "unknown command type 'Shuffle'"),
        (
            {"seat": 0},
            "malformed_command",
            "a command needs a 'type' (one of AbandonGame, AdjustScore, CorrectHand, DealHand, "
            "DecideReentry, DeclineDraw, Discard, DrawFromDiscard, DrawFromStock, Knock, PassUpcard, "
            "RecordHandResult, ReplaceSeat, Restock, Retract, RevealHand, StartGame)",
        ),
        ({"type": "Discard", "seat": 0}, "malformed_command", "Discard: missing field 'card'"),
        (
            {"type": "Discard", "seat": "north", "card": "QS"},
            "malformed_command",
            "Discard: bad 'seat': expected a whole number, got 'north'",
        ),
        (
            {"type": "Discard", "seat": 0, "card": "QS", "face": "up"},
            "malformed_command",
            "Discard: unknown field(s) face",
        ),
        (
            {"type": "Discard", "seat": 0, "card": "1Z"},
            "invalid_card",
            "Discard: 'card' is not a card: invalid card '1Z'",
        ),
        (["Discard"], "malformed_command", "a command is an object, not ['Discard']"),
    ]
    for data, code, message in cases:
        with pytest.raises(IllegalMove) as error:
            command_from_dict(data)  # type: ignore[arg-type]
        assert (error.value.code, error.value.message) == (code, message), data
    state = started().s
    with pytest.raises(IllegalMove) as error:
        decide(state, "Discard QS")  # type: ignore[arg-type]
    assert (error.value.code, error.value.message) == ("unknown_command", "unknown command 'Discard QS'")


def test_invalid_showdown_from_the_scoring_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise InvalidShowdown("a showdown needs at least 2 hands, got 1", code="too_few_hands")

    monkeypatch.setattr(engine.showdown, "score_showdown", refuse)
    state = knock_rummy_drawn().s
    with pytest.raises(IllegalMove) as error:
        decide(state, Knock(1, C("JD")))
    assert (error.value.code, error.value.message) == (
        "invalid_showdown",
        "a showdown needs at least 2 hands, got 1",
    )


def test_every_code_is_tested() -> None:
    others = {
        "game_not_started",
        "unknown_command",
        "invalid_showdown",
        "retract_partial",
    }  # tested elsewhere
    tested = {c[0] for c in CASES} | others
    assert tested == set(CODES)


def _state_after(table: Table) -> GameState:
    return table.s


def test_announced_deadwood_is_capped_by_the_hand_size_jokers_included() -> None:
    table = Table(get_ruleset("rami"), ["Ann", "Bo", "Cy"], mode="physical")
    with pytest.raises(IllegalMove) as error:
        decide(table.s, RecordHandResult(knocker=0, deadwood={0: 0, 1: 100, 2: 101}))
    assert (error.value.code, error.value.message) == (
        "invalid_deadwood",
        "seat 2's deadwood 101 is more than a 7-card hand can hold under knock-rami (100)",
    )
    events = decide(table.s, RecordHandResult(knocker=0, deadwood={0: 0, 1: 100, 2: 100}))
    assert [type(e).__name__ for e in events][:2] == ["HandResultRecorded", "HandScored"]


def test_record_result_in_wrong_status() -> None:
    table = physical()
    with pytest.raises(IllegalMove) as error:
        decide(table.s, RecordHandResult(knocker=None, deadwood={0: 1, 1: 2, 2: 3}))
    assert (error.value.code, error.value.message) == (
        "not_awaiting_deal",
        "a result is recorded between hands or at a showdown, not while the game is playing",
    )
