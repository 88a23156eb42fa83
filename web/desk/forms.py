"""The director's tournament form: the settings, and every option of the chosen rule
preset with its default, validated by the engine's rule set (``games.services.ruleset_named``)
with each refusal shown next to the field it names (the error's ``field``), worded by
``web.refusals``."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

import engine
from core import DomainError
from engine.rules import CHOICES, PRESETS
from games.services import RuleSetRefused, ruleset_named
from league import limits
from league.limits import LATE_FIELDS, STANDINGS_FIELDS
from league.models import Tournament
from league.seating import DEFAULT_METHOD, RECORDS
from league.standings import REGISTRY, StandingsError, check_settings
from web.refusals import words
from web.words import bot_choices

DEFAULT_PRESET = "knock-rummy"
OPTION_PREFIX = "opt_"
# Each rule option's annotated type ("int", "int | None", "bool", "str", ...).
OPTION_TYPES: dict[str, str] = {
    f.name: str(f.type) for f in dataclasses.fields(engine.RuleSet) if f.init and f.name != "preset"
}

# Each rule option's label on the form (engine.RuleSet's fields; a test checks every one
# has its label), and the words for the values of the options that are a choice.
OPTION_LABELS: dict[str, Any] = {
    "min_players": gettext_lazy("Fewest players"),
    "max_players": gettext_lazy("Most players"),
    "cards_dealt": gettext_lazy("Cards dealt"),
    "jokers": gettext_lazy("Jokers"),
    "joker_value": gettext_lazy("Joker value"),
    "knock_timing": gettext_lazy("When a player may knock"),
    "knock_max_deadwood": gettext_lazy("Most deadwood to knock with"),
    "rum_without_discard": gettext_lazy("A rum may be laid down without discarding"),
    "stock_exhausted": gettext_lazy("When the stock runs out"),
    "max_restocks": gettext_lazy("Most restocks per hand"),
    "stock_reserve": gettext_lazy("Cards left in the stock"),
    "first_upcard": gettext_lazy("First upcard"),
    "scoring": gettext_lazy("Scoring"),
    "knocker_loss": gettext_lazy("A beaten knocker pays"),
    "knocker_penalty": gettext_lazy("Knocker's penalty"),
    "rum_bonus": gettext_lazy("Rum bonus"),
    "rum_bonus_for": gettext_lazy("Rum bonus for"),
    "next_dealer": gettext_lazy("Next dealer"),
    "game_end": gettext_lazy("The game ends by"),
    "hands": gettext_lazy("Hands"),
    "target_score": gettext_lazy("Target score"),
    "zero_deadwood_bonus": gettext_lazy("Bonus for no deadwood"),
    "elimination_score": gettext_lazy("Elimination score"),
    "reentry": gettext_lazy("A player out may re-enter"),
    "gin_bonus": gettext_lazy("Gin bonus"),
    "undercut_bonus": gettext_lazy("Undercut bonus"),
    "undercut_on_tie": gettext_lazy("A tie is an undercut"),
    "game_bonus": gettext_lazy("Game bonus"),
    "line_bonus": gettext_lazy("Line bonus"),
    "shutout_bonus": gettext_lazy("Shutout bonus"),
    "match_target": gettext_lazy("Match target"),
}
CHOICE_LABELS: dict[str, Any] = {
    "any_turn": pgettext_lazy("rule option", "any turn"),
    "after_first_round": pgettext_lazy("rule option", "after the first round"),
    "end_hand": pgettext_lazy("rule option", "the hand ends"),
    "turn_over": pgettext_lazy("rule option", "the pile is turned over"),
    "reshuffle": pgettext_lazy("rule option", "the pile is reshuffled"),
    "void_hand": pgettext_lazy("rule option", "the hand is void"),
    "normal": pgettext_lazy("rule option", "normal"),
    "offer": pgettext_lazy("rule option", "offered to each player"),
    "settlement": pgettext_lazy("rule option", "settlement"),
    "cumulative": pgettext_lazy("rule option", "cumulative"),
    "gin": pgettext_lazy("rule option", "gin"),
    "penalty": pgettext_lazy("rule option", "the penalty"),
    "double": pgettext_lazy("rule option", "double"),
    "penalty_each_lower": pgettext_lazy("rule option", "the penalty to each lower player"),
    "knocker": pgettext_lazy("rule option", "the knocker"),
    "any_player": pgettext_lazy("rule option", "any player"),
    "left": pgettext_lazy("rule option", "the player on the left"),
    "winner_if_two": pgettext_lazy("rule option", "the winner, with two players"),
    "winner": pgettext_lazy("rule option", "the winner"),
    "hands": pgettext_lazy("rule option", "a number of hands"),
    "target_score": pgettext_lazy("rule option", "a target score"),
    "elimination": pgettext_lazy("rule option", "elimination"),
}


def option_label(name: str) -> str:
    return str(OPTION_LABELS.get(name) or name.replace("_", " ").capitalize())


def shown_default(value: Any) -> str:
    """An option's default as the form shows it."""
    if value is None:
        return gettext("none")
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, dict):
        return deal_text(value)
    return choice_label(str(value))


def choice_label(value: str) -> str:
    """A rule option's chosen value in words (a number as it is)."""
    return str(CHOICE_LABELS.get(value) or value.replace("_", " "))


def deal_text(deal: dict[str, int]) -> str:
    """``{"2": 10, "3": 7}`` → ``"2:10, 3:7"``."""
    return ", ".join(f"{players}:{cards}" for players, cards in deal.items())


_DEAL_ITEM = re.compile(r"^\s*(\d{1,2})\s*:\s*(\d{1,2})\s*$")


def parse_deal(text: str) -> dict[int, int]:
    deal: dict[int, int] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        match = _DEAL_ITEM.match(item)
        if match is None:
            raise forms.ValidationError(
                gettext("Write each player count with its cards, like 2:10, 3:7, 4:7 (players:cards).")
            )
        deal[int(match[1])] = int(match[2])
    if not deal:
        raise forms.ValidationError(gettext("Give the cards dealt for each player count, like 2:10, 3:7."))
    return deal


def option_field(name: str, default: Any) -> forms.Field:
    """The form field of one rule option, its default shown beside it."""
    kind = OPTION_TYPES[name]
    help_text = gettext("Default: %(value)s") % {"value": shown_default(default)}
    label = option_label(name)
    field: forms.Field
    if name == "cards_dealt":
        field = forms.CharField(label=label, initial=deal_text(default), max_length=80)
    elif name in CHOICES:
        field = forms.ChoiceField(
            label=label, choices=[(c, choice_label(c)) for c in CHOICES[name]], initial=default
        )
    elif kind == "bool":
        field = forms.BooleanField(label=label, required=False, initial=default)
    elif kind == "int | None":
        field = forms.IntegerField(label=label, required=False, initial=default, min_value=0)
        help_text = gettext("Default: %(value)s (leave empty for none)") % {"value": shown_default(default)}
    else:
        field = forms.IntegerField(label=label, initial=default, min_value=0)
    field.help_text = help_text
    return field


# The range of a points value (league.limits.points), in the form's words: when shown.
def _points_range() -> str:
    return gettext(
        "Each from -%(limit)s to %(limit)s: a whole number, a decimal like 2.5 "
        "(at most %(decimals)s places) or a fraction like 1/2 "
        "(at most %(denominator)s below the line)."
    ) % {
        "limit": limits.POINTS_LIMIT,
        "decimals": limits.POINTS_DECIMALS,
        "denominator": limits.POINTS_DENOMINATOR,
    }


def method_label(name: str) -> str:
    """A seating method's name for people (its registry label, translated)."""
    record = RECORDS.get(name)
    return gettext(record.label) if record is not None else name


class TournamentForm(forms.Form):
    """Create (or edit) a tournament. ``preset`` decides which options are shown; the
    hidden ``options_for`` says which preset's options were posted, so changing the
    preset without JavaScript first shows the new preset's defaults."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=limits.TOURNAMENT_NAME_LENGTH)
    kind = forms.ChoiceField(
        label=gettext_lazy("Kind"), choices=Tournament.Kind.choices, initial=Tournament.Kind.TOURNAMENT
    )
    preset = forms.ChoiceField(
        label=gettext_lazy("Preset"), choices=[(p, p) for p in sorted(PRESETS)], initial=DEFAULT_PRESET
    )
    options_for = forms.CharField(widget=forms.HiddenInput, required=False)
    mode = forms.ChoiceField(
        label=gettext_lazy("Mode"), choices=Tournament.Mode.choices, initial=Tournament.Mode.PHYSICAL
    )
    table_min = forms.IntegerField(
        label=gettext_lazy("Smallest table"),
        min_value=limits.TABLE_SEATS[0],
        max_value=limits.TABLE_SEATS[1],
        initial=3,
    )
    table_max = forms.IntegerField(
        label=gettext_lazy("Largest table"),
        min_value=limits.TABLE_SEATS[0],
        max_value=limits.TABLE_SEATS[1],
        initial=4,
    )
    seating = forms.ChoiceField(
        label=gettext_lazy("Seating method"),
        # the registry's labels are in the catalogue (marked there with gettext_noop)
        choices=[(name, gettext_lazy(record.label)) for name, record in sorted(RECORDS.items())],
        initial=DEFAULT_METHOD,
    )
    rounds = forms.IntegerField(
        label=gettext_lazy("Rounds"), min_value=limits.ROUNDS[0], max_value=limits.ROUNDS[1],
        required=False, initial=3,
        help_text=gettext_lazy(
            "A one-day tournament's number of rounds; empty for a league season or a knockout."),
    )  # fmt: skip
    bots = forms.BooleanField(
        label=gettext_lazy("Fill digital tables with bots"),
        required=False,
        help_text=gettext_lazy("Digital tournaments only."),
    )
    bot = forms.ChoiceField(
        label=gettext_lazy("Which bot"), choices=lambda: [("", "—"), *bot_choices()], required=False
    )
    # How results become standings (docs/standings.md); these may change at any time.
    scoring = forms.ChoiceField(
        label=gettext_lazy("Scoring"), choices=Tournament.Scoring.choices, initial=Tournament.Scoring.POINTS,
        required=False, help_text=gettext_lazy("How a table's result becomes standings points."),
    )  # fmt: skip
    placement_points = forms.CharField(
        label=gettext_lazy("Points per place"), required=False, max_length=200,
        help_text=lazy(lambda: gettext("Placement scoring, first place first: for example 3, 2, 1, 0 "
            "(at most %(places)s places). %(range)s") % {"places": limits.MAX_PLACES,
            "range": _points_range()}, str)(),
    )  # fmt: skip
    tiebreaks = forms.CharField(
        label=gettext_lazy("Tiebreaks, in order"), required=False, max_length=300,
        help_text=lazy(lambda: gettext("Empty: the preset's own. Any of: %(names)s.") % {
            "names": ", ".join(sorted(REGISTRY))}, str)(),
    )  # fmt: skip
    bye_points = forms.CharField(
        label=gettext_lazy("Points for a bye"), required=False, max_length=limits.POINTS_TEXT_LENGTH,
        help_text=lazy(
            lambda: gettext("Empty: an average game. %(range)s") % {"range": _points_range()}, str)(),
    )  # fmt: skip
    # The round clock's length (league.clock): it changes nothing seated, so it may
    # change at any time; saved by league.clock.set_round_minutes, not with the settings.
    round_minutes = forms.IntegerField(
        label=gettext_lazy("Round length (minutes)"),
        min_value=limits.ROUND_MINUTES_MIN, max_value=limits.ROUND_MINUTES_MAX,
        initial=limits.ROUND_MINUTES_DEFAULT, required=False,
        help_text=lazy(lambda: gettext("The round clock's length: from %(low)s to %(high)s minutes.") % {
            "low": limits.ROUND_MINUTES_MIN, "high": limits.ROUND_MINUTES_MAX}, str)(),
    )  # fmt: skip
    min_games = forms.IntegerField(
        label=gettext_lazy("Games to qualify"), min_value=0, max_value=limits.MAX_MIN_GAMES,
        required=False, initial=0,
        help_text=gettext_lazy("League seasons: players with fewer games are listed unranked."),
    )  # fmt: skip

    def __init__(
        self,
        *args: Any,
        preset: str | None = None,
        locked: bool = False,
        editing: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        # a tournament's kind is chosen when it is created
        self.fields["kind"].disabled = editing
        chosen = preset or self._posted_preset()
        self.preset_name = chosen if chosen in PRESETS else DEFAULT_PRESET
        self.defaults = engine.get_ruleset(self.preset_name).options()
        self.fields["preset"].initial = self.preset_name
        self.fields["options_for"].initial = self.preset_name
        for name, default in self.defaults.items():
            self.fields[OPTION_PREFIX + name] = option_field(name, default)
        # Once a round exists only the name and the number of rounds may change.
        self.locked = locked
        if locked:
            for name, field in self.fields.items():
                if name not in LATE_FIELDS:
                    field.disabled = True

    def clean_name(self) -> str:
        try:
            return limits.clean_text(self.cleaned_data.get("name"), "The name", limits.TOURNAMENT_NAME_LENGTH)
        except limits.OutOfLimits:
            # league.limits.clean_text's one rule, said in the reader's words
            text = str(self.cleaned_data.get("name") or "").strip()
            values = {"label": gettext("The name"), "limit": limits.TOURNAMENT_NAME_LENGTH}
            if not text or len(text) > limits.TOURNAMENT_NAME_LENGTH:
                said = gettext("%(label)s must be 1 to %(limit)s characters.") % values
            else:
                said = gettext("%(label)s may not contain control characters.") % values
            raise forms.ValidationError(said) from None

    def _posted_preset(self) -> str:
        if self.is_bound:
            return str(self.data.get("preset") or DEFAULT_PRESET)
        return str(self.initial.get("preset") or DEFAULT_PRESET)

    @property
    def preset_changed(self) -> bool:
        """The preset was changed but its options were not shown yet: show them first."""
        return (
            self.is_bound
            and not self.locked
            and bool(self.data.get("options_for"))
            and self.data.get("options_for") != self.data.get("preset")
        )

    def with_new_preset(self) -> TournamentForm:
        """The form again, unbound: the settings as posted, the new preset's options at
        their defaults (shown before anything is saved)."""
        base = {name: self.data.get(name) for name in self.fields if not name.startswith(OPTION_PREFIX)}
        base["bots"] = self.data.get("bots") == "on"
        base.pop("options_for", None)
        fresh = TournamentForm(
            initial={**self.initial, **base},
            preset=self.preset_name,
            locked=self.locked,
            editing=self.fields["kind"].disabled,
        )
        fresh.notice = gettext(
            "The rule options are now those of %(preset)s, with its defaults: check them, then save."
        ) % {"preset": self.preset_name}
        return fresh

    notice = ""

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(OPTION_PREFIX)]

    def options(self) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for name in self.defaults:
            value = self.cleaned_data.get(OPTION_PREFIX + name)
            if name == "cards_dealt" and isinstance(value, str):
                try:
                    value = {str(p): c for p, c in parse_deal(value).items()}
                except forms.ValidationError:
                    continue
            values[name] = value
        return values

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.locked:
            return cleaned
        deal = cleaned.get(OPTION_PREFIX + "cards_dealt")
        if isinstance(deal, str):
            try:
                parse_deal(deal)
            except forms.ValidationError as exc:
                self.add_error(OPTION_PREFIX + "cards_dealt", exc)
        if self.errors:
            return cleaned
        try:
            ruleset = ruleset_named(self.preset_name, self.options())
        except RuleSetRefused as exc:
            self.add_error(self._form_field(exc.field and OPTION_PREFIX + exc.field), words(exc))
            return cleaned
        low, high = cleaned.get("table_min"), cleaned.get("table_max")
        if low is not None and high is not None:
            self._check_limit(
                limits.check_table_size,
                low,
                high,
                preset=ruleset.preset,
                min_players=ruleset.min_players,
                max_players=ruleset.max_players,
            )
        self._check_limit(
            limits.check_rounds_given, cleaned.get("kind"), cleaned.get("seating"), cleaned.get("rounds")
        )
        if cleaned.get("bots") and cleaned.get("mode") != Tournament.Mode.DIGITAL:
            self.add_error("bots", gettext("Bots fill digital tables only; this tournament is physical."))
        self._check_scoring(cleaned)
        return cleaned

    def _check_limit(self, check: Callable[..., None], *args: Any, **kwargs: Any) -> None:
        """A league.limits check of several settings together, as the services make it;
        its refusal under the field it names."""
        try:
            check(*args, **kwargs)
        except limits.OutOfLimits as exc:
            field = exc.field if exc.field in self.fields else None
            said = words(exc)
            if said == exc.message:  # a limit worded nowhere: its own words
                said = exc.message[:1].upper() + exc.message[1:] + "."
            self.add_error(field, said)

    def _check_scoring(self, cleaned: dict[str, Any]) -> None:
        """The scoring fields as the standings read them, each refusal under its field."""
        settings = {"preset": self.preset_name, "kind": cleaned.get("kind"), **self.scoring_settings()}
        try:
            check_settings(settings)
        except StandingsError as exc:
            self.add_error(self._form_field(exc.field), words(exc))

    def scoring_settings(self) -> dict[str, Any]:
        """The scoring fields in the form ``league.services`` takes."""
        c = self.cleaned_data
        return {
            "scoring": c.get("scoring") or Tournament.Scoring.POINTS,
            "placement_points": _listed(c.get("placement_points")),
            "tiebreaks": _listed(c.get("tiebreaks")),
            "bye_points": (c.get("bye_points") or "").strip(),
            "min_games": c.get("min_games") or 0,
        }

    def service_data(self) -> dict[str, Any]:
        """The body ``league.services.create_tournament`` takes."""
        c = self.cleaned_data
        return {
            "name": c["name"],
            "kind": c["kind"],
            "preset": self.preset_name,
            "options": self.options(),
            "mode": c["mode"],
            "table_size": {"min": c["table_min"], "max": c["table_max"]},
            "seating": c["seating"],
            "rounds": c.get("rounds"),
            "bots": bool(c.get("bots")),
            "bot": c.get("bot") or "",
            **self.scoring_settings(),
        }

    def changes_from(self, tournament: Tournament) -> dict[str, Any]:
        """The fields of ``league.services.update_tournament`` that differ from the
        tournament as it is (a started tournament refuses any other)."""
        data = self.service_data()
        current = initial_of(tournament)
        changes: dict[str, Any] = {}
        for key in ("name", "kind", "preset", "mode", "seating", "rounds", "bots", "bot"):
            if data[key] != current.get(key):
                changes[key] = data[key]
        for key in STANDINGS_FIELDS:
            if data[key] != getattr(tournament, key):
                changes[key] = data[key]
        changes.pop("kind", None)  # a tournament's kind is chosen once
        if data["options"] != tournament.options:
            changes["options"] = data["options"]
        if (data["table_size"]["min"], data["table_size"]["max"]) != (
            tournament.table_min,
            tournament.table_max,
        ):
            changes["table_size"] = data["table_size"]
        return changes

    # The league names the table sizes as one setting; the form has a field for each end.
    FORM_FIELDS = {"table_size": "table_max", "table_size.min": "table_min", "table_size.max": "table_max"}

    def _form_field(self, field: str | None) -> str | None:
        """The form's field for the input an error names (None: above the form): a rule
        option's (``options.<name>``) is its ``opt_`` field."""
        name = self.FORM_FIELDS.get(field or "", field)
        if name and name.startswith("options."):
            name = OPTION_PREFIX + name.removeprefix("options.")
        return name if name in self.fields else None

    def add_service_error(self, error: DomainError) -> None:
        """A refusal of the league's services, in words, under the field it names."""
        self.add_error(self._form_field(error.field), words(error))


def _listed(text: Any) -> list[str]:
    """``"3, 2, 1,0"`` → ``["3", "2", "1", "0"]`` (commas or spaces between)."""
    return [part for part in str(text or "").replace(",", " ").split() if part]


def initial_of(tournament: Tournament) -> dict[str, Any]:
    """The form's initial values for an existing tournament."""
    initial: dict[str, Any] = {
        "name": tournament.name,
        "kind": tournament.kind,
        "preset": tournament.preset,
        "options_for": tournament.preset,
        "mode": tournament.mode,
        "table_min": tournament.table_min,
        "table_max": tournament.table_max,
        "seating": tournament.seating,
        "rounds": tournament.rounds,
        "bots": tournament.bots,
        "bot": tournament.bot,
        "scoring": tournament.scoring,
        "placement_points": ", ".join(str(p) for p in tournament.placement_points),
        "tiebreaks": ", ".join(tournament.tiebreaks),
        "bye_points": tournament.bye_points,
        "min_games": tournament.min_games,
        "round_minutes": tournament.round_minutes,
    }
    for name, value in tournament.options.items():
        initial[OPTION_PREFIX + name] = deal_text(value) if name == "cards_dealt" else value
    return initial
