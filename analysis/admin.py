from django.contrib import admin

from analysis.models import Analysis


@admin.register(Analysis)
class AnalysisAdmin(admin.ModelAdmin):
    list_display = ("game", "status", "done", "total", "runs", "requested_at", "finished_at")
    list_filter = ("status",)
    raw_id_fields = ("game", "requested_by")
