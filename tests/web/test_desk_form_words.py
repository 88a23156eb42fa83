"""The tournament form's rule options in words, in the reader's language: every option of
engine.RuleSet has its label and every value of a choice its words (web.desk.forms), so
no option's field name shows on the form, in English or in French."""

from __future__ import annotations

import dataclasses

import pytest
from django.utils import translation

import engine
from engine.rules import CHOICES
from web.desk.forms import (
    CHOICE_LABELS,
    OPTION_LABELS,
    TournamentForm,
    choice_label,
    option_label,
    shown_default,
)

OPTIONS = [f.name for f in dataclasses.fields(engine.RuleSet) if f.init and f.name != "preset"]


def test_every_rule_option_and_every_choice_has_its_words() -> None:
    assert set(OPTION_LABELS) == set(OPTIONS)
    assert {value for values in CHOICES.values() for value in values} <= set(CHOICE_LABELS)


@pytest.mark.parametrize(
    ("language", "label", "choice", "default"),
    [
        ("en", "Most deadwood to knock with", "the pile is turned over", "Default: no"),
        ("fr", "Reste maximum pour frapper", "la défausse est retournée", "Par défaut\u00a0: non"),
    ],
)
def test_the_form_shows_the_options_in_the_readers_language(
    language: str, label: str, choice: str, default: str
) -> None:
    with translation.override(language):
        assert option_label("knock_max_deadwood") == label
        assert choice_label("turn_over") == choice
        form = TournamentForm(preset="knock-rummy")
        assert form.fields["opt_knock_max_deadwood"].label == label
        assert (("turn_over", choice)) in list(form.fields["opt_stock_exhausted"].choices)
        assert form.fields["opt_rum_without_discard"].help_text == default
        assert shown_default(7) == "7"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "The name may not contain control characters."),
        ("fr", "Le nom ne peut pas contenir de caractères de contrôle."),
    ],
)
def test_a_bad_tournament_name_is_refused_in_the_readers_words(language: str, said: str) -> None:
    with translation.override(language):
        form = TournamentForm({"name": "Winter\x01Open"})
        assert not form.is_valid()
        assert form.errors["name"] == [said]
