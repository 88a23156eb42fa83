"""Events as one viewer may see them: a seat (its own cards only) or the public
(``seat`` None: spectators, scorekeepers, owners who do not play).

While a hand is being played, what is secret stays out of every event payload:

- ``HandDealt`` — digital: the ``deck`` order is removed; the viewer gets its own
  ``hand`` and the ``upcard``. Physical: ``hands`` keeps only the viewer's seat.
- ``CardDrawn`` from the stock — the ``card`` is shown only to the seat that drew it.
- ``Knocked`` — the face-down ``card`` is shown only to the knocker.
- ``StockRestocked`` — the new stock ``order`` is shown to nobody.

Once the hand is over (scored, or the game ended) its events are shown whole: the
deck, the draws and the hands are public after the showdown. A redacted event
carries ``"redacted": true``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import GameState
from engine.cards import ALL_CARDS, mask_to_cards
from games import store
from games.models import GameEvent

LIVE_STATUSES = ("playing", "showdown")


def live_hand(state: GameState) -> int | None:
    """The number of the hand still in play in ``state`` (its secrets are kept), or None."""
    if state.hand is None or state.status not in LIVE_STATUSES:
        return None
    return state.hand.number


def event_payload(row: GameEvent, data: dict[str, Any], redacted: bool) -> dict[str, Any]:
    return {
        "seq": row.seq,
        "position": row.position,
        "type": row.type,
        "schema_version": row.schema_version,
        "data": data,
        "source": row.source,
        "actor": row.actor_id,
        "recorded_at": row.recorded_at.isoformat() if row.recorded_at else None,
        "redacted": redacted,
    }


def redact_events(
    rows: Sequence[GameEvent],
    *,
    state_before: GameState | None,
    final_state: GameState,
    seat: int | None,
    steps: Sequence[GameState] | None = None,
) -> list[dict[str, Any]]:
    """``rows`` (consecutive, following ``state_before``) as ``seat`` may see them, given
    that the log currently ends in ``final_state``. ``steps``, when the caller has them
    (a write just folded these events), are the states after each row; otherwise the
    rows are replayed from ``state_before``."""
    secret_hand = live_hand(final_state)
    if steps is None:
        steps = store.fold_steps(state_before, store.to_engine(rows))
    before = state_before
    out = []
    for row, after in zip(rows, steps, strict=True):
        if row.type == "HandDealt":  # its hand is the one it deals
            hand_number: int | None = after.hand.number if after.hand is not None else None
        else:
            hand_number = before.hand.number if before is not None and before.hand is not None else None
        data = row.data
        redacted = False
        if secret_hand is not None and hand_number == secret_hand:
            data, redacted = _redact(row.type, row.data, after, seat)
        out.append(event_payload(row, data, redacted))
        before = after
    return out


def _redact(
    kind: str, data: dict[str, Any], after: GameState, seat: int | None
) -> tuple[dict[str, Any], bool]:
    if kind == "HandDealt":
        data = dict(data)
        if data.get("deck") is not None:
            data["deck"] = None
            hand = after.hand
            if hand is not None:
                if seat is not None and hand.sizes[seat]:
                    data["hands"] = {str(seat): [c.code for c in mask_to_cards(hand.hands[seat])]}
                if data.get("upcard") is None and hand.pile:
                    data["upcard"] = ALL_CARDS[hand.pile[-1]].code
            return data, True
        hands = data.get("hands") or {}
        visible = {k: v for k, v in hands.items() if seat is not None and k == str(seat)}
        if visible != hands:
            data["hands"] = visible
            return data, True
        return data, False
    drawn_secretly = kind == "CardDrawn" and data.get("source") == "stock"
    if drawn_secretly and data.get("card") is not None and data.get("seat") != seat:
        return {**data, "card": None}, True
    if kind == "Knocked" and data.get("card") is not None and data.get("seat") != seat:
        return {**data, "card": None}, True
    if kind == "StockRestocked" and data.get("order") is not None:
        return {**data, "order": None}, True
    return data, False
