from django.apps import AppConfig


class LeagueConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "league"
    verbose_name = "League (clubs, players, tournaments)"

    def ready(self) -> None:
        from games import outbox
        from games.access import register_recorder_check
        from league import tasks  # noqa: F401  (registers the tasks the outbox sends by name)
        from league.ratings import TRIGGERS as RATING_TRIGGERS
        from league.selectors import records_club_game
        from league.standings import TRIGGERS as STANDINGS_TRIGGERS

        register_recorder_check(records_club_game)
        outbox.subscribe("league.tasks.refresh_standings", STANDINGS_TRIGGERS)
        outbox.subscribe("league.tasks.refresh_ratings", RATING_TRIGGERS)
