"""A director's correction of an earlier hand (``CorrectHand`` -> ``HandCorrected``, the
hand's new ``HandScored``, a ``GameFinished`` when the game is over), and adjustments
to a finished game: re-scoring from the hand on in every preset, the game's end moving
either way, conflicts with later entries, retraction, and logs that forge a correction."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from random import Random
from typing import Any

import pytest

from engine import (
    AdjustScore,
    Card,
    CorrectHand,
    DealHand,
    DecideReentry,
    DrawFromDiscard,
    Event,
    GameFinished,
    GameState,
    HandCorrected,
    HandScored,
    IllegalMove,
    InvalidEvent,
    Knock,
    RecordHandResult,
    Retract,
    RevealHand,
    audit_log,
    decide,
    get_ruleset,
    parse_cards,
    replay,
    view,
)
from engine.audit import LogRefused
from engine.rules import RuleSet
from tests.support.table import Table, points

REASON = "misread at the table"


def counts(table: Table, knocker: int | None, *values: int) -> list[Event]:
    """Record the next hand from announced counts, ``values`` for the seats still in."""
    seats = [s for s, out in enumerate(table.s.tally.eliminated) if not out]
    return table.do(RecordHandResult(knocker=knocker, deadwood=dict(zip(seats, values, strict=True))))


def correct(table: Table, number: int, knocker: int | None, deadwood: dict[int, int]) -> list[Event]:
    return table.do(CorrectHand(number, REASON, knocker=knocker, deadwood=deadwood))


def types(events: list[Event]) -> list[str]:
    return [e.TYPE for e in events]


def by_seat(values: dict[int, Any]) -> list[str]:
    return [str(values[seat]) for seat in sorted(values)]


# --- the worked example: knock-rummy, three hands ---------------------------------------


def three_hands() -> Table:
    table = Table(get_ruleset("knock-rummy", hands=3), ["Ann", "Bo", "Cy"], mode="physical")
    counts(table, 0, 5, 10, 20)  # Ann knocked and won: +20, Bo -5, Cy -15
    counts(table, 2, 8, 12, 3)  # Cy knocked and won: Ann -5, Bo -9, Cy +14
    counts(table, 0, 2, 9, 6)  # Ann knocked and won: +11, Bo -7, Cy -4
    return table


def test_a_finished_game_is_corrected_and_scored_again() -> None:
    table = three_hands()
    assert table.s.status == "finished"
    assert points(table.s.scores) == ["26", "-21", "-5"]
    assert table.s.result is not None and table.s.result.ranking == ((0,), (2,), (1,))
    events = correct(table, 1, 1, {0: 5, 1: 3, 2: 20})  # Bo knocked with 3, not Ann
    assert types(events) == ["HandCorrected", "HandScored", "GameFinished"]
    corrected = events[0]
    assert isinstance(corrected, HandCorrected)
    assert (corrected.hand_number, corrected.knocker, corrected.was_knocker) == (1, 1, 0)
    assert by_seat(corrected.was_points) == ["20", "-5", "-15"]
    rescored = events[1]
    assert isinstance(rescored, HandScored) and rescored.hand_number == 1 and not rescored.verified
    assert by_seat(rescored.points) == ["-2", "19", "-17"]
    state = table.s
    assert points(state.scores) == ["4", "3", "-7"]  # hands 2 and 3 keep their points
    assert [r.hand_number for r in state.tally.results] == [1, 2, 3]
    assert by_seat(state.tally.results[0].points) == ["-2", "19", "-17"]
    assert state.status == "finished" and state.result is not None
    assert state.result.ranking == ((0,), (1,), (2,))  # Bo now ahead of Cy
    assert state.tally.corrections == ((1, REASON),) and state.tally.uncounted == ()
    assert audit_log(table.log) == state
    public = view(state).to_dict()
    assert public["scores"] == ["4", "3", "-7"] and public["result"]["places"] == [1, 2, 3]


def test_a_correction_between_hands_keeps_the_game_going() -> None:
    table = Table(get_ruleset("knock-rummy", hands=3), ["Ann", "Bo", "Cy"], mode="physical")
    counts(table, 1, 5, 10, 20)  # Ann lowest: +30, Bo -15 (10 + the penalty), Cy -15
    counts(table, 2, 8, 12, 3)  # Ann -5, Bo -9, Cy +14
    events = correct(table, 1, 1, {0: 15, 1: 10, 2: 20})  # Bo was lowest after all: +15
    assert types(events) == ["HandCorrected", "HandScored"]
    assert table.s.status == "awaiting_deal" and table.s.tally.hands_dealt == 2
    assert points(table.s.scores) == ["-10", "6", "4"]
    counts(table, 0, 2, 9, 6)  # hand 3 follows as usual
    assert table.s.status == "finished"
    assert [r.hand_number for r in table.s.tally.results] == [1, 2, 3]
    assert audit_log(table.log) == table.s


def test_final_hands_replace_announced_counts_and_are_verified() -> None:
    table = three_hands()
    hands = {
        0: parse_cards("AS 2S 3S 4S 5S 6S 9D"),  # 9
        1: parse_cards("KC KD KH 2C 3C 4C 9C"),  # 9
        2: parse_cards("QC QD QH QS 7H 8H 9H"),  # 0
    }
    events = table.do(CorrectHand(1, "the counts were wrong", knocker=1, hands=hands))
    scored = events[1]
    assert isinstance(scored, HandScored) and scored.verified and scored.outcome == "knock_lost"
    assert scored.detail["hands"]["2"] == ["QC", "QD", "QH", "QS", "7H", "8H", "9H"]
    assert by_seat(scored.deadwood) == ["9", "9", "0"]
    assert audit_log(table.log) == table.s


def test_a_hand_entered_move_by_move_is_corrected_too() -> None:
    table = Table(get_ruleset("knock-rummy", hands=2), ["Ann", "Bo", "Cy"], mode="physical")
    table.do(DealHand(upcard=Card.parse("TD")))
    table.do(DrawFromDiscard(1))
    table.do(Knock(1, None))
    shown = {1: "TD 2S 3S 4S KD KH KC", 2: "QC QD QH QS 7H 8H 9H", 0: "AS AH AC 5S 6S 7S 9D"}
    for seat, cards in shown.items():
        table.do(RevealHand(seat, parse_cards(cards)))
    assert by_seat(table.s.tally.results[0].points) == ["-9", "-20", "29"]
    # the table's reveals were mixed up: correct the hand from the counts announced
    correct(table, 1, 1, {0: 9, 1: 0, 2: 10})
    assert points(table.s.scores) == ["-34", "69", "-35"]  # a rum: 9+25 and 10+25
    assert audit_log(table.log) == table.s


# --- the game's end moves ----------------------------------------------------------------


def hoyle() -> Table:
    """knock-rummy-hoyle to 100, three players."""
    return Table(get_ruleset("hoyle"), ["Ann", "Bo", "Cy"], mode="physical")


def test_a_correction_that_reaches_the_target_ends_the_game_there() -> None:
    table = hoyle()
    counts(table, 0, 0, 30, 30)  # Ann's rum: +110
    # (the game is over at once; start again with a smaller hand 1)
    table = hoyle()
    counts(table, 0, 2, 30, 30)  # Ann +56
    counts(table, 1, 20, 3, 20)  # Bo +34
    counts(table, 2, 10, 10, 1)  # Cy +18
    assert table.s.status == "awaiting_deal"
    events = correct(table, 1, 0, {0: 0, 1: 30, 2: 30})  # Ann had a rum after all: +110
    assert types(events) == ["HandCorrected", "HandScored", "GameFinished"]
    state = table.s
    assert state.status == "finished" and state.tally.uncounted == (2, 3)
    assert [r.hand_number for r in state.tally.results] == [1]
    assert points(state.scores) == ["110", "-55", "-55"] and state.tally.hands_scored == 1
    assert state.result is not None and state.result.winners == (0,) and state.result.hands_played == 1
    assert audit_log(table.log) == state
    with pytest.raises(IllegalMove) as error:
        correct(table, 3, 2, {0: 10, 1: 10, 2: 0})
    assert (error.value.code, error.value.message) == (
        "no_such_hand",
        "there is no hand 3 to correct (hands 1 to 1 count)",
    )
    # a second correction moves the end back: hands 2 and 3 count again
    correct(table, 1, 0, {0: 2, 1: 30, 2: 30})
    state = table.s
    assert state.status == "awaiting_deal" and state.tally.uncounted == () and state.result is None
    assert [r.hand_number for r in state.tally.results] == [1, 2, 3]
    assert audit_log(table.log) == state


def test_a_correction_below_the_target_reopens_a_finished_game() -> None:
    table = hoyle()
    counts(table, 0, 2, 30, 30)  # Ann +56
    counts(table, 0, 1, 30, 20)  # Ann +48: 104, the game is over
    assert table.s.status == "finished"
    events = correct(table, 2, 0, {0: 1, 1: 30, 2: 1})  # Cy tied Ann: Ann steps aside
    assert types(events) == ["HandCorrected", "HandScored"]
    state = table.s
    assert state.status == "awaiting_deal" and state.result is None
    assert points(state.scores) == ["56", "-57", "1"]
    counts(table, 1, 30, 0, 30)  # play on: Bo's rum
    assert table.s.status == "awaiting_deal"
    assert audit_log(table.log) == table.s


def test_hands_recorded_after_the_end_count_after_adjustments_too() -> None:
    table = hoyle()
    counts(table, 0, 2, 30, 30)  # Ann 56
    table.do(AdjustScore(1, Fraction(-5), "slow play"))
    counts(table, 1, 20, 3, 20)  # Bo +34
    correct(table, 1, 0, {0: 0, 1: 30, 2: 30})  # Ann 110: over after hand 1
    state = table.s
    assert state.tally.uncounted == (2,)
    assert points(state.scores) == ["110", "-60", "-55"]  # the adjustment still counts
    assert state.result is not None and state.result.ranking == ((0,), (2,), (1,))
    assert audit_log(table.log) == state


# --- knock-rami: eliminations and re-entry -------------------------------------------------


def rami(**options: Any) -> Table:
    rules = get_ruleset("rami", joker_value=50, **options)
    return Table(rules, ["Ann", "Bo", "Cy"], mode="physical", stake=10)


def test_rami_a_correction_changes_who_is_out_and_who_wins() -> None:
    table = rami(reentry=False)
    counts(table, 1, 50, 0, 20)  # 50, -10, 20
    counts(table, 2, 40, 30, 0)  # 90, 20, 10
    assert table.s.status == "awaiting_deal"
    events = correct(table, 2, 2, {0: 60, 1: 120, 2: 0})  # 110 and 110: both out, Cy survives
    assert types(events) == ["HandCorrected", "HandScored", "GameFinished"]
    state = table.s
    assert state.tally.eliminated == (True, True, False)
    assert state.result is not None and state.result.winners == (2,)
    assert points(state.result.points) == ["-10", "-10", "20"]
    correct(table, 2, 2, {0: 40, 1: 120, 2: 0})  # only Bo out: Ann and Cy play on
    state = table.s
    assert state.status == "awaiting_deal" and state.tally.eliminated == (False, True, False)
    assert state.active_seats == (0, 2)
    assert audit_log(table.log) == state


def test_rami_a_reentry_is_paid_and_scored_again() -> None:
    table = rami()
    counts(table, 1, 100, 0, 10)  # Ann out; Bo -10, Cy 10
    table.do(DecideReentry(0, True))  # pays 15 of 30; back at 10, the highest still in
    counts(table, 2, 20, 30, 0)
    assert points(table.s.scores) == ["30", "20", "0"]
    correct(table, 1, 1, {0: 100, 1: 0, 2: 40})  # Cy had 40: the highest still in is 40
    state = table.s
    assert points(state.scores) == ["60", "20", "30"]
    assert points(state.tally.paid) == ["25", "10", "10"] and state.tally.pool == 45
    assert audit_log(table.log) == state


def test_rami_a_correction_later_entries_contradict_is_refused() -> None:
    table = rami()
    counts(table, 1, 100, 0, 10)
    table.do(DecideReentry(0, False))
    counts(table, 2, 30, 0)  # Bo and Cy play on
    before = table.s
    with pytest.raises(IllegalMove) as error:
        correct(table, 1, 1, {0: 90, 1: 0, 2: 10})  # Ann was never out...
    assert error.value.code == "correction_conflict"
    assert error.value.message == (
        "seat 0 decided on re-entry after a hand, but with hand 1 corrected no re-entry is due then; "
        "undo the later hands first, or adjust a score"
    )
    assert table.s is before


# --- every preset: a correction is the game as if the hand had been entered right ----------

PRESETS = ["knock-rummy", "knock-rummy-hoyle", "knock-rami", "gin-rummy"]


def _rules(preset: str) -> RuleSet:
    """Short games, so that a correction often moves their end or an elimination."""
    if preset == "knock-rami":
        return get_ruleset(preset, reentry=False, elimination_score=60)
    if preset == "knock-rummy":
        return get_ruleset(preset, hands=4)
    return get_ruleset(preset, target_score=60 if preset == "knock-rummy-hoyle" else 40)


def _entry(rng: Random, rs: RuleSet, seats: list[int]) -> tuple[int | None, dict[int, int]]:
    knocker = rng.choice([*seats, None]) if rng.random() < 0.9 else None
    most = rs.max_deadwood(len(seats))
    deadwood = {s: rng.randint(0, min(most, 45)) for s in seats}
    if knocker is not None and rs.knock_max_deadwood is not None:
        deadwood[knocker] = min(deadwood[knocker], rs.knock_max_deadwood)
    return knocker, deadwood


def _record(rs: RuleSet, players: int, entries: list[tuple[int | None, dict[int, int]]]) -> Table | str:
    """A game with ``entries`` recorded in order, as far as the rules take them (stopping
    when the game ends); the refusal's code when an entry does not fit."""
    table = Table(rs, ["Ann", "Bo", "Cy", "Di"][:players], mode="physical", stake=4)
    for knocker, deadwood in entries:
        if table.s.status == "finished":
            break
        try:
            table.do(RecordHandResult(knocker=knocker, deadwood=deadwood))
        except IllegalMove as exc:
            return exc.code
    return table


def _outcome(state: GameState) -> dict[str, Any]:
    d = state.to_dict()
    keys = ("status", "scores", "hands_won", "eliminated", "pool", "paid", "results", "result")
    return {k: d[k] for k in keys}


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", range(20))
def test_a_corrected_game_is_the_game_entered_right(preset: str, seed: int) -> None:
    rng = Random(f"{preset}-{seed}")
    rs = _rules(preset)
    players = 2 if preset == "gin-rummy" else 3
    entries: list[tuple[int | None, dict[int, int]]] = []
    table = Table(rs, ["Ann", "Bo", "Cy"][:players], mode="physical", stake=4)
    while len(entries) < 5 and table.s.status == "awaiting_deal":
        seats = [s for s, out in enumerate(table.s.tally.eliminated) if not out]
        knocker, deadwood = _entry(rng, rs, seats)
        try:
            table.do(RecordHandResult(knocker=knocker, deadwood=deadwood))
        except IllegalMove:
            continue  # e.g. a knock-rami knock of the first round: draw again
        entries.append((knocker, deadwood))
    number = rng.randint(1, len(entries))
    seats = sorted(entries[number - 1][1])
    knocker, deadwood = _entry(rng, rs, seats)
    right = [*entries[: number - 1], (knocker, deadwood), *entries[number:]]
    expected = _record(rs, players, right)
    try:
        correct(table, number, knocker, deadwood)
    except IllegalMove as exc:
        if exc.code == "correction_unchanged":
            return
        assert isinstance(expected, str), exc.message  # refused only where the right entries do not fit
        assert exc.code in ("correction_conflict", expected)
        return
    assert not isinstance(expected, str), expected
    assert _outcome(table.s) == _outcome(expected.s)
    assert audit_log(table.log) == table.s


# --- adjustments to a finished game ------------------------------------------------------


def test_a_finished_game_is_adjusted_and_its_result_given_again() -> None:
    table = three_hands()
    events = table.do(AdjustScore(0, Fraction(-70), "a misdeal penalty"))
    assert types(events) == ["ScoreAdjusted", "GameFinished"]
    state = table.s
    assert state.status == "finished" and points(state.scores) == ["-44", "-21", "-5"]
    assert state.result is not None and state.result.ranking == ((2,), (1,), (0,))
    with pytest.raises(IllegalMove) as error:
        table.do(Retract(1, "too harsh"))  # the result alone cannot be undone
    assert error.value.code == "retract_partial"
    table.do(Retract(2, "too harsh"))
    assert table.s.status == "finished" and points(table.s.scores) == ["26", "-21", "-5"]
    assert table.s.result is not None and table.s.result.ranking == ((0,), (2,), (1,))
    assert audit_log(table.log) == table.s


def test_a_finished_digital_game_is_adjusted_but_its_hands_are_not_corrected() -> None:
    table = Table(get_ruleset("knock-rummy", hands=1), ["Ann", "Bo", "Cy"])
    hands = ["AS 2S 3S 4S 5S 6S 9D", "KC KD KH 2C 3C 4C 9C", "QC QD QH QS 7H 8H 9H"]
    table.deal(hands, "TD", "JD")
    table.do(DrawFromDiscard(1))
    table.do(Knock(1, Card.parse("9D")))  # Bo: A-6 of spades and TD
    assert table.s.status == "finished"
    with pytest.raises(IllegalMove) as error:
        correct(table, 1, 1, {0: 9, 1: 10, 2: 0})
    assert (error.value.code, error.value.message) == (
        "wrong_mode",
        "a digital game's hands come from its moves and cannot be corrected; adjust a score instead",
    )
    events = table.do(AdjustScore(1, Fraction(5), "a correction"))
    assert types(events) == ["ScoreAdjusted", "GameFinished"]
    assert audit_log(table.log) == table.s


# --- when a correction is refused -------------------------------------------------------


def test_no_correction_while_a_hand_is_on_or_once_abandoned() -> None:
    table = Table(get_ruleset("knock-rummy"), ["Ann", "Bo", "Cy"], mode="physical")
    counts(table, 1, 5, 10, 20)
    table.do(DealHand(upcard=Card.parse("TD")))
    with pytest.raises(IllegalMove) as error:
        correct(table, 1, 0, {0: 5, 1: 10, 2: 20})
    assert (error.value.code, error.value.message) == (
        "not_awaiting_deal",
        "a hand is corrected between hands or once the game is over, not while the game is playing",
    )
    with pytest.raises(IllegalMove) as error:
        table.do(CorrectHand(1, " ", knocker=0, deadwood={0: 5, 1: 10, 2: 20}))
    assert error.value.code == "not_awaiting_deal"  # the game's state is checked first
    table.do(Retract(1, "not dealt yet"))
    with pytest.raises(IllegalMove) as error:
        table.do(CorrectHand(1, " ", knocker=0, deadwood={0: 5, 1: 10, 2: 20}))
    assert (error.value.code, error.value.message) == ("malformed_command", "a correction needs a reason")
    for bad, code in (
        (CorrectHand(1, REASON, knocker=0, deadwood={0: 5, 1: 10}), "invalid_seat"),
        (CorrectHand(1, REASON, knocker=5, deadwood={0: 5, 1: 10, 2: 20}), "invalid_seat"),
        (CorrectHand(1, REASON, knocker=0), "malformed_command"),
        (CorrectHand(1, REASON, knocker=0, deadwood={0: 5, 1: 10, 2: 900}), "invalid_deadwood"),
        (CorrectHand(0, REASON, knocker=0, deadwood={0: 5, 1: 10, 2: 20}), "no_such_hand"),
    ):
        with pytest.raises(IllegalMove) as error:
            table.do(bad)
        assert error.value.code == code, bad
    from engine import AbandonGame

    table.do(AbandonGame("fire alarm"))
    with pytest.raises(IllegalMove) as error:
        correct(table, 1, 0, {0: 5, 1: 10, 2: 20})
    assert error.value.code == "game_over"
    with pytest.raises(IllegalMove) as error:
        table.do(AdjustScore(0, Fraction(1), "late"))
    assert error.value.code == "game_over"


def test_a_correction_is_retracted_whole() -> None:
    table = Table(get_ruleset("knock-rummy", hands=3), ["Ann", "Bo", "Cy"], mode="physical")
    counts(table, 1, 5, 10, 20)
    counts(table, 2, 8, 12, 3)
    before = table.s
    correct(table, 1, 0, {0: 5, 1: 10, 2: 20})
    with pytest.raises(IllegalMove) as error:
        table.do(Retract(1, "oops"))
    assert error.value.code == "retract_partial"
    table.do(Retract(2, "the first entry was right"))
    after = table.s.to_dict()
    assert after.pop("retractions") == [{"count": 2, "reason": "the first entry was right"}]
    assert after.pop("version") == before.version + 3
    expected = before.to_dict()
    expected.pop("retractions"), expected.pop("version")
    assert after == expected
    assert table.s.tally.corrections == ()
    assert audit_log(table.log) == table.s


# --- forged corrections ---------------------------------------------------------------------


def _corrected_log() -> list[Event]:
    table = three_hands()
    correct(table, 1, 1, {0: 5, 1: 3, 2: 20})
    return list(table.log)


def test_a_correction_forged_in_the_log_is_refused_on_replay() -> None:
    log = _corrected_log()
    at = next(i for i, e in enumerate(log) if isinstance(e, HandCorrected))
    corrected = log[at]
    assert isinstance(corrected, HandCorrected)
    lies = {
        "was": dataclasses.replace(corrected, was_points={0: Fraction(1), 1: Fraction(-1), 2: Fraction(0)}),
        "hand": dataclasses.replace(corrected, hand_number=7),
        "seat": dataclasses.replace(corrected, knocker=6),
    }
    for name, forged in lies.items():
        with pytest.raises(InvalidEvent) as error:
            replay([*log[:at], forged, *log[at + 1 :]])
        assert error.value.code in ("forged_correction", "forged_seat"), name
    # another event where the corrected hand's new score belongs
    with pytest.raises(InvalidEvent) as error:
        replay([*log[: at + 1], log[-1]])
    assert error.value.code == "forged_correction"
    scored = log[at + 1]
    assert isinstance(scored, HandScored)
    with pytest.raises(InvalidEvent) as error:
        replay([*log[: at + 1], dataclasses.replace(scored, hand_number=2), *log[at + 2 :]])
    assert error.value.code == "forged_correction"


def test_the_audit_decides_a_correction_again() -> None:
    log = _corrected_log()
    at = next(i for i, e in enumerate(log) if isinstance(e, HandCorrected))
    scored = log[at + 1]
    assert isinstance(scored, HandScored)
    forged = dataclasses.replace(scored, points={0: Fraction(99), 1: Fraction(-50), 2: Fraction(-49)})
    with pytest.raises(LogRefused) as error:
        audit_log([*log[: at + 1], forged, *log[at + 2 :]])
    assert (error.value.code, error.value.index) == ("rescored", at + 1)
    finished = log[at + 2]
    assert isinstance(finished, GameFinished)
    with pytest.raises(LogRefused) as error:
        audit_log(log[: at + 2])
    assert (error.value.code, error.value.index) == ("event_missing", at + 2)
    # every event survives its stored form
    stored = [json.loads(json.dumps(e.to_dict())) for e in log]
    from engine import event_from_dict

    assert audit_log([event_from_dict(s) for s in stored]) == replay(log)


def test_decide_does_not_change_the_state_it_is_given() -> None:
    table = three_hands()
    state = table.s
    snapshot = state.to_dict()
    decide(state, CorrectHand(2, REASON, knocker=2, deadwood={0: 8, 1: 2, 2: 3}))
    assert state.to_dict() == snapshot


def test_the_games_end_is_checked_after_a_void_hand_too() -> None:
    """As a corrected game is scored again: an adjustment that reaches gin's target
    during a hand ends the game after that hand, even when the hand is void."""
    from engine import PassUpcard, shuffled_deck

    table = Table(get_ruleset("gin"), ["Ann", "Bo"])
    table.do(DealHand(deck=shuffled_deck(table.s.ruleset, seed=11)))
    table.do(AdjustScore(0, Fraction(100), "the points of an earlier game"))
    table.do(PassUpcard(1))
    table.do(PassUpcard(0))
    seat = 1
    while table.s.status == "playing":
        table.draw_and_discard(seat)
        seat = 1 - seat
    assert table.s.tally.results[-1].outcome == "void"
    assert table.s.status == "finished" and table.s.result is not None and table.s.result.winners == (0,)
