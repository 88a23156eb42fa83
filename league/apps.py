from django.apps import AppConfig


class LeagueConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "league"
    verbose_name = "League (clubs, players, tournaments)"

    def ready(self) -> None:
        from games import outbox
        from games.access import register_recorder_check
        from league import tasks
        from league.selectors import records_club_game

        register_recorder_check(records_club_game)
        # A table is complete when its game finishes or is abandoned.
        outbox.subscribe(tasks.GAME_ENDED, ["GameFinished", "GameAbandoned"])
