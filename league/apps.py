from django.apps import AppConfig


class LeagueConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "league"
    verbose_name = "League (clubs, players, tournaments)"

    def ready(self) -> None:
        from games.access import register_recorder_check
        from league.selectors import records_club_game

        register_recorder_check(records_club_game)

        from games import outbox
        from league.standings import TRIGGERS

        outbox.subscribe("league.tasks.refresh_standings", TRIGGERS)
