"""English: dates as the club writes them on its sheets, year first (2026-11-23), not
Django's American default (11/23/2026); times on the 24-hour clock."""

SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
