from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.forms import PlayerAdminChangeForm, PlayerAdminCreationForm
from accounts.models import Block, Follow, User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    add_form = PlayerAdminCreationForm
    form = PlayerAdminChangeForm
    list_display = ("username", "email", "is_bot", "bot_level", "is_staff", "date_joined")
    list_filter = ("is_bot", "bot_level", *UserAdmin.list_filter)
    fieldsets = (*UserAdmin.fieldsets, ("Bot", {"fields": ("is_bot", "bot_level")}))


@admin.register(Follow)
class FollowAdmin(admin.ModelAdmin):
    list_display = ("follower", "followed", "created_at")
    search_fields = ("follower__username", "followed__username")
    raw_id_fields = ("follower", "followed")


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin):
    """Moderators see who blocked whom (a pattern of blocks is a signal); the blocked
    player is never told."""

    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")
    raw_id_fields = ("blocker", "blocked")
