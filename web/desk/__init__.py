"""The director's desk, one module per job: the pages it reads (:mod:`.pages`), the
tournament form (:mod:`.forms`), and correcting an earlier hand (:mod:`.hands`)."""
