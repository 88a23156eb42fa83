"""Rule presets as data: lookup by name and alias, option overrides, validation."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.rules import ALIASES, PRESETS, InvalidRuleSet, RuleSet, find_preset, get_ruleset


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "knock-rummy",
            {
                "max_players": 5,
                "jokers": 0,
                "scoring": "settlement",
                "knocker_loss": "penalty",
                "rum_bonus_for": "knocker",
                "stock_exhausted": "end_hand",
                "game_end": "hands",
                "knock_timing": "any_turn",
                "rum_without_discard": False,
                "knock_max_deadwood": None,
            },
        ),
        (
            "knock-rummy-hoyle",
            {
                "max_players": 6,
                "jokers": 0,
                "scoring": "settlement",
                "knocker_loss": "penalty_each_lower",
                "rum_bonus_for": "any_player",
                "stock_exhausted": "turn_over",
                "rum_without_discard": True,
                "next_dealer": "winner_if_two",
                "game_end": "target_score",
                "target_score": 100,
            },
        ),
        (
            "knock-rami",
            {
                "max_players": 5,
                "jokers": 2,
                "joker_value": 25,
                "scoring": "cumulative",
                "knock_timing": "after_first_round",
                "game_end": "elimination",
                "zero_deadwood_bonus": 10,
                "elimination_score": 100,
                "reentry": True,
            },
        ),
        (
            "gin-rummy",
            {
                "max_players": 4,
                "jokers": 0,
                "scoring": "gin",
                "knock_max_deadwood": 10,
                "stock_exhausted": "void_hand",
                "stock_reserve": 2,
                "first_upcard": "offer",
                "next_dealer": "winner",
                "gin_bonus": 25,
                "undercut_bonus": 25,
                "undercut_on_tie": True,
                "game_bonus": 100,
                "line_bonus": 25,
                "shutout_bonus": 100,
                "match_target": 500,
            },
        ),
    ],
)
def test_presets(name: str, expected: dict[str, Any]) -> None:
    ruleset = get_ruleset(name)
    assert ruleset.preset == name
    options = ruleset.options()
    for key, value in expected.items():
        assert options[key] == value, key


@pytest.mark.parametrize(
    ("name", "deal"),
    [
        ("knock-rummy", {2: 10, 3: 7, 4: 7, 5: 7}),
        ("knock-rummy-hoyle", {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}),
        ("knock-rami", {2: 10, 3: 7, 4: 7, 5: 7}),
        ("gin-rummy", {2: 10, 3: 7, 4: 7}),
    ],
)
def test_cards_per_player(name: str, deal: dict[int, int]) -> None:
    ruleset = get_ruleset(name)
    assert {players: ruleset.cards_per_player(players) for players in deal} == deal
    with pytest.raises(InvalidRuleSet, match=f"{name} is for 2 to {max(deal)} players, not {max(deal) + 1}"):
        ruleset.cards_per_player(max(deal) + 1)
    with pytest.raises(InvalidRuleSet):
        ruleset.cards_per_player(1)


def test_every_preset_is_tested() -> None:
    assert set(PRESETS) == {"knock-rummy", "knock-rummy-hoyle", "knock-rami", "gin-rummy"}


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_aliases(alias: str) -> None:
    assert get_ruleset(alias) == get_ruleset(ALIASES[alias])


@pytest.mark.parametrize(
    ("spelling", "preset"),
    [
        ("GIN", "gin-rummy"),
        ("Knock Rummy", "knock-rummy"),
        ("knock_rami", "knock-rami"),
        (" hoyle ", "knock-rummy-hoyle"),
    ],
)
def test_find_preset_normalises(spelling: str, preset: str) -> None:
    assert find_preset(spelling) == preset


def test_unknown_preset() -> None:
    with pytest.raises(
        InvalidRuleSet, match="unknown rule preset 'canasta'; known presets: gin-rummy, knock-rami"
    ):
        find_preset("canasta")


def test_overrides() -> None:
    ruleset = get_ruleset("knock-rummy", knocker_loss="double", rum_bonus=30, undercut_on_tie=False)
    assert (ruleset.knocker_loss, ruleset.rum_bonus, ruleset.undercut_on_tie) == ("double", 30, False)
    assert ruleset.preset == "knock-rummy"
    assert ruleset != get_ruleset("knock-rummy")


def test_six_player_knock_rummy_override() -> None:
    ruleset = get_ruleset("knock-rummy", max_players=6, cards_dealt={2: 10, 3: 7, 4: 7, 5: 6, 6: 6})
    assert ruleset.cards_per_player(6) == 6


def test_replace_keeps_preset_and_validates() -> None:
    gin = get_ruleset("gin")
    assert gin.replace(undercut_on_tie=False).undercut_on_tie is False
    assert gin.replace(undercut_on_tie=False).knock_max_deadwood == 10
    with pytest.raises(InvalidRuleSet, match="unknown option 'colour'"):
        gin.replace(colour="red")


def test_unknown_option_is_an_error() -> None:
    with pytest.raises(InvalidRuleSet, match="unknown option 'knock_penalty' for knock-rummy"):
        get_ruleset("knock-rummy", knock_penalty=5)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"knocker_loss": "triple"},
            "option 'knocker_loss' must be one of penalty, double, penalty_each_lower",
        ),
        ({"rum_bonus_for": "nobody"}, "option 'rum_bonus_for' must be one of knocker, any_player"),
        ({"scoring": "golf"}, "option 'scoring' must be one of"),
        ({"undercut_on_tie": "yes"}, "option 'undercut_on_tie' must be true or false"),
        ({"undercut_on_tie": 1}, "option 'undercut_on_tie' must be true or false"),
        ({"rum_bonus": "25"}, "option 'rum_bonus' must be a whole number"),
        ({"rum_bonus": True}, "option 'rum_bonus' must be a whole number"),
        ({"rum_bonus": 2.5}, "option 'rum_bonus' must be a whole number"),
        ({"rum_bonus": -1}, "rum_bonus must not be negative"),
        ({"knocker_penalty": -10}, "knocker_penalty must not be negative"),
        ({"knock_max_deadwood": -1}, "knock_max_deadwood must not be negative"),
        ({"jokers": 3}, "jokers must be 0, 1 or 2"),
        ({"max_players": 9}, "players must satisfy"),
        ({"min_players": 1}, "players must satisfy"),
        ({"elimination_score": 0}, "elimination_score and match_target must be positive"),
        ({"hands": None}, "game_end 'hands' needs hands >= 1"),
        ({"game_end": "target_score"}, "game_end 'target_score' needs target_score >= 1"),
        ({"game_end": "elimination"}, "game_end 'elimination' needs cumulative scoring"),
        ({"stock_exhausted": "void_hand"}, "stock_exhausted 'void_hand' is gin scoring's rule"),
    ],
)
def test_bad_values(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidRuleSet, match=message.replace("(", r"\(")):
        get_ruleset("knock-rummy", **options)


def test_cumulative_needs_elimination() -> None:
    with pytest.raises(InvalidRuleSet, match="cumulative scoring ends by elimination"):
        get_ruleset("knock-rami", game_end="hands", hands=5)


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        ({2: 10, 3: 7, 4: 7}, "cards_dealt has no entry for 5 players"),
        ({2: 10, 3: 7, 4: 7, 5: 0}, "cards_dealt for 5 players must be 1..13, not 0"),
        ({2: 14, 3: 7, 4: 7, 5: 7}, "cards_dealt for 2 players must be 1..13, not 14"),
        ({2: 10, 3: 7, 4: 7, 5: 11}, "5 players of 11 cards leave no stock in a 52-card deck"),
        ({"two": 10}, "option 'cards_dealt' must map a player count to a number of cards"),
        (7, "option 'cards_dealt' must map a player count to a number of cards"),
        ({2: 10.0, 3: 7, 4: 7, 5: 7}, "option 'cards_dealt' must map a player count to a number of cards"),
    ],
)
def test_cards_dealt_validation(deal: Any, message: str) -> None:
    with pytest.raises(InvalidRuleSet, match=message):
        get_ruleset("knock-rummy", cards_dealt=deal)


def test_cards_dealt_accepts_string_keys_and_pairs() -> None:
    by_strings = get_ruleset("gin", cards_dealt={"2": 10, "3": 7, "4": 7})
    by_pairs = get_ruleset("gin", cards_dealt=[(4, 7), (2, 10), (3, 7)])
    assert by_strings == by_pairs == get_ruleset("gin")


def test_gin_stock_reserve_counts_against_the_deck() -> None:
    assert get_ruleset("gin", cards_dealt={2: 10, 3: 7, 4: 12}).cards_per_player(4) == 12
    with pytest.raises(InvalidRuleSet, match="4 players of 12 cards leave no stock"):
        get_ruleset("gin", cards_dealt={2: 10, 3: 7, 4: 12}, stock_reserve=3)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_dict_round_trip(name: str) -> None:
    ruleset = get_ruleset(name)
    data = ruleset.to_dict()
    assert data["schema_version"] == 1
    assert data["preset"] == name
    assert RuleSet.from_dict(json.loads(json.dumps(data))) == ruleset


def test_dict_round_trip_with_overrides() -> None:
    ruleset = get_ruleset(
        "hoyle", knocker_loss="double", max_players=5, cards_dealt={2: 10, 3: 7, 4: 7, 5: 6}
    )
    assert RuleSet.from_dict(json.loads(json.dumps(ruleset.to_dict()))) == ruleset


def test_from_dict_missing_options_take_preset_defaults() -> None:
    assert RuleSet.from_dict({"preset": "gin"}) == get_ruleset("gin-rummy")
    assert RuleSet.from_dict({"preset": "knock-rummy", "options": {"rum_bonus": 30}}).rum_bonus == 30


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "a stored rule set needs a 'preset'"),
        ({"preset": "gin", "options": []}, "'options' must be an object"),
        ({"preset": "gin", "options": {"nonsense": 1}}, "unknown option 'nonsense'"),
    ],
)
def test_from_dict_errors(data: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidRuleSet, match=message):
        RuleSet.from_dict(data)


def test_rulesets_are_hashable_values() -> None:
    assert len({get_ruleset("gin"), get_ruleset("gin-rummy"), get_ruleset("knock")}) == 2
    assert get_ruleset("knock-rami").deck_size == 54
    assert get_ruleset("knock-rummy").deck_size == 52
