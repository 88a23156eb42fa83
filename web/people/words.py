"""What the people pages say: role names and an invitation's state, through gettext.
The refusals of :mod:`league.people` and :mod:`league.checkin` are worded with every
other refusal, in :mod:`web.refusals`."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

ROLE_WORDS: dict[str, Promise] = {
    "director": _("director"),
    "scorekeeper": _("scorekeeper"),
    "player": _("player"),
}

STATE_WORDS: dict[str, Promise] = {
    "open": _("open"),
    "used": _("used"),
    "withdrawn": _("withdrawn"),
    "expired": _("expired"),
}
