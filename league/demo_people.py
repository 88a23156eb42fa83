"""The demo's people, for ``manage.py seed_demo``: an open invitation on the club's people
page (Ines, a cup player with no login yet — its code printed, since it is shown only
when made), and the scorekeeper assigned to the gin Swiss's first live table. Alice's
seat in the Swiss's published round shows on her home page by itself.

Seeding again withdraws the demo's open invitation and makes a new one (the old code was
printed and is not kept), and leaves the assignment as it is."""

from __future__ import annotations

from typing import Any

from league import people
from league.models import Club, Invitation, Player, Round, Table, TableScorekeeper, Tournament

INVITED = "Ines"


def seed_demo_people(*, club: Club, director: Any, scorekeeper: Any, swiss: Tournament) -> str | None:
    """Returns the new invitation's code (None if Ines has a login by now)."""
    live = (
        Table.objects.filter(round__tournament=swiss, round__status=Round.Status.PUBLISHED)
        .order_by("round__number", "number")
        .first()
    )
    if live is not None and not TableScorekeeper.objects.filter(table=live).exists():
        people.assign_scorekeeper(live, scorekeeper.pk, director)
    invited = Player.objects.filter(club=club, name=INVITED, user__isnull=True).first()
    if invited is None:
        return None
    for earlier in Invitation.objects.filter(
        player=invited, claimed_at__isnull=True, withdrawn_at__isnull=True
    ):
        if people.invitation_state(earlier) == "open":
            people.withdraw(earlier, director)
    return people.invite(club, role=people.Role.PLAYER, player=invited, by=director).code
