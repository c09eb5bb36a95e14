"""The schedule in the admin: staff add, change and pause recurring events here; the
events themselves are changed through the site's own pages and services."""

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from tournaments.models import ScheduleEntry, Trophy
from tournaments.scheduling import schedule_entry_check


class ScheduleEntryForm(forms.ModelForm):
    house_bots = forms.MultipleChoiceField(
        label=_("House bots"),
        choices=User.BotLevel.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Entered in each event when it is created; only where bots may join."),
    )

    class Meta:
        model = ScheduleEntry
        fields = [
            field.name
            for field in ScheduleEntry._meta.fields
            if field.editable and not field.primary_key
        ]

    def clean(self):
        """The create form's own checks on the entry's settings, and the cadence's limits."""
        data = super().clean()
        if self.errors:
            return data
        try:
            schedule_entry_check(ScheduleEntry(**data))
        except ValidationError as error:
            for field, messages in error.message_dict.items():
                self.add_error(field if field in self.fields else None, messages)
        return data


@admin.register(ScheduleEntry)
class ScheduleEntryAdmin(admin.ModelAdmin):
    form = ScheduleEntryForm
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
            _("Length and clock"),
            {"fields": ("rounds", "duration_minutes", "clock_initial", "clock_increment", "rated")},
        ),
        (
            _("When (UTC)"),
            {"fields": ("cadence", "minute", "hour", "weekday", "day", "create_ahead_hours")},
        ),
        (_("Who"), {"fields": ("bots_allowed", "house_bots", "people_only")}),
    )


@admin.register(Trophy)
class TrophyAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "place", "season", "tournament")
    list_filter = ("kind", "season", "place")
    readonly_fields = ("user", "kind", "place", "season", "tournament", "created_at")
