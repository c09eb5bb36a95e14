"""A version on every game's row, moved on by the database itself on every update.

``games.held`` keeps a game in memory between a process's own moves and trusts the copy
only while the row's version is the one it wrote. A trigger, not the model, moves the
version on, so no write can leave a copy looking current: not a queryset ``update``, not
an operator's SQL.
"""

from django.db import migrations, models

POSTGRESQL_FORWARD = """
CREATE FUNCTION games_game_version_next() RETURNS trigger AS $$
BEGIN
    NEW.version := OLD.version + 1;
    RETURN NEW;
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_game_version BEFORE UPDATE ON games_game
    FOR EACH ROW EXECUTE FUNCTION games_game_version_next();
"""
POSTGRESQL_BACKWARD = """
DROP TRIGGER IF EXISTS games_game_version ON games_game;
DROP FUNCTION IF EXISTS games_game_version_next();
"""
# SQLite's triggers cannot change the row being written: they update it again after.
SQLITE_FORWARD = """
CREATE TRIGGER games_game_version AFTER UPDATE ON games_game
    FOR EACH ROW WHEN NEW.version = OLD.version
    BEGIN UPDATE games_game SET version = OLD.version + 1 WHERE id = NEW.id; END;
"""
SQLITE_BACKWARD = "DROP TRIGGER IF EXISTS games_game_version;"


def _run(sql_by_vendor):
    def run(apps, schema_editor):
        sql = sql_by_vendor.get(schema_editor.connection.vendor)
        if sql is None:
            raise NotImplementedError(
                f"games.held needs a version trigger for {schema_editor.connection.vendor}"
            )
        schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_rematch_offer"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="version",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(
            _run({"postgresql": POSTGRESQL_FORWARD, "sqlite": SQLITE_FORWARD}),
            _run({"postgresql": POSTGRESQL_BACKWARD, "sqlite": SQLITE_BACKWARD}),
        ),
    ]
