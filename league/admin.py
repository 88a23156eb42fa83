"""The admin site's pages for the league's models.

ModelAdmin is generic in django-stubs only: Django 5.2 defines no ``__class_getitem__`` on
it (django_stubs_ext.monkeypatch() would add one, but that is a development package), so
``admin.ModelAdmin[Club]`` would fail at import time and each base keeps an
``ignore[type-arg]``."""

from django.contrib import admin

from league.models import (
    Club,
    ClubGame,
    Membership,
    Player,
    Registration,
    Round,
    Table,
    TableSeat,
    Tournament,
)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # see the module docstring
    list_display = ("name", "slug", "created_at")
    prepopulated_fields = {"slug": ("name",)}


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # see the module docstring
    list_display = ("name", "club", "user")
    list_filter = ("club",)
    search_fields = ("name",)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # see the module docstring
    list_display = ("user", "club", "role")
    list_filter = ("club", "role")


@admin.register(ClubGame)
class ClubGameAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # see the module docstring
    list_display = ("game", "club", "created_at")
    list_filter = ("club",)
    raw_id_fields = ("game",)


class RegistrationInline(admin.TabularInline):  # type: ignore[type-arg]  # see the module docstring
    model = Registration
    extra = 0
    raw_id_fields = ("player",)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # see the module docstring
    list_display = ("name", "club", "kind", "preset", "mode", "seating", "status", "created_at")
    list_filter = ("club", "kind", "mode", "status", "preset")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("seed", "created_by", "created_at", "updated_at")
    inlines = [RegistrationInline]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # see the module docstring
    list_display = ("player", "tournament", "status", "from_round", "dropped_after", "seed_number")
    list_filter = ("status", "tournament__club")
    search_fields = ("player__name", "tournament__name")
    raw_id_fields = ("player", "tournament")


class TableInline(admin.TabularInline):  # type: ignore[type-arg]  # see the module docstring
    model = Table
    extra = 0
    raw_id_fields = ("game",)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # see the module docstring
    list_display = ("tournament", "number", "status", "method", "created_at", "published_at", "completed_at")
    list_filter = ("status", "method")
    readonly_fields = ("seed", "input_digest", "request", "generated", "created_by", "published_by")
    inlines = [TableInline]


class TableSeatInline(admin.TabularInline):  # type: ignore[type-arg]  # see the module docstring
    model = TableSeat
    extra = 0
    raw_id_fields = ("player",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # see the module docstring
    list_display = ("round", "number", "game")
    raw_id_fields = ("game", "round")
    inlines = [TableSeatInline]


@admin.register(TableSeat)
class TableSeatAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # see the module docstring
    list_display = ("table", "position", "player", "bot")
    raw_id_fields = ("table", "player")
