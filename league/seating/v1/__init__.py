"""The seating algorithms of version 1, as they were before look-ahead seating: frozen,
never edited, so that a round stored with a version-1 request (``algorithm`` absent)
is computed again exactly as it was seated, notes included. New rounds use the
methods of :mod:`league.seating`."""
