"""Ratings in the admin: read-only, so the audit trail of changes stays as the games made it."""

from django.contrib import admin

from ratings.models import Rating, RatingChange


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ["user", "kind", "value", "games", "updated_at"]
    list_filter = ["kind"]
    search_fields = ["user__username"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ["created", "user", "kind", "game", "puzzle_key", "before", "after", "k"]
    list_filter = ["kind"]
    search_fields = ["user__username", "puzzle_key"]
    list_select_related = ["user", "game"]
