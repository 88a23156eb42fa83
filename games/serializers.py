"""Request shapes (checked here) and response shapes (for the OpenAPI schema only).
Whether a command is legal is the engine's business, not a serializer's.

No serializer here is bound to a model: a request shape is only validated (its
instance type is None), a response shape describes a dict the views build."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import Mode
from games.services import MAX_BOT_DELAY


class StrictSerializer(serializers.Serializer[None]):
    """A request shape that refuses fields it does not declare (DRF ignores them), each
    named in ``detail``: a misspelt or invented field is an error, never silently
    dropped — as the engine refuses a command's unknown fields. Every request shape of
    the game and league APIs is one."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(str(key) for key in set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({key[:40]: ["unknown field"] for key in unknown})
        return super().to_internal_value(data)


class SeatSerializer(StrictSerializer):
    name = serializers.CharField(required=False, max_length=80, help_text="Shown name (default: username)")
    user = serializers.IntegerField(
        required=False, min_value=1, max_value=2**31 - 1, help_text="Id of the user in this seat"
    )
    bot = serializers.CharField(required=False, max_length=40, help_text='A bot: "random" or "greedy"')

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs:
            raise serializers.ValidationError("a seat needs a name, a user or a bot")
        return attrs


# The most seats any rule set allows (engine.rules checks max_players <= 8).
MAX_SEATS = 8
# A stake is what each player puts in: a whole number or a fraction of one.
MAX_STAKE = 1_000_000
MAX_STAKE_DENOMINATOR = 1000
MAX_OPTIONS = 40


class GameCreateSerializer(StrictSerializer):
    preset = serializers.CharField(default="knock-rummy", max_length=40)
    options = serializers.DictField(
        default=dict,
        help_text=f"Rule options overriding the preset (at most {MAX_OPTIONS})",
    )
    mode = serializers.ChoiceField(choices=Mode.choices, default=Mode.DIGITAL)
    # A ListField, not many=True: the schema then states minItems and maxItems.
    seats = serializers.ListField(child=SeatSerializer(), min_length=2, max_length=MAX_SEATS)
    first_dealer = serializers.IntegerField(
        default=0, min_value=0, max_value=MAX_SEATS - 1, help_text="Seat number of the first dealer"
    )
    stake = serializers.RegexField(
        r"^[0-9]{1,7}(/[0-9]{1,4})?$",
        default="0",
        max_length=12,
        help_text=f'Exact: "1" or "1/2"; from 0 to {MAX_STAKE}, '
        f"a denominator from 1 to {MAX_STAKE_DENOMINATOR}",
    )

    bot_delay = serializers.DecimalField(
        max_digits=4,
        decimal_places=2,
        min_value=Decimal(0),
        max_value=Decimal(MAX_BOT_DELAY),
        required=False,
        allow_null=True,
        help_text=f"Seconds each bot waits before its move (0 to {MAX_BOT_DELAY:g}); "
        "unset: the server's BOT_MOVE_DELAY",
    )

    def validate_options(self, value: dict[str, Any]) -> dict[str, Any]:
        if len(value) > MAX_OPTIONS:
            raise serializers.ValidationError(f"at most {MAX_OPTIONS} options")
        return value

    def validate_stake(self, value: str) -> str:
        numerator, _, denominator = value.partition("/")
        if denominator and not 1 <= int(denominator) <= MAX_STAKE_DENOMINATOR:
            raise serializers.ValidationError(f"the denominator must be 1 to {MAX_STAKE_DENOMINATOR}")
        if Fraction(int(numerator), int(denominator or 1)) > MAX_STAKE:
            raise serializers.ValidationError(f"the stake must be at most {MAX_STAKE}")
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["first_dealer"] >= len(attrs["seats"]):
            raise serializers.ValidationError({"first_dealer": "must be the number of one of the seats"})
        return attrs


@extend_schema_field(
    {
        "type": "object",
        "required": ["type"],
        "properties": {
            "type": {"type": "string", "maxLength": 40},
            "seat": {"type": "integer", "minimum": 0, "maximum": MAX_SEATS - 1},
        },
        "additionalProperties": True,
    }
)
class CommandField(serializers.JSONField):
    """A command in the engine's flat wire form; its fields are the engine's to check."""


class CommandRequestSerializer(StrictSerializer):
    expected_version = serializers.IntegerField(min_value=0, help_text="Version the command was decided at")
    command = CommandField(help_text='Flat command: {"type": "Discard", "seat": 0, "card": "QS"}')

    def validate_command(self, value: Any) -> Any:
        if not isinstance(value, dict):
            raise serializers.ValidationError("a command is a JSON object with a 'type'")
        return value


class ImportSerializer(serializers.Serializer[None]):
    """Not strict: it takes an export as it is, whose other fields (format, game) it reads
    nothing of."""

    events = serializers.ListField(child=serializers.JSONField(), allow_empty=False, max_length=20000)


# --- response shapes (documentation) -------------------------------------------------


class ErrorSerializer(serializers.Serializer[dict[str, Any]]):
    code = serializers.CharField()
    message = serializers.CharField()
    detail = serializers.JSONField()


class EventSerializer(serializers.Serializer[dict[str, Any]]):
    seq = serializers.IntegerField()
    position = serializers.IntegerField()
    type = serializers.CharField()
    schema_version = serializers.IntegerField()
    # The wire names "data" and "source" shadow Serializer.data and Field.source only in the
    # stubs: DRF's serializer metaclass pops declared fields off the class attributes.
    data = serializers.JSONField(  # type: ignore[assignment]
        help_text="Redacted for the caller while the hand is in play"
    )
    source = serializers.ChoiceField(choices=["web", "api", "bot", "system"])  # type: ignore[assignment]
    actor = serializers.IntegerField(allow_null=True)
    recorded_at = serializers.DateTimeField()
    redacted = serializers.BooleanField()


class VersionConflictSerializer(ErrorSerializer):
    current_version = serializers.IntegerField()
    events_since = EventSerializer(many=True)


class InvalidLogSerializer(ErrorSerializer):
    """Any 400 of the import; with code ``invalid_log`` it also names the first bad event."""

    index = serializers.IntegerField(
        required=False, min_value=0, help_text="invalid_log: index of the first event that does not replay"
    )
    event_code = serializers.CharField(required=False, help_text="invalid_log: the engine's code")
    event_message = serializers.CharField(required=False, help_text="invalid_log: the engine's message")


class ViewerSerializer(serializers.Serializer[dict[str, Any]]):
    role = serializers.ChoiceField(choices=["seat", "owner", "scorekeeper", "public"])
    seat = serializers.IntegerField(allow_null=True)
    seats = serializers.ListField(child=serializers.IntegerField())


class GameStateSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    version = serializers.IntegerField()
    mode = serializers.CharField()
    status = serializers.CharField()
    owner = serializers.IntegerField(allow_null=True)
    seats = serializers.JSONField()
    viewer = ViewerSerializer()
    view = serializers.JSONField(
        help_text="engine.view(state, seat).to_dict(), legal_commands and due included"
    )


class CommandResultSerializer(serializers.Serializer[dict[str, Any]]):
    version = serializers.IntegerField()
    events = EventSerializer(many=True)
    state = GameStateSerializer()


class GameCreatedSerializer(CommandResultSerializer):
    id = serializers.IntegerField()


class EventListSerializer(serializers.Serializer[dict[str, Any]]):
    version = serializers.IntegerField()
    events = EventSerializer(many=True)


class ExportSerializer(serializers.Serializer[dict[str, Any]]):
    format = serializers.CharField()
    format_version = serializers.IntegerField()
    game = serializers.JSONField()
    events = serializers.ListField(child=serializers.JSONField())


class TokenRequestSerializer(serializers.Serializer[dict[str, Any]]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096)


class TokenSerializer(serializers.Serializer[dict[str, Any]]):
    token = serializers.CharField()
