"""What the store refuses to write."""


class CorruptStream(RuntimeError):
    """The stored log does not agree with its game row: it replays to another version,
    or holds events after the row's version (verify_games reports it)."""


class WriteConflict(Exception):
    """The game is no longer at the version the write was decided on: another write
    got there first. Nothing of this write was stored."""
