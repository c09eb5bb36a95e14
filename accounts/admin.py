from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.forms import PlayerAdminChangeForm, PlayerAdminCreationForm
from accounts.models import User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    add_form = PlayerAdminCreationForm
    form = PlayerAdminChangeForm
    list_display = ("username", "email", "is_bot", "bot_level", "is_staff", "date_joined")
    list_filter = ("is_bot", "bot_level", *UserAdmin.list_filter)
    fieldsets = (*UserAdmin.fieldsets, ("Bot", {"fields": ("is_bot", "bot_level")}))
