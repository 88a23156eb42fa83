"""The scorekeeper's page, one module per job: the views (:mod:`.page`), what is
recorded and who may open it (:mod:`.target`), the page's actions in one table and
submitting an entry (:mod:`.actions`), what the panel draws (:mod:`.panel`), a showdown
hand's preview (:mod:`.preview`), and what the public log says about entries and cards
(:mod:`.log`)."""
