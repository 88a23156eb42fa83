"""The director's desk, one module per job: the pages it reads (:mod:`.pages`: the club
page, the desk, round control's live tables), the tournament form and closing
(:mod:`.tournament`, the form itself in :mod:`.forms`), registrations
(:mod:`.registrations`), rounds (:mod:`.rounds`: generate, edit the draft, publish), a
table's corrections (:mod:`.corrections`) and correcting an earlier hand
(:mod:`.hands`); their routes in :mod:`.urls`. What the views share is in
:mod:`.common`."""
