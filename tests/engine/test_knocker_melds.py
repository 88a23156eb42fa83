"""The gin knocker's melds among tied best arrangements (GameStarted v2's
``knock_arrangement``): ``fewest_layoffs`` for new games, ``first_best`` kept by v1 logs."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given, settings

from engine import (
    DealHand,
    DrawFromDiscard,
    Knock,
    RecordHandResult,
    RevealHand,
    Seat,
    StartGame,
    audit_log,
    decide,
    event_from_dict,
    get_ruleset,
    parse_cards,
    replay,
)
from engine.arrangement import best_arrangement, tied_arrangements
from engine.audit import LogRefused
from engine.cards import Card
from engine.errors import InvalidShowdown
from engine.events import Event, GameStarted, HandDealt, HandScored
from engine.layoffs import best_defence
from engine.rules import FEWEST_LAYOFFS, FIRST_BEST, RuleSet
from engine.scoring import knocker_arrangement, score_showdown
from tests.engine.test_scoring_properties import SETTLEMENT, Hands, showdowns

P = parse_cards
GIN = get_ruleset("gin")
# Found by a search over random dense deals: the first best arrangement melds 2D 3D 4D,
# onto which the defender lays off 5D; 3D 3H 3S leaves the same 9 and takes nothing.
KNOCKER = P("AC QC 2D 3D 4D QD 2H 3H QH 3S")
DEFENDER = P("5C 7C 9C 5D TD JD 4H 2S 7S TS")
HANDS = {0: DEFENDER, 1: KNOCKER}
V1_LOGS = json.loads((Path(__file__).parent / "stored_gin_knock_v1.json").read_text())


def melds_of(arrangement: Any) -> list[str]:
    return [str(meld) for meld in arrangement.melds]


def test_the_knocker_melds_what_leaves_the_defender_nothing_to_lay_off() -> None:
    shown = score_showdown(GIN, HANDS, 1)
    assert melds_of(shown.arrangements[1]) == ["3D 3H 3S", "QC QD QH"]
    assert shown.deadwood == {0: 69, 1: 9}
    assert shown.layoffs[0] == ()
    assert shown.points == {0: Fraction(0), 1: Fraction(60)}
    assert knocker_arrangement(GIN, HANDS, 1)[1] == 0


def test_first_best_keeps_the_arrangement_tie_break_and_its_layoff() -> None:
    shown = score_showdown(GIN, HANDS, 1, knock_arrangement=FIRST_BEST)
    assert shown.arrangements[1] == best_arrangement(KNOCKER, GIN)
    assert melds_of(shown.arrangements[1]) == ["QC QD QH", "2D 3D 4D"]
    assert [(str(layoff.card), layoff.meld_index) for layoff in shown.layoffs[0]] == [("5D", 1)]
    assert shown.deadwood == {0: 64, 1: 9}
    assert shown.points == {0: Fraction(0), 1: Fraction(55)}


def test_declared_melds_are_kept_whatever_the_rule() -> None:
    declared = [best_arrangement(KNOCKER, GIN).melds[0], best_arrangement(KNOCKER, GIN).melds[1]]
    for rule in (FIRST_BEST, FEWEST_LAYOFFS):
        shown = score_showdown(GIN, HANDS, 1, knocker_melds=declared, knock_arrangement=rule)
        assert melds_of(shown.arrangements[1]) == ["QC QD QH", "2D 3D 4D"]
        assert shown.points[1] == 55


def test_an_unknown_rule_is_refused() -> None:
    with pytest.raises(InvalidShowdown) as refused:
        score_showdown(GIN, HANDS, 1, knock_arrangement="fewest")
    assert (refused.value.code, refused.value.message) == (
        "invalid_knock_arrangement",
        "unknown knock_arrangement rule 'fewest'; known: first_best, fewest_layoffs",
    )


def scores(log: list[Event]) -> tuple[Fraction, ...]:
    return replay(log).scores


@pytest.mark.parametrize("mode", ["digital", "physical"])
def test_a_pinned_v1_log_replays_and_audits_to_its_scores(mode: str) -> None:
    """Logs written by the engine before v2 (tests/engine/stored_gin_knock_v1.json)."""
    stored = V1_LOGS[mode]
    assert stored[0]["schema_version"] == 1
    log = [event_from_dict(item) for item in stored]
    scored = log[-1]
    assert isinstance(scored, HandScored) and scored.points == {1: Fraction(55), 0: Fraction(0)}
    assert scores(log) == (Fraction(0), Fraction(55))
    assert audit_log(log).scores == (Fraction(0), Fraction(55))
    # The same log claiming the new rule is not what the rules write: its hand is rescored.
    assert isinstance(log[0], GameStarted)
    claimed = [dataclasses.replace(log[0], knock_arrangement=FEWEST_LAYOFFS), *log[1:]]
    with pytest.raises(LogRefused) as refused:
        audit_log(claimed)
    assert (refused.value.code, refused.value.index) == ("rescored", len(log) - 1)
    assert "points.1: recorded '55', the rules give '60'" in refused.value.message


def play(mode: str) -> list[Event]:
    """The pinned logs' game, started now: the same moves, under the current rule."""
    log = decide(None, StartGame(GIN, (Seat("Ann"), Seat("Bo")), mode, 0))
    if mode == "digital":
        dealt = event_from_dict(V1_LOGS["digital"][1])
        assert isinstance(dealt, HandDealt)
        steps: list[Any] = [DealHand(deck=dealt.deck), DrawFromDiscard(1), Knock(1, Card.parse("KS"))]
    else:
        steps = [RecordHandResult(knocker=1, hands={0: DEFENDER, 1: KNOCKER})]
    for command in steps:
        log += decide(replay(log), command)
    return log


@pytest.mark.parametrize("mode", ["digital", "physical"])
def test_a_new_game_starts_as_v2_and_scores_the_fewest_layoffs(mode: str) -> None:
    log = play(mode)
    started = log[0]
    assert isinstance(started, GameStarted) and started.knock_arrangement == FEWEST_LAYOFFS
    assert started.to_dict()["schema_version"] == 2
    assert scores(log) == (Fraction(0), Fraction(60))
    stored = [event_from_dict(json.loads(json.dumps(e.to_dict()))) for e in log]
    assert audit_log(stored).scores == scores(log)
    assert replay(log).to_dict()["knock_arrangement"] == FEWEST_LAYOFFS
    assert "knock_arrangement" not in replay([event_from_dict(V1_LOGS[mode][0])]).to_dict()


def test_a_physical_knocker_who_declares_melds_keeps_them() -> None:
    log = decide(None, StartGame(GIN, (Seat("Ann"), Seat("Bo")), "physical", 0))
    log += decide(replay(log), DealHand(upcard=Card.parse("3S")))
    log += decide(replay(log), DrawFromDiscard(1))
    log += decide(replay(log), Knock(1, Card.parse("KS")))
    for declared, points in [((P("QC QD QH"), P("2D 3D 4D")), 55), (None, 60)]:
        revealed = log + decide(replay(log), RevealHand(1, KNOCKER, declared))
        revealed += decide(replay(revealed), RevealHand(0, DEFENDER))
        assert scores(revealed) == (Fraction(0), Fraction(points))


def layoff_points(ruleset: RuleSet, hands: Hands, knocker: int, melds: Any) -> int:
    return sum(
        best_arrangement(held, ruleset).deadwood - best_defence(held, melds, ruleset).deadwood
        for seat, held in hands.items()
        if seat != knocker
    )


GIN_RULES = [
    get_ruleset("gin-rummy"),
    get_ruleset("gin-rummy", knock_max_deadwood=None),
    get_ruleset("gin-rummy", jokers=2, knock_max_deadwood=30),
]


@settings(max_examples=150, deadline=None)
@given(showdowns(GIN_RULES, knock=True))
def test_fewest_layoffs_never_leaves_more_than_first_best(case: tuple[RuleSet, Hands, int | None]) -> None:
    ruleset, hands, knocker = case
    assert knocker is not None
    best = best_arrangement(hands[knocker], ruleset)
    limit = ruleset.knock_max_deadwood
    if limit is not None and best.deadwood > limit:
        return
    new = score_showdown(ruleset, hands, knocker)
    old = score_showdown(ruleset, hands, knocker, knock_arrangement=FIRST_BEST)
    assert old.arrangements[knocker] == best
    assert new.deadwood[knocker] == old.deadwood[knocker] == best.deadwood
    tied = tied_arrangements(hands[knocker], ruleset)
    assert new.arrangements[knocker] in tied
    new_points = layoff_points(ruleset, hands, knocker, new.arrangements[knocker].melds)
    old_points = layoff_points(ruleset, hands, knocker, best.melds)
    assert new_points <= old_points
    assert new_points == min(layoff_points(ruleset, hands, knocker, other.melds) for other in tied)
    # the choice changes only for strictly fewer points (ties keep the first best)
    assert (new.arrangements[knocker] != best) == (new_points < old_points)
    event("fewer layoffs" if new_points < old_points else "same")
    if best.deadwood == 0:
        assert new == old


@settings(max_examples=60, deadline=None)
@given(showdowns(SETTLEMENT, knock=True))
def test_the_rule_changes_nothing_without_layoffs(case: tuple[RuleSet, Hands, int | None]) -> None:
    ruleset, hands, knocker = case
    assert score_showdown(ruleset, hands, knocker) == score_showdown(
        ruleset, hands, knocker, knock_arrangement=FIRST_BEST
    )
