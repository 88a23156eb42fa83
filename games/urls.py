"""API routes of the games app (filled in by the event store)."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
