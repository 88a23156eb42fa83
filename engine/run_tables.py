"""Per-suit run tables shared by the arrangement code (no jokers).

A suit's cards are a 13-bit mask (bit ``rank - 1``). ``RUN_DW[mask]`` is the least
deadwood of those cards melded into runs only; ``RUN_COST[mask]`` the same as the
search's cost, ``deadwood << 6 | unmatched cards``.
"""

from __future__ import annotations

from engine.cards import CARD_VALUES

INF = 1 << 40
MASKS = tuple(1 << i for i in range(54))
SPREAD = 1 | 1 << 13 | 1 << 26 | 1 << 39  # one rank's bit in every suit
UNIT = tuple(CARD_VALUES[i] << 6 | 1 for i in range(13))  # cost of one unmatched card by rank bit


def _run_tables() -> tuple[list[int], list[int]]:
    """Per 13-bit suit mask: run-only deadwood and cost (every block of 3+ consecutive cards melds)."""
    deadwood = [0] * 8192
    cost = [0] * 8192
    for mask in range(1, 8192):
        low = (mask & -mask).bit_length() - 1
        high = low
        while high < 13 and mask >> high & 1:
            high += 1
        rest = mask & ~((1 << high) - 1)
        if high - low >= 3:
            deadwood[mask], cost[mask] = deadwood[rest], cost[rest]
        else:
            value = sum(CARD_VALUES[low:high])
            deadwood[mask] = deadwood[rest] + value
            cost[mask] = cost[rest] + (value << 6) + high - low
    return deadwood, cost


RUN_DW, RUN_COST = _run_tables()
