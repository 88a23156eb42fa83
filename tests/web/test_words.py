"""web.words: every event type in words, as the recorder's page and the replay show them."""

from __future__ import annotations

from engine.events import EVENT_TYPES
from web.words import _SENTENCES, card_text, describe, points_text

NAMES = ["Ann", "Bo", "Cy"]


def said(kind: str, **data: object) -> str:
    return describe({"type": kind, "data": data}, NAMES)


def test_every_event_type_has_a_sentence() -> None:
    assert set(_SENTENCES) == set(EVENT_TYPES)


def test_moves_in_words() -> None:
    assert said("HandDealt", hand_number=2, dealer=1, upcard="TD", hands={}) == (
        "Hand 2: Bo dealt; the upcard is 10♦."
    )
    assert said("UpcardPassed", seat=0) == "Ann passed the upcard."
    assert said("CardDrawn", seat=0, source="discard", card="7H") == "Ann took 7♥ from the discard pile."
    assert said("CardDrawn", seat=0, source="stock", card="X1") == "Ann drew joker from the stock."
    assert said("Knocked", seat=2, card="5C", lay_down=False) == "Cy knocked, discarding 5♣ face down."
    assert said("Knocked", seat=2, card=None, lay_down=True) == "Cy laid down a rum without discarding."
    assert said("StockRestocked", seat=1, method="turn_over", order=None) == (
        "Bo turned over the discard pile as a new stock."
    )
    assert said("DrawDeclined", seat=1) == "Bo did not draw; the stock is empty."
    assert said("HandRevealed", seat=1, cards=["AS", "2S"], melds=None) == "Bo showed A♠ 2♠."


def test_results_and_corrections_in_words() -> None:
    assert (
        said(
            "HandResultRecorded",
            hand_number=1,
            dealer=0,
            knocker=None,
            hands=None,
            deadwood={"1": 4, "2": 9, "0": 0},
        )
        == "Hand 1 entered as announced counts, unverified (nobody knocked): Bo 4, Cy 9, Ann 0."
    )
    assert said("HandScored", hand_number=3, outcome="void", points={}) == (
        "Hand 3 is void; the same dealer deals again."
    )
    assert (
        said(
            "HandScored", hand_number=1, outcome="no_knock", knocker=None, points={"0": "5/2"}, verified=False
        )
        == "Hand 1 scored: the stock ran out without a knock. Ann +5/2. (Unverified: announced counts.)"
    )
    assert said("ReentryDecided", seat=1, reenter=True, paid="5", score="99") == (
        "Bo re-entered, paying 5 into the pool."
    )
    assert said("ScoreAdjusted", seat=2, points="-5", reason="slow play") == (
        "Cy's score adjusted by -5 (slow play)."
    )
    assert said("SeatReplaced", seat=0, name="Dee", bot=None) == "Dee took over Ann's seat."
    assert (
        said("SeatReplaced", seat=0, name="Greedy bot", bot="greedy")
        == "The greedy bot took over Ann's seat."
    )
    assert said("Retracted", count=2, reason="") == "Undid the last 2 events."
    assert said("GameAbandoned", reason="fire alarm") == "The game was abandoned (fire alarm)."
    assert said("GameFinished", result={"ranking": [[1, 2], [0]]}) == "The game is over: Bo and Cy win."
    assert (
        said("HandCorrected", hand_number=2, knocker=1, hands=None, deadwood={"0": 4}, reason="Bo knocked")
        == "Hand 2 corrected: Bo knocked, announced counts (Bo knocked)."
    )
    assert describe({"type": "Mystery"}, NAMES) == "Mystery."


def test_cards_and_points() -> None:
    assert [card_text(c) for c in ("QS", "td", "10h", "X2", None)] == ["Q♠", "10♦", "10♥", "joker", "a card"]
    assert [points_text(p) for p in ("28", "-19", "0", "20/3")] == ["+28", "-19", "0", "+20/3"]


def test_a_score_is_written_as_people_write_it() -> None:
    from web.words import score_text

    values = (5, "-3", "7/2", "-1/2", "7/3", "-7/3", None)
    assert [score_text(v) for v in values] == ["5", "-3", "3½", "-½", "2 1/3", "-2 1/3", ""]


def test_a_corrected_hand_is_explained_as_data_then_in_words() -> None:
    from web.corrections import hand_change, word_correction, word_hand_change

    corrected = {"hand_number": 1, "knocker": None, "hands": None, "was_knocker": 2,
                 "was_points": {"0": "-5", "1": "-5", "2": "10"}}  # fmt: skip
    change = hand_change(corrected, {"points": {}, "verified": False})  # now a void hand
    assert change == {
        "code": "hand_corrected",
        "hand": 1,
        "knocker": [2, None],
        "points": [[0, "-5", "0"], [1, "-5", "0"], [2, "10", "0"]],
        "verified": False,
    }
    assert word_hand_change(change, NAMES) == (
        "nobody knocked: the stock ran out (it had been recorded as Cy's knock) — "
        "Ann 0 instead of -5, Bo 0 instead of -5, Cy 0 instead of +10"
    )
    same = hand_change({**corrected, "knocker": 2}, {"points": {"0": "-5", "1": "-5", "2": "10"}})
    assert word_correction(same, NAMES, by="dana") == (
        "Hand 1 corrected by dana: the result was entered again, no score changed"
    )
    unknown = hand_change({**corrected, "was_knocker": None, "knocker": 0}, None)
    assert unknown["points"] == [] and word_hand_change(unknown, NAMES) == (
        "Ann knocked (it had been recorded as a hand without a knock)"
    )
