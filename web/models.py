"""What the web pages store of their own: the form posts already acted on."""

from __future__ import annotations

from django.conf import settings
from django.db import models

# What a form post keeps of its outcome: where it led, and what it said.
LOCATION_LENGTH = 300
MESSAGE_LENGTH = 500


class FormPost(models.Model):
    """A form post acted on, by its form key (``web.forms.posted_key``): a second post
    with the same key — a double tap, a reload after a timeout — is answered with the
    first one's outcome (where it led, and what it said) and changes nothing. Written in
    the same transaction as the action, so a refused action leaves no row."""

    key = models.CharField(max_length=200, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    location = models.CharField(max_length=LOCATION_LENGTH, blank=True, default="")
    message = models.CharField(max_length=MESSAGE_LENGTH, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return self.key
