"""Moderation in the Django admin: reports to review, messages to remove, users to silence."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from chat import services
from chat.models import Message, Mute, Report, Silence


def _silence(modeladmin, request, users, hours: int) -> None:
    authors = {user.pk: user for user in users}
    for user in authors.values():
        services.chat_silence(user=user, hours=hours, by=request.user, reason="admin action")
    modeladmin.message_user(
        request,
        ngettext(
            "Silenced %(count)s user for %(hours)s h.",
            "Silenced %(count)s users for %(hours)s h.",
            len(authors),
        )
        % {"count": len(authors), "hours": hours},
    )


def _remove(modeladmin, request, message_ids) -> None:
    removed = services.chat_messages_remove(message_ids=list(message_ids), by=request.user)
    modeladmin.message_user(
        request,
        ngettext("Removed %(count)s message.", "Removed %(count)s messages.", removed)
        % {"count": removed},
        messages.SUCCESS,
    )


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "room", "author", "text", "removed_at")
    list_filter = ("removed_at",)
    search_fields = ("text", "author__username", "room")
    raw_id_fields = ("author",)
    actions = ["remove_messages", "silence_authors_hour", "silence_authors_day"]

    @admin.action(description=_("Remove the selected messages (shown to nobody)"))
    def remove_messages(self, request, queryset):
        _remove(self, request, queryset.values_list("pk", flat=True))

    @admin.action(description=_("Silence their authors for 1 hour"))
    def silence_authors_hour(self, request, queryset):
        _silence(self, request, [m.author for m in queryset.select_related("author")], 1)

    @admin.action(description=_("Silence their authors for 24 hours"))
    def silence_authors_day(self, request, queryset):
        _silence(self, request, [m.author for m in queryset.select_related("author")], 24)


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("created_at", "reporter", "author", "text", "reason", "resolved")
    list_filter = ("resolved",)
    raw_id_fields = ("message", "reporter")
    actions = [
        "remove_reported",
        "silence_authors_hour",
        "silence_authors_day",
        "mark_resolved",
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("message__author", "reporter")

    @admin.display(description=_("author"))
    def author(self, report):
        return report.message.author

    @admin.display(description=_("message"))
    def text(self, report):
        return report.message.text

    @admin.action(description=_("Remove the reported messages"))
    def remove_reported(self, request, queryset):
        _remove(self, request, queryset.values_list("message_id", flat=True))

    @admin.action(description=_("Silence the reported authors for 1 hour"))
    def silence_authors_hour(self, request, queryset):
        _silence(self, request, [r.message.author for r in queryset], 1)

    @admin.action(description=_("Silence the reported authors for 24 hours"))
    def silence_authors_day(self, request, queryset):
        _silence(self, request, [r.message.author for r in queryset], 24)

    @admin.action(description=_("Mark as reviewed (no action)"))
    def mark_resolved(self, request, queryset):
        queryset.update(resolved=True)


@admin.register(Silence)
class SilenceAdmin(admin.ModelAdmin):
    list_display = ("user", "until", "reason", "created_by", "created_at")
    raw_id_fields = ("user", "created_by")


@admin.register(Mute)
class MuteAdmin(admin.ModelAdmin):
    list_display = ("user", "muted", "created_at")
    raw_id_fields = ("user", "muted")
