"""The scorekeeper's page (:mod:`.page`) and what it reads from a game's public log
(:mod:`.log`)."""
