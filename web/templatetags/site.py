"""Template tags shared by every page: cards drawn as cards, form keys, and the
league's limits (a field's ``maxlength`` from :mod:`league.limits`, never a number
written in a template)."""

from __future__ import annotations

import uuid
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from league import limits
from web.forms import FIELD
from web.words import SUIT_SYMBOLS, table_sizes_text

register = template.Library()

SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king",
}  # fmt: skip
RANK_FACES = {"T": "10"}


def card_name(code: str) -> str:
    """``"7H"`` → ``"seven of hearts"``; ``"X1"`` → ``"joker"``."""
    code = code.upper()
    if code.startswith("X"):
        return "joker"
    return f"{RANK_NAMES[code[:-1]]} of {SUIT_NAMES[code[-1]]}"


@register.filter
def card(code: Any) -> SafeString:
    """A card face: rank and suit symbol, red or black, read out by name. ``None`` or an
    empty code is a face-down card."""
    text = str(code or "").upper()
    if not text or text == "?":
        return mark_safe('<span class="card back" role="img" aria-label="face-down card"></span>')
    if text.startswith("X"):
        return mark_safe('<span class="card joker" role="img" aria-label="joker">🃏</span>')
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
    return card_name(str(code)) if code else "face-down card"


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
