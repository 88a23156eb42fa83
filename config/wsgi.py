"""The WSGI application (gunicorn ``config.wsgi:application``).

Loading it also imports every view (the URLconf) and then freezes the garbage
collector's view of everything loaded so far (``gc.freeze()``): Django, the apps and
their modules live as long as the process, and without this every full collection
walks them all again. Measured under ``tests/bench/bench_api.py`` (a gunicorn worker
holds ~117,000 tracked objects after warming up, ~33,000 once frozen), a full
collection went from 70 to 350 ms of a worker's time to 15 to 45 ms, and such a pause
lands on whichever request the worker is serving.
"""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()


def _freeze_loaded_objects() -> None:
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports every view now, not on the first request
    gc.collect()
    gc.freeze()


_freeze_loaded_objects()
