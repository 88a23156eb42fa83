"""Shapes of the league API: request bodies (checked here for their shape; the services
check what they mean) and responses (for the OpenAPI schema; the views build dicts with
the ``present_*`` functions below)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

from games.models import Mode
from games.serializers import StrictSerializer
from league import limits
from league.limits import MAX_PLAYERS, MAX_TABLE_SEATS, MAX_TABLES
from league.models import Club, Player, Registration, Round, Tournament
from league.projection import settings_of
from league.seating import DEFAULT_METHOD, METHODS
from league.seating.notes import note_of
from league.selectors import RoundTable, round_tables
from league.services import departs_from_generated, draft_version
from league.standings import REGISTRY, Settings
from league.wording import english, round_names


def whole_field(within: tuple[int, int], **options: Any) -> serializers.IntegerField:
    """A whole-number field over one of league.limits' ranges (``(low, high)``)."""
    low, high = within
    return serializers.IntegerField(min_value=low, max_value=high, **options)


POINTS_HELP = (
    f"From -{limits.POINTS_LIMIT} to {limits.POINTS_LIMIT}: a whole number, a decimal of at most "
    f"{limits.POINTS_DECIMALS} places or a fraction n/d (d at most {limits.POINTS_DENOMINATOR})"
)


class TableSizeSerializer(StrictSerializer):
    min = whole_field(limits.TABLE_SEATS)
    max = whole_field(limits.TABLE_SEATS)


class SeatingParamsSerializer(StrictSerializer):
    swap_budget = whole_field(
        limits.SEATING_PARAMS["swap_budget"],
        required=False,
        help_text="swiss: swaps tried to avoid repeats",
    )
    final_size = whole_field(
        limits.SEATING_PARAMS["final_size"],
        required=False,
        help_text="knockout, multi-player: players at the final table",
    )
    rounds = whole_field(
        limits.SEATING_PARAMS["rounds"],
        required=False,
        help_text="round_robin: rounds of the schedule",
    )


class ScoringFieldsSerializer(StrictSerializer):
    """How results become standings (docs/standings.md): on create and on change."""

    scoring = serializers.ChoiceField(choices=Tournament.Scoring.choices, required=False)
    placement_points = serializers.ListField(
        child=serializers.JSONField(),
        max_length=limits.MAX_PLACES,
        required=False,
        help_text=POINTS_HELP + "; one per place, first place first (placement)",
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=sorted(REGISTRY)),
        max_length=len(REGISTRY),
        required=False,
        help_text="Tiebreak names in order; default: the preset's (docs/standings.md)",
    )
    bye_points = serializers.CharField(
        max_length=limits.POINTS_TEXT_LENGTH,
        required=False,
        allow_blank=True,
        help_text=POINTS_HELP + "; empty: an average game",
    )
    min_games = serializers.IntegerField(min_value=0, max_value=limits.MAX_MIN_GAMES, required=False)


class TournamentCreateSerializer(ScoringFieldsSerializer):
    name = serializers.CharField(max_length=limits.TOURNAMENT_NAME_LENGTH)
    kind = serializers.ChoiceField(choices=Tournament.Kind.choices, default=Tournament.Kind.TOURNAMENT)
    preset = serializers.CharField(max_length=limits.PRESET_LENGTH, default="knock-rummy")
    options = serializers.DictField(default=dict, help_text="Rule options overriding the preset")
    mode = serializers.ChoiceField(choices=Mode.choices, default=Tournament.Mode.PHYSICAL)
    table_size = TableSizeSerializer()
    seating = serializers.ChoiceField(choices=sorted(METHODS), default=DEFAULT_METHOD)
    seating_params = SeatingParamsSerializer(required=False)
    rounds = whole_field(limits.ROUNDS, required=False, allow_null=True, default=None)
    bots = serializers.BooleanField(
        default=False, help_text="Fill digital tables with bots up to table_size.min"
    )
    bot = serializers.CharField(max_length=limits.BOT_LENGTH, required=False, allow_blank=True, default="")
    seed = serializers.CharField(
        max_length=limits.SEED_LENGTH, required=False, help_text="Default: drawn at random"
    )


class TournamentUpdateSerializer(ScoringFieldsSerializer):
    name = serializers.CharField(max_length=limits.TOURNAMENT_NAME_LENGTH, required=False)
    preset = serializers.CharField(max_length=limits.PRESET_LENGTH, required=False)
    options = serializers.DictField(required=False)
    mode = serializers.ChoiceField(choices=Mode.choices, required=False)
    table_size = TableSizeSerializer(required=False)
    seating = serializers.ChoiceField(choices=sorted(METHODS), required=False)
    seating_params = SeatingParamsSerializer(required=False)
    rounds = whole_field(limits.ROUNDS, required=False, allow_null=True)
    bots = serializers.BooleanField(required=False)
    bot = serializers.CharField(max_length=limits.BOT_LENGTH, required=False, allow_blank=True)
    seed = serializers.CharField(max_length=limits.SEED_LENGTH, required=False)
    status = serializers.ChoiceField(
        choices=Tournament.Status.choices, required=False, help_text='"finished" closes the tournament'
    )


class PlayerCreateSerializer(StrictSerializer):
    name = serializers.CharField(max_length=limits.PLAYER_NAME_LENGTH)


class RegistrationCreateSerializer(StrictSerializer):
    player = whole_field(limits.IDS, required=False)
    name = serializers.CharField(
        max_length=limits.PLAYER_NAME_LENGTH, required=False, help_text="Creates the club player if new"
    )
    from_round = whole_field(limits.ROUNDS, required=False)
    seed_number = whole_field(limits.SEED_NUMBERS, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("player" in attrs) == ("name" in attrs):
            raise serializers.ValidationError('give either "player" (an id) or "name"')
        return attrs


class RegistrationUpdateSerializer(StrictSerializer):
    status = serializers.ChoiceField(choices=Registration.Status.choices)
    dropped_after = whole_field(limits.DROPPED_AFTER, required=False)
    from_round = whole_field(limits.ROUNDS, required=False)
    seed_number = whole_field(limits.SEED_NUMBERS, required=False)


class RoundCreateSerializer(StrictSerializer):
    force_reason = serializers.CharField(
        max_length=limits.REASON_LENGTH,
        required=False,
        allow_blank=True,
        help_text="Generate before the last round is complete",
    )
    tables = serializers.ListField(
        child=serializers.ListField(child=whole_field(limits.IDS), max_length=MAX_TABLE_SEATS),
        required=False,
        max_length=MAX_TABLES,
        help_text="manual seating: the tables, player ids in seat order",
    )
    byes = serializers.ListField(child=whole_field(limits.IDS), required=False, max_length=MAX_PLAYERS)


class MoveSerializer(StrictSerializer):
    player = whole_field(limits.IDS)
    table = serializers.IntegerField(
        min_value=1, max_value=MAX_TABLES, allow_null=True, help_text="null: a bye"
    )
    position = serializers.IntegerField(min_value=0, max_value=MAX_TABLE_SEATS, required=False)


class RoundUpdateSerializer(StrictSerializer):
    swap = serializers.ListField(
        child=whole_field(limits.IDS),
        min_length=2,
        max_length=2,
        required=False,
    )
    move = MoveSerializer(required=False)
    tables = serializers.ListField(
        child=serializers.ListField(child=whole_field(limits.IDS), max_length=MAX_TABLE_SEATS),
        required=False,
        max_length=MAX_TABLES,
    )
    byes = serializers.ListField(child=whole_field(limits.IDS), required=False, max_length=MAX_PLAYERS)
    edit_reason = serializers.CharField(max_length=limits.REASON_LENGTH, required=False, allow_blank=True)
    # the draft's version the edit was decided on (RoundSerializer.version): a draft
    # changed since refuses the edit (draft_changed)
    version = serializers.RegexField(r"^[0-9a-f]{16}$", required=False)


class PublishSerializer(StrictSerializer):
    edit_reason = serializers.CharField(
        max_length=limits.REASON_LENGTH,
        required=False,
        allow_blank=True,
        help_text="Why the tables differ from the generated ones",
    )


# --- responses (schema only) ---------------------------------------------------------------


class ClubSerializer(serializers.Serializer[None]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    players = serializers.IntegerField()
    tournaments = serializers.IntegerField()


class PlayerSerializer(serializers.Serializer[None]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    has_login = serializers.BooleanField()


class TableSizeOutSerializer(serializers.Serializer[None]):
    min = serializers.IntegerField()
    max = serializers.IntegerField()


class TournamentSerializer(serializers.Serializer[None]):
    id = serializers.IntegerField()
    club = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    kind = serializers.CharField()
    preset = serializers.CharField()
    options = serializers.DictField()
    mode = serializers.CharField()
    table_size = TableSizeOutSerializer()
    seating = serializers.CharField()
    seating_params = serializers.DictField()
    rounds = serializers.IntegerField(allow_null=True)
    bots = serializers.BooleanField()
    bot = serializers.CharField()
    seed = serializers.CharField()
    status = serializers.CharField()
    scoring = serializers.CharField()
    placement_points = serializers.ListField(child=serializers.JSONField())
    tiebreaks = serializers.ListField(child=serializers.CharField())
    bye_points = serializers.CharField()
    min_games = serializers.IntegerField()
    rounds_generated = serializers.IntegerField()


class RegistrationSerializer(serializers.Serializer[None]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    from_round = serializers.IntegerField()
    dropped_after = serializers.IntegerField(allow_null=True)
    seed_number = serializers.IntegerField(allow_null=True)


class SeatOutSerializer(serializers.Serializer[None]):
    player = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    bot = serializers.CharField(required=False)


class NoteSerializer(serializers.Serializer[None]):
    """A seating note as data; players in ``params`` are ids of the round's seating input."""

    code = serializers.CharField()
    params = serializers.DictField()


class TableOutSerializer(serializers.Serializer[None]):
    number = serializers.IntegerField()
    seats = SeatOutSerializer(many=True)
    notes = serializers.ListField(child=serializers.CharField(), help_text="The notes in words.")
    note_codes = NoteSerializer(many=True)
    game = serializers.IntegerField(allow_null=True)
    game_status = serializers.CharField(allow_null=True)


class RoundSerializer(serializers.Serializer[None]):
    number = serializers.IntegerField()
    status = serializers.CharField()
    method = serializers.CharField()
    seed = serializers.CharField()
    input_digest = serializers.CharField()
    tables = TableOutSerializer(many=True)
    byes = serializers.ListField(child=serializers.IntegerField())
    notes = serializers.ListField(child=serializers.CharField(), help_text="The notes in words.")
    note_codes = NoteSerializer(many=True)
    edited = serializers.BooleanField()
    edit_reason = serializers.CharField()
    version = serializers.CharField(help_text="The seating's version: send it with an edit of the draft.")
    published_at = serializers.DateTimeField(allow_null=True)
    completed_at = serializers.DateTimeField(allow_null=True)


class RoundSummarySerializer(serializers.Serializer[None]):
    number = serializers.IntegerField()
    status = serializers.CharField()


# --- presenting rows ------------------------------------------------------------------------


def present_club(club: Club) -> dict[str, Any]:
    return {
        "id": club.pk,
        "name": club.name,
        "slug": club.slug,
        "players": getattr(club, "player_count", None) or club.players.count(),
        # a tournament in draft is not public: not counted
        "tournaments": (
            club.tournament_count
            if hasattr(club, "tournament_count")
            else club.tournaments.exclude(status=Tournament.Status.DRAFT).count()
        ),
    }


def present_player(player: Player) -> dict[str, Any]:
    return {"id": player.pk, "name": player.name, "has_login": player.user_id is not None}


def present_tournament(tournament: Tournament) -> dict[str, Any]:
    """The tournament as the API shows it; its ``rounds_generated`` is read from an
    annotation of that name when the query made one (a list), else counted."""
    generated = getattr(tournament, "rounds_generated", None)
    if generated is None:
        generated = tournament.round_set.count()
    return {
        "id": tournament.pk,
        "club": tournament.club_id,
        "name": tournament.name,
        "slug": tournament.slug,
        "kind": tournament.kind,
        "preset": tournament.preset,
        "options": tournament.options,
        "mode": tournament.mode,
        "table_size": {"min": tournament.table_min, "max": tournament.table_max},
        "seating": tournament.seating,
        "seating_params": tournament.seating_params,
        "rounds": tournament.rounds,
        "bots": tournament.bots,
        "bot": tournament.bot,
        "seed": tournament.seed,
        "status": tournament.status,
        "scoring": tournament.scoring,
        "placement_points": tournament.placement_points,
        # resolved: the preset's defaults when the director named none
        "tiebreaks": list(Settings.from_mapping(settings_of(tournament), stored=True).tiebreaks),
        "bye_points": tournament.bye_points,
        "min_games": tournament.min_games,
        "rounds_generated": generated,
    }


def present_registration(registration: Registration) -> dict[str, Any]:
    return {
        "player": registration.player_id,
        "name": registration.player.name,
        "status": registration.status,
        "from_round": registration.from_round,
        "dropped_after": registration.dropped_after,
        "seed_number": registration.seed_number,
    }


def _present_table(table: RoundTable, names: Mapping[int, str]) -> dict[str, Any]:
    seats: list[dict[str, Any]] = []
    for seat in table.seats:
        if seat.player_id is not None:
            seats.append({"player": seat.player_id, "name": seat.name})
        else:
            seats.append({"player": None, "name": f"{seat.bot.capitalize()} bot", "bot": seat.bot})
    return {
        "number": table.number,
        "seats": seats,
        "notes": english(table.notes, names),
        "note_codes": [n.to_dict() for n in table.notes],
        "game": table.game_id,
        "game_status": table.game_status,
    }


def present_round(round_: Round) -> dict[str, Any]:
    tables = round_tables([round_.pk])[round_.pk]
    names = round_names(round_.request)
    notes = [note_of(n) for n in round_.notes]
    return {
        "number": round_.number,
        "status": round_.status,
        "method": round_.method,
        "seed": round_.seed,
        "input_digest": round_.input_digest,
        "tables": [_present_table(t, names) for t in tables],
        "byes": list(round_.byes),
        "notes": english(notes, names),
        "note_codes": [n.to_dict() for n in notes],
        "edited": departs_from_generated(round_, tables),
        "version": draft_version([t.player_ids for t in tables], round_.byes),
        "edit_reason": round_.edit_reason,
        "published_at": round_.published_at.isoformat() if round_.published_at else None,
        "completed_at": round_.completed_at.isoformat() if round_.completed_at else None,
    }
