"""Clubs, players and their roles; tournaments, registrations, rounds and tables."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from league import limits
from league.names import NAME_KEY_LENGTH, name_key
from league.seating.registry import DEFAULT_METHOD

_Named = TypeVar("_Named", bound="NamedModel")


class NamedQuerySet(models.QuerySet[_Named]):
    """Rows made in bulk get their ``name_key`` too (``bulk_create`` calls no ``save``)."""

    def bulk_create(self, objs: Iterable[_Named], *args: Any, **kwargs: Any) -> list[_Named]:
        listed = list(objs)
        for obj in listed:
            obj.name_key = name_key(getattr(obj, "name", ""))
        return super().bulk_create(listed, *args, **kwargs)


class NamedModel(models.Model):
    """A row with a ``name`` people search for: ``name_key`` (:func:`league.names.name_key`)
    is stored beside it and kept by ``save`` (and ``bulk_create``), so a search compares
    keys in an indexed column instead of relying on a database's collation."""

    name_key = models.CharField(max_length=NAME_KEY_LENGTH, editable=False, default="")

    objects = NamedQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = name_key(getattr(self, "name", ""))
        fields = kwargs.get("update_fields")
        if fields is not None and "name" in fields:
            kwargs["update_fields"] = {*fields, "name_key"}
        super().save(*args, **kwargs)

    def clean(self) -> None:
        # before full_clean's constraint checks (a model form, the admin): a name that reads
        # as another player's is a form error there, not an IntegrityError at save
        super().clean()
        self.name_key = name_key(getattr(self, "name", ""))


class Club(models.Model):
    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=60, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(NamedModel):
    """A person who plays; may or may not have a login (``user``)."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="players")
    name = models.CharField(max_length=limits.PLAYER_NAME_LENGTH)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # A player whose name read the same as an older one's (case and accents aside) when
    # migration 0010 made names unique that way: kept, results and all, outside the
    # constraint; no new one is ever made (league.services.registrations.club_player).
    duplicate_name = models.BooleanField(default=False, editable=False)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="unique_player_name_per_club"),
            models.UniqueConstraint(
                fields=["club", "name_key"],
                condition=models.Q(duplicate_name=False),
                name="unique_player_name_key_per_club",
                violation_error_message=(
                    "The club has a player whose name reads the same (case and accents aside)."
                ),
            ),
        ]
        indexes = [models.Index(fields=["club", "name_key"], name="player_club_name_key")]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        DIRECTOR = "director", _("Director")
        SCOREKEEPER = "scorekeeper", _("Scorekeeper")
        PLAYER = "player", _("Player")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=20, choices=Role.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user", "role"], name="unique_membership_role")
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.role} of {self.club}"


class ClubGame(models.Model):
    """A game played under a club: its directors and scorekeepers may record it.

    The link lives here, not on the game, so that the league depends on the games app
    and never the other way round."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="club_games")
    game = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="club_link")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.club} — game {self.game_id}"


class Tournament(NamedModel):
    """A one-day tournament with a fixed number of rounds, or a league season of club
    nights (each night a round with whoever checks in).

    The rule set is stored resolved (every option with its value), so a later change to
    a preset's defaults never changes a tournament already set up. Scoring and tiebreaks
    are read by the standings projection."""

    class Kind(models.TextChoices):
        TOURNAMENT = "tournament", _("Tournament")
        LEAGUE = "league", _("League season")

    class Mode(models.TextChoices):
        PHYSICAL = "physical", _("Physical (recorded at the table)")
        DIGITAL = "digital", _("Digital (played in the browser)")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class Scoring(models.TextChoices):
        POINTS = "points", _("Game points")
        PLACEMENT = "placement", _("Placement points")
        MATCH = "match", _("Match points (1, ½, 0)")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(max_length=limits.TOURNAMENT_NAME_LENGTH)
    slug = models.SlugField(max_length=60)
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.TOURNAMENT)
    preset = models.CharField(max_length=limits.PRESET_LENGTH)
    options = models.JSONField(default=dict, blank=True)
    mode = models.CharField(max_length=20, choices=Mode.choices, default=Mode.PHYSICAL)
    stake = models.CharField(max_length=32, default="1")
    table_min = models.PositiveSmallIntegerField()
    table_max = models.PositiveSmallIntegerField()
    seating = models.CharField(max_length=20, default=DEFAULT_METHOD)
    seating_params = models.JSONField(default=dict, blank=True)
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    bots = models.BooleanField(default=False)
    bot = models.CharField(max_length=limits.BOT_LENGTH, blank=True, default="")
    seed = models.CharField(max_length=limits.SEED_LENGTH)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTRATION)
    # Read by the standings projection (League II).
    scoring = models.CharField(max_length=20, choices=Scoring.choices, default=Scoring.POINTS)
    placement_points = models.JSONField(default=list, blank=True)
    tiebreaks = models.JSONField(default=list, blank=True)
    bye_points = models.CharField(max_length=limits.POINTS_TEXT_LENGTH, blank=True, default="")
    min_games = models.PositiveSmallIntegerField(default=0)
    # The round clock's length (league.clock); changeable at any time.
    round_minutes = models.PositiveSmallIntegerField(default=limits.ROUND_MINUTES_DEFAULT)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="unique_tournament_slug_per_club"),
            models.CheckConstraint(
                condition=models.Q(table_min__gte=limits.MIN_TABLE_SEATS)
                & models.Q(table_max__gte=models.F("table_min")),
                name="tournament_table_sizes",
            ),
        ]
        indexes = [models.Index(fields=["club", "name_key"], name="tournament_club_name_key")]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})"


class Registration(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        CHECKED_IN = "checked_in", _("Checked in")
        DROPPED = "dropped", _("Dropped")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTERED)
    # A late entrant plays from this round on.
    from_round = models.PositiveSmallIntegerField(default=1)
    # Set when the status becomes ``dropped``: the last round the player played.
    dropped_after = models.PositiveSmallIntegerField(null=True, blank=True)
    # Knockout seeding: 1 is the top seed.
    seed_number = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="unique_registration"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament} ({self.status})"


class Round(models.Model):
    """One round's seating. ``request`` is the seating input exactly as it was given to
    the method (active players in order, history, standings, seed, parameters), so the
    round can be regenerated and checked against ``generated`` at any time; ``tables``
    below hold the round as published, after any edits to the draft."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")
        COMPLETE = "complete", _("Complete")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    method = models.CharField(max_length=20)
    params = models.JSONField(default=dict, blank=True)
    seed = models.CharField(max_length=limits.SEED_LENGTH)
    input_digest = models.CharField(max_length=64)
    request = models.JSONField(default=dict)
    generated = models.JSONField(default=dict)
    byes = models.JSONField(default=list, blank=True)
    notes = models.JSONField(default=list, blank=True)
    # Why the director published tables out of the generated order or composition.
    edit_reason = models.CharField(max_length=limits.REASON_LENGTH, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} — round {self.number} ({self.status})"


class Table(models.Model):
    """A table of a round: its seats (``TableSeat``, in order) and, once the round is
    published, its game. The link to the game lives here, never on the game."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    notes = models.JSONField(default=list, blank=True)
    game = models.OneToOneField(
        "games.Game", null=True, blank=True, on_delete=models.PROTECT, related_name="league_table"
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="unique_table_number"),
        ]

    def __str__(self) -> str:
        return f"{self.round} — table {self.number}"


class RoundClock(models.Model):
    """A round's clock (:mod:`league.clock`): started by a director for ``minutes``. What
    is left is always computed from ``started_at``, the server's time, so every screen
    shows the same time whatever its own clock says; ``stopped_at`` is set when a
    director stops it (a start after that begins it again)."""

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="clock")
    minutes = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField()
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    stopped_at = models.DateTimeField(null=True, blank=True)
    stopped_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self) -> str:
        return f"clock of {self.round}: {self.minutes} min from {self.started_at:%H:%M}"


class TableSeat(models.Model):
    """A seat at a table, in order: a club player, or a bot at a digital table."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="table_seats"
    )
    bot = models.CharField(max_length=limits.BOT_LENGTH, blank=True, default="")

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="unique_seat_position"),
            models.CheckConstraint(
                condition=(models.Q(player__isnull=False) & models.Q(bot=""))
                | (models.Q(player__isnull=True) & ~models.Q(bot="")),
                name="seat_is_player_or_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.position}: {self.player or self.bot}"


class LeagueWrite(models.Model):
    """A write to the league API made with an ``Idempotency-Key``: a retry with the same
    key and body is answered from ``response`` and writes nothing; the same key with
    another body is refused (``idempotency_key_reused``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200)
    digest = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    response = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="unique_league_write_key"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key}"


class RatingEntry(models.Model):
    """A player's rating in one game family of a club right after one rated game: the
    openskill PlackettLuce ``mu`` and ``sigma`` and the ordinal ``mu - 3 sigma``. A
    projection of the event logs (see :mod:`league.ratings`), rebuilt from zero by
    ``manage.py rebuild_ratings``; ``position`` is the global position of the game's
    ``GameFinished`` event, the order the games are rated in."""

    class Family(models.TextChoices):
        KNOCK = "knock", _("Knock rummy and knock-rami")
        GIN = "gin", _("Gin rummy")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="rating_entries")
    family = models.CharField(max_length=10, choices=Family.choices)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_entries")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_entries")
    position = models.BigIntegerField()
    # The player's place in the game (1 = first; tied players share a place).
    place = models.PositiveSmallIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "family", "game"], name="unique_rating_entry"),
        ]
        indexes = [
            models.Index(fields=["club", "family", "position"], name="rating_entry_club_family"),
            models.Index(fields=["player", "family", "position"], name="rating_entry_player_family"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.family} after game {self.game_id}: {self.ordinal:.2f}"


class CurrentRating(models.Model):
    """A player's rating now in one game family of a club: a copy of their latest
    :class:`RatingEntry` (``position`` is its game's), kept by the same refresh that
    writes the entries, so reading everyone's current rating is one indexed read."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="current_ratings")
    family = models.CharField(max_length=10, choices=RatingEntry.Family.choices)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="current_ratings")
    position = models.BigIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        ordering = ["club", "family", "player"]
        constraints = [
            models.UniqueConstraint(fields=["club", "family", "player"], name="unique_current_rating"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.family}: {self.ordinal:.2f}"


class RatingProjection(models.Model):
    """Where the ratings of one club's game family are current to: the highest global
    event position they have read. One row per (club, family); refreshes lock it."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="rating_projections")
    family = models.CharField(max_length=10, choices=RatingEntry.Family.choices)
    position = models.BigIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    rebuilt_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    # The last refresh that failed, until one succeeds (league.projection_failures).
    error_code = models.CharField(max_length=64, blank=True, default="")
    failed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["club", "family"]
        constraints = [
            models.UniqueConstraint(fields=["club", "family"], name="unique_rating_projection"),
        ]

    def __str__(self) -> str:
        return f"{self.club} {self.family} ratings to {self.position}"


class StandingsState(models.Model):
    """A tournament's standings projection, current to ``position`` (the global event
    position of the last event read), and the lock row of its refreshes.

    ``rows`` are the ranked standings (player ids; names are joined on read), one entry
    a player; each game's result is a :class:`StandingsGame` row and each player's record
    a :class:`StandingsRecord` row, so a refresh writes only what a result touches.
    ``structure`` fingerprints what the records were built from besides the results (the
    settings and the counted rounds): when it changes, the records are built again. All
    disposable: ``manage.py rebuild_standings`` makes them again from the event logs."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="standings_state")
    position = models.BigIntegerField(default=0)
    recorded_at = models.DateTimeField(null=True, blank=True)
    structure = models.CharField(max_length=64, blank=True, default="")
    # the global position the last refresh read every game's events to (at least
    # ``position``: later events of other games need not be read again)
    read_to = models.BigIntegerField(default=0)
    rows = models.JSONField(default=list, blank=True)
    # the ``position`` of the last refresh that read new events of a game whose round was
    # complete, or the end of the last game a round waited for (and of every refresh that
    # could not tell, every rebuild): the version of the earlier rounds the public page
    # shows (web.public_reads.earlier_rounds), one row however many tables they hold
    complete_rounds_position = models.BigIntegerField(default=0)
    refreshed_at = models.DateTimeField(auto_now=True)
    # The last refresh that failed, until one succeeds (league.projection_failures).
    error_code = models.CharField(max_length=64, blank=True, default="")
    failed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"standings of {self.tournament} at {self.position}"


class StandingsGame(models.Model):
    """One game of a tournament as the standings projection last read it: the ``seq``
    read to, its table result (:meth:`league.standings.TableResult.to_dict`, summary
    form) and what the pages show of it (:mod:`league.table_views`)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings_games")
    game = models.ForeignKey("games.Game", on_delete=models.PROTECT, related_name="+")
    seq = models.PositiveIntegerField(default=0)
    result = models.JSONField()
    # what the pages show of the game (league.table_views): hands, scores, places
    table = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["tournament_id", "game_id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "game"], name="unique_standings_game"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} of {self.tournament_id} read to {self.seq}"


class StandingsRecord(models.Model):
    """One player's record in a tournament's standings (what :func:`league.standings.rank`
    reads: points, games with their opponents, byes, ...), in the form of
    :mod:`league.standings_records`; a result rewrites only the records of its table."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings_records")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    record = models.JSONField()

    class Meta:
        ordering = ["tournament_id", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="unique_standings_record"),
        ]

    def __str__(self) -> str:
        return f"record of {self.player_id} in {self.tournament_id}"


class ResultVersion(models.Model):
    """A table's result as it stood after one event that changes results (a scored
    hand, the finish, a correction, an abandonment, a replaced seat): the recorded
    timeline is the latest version of each game at or before a position."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="result_versions")
    game = models.ForeignKey("games.Game", on_delete=models.PROTECT, related_name="+")
    position = models.BigIntegerField()
    seq = models.PositiveIntegerField()
    recorded_at = models.DateTimeField()
    cause = models.CharField(max_length=64)
    hand = models.PositiveIntegerField(null=True, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.TextField(blank=True, default="")
    result = models.JSONField()

    class Meta:
        ordering = ["tournament", "position"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "game", "position"], name="unique_result_version"),
        ]
        indexes = [models.Index(fields=["tournament", "position"], name="result_version_position")]

    def __str__(self) -> str:
        return f"game {self.game_id} after {self.cause} at {self.position}"


# --- people (league.people): invitations, a table's scorekeeper, self check-in -------------


class Invitation(models.Model):
    """A director's invitation to a login: whoever opens its link (or types its code)
    makes a login — or signs in with one — and gets ``role`` in the club, and ``player``'s
    record when it names one. Single use, valid until ``expires_at``.

    The code itself is never stored, only its digest (:mod:`league.codes`): the rows
    alone let nobody in, and the code is shown once, to the director who made it."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(max_length=20, choices=Membership.Role.choices)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="invitations"
    )
    code_digest = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    claimed_at = models.DateTimeField(null=True, blank=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(role="player") | models.Q(player__isnull=False),
                name="player_invitation_names_a_player",
            )
        ]

    def __str__(self) -> str:
        return f"invitation {self.pk} to {self.club} as {self.role}"


class TableScorekeeper(models.Model):
    """The scorekeeper a director assigned to a table (optional): the table comes first
    in their "My tables". Any of the club's scorekeepers may still record any table."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="scorekeeper")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    assigned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    assigned_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.table}: {self.user}"


class SelfCheckIn(models.Model):
    """A tournament whose players check themselves in (:mod:`league.checkin`), while this
    row exists. Its short code is shown in the room (on the desk, with its QR code): it
    says the player is there, and is no password, so it is kept as it is shown."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="self_check_in")
    code = models.CharField(max_length=16)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    opened_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"self check-in of {self.tournament}"
