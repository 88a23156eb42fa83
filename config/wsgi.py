"""The WSGI application. Run it under gunicorn with the project's gunicorn settings,
``gunicorn -c python:config.gunicorn config.wsgi:application``, which load it once in
the master process and freeze what it loaded before forking the workers
(:mod:`config.gunicorn`)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
