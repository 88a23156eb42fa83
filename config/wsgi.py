"""The WSGI application (gunicorn ``config.wsgi:application``).

Loading it sets up the garbage collector for a web process:

- It imports every view (the URLconf) and then freezes the collector's view of
  everything loaded so far (``gc.freeze()``): Django, the apps and their modules live
  as long as the process, and without this every full collection walks them all
  again. Measured under ``tests/bench/bench_api.py`` (a gunicorn worker holds ~117,000
  tracked objects after warming up, ~33,000 once frozen), a full collection went from
  70 to 350 ms of a worker's time to 15 to 45 ms.
- Full collections (generation 2) then run between requests, after the response has
  been sent, instead of in the middle of whichever request happened to allocate the
  last object: the automatic trigger for generation 2 is switched off, and when the
  request ends (Django's ``request_finished``, sent once the server has written the
  body) a full collection runs if CPython would have wanted one by now (ten or more
  generation-1 collections since the last). The young generations stay automatic:
  they take a fraction of a millisecond.
"""

import gc
import os

from django.core.signals import request_finished
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# CPython's own threshold for a full collection: generation-1 collections since the last.
FULL_COLLECTION_AFTER = gc.get_threshold()[2]


def _freeze_loaded_objects() -> None:
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports every view now, not on the first request
    gc.collect()
    gc.freeze()


def collect_between_requests(**kwargs: object) -> None:
    """``request_finished``: the full collection the interpreter no longer starts itself."""
    if gc.get_count()[2] >= FULL_COLLECTION_AFTER:
        gc.collect()


def _full_collections_between_requests() -> None:
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 2**31 - 1)  # generation 2: never during a request
    request_finished.connect(collect_between_requests, dispatch_uid="config.wsgi.collect_between_requests")


_freeze_loaded_objects()
_full_collections_between_requests()
