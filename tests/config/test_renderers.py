"""config.renderers.FastJSONRenderer renders what DRF's JSONRenderer renders."""

from __future__ import annotations

import datetime
import decimal
import json
import uuid

import pytest
from django.utils.translation import gettext_lazy
from rest_framework.renderers import JSONRenderer

from config.renderers import FastJSONRenderer

PAYLOADS = [
    {"version": 3, "events": [{"seq": 1, "data": {"card": "QS"}, "redacted": False}], "state": None},
    {"name": "Zoë ♣ 10♥", "line": "a\u2028b\u2029c", "empty": {}, "list": [1, [2, [3]]]},
    {
        "at": datetime.datetime(2026, 11, 21, 15, 32, 52, 1229, tzinfo=datetime.UTC),
        "local": datetime.datetime(2026, 11, 21, 15, 32, 52),
        "day": datetime.date(2026, 11, 21),
        "time": datetime.time(9, 30),
    },
    {"uid": uuid.UUID("12345678-1234-5678-1234-567812345678"), "amount": decimal.Decimal("1.50")},
    {"message": gettext_lazy("Invalid token."), "tuple": (1, "two"), "big": 2**62, "neg": -7},
    {1: "int key", "nested": {2: [True, False, None]}},
    [],
    "plain string",
]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_same_bytes_as_drf(payload: object) -> None:
    assert FastJSONRenderer().render(payload) == JSONRenderer().render(payload)


def test_output_stays_a_javascript_subset() -> None:
    rendered = FastJSONRenderer().render({"line": "x\u2028y\u2029z"})
    assert b"\\u2028" in rendered and b"\\u2029" in rendered
    assert json.loads(rendered) == {"line": "x\u2028y\u2029z"}


def test_nothing_renders_empty() -> None:
    assert FastJSONRenderer().render(None) == b""


def test_indented_rendering_is_drfs() -> None:
    payload = {"a": [1, 2], "b": {"c": None}}
    renderer = FastJSONRenderer()
    indented = renderer.render(payload, "application/json; indent=2", {})
    assert indented == JSONRenderer().render(payload, "application/json; indent=2", {})
    assert b"\n  " in indented


def test_unknown_type_is_refused_like_drf() -> None:
    with pytest.raises(TypeError):
        FastJSONRenderer().render({"x": object()})
