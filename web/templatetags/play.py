"""``{% practice_form %}``: the home page's box for a signed-in player — their digital
games in play, and a form to start a practice game against bots."""

from __future__ import annotations

from typing import Any

from django import template

from engine.rules import PRESETS
from games.selectors import games_in_play_for
from web.words import BOT_LEVELS, DEFAULT_LEVEL

register = template.Library()


@register.inclusion_tag("games/_practice_form.html", takes_context=True)
def practice_form(context: template.Context) -> dict[str, Any]:
    user = context.get("user")
    return {
        "user": user,
        "csrf_token": context.get("csrf_token"),
        "practice_presets": sorted(PRESETS),
        "bot_levels": [(level, name, how) for level, (name, how) in BOT_LEVELS.items()],
        "default_level": DEFAULT_LEVEL,
        "your_games": games_in_play_for(user.pk) if user is not None and user.is_authenticated else [],
    }
