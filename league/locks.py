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
4. The club's people (:mod:`league.people`) lock an invitation, then a player record,
   then the club's director memberships — in that order, and nothing else: no
   tournament, round or game is locked or written in those transactions.

The club row is never locked: a club game's creation holds the advisory lock and then
needs ``FOR KEY SHARE`` on its club, so a publish holding the club (it used to, through
``select_for_update`` over a join reaching the club) while waiting for the advisory
lock was the deadlock. On SQLite none of this applies (the database has one writer).
"""

from __future__ import annotations

from league.models import Invitation, Membership, Player, Registration, Round, Tournament


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


def invitation_for_update(code_digest: str) -> Invitation | None:
    """The invitation of a code's digest (its club and player read), locked (step 4)."""
    rows = Invitation.objects.select_for_update(of=("self",)).select_related("club", "player")
    return rows.filter(code_digest=code_digest).first()


def invitation_row_for_update(invitation_id: int) -> Invitation:
    """An invitation's row, locked (step 4)."""
    return Invitation.objects.select_for_update().get(pk=invitation_id)


def player_for_update(player_id: int) -> Player:
    """A player record's row, locked (step 4, after the invitation that names it)."""
    return Player.objects.select_for_update().get(pk=player_id)


def directors_for_update(club_id: int) -> list[int]:
    """The club's directors (user ids), their rows locked (step 4): two removals of a
    director at once are taken one after the other, and the second sees the first."""
    rows = Membership.objects.select_for_update().filter(club_id=club_id, role=Membership.Role.DIRECTOR)
    return list(rows.values_list("user_id", flat=True))
