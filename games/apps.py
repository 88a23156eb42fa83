from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games (event store)"

    def ready(self) -> None:
        # Registers the tasks the outbox sends by name, in web processes too.
        from games import tasks  # noqa: F401
