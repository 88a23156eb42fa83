"""The club's people in the browser: the people page (players, logins, roles,
invitations) for its directors, the invitation's own page where a new login joins, a
table's scorekeeper chosen on the desk, and self check-in. The writes are
:mod:`league.people` and :mod:`league.checkin`; the words, :mod:`web.people.words`."""
