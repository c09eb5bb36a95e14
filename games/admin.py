"""Games in the admin: read-mostly, since every change to a game goes through games.services."""

from django.contrib import admin

from games.models import Game, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "clock_ms", "forfeit", "score", "rank", "last_seen")
    readonly_fields = fields
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "status", "rated", "ply", "termination", "created_at")
    list_filter = ("kind", "status", "rated")
    inlines = [SeatInline]
    readonly_fields = ("seed", "state", "initial", "moves", "record", "result", "ply")
