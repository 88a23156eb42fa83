"""French: day first (23/11/2026 21:40), as Django's own French formats say; written here
so that a change of Django's defaults changes nothing a French page shows."""

SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
