"""The API: the one place HTTP meets the domain.

Every API view (``api.games``, ``api.league``, ``api.standings``, ``api.ratings``,
``api.archive``) and its routes (``api.urls``); the base view and request helpers
(``api.views``); idempotent writes (``api.idempotency``); and the one exception handler,
which maps each :class:`core.DomainError` kind to an HTTP status (``api.errors``). The
apps below (``games``, ``league``) never import this package."""
