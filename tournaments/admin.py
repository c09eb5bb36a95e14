"""The schedule in the admin: staff add, change and pause recurring events here; the
events themselves are changed through the site's own pages and services."""

from django.contrib import admin

from tournaments.models import ScheduleEntry, Trophy


@admin.register(ScheduleEntry)
class ScheduleEntryAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "kind",
        "format",
        "cadence",
        "hour",
        "minute",
        "clock_initial",
        "clock_increment",
        "bots_allowed",
        "people_only",
        "active",
    )
    list_filter = ("active", "cadence", "kind", "format")
    list_editable = ("active",)
    fieldsets = (
        (None, {"fields": ("name", "active", "kind", "format", "table_size", "max_players")}),
        (
            "Length and clock",
            {"fields": ("rounds", "duration_minutes", "clock_initial", "clock_increment", "rated")},
        ),
        (
            "When (UTC)",
            {"fields": ("cadence", "minute", "hour", "weekday", "day", "create_ahead_hours")},
        ),
        ("Who", {"fields": ("bots_allowed", "people_only")}),
    )


@admin.register(Trophy)
class TrophyAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "place", "season", "tournament")
    list_filter = ("kind", "season", "place")
    readonly_fields = ("user", "kind", "place", "season", "tournament", "created_at")
