"""The earlier rounds' version (``StandingsState.complete_rounds_position``): kept by the
standings refresh, so the public page reads one row for it, not every table."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0014_followed_games"),
    ]

    operations = [
        migrations.AddField(
            model_name="standingsstate",
            name="complete_rounds_position",
            field=models.BigIntegerField(default=0),
        ),
    ]
