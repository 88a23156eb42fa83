"""gunicorn's settings for the web process (``gunicorn -c python:config.gunicorn
config.wsgi:application``); the command line may add or override any of them.

The application is loaded once, in the master (``preload_app``), and everything
loaded by then is moved out of the garbage collector's sight (``gc.freeze()``, in the
``pre_fork`` hook) before a worker is forked: Django, the apps, their modules and the
URLconf live as long as the process, so no collection in a worker walks them again,
and a worker's collections do not write to the pages it shares with the master. This
is the way the ``gc`` module's documentation gives for a process that forks without
``exec``. docs/performance.md has what it saves.
"""

from __future__ import annotations

import gc
from importlib import import_module
from typing import Any

preload_app = True


def freeze_loaded_objects() -> None:
    """Import the URLconf (and with it every view, which Django would otherwise import
    at the first request), collect what loading left behind, and freeze the rest."""
    from django.conf import settings

    import_module(settings.ROOT_URLCONF)
    gc.collect()
    gc.freeze()


def pre_fork(server: Any, worker: Any) -> None:
    """gunicorn's hook, run in the master before each worker is forked."""
    freeze_loaded_objects()
