from django.apps import AppConfig


class WebConfig(AppConfig):
    """The browser side: server-rendered pages for directors, scorekeepers, players and
    the public. It sits above the league and games apps and reaches them only through
    their services and selectors: web -> league -> games -> engine."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "web"
    verbose_name = "Web pages"
