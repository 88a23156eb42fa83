from django.apps import AppConfig


class LeagueConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "league"
    verbose_name = "League (clubs, players, tournaments)"

    def ready(self) -> None:
        from config.health import add_report
        from games import outbox
        from games.access import register_director_check, register_recorder_check
        from league import projection_failures, ratings, table_views, tasks
        from league.access import directs_club_game, records_club_game
        from league.standings import TRIGGERS

        register_recorder_check(records_club_game)
        register_director_check(directs_club_game)
        # A table is complete when its game finishes or is abandoned.
        outbox.subscribe(tasks.GAME_ENDED, ["GameFinished", "GameAbandoned"])
        # Standings follow every event that can change a result, or what the pages show
        # of a table (league.table_views); ratings every finish.
        outbox.subscribe(tasks.REFRESH_STANDINGS, (*TRIGGERS, *table_views.SHOWN))
        outbox.subscribe(tasks.refresh_ratings.name, ratings.TRIGGERS)
        # /healthz says how many standings and ratings projections are failing.
        add_report("projections", projection_failures.health_report)
