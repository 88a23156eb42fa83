"""The one order in which league writes take their locks (issue 24: publishing a round
deadlocked with a scorekeeper opening a club game).

1. League rows, parent before child: the tournament, then one of its rounds (or a
   registration). Each is locked alone (``of=("self",)``: a ``select_related`` join
   does not lock the parents it reads) and ``FOR NO KEY UPDATE`` (``no_key=True``), the
   strength an ``UPDATE`` of a non-key column takes anyway: it serialises the writers of
   that row but not the foreign-key checks of rows inserted under it (a new game's
   ``ClubGame``, a ``ResultVersion``), which take ``FOR KEY SHARE`` at commit.
2. Then the event store: a game row's ``UPDATE`` and the advisory lock that orders
   global positions (:mod:`games.store`), held to commit.
3. Projections lock their own rows (``StandingsState``, ``RatingProjection``) and write
   no events, so they never wait on the event store while holding a league row.

The club row is never locked: a club game's creation holds the advisory lock and then
needs ``FOR KEY SHARE`` on its club, so a publish holding the club (it used to, through
``select_for_update`` over a join reaching the club) while waiting for the advisory
lock was the deadlock. On SQLite none of this applies (the database has one writer).
"""

from __future__ import annotations

from league.models import Registration, Round, Tournament


def tournament_for_update(tournament_id: int) -> Tournament:
    """The tournament's row, locked (step 1) until the transaction ends."""
    return Tournament.objects.select_for_update(of=("self",), no_key=True).get(pk=tournament_id)


def round_for_update(round_id: int) -> Round:
    """A round's row, locked (step 1), with its tournament and club read, not locked: the
    caller has locked the tournament first when it changes it."""
    locked = Round.objects.select_for_update(of=("self",), no_key=True).select_related("tournament__club")
    return locked.get(pk=round_id)


def registration_for_update(registration_id: int) -> Registration:
    """A registration's row, locked (step 1: a child of its tournament, which the caller
    locks first if it changes it)."""
    return Registration.objects.select_for_update(of=("self",), no_key=True).get(pk=registration_id)
