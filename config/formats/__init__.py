"""The site's own date and time formats by language (``FORMAT_MODULE_PATH``), over
Django's: each names only what it changes. Templates write ``|date:"SHORT_DATE_FORMAT"``
and ``|date:"SHORT_DATETIME_FORMAT"``, never a pattern, so a date reads the reader's way."""
