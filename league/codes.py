"""Codes people type: an invitation's one-time code and a tournament's check-in code.

Random letters and digits from Crockford's base 32 (no I, L, O or U, so nothing reads as
another character); read back forgivingly — any case, spaces and dashes ignored, ``O``
read as ``0`` and ``I``/``L`` as ``1`` — and shown in groups of four. A code that lets
someone in (an invitation's) is stored only as its :func:`digest`. Pure Python.

>>> normalise(" ab1o-iL2z ")
'AB10112Z'
>>> grouped("K7Q4M2XPAB3D")
'K7Q4-M2XP-AB3D'
>>> len(new_code(12)), set(new_code(40)) <= set(ALPHABET)
(12, True)
>>> digest("K7Q4-m2xp ab3d") == digest("K7Q4M2XPAB3D")
True
"""

from __future__ import annotations

import hashlib
import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
# What people mistype for the letters the alphabet leaves out.
_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})
# A typed code longer than this is no code: it is refused before anything is compared.
MAX_TYPED = 40


def new_code(length: int) -> str:
    """``length`` random characters of the alphabet (5 bits each)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def normalise(text: str) -> str:
    """A typed or linked code as it was made: upper case, no spaces or dashes."""
    kept = "".join(char for char in text[:MAX_TYPED].upper() if char not in " -\t")
    return kept.translate(_READ_AS)


def grouped(code: str) -> str:
    """A code as shown: groups of four joined by dashes."""
    return "-".join(code[i : i + 4] for i in range(0, len(code), 4))


def digest(text: str) -> str:
    """What is stored of a code that lets someone in: the SHA-256 of its normal form.
    The codes are random (60 bits for an invitation) and expire within days, so a fast
    hash is enough; nothing a person chose is hashed here."""
    return hashlib.sha256(normalise(text).encode()).hexdigest()
