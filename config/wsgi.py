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
  body) a full collection runs if CPython would have run one by now. That is CPython's
  own rule (``collect_generations`` in ``Modules/gcmodule.c``): ten or more
  generation-1 collections since the last full one, and the oldest generation grown by
  more than a quarter of what survived that one. The quarter is what keeps full
  collections rare in a process whose old objects only grow slowly (the state caches),
  and an API request leaves nothing for them to find (``config.middleware``). The
  young generations stay automatic: they take a fraction of a millisecond.
"""

import gc
import os

from django.core.signals import request_finished
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# CPython's own thresholds for a full collection: generation-1 collections since the
# last, and growth of the oldest generation as a share of what survived the last.
FULL_COLLECTION_AFTER = gc.get_threshold()[2]
LONG_LIVED_GROWTH = 0.25


def _freeze_loaded_objects() -> None:
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports every view now, not on the first request
    gc.collect()
    gc.freeze()


class FullCollections:
    """``request_finished``: the full collection the interpreter no longer starts itself,
    when it would have started it."""

    def __init__(self) -> None:
        self.survivors = 0  # objects in the oldest generation after the last full collection
        self.looked_at = -1  # generation-1 collections counted when the oldest was last sized

    def __call__(self, **kwargs: object) -> None:
        if gc.get_count()[2] < FULL_COLLECTION_AFTER:
            return
        # Sizing the oldest generation walks it (about a millisecond for 100,000
        # objects): once per FULL_COLLECTION_AFTER generation-1 collections at most.
        middle = gc.get_stats()[1]["collections"]
        if self.looked_at >= 0 and middle - self.looked_at < FULL_COLLECTION_AFTER:
            return
        self.looked_at = middle
        if len(gc.get_objects(generation=2)) - self.survivors <= self.survivors * LONG_LIVED_GROWTH:
            return
        gc.collect()
        self.survivors = len(gc.get_objects(generation=2))
        self.looked_at = -1


collect_between_requests = FullCollections()


def _full_collections_between_requests() -> None:
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 2**31 - 1)  # generation 2: never during a request
    collect_between_requests.survivors = len(gc.get_objects(generation=2))  # after the freeze
    request_finished.connect(collect_between_requests, dispatch_uid="config.wsgi.collect_between_requests")


_freeze_loaded_objects()
_full_collections_between_requests()
