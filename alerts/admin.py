from django.contrib import admin

from alerts.models import Alert, AlertSettings, PushSubscription


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    """The browser's endpoint and keys are secrets (whoever holds them can push to the
    player): the admin shows the endpoint's digest and may delete, never show or edit."""

    list_display = ("user", "label", "created_at", "last_success_at")
    search_fields = ("user__username",)
    fields = ("user", "label", "endpoint_digest", "created_at", "last_success_at")
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(AlertSettings)
class AlertSettingsAdmin(admin.ModelAdmin):
    list_display = (
        "user",
        "email_turns",
        "email_challenges",
        "email_games",
        "email_tournaments",
        "email_clocks",
    )
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(Alert)
class AlertAdmin(admin.ModelAdmin):
    list_display = ("user", "event", "subject", "ply", "created_at", "mailed_at")
    list_filter = ("event",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
