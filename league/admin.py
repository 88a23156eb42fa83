"""The admin site's pages for the league's models.

ModelAdmin is generic in django-stubs only: Django 5.2 defines no ``__class_getitem__`` on
it (django_stubs_ext.monkeypatch() would add one, but that is a development package), so
``admin.ModelAdmin[Club]`` would fail at import time and each base keeps an
``ignore[type-arg]``."""

from django.contrib import admin

from league.models import Club, Membership, Player


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
