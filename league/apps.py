from django.apps import AppConfig


class LeagueConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "league"
    verbose_name = "League (clubs, players, tournaments)"

    def ready(self) -> None:
        from games import outbox
        from games.access import register_recorder_check
        from league import ratings, standings, tasks  # tasks: registers what the outbox sends by name
        from league.selectors import records_club_game

        register_recorder_check(records_club_game)
        outbox.subscribe(tasks.refresh_standings.name, standings.TRIGGERS)
        outbox.subscribe(tasks.refresh_ratings.name, ratings.TRIGGERS)
