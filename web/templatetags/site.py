"""Template tags shared by every page: cards drawn as cards, form keys, and the
league's limits (a field's ``maxlength`` from :mod:`league.limits`, never a number
written in a template)."""

from __future__ import annotations

import uuid
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from league import limits
from league.models import Round
from web.forms import FIELD
from web.words import SUIT_SYMBOLS, card_words, meld_text, mode_text, table_sizes_text

register = template.Library()

RANK_FACES = {"T": "10"}


def card_name(code: str) -> str:
    """``"7H"`` → ``"seven of hearts"``; ``"X1"`` → ``"joker"`` (in the reader's language)."""
    return card_words(code)


@register.filter
def meld_kind(kind: Any) -> str:
    """A meld's kind in words: ``"run"`` → "run"."""
    return meld_text(str(kind or ""))


@register.filter
def round_status(status: Any) -> str:
    """A round's status in words (league.models.Round.Status's label, translated)."""
    try:
        return str(Round.Status(str(status)).label)
    except ValueError:
        return str(status)


@register.filter
def game_mode(mode: Any) -> str:
    """A game's mode in words: ``"physical"`` → "at a real table"."""
    return mode_text(str(mode or ""))


@register.filter
def card(code: Any) -> SafeString:
    """A card face: rank and suit symbol, red or black, read out by name. ``None`` or an
    empty code is a face-down card."""
    text = str(code or "").upper()
    if not text or text == "?":
        return format_html(
            '<span class="card back" role="img" aria-label="{}"></span>', gettext("face-down card")
        )
    if text.startswith("X"):
        return format_html('<span class="card joker" role="img" aria-label="{}">🃏</span>', card_words(text))
    rank, suit = text[:-1], text[-1]
    colour = "red" if suit in "DH" else "black"
    return format_html(
        '<span class="card {}" role="img" aria-label="{}">{}{}</span>',
        colour,
        card_name(text),
        RANK_FACES.get(rank, rank),
        SUIT_SYMBOLS[suit],
    )


@register.filter
def card_label(code: Any) -> str:
    return card_name(str(code)) if code else gettext("face-down card")


@register.simple_tag
def form_key() -> SafeString:
    """A hidden field with a key drawn for this rendering of the form."""
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, uuid.uuid4().hex)


# The limits a template may name (the lengths of the text a form takes): the name of
# each in league.limits, read when a page is rendered.
TEMPLATE_LIMITS = {"reason": "REASON_LENGTH", "player_name": "PLAYER_NAME_LENGTH"}


@register.simple_tag
def limit(name: str) -> int:
    """A limit of league.limits by its name here (``{% limit "reason" %}`` → 500); an
    unknown name is a mistake in the template, so it fails the render."""
    value: int = getattr(limits, TEMPLATE_LIMITS[name])
    return value


@register.simple_tag
def table_sizes(low: int, high: int) -> str:
    """``{% table_sizes t.table_min t.table_max %}``: :func:`web.words.table_sizes_text`."""
    return table_sizes_text(low, high)
