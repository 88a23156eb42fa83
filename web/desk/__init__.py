"""The director's desk, one module per job: the pages it reads (:mod:`.pages`: the club
page, the desk, round control's live tables), the tournament form and closing
(:mod:`.tournament`, the form itself in :mod:`.forms`), registrations
(:mod:`.registrations`; a list at the door and a drop-out's confirm step in
:mod:`.door`), rounds (:mod:`.rounds`: generate, edit the draft, publish; the round
clock's start and stop in :mod:`.clock_views`), a
table's corrections (:mod:`.corrections`) and correcting an earlier hand
(:mod:`.hands`); their routes in :mod:`.urls`. What the views share is in
:mod:`.common`."""
