"""Rule sets: the four presets of RULES.md as data, and their options.

A :class:`RuleSet` is a preset name plus every option fully resolved, so a rule
set stored inside a game log means the same thing forever, even if a preset's
defaults change later. Options override presets; unknown options and bad values
raise :class:`InvalidRuleSet`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.cards import CARD_VALUES
from engine.errors import EngineError

SCHEMA_VERSION = 1
MAX_PLAYERS = 8  # the most seats any rule set may have
MAX_OPTION = 1_000_000  # the largest whole-number option
MAX_DEALT = 13  # the most cards a rule set may deal each player


class InvalidRuleSet(EngineError):
    """An unknown preset or option, or an option value the rules do not allow
    (code ``invalid_ruleset``)."""

    default_code = "invalid_ruleset"


# How the engine picks a gin knocker's melds among equally good arrangements (the melds
# the opponents lay off onto): fixed per game by ``GameStarted.knock_arrangement``, not a
# table option (docs/rules.md, "Rulings", gin without a declaration).
FIRST_BEST = "first_best"  # the arrangement tie-break of engine.arrangement (GameStarted v1)
FEWEST_LAYOFFS = "fewest_layoffs"  # the one leaving the opponents the fewest layoff points
KNOCK_ARRANGEMENTS = (FIRST_BEST, FEWEST_LAYOFFS)

# Allowed values of the enumerated options.
CHOICES: dict[str, tuple[str, ...]] = {
    "knock_timing": ("any_turn", "after_first_round"),
    "stock_exhausted": ("end_hand", "turn_over", "reshuffle", "void_hand"),
    "first_upcard": ("normal", "offer"),
    "scoring": ("settlement", "cumulative", "gin"),
    "knocker_loss": ("penalty", "double", "penalty_each_lower"),
    "rum_bonus_for": ("knocker", "any_player"),
    "next_dealer": ("left", "winner_if_two", "winner"),
    "game_end": ("hands", "target_score", "elimination"),
}


@dataclass(frozen=True)
class RuleSet:
    """A preset name and the resolved options of one table's rules.

    >>> rs = get_ruleset("gin")
    >>> rs.preset, rs.knock_max_deadwood, rs.cards_per_player(2)
    ('gin-rummy', 10, 10)
    >>> RuleSet.from_dict(rs.to_dict()) == rs
    True
    """

    preset: str
    min_players: int = 2
    max_players: int = 5
    # Cards dealt to each player, by number of players, as (players, cards) pairs.
    cards_dealt: tuple[tuple[int, int], ...] = ((2, 10), (3, 7), (4, 7), (5, 7))
    jokers: int = 0
    joker_value: int = 25
    knock_timing: str = "any_turn"
    # Highest deadwood (after the knock discard) a player may knock with; None: no limit.
    knock_max_deadwood: int | None = None
    # Hoyle: a player whose whole hand melds may lay down without discarding.
    rum_without_discard: bool = False
    stock_exhausted: str = "end_hand"
    # Ruling: the stock is turned over or reshuffled at most this many times per hand.
    max_restocks: int = 2
    # Cards left in the stock that are never drawn (gin: 2).
    stock_reserve: int = 0
    first_upcard: str = "normal"
    scoring: str = "settlement"
    knocker_loss: str = "penalty"
    knocker_penalty: int = 10
    rum_bonus: int = 25
    rum_bonus_for: str = "knocker"
    next_dealer: str = "left"
    game_end: str = "hands"
    hands: int | None = 10
    target_score: int | None = None
    # knock-rami (cumulative scoring)
    zero_deadwood_bonus: int = 10
    elimination_score: int = 100
    reentry: bool = True
    # gin-rummy
    gin_bonus: int = 25
    undercut_bonus: int = 25
    undercut_on_tie: bool = True
    game_bonus: int = 100
    line_bonus: int = 25
    shutout_bonus: int = 100
    match_target: int = 500
    _deal: Mapping[int, int] = field(init=False, repr=False, compare=False, hash=False)
    # options() of this frozen rule set, computed once (every game view carries it).
    _options: Mapping[str, Any] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_deal", dict(self.cards_dealt))
        _validate(self)
        options: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if not f.init or f.name == "preset":
                continue
            value = getattr(self, f.name)
            if f.name == "cards_dealt":
                value = {str(players): cards for players, cards in value}
            options[f.name] = value
        object.__setattr__(self, "_options", options)

    @property
    def deck_size(self) -> int:
        return 52 + self.jokers

    def cards_per_player(self, players: int) -> int:
        """How many cards each of ``players`` players is dealt."""
        if not self.min_players <= players <= self.max_players:
            raise InvalidRuleSet(
                f"{self.preset} is for {self.min_players} to {self.max_players} players, not {players}"
            )
        return self._deal[players]

    def max_deadwood(self, players: int) -> int:
        """The most deadwood one hand of ``players`` players can hold: its highest-valued
        cards, jokers at ``joker_value``, none of them melded.

        >>> get_ruleset("knock-rummy").max_deadwood(3), get_ruleset("rami").max_deadwood(3)
        (70, 100)
        """
        values = sorted((*CARD_VALUES[:52], *(self.joker_value,) * self.jokers), reverse=True)
        return sum(values[: self.cards_per_player(players)])

    def options(self) -> dict[str, Any]:
        """Every option as plain JSON-ready values (``cards_dealt`` keyed by player count);
        a fresh dict the caller may change."""
        return {**self._options, "cards_dealt": dict(self._options["cards_dealt"])}

    def to_dict(self) -> dict[str, Any]:
        return {"schema_version": SCHEMA_VERSION, "preset": self.preset, "options": self.options()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Rebuild a stored rule set; options missing from ``data`` take the preset's defaults."""
        if not isinstance(data, Mapping) or "preset" not in data:
            raise InvalidRuleSet("a stored rule set needs a 'preset'")
        options = data.get("options", {})
        if not isinstance(options, Mapping):
            raise InvalidRuleSet("a stored rule set's 'options' must be an object")
        if not all(isinstance(key, str) for key in options):
            raise InvalidRuleSet("a stored rule set's options are named by strings")
        return get_ruleset(data["preset"], **options)

    def replace(self, **options: Any) -> RuleSet:
        """This rule set with some options overridden (validated like :func:`get_ruleset`)."""
        return get_ruleset(self.preset, **{**self.options(), **options})


_OPTION_TYPES: dict[str, Any] = {
    f.name: f.type for f in dataclasses.fields(RuleSet) if f.init and f.name != "preset"
}

PRESETS: dict[str, dict[str, Any]] = {
    "knock-rummy": {},
    "knock-rummy-hoyle": {
        "max_players": 6,
        "cards_dealt": {2: 10, 3: 7, 4: 7, 5: 6, 6: 6},
        "rum_without_discard": True,
        "stock_exhausted": "turn_over",
        "knocker_loss": "penalty_each_lower",
        "rum_bonus_for": "any_player",
        "next_dealer": "winner_if_two",
        "game_end": "target_score",
        "hands": None,
        "target_score": 100,
    },
    "knock-rami": {
        "jokers": 2,
        "knock_timing": "after_first_round",
        "scoring": "cumulative",
        "game_end": "elimination",
        "hands": None,
    },
    "gin-rummy": {
        "max_players": 4,
        "cards_dealt": {2: 10, 3: 7, 4: 7},
        "knock_max_deadwood": 10,
        "stock_exhausted": "void_hand",
        "stock_reserve": 2,
        "first_upcard": "offer",
        "scoring": "gin",
        "next_dealer": "winner",
        "game_end": "target_score",
        "hands": None,
        "target_score": 100,
    },
}

ALIASES: dict[str, str] = {
    "knock": "knock-rummy",
    "poker-rum": "knock-rummy",
    "hoyle": "knock-rummy-hoyle",
    "knock-hoyle": "knock-rummy-hoyle",
    "rami": "knock-rami",
    "grenoble": "knock-rami",
    "grenoble-knock-rummy": "knock-rami",
    "gin": "gin-rummy",
}


def find_preset(name: str) -> str:
    """The canonical preset name for ``name`` or one of its aliases.

    >>> find_preset("Gin"), find_preset("knock_rami")
    ('gin-rummy', 'knock-rami')
    """
    if not isinstance(name, str) or len(name) > 64:
        raise InvalidRuleSet(f"a rule preset is named by a short string, not {_shown(name)}")
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = ALIASES.get(key, key)
    if key not in PRESETS:
        known = ", ".join(sorted(PRESETS))
        raise InvalidRuleSet(f"unknown rule preset {name!r}; known presets: {known}")
    return key


def get_ruleset(name: str, /, **options: Any) -> RuleSet:
    """The preset ``name`` (or an alias) with ``options`` overriding its defaults.

    >>> get_ruleset("knock-rummy", max_players=6, cards_dealt={2: 10, 3: 7, 4: 7, 5: 6, 6: 6}).max_players
    6
    >>> get_ruleset("knock-rummy", knock_penalty=5)
    Traceback (most recent call last):
    ...
    engine.rules.InvalidRuleSet: unknown option 'knock_penalty' for knock-rummy
    """
    preset = find_preset(name)
    merged: dict[str, Any] = {**PRESETS[preset]}
    for key, value in options.items():
        if key not in _OPTION_TYPES:
            raise InvalidRuleSet(f"unknown option {_shown(key)} for {preset}", field=str(key))
        merged[key] = value
    kwargs = {key: _coerce(key, value) for key, value in merged.items()}
    return RuleSet(preset=preset, **kwargs)


def _coerce(key: str, value: Any) -> Any:
    """Check one option's type; ``cards_dealt`` accepts a mapping with int or str keys."""
    kind = _OPTION_TYPES[key]
    if key == "cards_dealt":
        wrong = InvalidRuleSet("option 'cards_dealt' must map a player count to a number of cards", field=key)
        if not isinstance(value, Mapping) and not isinstance(value, (tuple, list)):
            raise wrong
        try:
            pairs = list(value.items() if isinstance(value, Mapping) else value)
            deal = sorted((_strict_int(p), _strict_int(c)) for p, c in pairs)
        except (TypeError, ValueError) as exc:
            raise wrong from exc
        if any(not 2 <= p <= MAX_PLAYERS for p, _ in deal):
            raise InvalidRuleSet(
                f"option 'cards_dealt' has a player count outside 2..{MAX_PLAYERS}", field=key
            )
        if len({p for p, _ in deal}) != len(deal):
            raise InvalidRuleSet("option 'cards_dealt' gives a player count twice", field=key)
        return tuple(deal)
    if kind == "bool":
        if not isinstance(value, bool):
            raise InvalidRuleSet(f"option {key!r} must be true or false, not {_shown(value)}", field=key)
        return value
    if kind in ("int", "int | None"):
        if value is None and kind == "int | None":
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidRuleSet(f"option {key!r} must be a whole number, not {_shown(value)}", field=key)
        if value > MAX_OPTION:  # below zero is checked, with its reason, by _validate
            raise InvalidRuleSet(
                f"option {key!r} must be at most {MAX_OPTION}, not {_shown(value)}", field=key
            )
        return value
    if key in CHOICES:
        if not isinstance(value, str) or value not in CHOICES[key]:
            allowed = ", ".join(CHOICES[key])
            raise InvalidRuleSet(f"option {key!r} must be one of {allowed}; got {_shown(value)}", field=key)
        return value
    raise AssertionError(f"option {key!r} has no coercion")  # pragma: no cover


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _strict_int(value: Any) -> int:
    if isinstance(value, bool):
        raise TypeError(value)
    if isinstance(value, str) and len(value) <= 3 and value.strip().lstrip("-").isdigit():
        return int(value)
    if isinstance(value, int):
        return value
    raise TypeError(value)


def _validate(rs: RuleSet) -> None:
    def fail(message: str, option: str) -> None:
        raise InvalidRuleSet(f"{rs.preset}: {message}", field=option)

    if not 2 <= rs.min_players <= rs.max_players <= MAX_PLAYERS:
        fail(
            f"players must satisfy 2 <= min_players <= max_players <= {MAX_PLAYERS} "
            f"(got {rs.min_players}..{rs.max_players})",
            "max_players",
        )
    if not 0 <= rs.jokers <= 2:
        fail(f"jokers must be 0, 1 or 2, not {rs.jokers}", "jokers")
    deal = dict(rs.cards_dealt)
    for players in range(rs.min_players, rs.max_players + 1):
        cards = deal.get(players)
        if cards is None:
            fail(f"cards_dealt has no entry for {players} players", "cards_dealt")
        elif not 1 <= cards <= MAX_DEALT:
            fail(f"cards_dealt for {players} players must be 1..{MAX_DEALT}, not {cards}", "cards_dealt")
        elif players * cards + 1 + rs.stock_reserve >= rs.deck_size:
            fail(
                f"{players} players of {cards} cards leave no stock in a {rs.deck_size}-card deck",
                "cards_dealt",
            )
    for name in (
        "joker_value",
        "knocker_penalty",
        "rum_bonus",
        "zero_deadwood_bonus",
        "max_restocks",
        "stock_reserve",
        "gin_bonus",
        "undercut_bonus",
        "game_bonus",
        "line_bonus",
        "shutout_bonus",
    ):
        if getattr(rs, name) < 0:
            fail(f"{name} must not be negative", name)
    if rs.knock_max_deadwood is not None and rs.knock_max_deadwood < 0:
        fail("knock_max_deadwood must not be negative", "knock_max_deadwood")
    if rs.elimination_score <= 0 or rs.match_target <= 0:
        fail("elimination_score and match_target must be positive", "elimination_score")
    if rs.game_end == "hands" and (rs.hands is None or rs.hands < 1):
        fail("game_end 'hands' needs hands >= 1", "hands")
    if rs.game_end == "target_score" and (rs.target_score is None or rs.target_score < 1):
        fail("game_end 'target_score' needs target_score >= 1", "target_score")
    if rs.game_end == "elimination" and rs.scoring != "cumulative":
        fail("game_end 'elimination' needs cumulative scoring", "game_end")
    if rs.scoring == "cumulative" and rs.game_end != "elimination":
        fail("cumulative scoring ends by elimination", "scoring")
    if rs.stock_exhausted == "void_hand" and rs.scoring != "gin":
        fail("stock_exhausted 'void_hand' is gin scoring's rule", "stock_exhausted")
